-- The opening explorer's index (crates/store/src/explorer.rs). Applied in one transaction,
-- after which the program fills it from the stored games in the same transaction.
--
-- One row per position and move: the position is a 64-bit hash of the least of its eight
-- symmetric images and the side to move, the move its square in that image's orientation
-- (row * 8 + column). Counted over the finished 8x8 games with a score, within their first
-- 28 discs.
CREATE TABLE explorer (
    position   INTEGER NOT NULL,
    square     INTEGER NOT NULL CHECK (square BETWEEN 0 AND 63),
    games      INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    -- The sum of Black's discs minus White's at the end of those games.
    disc_sum   INTEGER NOT NULL,
    PRIMARY KEY (position, square)
) WITHOUT ROWID;
