//! GGF clocks (`TI`, `TB`, `TW`) in the GGS clock syntax, read into and written from a
//! [`TimeControl`] of a base time and an increment.
//!
//! GGS writes a clock `INITIAL[,[N]M1]/INCREMENT[,[N]M2]/EXTENSION[,[N]M3]`, every part
//! optional, each time `[[HH:]MM:]SS`: `TI[05:00//02:00]` is five minutes, no increment and
//! two minutes of extension; NBoard writes only the initial time, `TI[5:00]`.
//!
//! - The initial time is the base. With `,M1` above 0 it must cover M1 moves and then the
//!   extension starts: a clock of moves per period, which a base and an increment cannot
//!   express, so it is refused. Its `N` flag (overtime rather than a loss when it runs out)
//!   only matters once the time is spent, and is ignored like the extension.
//! - The increment is added after every move (`,1` or nothing); added every M2 > 1 moves, or
//!   with the `N` flag (only the time spent is given back, up to the increment), it is
//!   refused.
//! - The extension (overtime after a flag fall; GGS Othello's soft time-out, where the game is
//!   lost by the least margin but may be finished) is ignored: our clocks have no overtime.
//!   Nothing is lost on writing a game back, as the tag is kept as it was read.

use std::fmt;
use std::time::Duration;

use reversi_core::TimeControl;

/// The longest time a clock part may hold: a day, as for `--clock`.
const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// A clock that is not GGS syntax, or that a base and an increment cannot express.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseClockError {
    /// The clock as written (at most 40 characters of it).
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GGF clock {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseClockError {}

/// One part of a clock: its time, and the `,[N]M` after it (`N` given, and M).
struct Part {
    time: Duration,
    moves: Option<(bool, u32)>,
}

/// Reads `[[HH:]MM:]SS` with an optional fraction of a second; empty is zero.
fn parse_time(text: &str) -> Result<Duration, &'static str> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Duration::ZERO);
    }
    let fields: Vec<&str> = t.split(':').collect();
    if fields.len() > 3 {
        return Err("a time has more than hours, minutes and seconds");
    }
    let (whole, fraction) = match fields[fields.len() - 1].split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (fields[fields.len() - 1], None),
    };
    let mut secs: u64 = 0;
    let count = fields.len();
    for (i, field) in fields.iter().enumerate() {
        let digits = if i + 1 == count { whole } else { field };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err("a time is not [[HH:]MM:]SS");
        }
        let n: u64 = digits.parse().map_err(|_| "a time is out of range")?;
        if i > 0 && n >= 60 {
            return Err("minutes and seconds after ':' must be below 60");
        }
        secs = secs
            .checked_mul(60)
            .and_then(|s| s.checked_add(n))
            .ok_or("a time is out of range")?;
    }
    let nanos = match fraction {
        None => 0,
        Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            let padded = format!("{f:0<9}");
            padded
                .parse::<u32>()
                .map_err(|_| "a time is not [[HH:]MM:]SS")?
        }
        Some(_) => return Err("a fraction of a second has 1 to 9 digits"),
    };
    let time = Duration::new(secs, nanos);
    if time > MAX_TIME {
        return Err("times are limited to a day");
    }
    Ok(time)
}

/// Reads `TIME[,[N]M]`.
fn parse_part(text: &str) -> Result<Part, &'static str> {
    let (time, moves) = match text.split_once(',') {
        Some((t, m)) => (t, Some(m.trim())),
        None => (text, None),
    };
    let moves = match moves {
        None => None,
        Some(m) => {
            let (flag, digits) = match m.strip_prefix('N') {
                Some(rest) => (true, rest),
                None => (false, m),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err("a move count after ',' is not [N]NUMBER");
            }
            let n = digits.parse().map_err(|_| "a move count is out of range")?;
            Some((flag, n))
        }
    };
    Ok(Part {
        time: parse_time(time)?,
        moves,
    })
}

/// Reads a GGF clock (`TI[…]`'s value) as a base time and an increment; see the
/// [module](self) for what is kept, ignored and refused.
///
/// # Errors
/// [`ParseClockError`] for text that is not GGS clock syntax, a zero initial time, and
/// clocks of moves per period or with an increment that is not added after every move.
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use reversi_core::TimeControl;
/// use reversi_formats::ggf::parse_clock;
///
/// let five = TimeControl::sudden_death(Duration::from_secs(300));
/// assert_eq!(parse_clock("5:00"), Ok(five));
/// // GGS's Othello clock: the two minutes of extension are not a base or an increment.
/// assert_eq!(parse_clock("05:00//02:00"), Ok(five));
/// let tc = parse_clock("30:00/00:05/02:00")?;
/// assert_eq!((tc.base, tc.increment), (Duration::from_secs(1800), Duration::from_secs(5)));
/// // Two hours for 40 moves: not a base and an increment.
/// assert!(parse_clock("2:00:00,N40//30:00").is_err());
/// # Ok::<(), reversi_formats::ggf::ParseClockError>(())
/// ```
pub fn parse_clock(text: &str) -> Result<TimeControl, ParseClockError> {
    let err = |reason| ParseClockError {
        text: text.chars().take(40).collect(),
        reason,
    };
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() > 3 {
        return Err(err("more than three parts (initial/increment/extension)"));
    }
    let initial = parse_part(parts[0]).map_err(err)?;
    let increment = match parts.get(1) {
        Some(p) => parse_part(p).map_err(err)?,
        None => Part {
            time: Duration::ZERO,
            moves: None,
        },
    };
    // Read to refuse what is malformed, then left out.
    if let Some(p) = parts.get(2) {
        parse_part(p).map_err(err)?;
    }
    if initial.time.is_zero() {
        return Err(err("the initial time must be more than zero"));
    }
    if matches!(initial.moves, Some((_, m)) if m > 0) {
        return Err(err(
            "an initial time for a number of moves is not a base and an increment",
        ));
    }
    match increment.moves {
        Some((true, _)) => {
            return Err(err(
                "an increment that gives back only the time spent (N) is not supported",
            ))
        }
        Some((false, m)) if m > 1 => {
            return Err(err(
                "an increment added every few moves is not an increment per move",
            ))
        }
        _ => {}
    }
    Ok(TimeControl {
        base: initial.time,
        increment: increment.time,
    })
}

/// Writes a time as GGS does: `MM:SS` (`05:00`), `H:MM:SS` from an hour on (`1:30:00`), with
/// the fraction of a second only when there is one (`00:02.5`).
fn write_time(d: Duration) -> String {
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut out = if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    };
    if d.subsec_nanos() > 0 {
        let fraction = format!("{:09}", d.subsec_nanos());
        out.push('.');
        out.push_str(fraction.trim_end_matches('0'));
    }
    out
}

/// Writes `tc` as a GGF clock: `05:00`, or `05:00/00:03` with an increment. Reads back the
/// same with [`parse_clock`].
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use reversi_core::TimeControl;
/// use reversi_formats::ggf::{parse_clock, write_clock};
///
/// let tc = TimeControl { base: Duration::from_secs(300), increment: Duration::from_secs(3) };
/// assert_eq!(write_clock(&tc), "05:00/00:03");
/// assert_eq!(parse_clock(&write_clock(&tc)), Ok(tc));
/// ```
#[must_use]
pub fn write_clock(tc: &TimeControl) -> String {
    if tc.increment.is_zero() {
        write_time(tc.base)
    } else {
        format!("{}/{}", write_time(tc.base), write_time(tc.increment))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(base: u64, increment: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(base),
            increment: Duration::from_secs(increment),
        }
    }

    #[test]
    fn clocks_that_are_a_base_and_an_increment() {
        for (text, expected) in [
            ("5:00", tc(300, 0)),
            ("05:00", tc(300, 0)),
            ("300", tc(300, 0)),
            ("90:00", tc(5400, 0)),
            ("1:00:00", tc(3600, 0)),
            ("05:00//02:00", tc(300, 0)),
            ("01:00/00:00/02:00", tc(60, 0)),
            ("30:00/00:05/02:00", tc(1800, 5)),
            ("5:00/0:03", tc(300, 3)),
            ("5:00/3,1", tc(300, 3)),
            ("5:00,0/3", tc(300, 3)),
            ("5:00,N0//1:00,N0", tc(300, 0)),
            (" 5:00 / 3 ", tc(300, 3)),
            ("5:00/", tc(300, 0)),
        ] {
            assert_eq!(parse_clock(text), Ok(expected), "{text:?}");
        }
        let fraction = parse_clock("0:02.5/0.25").unwrap();
        assert_eq!(fraction.base, Duration::from_millis(2500));
        assert_eq!(fraction.increment, Duration::from_millis(250));
    }

    #[test]
    fn other_clocks_are_refused_with_a_reason() {
        for (text, reason) in [
            ("", "more than zero"),
            ("/00:05", "more than zero"),
            ("0:00/0:05", "more than zero"),
            ("2:00:00,N40//30:00", "number of moves"),
            ("2:00:00,40", "number of moves"),
            ("5:00/0:10,5", "every few moves"),
            ("5:00/0:10,N1", "time spent"),
            ("5:00/0:03/1:00/1", "three parts"),
            ("five", "[[HH:]MM:]SS"),
            ("5:", "[[HH:]MM:]SS"),
            ("-5", "[[HH:]MM:]SS"),
            ("5:75", "below 60"),
            ("1:2:3:4", "more than hours"),
            ("25:00:00", "a day"),
            ("99999999999999999999", "out of range"),
            ("5:00,x", "[N]NUMBER"),
            ("5:00,N", "[N]NUMBER"),
            ("5:00//2:00,y", "[N]NUMBER"),
            ("1.1234567891", "1 to 9 digits"),
            ("1.", "1 to 9 digits"),
        ] {
            let e = parse_clock(text).unwrap_err();
            assert!(e.to_string().contains(reason), "{text:?}: {e}");
        }
    }

    #[test]
    fn clocks_write_as_ggs_does_and_read_back() {
        for (clock, text) in [
            (tc(300, 0), "05:00"),
            (tc(300, 3), "05:00/00:03"),
            (tc(5400, 0), "1:30:00"),
            (tc(7, 65), "00:07/01:05"),
            (
                TimeControl {
                    base: Duration::from_millis(2500),
                    increment: Duration::from_nanos(1),
                },
                "00:02.5/00:00.000000001",
            ),
        ] {
            assert_eq!(write_clock(&clock), text);
            assert_eq!(parse_clock(text), Ok(clock), "{text}");
        }
    }
}
