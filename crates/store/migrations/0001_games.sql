-- Games and their moves. Applied in one transaction; PRAGMA user_version then becomes 1.

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    board_size     INTEGER NOT NULL CHECK (board_size BETWEEN 4 AND 16 AND board_size % 2 = 0),
    rules          TEXT    NOT NULL CHECK (rules IN ('othello', 'reversi')),
    -- NULL for the rule's standard start; otherwise the squares row by row from a1
    -- (X Black, O White, - empty), a space, and the side to move (X or O).
    start_position TEXT,
    black_name     TEXT    NOT NULL,
    black_kind     TEXT    NOT NULL CHECK (black_kind IN ('human', 'computer')),
    black_level    TEXT,
    white_name     TEXT    NOT NULL,
    white_kind     TEXT    NOT NULL CHECK (white_kind IN ('human', 'computer')),
    white_level    TEXT,
    -- ISO 8601 text, UTC: 2026-11-22T17:43:37Z, or as much of it as the source gives (1977).
    started_at     TEXT,
    ended_at       TEXT,
    status         TEXT    NOT NULL CHECK (status IN ('in_progress', 'finished', 'abandoned')),
    result         TEXT    CHECK (result IN ('black', 'white', 'draw')),
    black_score    INTEGER,
    white_score    INTEGER,
    -- Tournament or place, where the source names one.
    event          TEXT,
    -- Where an imported game came from (file and format); NULL for games played here.
    source         TEXT,
    move_count     INTEGER NOT NULL DEFAULT 0,
    -- 16-byte hash of size, rules, start, moves, players, date and event; set on import and
    -- when a game ends, so importing the same game twice adds it once.
    dedup_hash     BLOB    UNIQUE
);

CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- 0-based, passes included.
    ply     INTEGER NOT NULL,
    -- Row-major square index (row * board_size + column); NULL for a pass.
    square  INTEGER,
    time_ms INTEGER,
    -- The computer's evaluation, in discs for the side that moved.
    eval    REAL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE INDEX games_by_date ON games (started_at, id);
CREATE INDEX games_by_status ON games (status, started_at, id);
