//! Self-play (`reversi train selfplay`): labelled positions from the engine's own games on XOT
//! openings, one file per run (`selfplay-SEED.bin`) or, with `--shard K/N`, one shard file
//! holding the games numbered K modulo N (shard.rs), which `train merge` joins into the
//! run's file.
//!
//! With `--random-moves N` each game first plays N random legal moves after its XOT
//! opening, drawn from the seed and the game's number, so that games differ even when they
//! start from the same opening: the XOT list is then taken again from its start when a run
//! needs more openings than it holds.
//!
//! Each game is played by one-thread searches on tables cleared before it and its positions
//! solved on a cleared table, so a game's records do not depend on the games before it, on
//! `--threads` or on the sharding.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Instant;

use reversi_core::{Move, XorShift64};
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::pattern::crc32;
use reversi_engine::{Board, Sq};
use reversi_formats::xot::read_openings;

use crate::data;
use crate::duel::{engine_with, openings, play};
use crate::error::{Error, FileError};
use crate::evals::eval_of;
use crate::games::{self, GameRecord, GamesFile};
use crate::records::{Kind, LabelledPosition};
use crate::shard::{self, ShardFile};
use crate::{parallel, Progress};
use reversi_engine::shard::Shard;

/// What `reversi train selfplay` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// `selfplay-SEED.bin`: each position labelled by the search that played it and exact
    /// solves near the end.
    Positions,
    /// `selfplay-SEED.games`: the games' moves (games.rs).
    Games,
}

/// How many random moves a game plays after its opening: `N`, or `A-B` for a number drawn
/// for each game from A to B.
///
/// # Examples
/// ```
/// use reversi_train::selfplay::RandomMoves;
///
/// assert_eq!("2-9".parse(), Ok(RandomMoves { lo: 2, hi: 9 }));
/// assert_eq!("4".parse::<RandomMoves>().unwrap().to_string(), "4");
/// assert!("9-2".parse::<RandomMoves>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomMoves {
    /// The fewest.
    pub lo: u32,
    /// The most.
    pub hi: u32,
}

impl std::fmt::Display for RandomMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "{}-{}", self.lo, self.hi)
        }
    }
}

/// Text that is not `N` or `A-B` with A <= B <= 60 (the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRandomMovesError(pub String);

impl fmt::Display for ParseRandomMovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a number of moves: give N or A-B with A <= B <= 60",
            self.0
        )
    }
}

impl std::error::Error for ParseRandomMovesError {}

impl FromStr for RandomMoves {
    type Err = ParseRandomMovesError;

    fn from_str(text: &str) -> Result<RandomMoves, ParseRandomMovesError> {
        let bad = || ParseRandomMovesError(text.to_string());
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        let (lo, hi) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        if lo > hi || hi > 60 {
            return Err(bad());
        }
        Ok(RandomMoves { lo, hi })
    }
}

/// What a self-play run plays and writes.
#[derive(Debug, Clone)]
pub struct SelfplayOptions {
    /// Data folder to write `selfplay-SEED.bin` (or `.games`, or a shard file) to.
    pub out: PathBuf,
    /// Games, from consecutive openings starting at the seed's offset.
    pub games: usize,
    /// Depth of the searches that play and label the positions.
    pub depth: u32,
    /// Positions with this many empties or fewer are solved exactly.
    pub exact_empties: u32,
    /// Random legal moves each game plays after its opening.
    pub random_moves: RandomMoves,
    /// What to write.
    pub format: Output,
    /// Picks the first opening (seed × games) and names the file.
    pub seed: u64,
    /// Weights of the playing engine (`None`: the shipped weights).
    pub weights: Option<PathBuf>,
    /// The XOT openings file.
    pub openings: PathBuf,
    /// Play only this shard of the games.
    pub shard: Option<Shard>,
    /// Games played at once, one thread each.
    pub threads: usize,
}

/// Plays a self-play run and writes its file (skipped if it is there), telling `progress`
/// every ten games.
///
/// # Errors
/// Openings or weights that cannot be read, too few openings, an output that cannot be
/// written.
pub fn run(a: &SelfplayOptions, progress: &dyn Progress) -> Result<(), Error> {
    if a.format == Output::Games {
        return run_games(a, progress);
    }
    let stem = format!("selfplay-{}", a.seed);
    let target = a.out.join(match a.shard {
        Some(s) => s.file_name(&stem),
        None => format!("{stem}.bin"),
    });
    if target.exists() {
        progress.line(&format!("{}: done before, skipped", target.display()));
        return Ok(());
    }
    let path = &a.openings;
    let from = usize::try_from(a.seed)
        .unwrap_or(usize::MAX)
        .saturating_mul(a.games);
    // Without random moves a game repeated from the same opening would be the same game.
    let openings = if a.random_moves.hi == 0 {
        openings(path, from..from.saturating_add(a.games))
            .map_err(|e| Error::OpeningsOnce(Box::new(e)))?
    } else {
        let all = openings(path, ..)?;
        if all.is_empty() {
            return Err(Error::NoOpenings(path.clone()));
        }
        let first = from % all.len();
        (0..a.games).map(|g| all[(first + g) % all.len()]).collect()
    };
    let openings_crc = crc32(&std::fs::read(path).map_err(FileError::on("reading", path))?);
    std::fs::create_dir_all(&a.out).map_err(FileError::on("creating", &a.out))?;
    let (eval, weights) = eval_of(a.weights.as_deref())?;
    let limits = Limits::midgame(a.depth);
    let mine: Vec<usize> = (0..a.games)
        .filter(|&g| a.shard.is_none_or(|s| s.holds(g)))
        .collect();
    let t = Instant::now();
    let reported = Mutex::new(0usize);
    let games = parallel::map(
        &mine,
        a.threads,
        || (engine_with(eval.clone()), Engine::new(64, 1)),
        |(player, solver), &g| {
            let (board, black) = openings[g];
            let (board, black, _) = random_moves(board, black, a.random_moves, a.seed, g);
            let (_, seen) = play(board, black, [&*player, &*player], &limits);
            solver.clear();
            seen.iter()
                .rev()
                .map(|&(b, score, _)| {
                    let (label, kind) = if b.empties().count_ones() <= a.exact_empties {
                        (data::solve(solver, b), Kind::Solved)
                    } else {
                        (score, Kind::Searched)
                    };
                    LabelledPosition {
                        board: b,
                        label: label as i8,
                        kind,
                    }
                })
                .collect::<Vec<LabelledPosition>>()
        },
        |so_far| {
            let done = so_far.iter().flatten().count();
            let Ok(mut reported) = reported.lock() else {
                return;
            };
            if done >= *reported + 10 || done == mine.len() {
                *reported = done;
                let positions: usize = so_far.iter().flatten().map(Vec::len).sum();
                progress.line(&format!(
                    "game {done}/{}: {positions} positions [{:.0} s]",
                    mine.len(),
                    t.elapsed().as_secs_f64()
                ));
            }
        },
    );
    let positions: usize = games.iter().map(Vec::len).sum();
    match a.shard {
        Some(shard) => {
            let file = ShardFile {
                target: format!("{stem}.bin"),
                job: format!(
                    "train selfplay seed={} games={} depth={} exact-empties={} random-moves={} weights={weights} openings=crc32:{openings_crc:08x}",
                    a.seed, a.games, a.depth, a.exact_empties, a.random_moves
                ),
                shard,
                units: a.games,
                parts: mine.into_iter().zip(games).collect(),
            };
            shard::write(&target, &file)?;
        }
        None => data::write_data(&target, &games.concat())?,
    }
    progress.line(&format!(
        "wrote {} ({positions} positions) in {:.1} s",
        target.display(),
        t.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Plays random legal moves from `board` (passing when the side to move has none): as
/// many as `count` says (for a range, a number drawn first), drawn from a generator seeded
/// by the run's `seed` and the game's number `game`; stops early if the game ends. Returns
/// the board, whether Black is to move and the squares played.
fn random_moves(
    mut board: Board,
    mut black: bool,
    count: RandomMoves,
    seed: u64,
    game: usize,
) -> (Board, bool, Vec<Sq>) {
    let mut rng = XorShift64::new(
        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (game as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9),
    );
    let count = if count.lo == count.hi {
        count.lo
    } else {
        count.lo + rng.below(u64::from(count.hi - count.lo + 1)) as u32
    };
    let mut played = Vec::new();
    for _ in 0..count {
        if board.moves() == 0 {
            if board.pass().moves() == 0 {
                break;
            }
            board = board.pass();
            black = !black;
        }
        let mut moves = board.moves();
        for _ in 0..rng.below(u64::from(moves.count_ones())) {
            moves &= moves - 1;
        }
        let Some(sq) = Sq::new(moves.trailing_zeros()) else {
            break;
        };
        played.push(sq);
        board = board.play(sq.index());
        black = !black;
    }
    (board, black, played)
}

/// `reversi train selfplay --format games`: the games' moves, both sides the same engine at
/// `--depth` solving exactly from `--exact-empties`, into `selfplay-SEED.games` (or its shard
/// file).
fn run_games(a: &SelfplayOptions, progress: &dyn Progress) -> Result<(), Error> {
    let stem = format!("selfplay-{}", a.seed);
    let target = a.out.join(match a.shard {
        Some(s) => format!("{stem}-{}-of-{}.games", s.index, s.count),
        None => format!("{stem}.games"),
    });
    if target.exists() {
        progress.line(&format!("{}: done before, skipped", target.display()));
        return Ok(());
    }
    let path = &a.openings;
    let all = opening_moves(path)?;
    if all.is_empty() {
        return Err(Error::NoOpenings(path.clone()));
    }
    let first = usize::try_from(a.seed)
        .unwrap_or(usize::MAX)
        .saturating_mul(a.games)
        % all.len();
    let openings_crc = crc32(&std::fs::read(path).map_err(FileError::on("reading", path))?);
    std::fs::create_dir_all(&a.out).map_err(FileError::on("creating", &a.out))?;
    let (eval, weights) = eval_of(a.weights.as_deref())?;
    let limits = Limits {
        exact_empties: a.exact_empties,
        ..Limits::midgame(a.depth)
    };
    let mine: Vec<usize> = (0..a.games)
        .filter(|&g| a.shard.is_none_or(|s| s.holds(g)))
        .collect();
    let t = Instant::now();
    let reported = Mutex::new(0usize);
    let records = parallel::map(
        &mine,
        a.threads,
        || engine_with(eval.clone()),
        |player, &g| {
            let opening = &all[(first + g) % all.len()];
            play_game(player, opening, a.random_moves, a.seed, g, &limits).0
        },
        |so_far| {
            let done = so_far.iter().flatten().count();
            let Ok(mut reported) = reported.lock() else {
                return;
            };
            if done >= *reported + 10 || done == mine.len() {
                *reported = done;
                progress.line(&format!(
                    "game {done}/{} [{:.0} s]",
                    mine.len(),
                    t.elapsed().as_secs_f64()
                ));
            }
        },
    );
    let file = GamesFile {
        target: format!("{stem}.games"),
        job: format!(
            "train selfplay --format games seed={} games={} depth={} exact-empties={} random-moves={} weights={weights} openings=crc32:{openings_crc:08x}",
            a.seed, a.games, a.depth, a.exact_empties, a.random_moves
        ),
        exact: a.exact_empties,
        shard: a.shard.unwrap_or(Shard { index: 0, count: 1 }),
        games: a.games,
        records,
    };
    games::write(&target, &file)?;
    let bytes = std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0);
    progress.line(&format!(
        "wrote {} ({} games, {bytes} bytes, {} positions) in {:.1} s",
        target.display(),
        file.records.len(),
        file.positions().len(),
        t.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Game `g` of a run: the opening, the random moves, then `player` on both sides. Returns
/// its record and the positions the engine played from (with each search's score and move).
fn play_game(
    player: &Engine,
    opening: &[Sq],
    random: RandomMoves,
    seed: u64,
    g: usize,
    limits: &Limits,
) -> (GameRecord, Vec<(Board, i32, Sq)>) {
    let (board, black, mut moves) = replay_opening(opening);
    let (board, black, randoms) = random_moves(board, black, random, seed, g);
    moves.extend(randoms);
    let (_, seen) = play(board, black, [player, player], limits);
    let engine_from = u8::try_from(moves.len()).unwrap_or(u8::MAX);
    moves.extend(seen.iter().map(|&(_, _, sq)| sq));
    let record = GameRecord {
        number: g,
        engine_from,
        moves,
    };
    (record, seen)
}

/// Every opening of an XOT file as its moves.
fn opening_moves(path: &std::path::Path) -> Result<Vec<Vec<Sq>>, Error> {
    let games = read_openings(path, ..)?;
    Ok(games
        .iter()
        .map(|game| {
            game.moves()
                .iter()
                .filter_map(|m| match m {
                    Move::Play(square) => Sq::from_square(*square),
                    Move::Pass => None,
                })
                .collect()
        })
        .collect())
}

/// The board after `moves` from the start (passing where needed), whether Black is to move,
/// and the moves.
fn replay_opening(moves: &[Sq]) -> (Board, bool, Vec<Sq>) {
    let (mut board, mut black) = (Board::START, true);
    for sq in moves {
        if board.moves() == 0 {
            board = board.pass();
            black = !black;
        }
        board = board.play(sq.index());
        black = !black;
    }
    (board, black, moves.to_vec())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    const fn n(count: u32) -> RandomMoves {
        RandomMoves {
            lo: count,
            hi: count,
        }
    }

    #[test]
    fn random_moves_are_legal_and_depend_on_the_game() {
        let start = Board::START;
        let (same, black, played) = random_moves(start, true, n(0), 1, 0);
        assert_eq!((same, black, played.len()), (start, true, 0));
        let mut seen = std::collections::HashSet::new();
        for game in 0..20 {
            let (b, black, played) = random_moves(start, true, n(6), 1, game);
            assert_eq!(b, random_moves(start, true, n(6), 1, game).0, "repeatable");
            assert_eq!(b.empties().count_ones(), 54, "six discs placed");
            assert!(black, "six moves without a pass leave Black to move");
            assert_eq!(
                replay_opening(&played).0,
                b,
                "the squares played lead there"
            );
            seen.insert(b);
        }
        assert!(seen.len() > 10, "games differ: {} distinct", seen.len());
        // Sixty moves play a game to its end (passing on the way if need be); at the end
        // nothing more is played.
        let (b, _, _) = random_moves(start, true, n(60), 7, 0);
        assert_eq!(b.moves() | b.pass().moves(), 0, "played to the end");
        assert_eq!(
            random_moves(b, true, n(3), 7, 0).0,
            b,
            "nothing to play at the end"
        );
    }

    #[test]
    fn a_range_of_random_moves_draws_each_count_in_it() {
        let parse_random_moves = |t: &str| t.parse::<RandomMoves>();
        let range = parse_random_moves("2-9").expect("a range");
        assert_eq!(range, RandomMoves { lo: 2, hi: 9 });
        assert_eq!(range.to_string(), "2-9");
        assert_eq!(
            parse_random_moves("4").map(|r| r.to_string()),
            Ok("4".into())
        );
        for bad in ["9-2", "x", "3-", "0-61"] {
            assert!(parse_random_moves(bad).is_err(), "{bad} refused");
        }
        let counts: std::collections::BTreeSet<usize> = (0..200)
            .map(|g| random_moves(Board::START, true, range, 5, g).2.len())
            .collect();
        assert_eq!(counts, (2..=9).collect(), "every count from 2 to 9 drawn");
    }

    #[test]
    fn the_positions_regenerated_from_a_stored_game_are_the_ones_played() {
        let openings =
            opening_moves(&reversi_testkit::data_file("xot-large.txt")).expect("the XOT openings");
        let player = engine_with(Arc::new(reversi_engine::eval::HandEval::new(8)));
        let limits = Limits {
            exact_empties: 8,
            ..Limits::midgame(2)
        };
        let random = RandomMoves { lo: 0, hi: 30 };
        for (g, opening) in openings.iter().enumerate().take(6) {
            let (record, seen) = play_game(&player, opening, random, 3, g, &limits);
            let file = GamesFile {
                target: "selfplay-3.games".into(),
                job: "test".into(),
                exact: 8,
                shard: Shard { index: 0, count: 1 },
                games: 6,
                records: vec![record.clone()],
            };
            let bytes = file.to_bytes().expect("legal moves");
            let back = GamesFile::from_bytes(&bytes, "test").expect("reads back");
            assert_eq!(back, file);
            let positions = back.positions();
            let boards: Vec<Board> = positions.iter().map(|r| r.board).collect();
            let played: Vec<Board> = seen.iter().map(|&(b, _, _)| b).collect();
            assert_eq!(
                boards, played,
                "game {g}: the positions the engine played from"
            );
            // The end of the game, from each position's mover: the label.
            let end = replay_opening(&record.moves).0;
            let end_score = reversi_engine::search::final_score(end, u64::MAX);
            for r in &positions {
                let label = i32::from(r.label);
                assert_eq!(label.abs(), end_score.abs(), "game {g}: the final margin");
                if r.board.empties().count_ones() <= 8 {
                    assert_eq!(r.kind, Kind::Solved);
                    let mut solver = Engine::new(1, 1);
                    solver.set_evaluator(Arc::new(reversi_engine::eval::HandEval::new(8)));
                    assert_eq!(
                        data::solve(&solver, r.board),
                        label,
                        "game {g}: perfect play from {} empties",
                        r.board.empties().count_ones()
                    );
                }
            }
        }
    }

    fn run_in(dir: &std::path::Path, shard: Option<Shard>, threads: usize) -> Vec<u8> {
        let args = SelfplayOptions {
            out: dir.to_path_buf(),
            games: 7,
            depth: 2,
            exact_empties: 8,
            random_moves: RandomMoves { lo: 0, hi: 20 },
            format: Output::Games,
            seed: 11,
            weights: None,
            openings: reversi_testkit::data_file("xot-large.txt"),
            shard,
            threads,
        };
        run(&args, &|_: &str| {}).expect("self-play");
        let name = match shard {
            Some(s) => format!("selfplay-11-{}-of-{}.games", s.index, s.count),
            None => "selfplay-11.games".into(),
        };
        std::fs::read(dir.join(name)).expect("written")
    }

    #[test]
    fn games_files_are_the_same_whatever_the_threads_and_shards() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let one = tmp.path().join("one");
        let two = tmp.path().join("two");
        let parts = tmp.path().join("parts");
        let merged = tmp.path().join("merged");
        let whole = run_in(&one, None, 1);
        assert_eq!(run_in(&two, None, 2), whole, "threads change nothing");
        for index in 0..3 {
            run_in(&parts, Some(Shard { index, count: 3 }), 1);
        }
        shard::merge(&merged, std::slice::from_ref(&parts)).expect("merges");
        let joined = std::fs::read(merged.join("selfplay-11.games")).expect("merged");
        assert_eq!(joined, whole, "the shards merge into the run's bytes");
        let file = GamesFile::from_bytes(&whole, "whole").expect("reads");
        assert_eq!(file.records.len(), 7);
        let header = GamesFile {
            records: Vec::new(),
            ..file.clone()
        }
        .to_bytes()
        .expect("no games")
        .len();
        let per_game = (whole.len() - header) as f64 / 7.0;
        assert!(per_game < 40.0, "{per_game:.1} bytes a game");
        // The training data reader takes the games file as positions.
        let records = data::read(&one.join("selfplay-11.games")).expect("positions");
        assert_eq!(records, file.positions());
        assert!(!records.is_empty());
    }
}
