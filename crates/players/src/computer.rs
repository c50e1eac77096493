//! A computer player of any kind on any board ([`Computer`]): the move it chooses and the
//! search behind it ([`Decision`]), in the engine's words.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reversi_core::{Move, Position, XorShift64};
use reversi_engine::book::{self, Book};
use reversi_engine::clock::{Clock, Stopwatch, SystemClock};
use reversi_engine::engine::Engine;
use reversi_engine::{Candidate, ScoreKind, Thinking};

use crate::ai::Ai;
use crate::classic;
use crate::level::{book_thinking, level_search, level_time, standard_engine};

/// The move a computer player chose, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The move to play: a square, or [`Move::Pass`] when the player must pass.
    pub mv: Move,
    /// The search's report behind it ([`Thinking::default`] for a forced pass).
    pub thinking: Thinking,
}

/// A computer player with its random seed.
///
/// # Examples
/// ```
/// use std::sync::atomic::AtomicBool;
/// use reversi_core::{BoardSize, Move, Position, Rules};
/// use reversi_engine::ScoreKind;
/// use reversi_players::{Ai, Computer};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let stop = AtomicBool::new(false);
///
/// // Every first move flips one disc; the greedy player takes the first in board order.
/// let mut greedy = Computer::new("greedy".parse::<Ai>()?, 1);
/// let decision = greedy.choose(&start, &stop, &mut |_| {}).expect("the game is on");
/// assert_eq!(decision.mv, Move::Play(start.parse_square("d3")?));
/// let best = decision.thinking.best.expect("scored");
/// assert_eq!((best.score, best.kind), (1, ScoreKind::Flips));
///
/// // Alpha-beta at two plies plays a legal move, and scores every one.
/// let mut classic = Computer::new("alphabeta:2".parse()?, 1);
/// let decision = classic.choose(&start, &stop, &mut |_| {}).expect("the game is on");
/// assert!(start.moves().contains(&decision.mv));
/// assert_eq!(decision.thinking.candidates.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Computer {
    ai: Ai,
    seed: u64,
    rng: XorShift64,
    /// Shared with the [`Advisor`](crate::Advisor) that made the player; filled at the first
    /// search when empty.
    engine: Arc<OnceLock<Arc<Engine>>>,
    time_limit: Option<Duration>,
    book: Option<Arc<Book>>,
}

impl fmt::Debug for Computer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Computer")
            .field("ai", &self.ai)
            .field("engine_made", &self.engine.get().is_some())
            .field("time_limit", &self.time_limit)
            .field("book", &self.book.is_some())
            .finish_non_exhaustive()
    }
}

impl Computer {
    /// A computer player consulting the shipped book, with an engine of its own made at its
    /// first search ([`Advisor::computer`](crate::Advisor::computer) makes one that shares an
    /// engine and a book); `seed` drives the random player and the levels' allowances.
    #[must_use]
    pub fn new(ai: Ai, seed: u64) -> Computer {
        Computer {
            ai,
            seed,
            rng: XorShift64::new(seed | 1),
            engine: Arc::new(OnceLock::new()),
            time_limit: None,
            book: book::shipped(),
        }
    }

    /// The same player consulting `book` in the opening (`None`: no book).
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Computer {
        self.book = book;
        self
    }

    /// The same player searching with `engine` (as in a match, where each side keeps its own
    /// table, or a program that shares one).
    #[must_use]
    pub fn with_engine(mut self, engine: Arc<Engine>) -> Computer {
        self.engine = Arc::new(OnceLock::from(engine));
        self
    }

    /// The same player searching with the engine of `cell`, made there at the first search
    /// of any player sharing it if not yet (an advisor's: making a player makes no engine).
    pub(crate) fn sharing_engine(mut self, cell: Arc<OnceLock<Arc<Engine>>>) -> Computer {
        self.engine = cell;
        self
    }

    /// Caps the time of the next moves of a level (from a game clock, or a match's time per
    /// move); the level's own budget applies as well. `None` leaves the level's budget.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    /// Starts the player's random choices afresh from `seed` (as in a match, one seed a game,
    /// so that games from one opening vary and still replay alike).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = XorShift64::new(seed | 1);
    }

    /// The kind of player.
    #[must_use]
    pub fn ai(&self) -> Ai {
        self.ai
    }

    /// The seed of its random choices.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The cap on its next moves' time ([`Computer::set_time_limit`]).
    #[must_use]
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    fn next_random(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Chooses a move for the side to move of `pos`: `None` when the game is over. A forced
    /// pass is returned as [`Move::Pass`] at once. `progress` hears about each completed
    /// iteration; setting `stop` makes the search return the best move found so far.
    pub fn choose(
        &mut self,
        pos: &Position,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Option<Decision> {
        // The player's own engine's clock, else the system's (a platform without one hands
        // every player an engine of its own).
        let own_engine = self.engine.get().cloned();
        let system;
        let clock: &dyn Clock = match &own_engine {
            Some(engine) => engine.clock().as_ref(),
            None => {
                system = SystemClock::new();
                &system
            }
        };
        let started = Stopwatch::start(clock);
        let moves = pos.moves();
        let &first = moves.first()?;
        if first == Move::Pass {
            return Some(Decision {
                mv: Move::Pass,
                thinking: Thinking::default(),
            });
        }
        let thinking = match self.ai {
            Ai::Random => {
                let mv = moves[(self.next_random() % moves.len() as u64) as usize];
                let best = Candidate {
                    mv,
                    score: 0,
                    kind: ScoreKind::Random,
                    upper_bound: false,
                };
                Thinking {
                    best: Some(best.clone()),
                    candidates: vec![best],
                    ..Thinking::default()
                }
            }
            Ai::Greedy => {
                let mut candidates: Vec<Candidate> = moves
                    .iter()
                    .map(|&mv| Candidate {
                        mv,
                        score: match mv {
                            Move::Play(sq) => pos.flips(sq).map_or(0, |f| f.len() as i32),
                            Move::Pass => 0,
                        },
                        kind: ScoreKind::Flips,
                        upper_bound: false,
                    })
                    .collect();
                candidates.sort_by_key(|c| -c.score);
                Thinking {
                    depth: 1,
                    best: candidates.first().cloned(),
                    nodes: moves.len() as u64,
                    candidates,
                    ..Thinking::default()
                }
            }
            Ai::Classic { algorithm, depth } => {
                let r = classic::search(pos, algorithm, depth, stop)?;
                let mut candidates: Vec<Candidate> = r
                    .root
                    .iter()
                    .map(|&(mv, v)| Candidate {
                        mv,
                        score: v,
                        kind: ScoreKind::Points(depth),
                        upper_bound: false,
                    })
                    .collect();
                candidates.sort_by_key(|c| -c.score);
                Thinking {
                    depth,
                    best: Some(Candidate {
                        mv: r.best,
                        score: r.value,
                        kind: ScoreKind::Points(depth),
                        upper_bound: false,
                    }),
                    pv: vec![r.best],
                    candidates,
                    nodes: r.states,
                    elapsed: started.elapsed(),
                }
            }
            Ai::Level(level) => {
                let spec = level.spec();
                if let Some(t) = self.book.as_deref().and_then(|b| {
                    book_thinking(
                        b,
                        pos,
                        spec.book_margin,
                        spec.allowance,
                        position_roll(self.seed, pos),
                    )
                }) {
                    progress(&t);
                    return Some(Decision {
                        mv: t.best.as_ref().map_or(first, |c| c.mv),
                        thinking: Thinking {
                            elapsed: started.elapsed(),
                            ..t
                        },
                    });
                }
                let own = level_time(level, pos);
                let time = self.time_limit.map_or(own, |t| t.min(own));
                let engine = Arc::clone(self.engine.get_or_init(standard_engine));
                let engine = engine.as_ref();
                match spec.allowance {
                    None => level_search(engine, pos, level, time, stop, progress, started, false),
                    Some(allowance) => {
                        // Every move's score, to stray among those close to the best.
                        let mut t =
                            level_search(engine, pos, level, time, stop, progress, started, true);
                        let scores: Vec<i32> = t.candidates.iter().map(|c| c.score).collect();
                        let pick = allowance.pick(&scores, position_roll(self.seed, pos));
                        if let Some(chosen) = t.candidates.get(pick).cloned() {
                            if t.best.as_ref().is_some_and(|b| b.mv != chosen.mv) {
                                t.pv = vec![chosen.mv];
                            }
                            t.best = Some(chosen);
                        }
                        t
                    }
                }
            }
        };
        let mv = thinking.best.as_ref().map_or(first, |c| c.mv);
        let mut thinking = thinking;
        thinking.elapsed = started.elapsed();
        progress(&thinking);
        Some(Decision { mv, thinking })
    }
}

/// A random number fixed by `seed` and `pos`: a level strays the same way whenever it meets
/// the same position with the same seed (so matches and replays are reproducible).
fn position_roll(seed: u64, pos: &Position) -> u64 {
    /// FNV-1a, stable from build to build (unlike the standard library's hasher).
    struct Fnv(u64);
    impl Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325 ^ seed);
    pos.hash(&mut h);
    XorShift64::new(h.finish() | 1).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};

    #[test]
    fn every_player_moves_legally_on_every_size() {
        let stop = AtomicBool::new(false);
        for size in [BoardSize::FOUR, BoardSize::SIX, BoardSize::new(10).unwrap()] {
            for rules in [Rules::Othello, Rules::Reversi] {
                for ai in ["random", "greedy", "alphabeta:2", "2"] {
                    let mut c = Computer::new(ai.parse().unwrap(), 7);
                    let mut pos = Position::start(size, rules);
                    let mut plies = 0;
                    while let Some(d) = c.choose(&pos, &stop, &mut |_| {}) {
                        pos = pos.play(d.mv).unwrap();
                        plies += 1;
                        if plies > 12 && size.get() > 6 {
                            break;
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn greedy_takes_the_most_discs() {
        let stop = AtomicBool::new(false);
        let pos = Position::start(BoardSize::EIGHT, Rules::Othello);
        let pos = reversi_core::parse_transcript("f5d6c3d3c4", pos)
            .unwrap()
            .current()
            .clone();
        let d = Computer::new(Ai::Greedy, 1)
            .choose(&pos, &stop, &mut |_| {})
            .unwrap();
        let most = pos
            .legal_moves()
            .iter()
            .map(|&sq| pos.flips(sq).unwrap().len())
            .max()
            .unwrap();
        let Move::Play(sq) = d.mv else { panic!() };
        assert_eq!(pos.flips(sq).unwrap().len(), most);
    }
}
