-- Game clocks. Applied in one transaction; PRAGMA user_version then becomes 2. Games stored
-- before keep NULL: played without a clock, ended on the board.

-- Each side's time at the start and the time added after each of its moves, in ms; NULL for
-- a game without a clock.
ALTER TABLE games ADD COLUMN time_base_ms INTEGER CHECK (time_base_ms > 0);
ALTER TABLE games ADD COLUMN time_increment_ms INTEGER CHECK (time_increment_ms >= 0);
-- How a finished game ended when not on the board: 'time' when the loser's clock ran out
-- (the winner then scores every square, 64-0 on 8x8). NULL when played out.
ALTER TABLE games ADD COLUMN termination TEXT CHECK (termination IN ('time'));
