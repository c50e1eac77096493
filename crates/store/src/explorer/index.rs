//! The opening explorer's index itself, apart from the store that queries it: each
//! (position, move) of a game's first moves keyed by the position's least symmetric image,
//! the tallies kept per entry as games are added or removed, and the whole index rebuilt
//! from the stored games (by the schema migration that adds it, and on request).

use std::collections::HashMap;

use reversi_core::{BoardSize, Position, Rules, Score};
use rusqlite::{params, Connection};

use crate::codec::{move_from_column, position_from_text};

pub(crate) use reversi_record::explorer_keys::{
    counted_score, entry, game_entries, lookup_key, Entry,
};
pub use reversi_record::EXPLORER_MAX_DISCS;

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
