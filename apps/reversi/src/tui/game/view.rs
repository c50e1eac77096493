//! Drawing the game screen: title, board, the side panel (counts, turn, last move, the
//! opening's name, passes, the result, hints, the computer's thinking) and the keys line.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use reversi_core::{Color, Move};
use reversi_engine::{Candidate, ScoreKind, Thinking};

use super::GameScreen;
use crate::tui::board::{board_frame, Board};
use crate::tui::explorer::ExplorerPanel;
use crate::tui::theme::Theme;
use reversi_game::{clock_text, side_label};

/// Draws the whole game screen into `area`.
pub fn render(
    game: &GameScreen,
    explorer: &ExplorerPanel,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let session = &game.session;
    let settings = session.settings();
    let [title, middle, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let title_text = format!(
        " Reversi {} {} · {} vs {}",
        settings.size,
        settings.rules,
        side_label(settings, Color::Black),
        side_label(settings, Color::White)
    );
    Line::styled(title_text, theme.title()).render(title, buf);

    let n = session.position().size().get();
    let (inner, panel_area) = board_frame(middle, n, buf);
    let last = session.last_move();
    let hints: &[Candidate] = match &game.hints {
        Some(h) if h.ply == session.game().moves().len() => &h.candidates,
        _ => &[],
    };
    Board {
        position: session.position(),
        cursor: session.is_human_turn().then_some(game.cursor),
        last: last.as_ref(),
        hints,
        assist: game.assist,
        theme,
    }
    .render(inner, buf);

    let (panel_area, explorer_area) = explorer.split(panel_area);
    Paragraph::new(panel(game, theme))
        .wrap(Wrap { trim: false })
        .render(panel_area.inner(ratatui::layout::Margin::new(1, 0)), buf);
    if let Some(area) = explorer_area {
        explorer.render(theme, area, buf);
    }
    Line::styled(keys_line(game), theme.dim()).render(keys, buf);
}

fn keys_line(game: &GameScreen) -> String {
    let s = &game.session;
    if s.is_over() {
        " n/Enter: play again, colours swapped · u: undo · m: menu · ?: keys".into()
    } else if s.must_pass() && !game.is_thinking() {
        " Enter: acknowledge the pass · u: undo · q: menu · ?: keys".into()
    } else if game.is_thinking() {
        " s: move now · w: show thinking · u: undo · q: menu · ?: keys".into()
    } else {
        " arrows/hjkl move · Enter play · u undo · r redo · t hint · w thinking · ? keys".into()
    }
}

fn panel(game: &GameScreen, theme: Theme) -> Vec<Line<'static>> {
    let session = &game.session;
    let settings = session.settings();
    let pos = session.position();
    let mut lines = Vec::new();
    let clocks = session.clocks();
    for color in [Color::Black, Color::White] {
        let to_move = session.to_move() == Some(color);
        let marker = if to_move { "▶ " } else { "  " };
        let mut spans = vec![
            Span::raw(marker),
            Span::raw(format!("{} ", theme.disc(color))),
            Span::raw(format!(
                "{:<20} {:>3}",
                side_label(settings, color),
                pos.disc_count(color)
            )),
        ];
        if let Some(c) = clocks {
            let text = format!("  {:>7}", clock_text(c.left(color)));
            // The running clock stands out, and turns to the error colour in its last 10 s.
            let low = c.left(color) < std::time::Duration::from_secs(10);
            spans.push(match (c.running == Some(color), low) {
                (true, true) => Span::styled(text, theme.error()),
                (true, false) => Span::styled(text, theme.banner()),
                (false, _) => Span::styled(text, theme.dim()),
            });
        }
        lines.push(Line::from(spans));
    }
    let ply = session.game().moves().len();
    let status = match session.to_move() {
        None => "Game over".to_string(),
        Some(c) if game.is_thinking() => format!("Move {} · {c} is thinking…", ply + 1),
        Some(c) => format!("Move {} · {c} to move", ply + 1),
    };
    lines.push(Line::raw(status));
    if let Some(last) = session.last_move() {
        let text = match last.mv {
            Move::Pass => format!("Last: {} passed", last.color),
            Move::Play(sq) => {
                let flipped: Vec<String> = last.flipped.iter().map(ToString::to_string).collect();
                format!("Last: {} {sq}, flipped {}", last.color, flipped.join(" "))
            }
        };
        lines.push(Line::raw(text));
    }
    if let Some(name) = session.opening() {
        lines.push(Line::raw(format!("Opening: {name}")));
    }
    lines.push(Line::raw(""));
    if let Some(result) = session.result_text() {
        lines.push(Line::styled(format!("GAME OVER: {result}"), theme.banner()));
        lines.push(Line::raw("n or Enter: play again (colours swapped)"));
        lines.push(Line::raw("m: back to the menu"));
        lines.push(Line::raw(""));
    } else if session.must_pass() && !game.is_thinking() {
        let color = pos.turn();
        lines.push(Line::styled(
            format!(
                "PASS: {} has no legal move and must pass.",
                side_label(settings, color)
            ),
            theme.banner(),
        ));
        lines.push(Line::raw("Press Enter to go on."));
        lines.push(Line::raw(""));
    }
    if !game.typed.is_empty() {
        lines.push(Line::raw(format!("Square: {}_", game.typed)));
    }
    if let Some(e) = session.save_error() {
        lines.push(Line::styled(format!("! {e}"), theme.error()));
    } else if let Some(id) = session.log_id() {
        lines.push(Line::styled(format!("Saved as game {id}"), theme.dim()));
    }
    if let Some(note) = &game.note {
        let style = if note.error {
            theme.error()
        } else {
            theme.dim()
        };
        let prefix = if note.error { "! " } else { "" };
        lines.push(Line::styled(format!("{prefix}{}", note.text), style));
    }
    if game.is_hinting() || game.hints.as_ref().is_some_and(|h| h.ply == ply) {
        lines.extend(hint_lines(game));
    }
    if game.show_thinking {
        lines.extend(thinking_lines(game, theme));
    }
    lines
}

fn hint_lines(game: &GameScreen) -> Vec<Line<'static>> {
    let ply = game.session.game().moves().len();
    let hints = game
        .hints
        .as_ref()
        .filter(|h| h.ply == ply)
        .map_or(&[][..], |h| &h.candidates[..]);
    let done = game.hints.as_ref().is_some_and(|h| h.done);
    let mut lines = Vec::new();
    let label = hints
        .first()
        .map_or(String::new(), |c| format!(" ({})", c.kind));
    let state = if done { "" } else { " searching… (s: stop)" };
    lines.push(Line::raw(format!("Hints{label}{state}")));
    lines.push(Line::raw(candidate_list(hints)));
    lines
}

fn candidate_list(candidates: &[Candidate]) -> String {
    let mixed = candidates.iter().any(|c| c.kind != candidates[0].kind);
    let parts: Vec<String> = candidates
        .iter()
        .map(|c| {
            let tag = if mixed && c.kind == ScoreKind::Book {
                " book"
            } else {
                ""
            };
            format!("{} {}{tag}", c.mv, c.short_score())
        })
        .collect();
    parts.join("  ")
}

fn thinking_lines(game: &GameScreen, theme: Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::raw("")];
    let Some(watch) = &game.watch else {
        lines.push(Line::styled(
            "Thinking: nothing yet (the computer has not moved)",
            theme.dim(),
        ));
        return lines;
    };
    let who = side_label(game.session.settings(), watch.color);
    let head = match watch.played {
        Some(mv) => format!("{who} played {mv} after considering:"),
        None => format!("{who} is considering:"),
    };
    lines.push(Line::styled(head, theme.title()));
    let t: &Thinking = &watch.thinking;
    lines.push(Line::raw(format!(
        "depth {} · {} states · {:.2} s",
        t.depth,
        group_digits(t.nodes),
        t.elapsed.as_secs_f64()
    )));
    if let Some(best) = &t.best {
        lines.push(Line::raw(format!("best {best}")));
    }
    if !t.pv.is_empty() {
        let pv: Vec<String> = t.pv.iter().map(ToString::to_string).collect();
        lines.push(Line::raw(format!("line {}", pv.join(" "))));
    }
    if !t.candidates.is_empty() {
        lines.push(Line::raw(candidate_list(&t.candidates)));
    }
    lines
}

/// `1234567` as `1,234,567`.
fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(super::group_digits(0), "0");
        assert_eq!(super::group_digits(999), "999");
        assert_eq!(super::group_digits(172_609), "172,609");
        assert_eq!(super::group_digits(1_000_000), "1,000,000");
    }
}
