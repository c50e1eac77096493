//! A game clock's setting: the time each side starts with and the time added after each of
//! its moves (a Fischer increment), written `5m+3s` as `--clock` takes it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::{Color, Game, Move};

/// Time for each side: `base` at the start, `increment` added after each of its moves.
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use reversi_core::TimeControl;
///
/// let tc: TimeControl = "5m+3s".parse()?;
/// assert_eq!(tc.base, Duration::from_secs(300));
/// assert_eq!(tc.increment, Duration::from_secs(3));
/// assert_eq!(tc.to_string(), "5m+3s");
///
/// // Chess-style shorthands: minutes, then seconds of increment; or minutes:seconds.
/// assert_eq!("5+3".parse::<TimeControl>()?, tc);
/// assert_eq!("1:30".parse::<TimeControl>()?.to_string(), "1m30s");
/// assert!("5m+".parse::<TimeControl>().is_err());
/// assert!("0s".parse::<TimeControl>().is_err());
/// # Ok::<(), reversi_core::ParseTimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each side's time at the start of the game.
    pub base: Duration,
    /// Added to a side's clock after each of its moves.
    pub increment: Duration,
}

/// The longest base time accepted: a day.
const MAX_BASE: Duration = Duration::from_secs(24 * 3600);

impl TimeControl {
    /// Black's and White's time left after the moves of `game`, where `spent[i]` is the time
    /// move `i` took (moves past the end of `spent`, or `None`, cost nothing). Each side is
    /// given the increment after each of its moves; a pass is not a move and earns nothing.
    /// Time overspent shows as zero.
    ///
    /// # Examples
    /// ```
    /// use std::time::Duration;
    /// use reversi_core::{parse_transcript, BoardSize, Position, Rules, TimeControl};
    ///
    /// let game = parse_transcript("f5d6c3", Position::start(BoardSize::EIGHT, Rules::Othello))?;
    /// let tc: TimeControl = "1m+2s".parse()?;
    /// let spent = [10_000, 5_000, 1_000].map(|ms| Some(Duration::from_millis(ms)));
    /// // Black: 60 - 10 + 2 - 1 + 2 = 53 s; White: 60 - 5 + 2 = 57 s.
    /// let (black, white) = tc.time_left(&game, &spent);
    /// assert_eq!((black.as_secs(), white.as_secs()), (53, 57));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn time_left(&self, game: &Game, spent: &[Option<Duration>]) -> (Duration, Duration) {
        // In ms, signed: a move that overspent (an imported or damaged record) leaves zero.
        let base = i128::try_from(self.base.as_millis()).unwrap_or(i128::MAX / 4);
        let inc = i128::try_from(self.increment.as_millis()).unwrap_or(0);
        let mut left = [base, base];
        let positions = game.positions();
        for (i, &mv) in game.moves().iter().enumerate() {
            let side = usize::from(positions[i].turn() == Color::White);
            let took = spent.get(i).copied().flatten().map_or(0, |d| {
                i128::try_from(d.as_millis()).unwrap_or(i128::MAX / 4)
            });
            left[side] -= took;
            if mv != Move::Pass {
                left[side] += inc;
            }
        }
        let ms = |v: i128| Duration::from_millis(u64::try_from(v.max(0)).unwrap_or(u64::MAX));
        (ms(left[0]), ms(left[1]))
    }

    /// `base` per side with no increment.
    #[must_use]
    pub const fn sudden_death(base: Duration) -> TimeControl {
        TimeControl {
            base,
            increment: Duration::ZERO,
        }
    }
}

/// A clock setting that is not `BASE[+INCREMENT]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTimeControlError {
    /// The text as given (at most 40 characters of it).
    pub text: String,
    /// What was wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad clock {:?}: {}; expected BASE[+INCREMENT] such as 5m+3s, 90s, 1h, 5+3 \
             (minutes + seconds) or 4:30",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseTimeControlError {}

/// A duration written with units (`1h`, `5m`, `1m30s`, `500ms`, `2.5s`), as `m:ss` or
/// `h:mm:ss`, or as a bare number of `bare_unit`s.
fn parse_duration(text: &str, bare_unit: Duration) -> Result<Duration, &'static str> {
    let t = text.trim();
    if t.is_empty() {
        return Err("a time is missing");
    }
    if t.contains(':') {
        let mut secs = 0u64;
        let parts: Vec<&str> = t.split(':').collect();
        if parts.len() > 3 {
            return Err("too many ':' in a time");
        }
        for (i, p) in parts.iter().enumerate() {
            let n: u64 = p.parse().map_err(|_| "a time is not a number")?;
            if i > 0 && n >= 60 {
                return Err("minutes and seconds after ':' must be below 60");
            }
            secs = secs
                .checked_mul(60)
                .and_then(|s| s.checked_add(n))
                .ok_or("time too long")?;
        }
        return Ok(Duration::from_secs(secs));
    }
    if let Ok(n) = t.parse::<f64>() {
        return if n.is_finite() && (0.0..=1e6).contains(&n) {
            Ok(bare_unit.mul_f64(n))
        } else {
            Err("a time is out of range")
        };
    }
    let mut total = Duration::ZERO;
    let mut rest = t;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or("a number has no unit (h, m, s or ms)")?;
        if digits == 0 {
            return Err("a unit has no number before it");
        }
        let n: f64 = rest[..digits]
            .parse()
            .map_err(|_| "a time is not a number")?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" | "min" => 60.0,
            "s" => 1.0,
            "ms" => 0.001,
            _ => return Err("unknown unit: use h, m, s or ms"),
        };
        rest = &rest[unit_len..];
        if n * unit > 1e6 {
            return Err("a time is out of range");
        }
        total += Duration::from_secs_f64(n * unit);
    }
    Ok(total)
}

/// Writes a duration with units: `1h5m`, `5m`, `1m30s`, `2.5s`, `0s`.
fn write_duration(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let ms = d.as_millis();
    let (h, m) = (ms / 3_600_000, ms / 60_000 % 60);
    let s_ms = ms % 60_000;
    if h > 0 {
        write!(f, "{h}h")?;
    }
    if m > 0 {
        write!(f, "{m}m")?;
    }
    if s_ms > 0 || ms == 0 {
        if s_ms.is_multiple_of(1000) {
            write!(f, "{}s", s_ms / 1000)?;
        } else {
            let text = format!("{:.3}", s_ms as f64 / 1000.0);
            write!(f, "{}s", text.trim_end_matches('0'))?;
        }
    }
    Ok(())
}

impl fmt::Display for TimeControl {
    /// `5m+3s`, or `5m` without an increment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_duration(f, self.base)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_duration(f, self.increment)?;
        }
        Ok(())
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason| ParseTimeControlError {
            text: s.chars().take(40).collect(),
            reason,
        };
        let t = s.trim().to_ascii_lowercase();
        let (base, increment) = match t.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (t.as_str(), None),
        };
        let base = parse_duration(base, Duration::from_secs(60)).map_err(err)?;
        let increment = match increment {
            Some(i) => parse_duration(i, Duration::from_secs(1)).map_err(err)?,
            None => Duration::ZERO,
        };
        if base.is_zero() {
            return Err(err("the base time must be more than zero"));
        }
        if base > MAX_BASE || increment > MAX_BASE {
            return Err(err("times are limited to a day"));
        }
        Ok(TimeControl { base, increment })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn forms_parse_and_print() {
        for (text, shown) in [
            ("5m+3s", "5m+3s"),
            ("5M + 3S", "5m+3s"),
            ("90s", "1m30s"),
            ("1h", "1h"),
            ("1h5m", "1h5m"),
            ("2.5s+500ms", "2.5s+0.5s"),
            ("5+3", "5m+3s"),
            ("0.5", "30s"),
            ("4:30", "4m30s"),
            ("1:00:00+10", "1h+10s"),
            ("10m+0s", "10m"),
        ] {
            assert_eq!(tc(text).to_string(), shown, "{text}");
            assert_eq!(tc(shown), tc(text), "{shown} reads back");
        }
    }

    #[test]
    fn bad_settings_say_why() {
        for (text, reason) in [
            ("", "missing"),
            ("5m+", "missing"),
            ("0", "more than zero"),
            ("5x", "unit"),
            ("m", "no number"),
            ("1:75", "below 60"),
            ("25h", "a day"),
            ("-5", "out of range"),
            ("1:2:3:4", "too many"),
        ] {
            let e = text.parse::<TimeControl>().unwrap_err();
            assert!(e.to_string().contains(reason), "{text}: {e}");
        }
        let long = "9".repeat(500);
        let e = long.parse::<TimeControl>().unwrap_err();
        assert!(
            e.to_string().len() < 300,
            "the message quotes at most 40 characters"
        );
    }
}
