//! GTP responses as the controller reads them: `=[id] result` or `?[id] error`, any further
//! lines of a multi-line result, and the empty line that ends every response.

/// One response of the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The id the engine repeated from a numbered command.
    pub id: Option<u32>,
    /// `=`: the command succeeded; `?`: it failed, and `text` says why.
    pub success: bool,
    /// The result or the error message: the first line's text after the mark and id, then
    /// any further lines, joined by newlines.
    pub text: String,
    /// The first line as the engine sent it (trimmed), for error messages.
    pub line: String,
}

impl Response {
    /// Reads the first line of a response: `None` unless it starts with `=` or `?`.
    ///
    /// The id is the digits right after the mark (`=12 f5`); text glued to the mark without
    /// digits (`=f5`), which the protocol does not allow, is read as the text.
    ///
    /// # Examples
    /// ```
    /// use reversi_protocol::gtp::Response;
    ///
    /// let r = Response::first_line("=12 f5").expect("a response");
    /// assert_eq!((r.id, r.success, r.text.as_str()), (Some(12), true, "f5"));
    /// let r = Response::first_line("? illegal move").expect("a response");
    /// assert_eq!((r.id, r.success, r.text.as_str()), (None, false, "illegal move"));
    /// assert_eq!(Response::first_line("=3").map(|r| r.text), Some(String::new()));
    /// assert!(Response::first_line("set myname x").is_none());
    /// ```
    #[must_use]
    pub fn first_line(line: &str) -> Option<Response> {
        let line = line.trim();
        let success = match line.chars().next()? {
            '=' => true,
            '?' => false,
            _ => return None,
        };
        let rest = &line[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        // An id too long for a u32 was never one of ours: no id.
        let id = rest[..digits].parse().ok();
        Some(Response {
            id,
            success,
            text: rest[digits..].trim().to_string(),
            line: line.to_string(),
        })
    }
}

/// Gathers responses from the engine's lines, one line at a time.
///
/// Lines outside a response other than `=` or `?` ones (a banner, debugging output that the
/// protocol does not allow but some engines print) are skipped, as are empty lines between
/// responses.
///
/// # Examples
/// ```
/// use reversi_protocol::gtp::ResponseReader;
///
/// let mut reader = ResponseReader::default();
/// let mut done = Vec::new();
/// for line in ["engine 1.0 ready", "=1 a", "b", "", "", "?2 cannot", ""] {
///     done.extend(reader.push(line));
/// }
/// assert_eq!(done.len(), 2);
/// assert_eq!((done[0].id, done[0].text.as_str()), (Some(1), "a\nb"));
/// assert_eq!((done[1].success, done[1].text.as_str()), (false, "cannot"));
/// ```
#[derive(Debug, Default)]
pub struct ResponseReader {
    open: Option<Response>,
}

impl ResponseReader {
    /// Reads one line (its line ending optional); a response once its closing empty line
    /// comes.
    pub fn push(&mut self, line: &str) -> Option<Response> {
        let line = line.trim_end();
        match &mut self.open {
            None => {
                self.open = Response::first_line(line);
                None
            }
            Some(_) if line.trim().is_empty() => self.open.take(),
            Some(open) => {
                open.text.push('\n');
                open.text.push_str(line);
                None
            }
        }
    }

    /// Whether a response has begun and not yet ended.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Vec<Response> {
        let mut reader = ResponseReader::default();
        lines.iter().filter_map(|l| reader.push(l)).collect()
    }

    #[test]
    fn numbered_and_unnumbered_successes_and_failures() {
        for (line, id, success, text) in [
            ("=1 2", Some(1), true, "2"),
            ("= reversi", None, true, "reversi"),
            ("=", None, true, ""),
            ("=17", Some(17), true, ""),
            ("?3 unacceptable size", Some(3), false, "unacceptable size"),
            ("? illegal move", None, false, "illegal move"),
            ("?", None, false, ""),
            ("=5\tF5 \r\n", Some(5), true, "F5"),
            ("=f5", None, true, "f5"),
            ("=99999999999 x", None, true, "x"),
        ] {
            let r = Response::first_line(line).unwrap_or_else(|| panic!("{line:?}"));
            assert_eq!(
                (r.id, r.success, r.text.as_str()),
                (id, success, text),
                "{line:?}"
            );
            assert_eq!(r.line, line.trim());
        }
    }

    #[test]
    fn other_lines_are_not_responses() {
        for line in ["", "   ", "pong 1", "x = 1", "set myname x"] {
            assert_eq!(Response::first_line(line), None, "{line:?}");
        }
    }

    #[test]
    fn responses_end_at_an_empty_line() {
        let got = read(&["=1 f5", "", "=2", "", "?3 illegal move", "  ", "= pass"]);
        let texts: Vec<(Option<u32>, bool, &str)> = got
            .iter()
            .map(|r| (r.id, r.success, r.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                (Some(1), true, "f5"),
                (Some(2), true, ""),
                (Some(3), false, "illegal move")
            ]
        );
    }

    #[test]
    fn multi_line_results_keep_their_lines() {
        let got = read(&[
            "=4 protocol_version",
            "name",
            "  genmove",
            "",
            "junk before a response",
            "",
            "=5 done",
            "",
        ]);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].text, "protocol_version\nname\n  genmove");
        assert_eq!(got[1].text, "done");
    }

    #[test]
    fn an_unfinished_response_stays_open() {
        let mut reader = ResponseReader::default();
        assert!(!reader.is_open());
        assert_eq!(reader.push("=1 f5"), None);
        assert!(reader.is_open());
        assert_eq!(reader.push("").map(|r| r.text), Some("f5".into()));
        assert!(!reader.is_open());
    }
}
