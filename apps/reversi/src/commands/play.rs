//! `reversi play` and `reversi` alone: a game in the terminal UI, or in plain text when asked
//! or when standard input or output is not a terminal; saved to the history unless told not.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::cli::PlayArgs;
use crate::commands::history::db_path;
use crate::session::{Session, Settings};
use crate::store_log::StoreLog;
use crate::{plain, tui};

/// Whether both standard input and output are terminals.
pub fn is_interactive() -> bool {
    io::stdin().is_terminal() && io::stdout().is_terminal()
}

pub(crate) fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// The database and the log games are saved to: the database is read by the UI's history
/// screen even with `no_save`. Without any database path, games are played unsaved after a
/// warning.
fn history(db: Option<PathBuf>, no_save: bool) -> tui::History {
    match db_path(db) {
        Ok(path) => tui::History {
            log: (!no_save).then(|| StoreLog::handle(&path)),
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

pub fn run(args: PlayArgs, menu_db: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        size: args.size,
        rules: args.rules,
        black: args.black,
        white: args.white,
        seed: args.seed.unwrap_or_else(clock_seed),
    };
    let history = history(args.db.or(menu_db), args.no_save);
    let session = Session::with_log(settings, history.log.clone());
    play_session(session, args.plain, history)
}

/// Plays `session`, a new game or one resumed, in plain text or in the terminal UI.
pub(crate) fn play_session(
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

/// The main menu.
pub fn menu(db: Option<PathBuf>, no_save: bool) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        seed: clock_seed(),
        ..Settings::default()
    };
    tui::run(tui::Start::Menu(settings), history(db, no_save))?;
    Ok(ExitCode::SUCCESS)
}
