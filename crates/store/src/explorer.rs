//! The opening explorer's index: for each position of the first moves of the stored 8x8 games
//! (its eight rotations and reflections merged into one) and each move played from it, the
//! number of games, Black's wins and draws, and the sum of Black's final disc margins.
//!
//! The `explorer` table is kept up to date as games are imported, finished and deleted, and
//! rebuilt whole from the stored games by the schema migration that adds it and by
//! [`Store::rebuild_explorer`]. A game counts once it is finished with a score on an 8x8 board.

use std::collections::HashMap;

use reversi_core::bit_symmetry::{image, image_square, inverse};
use reversi_core::{BoardSize, Color, Move, Position, Rules, Score, Square};
use rusqlite::{params, Connection};

use crate::codec::{move_from_column, position_from_text};
use crate::{Status, Store, StoreError};

/// How deep the explorer looks: positions with at most this many discs are indexed, the
/// first 24 moves of a game from the four-disc start. The book goes as deep (docs/book.md);
/// past it nearly every WTHOR position is one game's alone.
pub const EXPLORER_MAX_DISCS: u32 = 28;

/// One move played from a position, over the stored games that played it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplorerMove {
    /// The square, in the orientation of the position asked about.
    pub square: Square,
    /// How many games played it.
    pub games: u64,
    /// How many of them Black won.
    pub black_wins: u64,
    /// How many were drawn.
    pub draws: u64,
    /// The sum over those games of Black's discs minus White's at the end.
    pub disc_sum: i64,
}

impl ExplorerMove {
    /// Black's share of the games won, 0 to 1.
    #[must_use]
    pub fn black_win_rate(&self) -> f64 {
        self.black_wins as f64 / self.games.max(1) as f64
    }

    /// Black's mean final disc margin (negative when White won by more on average).
    #[must_use]
    pub fn mean_disc_margin(&self) -> f64 {
        self.disc_sum as f64 / self.games.max(1) as f64
    }
}

/// How large the index is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplorerSize {
    /// Rows: (position, move) pairs.
    pub rows: u64,
    /// Distinct positions.
    pub positions: u64,
    /// The games counted.
    pub games: u64,
    /// The bytes of the table's pages in the file.
    pub bytes: u64,
}

/// A position's row key: the 64-bit hash of its least symmetric image and its side to move.
/// Sixty-four bits keep the key one integer; two positions of the index share a key with
/// odds of about n²/2⁶⁵ (one in ten million for the 2 million WTHOR positions), and a
/// query drops any move not legal where it is asked.
pub(crate) type Key = i64;

/// The square, in the least image's orientation, and the key of a move from a position.
pub(crate) type Entry = (Key, u8);

/// The discs of an 8x8 position as two masks (bit `8 * row + column`), Black's first; `None`
/// for other sizes and during the Reversi rule's placement of the first four discs.
fn masks(pos: &Position) -> Option<(u64, u64)> {
    if pos.size() != BoardSize::EIGHT || pos.in_placement_phase() {
        return None;
    }
    let mut black = 0u64;
    let mut white = 0u64;
    for (i, cell) in pos.cells().iter().enumerate() {
        match cell {
            Some(Color::Black) => black |= 1 << i,
            Some(Color::White) => white |= 1 << i,
            None => {}
        }
    }
    Some((black, white))
}

/// The 8 images' masks, and the least of them.
fn images(black: u64, white: u64) -> ([(u64, u64); 8], (u64, u64)) {
    let all: [(u64, u64); 8] = std::array::from_fn(|s| (image(black, s), image(white, s)));
    let least = all.iter().copied().min().unwrap_or((black, white));
    (all, least)
}

/// Mixes the least image and the side to move into a key (the finaliser of MurmurHash3,
/// over both masks).
fn hash(least: (u64, u64), turn: Color) -> Key {
    let mut h = least.0 ^ least.1.rotate_left(32).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= u64::from(turn == Color::White);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h as Key
}

/// The index's entry for playing `mv` in `pos`: `None` for a pass, a position too deep or
/// not on 8x8. Of the images equal to the least (a symmetric position has several), the
/// move's least image is kept, so that moves the symmetry makes alike count as one.
pub(crate) fn entry(pos: &Position, mv: Move) -> Option<Entry> {
    let Move::Play(sq) = mv else { return None };
    let (black, white) = masks(pos)?;
    if (black | white).count_ones() > EXPLORER_MAX_DISCS {
        return None;
    }
    let (all, least) = images(black, white);
    let bit = sq.index(BoardSize::EIGHT) as u32;
    let square = (0..8)
        .filter(|&s| all[s] == least)
        .map(|s| image_square(bit, s))
        .min()?;
    Some((hash(least, pos.turn()), square as u8))
}

/// The key of `pos` and a symmetry that takes it to its least image.
fn lookup_key(pos: &Position) -> Option<(Key, usize)> {
    let (black, white) = masks(pos)?;
    let (all, least) = images(black, white);
    let s = (0..8).find(|&s| all[s] == least)?;
    Some((hash(least, pos.turn()), s))
}

/// The entries of a game from `start` through `moves`, up to the explorer's depth.
pub(crate) fn game_entries(start: &Position, moves: &[Move]) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut pos = start.clone();
    for &mv in moves {
        if masks(&pos).is_some_and(|(b, w)| (b | w).count_ones() > EXPLORER_MAX_DISCS) {
            break;
        }
        out.extend(entry(&pos, mv));
        match pos.play(mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    out
}

/// The score a game counts with in the index, if it counts: finished with a score on 8x8.
pub(crate) fn counted_score(
    size: BoardSize,
    status: Status,
    score: Option<Score>,
) -> Option<Score> {
    (size == BoardSize::EIGHT && status == Status::Finished)
        .then_some(score)
        .flatten()
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    games: i64,
    black_wins: i64,
    draws: i64,
    disc_sum: i64,
}

/// Changes to the index gathered in memory, written at once in key order (the table's order,
/// so that the writes walk the B-tree instead of jumping about it).
#[derive(Debug, Default)]
pub(crate) struct Tally {
    counts: HashMap<Entry, Counts>,
    removes: bool,
}

impl Tally {
    /// Counts a game's entries once (`sign` 1) or takes them out again (`sign` -1).
    pub(crate) fn add(&mut self, entries: &[Entry], score: Score, sign: i64) {
        let margin = i64::from(score.black) - i64::from(score.white);
        for &e in entries {
            let c = self.counts.entry(e).or_default();
            c.games += sign;
            c.black_wins += sign * i64::from(margin > 0);
            c.draws += sign * i64::from(margin == 0);
            c.disc_sum += sign * margin;
        }
        self.removes |= sign < 0;
    }

    /// Adds the tally to the table.
    pub(crate) fn write(self, conn: &Connection) -> rusqlite::Result<()> {
        let mut rows: Vec<(Entry, Counts)> = self.counts.into_iter().collect();
        rows.sort_unstable_by_key(|&(e, _)| e);
        let mut upsert = conn.prepare_cached(
            "INSERT INTO explorer (position, square, games, black_wins, draws, disc_sum) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (position, square) DO UPDATE SET \
             games = games + excluded.games, black_wins = black_wins + excluded.black_wins, \
             draws = draws + excluded.draws, disc_sum = disc_sum + excluded.disc_sum",
        )?;
        for &((key, square), c) in &rows {
            upsert.execute(params![
                key,
                square,
                c.games,
                c.black_wins,
                c.draws,
                c.disc_sum
            ])?;
        }
        if self.removes {
            let mut prune = conn.prepare_cached(
                "DELETE FROM explorer WHERE position = ?1 AND square = ?2 AND games <= 0",
            )?;
            for &((key, square), _) in &rows {
                prune.execute(params![key, square])?;
            }
        }
        Ok(())
    }
}

/// Empties the index and counts every stored game that counts again. A stored game that does
/// not replay (which the store never writes) is left out rather than failing the rebuild.
pub(crate) fn rebuild(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM explorer", [])?;
    // Passes add no disc but never come twice in a row, so positions within the depth lie
    // within the first 2 × EXPLORER_MAX_DISCS + 1 plies, whatever the start.
    let mut stmt = conn.prepare(
        "SELECT g.id, g.rules, g.start_position, g.black_score, g.white_score, m.square \
         FROM games g JOIN moves m ON m.game_id = g.id \
         WHERE g.board_size = 8 AND g.status = 'finished' AND g.black_score IS NOT NULL \
         AND g.white_score IS NOT NULL AND m.ply <= ?1 ORDER BY g.id, m.ply",
    )?;
    let mut rows = stmt.query([2 * i64::from(EXPLORER_MAX_DISCS) + 1])?;
    let mut tally = Tally::default();
    // The game being read: its id, score, position so far and entries; `None` once it
    // has gone past the depth or failed to replay.
    let mut current: Option<(i64, Score, Option<Position>, Vec<Entry>)> = None;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        if current.as_ref().is_none_or(|c| c.0 != id) {
            if let Some((_, score, _, entries)) = current.take() {
                tally.add(&entries, score, 1);
            }
            let rules = row
                .get::<_, String>(1)?
                .parse::<Rules>()
                .unwrap_or(Rules::Othello);
            let start = match row.get::<_, Option<String>>(2)? {
                None => Some(Position::start(BoardSize::EIGHT, rules)),
                Some(text) => position_from_text(&text, BoardSize::EIGHT, rules),
            };
            let score = Score {
                black: row.get(3)?,
                white: row.get(4)?,
            };
            current = Some((id, score, start, Vec::new()));
        }
        let Some((_, _, Some(pos), entries)) = current.as_mut() else {
            continue;
        };
        let next = move_from_column(row.get(5)?, BoardSize::EIGHT).and_then(|mv| {
            entries.extend(entry(pos, mv));
            pos.play(mv).ok()
        });
        if let Some(c) = current.as_mut() {
            c.2 = next;
        }
    }
    if let Some((_, score, _, entries)) = current {
        tally.add(&entries, score, 1);
    }
    tally.write(conn)
}

impl Store {
    /// The moves played from `pos` in the stored games that count (finished 8x8 games with a
    /// score, within the first [`EXPLORER_MAX_DISCS`] discs), in any of its eight
    /// orientations, most played first; each move is given in the orientation of `pos`.
    /// Empty for a position no stored game reached, a deeper one, and on other sizes.
    ///
    /// # Errors
    /// On an SQLite error.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{parse_transcript, BoardSize, Position, Rules, Score};
    /// use reversi_store::{ImportGame, Player, Store};
    ///
    /// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let game = parse_transcript("f5d6c3d3c4", start.clone())?;
    /// let (ann, ben) = (Player::human("Ann"), Player::human("Ben"));
    /// // Adjudicated after five moves: 40-24 to Black.
    /// let import = ImportGame::from_game(&game, ann, ben, Some(Score { black: 40, white: 24 }));
    /// let mut store = Store::open_in_memory()?;
    /// store.import_games(&[import], &mut |_| {})?;
    ///
    /// // After f5, the game went on with d6: one game, won by Black by 16.
    /// let after_f5 = parse_transcript("f5", start.clone())?;
    /// let moves = store.explore(after_f5.current())?;
    /// assert_eq!(moves.len(), 1);
    /// assert_eq!((moves[0].square.to_string(), moves[0].games), ("d6".to_string(), 1));
    /// assert_eq!(moves[0].mean_disc_margin(), 16.0);
    ///
    /// // The same position turned half round (after c4): the same game, the move turned too.
    /// let after_c4 = parse_transcript("c4", start)?;
    /// assert_eq!(store.explore(after_c4.current())?[0].square.to_string(), "e3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explore(&self, pos: &Position) -> Result<Vec<ExplorerMove>, StoreError> {
        let Some((key, s)) = lookup_key(pos) else {
            return Ok(Vec::new());
        };
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT square, games, black_wins, draws, disc_sum FROM explorer \
                 WHERE position = ?1",
            )
            .map_err(self.sql())?;
        let rows = stmt
            .query_map([key], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .map_err(self.sql())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.sql())?;
        let back = inverse(s);
        let mut moves: Vec<ExplorerMove> = rows
            .into_iter()
            .filter_map(|(square, games, black_wins, draws, disc_sum)| {
                let sq = Square::from_index(image_square(square, back) as usize, pos.size())?;
                // Another position with the same key (see `Key`) shows as moves not legal
                // here.
                pos.is_legal(sq).then_some(ExplorerMove {
                    square: sq,
                    games: u64::try_from(games).ok()?,
                    black_wins: u64::try_from(black_wins).unwrap_or(0),
                    draws: u64::try_from(draws).unwrap_or(0),
                    disc_sum,
                })
            })
            .filter(|m| m.games > 0)
            .collect();
        moves.sort_by(|a, b| b.games.cmp(&a.games).then(a.square.cmp(&b.square)));
        Ok(moves)
    }

    /// Empties the explorer's index and builds it again from every stored game, in one
    /// transaction; returns its size.
    ///
    /// # Errors
    /// On an SQLite error; the index is then as it was.
    pub fn rebuild_explorer(&mut self) -> Result<ExplorerSize, StoreError> {
        crate::store::in_transaction(self, |tx| Ok(rebuild(tx)?))?;
        self.explorer_size()
    }

    /// The number of rows, positions, games and bytes of the explorer's index.
    ///
    /// # Errors
    /// On an SQLite error.
    pub fn explorer_size(&self) -> Result<ExplorerSize, StoreError> {
        let count = |sql: &str| {
            self.conn
                .query_row(sql, [], |r| r.get::<_, Option<i64>>(0))
                .map(|n| n.unwrap_or(0).unsigned_abs())
                .map_err(self.sql())
        };
        Ok(ExplorerSize {
            rows: count("SELECT count(*) FROM explorer")?,
            positions: count("SELECT count(DISTINCT position) FROM explorer")?,
            games: count(
                "SELECT count(*) FROM games WHERE board_size = 8 AND status = 'finished' \
                 AND black_score IS NOT NULL AND white_score IS NOT NULL",
            )?,
            // The pages of the table's B-tree, as SQLite's dbstat table counts them.
            bytes: count("SELECT sum(pgsize) FROM dbstat WHERE name = 'explorer'")?,
        })
    }
}
