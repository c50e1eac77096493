-- Who holds a game in progress. Applied in one transaction; PRAGMA user_version then becomes 3.
-- Databases from before have no rows: their games have no web seats and no writer.

-- The seats of a game played through the web server: the tokens that may move for each side
-- and the code a guest joins with, so that the game can be reopened after a restart.
CREATE TABLE web_seats (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    owner_token TEXT NOT NULL,
    -- The side a second person plays ('black' or 'white'), its token once joined, and the
    -- code in the link that lets them join.
    remote      TEXT CHECK (remote IN ('black', 'white')),
    guest_token TEXT,
    join_code   TEXT,
    -- The side that resigned: the game is abandoned in `games`, and this keeps who gave it
    -- up, for the page that shows the game again.
    resigned    TEXT CHECK (resigned IN ('black', 'white'))
);

-- The one process writing a game in progress (the web server, or `reversi history resume`).
-- A lease past its expiry, or held by a process of this machine that is no longer running, is
-- free for the next writer.
CREATE TABLE leases (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    holder     TEXT    NOT NULL,
    host       TEXT    NOT NULL,
    pid        INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
