-- Variations: lines played in a replay that leave the game's own moves, or another variation,
-- at some move. Applied in one transaction; PRAGMA user_version then becomes 4. Games stored
-- before have none. Self-contained (it only adds tables), so renumbering it is a file rename
-- and its place in the migrations list.

CREATE TABLE variations (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- The line it leaves: NULL for the game's own moves, else an earlier variation of the same
    -- game (deleting that one deletes this one).
    parent_id  INTEGER REFERENCES variations (id) ON DELETE CASCADE,
    -- How many moves of the parent line come before the variation's own.
    from_ply   INTEGER NOT NULL CHECK (from_ply >= 0),
    -- ISO 8601 text, UTC.
    created_at TEXT    NOT NULL
);

-- The variation's own moves, as `moves` keeps a game's.
CREATE TABLE variation_moves (
    variation_id INTEGER NOT NULL REFERENCES variations (id) ON DELETE CASCADE,
    -- 0-based among the variation's own moves, passes included.
    ply          INTEGER NOT NULL,
    -- Row-major square index; NULL for a pass.
    square       INTEGER,
    PRIMARY KEY (variation_id, ply)
) WITHOUT ROWID;

CREATE INDEX variations_by_game ON variations (game_id, id);
-- Deleting a variation looks up its children by parent.
CREATE INDEX variations_by_parent ON variations (parent_id);
