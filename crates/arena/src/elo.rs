//! A match's tally from the first engine's side: wins, draws, losses, disc difference, score
//! and the Elo difference with its 95% interval.

use std::fmt;

/// One game's result for the first engine (named apart from [`reversi_core::Outcome`], who
/// won a finished game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameResult {
    /// Its discs minus the opponent's (empty squares to the winner; ±64 for a forfeit).
    pub margin: i32,
    /// Whether it played Black.
    pub as_black: bool,
}

/// The tally so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    results: Vec<GameResult>,
}

/// Wins, draws and losses: a match's record, written `+W =D -L`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WinDrawLoss {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
}

impl fmt::Display for WinDrawLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// An Elo difference, which is infinite for a score of 0% or 100%.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo(pub f64);

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_infinite() {
            f.write_str(if self.0 > 0.0 { "+inf" } else { "-inf" })
        } else {
            write!(f, "{:+.0}", self.0)
        }
    }
}

/// The Elo difference that a score fraction `p` means: 400 log10(p / (1 - p)).
#[must_use]
pub fn elo(p: f64) -> Elo {
    if p <= 0.0 {
        Elo(f64::NEG_INFINITY)
    } else if p >= 1.0 {
        Elo(f64::INFINITY)
    } else {
        Elo(400.0 * (p / (1.0 - p)).log10())
    }
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, result: GameResult) {
        self.results.push(result);
    }

    /// The games counted.
    #[must_use]
    pub fn games(&self) -> usize {
        self.results.len()
    }

    fn record_of(results: impl Iterator<Item = GameResult>) -> WinDrawLoss {
        let mut r = WinDrawLoss::default();
        for o in results {
            match o.margin.signum() {
                1 => r.wins += 1,
                0 => r.draws += 1,
                _ => r.losses += 1,
            }
        }
        r
    }

    /// Wins, draws and losses of all the games.
    #[must_use]
    pub fn record(&self) -> WinDrawLoss {
        Self::record_of(self.results.iter().copied())
    }

    /// The record of the games played with Black (`true`) or White.
    #[must_use]
    pub fn record_as(&self, black: bool) -> WinDrawLoss {
        Self::record_of(self.results.iter().copied().filter(|o| o.as_black == black))
    }

    /// The average disc difference.
    #[must_use]
    pub fn average_margin(&self) -> f64 {
        if self.results.is_empty() {
            return 0.0;
        }
        let sum: i32 = self.results.iter().map(|o| o.margin).sum();
        f64::from(sum) / self.results.len() as f64
    }

    fn points(&self) -> impl Iterator<Item = f64> + '_ {
        self.results.iter().map(|o| match o.margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        })
    }

    /// The score fraction: (wins + draws / 2) / games.
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.results.is_empty() {
            return 0.5;
        }
        self.points().sum::<f64>() / self.results.len() as f64
    }

    /// The Elo difference and its 95% interval, from the standard error of the per-game
    /// scores (a normal approximation; the bounds are clamped to scores of 0 and 1).
    #[must_use]
    pub fn elo(&self) -> (Elo, Elo, Elo) {
        let p = self.score();
        let n = self.results.len();
        if n < 2 {
            return (elo(p), Elo(f64::NEG_INFINITY), Elo(f64::INFINITY));
        }
        let var = self.points().map(|x| (x - p) * (x - p)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        (elo(p), elo(p - 1.96 * se), elo(p + 1.96 * se))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(margins: &[i32]) -> Tally {
        let mut t = Tally::default();
        for (i, &margin) in margins.iter().enumerate() {
            t.add(GameResult {
                margin,
                as_black: i % 2 == 0,
            });
        }
        t
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo(0.5).0, 0.0);
        assert!((elo(0.75).0 - 190.85).abs() < 0.01);
        assert!((elo(0.25).0 + 190.85).abs() < 0.01);
        assert_eq!(elo(1.0).to_string(), "+inf");
        assert_eq!(elo(0.0).to_string(), "-inf");
        assert_eq!(elo(0.64).to_string(), "+100");
    }

    #[test]
    fn tallies() {
        let t = tally(&[10, -4, 0, 64]);
        assert_eq!(t.games(), 4);
        assert_eq!(
            t.record(),
            WinDrawLoss {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(t.record_as(true).to_string(), "+1 =1 -0");
        assert_eq!(t.record_as(false).to_string(), "+1 =0 -1");
        assert_eq!(t.average_margin(), 17.5);
        assert_eq!(t.score(), 0.625);
        let (e, lo, hi) = t.elo();
        assert!(lo.0 < e.0 && e.0 < hi.0);
        // Even results: zero, with a symmetric interval.
        let (e, lo, hi) = tally(&[2, -2, 2, -2, 2, -2, 2, -2, 2, -2]).elo();
        assert_eq!(e.0, 0.0);
        assert!((lo.0 + hi.0).abs() < 1e-9 && hi.0 > 0.0);
        // All wins: no finite estimate, and no spread to measure.
        let (e, lo, hi) = tally(&[1, 1, 1]).elo();
        assert_eq!(
            (e.to_string(), lo.to_string(), hi.to_string()),
            ("+inf".into(), "+inf".into(), "+inf".into())
        );
    }
}
