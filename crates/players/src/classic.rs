//! The classic algorithms the original programs taught — minimax, alpha-beta, negascout and
//! negascout with a transposition table — at a fixed depth over the generic rules, with the
//! same evaluation, counting the states they explore.
//!
//! Every algorithm searches each root move with a full window, so all of them report the same
//! (exact minimax) value for every root move; they differ only in the states explored below.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reversi_core::{Move, Position};
use reversi_engine::clock::Clock;

use crate::heuristic::{evaluate, final_value};

/// A classic fixed-depth search algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Every line to the full depth, nothing pruned: the reference the others must match.
    Minimax,
    /// Minimax that skips the moves a refutation has already shown to be no better.
    AlphaBeta,
    /// Alpha-beta that searches every move after the first with a null window, and again
    /// with a wider one only when that probe says it beats the best so far
    /// (principal-variation search).
    Negascout,
    /// Negascout that remembers bounds and best moves of positions already searched, so
    /// transpositions are not searched twice and the best move is tried first.
    NegascoutTt,
}

impl Algorithm {
    /// The four algorithms, each a refinement of the one before it.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Negascout,
        Algorithm::NegascoutTt,
    ];

    /// The name the command line and [`Algorithm::from_str`] take, such as `negascout-tt`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Negascout => "negascout",
            Algorithm::NegascoutTt => "negascout-tt",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not one of the four.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseAlgorithmError(pub String);

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown algorithm {:?}: expected minimax, alphabeta, negascout or negascout-tt",
            self.0
        )
    }
}

impl std::error::Error for ParseAlgorithmError {}

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;

    /// `minimax`, `alphabeta` (or `alpha-beta`), `negascout` (or `pvs`), `negascout-tt`;
    /// any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "minimax" => Ok(Algorithm::Minimax),
            "alphabeta" | "alpha-beta" => Ok(Algorithm::AlphaBeta),
            "negascout" | "pvs" => Ok(Algorithm::Negascout),
            "negascout-tt" | "negascouttt" | "negascout_tt" => Ok(Algorithm::NegascoutTt),
            _ => Err(ParseAlgorithmError(s.to_string())),
        }
    }
}

/// What a classic search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassicResult {
    /// The first root move of the best value, in move order.
    pub best: Move,
    /// The best value, from the side to move's view.
    pub value: i32,
    /// Every root move with its exact value at the search depth, in move order.
    pub root: Vec<(Move, i32)>,
    /// States (positions) explored, the root's children and below.
    pub states: u64,
    /// Whether the search was stopped before it finished (values then cover only the root
    /// moves searched).
    pub stopped: bool,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: i32,
    bound: Bound,
    best: u16,
}

struct Searcher<'a> {
    algorithm: Algorithm,
    states: u64,
    tt: HashMap<Position, Entry>,
    stop: &'a AtomicBool,
    /// A deadline and the clock it is read on.
    until: Option<(&'a dyn Clock, Duration)>,
    stopped: bool,
}

impl Searcher<'_> {
    fn poll_stop(&mut self) -> bool {
        if !self.stopped
            && self.states & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.until.is_some_and(|(clock, at)| clock.now() >= at))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn children(pos: &Position) -> Vec<Position> {
        pos.moves()
            .into_iter()
            .filter_map(|m| pos.play(m).ok())
            .collect()
    }

    /// Children best-first by their static value, for the pruning algorithms: all three use
    /// the same order, so they differ only in how they search. Leaves' parents keep move
    /// order, since ordering them would cost as much as searching them.
    fn order(children: &mut [Position], depth: u32) {
        if depth >= 2 {
            children.sort_by_cached_key(evaluate);
        }
    }

    fn minimax(&mut self, pos: &Position, depth: u32) -> i32 {
        self.states += 1;
        if self.poll_stop() {
            return 0;
        }
        let children = Self::children(pos);
        if children.is_empty() {
            return final_value(pos);
        }
        if depth == 0 {
            return evaluate(pos);
        }
        children
            .iter()
            .map(|c| -self.minimax(c, depth - 1))
            .max()
            .unwrap_or(i32::MIN + 1)
    }

    fn alphabeta(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.states += 1;
        if self.poll_stop() {
            return 0;
        }
        let mut children = Self::children(pos);
        if children.is_empty() {
            return final_value(pos);
        }
        if depth == 0 {
            return evaluate(pos);
        }
        Self::order(&mut children, depth);
        let mut best = i32::MIN + 1;
        for c in &children {
            let v = -self.alphabeta(c, depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn negascout(&mut self, pos: &Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.states += 1;
        if self.poll_stop() {
            return 0;
        }
        let use_tt = self.algorithm == Algorithm::NegascoutTt;
        let mut hash_move = None;
        let alpha0 = alpha;
        if use_tt {
            if let Some(e) = self.tt.get(pos) {
                hash_move = Some(e.best as usize);
                if e.depth == depth {
                    match e.bound {
                        Bound::Exact => return e.value,
                        Bound::Lower => alpha = alpha.max(e.value),
                        Bound::Upper => beta = beta.min(e.value),
                    }
                    if alpha >= beta {
                        return e.value;
                    }
                }
            }
        }
        let mut children = Self::children(pos);
        if children.is_empty() {
            return final_value(pos);
        }
        if depth == 0 {
            return evaluate(pos);
        }
        Self::order(&mut children, depth);
        let mut order: Vec<usize> = (0..children.len()).collect();
        if let Some(h) = hash_move.filter(|&h| h < children.len()) {
            order.swap(0, h);
        }
        let mut best = i32::MIN + 1;
        let mut best_index = order[0];
        for (k, &i) in order.iter().enumerate() {
            let c = &children[i];
            let v = if k == 0 {
                -self.negascout(c, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.negascout(c, depth - 1, -alpha - 1, -alpha);
                // A leaf's fail-soft value is exact, so only deeper children need the re-search
                // (Reinefeld's NegaScout).
                if probe > alpha && probe < beta && depth > 1 {
                    -self.negascout(c, depth - 1, -beta, -probe)
                } else {
                    probe
                }
            };
            if v > best {
                best = v;
                best_index = i;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_tt && !self.stopped {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt.insert(
                pos.clone(),
                Entry {
                    depth,
                    value: best,
                    bound,
                    best: best_index as u16,
                },
            );
        }
        best
    }

    fn value(&mut self, pos: &Position, depth: u32) -> i32 {
        const INF: i32 = i32::MAX - 1;
        match self.algorithm {
            Algorithm::Minimax => self.minimax(pos, depth),
            Algorithm::AlphaBeta => self.alphabeta(pos, depth, -INF, INF),
            Algorithm::Negascout | Algorithm::NegascoutTt => self.negascout(pos, depth, -INF, INF),
        }
    }
}

/// Searches `pos` to `depth` plies (at least 1) with `algorithm`. Returns `None` when the game
/// is over. Stops early, with what it has, when `stop` becomes true.
///
/// # Examples
/// ```
/// use std::sync::atomic::AtomicBool;
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_players::classic::{search, Algorithm};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let stop = AtomicBool::new(false);
/// let results: Vec<_> = Algorithm::ALL
///     .iter()
///     .map(|&algorithm| search(&start, algorithm, 6, &stop).expect("the game is on"))
///     .collect();
///
/// // The same value for each of the four first moves, whichever the algorithm.
/// assert_eq!(results[0].root.len(), 4);
/// assert!(results.iter().all(|r| r.root == results[0].root));
/// // Minimax explores every state of the six plies (4 + 12 + 56 + 244 + 1,396 + 8,200);
/// // from the start, each later algorithm explores fewer than the one before it.
/// let states: Vec<u64> = results.iter().map(|r| r.states).collect();
/// assert_eq!(states[0], 9912);
/// assert!(states.windows(2).all(|pair| pair[0] > pair[1]), "{states:?}");
/// ```
#[must_use]
pub fn search(
    pos: &Position,
    algorithm: Algorithm,
    depth: u32,
    stop: &AtomicBool,
) -> Option<ClassicResult> {
    search_until(pos, algorithm, depth, stop, None)
}

/// [`search`] that also stops once `clock` reads the time `until` gives (a clock and a
/// time on it).
#[must_use]
pub fn search_until(
    pos: &Position,
    algorithm: Algorithm,
    depth: u32,
    stop: &AtomicBool,
    until: Option<(&dyn Clock, Duration)>,
) -> Option<ClassicResult> {
    let moves = pos.moves();
    let mut s = Searcher {
        algorithm,
        states: 0,
        tt: HashMap::new(),
        stop,
        until,
        stopped: false,
    };
    let mut root = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let Ok(child) = pos.play(mv) else { continue };
        let v = -s.value(&child, depth.max(1) - 1);
        if s.stopped {
            break;
        }
        root.push((mv, v));
    }
    let &first = moves.first()?;
    let (best, value) = root
        .iter()
        .fold(None, |acc: Option<(Move, i32)>, &(m, v)| match acc {
            Some((_, bv)) if bv >= v => acc,
            _ => Some((m, v)),
        })
        .unwrap_or((first, 0));
    Some(ClassicResult {
        best,
        value,
        root,
        states: s.states,
        stopped: s.stopped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};
    use reversi_testkit::Rng;

    /// Positions reached by `plies` pseudo-random moves from each start.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        for (size, rules, plies) in [
            (BoardSize::EIGHT, Rules::Othello, 6),
            (BoardSize::EIGHT, Rules::Othello, 20),
            (BoardSize::EIGHT, Rules::Othello, 40),
            (BoardSize::SIX, Rules::Othello, 4),
            (BoardSize::SIX, Rules::Reversi, 6),
            (BoardSize::FOUR, Rules::Othello, 1),
            (BoardSize::new(10).unwrap(), Rules::Othello, 10),
        ] {
            let mut pos = Position::start(size, rules);
            for _ in 0..plies {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(*rng.pick(&moves)).unwrap();
            }
            out.push(pos);
        }
        out
    }

    #[test]
    fn all_algorithms_agree_on_every_root_value() {
        let stop = AtomicBool::new(false);
        for pos in positions() {
            for depth in 1..=4 {
                let reference = search(&pos, Algorithm::Minimax, depth, &stop).unwrap();
                for alg in Algorithm::ALL {
                    let r = search(&pos, alg, depth, &stop).unwrap();
                    assert_eq!(r.root, reference.root, "{alg} depth {depth}\n{pos:?}");
                    assert_eq!(r.value, reference.value);
                    assert!(
                        r.states <= reference.states,
                        "{alg} explored {} > minimax {} at depth {depth}",
                        r.states,
                        reference.states
                    );
                }
            }
        }
    }

    #[test]
    fn pruning_explores_fewer_states() {
        let stop = AtomicBool::new(false);
        let pos = &positions()[0];
        let mm = search(pos, Algorithm::Minimax, 4, &stop).unwrap();
        let ab = search(pos, Algorithm::AlphaBeta, 4, &stop).unwrap();
        assert!(ab.states * 2 < mm.states, "{} vs {}", ab.states, mm.states);
    }

    #[test]
    fn finished_games_have_no_move_and_stop_is_honoured() {
        let stop = AtomicBool::new(false);
        let mut pos = Position::start(BoardSize::FOUR, Rules::Othello);
        while let Some(&mv) = pos.moves().first() {
            pos = pos.play(mv).unwrap();
        }
        assert!(search(&pos, Algorithm::Minimax, 3, &stop).is_none());
        let stop = AtomicBool::new(true);
        let pos = &positions()[0];
        let r = search(pos, Algorithm::Minimax, 6, &stop).unwrap();
        assert!(r.stopped);
        assert!(pos.moves().contains(&r.best));
    }
}
