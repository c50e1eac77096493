//! A match: two contenders play each opening twice with colours swapped, with a seed per
//! game for the internal players; the tally, the forfeits and each side's time per move are
//! kept as the games are played.

use std::time::Duration;

use reversi_core::{Color, Game, TimeControl};

use crate::contender::Contender;
use crate::elo::{GameResult, Tally};
use crate::play::{play_game, Played};

/// How the games of a match are played.
#[derive(Debug, Clone, Copy)]
pub struct MatchRules {
    /// How long an external engine may take to start or to answer a move (untimed games).
    pub timeout: Duration,
    /// Each side's game clock, if the match is timed.
    pub clock: Option<TimeControl>,
}

/// The time one side took for its moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// All its moves' time.
    pub total: Duration,
    /// Its moves (not counting the openings' or forced passes).
    pub moves: u32,
    /// Its longest move.
    pub longest: Duration,
}

impl MoveTimes {
    /// The mean time of a move in seconds (zero before any move).
    #[must_use]
    pub fn mean_secs(&self) -> f64 {
        self.total.as_secs_f64() / f64::from(self.moves.max(1))
    }
}

/// A game of a match, as played.
#[derive(Debug, Clone)]
pub struct MatchGame {
    /// The game's number, from 0.
    pub number: usize,
    /// The opening's number, from 0.
    pub opening: usize,
    /// The colour the first contender played.
    pub a_color: Color,
    /// The game.
    pub played: Played,
}

/// A game of the match played before, read back from its record (record.rs), to be counted
/// again when the match resumes after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Earlier {
    /// Black's name as recorded.
    pub black: String,
    /// White's name as recorded.
    pub white: String,
    /// Black's final disc margin (a forfeit counts 64-0).
    pub black_margin: i32,
    /// The mover and time in milliseconds of each timed move.
    pub times: Vec<(Color, u64)>,
    /// The side that lost off the board, if one did.
    pub forfeit: Option<Color>,
}

/// Why earlier games cannot be counted as this match's first games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResumeError {
    /// More games are recorded than the match has.
    TooMany {
        /// Games recorded.
        recorded: usize,
        /// Games of the match.
        games: usize,
    },
    /// A recorded game was played by other engines or with colours the other way round.
    Players {
        /// 1-based number of the game.
        game: usize,
        /// Black and White as recorded.
        recorded: (String, String),
        /// Black and White of this match's game of that number.
        expected: (String, String),
    },
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::TooMany { recorded, games } => write!(
                f,
                "{recorded} games are recorded, more than the match's {games}"
            ),
            ResumeError::Players {
                game,
                recorded,
                expected,
            } => write!(
                f,
                "game {game} was played by {} (Black) and {} (White), not by this match's {} \
                 (Black) and {} (White)",
                recorded.0, recorded.1, expected.0, expected.1
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// Whether a recorded name is the contender's: its label, or an engine's own name followed
/// by the label in brackets ([`Contender::history_player`]).
fn same_player(recorded: &str, label: &str) -> bool {
    recorded == label
        || recorded
            .strip_suffix(&format!("({label})"))
            .is_some_and(|rest| rest.ends_with(' '))
}

/// Two contenders, `a` and `b`, and their games on a list of openings.
pub struct Match {
    a: Contender,
    b: Contender,
    openings: Vec<Game>,
    games: usize,
    rules: MatchRules,
    tally: Tally,
    forfeits: [usize; 2],
    times: [MoveTimes; 2],
    played: usize,
}

impl Match {
    /// A match of `games` games of `a` against `b` on `openings`, each played twice (`a`
    /// Black first) until `games` are played or the openings run out.
    #[must_use]
    pub fn new(
        a: Contender,
        b: Contender,
        openings: Vec<Game>,
        games: usize,
        rules: MatchRules,
    ) -> Match {
        let games = games.min(2 * openings.len());
        Match {
            a,
            b,
            openings,
            games,
            rules,
            tally: Tally::default(),
            forfeits: [0; 2],
            times: [MoveTimes::default(); 2],
            played: 0,
        }
    }

    /// The games of the match.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games
    }

    /// Whether the match has no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// The openings.
    #[must_use]
    pub fn openings(&self) -> &[Game] {
        &self.openings
    }

    /// Counts `earlier` as the next games of the match, as if they had just been played (the
    /// games of an interrupted match, read back from its record), so that [`Match::play_next`]
    /// goes on with the game after them: the same opening, colours and seeds as in a match
    /// never interrupted.
    ///
    /// # Errors
    /// More games than the match has, or a game played by other contenders (or with the
    /// colours the other way round); nothing is counted then.
    pub fn resume(&mut self, earlier: &[Earlier]) -> Result<(), ResumeError> {
        if self.played + earlier.len() > self.games {
            return Err(ResumeError::TooMany {
                recorded: self.played + earlier.len(),
                games: self.games,
            });
        }
        let (a, b) = (self.a.label().to_string(), self.b.label().to_string());
        for (k, e) in earlier.iter().enumerate() {
            let g = self.played + k;
            let (black, white) = if g.is_multiple_of(2) {
                (&a, &b)
            } else {
                (&b, &a)
            };
            if !same_player(&e.black, black) || !same_player(&e.white, white) {
                return Err(ResumeError::Players {
                    game: g + 1,
                    recorded: (e.black.clone(), e.white.clone()),
                    expected: (black.clone(), white.clone()),
                });
            }
        }
        for e in earlier {
            let a_color = if self.played.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            self.played += 1;
            self.count(a_color, e.black_margin, e.times.iter().copied(), e.forfeit);
        }
        Ok(())
    }

    /// Counts a game `a` played as `a_color` in the tally, the forfeits and the move times.
    fn count(
        &mut self,
        a_color: Color,
        black_margin: i32,
        times: impl Iterator<Item = (Color, u64)>,
        forfeit: Option<Color>,
    ) {
        for (mover, ms) in times {
            let t = &mut self.times[usize::from(mover != a_color)];
            let took = Duration::from_millis(ms);
            t.total += took;
            t.moves += 1;
            t.longest = t.longest.max(took);
        }
        let margin = match a_color {
            Color::Black => black_margin,
            Color::White => -black_margin,
        };
        self.tally.add(GameResult {
            margin,
            as_black: a_color == Color::Black,
        });
        if let Some(loser) = forfeit {
            self.forfeits[usize::from(loser != a_color)] += 1;
        }
    }

    /// Plays the next game (`None` after the last): opening `n / 2` of game `n`, `a` playing
    /// Black in the even games. Counts it in the tally, the forfeits and the move times.
    pub fn play_next(&mut self) -> Option<MatchGame> {
        let g = self.played;
        if g >= self.games {
            return None;
        }
        let opening = self.openings.get(g / 2)?;
        let a_black = g.is_multiple_of(2);
        // A seed per opening and colour, not per engine: the two games of a pair give the
        // same rolls to whoever plays Black (and White), so equal engines mirror each other,
        // while games from the same opening (--from-start) still differ from pair to pair.
        let (black_seed, white_seed) = (0x5eed + g as u64 / 2 * 2, 0x5eed + g as u64 / 2 * 2 + 1);
        let (a_seed, b_seed) = if a_black {
            (black_seed, white_seed)
        } else {
            (white_seed, black_seed)
        };
        self.a.set_seed(a_seed);
        self.b.set_seed(b_seed);
        let MatchRules { timeout, clock } = self.rules;
        let played = if a_black {
            play_game(&mut self.a, &mut self.b, opening, timeout, clock)
        } else {
            play_game(&mut self.b, &mut self.a, opening, timeout, clock)
        };
        self.played += 1;
        let a_color = if a_black { Color::Black } else { Color::White };
        let positions = played.game.positions();
        let times = played
            .moves
            .iter()
            .enumerate()
            .filter_map(|(i, m)| Some((positions[i].turn(), m.time_ms?)));
        let times: Vec<(Color, u64)> = times.collect();
        self.count(
            a_color,
            played.score.margin(),
            times.into_iter(),
            played.forfeit.as_ref().map(|f| f.color),
        );
        Some(MatchGame {
            number: g,
            opening: g / 2,
            a_color,
            played,
        })
    }

    /// The results so far, from `a`'s side.
    #[must_use]
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The games `a` and `b` lost off the board.
    #[must_use]
    pub fn forfeits(&self) -> [usize; 2] {
        self.forfeits
    }

    /// The time `a` and `b` took for their moves.
    #[must_use]
    pub fn move_times(&self) -> [MoveTimes; 2] {
        self.times
    }
}
