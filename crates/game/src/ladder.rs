//! The named ladder's measured rungs (`data/ladder.txt`, from the matches of docs/ladder.md):
//! how far each named level stands above the one below it. The human scale reads a level's
//! rating off its disc loss; above the levels that loss can judge, it climbs these rungs.

use std::fmt;

use reversi_engine::levels::Level;

/// The shipped rungs' text.
const SHIPPED: &str = include_str!("../data/ladder.txt");

/// One measured rung of the ladder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rung {
    /// The weaker level.
    pub low: Level,
    /// The stronger level.
    pub high: Level,
    /// The stronger level's Elo over the weaker, from their match.
    pub elo: f64,
    /// The 95 % interval of `elo` (low, high).
    pub interval: (f64, f64),
    /// Games the match played.
    pub games: usize,
}

/// A line of the rung file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLadderError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseLadderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ladder rungs, line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseLadderError {}

/// Reads rung lines, `rung LOW HIGH ELO ELO-LOW ELO-HIGH GAMES` (levels by number; `#` starts
/// a comment line).
///
/// # Errors
/// A line that does not read, a rung whose low level is not below its high one or whose Elo
/// lies outside its interval, or a second rung below the same level.
pub fn parse(text: &str) -> Result<Vec<Rung>, ParseLadderError> {
    let mut rungs: Vec<Rung> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: &str| ParseLadderError {
            line: i + 1,
            reason: reason.to_string(),
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields[0] != "rung" {
            return Err(bad(&format!("unknown key {:?}", fields[0])));
        }
        if fields.len() != 7 {
            return Err(bad(&format!(
                "a rung has 6 fields (low high elo elo-low elo-high games), not {}",
                fields.len() - 1
            )));
        }
        let level = |k: usize| {
            fields[k]
                .parse::<u8>()
                .ok()
                .and_then(Level::new)
                .ok_or_else(|| bad(&format!("field {k} is not a level 1-60")))
        };
        let num = |k: usize| {
            fields[k]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(&format!("field {k} is not a number")))
        };
        let rung = Rung {
            low: level(1)?,
            high: level(2)?,
            elo: num(3)?,
            interval: (num(4)?, num(5)?),
            games: fields[6]
                .parse()
                .map_err(|_| bad("field 6 is not a count of games"))?,
        };
        if rung.low >= rung.high {
            return Err(bad("the low level must be below the high one"));
        }
        if !(rung.interval.0 <= rung.elo && rung.elo <= rung.interval.1) {
            return Err(bad("the Elo lies outside its interval"));
        }
        if rungs.iter().any(|r| r.high == rung.high) {
            return Err(bad(&format!("a second rung below {}", rung.high)));
        }
        rungs.push(rung);
    }
    Ok(rungs)
}

/// The rungs shipped with the program (empty if the file did not read, which a test rules
/// out).
#[must_use]
pub fn shipped() -> &'static [Rung] {
    static RUNGS: std::sync::OnceLock<Vec<Rung>> = std::sync::OnceLock::new();
    RUNGS.get_or_init(|| parse(SHIPPED).unwrap_or_default())
}

/// The rung that ends at `level`, if one was measured.
#[must_use]
pub fn rung_below(rungs: &[Rung], level: Level) -> Option<&Rung> {
    rungs.iter().find(|r| r.high == level)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn level(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    #[test]
    fn rungs_read_and_bad_lines_are_named() {
        let rungs =
            parse("# a comment\nrung 3 4 148 125 172 1000\n\nrung 4 5 153 125 184 600\n").unwrap();
        assert_eq!(rungs.len(), 2);
        assert_eq!(rungs[0].low, level(3));
        assert_eq!(rungs[0].interval, (125.0, 172.0));
        assert_eq!(rungs[1].games, 600);
        assert_eq!(rung_below(&rungs, level(5)).unwrap().low, level(4));
        assert!(rung_below(&rungs, level(3)).is_none());
        for (text, reason) in [
            ("step 3 4 1 0 2 10", "unknown key"),
            ("rung 3 4 1 0 2", "6 fields"),
            ("rung 3 x 1 0 2 10", "field 2 is not a level"),
            ("rung 3 61 1 0 2 10", "field 2 is not a level"),
            ("rung 4 3 1 0 2 10", "below the high one"),
            ("rung 3 4 5 0 2 10", "outside its interval"),
            ("rung 3 4 1 0 2 -1", "count of games"),
            (
                "rung 3 5 1 0 2 10\nrung 4 5 1 0 2 10",
                "second rung below level 5",
            ),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.to_string().contains(reason), "{text}: {err}");
        }
        assert_eq!(parse("\n\nrung 3 4 x 0 2 10").unwrap_err().line, 3);
    }

    #[test]
    fn the_shipped_rungs_read_and_join_the_named_levels() {
        let rungs = parse(SHIPPED).unwrap();
        assert_eq!(shipped(), &rungs[..]);
        // One rung below every named level but the first, from the named level before it.
        for pair in Level::NAMED.windows(2) {
            let rung = rung_below(&rungs, pair[1].1)
                .unwrap_or_else(|| panic!("no rung below {}", pair[1].0));
            assert_eq!(rung.low, pair[0].1, "the rung below {}", pair[1].0);
        }
    }
}
