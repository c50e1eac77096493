//! What the store's integration tests share: a database as an older program left it.

use std::path::Path;

/// Writes at `path` a database of schema version 2 (games and clocks, as the program of that
/// version made it), then runs `rows` (SQL inserting its games and moves) in it.
#[allow(clippy::unwrap_used)]
pub fn version_2_database(path: &Path, rows: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(include_str!("../../migrations/0001_games.sql"))
        .unwrap();
    conn.execute_batch(include_str!("../../migrations/0002_clocks.sql"))
        .unwrap();
    conn.execute_batch("PRAGMA application_id = 1381388883; PRAGMA user_version = 2;")
        .unwrap();
    conn.execute_batch(rows).unwrap();
}
