//! What the opening explorer reports: the moves the stored games played from a position.

use reversi_core::Square;

/// How deep the explorer looks: positions with at most this many discs are counted, the
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
