//! The replay screen: a stored game stepped through forwards and backwards, with the board,
//! the last move and its flips, the opening's name, the counts, the move number and the move
//! list; and its variations: another move played by hand (a square chosen with the cursor) or
//! by the computer at any point, saved to the history as it is made, the lines going on from
//! the position shown gone round, and the line a variation leaves gone back to; and the game
//! analysed in the background (every move against the engine's best, each side's disc loss
//! and its rating on the human scale, the move shown measured).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use reversi_core::{Color, Move, Square};
use reversi_engine::levels::Level;
use reversi_players::Ai;

use super::board::{board_frame, Board};
use super::explorer::ExplorerPanel;
use super::game::Note;
use super::theme::Theme;
use super::worker::{Job, Report, Workers};
use reversi_game::analysis::{Analysis, Verdict};
use reversi_game::human_scale::{rating_level, HumanScale};
use reversi_game::{outcome_text, player_name, record_note, Replay};
use reversi_store::History;

/// The computer's level for moves in a replay: quick (a few ms a move), and strong enough to
/// show a sensible line.
const COMPUTER_LEVEL: u8 = 6;

/// What the app does after a key on the replay screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayAction {
    Stay,
    Leave,
}

/// The game's analysis: not asked for, under way, or done.
enum Analysing {
    No,
    Running { job: Job, done: usize, total: usize },
    Done(Box<Analysis>),
}

/// The replay screen: the game, a move number being typed, the square being chosen for a
/// move, and the history the variations are saved to.
pub struct ReplayScreen {
    pub replay: Replay,
    /// Digits typed for a jump, applied by Enter.
    pub typed: String,
    /// While choosing a square to play: the cursor.
    pub cursor: Option<Square>,
    pub note: Option<Note>,
    /// Where variations are kept (`None`: the replay cannot branch).
    history: Option<History>,
    /// The computer's move being thought about, for the line and ply it was asked for.
    computer: Option<(Job, usize, usize)>,
    analysing: Analysing,
}

impl ReplayScreen {
    #[must_use]
    pub fn new(replay: Replay, history: Option<History>) -> ReplayScreen {
        ReplayScreen {
            replay,
            typed: String::new(),
            cursor: None,
            note: None,
            history,
            computer: None,
            analysing: Analysing::No,
        }
    }

    /// Whether the computer is thinking about a move now.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.computer.is_some()
    }

    /// Whether the game is being analysed now.
    #[must_use]
    pub fn is_analysing(&self) -> bool {
        matches!(self.analysing, Analysing::Running { .. })
    }

    /// Stops the computer's thinking and the analysis, and forgets them.
    pub fn cancel(&mut self) {
        self.stop_computer();
        if let Analysing::Running { job, .. } = &self.analysing {
            job.stop();
            self.analysing = Analysing::No;
        }
    }

    /// Stops the computer's thinking and forgets it.
    fn stop_computer(&mut self) {
        if let Some((job, _, _)) = self.computer.take() {
            job.stop();
        }
    }

    pub fn on_key(&mut self, key: KeyEvent, workers: &mut Workers) -> ReplayAction {
        if key.code != KeyCode::Char('c') {
            self.stop_computer();
        }
        self.note = None;
        if let Some(cursor) = self.cursor {
            if let Some(action) = self.on_key_choosing(key, cursor) {
                return action;
            }
        }
        let r = &mut self.replay;
        match key.code {
            KeyCode::Left | KeyCode::Up | KeyCode::Char('h' | 'k') => r.back(),
            KeyCode::Right | KeyCode::Down | KeyCode::Char('l' | 'j' | ' ') => r.forward(),
            KeyCode::Home | KeyCode::Char('g') => r.jump(0),
            KeyCode::End | KeyCode::Char('G') => r.jump(usize::MAX),
            KeyCode::Char(d) if d.is_ascii_digit() && self.typed.len() < 4 => self.typed.push(d),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Enter => {
                if let Ok(n) = std::mem::take(&mut self.typed).parse::<usize>() {
                    r.jump(n);
                }
            }
            KeyCode::Char('p') => self.choose(),
            KeyCode::Char('c') => self.computer(workers),
            KeyCode::Char('a') => self.analyze(workers),
            KeyCode::Char('v') => self.next_line(),
            KeyCode::Char('b') => self.parent_line(),
            KeyCode::Esc if !self.typed.is_empty() => self.typed.clear(),
            KeyCode::Esc | KeyCode::Char('q') => {
                self.cancel();
                return ReplayAction::Leave;
            }
            _ => {}
        }
        ReplayAction::Stay
    }

    /// Keys while a square is being chosen; `None` for those that work as elsewhere.
    fn on_key_choosing(&mut self, key: KeyEvent, cursor: Square) -> Option<ReplayAction> {
        let step = |dc: i16, dr: i16| {
            let n = i16::from(self.replay.position().size().get());
            let c = (i16::from(cursor.col()) + dc).rem_euclid(n);
            let r = (i16::from(cursor.row()) + dr).rem_euclid(n);
            Some(Square::new(c as u8, r as u8))
        };
        self.cursor = match key.code {
            KeyCode::Left | KeyCode::Char('h') => step(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => step(1, 0),
            KeyCode::Up | KeyCode::Char('k') => step(0, -1),
            KeyCode::Down | KeyCode::Char('j') => step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => {
                let mv = if self.replay.position().moves() == [Move::Pass] {
                    Move::Pass
                } else {
                    Move::Play(cursor)
                };
                self.play(mv);
                return Some(ReplayAction::Stay);
            }
            KeyCode::Esc | KeyCode::Char('p') => None,
            _ => return None,
        };
        Some(ReplayAction::Stay)
    }

    /// The next line going on from the position shown.
    fn next_line(&mut self) {
        if !self.replay.next_line_here() {
            self.info("No other move was played here");
        }
    }

    /// The line the variation shown leaves.
    fn parent_line(&mut self) {
        if !self.replay.parent_line() {
            self.info("This is the main line");
        }
    }

    /// Starts choosing a square, on the first legal one.
    fn choose(&mut self) {
        let pos = self.replay.position();
        if pos.moves().is_empty() {
            self.error("The game is over here: no move to play");
            return;
        }
        self.cursor = Some(first_square(&self.replay));
    }

    /// Plays `mv` where the replay is, saving the variation it makes or grows.
    fn play(&mut self, mv: Move) {
        let Some(history) = &mut self.history else {
            self.error("No game database here to keep a variation in");
            return;
        };
        let color = self.replay.position().turn();
        match history.play(&mut self.replay, mv) {
            Ok(line) => {
                let name = self.replay.line_name(line);
                let played = match mv {
                    Move::Pass => format!("{color} passed"),
                    Move::Play(sq) => format!("{color} played {sq}"),
                };
                self.info(format!("{played}: {name}"));
                if self.cursor.is_some() {
                    self.cursor = (!self.replay.position().moves().is_empty())
                        .then(|| first_square(&self.replay));
                }
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Asks the computer for the next move, thought about in the background.
    fn computer(&mut self, workers: &mut Workers) {
        if self.computer.is_some() {
            return;
        }
        if self.history.is_none() {
            self.error("No game database here to keep a variation in");
            return;
        }
        let ai = Level::new(COMPUTER_LEVEL).map_or(Ai::default(), Ai::Level);
        let r = &self.replay;
        let seed = (r.info.id.0 as u64)
            .wrapping_mul(64)
            .wrapping_add(r.ply() as u64);
        match r.computer_turn(crate::advisor::get(), ai, seed) {
            Some(turn) => {
                let (shown, ply) = (r.shown(), r.ply());
                self.computer = Some((workers.think(turn), shown, ply));
                self.info(format!("The computer ({ai}) is thinking…"));
            }
            None => self.error("The game is over here: no move to play"),
        }
    }

    /// Analyses the game's own moves in the background, at the level the human scale is
    /// measured at, so that each side gets its rating.
    fn analyze(&mut self, workers: &mut Workers) {
        match self.analysing {
            Analysing::Running { .. } => {}
            Analysing::Done(_) => self.info("The game is analysed: its figures are below"),
            Analysing::No => {
                let job = workers.analyze(self.replay.game.clone(), rating_level());
                self.analysing = Analysing::Running {
                    job,
                    done: 0,
                    total: self.replay.game.positions().len(),
                };
            }
        }
    }

    /// Takes in a report of a background job; the computer's move is played when the replay
    /// is still where it was asked for.
    pub fn on_report(&mut self, report: Report) {
        match report {
            Report::AnalysisProgress { job, done, total } => {
                if let Analysing::Running {
                    job: running,
                    done: d,
                    total: t,
                } = &mut self.analysing
                {
                    if running.id == job {
                        (*d, *t) = (done, total);
                    }
                }
                return;
            }
            Report::Analysed { job, analysis } => {
                if let Analysing::Running { job: running, .. } = &self.analysing {
                    if running.id == job {
                        self.analysing = analysis.map_or(Analysing::No, Analysing::Done);
                    }
                }
                return;
            }
            _ => {}
        }
        let Report::Decided { job, decision } = report else {
            return;
        };
        let Some((_, shown, ply)) = self.computer.take_if(|(j, _, _)| j.id == job) else {
            return;
        };
        let r = &self.replay;
        match decision {
            Some(d) if r.shown() == shown && r.ply() == ply => self.play(d.mv),
            _ => self.note = None,
        }
    }

    fn info(&mut self, text: impl Into<String>) {
        self.note = Some(Note {
            text: text.into(),
            error: false,
        });
    }

    fn error(&mut self, text: impl Into<String>) {
        self.note = Some(Note {
            text: text.into(),
            error: true,
        });
    }

    pub fn render(&self, explorer: &ExplorerPanel, theme: Theme, area: Rect, buf: &mut Buffer) {
        let r = &self.replay;
        let info = &r.info;
        let [title, middle, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(area);
        Line::styled(
            format!(
                " Replay of game {} · {} {} · {} vs {}",
                info.id,
                info.size,
                info.rules,
                player_name(&info.black),
                player_name(&info.white)
            ),
            theme.title(),
        )
        .render(title, buf);

        let pos = r.position();
        let (inner, panel_area) = board_frame(middle, pos.size().get(), buf);
        let last = r.last_move();
        Board {
            position: pos,
            cursor: self.cursor,
            last: last.as_ref(),
            hints: &[],
            assist: self.cursor.is_some(),
            theme,
        }
        .render(inner, buf);

        let (panel_area, explorer_area) = explorer.split(panel_area);
        Paragraph::new(self.panel(theme))
            .wrap(Wrap { trim: false })
            .render(panel_area.inner(Margin::new(1, 0)), buf);
        if let Some(area) = explorer_area {
            explorer.render(theme, area, buf);
        }
        let help = if self.cursor.is_some() {
            " arrows/hjkl: choose a square · Enter: play it · c computer · Esc: stop playing"
        } else {
            " ←→ N⏎: go · p play · c computer · a analyse · v/b lines · x: explorer · q back"
        };
        Line::styled(help, theme.dim()).render(keys, buf);
    }

    fn panel(&self, theme: Theme) -> Vec<Line<'static>> {
        let r = &self.replay;
        let pos = r.position();
        let mut lines = Vec::new();
        for (color, player) in [(Color::Black, &r.info.black), (Color::White, &r.info.white)] {
            lines.push(Line::raw(format!(
                "{} {:<22} {:>3}",
                theme.disc(color),
                player_name(player),
                pos.disc_count(color)
            )));
        }
        lines.push(Line::raw(format!("Move {} of {}", r.ply(), r.len())));
        let last = match r.last_move() {
            None => "Start position".to_string(),
            Some(last) => {
                let note = r.last_record().map_or(String::new(), record_note);
                match last.mv {
                    Move::Pass => format!("{} passed{note}", last.color),
                    Move::Play(sq) => {
                        let flipped: Vec<String> =
                            last.flipped.iter().map(ToString::to_string).collect();
                        format!("{} {sq}, flipped {}{note}", last.color, flipped.join(" "))
                    }
                }
            }
        };
        lines.push(Line::raw(last));
        if let Some(name) = r.opening() {
            lines.push(Line::raw(format!("Opening: {name}")));
        }
        lines.push(Line::raw(format!(
            "Result: {}",
            outcome_text(&r.info, &r.game)
        )));
        if r.lines().len() > 1 {
            lines.push(Line::raw(format!("Line: {}", r.line_name(r.shown()))));
            let here = r.alternatives();
            if here.len() > 1 {
                let each: Vec<String> = here
                    .iter()
                    .map(|&(mv, i)| match i {
                        0 => format!("{mv} main"),
                        i => format!("{mv} var {i}"),
                    })
                    .collect();
                lines.push(Line::raw(format!("Here: {} (v: next)", each.join(", "))));
            }
        }
        if !self.typed.is_empty() {
            lines.push(Line::raw(format!("Go to move: {}_", self.typed)));
        }
        if let Some(note) = &self.note {
            let (prefix, style) = if note.error {
                ("! ", theme.error())
            } else {
                ("", theme.dim())
            };
            lines.push(Line::styled(format!("{prefix}{}", note.text), style));
        }
        self.analysis_lines(theme, &mut lines);
        lines.push(Line::raw(""));
        lines.push(self.move_list(theme));
        lines
    }

    /// The analysis under way (how far), or done: the move shown against the best when the
    /// game's own line is shown, each side's loss, and its rating for the game on the human
    /// scale (from its moves after the opening; as `reversi history analyze` gives it).
    fn analysis_lines(&self, theme: Theme, lines: &mut Vec<Line<'static>>) {
        let analysis = match &self.analysing {
            Analysing::No => return,
            Analysing::Running { done, total, .. } => {
                lines.push(Line::styled(
                    format!("Analysing the game: position {done} of {total}…"),
                    theme.dim(),
                ));
                return;
            }
            Analysing::Done(analysis) => analysis,
        };
        let r = &self.replay;
        lines.push(Line::raw(""));
        lines.push(Line::raw(format!(
            "Analysis at level {}",
            analysis.level.get()
        )));
        if r.shown() == 0 {
            if let Some(m) = r.ply().checked_sub(1).and_then(|i| analysis.moves.get(i)) {
                let text = match (&m.best, m.verdict) {
                    (_, Verdict::Forced) | (None, _) => format!("Move {}: forced", m.ply + 1),
                    (Some(best), _) if m.loss == 0 => format!(
                        "Move {}: {}, the best ({})",
                        m.ply + 1,
                        m.played,
                        best.short_score()
                    ),
                    (Some(best), verdict) => format!(
                        "Move {}: {} lost {}, {} (best {} {})",
                        m.ply + 1,
                        m.played,
                        m.loss,
                        verdict.name(),
                        best.mv,
                        best.short_score()
                    ),
                };
                lines.push(Line::raw(text));
            }
        }
        let (black, white) = analysis.total_loss();
        let rated = HumanScale::shipped()
            .map(|scale| scale.performance(analysis, r.game.current().size()))
            .unwrap_or_default();
        for (color, loss) in [(Color::Black, black), (Color::White, white)] {
            let count = |v: Verdict| {
                analysis
                    .moves
                    .iter()
                    .filter(|m| m.color == color && m.verdict == v)
                    .count()
            };
            lines.push(Line::raw(format!(
                "{color} lost {loss}: {} mistakes, {} blunders",
                count(Verdict::Mistake),
                count(Verdict::Blunder)
            )));
            if let Some(p) = rated.iter().find(|p| p.color == color) {
                lines.push(Line::raw(format!(
                    "  plays like {} (90%: {:.0}-{:.0})",
                    p.rating,
                    tens(p.range.0),
                    tens(p.range.1)
                )));
            }
        }
        if !rated.is_empty() {
            lines.push(Line::styled(
                "One game says little: ratings show over many.",
                theme.dim(),
            ));
        }
    }

    /// The moves of the line shown as one wrapping line, numbered, the one shown highlighted,
    /// and `*` after each move where another line goes on differently.
    fn move_list(&self, theme: Theme) -> Line<'static> {
        let r = &self.replay;
        let branches = r.branch_plies();
        let moves = r.line().game.moves();
        let mut spans = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let mark = if branches.contains(&i) { "*" } else { "" };
            let text = format!("{}.{mv}{mark}", i + 1);
            if i + 1 == r.ply() {
                spans.push(Span::styled(text, theme.selected()));
            } else {
                spans.push(Span::raw(text));
            }
            spans.push(Span::raw(" "));
        }
        if branches.contains(&moves.len()) {
            spans.push(Span::raw("*"));
        }
        Line::from(spans)
    }
}

/// A rating rounded to ten points, as ratings are shown.
fn tens(rating: f64) -> f64 {
    (rating / 10.0).round() * 10.0
}

/// Where the cursor starts: the first legal square, or the top-left of the centre.
fn first_square(replay: &Replay) -> Square {
    let pos = replay.position();
    pos.legal_moves()
        .first()
        .copied()
        .unwrap_or_else(|| pos.centre()[0])
}

#[cfg(test)]
mod tests;
