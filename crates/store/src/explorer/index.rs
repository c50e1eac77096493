//! The opening explorer's index itself, apart from the store that queries it: each
//! (position, move) of a game's first moves keyed by the position's least symmetric image,
//! the tallies kept per entry as games are added or removed, and the whole index rebuilt
//! from the stored games (by the schema migration that adds it, and on request).

use std::collections::HashMap;

use reversi_core::bit_symmetry::{image, image_square};
use reversi_core::{BoardSize, Color, Move, Position, Rules, Score};
use rusqlite::{params, Connection};

use crate::codec::{move_from_column, position_from_text};
use crate::Status;

pub use reversi_record::EXPLORER_MAX_DISCS;

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
pub(crate) fn lookup_key(pos: &Position) -> Option<(Key, usize)> {
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
