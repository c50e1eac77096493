//! Text from files and the network (players' names, events, sources, dates as a file wrote
//! them) made safe to show on a terminal: the history keeps such text as it came, and every
//! front end that prints it goes through [`printable`], so that an imported name can neither
//! recolour the terminal, ring its bell, move its cursor nor fake a line of output.

use std::fmt;

/// Text as it may be shown on a terminal; see [`printable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Printable<'a>(pub &'a str);

/// `text` as it may be shown on a terminal: every control character (C0, DEL and C1, the
/// escape that starts a terminal sequence among them) and every bidirectional formatting
/// character (which reorders what follows it) written as a Rust-style escape: `\n`, `\r`,
/// `\t`, or `\u{1b}` for the others. Everything else, backslashes included, is shown as it is.
///
/// # Examples
/// ```
/// use reversi_game::printable;
///
/// let name = "\u{1b}[31mEve\u{7}\nAnn";
/// assert_eq!(printable(name).to_string(), r"\u{1b}[31mEve\u{7}\nAnn");
/// assert_eq!(format!("{:<6}|", printable("Zoë")), "Zoë   |");
/// ```
#[must_use]
pub fn printable(text: &str) -> Printable<'_> {
    Printable(text)
}

/// Whether `c` must not reach a terminal as it is.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Embeddings, overrides and isolates (and the marks), which reorder the text shown
            // after them.
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

impl Printable<'_> {
    /// Whether the text is shown as it is (nothing to escape).
    #[must_use]
    pub fn is_plain(&self) -> bool {
        !self.0.chars().any(unsafe_char)
    }
}

impl fmt::Display for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_plain() {
            // Widths and alignment as for any string.
            return f.pad(self.0);
        }
        let mut out = String::with_capacity(self.0.len() + 8);
        for c in self.0.chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
                c => out.push(c),
            }
        }
        f.pad(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_sequences_bells_and_line_breaks_are_escaped() {
        for (raw, shown) in [
            ("Ann", "Ann"),
            (
                "\u{1b}[2J\u{1b}]0;title\u{7}",
                r"\u{1b}[2J\u{1b}]0;title\u{7}",
            ),
            ("a\r\nb\tc", r"a\r\nb\tc"),
            ("del\u{7f} csi\u{9b}", r"del\u{7f} csi\u{9b}"),
            ("\u{202e}evil", r"\u{202e}evil"),
            (r"back\slash é 漢", r"back\slash é 漢"),
        ] {
            assert_eq!(printable(raw).to_string(), shown, "{raw:?}");
            assert_eq!(printable(raw).is_plain(), raw == shown, "{raw:?}");
        }
    }
}
