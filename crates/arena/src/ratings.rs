//! Player ratings from game results: a Bradley–Terry (Elo) maximum-likelihood fit with a weak
//! prior, solved by minorization–maximization and anchored on a stated player.
//!
//! Each player `i` has a strength `γᵢ = 10^(rᵢ / 400)`; `i` scores against `j` with expected
//! value `γᵢ / (γᵢ + γⱼ)` (a draw counts half a win and half a loss). The prior is `prior_draws`
//! virtual draws of every player against a virtual player of strength 1 (rating 0 before the
//! anchoring), so a player with few games stays near the mean and one who won every game still
//! has a finite rating. The MM update (Hunter, 2004) is
//! `γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)` over all players at once; it raises the penalised likelihood
//! at every step and depends on nothing but the games, so the fit is deterministic.

use std::fmt;

/// One game between two players, numbered from 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Encounter {
    /// The first player.
    pub first: usize,
    /// The second player.
    pub second: usize,
    /// The first player's score: 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
}

/// How to fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingFit {
    /// Virtual draws of each player against the mean (the prior's weight; more than 0).
    pub prior_draws: f64,
    /// The most MM steps taken.
    pub max_iterations: usize,
    /// The fit stops once no rating moves more than this many Elo points in a step.
    pub tolerance: f64,
    /// The rating given to the anchor: the median of the players with at least
    /// `anchor_min_games` games.
    pub anchor_rating: f64,
    /// The games a player needs to count for the anchor's median.
    pub anchor_min_games: usize,
}

impl Default for RatingFit {
    /// Two virtual draws, at most 10,000 steps to 0.001 Elo, the median player with 20 games
    /// or more at 1500.
    fn default() -> RatingFit {
        RatingFit {
            prior_draws: 2.0,
            max_iterations: 10_000,
            tolerance: 1e-3,
            anchor_rating: 1500.0,
            anchor_min_games: 20,
        }
    }
}

/// The fitted ratings.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    /// Each player's rating on the anchored scale.
    pub ratings: Vec<f64>,
    /// Each player's games.
    pub games: Vec<usize>,
    /// MM steps taken.
    pub iterations: usize,
    /// Whether the last step moved no rating more than the tolerance.
    pub converged: bool,
    /// The players the anchor's median was taken over.
    pub anchor_players: usize,
}

/// Why ratings cannot be fitted.
#[derive(Debug, Clone, PartialEq)]
pub enum RatingsError {
    /// A game names a player beyond the number of players.
    UnknownPlayer {
        /// The game's index.
        game: usize,
        /// The player number it names.
        player: usize,
    },
    /// A game of a player against itself.
    SamePlayer {
        /// The game's index.
        game: usize,
    },
    /// A score outside 0..=1 (or not a number).
    BadScore {
        /// The game's index.
        game: usize,
    },
    /// A prior weight that is not a positive number.
    BadPrior,
    /// No player has enough games for the anchor.
    NoAnchor {
        /// The games the anchor asks for.
        min_games: usize,
    },
}

impl fmt::Display for RatingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingsError::UnknownPlayer { game, player } => {
                write!(
                    f,
                    "game {game} names player {player}, beyond the players given"
                )
            }
            RatingsError::SamePlayer { game } => write!(f, "game {game} has one player twice"),
            RatingsError::BadScore { game } => write!(f, "game {game} has a score outside 0-1"),
            RatingsError::BadPrior => f.write_str("the prior's weight must be a positive number"),
            RatingsError::NoAnchor { min_games } => {
                write!(
                    f,
                    "no player has {min_games} games or more to anchor the scale"
                )
            }
        }
    }
}

impl std::error::Error for RatingsError {}

/// Elo points per unit of natural-log strength: 400 / ln 10.
const ELO_PER_LN: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits the ratings of `players` players from `games`.
///
/// # Errors
/// A game naming an unknown player, a player twice or a score outside 0..=1; a prior weight
/// that is not positive; no player with the anchor's games.
///
/// # Examples
/// ```
/// use reversi_arena::{fit_ratings, Encounter, RatingFit};
///
/// // Player 0 beats player 1 three times in four; player 2 has not played.
/// let games: Vec<Encounter> = [1.0, 1.0, 1.0, 0.0]
///     .iter()
///     .map(|&score| Encounter { first: 0, second: 1, score })
///     .collect();
/// let fit = RatingFit { anchor_min_games: 0, ..RatingFit::default() };
/// let r = fit_ratings(3, &games, &fit).unwrap();
/// assert!(r.ratings[0] > r.ratings[2] && r.ratings[2] > r.ratings[1]);
/// // The prior holds the unplayed player at the mean, here the anchor.
/// assert!((r.ratings[2] - 1500.0).abs() < 1e-6);
/// ```
pub fn fit_ratings(
    players: usize,
    games: &[Encounter],
    fit: &RatingFit,
) -> Result<Ratings, RatingsError> {
    if !(fit.prior_draws.is_finite() && fit.prior_draws > 0.0) {
        return Err(RatingsError::BadPrior);
    }
    let mut wins = vec![fit.prior_draws / 2.0; players];
    let mut count = vec![0usize; players];
    for (i, g) in games.iter().enumerate() {
        for p in [g.first, g.second] {
            if p >= players {
                return Err(RatingsError::UnknownPlayer { game: i, player: p });
            }
        }
        if g.first == g.second {
            return Err(RatingsError::SamePlayer { game: i });
        }
        if !(0.0..=1.0).contains(&g.score) {
            return Err(RatingsError::BadScore { game: i });
        }
        wins[g.first] += g.score;
        wins[g.second] += 1.0 - g.score;
        count[g.first] += 1;
        count[g.second] += 1;
    }
    let mut eligible: Vec<usize> = (0..players)
        .filter(|&p| count[p] >= fit.anchor_min_games)
        .collect();
    if eligible.is_empty() {
        return Err(RatingsError::NoAnchor {
            min_games: fit.anchor_min_games,
        });
    }
    let mut gamma = vec![1.0f64; players];
    let mut denominator = vec![0.0f64; players];
    let mut iterations = 0;
    let mut converged = false;
    while iterations < fit.max_iterations && !converged {
        iterations += 1;
        for (p, d) in denominator.iter_mut().enumerate() {
            *d = fit.prior_draws / (gamma[p] + 1.0);
        }
        for g in games {
            let inv = 1.0 / (gamma[g.first] + gamma[g.second]);
            denominator[g.first] += inv;
            denominator[g.second] += inv;
        }
        let mut largest = 0.0f64;
        for p in 0..players {
            let next = wins[p] / denominator[p];
            largest = largest.max((next / gamma[p]).ln().abs() * ELO_PER_LN);
            gamma[p] = next;
        }
        converged = largest <= fit.tolerance;
    }
    let raw: Vec<f64> = gamma.iter().map(|g| g.ln() * ELO_PER_LN).collect();
    eligible.sort_by(|&a, &b| raw[a].total_cmp(&raw[b]));
    let mid = eligible.len() / 2;
    let median = if eligible.len() % 2 == 1 {
        raw[eligible[mid]]
    } else {
        (raw[eligible[mid - 1]] + raw[eligible[mid]]) / 2.0
    };
    let shift = fit.anchor_rating - median;
    Ok(Ratings {
        ratings: raw.iter().map(|r| r + shift).collect(),
        games: count,
        iterations,
        converged,
        anchor_players: eligible.len(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use reversi_core::XorShift64;

    fn uniform(rng: &mut XorShift64) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn the_fit_recovers_simulated_ratings() {
        let mut rng = XorShift64::new(34);
        let players = 120;
        // True ratings spread like a club's: 1100 to 1900.
        let truth: Vec<f64> = (0..players)
            .map(|_| 1100.0 + 800.0 * uniform(&mut rng))
            .collect();
        let mut games = Vec::new();
        for _ in 0..players * 100 {
            let a = rng.below(players as u64) as usize;
            let mut b = rng.below(players as u64 - 1) as usize;
            if b >= a {
                b += 1;
            }
            let p = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
            // A few draws, taken from both sides' chances.
            let u = uniform(&mut rng);
            let score = if u < p - 0.03 {
                1.0
            } else if u < p + 0.03 {
                0.5
            } else {
                0.0
            };
            games.push(Encounter {
                first: a,
                second: b,
                score,
            });
        }
        let fit = RatingFit {
            anchor_min_games: 0,
            ..RatingFit::default()
        };
        let r = fit_ratings(players, &games, &fit).unwrap();
        assert!(r.converged, "{} steps", r.iterations);
        // The scale's origin is the anchor's: compare after taking out the mean difference.
        let offset = (0..players).map(|i| r.ratings[i] - truth[i]).sum::<f64>() / players as f64;
        let rms = ((0..players)
            .map(|i| (r.ratings[i] - truth[i] - offset).powi(2))
            .sum::<f64>()
            / players as f64)
            .sqrt();
        // About 200 games a player: a standard error near 25 Elo.
        assert!(rms < 40.0, "rms error {rms:.1}");
        // The order of players far apart is recovered.
        for i in 0..players {
            for j in 0..players {
                if truth[i] > truth[j] + 150.0 {
                    assert!(r.ratings[i] > r.ratings[j], "{i} {j}");
                }
            }
        }
        // Deterministic: the same games, the same ratings.
        assert_eq!(fit_ratings(players, &games, &fit).unwrap(), r);
    }

    #[test]
    fn the_prior_keeps_unbeaten_players_finite_and_the_anchor_holds() {
        // 0 beat 1 every time; 2 and 3 drew all their games.
        let mut games = vec![
            Encounter {
                first: 0,
                second: 1,
                score: 1.0
            };
            30
        ];
        games.extend(vec![
            Encounter {
                first: 2,
                second: 3,
                score: 0.5
            };
            30
        ]);
        let r = fit_ratings(4, &games, &RatingFit::default()).unwrap();
        assert!(r.ratings.iter().all(|x| x.is_finite()));
        assert!(r.ratings[0] > r.ratings[2] + 300.0 && r.ratings[1] < r.ratings[2] - 300.0);
        // Four players with 30 games: the median is between the middle two (the drawers).
        assert_eq!(r.anchor_players, 4);
        assert!((r.ratings[2] - 1500.0).abs() < 1e-6);
        assert_eq!(r.games, vec![30, 30, 30, 30]);
    }

    #[test]
    fn bad_input_is_refused() {
        let fit = RatingFit::default();
        let game = |first, second, score| Encounter {
            first,
            second,
            score,
        };
        assert_eq!(
            fit_ratings(2, &[game(0, 2, 1.0)], &fit),
            Err(RatingsError::UnknownPlayer { game: 0, player: 2 })
        );
        assert_eq!(
            fit_ratings(2, &[game(1, 1, 1.0)], &fit),
            Err(RatingsError::SamePlayer { game: 0 })
        );
        assert_eq!(
            fit_ratings(2, &[game(0, 1, f64::NAN)], &fit),
            Err(RatingsError::BadScore { game: 0 })
        );
        let no_prior = RatingFit {
            prior_draws: 0.0,
            ..fit
        };
        assert_eq!(fit_ratings(2, &[], &no_prior), Err(RatingsError::BadPrior));
        assert_eq!(
            fit_ratings(2, &[game(0, 1, 1.0)], &fit),
            Err(RatingsError::NoAnchor { min_games: 20 })
        );
        assert!(RatingsError::NoAnchor { min_games: 20 }
            .to_string()
            .contains("20 games"));
    }
}
