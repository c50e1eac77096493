//! The game screen's state and keys: cursor and typed squares, move assist, hints, the
//! computer's thinking, passes and the game's end. The rules and the undo stacks live in the
//! [`Session`]; rendering in `game/view.rs`.

pub(super) mod view;

use crossterm::event::{KeyCode, KeyEvent};
use reversi_core::{Color, Move, Square};
use reversi_engine::levels::Level;
use reversi_engine::{Candidate, Thinking};

use super::worker::{Job, Report, Workers};
use reversi_game::{side_label, Session};

/// What the app does after a key on the game screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameAction {
    Stay,
    /// Back to the main menu (the game is abandoned).
    Menu,
}

/// What a computer considered, shown by "show thinking".
#[derive(Debug, Clone)]
pub struct Watch {
    pub color: Color,
    pub thinking: Thinking,
    /// The move it played, once decided.
    pub played: Option<Move>,
}

/// Hint scores for the position after `ply` moves.
#[derive(Debug, Clone)]
pub struct Hints {
    pub ply: usize,
    /// Best first.
    pub candidates: Vec<Candidate>,
    /// The search is complete (not stopped, not a partial iteration).
    pub done: bool,
}

/// A message under the board: an answer to the last key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub error: bool,
}

/// The game screen.
pub struct GameScreen {
    pub session: Session,
    pub cursor: Square,
    /// A square being typed, such as `f` then `f5`.
    pub typed: String,
    pub note: Option<Note>,
    /// Mark the legal moves.
    pub assist: bool,
    pub show_thinking: bool,
    pub watch: Option<Watch>,
    pub hints: Option<Hints>,
    /// The level the hints are searched at.
    pub hint_level: Level,
    computer: Option<(Job, usize)>,
    hint_job: Option<Job>,
}

impl GameScreen {
    #[must_use]
    pub fn new(session: Session) -> GameScreen {
        let cursor = initial_cursor(&session);
        GameScreen {
            session,
            cursor,
            typed: String::new(),
            note: None,
            assist: true,
            show_thinking: false,
            watch: None,
            hints: None,
            hint_level: Level::DEFAULT,
            computer: None,
            hint_job: None,
        }
    }

    /// Whether the computer is thinking now.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.computer.is_some()
    }

    /// Whether hints are being searched now.
    #[must_use]
    pub fn is_hinting(&self) -> bool {
        self.hint_job.is_some()
    }

    /// Starts the computer when it is to choose a square and is not already thinking.
    pub fn advance(&mut self, workers: &mut Workers) {
        if self.computer.is_some() {
            return;
        }
        if let Some(turn) = self.session.computer_turn() {
            let ply = turn.ply;
            self.watch = Some(Watch {
                color: turn.color,
                thinking: Thinking::default(),
                played: None,
            });
            self.computer = Some((workers.think(turn), ply));
        }
    }

    /// As the clock ticks: ends the game when the side to move has run out of time, stopping
    /// the computer if it was thinking.
    pub fn tick(&mut self) {
        if self.session.is_over() || self.session.settings().clock.is_none() {
            return;
        }
        if let Some(loser) = self.session.check_time() {
            self.cancel();
            self.note(format!("{loser}'s time ran out."), true);
        }
    }

    /// Stops whatever thinks and forgets its results.
    pub fn cancel(&mut self) {
        if let Some((job, _)) = self.computer.take() {
            job.stop();
        }
        if let Some(job) = self.hint_job.take() {
            job.stop();
        }
    }

    fn note(&mut self, text: impl Into<String>, error: bool) {
        self.note = Some(Note {
            text: text.into(),
            error,
        });
    }

    /// Takes in a report of a background job; reports of jobs no longer wanted are dropped.
    pub fn on_report(&mut self, report: Report, workers: &mut Workers) {
        let is_computer = self
            .computer
            .as_ref()
            .is_some_and(|(j, _)| j.id == report.job());
        let is_hint = self.hint_job.as_ref().is_some_and(|j| j.id == report.job());
        match report {
            Report::Thinking { thinking, .. } if is_computer => {
                if let Some(w) = &mut self.watch {
                    w.thinking = thinking;
                }
            }
            Report::Decided { decision, .. } if is_computer => {
                let Some((_, ply)) = self.computer.take() else {
                    return;
                };
                let Some(decision) = decision else { return };
                let label = side_label(self.session.settings(), self.session.position().turn());
                match self.session.play_decision(ply, &decision) {
                    Ok(()) => {
                        if let Some(w) = &mut self.watch {
                            w.thinking = decision.thinking;
                            w.played = Some(decision.mv);
                        }
                        self.hints = None;
                        self.note = None;
                        self.advance(workers);
                    }
                    Err(e) => {
                        self.note(format!("{label} could not play {}: {e}", decision.mv), true)
                    }
                }
            }
            Report::HintProgress { thinking, .. } if is_hint => {
                self.hints = Some(Hints {
                    ply: self.session.game().moves().len(),
                    candidates: thinking.candidates,
                    done: false,
                });
            }
            Report::Hints { hints, .. } if is_hint => {
                self.hint_job = None;
                self.hints = Some(Hints {
                    ply: self.session.game().moves().len(),
                    candidates: hints,
                    done: true,
                });
            }
            _ => {}
        }
    }

    /// Handles a key.
    pub fn on_key(&mut self, key: KeyEvent, workers: &mut Workers) -> GameAction {
        if self.session.is_over() {
            return self.on_key_over(key, workers);
        }
        let n = self.session.position().size().get();
        match key.code {
            KeyCode::Left => self.step(-1, 0),
            KeyCode::Right => self.step(1, 0),
            KeyCode::Up => self.step(0, -1),
            KeyCode::Down => self.step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.enter(workers),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Esc if !self.typed.is_empty() => self.typed.clear(),
            KeyCode::Esc | KeyCode::Char('q') => {
                self.cancel();
                return GameAction::Menu;
            }
            KeyCode::Char(d) if d.is_ascii_digit() && !self.typed.is_empty() => {
                if self.typed.len() < 3 {
                    self.typed.push(d);
                }
                if let Ok(sq) = self.session.position().parse_square(&self.typed) {
                    self.cursor = sq;
                }
            }
            KeyCode::Char(c) if c.is_ascii_lowercase() && (c as u8 - b'a') < n => {
                self.typed = c.to_string();
                match c {
                    'h' => self.step(-1, 0),
                    'j' => self.step(0, 1),
                    'k' => self.step(0, -1),
                    'l' => self.step(1, 0),
                    _ => {}
                }
            }
            KeyCode::Char('h') => self.step(-1, 0),
            KeyCode::Char('j') => self.step(0, 1),
            KeyCode::Char('k') => self.step(0, -1),
            KeyCode::Char('l') => self.step(1, 0),
            KeyCode::Char('u') => self.undo(workers),
            KeyCode::Char('r') => self.redo(workers),
            KeyCode::Char('t') => self.hint(workers),
            KeyCode::Char('w') => self.show_thinking = !self.show_thinking,
            KeyCode::Char('v') => {
                self.assist = !self.assist;
                let state = if self.assist { "on" } else { "off" };
                self.note(format!("Move assist {state}"), false);
            }
            KeyCode::Char('s') => self.stop(),
            _ => {}
        }
        GameAction::Stay
    }

    fn on_key_over(&mut self, key: KeyEvent, workers: &mut Workers) -> GameAction {
        match key.code {
            KeyCode::Char('n') | KeyCode::Enter => {
                self.cancel();
                let (assist, show_thinking) = (self.assist, self.show_thinking);
                *self = GameScreen::new(self.session.rematch());
                self.assist = assist;
                self.show_thinking = show_thinking;
                self.advance(workers);
            }
            KeyCode::Char('u') => self.undo(workers),
            KeyCode::Char('w') => self.show_thinking = !self.show_thinking,
            KeyCode::Char('m' | 'q') | KeyCode::Esc => {
                self.cancel();
                return GameAction::Menu;
            }
            _ => {}
        }
        GameAction::Stay
    }

    fn step(&mut self, dc: i16, dr: i16) {
        let n = i16::from(self.session.position().size().get());
        let c = (i16::from(self.cursor.col()) + dc).rem_euclid(n);
        let r = (i16::from(self.cursor.row()) + dr).rem_euclid(n);
        self.cursor = Square::new(c as u8, r as u8);
    }

    fn enter(&mut self, workers: &mut Workers) {
        let typed = std::mem::take(&mut self.typed);
        if self.session.must_pass() {
            if self.computer.is_none() {
                let color = self.session.position().turn();
                match self.session.pass() {
                    Ok(()) => self.note(format!("{color} passed"), false),
                    Err(e) => self.note(e.to_string(), true),
                }
                self.hints = None;
                self.advance(workers);
            }
            return;
        }
        if self.computer.is_some() {
            self.note(
                "The computer is thinking; press s to make it move now",
                true,
            );
            return;
        }
        let sq = if typed.bytes().any(|b| b.is_ascii_digit()) {
            match self.session.position().parse_square(&typed) {
                Ok(sq) => sq,
                Err(e) => {
                    self.note(e.to_string(), true);
                    return;
                }
            }
        } else {
            self.cursor
        };
        self.cursor = sq;
        match self.session.play(sq) {
            Ok(()) => {
                if let Some(job) = self.hint_job.take() {
                    job.stop();
                }
                self.hints = None;
                self.note = None;
                self.advance(workers);
            }
            Err(e) => self.note(e.to_string(), true),
        }
    }

    fn undo(&mut self, workers: &mut Workers) {
        self.cancel();
        match self.session.undo() {
            0 => self.note("Nothing to undo", true),
            n => self.note(format!("Took back {}", moves(n)), false),
        }
        self.after_history_change(workers);
    }

    fn redo(&mut self, workers: &mut Workers) {
        self.cancel();
        match self.session.redo() {
            0 => self.note("Nothing to redo", true),
            n => self.note(format!("Replayed {}", moves(n)), false),
        }
        self.after_history_change(workers);
    }

    fn after_history_change(&mut self, workers: &mut Workers) {
        self.hints = None;
        self.watch = None;
        self.typed.clear();
        self.advance(workers);
    }

    fn hint(&mut self, workers: &mut Workers) {
        if !self.session.is_human_turn() {
            self.note("Hints are for your turn", true);
            return;
        }
        if self.hint_job.is_some() {
            return;
        }
        self.hints = None;
        let job = workers.hints(self.session.position().clone(), self.hint_level);
        self.hint_job = Some(job);
    }

    fn stop(&mut self) {
        if let Some((job, _)) = &self.computer {
            job.stop();
            self.note(
                "Stopped: the computer plays the best move it has found",
                false,
            );
        } else if let Some(job) = &self.hint_job {
            job.stop();
            self.note("Hints stopped", false);
        }
    }
}

fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// The cursor starts on the first legal square, or the top-left of the centre.
fn initial_cursor(session: &Session) -> Square {
    let pos = session.position();
    pos.legal_moves()
        .first()
        .copied()
        .unwrap_or_else(|| pos.centre()[0])
}

#[cfg(test)]
mod tests;
