//! The engine API the games, hints, analysis and protocols share: search a position under
//! limits on one or more threads, report progress after every iteration, stop on request and
//! return the best move found so far.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use reversi_core::Move;

use crate::clock::{SharedClock, Stopwatch, SystemClock};
use crate::eval::Evaluator;
use crate::levels::Level;
use crate::search::probcut::{NO_SELECTIVITY, SELECTIVITY_PERCENT};
use crate::search::{Child, Pool, Searcher, Stopper, Untimed, INF, NO_MOVE};
use crate::tt::TranspositionTable;
use crate::{Board, Candidate, ScoreKind, Sq, Thinking};

/// Depth of the midgame search (probcut at 73 %) that orders the moves before an endgame solve.
const SOLVE_PRESEARCH_DEPTH: u32 = 8;
/// From this many empties an exact or win/loss/draw solve is preceded by selective solves
/// (probcut at the selectivities of [`SELECTIVE_SOLVES`] in turn), whose scores and best
/// moves guide the next.
const SELECTIVE_SOLVE_MIN_EMPTIES: u32 = 18;
/// The selectivities of the solves before the exact one: 73 % and 87 %. More passes (up to
/// 99 %) cost more than they saved on FFO #40-#44 (259 M nodes against 121 M).
const SELECTIVE_SOLVES: [u8; 2] = [0, 1];
/// With a time limit, a solve starts once the midgame search has reached this many plies
/// from the end (and half of the time is left).
const TIMED_SOLVE_GAP: u32 = 12;
/// The first half-width of an aspiration window around the last iteration's score.
const ASPIRATION: i32 = 3;

/// What a search may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Midgame depth in plies.
    pub depth: u32,
    /// Solve exactly when this many squares or fewer are empty.
    pub exact_empties: u32,
    /// Solve for win/loss/draw when this many squares or fewer are empty.
    pub wld_empties: u32,
    /// Probcut selectivity of the midgame search: an index of
    /// [`SELECTIVITY_PERCENT`] (5, the last, for a full-width search). Solves are
    /// always exact.
    pub selectivity: u8,
    /// Stop after this long (the best move so far is returned).
    pub time: Option<Duration>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
}

impl Limits {
    /// The limits of a level, its time budget included.
    #[must_use]
    pub fn level(level: Level) -> Limits {
        let s = level.spec();
        Limits {
            depth: s.depth,
            exact_empties: s.exact_empties,
            wld_empties: s.wld_empties,
            selectivity: s.selectivity,
            time: Some(s.time),
            nodes: None,
        }
    }

    /// The limits of a level for a move of an 8x8 game with `empties` empty squares: those of
    /// the level it plays that move as ([`Level::at`]).
    #[must_use]
    pub fn level_at(level: Level, empties: u32) -> Limits {
        Limits::level(level.at(empties))
    }

    /// A full-width midgame search `depth` plies deep that never solves (unless the depth
    /// reaches the end of the game).
    ///
    /// # Examples
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use reversi_core::Move;
    /// use reversi_engine::engine::{Engine, Limits};
    /// use reversi_engine::{Board, ScoreKind, Sq};
    ///
    /// let engine = Engine::new(1, 1);
    /// let stop = AtomicBool::new(false);
    /// let mut iterations = Vec::new();
    /// let thinking = engine.search(Board::START, u64::MAX, &Limits::midgame(4), &stop, &mut |t| {
    ///     iterations.push(t.depth)
    /// });
    ///
    /// // Iterative deepening reports depths 1 to 4; the answer is the last of them.
    /// assert_eq!(iterations, [1, 2, 3, 4]);
    /// assert_eq!(thinking.kind(), Some(ScoreKind::Depth { depth: 4, selectivity: 100 }));
    /// let best = thinking.best.expect("the start has moves").mv;
    /// let Move::Play(square) = best else { panic!("no pass at the start") };
    /// let sq = Sq::from_square(square).expect("on the 8x8 board");
    /// assert!(Board::START.moves() & sq.bit() != 0);
    /// assert_eq!(thinking.candidates.len(), 4);
    /// ```
    #[must_use]
    pub fn midgame(depth: u32) -> Limits {
        Limits {
            depth,
            exact_empties: 0,
            wld_empties: 0,
            selectivity: NO_SELECTIVITY,
            time: None,
            nodes: None,
        }
    }

    /// An exact solve, however many squares are empty.
    #[must_use]
    pub fn exact() -> Limits {
        Limits {
            depth: 60,
            exact_empties: 64,
            wld_empties: 64,
            selectivity: NO_SELECTIVITY,
            time: None,
            nodes: None,
        }
    }

    /// A win/loss/draw solve.
    #[must_use]
    pub fn wld() -> Limits {
        Limits {
            exact_empties: 0,
            ..Limits::exact()
        }
    }
}

/// The search engine: a transposition table shared by its threads, and its evaluation.
///
/// One engine serves any number of searches, one after the other or at once; its table
/// carries what it learnt from one move to the next. [`Engine::search`] takes a board, the
/// playable squares and [`Limits`], and returns a [`Thinking`].
///
/// # Examples
///
/// Black to move with eight empty squares loses by 2 at best, and only f1 holds it to that:
/// ```
/// use std::sync::atomic::AtomicBool;
/// use reversi_core::{BoardSize, Color, Move, Position, Rules};
/// use reversi_engine::engine::{Engine, Limits};
/// use reversi_engine::{Board, ScoreKind};
///
/// let rows = [
///     "XOOOO-O-",
///     "XOOO-OO-",
///     "XOOOO-OX",
///     "XXXXXXO-",
///     "XXOXXXO-",
///     "OOOOXOOO",
///     "OXXXOOOO",
///     "OX-XXXXO",
/// ];
/// let cells: Vec<Option<Color>> = rows
///     .concat()
///     .chars()
///     .map(|c| match c {
///         'X' => Some(Color::Black),
///         'O' => Some(Color::White),
///         _ => None,
///     })
///     .collect();
/// let position = Position::setup(BoardSize::EIGHT, Rules::Othello, &cells, Color::Black)
///     .expect("64 cells");
/// let (board, mask) = Board::from_position(&position)?;
///
/// let engine = Engine::new(1, 1);
/// let stop = AtomicBool::new(false);
/// let thinking = engine.search(board, mask, &Limits::exact(), &stop, &mut |_| {});
///
/// let best = thinking.best.as_ref().expect("Black has moves");
/// assert_eq!(best.kind, ScoreKind::Exact);
/// assert_eq!(best.score, -2);
/// let f1 = position.parse_square("f1")?;
/// assert!(position.is_legal(f1));
/// assert_eq!(best.mv, Move::Play(f1));
/// assert_eq!(thinking.pv[0], best.mv);
/// // All six legal moves are reported. The others are worse, or proven no better (an upper
/// // bound is all the search needed to refute them).
/// assert_eq!(thinking.candidates.len(), 6);
/// assert!(thinking.candidates[1..].iter().all(|c| c.score < -2 || c.upper_bound));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    tt: Arc<TranspositionTable>,
    threads: usize,
    eval: Option<Arc<dyn Evaluator>>,
    clock: SharedClock,
}

/// The number of cores, the default thread count.
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

impl Engine {
    /// An engine with a `hash_mb` MB table and `threads` search threads (at least one),
    /// timed by the system's clock.
    ///
    /// # Panics
    /// Where the platform has no clock (`wasm32-unknown-unknown`): use [`Engine::with_clock`].
    #[must_use]
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine::with_clock(hash_mb, threads, SystemClock::shared())
    }

    /// An engine with a `hash_mb` MB table and `threads` search threads (at least one; a
    /// platform without threads takes 1), timed by `clock`: its deadlines and reported times
    /// are read on it.
    #[must_use]
    pub fn with_clock(hash_mb: usize, threads: usize, clock: SharedClock) -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            threads: threads.max(1),
            eval: None,
            clock,
        }
    }

    /// An engine without a transposition table (slower; results must not change).
    #[must_use]
    pub fn without_table(threads: usize) -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::disabled()),
            threads: threads.max(1),
            eval: None,
            clock: SystemClock::shared(),
        }
    }

    /// The clock the engine's searches read.
    #[must_use]
    pub fn clock(&self) -> &SharedClock {
        &self.clock
    }

    /// Uses `eval` instead of the default: the trained pattern evaluation on 8x8, the
    /// hand-made one on smaller boards.
    pub fn set_evaluator(&mut self, eval: Arc<dyn Evaluator>) {
        self.eval = Some(eval);
    }

    /// The evaluation of a search on the playable squares `mask`: the engine's own, else the
    /// default for the board ([`crate::pattern::default_evaluator`]).
    fn evaluator(&self, mask: u64) -> Arc<dyn Evaluator> {
        self.eval
            .clone()
            .unwrap_or_else(|| crate::pattern::default_evaluator(mask))
    }

    /// The number of threads a search uses.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets all earlier searches.
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Searches `board` (playable squares `mask`) under `limits`: the best move, its score
    /// and the line expected from it, and the root moves with the scores the search needed to
    /// refute them (some only upper bounds). `progress` hears after every completed iteration.
    ///
    /// When the player has no legal move the answer has no best move and nothing else
    /// ([`Thinking::default`]); the caller decides whether that is a pass or the end.
    pub fn search(
        &self,
        board: Board,
        mask: u64,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Thinking {
        self.run(board, mask, limits, stop, progress, false)
    }

    /// Like [`Engine::search`], but every root move gets its exact score (within the search's
    /// precision), for hints and analysis. Slower: no move is refuted by a bound alone.
    pub fn analyze(
        &self,
        board: Board,
        mask: u64,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Thinking {
        self.run(board, mask, limits, stop, progress, true)
    }

    /// The line of best moves the table holds from `board` (playable squares `mask`), at most
    /// `max` moves, passes included: after [`Engine::analyze`], the expected line after each
    /// root move. It stops where the table has no best move or the game ends.
    #[must_use]
    pub fn line(&self, board: Board, mask: u64, max: usize) -> Vec<Move> {
        let eval = self.evaluator(mask);
        let flag = AtomicBool::new(false);
        let stopper = Stopper {
            flag: &flag,
            halt: None,
            deadline: None,
            clock: &Untimed,
            node_limit: None,
        };
        Searcher::new(&self.tt, eval.as_ref(), mask, &stopper, None).pv(board, max)
    }

    /// The exact score of `board` (playable squares `mask`) for the side to move when
    /// `lower` is known not to exceed it (say, the value of one of its moves, already
    /// solved): one null-window solve proves that no move does better, and only when one
    /// does is the position solved above `lower`. One thread, no presearch: cheaper than
    /// [`Limits::exact`] when the bound is usually the value, as when positions of a game are
    /// labelled from its end backwards. `None` if `stop` was raised.
    pub fn solve_above(
        &self,
        board: Board,
        mask: u64,
        lower: i32,
        stop: &AtomicBool,
    ) -> Option<i32> {
        let eval = self.evaluator(mask);
        let eval: &dyn Evaluator = eval.as_ref();
        let stopper = Stopper {
            flag: stop,
            halt: None,
            deadline: None,
            clock: &Untimed,
            node_limit: None,
        };
        self.tt.new_search();
        let mut s = Searcher::new(&self.tt, eval, mask, &stopper, None);
        let lower = lower.clamp(-64, 64);
        let mut v = s.solve(board, lower, lower + 1);
        if v > lower && !s.stopped {
            v = s.solve(board, lower, 65);
        }
        (!s.stopped).then_some(v.max(lower))
    }

    fn run(
        &self,
        board: Board,
        mask: u64,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
        all_exact: bool,
    ) -> Thinking {
        let moves = board.moves() & mask;
        if moves == 0 {
            return Thinking::default();
        }
        // The evaluation first: the first search of a process loads the trained weights (most
        // of a second), which must not eat into the search's time and cut its depth.
        let eval = self.evaluator(mask);
        let eval: &dyn Evaluator = eval.as_ref();
        let started = Stopwatch::start(self.clock.as_ref());
        self.tt.new_search();
        let shared_nodes = AtomicU64::new(0);
        let stopper = Stopper {
            flag: stop,
            halt: None,
            deadline: limits.time.map(|t| started.deadline(t)),
            clock: self.clock.as_ref(),
            node_limit: limits.nodes,
        };
        let tt = &*self.tt;
        let pool = Pool::new();
        let mut last = None;
        let nodes = std::thread::scope(|scope| {
            for _ in 1..self.threads {
                scope.spawn(|| pool.helper(tt, eval, mask, &stopper, Some(&shared_nodes)));
            }
            let mut s = Searcher::new(tt, eval, mask, &stopper, Some(&shared_nodes));
            s.pool = Some(&pool);
            iterate(
                &mut s,
                board,
                limits,
                all_exact,
                started,
                &mut |thinking: &Thinking| {
                    let mut thinking = thinking.clone();
                    thinking.nodes = thinking.nodes.max(shared_nodes.load(Ordering::Relaxed));
                    progress(&thinking);
                    last = Some(thinking);
                },
            );
            pool.quit();
            s.nodes
        });
        let mut thinking = last.unwrap_or_else(|| fallback(moves));
        thinking.nodes = nodes;
        thinking.elapsed = started.elapsed();
        thinking
    }
}

/// The answer when not even the first iteration finished: the first of the legal `moves`
/// (not empty), unscored.
fn fallback(moves: u64) -> Thinking {
    let mv = move_of(moves.trailing_zeros() as u8);
    Thinking {
        depth: 0,
        best: Some(Candidate {
            mv,
            score: 0,
            kind: ScoreKind::Depth {
                depth: 0,
                selectivity: 100,
            },
            upper_bound: false,
        }),
        pv: vec![mv],
        candidates: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
    }
}

/// The move of the search's move code: a square, or a pass for anything else (`NO_MOVE`).
fn move_of(code: u8) -> Move {
    Sq::from_code(code).map_or(Move::Pass, Move::from)
}

/// Iterative deepening, reporting every completed iteration. Other threads join in through
/// the searcher's pool, splitting nodes once their first move is searched.
fn iterate(
    s: &mut Searcher<'_>,
    board: Board,
    limits: &Limits,
    all_exact: bool,
    started: Stopwatch<'_>,
    report: &mut dyn FnMut(&Thinking),
) {
    let empties = (board.empties() & s.mask).count_ones();
    let solve_exact = empties <= limits.exact_empties;
    let solve_wld = !solve_exact && empties <= limits.wld_empties;
    // Probcut's deviations were measured for the 8x8 evaluation; the smaller boards search
    // full width (their hand-made evaluation strays much further).
    let selective = s.mask == u64::MAX;
    let mid_depth = if solve_exact || solve_wld {
        // A short selective midgame search first, to order the moves of the solve and centre
        // its first window (depth 8 against 4: FFO #40-#44 112 M nodes against 120 M,
        // #45-#48 830 M against 1,024 M). With a time limit the midgame deepens further, to
        // within TIMED_SOLVE_GAP plies of the end: a solve too big for the time is then never
        // started, and the deepest midgame search answers instead.
        let presearch = if selective { SOLVE_PRESEARCH_DEPTH } else { 4 };
        let presearch = if limits.time.is_some() {
            presearch.max(empties.saturating_sub(TIMED_SOLVE_GAP))
        } else {
            presearch
        };
        limits.depth.min(empties.saturating_sub(8)).min(presearch)
    } else {
        limits.depth.min(empties.saturating_sub(1))
    };
    let mut prev: Option<i32> = None;
    let mut depth = 1;
    // The presearch of a solve prunes with probcut at the lowest selectivity: its only use is
    // to order the moves and centre the first window.
    s.selectivity = if !selective {
        NO_SELECTIVITY
    } else if solve_exact || solve_wld {
        0
    } else {
        limits.selectivity.min(NO_SELECTIVITY)
    };
    let percent = SELECTIVITY_PERCENT[usize::from(s.selectivity)];
    while depth <= mid_depth {
        // With a time limit, an iteration started after half of it would rarely finish.
        if depth > 1 && limits.time.is_some_and(|t| started.elapsed() * 2 > t) {
            return;
        }
        let Some(r) = root(s, board, Mode::Midgame(depth), prev, all_exact) else {
            return;
        };
        prev = Some(r.score);
        let kind = ScoreKind::Depth {
            depth,
            selectivity: percent,
        };
        report(&thinking(s, board, r, kind, started));
        depth += 1;
    }
    if solve_exact || solve_wld {
        if selective && empties >= SELECTIVE_SOLVE_MIN_EMPTIES {
            // Selective solves first: each one's score and moves guide the next.
            for selectivity in SELECTIVE_SOLVES {
                s.selectivity = selectivity;
                let Some(r) = root(s, board, Mode::Exact, prev, false) else {
                    return;
                };
                prev = Some(r.score);
                let kind = ScoreKind::Depth {
                    depth: empties,
                    selectivity: SELECTIVITY_PERCENT[usize::from(selectivity)],
                };
                report(&thinking(s, board, r, kind, started));
            }
        }
        s.selectivity = NO_SELECTIVITY;
        let mode = if solve_exact { Mode::Exact } else { Mode::Wld };
        if let Some(r) = root(s, board, mode, prev, all_exact) {
            let kind = if solve_exact {
                ScoreKind::Exact
            } else {
                ScoreKind::WinLossDraw
            };
            report(&thinking(s, board, r, kind, started));
        }
    } else if mid_depth < limits.depth {
        // The search reached the end of the game before its depth: solve it.
        s.selectivity = NO_SELECTIVITY;
        if let Some(r) = root(s, board, Mode::Exact, prev, all_exact) {
            report(&thinking(s, board, r, ScoreKind::Exact, started));
        }
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Midgame(u32),
    Exact,
    Wld,
}

/// A root move (the search's move code) and its score: exact within the iteration's kind
/// of score, or (when `bound` is set) an upper bound, because the move was refuted without
/// finding its exact value.
#[derive(Clone, Copy)]
struct RootMove {
    square: u8,
    score: i32,
    bound: bool,
}

struct RootResult {
    score: i32,
    best: u8,
    moves: Vec<RootMove>,
}

/// The report of an iteration whose scores are worth `kind`.
fn thinking(
    s: &Searcher<'_>,
    board: Board,
    r: RootResult,
    kind: ScoreKind,
    t: Stopwatch<'_>,
) -> Thinking {
    let best = move_of(r.best);
    let mut pv = vec![best];
    pv.extend(s.pv(board.play(u32::from(r.best)), 40));
    let candidate = |mv, score, upper_bound| Candidate {
        mv,
        score,
        kind,
        upper_bound,
    };
    Thinking {
        depth: match kind {
            ScoreKind::Depth { depth, .. } => depth,
            _ => pv.len() as u32,
        },
        best: Some(candidate(best, r.score, false)),
        candidates: r
            .moves
            .iter()
            .map(|m| candidate(move_of(m.square), m.score, m.bound))
            .collect(),
        pv,
        nodes: s.nodes,
        elapsed: t.elapsed(),
    }
}

/// One iteration at the root: every move, best first by the last iteration, with an
/// aspiration window around the last score. `None` when stopped before finishing.
fn root(
    s: &mut Searcher<'_>,
    board: Board,
    mode: Mode,
    prev: Option<i32>,
    all_exact: bool,
) -> Option<RootResult> {
    let hash_move = s.hash_move(board).map_or(NO_MOVE, |sq| sq.index() as u8);
    let list = s.order_root(board, hash_move);
    let (lo, hi) = match mode {
        Mode::Wld => (-1, 1),
        _ => (-INF, INF),
    };
    let mut delta = ASPIRATION;
    let mut window = match (mode, prev) {
        (Mode::Midgame(_) | Mode::Exact, Some(p)) if !all_exact => {
            ((p - delta).max(lo), (p + delta).min(hi))
        }
        _ => (lo, hi),
    };
    loop {
        let r = root_window(s, board, mode, &list, window.0, window.1, all_exact)?;
        // A failed window widens on its failing side, twice as far each time.
        delta *= 2;
        if r.score <= window.0 && window.0 > lo {
            window = ((r.score - delta).max(lo), window.1.max(r.score + 1).min(hi));
        } else if r.score >= window.1 && window.1 < hi {
            window = (window.0.min(r.score - 1).max(lo), (r.score + delta).min(hi));
        } else {
            return Some(r);
        }
    }
}

fn child_kind(s: &Searcher<'_>, board: Board, mode: Mode) -> Child {
    match mode {
        Mode::Midgame(d) => Child::Midgame(d - 1),
        Mode::Exact | Mode::Wld => Child::Endgame((board.empties() & s.mask).count_ones() - 1),
    }
}

fn root_window(
    s: &mut Searcher<'_>,
    board: Board,
    mode: Mode,
    list: &[(u8, u64)],
    alpha0: i32,
    beta: i32,
    all_exact: bool,
) -> Option<RootResult> {
    let child = child_kind(s, board, mode);
    let (sq, flips) = list[0];
    let first = s.child_value(child, board.make(u32::from(sq), flips), alpha0, beta);
    if s.stopped {
        return None;
    }
    let mut moves = vec![RootMove {
        square: sq,
        score: first,
        bound: false,
    }];
    let (best, best_move) = if all_exact {
        // Every move gets the full window, one after the other.
        let (mut best, mut best_move) = (first, sq);
        for &(sq, flips) in &list[1..] {
            let v = s.child_value(child, board.make(u32::from(sq), flips), alpha0, beta);
            if s.stopped {
                return None;
            }
            moves.push(RootMove {
                square: sq,
                score: v,
                bound: false,
            });
            if v > best {
                (best, best_move) = (v, sq);
            }
        }
        (best, best_move)
    } else {
        let (best, best_move, rest) =
            s.siblings_scored::<true>(board, list, child, alpha0.max(first), beta, first, sq, true);
        if s.stopped {
            return None;
        }
        moves.extend(rest.into_iter().map(|(square, score, bound)| RootMove {
            square,
            score,
            bound,
        }));
        (best, best_move)
    };
    moves.sort_by_key(|m| (m.bound, -m.score));
    s.store(
        crate::tt::hash(board),
        match mode {
            Mode::Midgame(d) => d as u8,
            _ => crate::tt::solved_depth((board.empties() & s.mask).count_ones()),
        },
        alpha0,
        beta,
        best,
        best_move,
    );
    Some(RootResult {
        score: best,
        best: best_move,
        moves,
    })
}
