//! The opening explorer's index: for each position of the first moves of the stored 8x8 games
//! (its eight rotations and reflections merged into one) and each move played from it, the
//! number of games, Black's wins and draws, and the sum of Black's final disc margins.
//!
//! The `explorer` table is kept up to date as games are imported, finished and deleted, and
//! rebuilt whole from the stored games by the schema migration that adds it and by
//! [`Store::rebuild_explorer`]. A game counts once it is finished with a score on an 8x8 board.

pub(crate) mod index;

use reversi_core::bit_symmetry::{image_square, inverse};
use reversi_core::{Position, Square};

use crate::{ExplorerMove, Store, StoreError};
pub use index::EXPLORER_MAX_DISCS;
use index::{lookup_key, rebuild};

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
