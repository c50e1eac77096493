//! The computer players the games use — random, greedy, the classic algorithms at a fixed
//! depth, and the engine's levels — behind one [`Computer`] that reports what it considers.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reversi_core::{Move, Position, XorShift64};
use reversi_engine::book::{self, Book};
use reversi_engine::clock::{Clock, Stopwatch, SystemClock};
use reversi_engine::engine::{self, Engine, Limits};
use reversi_engine::levels::{Allowance, Level};
use reversi_engine::{Board, Candidate, ScoreKind, Sq, Thinking};

use crate::classic::{self, Algorithm};
use crate::heuristic::TERMINAL;

/// A kind of computer player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ai {
    /// A uniformly random legal move.
    Random,
    /// The move that flips the most discs (ties: the first in board order).
    Greedy,
    /// A classic algorithm at a fixed depth with the hand-made square-weight evaluation.
    Classic {
        /// The search algorithm.
        algorithm: Algorithm,
        /// Plies searched, 1 to 20 when parsed.
        depth: u32,
    },
    /// An engine level.
    Level(Level),
}

impl Default for Ai {
    fn default() -> Self {
        Ai::Level(Level::DEFAULT)
    }
}

impl fmt::Display for Ai {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ai::Random => f.write_str("random"),
            Ai::Greedy => f.write_str("greedy"),
            Ai::Classic { algorithm, depth } => write!(f, "{algorithm}:{depth}"),
            Ai::Level(l) => match l.name() {
                Some(name) => f.write_str(name),
                None => write!(f, "{}", l.get()),
            },
        }
    }
}

/// A player description that is not one of the accepted forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseAiError(pub String);

impl fmt::Display for ParseAiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Level::NAMED.iter().map(|&(name, _)| name).collect();
        write!(
            f,
            "unknown computer player {:?}: expected random, greedy, a level 1-60 or a level name \
             ({}), or ALGORITHM:DEPTH with ALGORITHM one of minimax, alphabeta, negascout, \
             negascout-tt and DEPTH 1-20",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for ParseAiError {}

impl FromStr for Ai {
    type Err = ParseAiError;

    /// `random`, `greedy`, `12`, `hard`, `level:12`, `minimax:4`, `random:0`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseAiError(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        match t.split_once(':') {
            None => match t.as_str() {
                "random" => Ok(Ai::Random),
                "greedy" => Ok(Ai::Greedy),
                other => Level::parse(other).map(Ai::Level).ok_or_else(err),
            },
            Some(("level", n)) => Level::parse(n).map(Ai::Level).ok_or_else(err),
            Some(("random", _)) => Ok(Ai::Random),
            Some(("greedy", _)) => Ok(Ai::Greedy),
            Some((alg, depth)) => {
                let algorithm: Algorithm = alg.parse().map_err(|_| err())?;
                let depth: u32 = depth.parse().map_err(|_| err())?;
                if (1..=20).contains(&depth) {
                    Ok(Ai::Classic { algorithm, depth })
                } else {
                    Err(err())
                }
            }
        }
    }
}

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
    /// Shared with the [`Advisor`] that made the player; filled at the first search when empty.
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

/// Transposition table of an engine made by [`Advisor::standard`] or by a player without one,
/// in MB.
const HASH_MB: usize = 64;

/// What computer players and hints consult: an engine, whose transposition table carries
/// over from search to search (it is safe to search from several threads at once), and the
/// opening book (`None`: none). The program makes one and hands it to whatever plays or hints;
/// nothing in the library is shared behind the caller's back.
///
/// A clone consults the same engine and book.
#[derive(Clone)]
pub struct Advisor {
    /// Made at the first search when [`Advisor::standard`] made this advisor.
    engine: Arc<OnceLock<Arc<Engine>>>,
    book: Option<Arc<Book>>,
}

impl fmt::Debug for Advisor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Advisor")
            .field("book", &self.book.is_some())
            .finish_non_exhaustive()
    }
}

impl Advisor {
    /// `engine` with `book`.
    #[must_use]
    pub fn new(engine: Arc<Engine>, book: Option<Arc<Book>>) -> Advisor {
        Advisor {
            engine: Arc::new(OnceLock::from(engine)),
            book,
        }
    }

    /// A 64 MB engine on [`engine::default_threads`] threads, made at the first search, and
    /// the shipped book.
    #[must_use]
    pub fn standard() -> Advisor {
        Advisor {
            engine: Arc::new(OnceLock::new()),
            book: book::shipped(),
        }
    }

    /// The same engine with `book` instead.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Advisor {
        self.book = book;
        self
    }

    /// The engine.
    #[must_use]
    pub fn engine(&self) -> &Arc<Engine> {
        self.engine
            .get_or_init(|| Arc::new(Engine::new(HASH_MB, engine::default_threads())))
    }

    /// The opening book, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// A computer player searching with this engine and consulting this book.
    #[must_use]
    pub fn computer(&self, ai: Ai, seed: u64) -> Computer {
        Computer::new(ai, seed)
            .sharing_engine(Arc::clone(&self.engine))
            .with_book(self.book.clone())
    }

    /// Scores every legal move of `pos` at `level` within the level's budget, best first
    /// (empty when the game is over or the side to move must pass). Moves the book values
    /// carry the book's value, tagged [`ScoreKind::Book`].
    pub fn hints(
        &self,
        pos: &Position,
        level: Level,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<Candidate> {
        self.hints_within(pos, level, level_time(level, pos), stop, progress)
    }

    /// [`Advisor::hints`] within `time` (at most the level's own budget).
    pub fn hints_within(
        &self,
        pos: &Position,
        level: Level,
        time: Duration,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<Candidate> {
        if pos.legal_moves().is_empty() {
            return Vec::new();
        }
        let time = time.min(level_time(level, pos));
        let engine = self.engine();
        let started = Stopwatch::start(engine.clock().as_ref());
        let mut candidates =
            level_search(engine, pos, level, time, stop, progress, started, true).candidates;
        let book = self.book_moves(pos);
        if !book.is_empty() {
            with_book_values(&mut candidates, &book);
        }
        candidates
    }

    /// [`Advisor::hints`] with each move's expected line.
    ///
    /// # Examples
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use reversi_core::{BoardSize, Position, Rules};
    /// use reversi_engine::levels::Level;
    /// use reversi_players::Advisor;
    ///
    /// let start = Position::start(BoardSize::SIX, Rules::Othello);
    /// let advisor = Advisor::standard();
    /// let lines = advisor.hint_lines(&start, Level::new(2).unwrap(), &AtomicBool::new(false), &mut |_| {});
    /// assert_eq!(lines.len(), 4);
    /// for h in &lines {
    ///     assert_eq!(h.line.first(), Some(&h.candidate.mv));
    /// }
    /// ```
    pub fn hint_lines(
        &self,
        pos: &Position,
        level: Level,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<HintLine> {
        self.hint_lines_within(pos, level, level_time(level, pos), stop, progress)
    }

    /// [`Advisor::hint_lines`] within `time` (at most the level's own budget).
    pub fn hint_lines_within(
        &self,
        pos: &Position,
        level: Level,
        time: Duration,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<HintLine> {
        self.hints_within(pos, level, time, stop, progress)
            .into_iter()
            .map(|candidate| {
                let mut line = vec![candidate.mv];
                let Ok(mut next) = pos.play(candidate.mv) else {
                    return HintLine { candidate, line };
                };
                if candidate.kind == ScoreKind::Book {
                    while let Some(reply) = self.book_moves(&next).first().map(|c| c.mv) {
                        match next.play(reply) {
                            Ok(p) if line.len() < MAX_LINE => {
                                line.push(reply);
                                next = p;
                            }
                            _ => break,
                        }
                    }
                } else if let Ok((board, mask)) = Board::from_position(&next) {
                    line.extend(self.engine().line(board, mask, MAX_LINE - 1));
                }
                HintLine { candidate, line }
            })
            .collect()
    }

    /// The book's moves of `pos` as candidates tagged [`ScoreKind::Book`], best first; empty
    /// when the position is not in the book or there is none.
    #[must_use]
    pub fn book_moves(&self, pos: &Position) -> Vec<Candidate> {
        self.book
            .as_deref()
            .and_then(|b| book_thinking(b, pos, 0, None, 0))
            .map(|t| t.candidates)
            .unwrap_or_default()
    }
}

/// The time a level spends on a move of `pos`.
fn level_time(level: Level, pos: &Position) -> Duration {
    level
        .spec()
        .move_time(pos.empty_count().try_into().unwrap_or(60))
}

impl Computer {
    /// A computer player consulting the shipped book, with an engine of its own made at its
    /// first search ([`Advisor::computer`] makes one that shares an engine and a book);
    /// `seed` drives the random player and the levels' allowances.
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
    fn sharing_engine(mut self, cell: Arc<OnceLock<Arc<Engine>>>) -> Computer {
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
                let engine = Arc::clone(
                    self.engine
                        .get_or_init(|| Arc::new(Engine::new(HASH_MB, engine::default_threads()))),
                );
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

/// The book's moves of `pos` as a level plays them: every book move as a candidate (best
/// first), the one played chosen by `roll`: a stray within the level's `allowance` as often
/// as it strays in a search, otherwise one of the moves within `margin` discs of the best.
/// `None` when the position is not in `book` (or not an 8x8 board).
///
/// The margin is kept small because it applies on every book move: a weak level that chose
/// freely among all moves within its allowance lost to itself without a book (24 wins, 4
/// draws, 49 losses in 77 games of level 10 from the start).
fn book_thinking(
    book: &Book,
    pos: &Position,
    margin: u8,
    allowance: Option<Allowance>,
    roll: u64,
) -> Option<Thinking> {
    let (board, mask) = Board::from_position(pos).ok()?;
    if mask != u64::MAX {
        return None;
    }
    let moves = book.moves(board)?;
    let best = moves.first()?.value;
    let scores: Vec<i32> = moves.iter().map(|m| m.value).collect();
    // `pick` reads the roll's low bits to decide whether to stray and its high bits for
    // which move; the middle bits choose among the near-best moves.
    let index = allowance
        .map(|a| a.pick(&scores, roll))
        .filter(|&i| i != 0)
        .unwrap_or_else(|| {
            let near = scores
                .iter()
                .take_while(|&&v| v >= best - i32::from(margin))
                .count();
            ((roll >> 12) % near as u64) as usize
        });
    let chosen = moves[index];
    let candidates: Vec<Candidate> = moves.iter().map(book_candidate).collect();
    Some(Thinking {
        depth: u32::from(chosen.depth),
        best: Some(book_candidate(&chosen)),
        pv: vec![Move::from(chosen.sq)],
        candidates,
        ..Thinking::default()
    })
}

fn book_candidate(m: &book::BookMove) -> Candidate {
    Candidate {
        mv: Move::from(m.sq),
        score: m.value,
        kind: ScoreKind::Book,
        upper_bound: false,
    }
}

/// A hint with the line of play expected after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintLine {
    /// The move and its score.
    pub candidate: Candidate,
    /// The expected line, starting with the move: the book's best replies for a book move,
    /// else the search's best replies as far as its table knows them (the move alone on
    /// boards over 8x8).
    pub line: Vec<Move>,
}

/// The longest line a [`HintLine`] shows.
const MAX_LINE: usize = 30;

/// Replaces the scores of the moves the book values by the book's, best first again.
pub(crate) fn with_book_values(candidates: &mut Vec<Candidate>, book: &[Candidate]) {
    for b in book {
        match candidates.iter_mut().find(|c| c.mv == b.mv) {
            Some(c) => *c = b.clone(),
            None => candidates.push(b.clone()),
        }
    }
    candidates.sort_by_key(|c| -c.score);
}

/// A level's search within `time`: the bitboard engine on boards up to 8x8, the generic
/// rules beyond.
#[allow(clippy::too_many_arguments)]
fn level_search(
    engine: &Engine,
    pos: &Position,
    level: Level,
    time: Duration,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Thinking),
    started: Stopwatch<'_>,
    all_exact: bool,
) -> Thinking {
    let Ok((board, mask)) = Board::from_position(pos) else {
        return generic_level_search(pos, level, time, stop, progress, started);
    };
    if let Some(t) = solved_thinking(board, mask, level) {
        progress(&t);
        return t;
    }
    // On 8x8 a level may play its midgame as another (perfect as level 24).
    let level = if mask == u64::MAX {
        level.at((board.empties() & mask).count_ones())
    } else {
        level
    };
    let limits = Limits {
        time: Some(time),
        ..Limits::level(level)
    };
    if all_exact {
        engine.analyze(board, mask, &limits, stop, progress)
    } else {
        engine.search(board, mask, &limits, stop, progress)
    }
}

/// Every move's exact score from the solved openings the program ships (6x6), when the level
/// would solve this position exactly and all its moves lead to stored positions.
fn solved_thinking(board: Board, mask: u64, level: Level) -> Option<Thinking> {
    let n = (mask & 0xff).count_ones() as u8;
    let table = reversi_engine::solved::shipped(n)?;
    let empties = (board.empties() & mask).count_ones();
    if level.spec().exact_empties < empties {
        return None;
    }
    let mut candidates = Vec::new();
    let mut m = board.moves() & mask;
    while let Some(sq) = Sq::new(m.trailing_zeros()) {
        m &= m - 1;
        candidates.push(Candidate {
            mv: Move::from(sq),
            score: -table.value(board.play(sq.index()))?,
            kind: ScoreKind::Exact,
            upper_bound: false,
        });
    }
    // Best first; among equals, board order.
    candidates.sort_by_key(|c| -c.score);
    let best = candidates.first()?.clone();
    Some(Thinking {
        depth: empties,
        pv: vec![best.mv],
        best: Some(best),
        candidates,
        nodes: 0,
        elapsed: Duration::ZERO,
    })
}

/// A level's search over the generic rules (boards larger than 8x8, and the Reversi rule's
/// placement phase): iterative deepening with negascout and a transposition table, to the
/// level's depth or, once the game's end is within its exact range, to the end; stopped at
/// `time` (no iteration starts after half of it).
fn generic_level_search(
    pos: &Position,
    level: Level,
    time: Duration,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Thinking),
    started: Stopwatch<'_>,
) -> Thinking {
    let spec = level.spec();
    let empties = pos.empty_count() as u32;
    // Every ply fills a square or passes, and two passes in a row end the game.
    let solving = empties <= spec.exact_empties;
    let max_depth = if solving { 2 * empties + 1 } else { spec.depth };
    let mut best = Thinking::default();
    let mut nodes = 0;
    let mut depth = 1;
    let until = Some((started.clock(), started.deadline(time)));
    while depth <= max_depth {
        if depth > 1 && started.elapsed() * 2 > time {
            break;
        }
        let Some(r) = classic::search_until(pos, Algorithm::NegascoutTt, depth, stop, until) else {
            break;
        };
        nodes += r.states;
        if r.stopped {
            break;
        }
        let exact = solving && depth == max_depth;
        let kind = |v: i32| {
            if exact || v.abs() >= TERMINAL {
                ScoreKind::Exact
            } else {
                ScoreKind::Points(depth)
            }
        };
        let score = |v: i32| {
            if exact || v.abs() >= TERMINAL {
                v / TERMINAL
            } else {
                v
            }
        };
        let mut candidates: Vec<Candidate> = r
            .root
            .iter()
            .map(|&(mv, v)| Candidate {
                mv,
                score: score(v),
                kind: kind(v),
                upper_bound: false,
            })
            .collect();
        candidates.sort_by_key(|c| -c.score);
        best = Thinking {
            depth,
            best: Some(Candidate {
                mv: r.best,
                score: score(r.value),
                kind: kind(r.value),
                upper_bound: false,
            }),
            pv: vec![r.best],
            candidates,
            nodes,
            elapsed: started.elapsed(),
        };
        progress(&best);
        depth += 1;
    }
    best.nodes = nodes;
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};

    #[test]
    fn players_parse() {
        assert_eq!("random".parse(), Ok(Ai::Random));
        assert_eq!("GREEDY".parse(), Ok(Ai::Greedy));
        assert_eq!(
            "minimax:4".parse(),
            Ok(Ai::Classic {
                algorithm: Algorithm::Minimax,
                depth: 4
            })
        );
        assert_eq!("hard".parse(), Ok(Ai::Level(Level::DEFAULT)));
        assert_eq!(
            "level:13".parse::<Ai>().map(|a| a.to_string()),
            Ok("13".into())
        );
        assert!("minimax:0".parse::<Ai>().is_err());
        assert!("chess:3".parse::<Ai>().is_err());
        assert!("".parse::<Ai>().is_err());
        for ai in ["random", "greedy", "negascout-tt:3", "hard", "club", "17"] {
            assert_eq!(ai.parse::<Ai>().unwrap().to_string(), ai);
        }
    }

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

    #[test]
    fn top_level_plays_4x4_perfectly() {
        // On 4x4 every level from 8 up solves the whole game; hints are exact.
        let stop = AtomicBool::new(false);
        let pos = Position::start(BoardSize::FOUR, Rules::Othello);
        let h = Advisor::standard().hints(&pos, Level::new(8).unwrap(), &stop, &mut |_| {});
        assert_eq!(h.len(), 4);
        assert!(h.iter().all(|c| c.kind == ScoreKind::Exact));
        // The four first moves are symmetric: one value.
        assert!(h.iter().all(|c| c.score == h[0].score));
    }
}
