//! Self-play game records (`selfplay-SEED.games`): each game as its moves from the standard
//! start, a move stored as its index among the legal moves in as few bits as that choice
//! needs (none for a forced move, none for a pass), about 25 bytes a game. The positions
//! and their labels (the game's final score) are regenerated from the moves.
//!
//! ```text
//! RVGAMES1                        magic
//! u32 H, H bytes of UTF-8 text    the header, "key=value" lines: target (the file name one
//!                                 run writes), job (the command and every
//!                                 option that changes the games), exact (empties from which
//!                                 both sides played perfectly), shard (K/N, 0/1 for a whole
//!                                 run), games (how many the whole run has)
//! u32 G                           games in this file
//! G × game                        varint number, u8 ply from which the engine played (the
//!                                 moves before are the opening and the random moves), the
//!                                 move indices bit-packed from the lowest bit, byte-aligned
//! u32                             CRC-32 of everything before
//! ```
//!
//! A game ends where neither side can move, so its record needs no length. Shard files
//! (`selfplay-SEED-K-of-N.games`) hold the games numbered K modulo N; merging them writes
//! the bytes one run writes.
//!
//! # Examples
//! ```
//! use reversi_engine::Sq;
//! use reversi_engine::shard::Shard;
//! use reversi_train::{GameRecord, GamesFile};
//!
//! // A game of the first legal move every time, from the start to its end.
//! let mut board = reversi_engine::Board::START;
//! let mut moves = Vec::new();
//! while board.moves() | board.pass().moves() != 0 {
//!     if board.moves() == 0 {
//!         board = board.pass();
//!     }
//!     let sq = Sq::new(board.moves().trailing_zeros()).unwrap();
//!     moves.push(sq);
//!     board = board.play(sq.index());
//! }
//! let file = GamesFile {
//!     target: "selfplay-1.games".into(),
//!     job: "example".into(),
//!     exact: 14,
//!     shard: Shard { index: 0, count: 1 },
//!     games: 1,
//!     records: vec![GameRecord { number: 0, engine_from: 0, moves }],
//! };
//! let bytes = file.to_bytes().unwrap();
//! assert_eq!(&bytes[..8], b"RVGAMES1");
//! let back = GamesFile::from_bytes(&bytes, "selfplay-1.games").unwrap();
//! assert_eq!(back, file);
//! assert!(!back.positions().is_empty());
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use reversi_engine::pattern::crc32;
use reversi_engine::search::final_score;
use reversi_engine::{Board, Sq};

use crate::error::{Error, FileError, FormatError, JoinError, Problem};
use crate::label_file::DeepLabel;
use crate::records::{Kind, LabelledPosition};
use reversi_engine::shard::Shard;

const MAGIC: &[u8; 8] = b"RVGAMES1";

/// A self-play game: its number in the run, the ply from which the engine chose the moves,
/// and every move from the standard start (passes left out: they are forced).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in its run.
    pub number: usize,
    /// The ply from which the engine played (the moves before: opening, random moves).
    pub engine_from: u8,
    /// The moves from the standard start.
    pub moves: Vec<Sq>,
}

/// A games file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesFile {
    /// The file name one run writes (`selfplay-1.games`).
    pub target: String,
    /// The command and the options that decide the games.
    pub job: String,
    /// Empties from which both sides solved exactly (their labels are exact from there).
    pub exact: u32,
    /// The part of the run this file holds (0/1: all of it).
    pub shard: Shard,
    /// Games of the whole run.
    pub games: usize,
    /// The file's games in increasing number.
    pub records: Vec<GameRecord>,
}

/// Why a game's moves cannot be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move's index in the game (from 0).
    pub ply: usize,
    /// The square played.
    pub square: Sq,
}

/// Bits an index below `n` takes (0 for a forced move).
fn width(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// The board before each move of `moves` from the start, with the move's index among the
/// legal moves (passing where the side to move has none); `Err` at the first illegal one.
fn walk(moves: &[Sq]) -> Result<Vec<(Board, u32)>, IllegalMove> {
    let mut board = Board::START;
    let mut out = Vec::with_capacity(moves.len());
    for (ply, &sq) in moves.iter().enumerate() {
        if board.moves() == 0 {
            board = board.pass();
        }
        let legal = board.moves();
        if legal & sq.bit() == 0 {
            return Err(IllegalMove { ply, square: sq });
        }
        out.push((board, (legal & (sq.bit() - 1)).count_ones()));
        board = board.play(sq.index());
    }
    Ok(out)
}

impl GameRecord {
    /// Appends the game's bytes.
    ///
    /// # Errors
    /// When a move is not legal where it is played.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<(), IllegalMove> {
        let steps = walk(&self.moves)?;
        push_varint(out, self.number as u64);
        out.push(self.engine_from);
        let (mut acc, mut used) = (0u64, 0u32);
        for (board, index) in steps {
            let w = width(board.moves().count_ones());
            acc |= u64::from(index) << used;
            used += w;
            while used >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                used -= 8;
            }
        }
        if used > 0 {
            out.push(acc as u8);
        }
        Ok(())
    }

    /// Reads a game from the start of `bytes`; returns it and the bytes it took, `None` when
    /// they do not hold a whole game.
    pub fn decode(bytes: &[u8]) -> Option<(GameRecord, usize)> {
        let (number, mut at) = read_varint(bytes)?;
        let engine_from = *bytes.get(at)?;
        at += 1;
        let (mut acc, mut have) = (0u64, 0u32);
        let mut board = Board::START;
        let mut moves = Vec::new();
        loop {
            if board.moves() == 0 {
                board = board.pass();
                if board.moves() == 0 {
                    break;
                }
            }
            let legal = board.moves();
            let w = width(legal.count_ones());
            while have < w {
                acc |= u64::from(*bytes.get(at)?) << have;
                at += 1;
                have += 8;
            }
            let index = (acc & ((1u64 << w) - 1)) as u32;
            acc >>= w;
            have -= w;
            let mut rest = legal;
            for _ in 0..index {
                rest &= rest.wrapping_sub(1);
            }
            let sq = Sq::new(rest.trailing_zeros())?;
            moves.push(sq);
            board = board.play(sq.index());
        }
        if usize::from(engine_from) > moves.len() || acc != 0 {
            return None;
        }
        Some((
            GameRecord {
                number: usize::try_from(number).ok()?,
                engine_from,
                moves,
            },
            at,
        ))
    }

    /// The labelled positions of the game from the ply the engine took over: each position
    /// where the side to move has a move, labelled with the game's final score for that side
    /// (empties to the winner); [`Kind::Solved`] from `exact` empties on, where both sides
    /// played perfectly, [`Kind::Searched`] before. Empty if a move is illegal.
    pub fn positions(&self, exact: u32) -> Vec<LabelledPosition> {
        if walk(&self.moves).is_err() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut board = Board::START;
        let mut sides = Vec::with_capacity(self.moves.len());
        let mut black = true;
        for &sq in &self.moves {
            if board.moves() == 0 {
                board = board.pass();
                black = !black;
            }
            sides.push((board, black));
            board = board.play(sq.index());
            black = !black;
        }
        // `board` is the end; `black` says whose turn it would be there.
        let end_black_view = if black {
            final_score(board, u64::MAX)
        } else {
            -final_score(board, u64::MAX)
        };
        for (ply, &(b, is_black)) in sides.iter().enumerate() {
            if ply < usize::from(self.engine_from) {
                continue;
            }
            let label = if is_black {
                end_black_view
            } else {
                -end_black_view
            };
            let kind = if b.empties().count_ones() <= exact {
                Kind::Solved
            } else {
                Kind::Searched
            };
            out.push(LabelledPosition {
                board: b,
                label: label as i8,
                kind,
            });
        }
        out
    }
}

impl GamesFile {
    /// The file's bytes.
    ///
    /// # Errors
    /// When a game holds an illegal move.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut header = String::new();
        let _ = write!(
            header,
            "target={}\njob={}\nexact={}\nshard={}\ngames={}\n",
            self.target, self.job, self.exact, self.shard, self.games
        );
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        push_u32(&mut out, header.len())?;
        out.extend_from_slice(header.as_bytes());
        push_u32(&mut out, self.records.len())?;
        for g in &self.records {
            g.encode(&mut out)
                .map_err(|e| Error::IllegalMove(g.number, e.ply, e.square))?;
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok(out)
    }

    /// Whether `bytes` start like a games file.
    pub fn is_games(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// Reads a games file; `name` names it in errors.
    ///
    /// # Errors
    /// Not a games file, damaged, or games outside its shard or out of order.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<GamesFile, FormatError> {
        let err = |problem| FormatError {
            file: name.to_string(),
            problem,
        };
        if !Self::is_games(bytes) {
            return Err(err(Problem::NotA("self-play games file")));
        }
        if bytes.len() < MAGIC.len() + 12 {
            return Err(err(Problem::CutShort));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        if crc32(body) != stored {
            return Err(err(Problem::Damaged("its checksum does not match")));
        }
        let mut at = MAGIC.len();
        let header_len = read_u32(body, &mut at).ok_or(err(Problem::No("header")))?;
        let header = body
            .get(at..at + header_len)
            .and_then(|h| std::str::from_utf8(h).ok())
            .ok_or(err(Problem::HeaderDamaged))?;
        at += header_len;
        let field = |key: &'static str| {
            header
                .lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
                .ok_or(err(Problem::NoField(key)))
        };
        let target = field("target")?.to_string();
        if target.contains(['/', '\\']) || !target.ends_with(".games") {
            return Err(err(Problem::TargetName(target, "games")));
        }
        let job = field("job")?.to_string();
        let exact: u32 = field("exact")?
            .parse()
            .map_err(|e| err(Problem::NotANumber("exact", e)))?;
        let shard: Shard = field("shard")?
            .parse()
            .map_err(|e| err(Problem::ShardField(e)))?;
        let games: usize = field("games")?
            .parse()
            .map_err(|e| err(Problem::NotANumber("games", e)))?;
        let count = read_u32(body, &mut at).ok_or(err(Problem::No("game count")))?;
        let mut records = Vec::with_capacity(count.min(1 << 20));
        for i in 0..count {
            let (game, used) = body
                .get(at..)
                .and_then(GameRecord::decode)
                .ok_or(err(Problem::Game(i)))?;
            at += used;
            if game.number >= games || !shard.holds(game.number) {
                return Err(err(Problem::NotInShard {
                    game: game.number,
                    shard,
                    games,
                }));
            }
            if records
                .last()
                .is_some_and(|p: &GameRecord| p.number >= game.number)
            {
                return Err(err(Problem::OutOfOrder(game.number)));
            }
            records.push(game);
        }
        if at != body.len() {
            return Err(err(Problem::AfterGames(body.len() - at)));
        }
        Ok(GamesFile {
            target,
            job,
            exact,
            shard,
            games,
            records,
        })
    }

    /// The labelled positions of every game, game after game.
    pub fn positions(&self) -> Vec<LabelledPosition> {
        self.records
            .iter()
            .flat_map(|g| g.positions(self.exact))
            .collect()
    }

    /// [`GamesFile::positions`] with the deep labels `labels` (deep.rs) in place of the
    /// games' final scores where they exist: an exact label as [`Kind::Solved`], a searched
    /// one as [`Kind::Searched`].
    ///
    /// # Errors
    /// A label naming a game the file does not hold, or a ply the engine did not play.
    pub fn positions_with(&self, labels: &[DeepLabel]) -> Result<Vec<LabelledPosition>, String> {
        let mut by_game: Vec<&DeepLabel> = labels.iter().collect();
        by_game.sort_by_key(|l| (l.game, l.ply));
        let mut next = by_game.into_iter().peekable();
        let mut out = Vec::new();
        for g in &self.records {
            let mut positions = g.positions(self.exact);
            while let Some(l) = next.next_if(|l| l.game <= g.number) {
                let at = l.ply.checked_sub(usize::from(g.engine_from));
                let slot = at
                    .and_then(|i| positions.get_mut(i))
                    .filter(|_| l.game == g.number);
                let Some(p) = slot else {
                    return Err(format!(
                        "the label of game {} ply {} names no position the engine played",
                        l.game, l.ply
                    ));
                };
                p.label = l.score.clamp(-64, 64) as i8;
                p.kind = if l.exact {
                    Kind::Solved
                } else {
                    Kind::Searched
                };
            }
            out.extend(positions);
        }
        if let Some(l) = next.next() {
            return Err(format!(
                "the label of game {} names no game of the file",
                l.game
            ));
        }
        Ok(out)
    }
}

/// Writes a games file through a temporary file, so a cut run leaves no half file.
///
/// # Errors
/// A game with an illegal move, or the file cannot be written.
pub fn write(path: &Path, file: &GamesFile) -> Result<(), Error> {
    let bytes = file.to_bytes()?;
    let tmp = path.with_extension("games.tmp");
    fs::write(&tmp, &bytes).map_err(FileError::on("writing", &tmp))?;
    fs::rename(&tmp, path).map_err(FileError::on("writing", path))?;
    Ok(())
}

/// Joins the shards of one run into the file the run writes whole (the same bytes).
///
/// # Errors
/// Shards of different jobs, a shard missing or given twice, a game missing.
pub fn join(shards: &[(String, GamesFile)]) -> Result<GamesFile, JoinError> {
    let Some((first_name, first)) = shards.first() else {
        return Err(JoinError::NoGames);
    };
    let count = first.shard.count;
    let mut seen = BTreeMap::new();
    let mut games = BTreeMap::new();
    for (name, s) in shards {
        if (&s.target, &s.job, s.exact, s.games, s.shard.count)
            != (&first.target, &first.job, first.exact, first.games, count)
        {
            return Err(JoinError::DifferentRuns(name.clone(), first_name.clone()));
        }
        if let Some(other) = seen.insert(s.shard.index, name) {
            return Err(JoinError::Twice(name.clone(), other.clone(), s.shard));
        }
        for g in &s.records {
            games.insert(g.number, g.clone());
        }
    }
    if let Some(missing) = (0..count).find(|k| !seen.contains_key(k)) {
        return Err(JoinError::GamesShardMissing(
            missing,
            count,
            first_name.clone(),
        ));
    }
    if games.len() != first.games {
        return Err(JoinError::GamesMissing(games.len(), first.games));
    }
    Ok(GamesFile {
        target: first.target.clone(),
        job: first.job.clone(),
        exact: first.exact,
        shard: Shard { index: 0, count: 1 },
        games: first.games,
        records: games.into_values().collect(),
    })
}

fn push_u32(out: &mut Vec<u8>, n: usize) -> Result<(), Error> {
    let n = u32::try_from(n).map_err(Error::TooLarge)?;
    out.extend_from_slice(&n.to_le_bytes());
    Ok(())
}

fn read_u32(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let b = bytes.get(*at..*at + 4)?;
    *at += 4;
    usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
}

fn push_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut n = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        n |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((n, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use reversi_core::XorShift64;

    use super::*;

    /// A game of random moves to its end.
    fn random_game(seed: u64, number: usize) -> GameRecord {
        let mut rng = XorShift64::new(seed);
        let mut board = Board::START;
        let mut moves = Vec::new();
        loop {
            if board.moves() == 0 {
                board = board.pass();
                if board.moves() == 0 {
                    break;
                }
            }
            let mut legal = board.moves();
            for _ in 0..rng.below(u64::from(legal.count_ones())) {
                legal &= legal - 1;
            }
            let sq = Sq::new(legal.trailing_zeros()).expect("a move");
            moves.push(sq);
            board = board.play(sq.index());
        }
        GameRecord {
            number,
            engine_from: (seed % 40) as u8,
            moves,
        }
    }

    fn file(records: Vec<GameRecord>) -> GamesFile {
        GamesFile {
            target: "selfplay-9.games".into(),
            job: "test".into(),
            exact: 16,
            shard: Shard { index: 0, count: 1 },
            games: records.len(),
            records,
        }
    }

    #[test]
    fn games_round_trip_in_a_few_bytes_each() {
        let records: Vec<GameRecord> = (0..300).map(|g| random_game(g as u64 + 1, g)).collect();
        let f = file(records);
        let bytes = f.to_bytes().expect("legal games");
        assert_eq!(GamesFile::from_bytes(&bytes, "t").expect("reads"), f);
        let body = bytes.len() - 8 - 4 - 4 - 4 - 60;
        let per_game = body as f64 / 300.0;
        assert!(per_game < 36.0, "{per_game:.1} bytes a game");
        assert_eq!(f.to_bytes().expect("again"), bytes, "the same bytes");
    }

    #[test]
    fn damaged_or_cut_files_are_refused_with_the_reason() {
        let bytes = file(vec![random_game(3, 0), random_game(4, 1)])
            .to_bytes()
            .expect("legal");
        for at in [10, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            let e = GamesFile::from_bytes(&bad, "g.games").expect_err("damaged");
            assert!(e.to_string().contains("damaged"), "{e}");
        }
        let e = GamesFile::from_bytes(&bytes[..bytes.len() - 9], "g.games").expect_err("cut");
        assert!(e.to_string().contains("g.games"), "{e}");
        let e = GamesFile::from_bytes(b"RVTRAIN1", "x").expect_err("another format");
        assert!(e.to_string().contains("not a self-play games file"), "{e}");
    }

    #[test]
    fn deep_labels_replace_the_final_scores_where_they_exist() {
        let f = file(vec![
            random_game(11, 0),
            random_game(12, 1),
            random_game(13, 2),
        ]);
        let plain = f.positions();
        let g1 = &f.records[1];
        let from = usize::from(g1.engine_from);
        let labels = [
            DeepLabel {
                game: 1,
                ply: from + 2,
                score: 30,
                exact: false,
            },
            DeepLabel {
                game: 2,
                ply: usize::from(f.records[2].engine_from),
                score: -6,
                exact: true,
            },
        ];
        let deep = f
            .positions_with(&labels)
            .expect("labels of the file's games");
        assert_eq!(deep.len(), plain.len());
        let start1 = f.records[0].positions(f.exact).len();
        let start2 = start1 + g1.positions(f.exact).len();
        let changed: Vec<usize> = (0..deep.len()).filter(|&i| deep[i] != plain[i]).collect();
        assert!(changed.iter().all(|&i| i == start1 + 2 || i == start2));
        assert_eq!(
            (deep[start1 + 2].label, deep[start1 + 2].kind),
            (30, Kind::Searched)
        );
        assert_eq!((deep[start2].label, deep[start2].kind), (-6, Kind::Solved));
        assert_eq!(deep[start1 + 2].board, plain[start1 + 2].board);
        // A label for a game the file lacks, or for a ply before the engine played, is
        // refused by name.
        let e = f
            .positions_with(&[DeepLabel {
                game: 7,
                ..labels[0]
            }])
            .expect_err("no game 7");
        assert!(e.contains("game 7"), "{e}");
        if from > 0 {
            let e = f
                .positions_with(&[DeepLabel {
                    ply: from - 1,
                    ..labels[0]
                }])
                .expect_err("before the engine");
            assert!(e.contains(&format!("ply {}", from - 1)), "{e}");
        }
        let e = f
            .positions_with(&[DeepLabel {
                ply: 99,
                ..labels[0]
            }])
            .expect_err("past the end");
        assert!(e.contains("ply 99"), "{e}");
    }

    #[test]
    fn an_illegal_move_is_named_and_not_written() {
        let mut g = random_game(5, 0);
        g.moves[3] = g.moves[0];
        let e = file(vec![g]).to_bytes().expect_err("illegal");
        assert!(e.to_string().contains("move 4"), "{e}");
    }

    #[test]
    fn labels_are_the_final_score_for_the_side_to_move() {
        let g = GameRecord {
            engine_from: 0,
            ..random_game(8, 0)
        };
        let positions = g.positions(0);
        let (mut board, mut black) = (Board::START, true);
        for sq in &g.moves {
            if board.moves() == 0 {
                board = board.pass();
                black = !black;
            }
            board = board.play(sq.index());
            black = !black;
        }
        let black_score = if black {
            final_score(board, u64::MAX)
        } else {
            -final_score(board, u64::MAX)
        };
        assert_eq!(positions.len(), g.moves.len());
        // The first position is Black's: its label is Black's final score.
        assert_eq!(i32::from(positions[0].label), black_score);
        assert_eq!(i32::from(positions[1].label), -black_score);
        assert!(positions.iter().all(|r| r.kind == Kind::Searched));
        let later = GameRecord {
            engine_from: 20,
            ..g.clone()
        };
        assert_eq!(later.positions(0), positions[20..].to_vec());
    }

    #[test]
    fn shards_join_into_the_whole_run_and_gaps_are_refused() {
        let records: Vec<GameRecord> = (0..5).map(|g| random_game(g as u64 + 20, g)).collect();
        let whole = file(records.clone());
        let part = |index: usize| GamesFile {
            shard: Shard { index, count: 2 },
            records: records
                .iter()
                .filter(|g| g.number % 2 == index)
                .cloned()
                .collect(),
            ..whole.clone()
        };
        let joined = join(&[("b".into(), part(1)), ("a".into(), part(0))]).expect("joins");
        assert_eq!(joined.to_bytes().ok(), whole.to_bytes().ok());
        let e = join(&[("a".into(), part(0))]).expect_err("a shard missing");
        assert!(e.to_string().contains("missing"), "{e}");
        let e = join(&[("a".into(), part(0)), ("c".into(), part(0))]).expect_err("twice");
        assert!(e.to_string().contains("both shard"), "{e}");
    }
}
