//! Opening the database file: telling ours from anything else, and the numbered migrations
//! that bring it to the current schema (the version kept in `PRAGMA user_version`).

use std::io::Read;
use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::StoreError;

/// `PRAGMA application_id` of our databases: "RVRS".
const APPLICATION_ID: i64 = 0x5256_5253;

/// One step of the schema: its SQL, then what SQL alone cannot do (filling a new table from
/// the games with the rules' help), in the same transaction.
struct Migration {
    sql: &'static str,
    then: Option<fn(&Connection) -> rusqlite::Result<()>>,
}

const fn sql(sql: &'static str) -> Migration {
    Migration { sql, then: None }
}

/// The migrations, in order; migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[Migration] = &[
    sql(include_str!("../migrations/0001_games.sql")),
    sql(include_str!("../migrations/0002_clocks.sql")),
    sql(include_str!("../migrations/0003_holders.sql")),
    sql(include_str!("../migrations/0004_variations.sql")),
    Migration {
        sql: include_str!("../migrations/0005_explorer.sql"),
        then: Some(crate::explorer::index::rebuild),
    },
];

/// The schema version this program writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

fn sqlite_err(path: &Path) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |source| StoreError::Database {
        path: path.to_path_buf(),
        source: Box::new(source),
    }
}

/// What an existing database holds.
enum Kind {
    /// No tables yet: ours to set up.
    Empty,
    Ours {
        version: i64,
    },
    Foreign {
        tables: Vec<String>,
    },
}

fn inspect(conn: &Connection, path: &Path) -> Result<Kind, StoreError> {
    let err = sqlite_err(path);
    let app: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(&err)?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(&err)?;
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .map_err(&err)?;
    let tables = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(&err)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(&err)?;
    Ok(if app == APPLICATION_ID && version > 0 {
        Kind::Ours { version }
    } else if tables.is_empty() && version == 0 && (app == 0 || app == APPLICATION_ID) {
        Kind::Empty
    } else {
        Kind::Foreign { tables }
    })
}

/// Refuses anything but an SQLite file of ours (or an empty one), before anything is written.
fn check_existing(path: &Path) -> Result<(), StoreError> {
    let io = |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut head = Vec::with_capacity(16);
    std::fs::File::open(path)
        .map_err(io)?
        .take(16)
        .read_to_end(&mut head)
        .map_err(io)?;
    if head.is_empty() {
        return Ok(());
    }
    if head.as_slice() != SQLITE_MAGIC {
        return Err(StoreError::NotADatabase {
            path: path.to_path_buf(),
        });
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sqlite_err(path))?;
    match inspect(&conn, path)? {
        Kind::Empty => Ok(()),
        Kind::Ours { version } if version <= SCHEMA_VERSION => Ok(()),
        Kind::Ours { version } => Err(StoreError::TooNew {
            path: path.to_path_buf(),
            version,
            known: SCHEMA_VERSION,
        }),
        Kind::Foreign { tables } => Err(StoreError::Foreign {
            path: path.to_path_buf(),
            tables,
        }),
    }
}

/// Opens (creating if missing) the database at `path` and brings its schema up to date.
pub(crate) fn open(path: &Path) -> Result<Connection, StoreError> {
    if path.exists() {
        check_existing(path)?;
    } else if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let mut conn = Connection::open(path).map_err(sqlite_err(path))?;
    configure(&conn, path, true)?;
    migrate(&mut conn, path)?;
    Ok(conn)
}

/// An in-memory database, for tests and dry runs.
pub(crate) fn open_in_memory() -> Result<Connection, StoreError> {
    let path = Path::new(":memory:");
    let mut conn = Connection::open_in_memory().map_err(sqlite_err(path))?;
    configure(&conn, path, false)?;
    migrate(&mut conn, path)?;
    Ok(conn)
}

fn configure(conn: &Connection, path: &Path, wal: bool) -> Result<(), StoreError> {
    let err = sqlite_err(path);
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(&err)?;
    if wal {
        // WAL lets a reader (`history list`) run while a game is being written. With
        // synchronous=FULL every committed move is on disk before append_move returns.
        // Where WAL is unavailable (some network file systems) SQLite keeps its rollback
        // journal, which is just as durable; the answer is not an error.
        let _mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(&err)?;
    }
    // A 64 MiB page cache keeps a large import from spilling into the WAL mid-transaction.
    conn.execute_batch(
        "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536;",
    )
    .map_err(&err)?;
    Ok(())
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let err = sqlite_err(path);
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(&err)?;
    // Checked again inside the write lock: another process may have opened it meanwhile.
    let version = match inspect(&tx, path)? {
        Kind::Empty => 0,
        Kind::Ours { version } if version <= SCHEMA_VERSION => version,
        Kind::Ours { version } => {
            return Err(StoreError::TooNew {
                path: path.to_path_buf(),
                version,
                known: SCHEMA_VERSION,
            })
        }
        Kind::Foreign { tables } => {
            return Err(StoreError::Foreign {
                path: path.to_path_buf(),
                tables,
            })
        }
    };
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    for m in &MIGRATIONS[version as usize..] {
        tx.execute_batch(m.sql).map_err(&err)?;
        if let Some(then) = m.then {
            then(&tx).map_err(&err)?;
        }
    }
    tx.execute_batch(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
    ))
    .map_err(&err)?;
    tx.commit().map_err(&err)
}
