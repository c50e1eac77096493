//! Where a command's game or replay runs — the full-screen terminal UI when standard input and
//! output are terminals, plain text otherwise — and which history database commands use.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use reversi_game::{Replay, Session};
use reversi_store::StoreLog;

use crate::{plain, tui};

/// Whether both standard input and output are terminals.
pub fn is_interactive() -> bool {
    io::stdin().is_terminal() && io::stdout().is_terminal()
}

/// The database to use: `--db`, else `$REVERSI_DB`, else the default path.
pub fn db_path(explicit: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    explicit
        .or_else(|| {
            std::env::var_os("REVERSI_DB")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .or_else(crate::data::default_db)
        .context("no game database: pass --db PATH or set REVERSI_DB (HOME is not set)")
}

/// The database and the log games are saved to: the database is read by the UI's history
/// screen even with `no_save`. Without any database path, games are played unsaved after a
/// warning.
pub fn history(db: Option<PathBuf>, no_save: bool) -> tui::History {
    match db_path(db) {
        Ok(path) => tui::History {
            log: (!no_save).then(|| {
                StoreLog::at(&path)
                    .with_person(&crate::data::login_name())
                    .into_handle()
            }),
            db: Some(path),
        },
        Err(e) => {
            if !no_save {
                eprintln!("warning: {e:#}; the game will not be saved");
            }
            tui::History {
                db: None,
                log: None,
            }
        }
    }
}

/// Plays `session`, a new game or one resumed, in plain text or in the terminal UI.
pub fn play_session(
    mut session: Session,
    plain: bool,
    history: tui::History,
) -> anyhow::Result<ExitCode> {
    if plain || !is_interactive() {
        let mut input = io::stdin().lock();
        let mut out = io::stdout().lock();
        let echo = !io::stdin().is_terminal();
        plain::run_session(&mut session, &mut input, &mut out, echo)?;
        saved_note(&session);
    } else {
        tui::run(tui::Start::Session(Box::new(session)), history)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Says on standard error where the game was saved, when it was.
fn saved_note(session: &Session) {
    let Some(id) = session.log_id() else { return };
    if let Some(e) = session.save_error() {
        eprintln!("Game {id} in the history lacks the last moves: {e}");
    } else if session.is_over() {
        eprintln!("Saved as game {id}; `reversi history replay {id}` replays it.");
    } else {
        eprintln!("Saved as game {id}; `reversi history resume {id}` continues it.");
    }
}

/// Steps through `replay` in the terminal UI, or prints it move by move in plain text; `db`
/// is the database it came from.
pub fn replay(replay: Replay, plain: bool, db: PathBuf) -> anyhow::Result<ExitCode> {
    if plain || !is_interactive() {
        let mut out = io::stdout().lock();
        plain::print_replay(&replay, &mut out)?;
        out.flush()?;
    } else {
        tui::run(
            tui::Start::Replay(Box::new(replay)),
            tui::History {
                db: Some(db),
                log: None,
            },
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
