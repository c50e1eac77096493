//! Engine specifications: what names a contender on a command line or in a file (an internal
//! player, or an NBoard or GTP program's command line), parsed into an [`EngineSpec`].

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use reversi_players::Ai;

/// The protocol an external engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// NBoard (version 2).
    Nboard,
    /// The Go Text Protocol as Edax speaks it.
    Gtp,
}

/// An engine named on the command line: an internal player (`level:12`, `12`, `hard`,
/// `minimax:4`, `greedy`, `random`), a command line after `gtp:` (a GTP program) or
/// `nboard:`, or else the command line of an NBoard program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSpec {
    /// A computer player of this program.
    Internal(Ai),
    /// A program speaking a protocol, and its command line (program first).
    External(Protocol, Vec<String>),
}

/// An engine description that names nothing to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseEngineError(pub String);

impl fmt::Display for ParseEngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is neither a computer player (level:N, ALGORITHM:DEPTH, greedy, random) nor \
             a command line with balanced quotes, after gtp: or nboard: or alone",
            self.0
        )
    }
}

impl std::error::Error for ParseEngineError {}

impl FromStr for EngineSpec {
    type Err = ParseEngineError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (protocol, line) = if let Some(line) = s.trim_start().strip_prefix("gtp:") {
            (Protocol::Gtp, line)
        } else if let Some(line) = s.trim_start().strip_prefix("nboard:") {
            (Protocol::Nboard, line)
        } else if let Ok(ai) = s.parse::<Ai>() {
            return Ok(EngineSpec::Internal(ai));
        } else {
            (Protocol::Nboard, s)
        };
        match split_command(line) {
            Some(argv) if !argv.is_empty() => Ok(EngineSpec::External(protocol, argv)),
            _ => Err(ParseEngineError(s.to_string())),
        }
    }
}

/// Splits a command line into words as a POSIX shell would for plain words, `'single'` and
/// `"double"` quotes and backslash escapes; `None` when a quote is not closed.
pub fn split_command(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => word.push(c),
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

impl EngineSpec {
    /// The same engine with a program called `name` run from `path` instead: so that a match
    /// run by a program can name that program by its short name whether it is on the `PATH`
    /// or not.
    ///
    /// # Examples
    /// ```
    /// use reversi_arena::EngineSpec;
    ///
    /// let spec: EngineSpec = "reversi nboard".parse().unwrap();
    /// let spec = spec.with_program("reversi", "/opt/bin/reversi".as_ref());
    /// assert_eq!(spec, "nboard:/opt/bin/reversi nboard".parse().unwrap());
    /// ```
    #[must_use]
    pub fn with_program(self, name: &str, path: &Path) -> EngineSpec {
        match self {
            EngineSpec::External(protocol, mut argv) => {
                if argv.first().is_some_and(|p| p == name) {
                    argv[0] = path.to_string_lossy().into_owned();
                }
                EngineSpec::External(protocol, argv)
            }
            internal => internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Option<Vec<String>> {
        split_command(s)
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            words("reversi nboard"),
            Some(vec!["reversi".into(), "nboard".into()])
        );
        assert_eq!(
            words(r#"sh -c 'echo "hi there"; exit 3'"#),
            Some(vec![
                "sh".into(),
                "-c".into(),
                r#"echo "hi there"; exit 3"#.into()
            ])
        );
        assert_eq!(
            words(r#"a\ b "c\"d" ''"#),
            Some(vec!["a b".into(), "c\"d".into(), String::new()])
        );
        assert_eq!(words("  "), Some(vec![]));
        assert_eq!(words("'open"), None);
        assert_eq!(words("\"open"), None);
    }

    #[test]
    fn engines_parse() {
        assert!(matches!(
            "level:12".parse::<EngineSpec>(),
            Ok(EngineSpec::Internal(Ai::Level(_)))
        ));
        assert!(matches!(
            "minimax:4".parse::<EngineSpec>(),
            Ok(EngineSpec::Internal(Ai::Classic { .. }))
        ));
        let edax = vec!["edax".to_string(), "-q".to_string()];
        assert_eq!(
            "edax -q".parse::<EngineSpec>(),
            Ok(EngineSpec::External(Protocol::Nboard, edax.clone()))
        );
        assert_eq!(
            "nboard:edax -q".parse::<EngineSpec>(),
            Ok(EngineSpec::External(Protocol::Nboard, edax.clone()))
        );
        assert_eq!(
            " gtp: edax -q".parse::<EngineSpec>(),
            Ok(EngineSpec::External(Protocol::Gtp, edax))
        );
        // A program whose name starts like a prefix, spelled with its folder.
        assert_eq!(
            "./gtp:x".parse::<EngineSpec>(),
            Ok(EngineSpec::External(
                Protocol::Nboard,
                vec!["./gtp:x".into()]
            ))
        );
        assert!("".parse::<EngineSpec>().is_err());
        assert!("gtp:".parse::<EngineSpec>().is_err());
        assert!("gtp:'x".parse::<EngineSpec>().is_err());
        let e = "sh 'x".parse::<EngineSpec>().unwrap_err();
        assert!(e.to_string().contains("\"sh 'x\""));
    }
}
