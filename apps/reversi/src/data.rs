//! Where the program finds the reference data (the WTHOR games, the FFO positions, the XOT
//! openings) when a command is not given a file: never a path relative to the working folder.
//!
//! In order: the folder named by `REVERSI_DATA`; the `data/reference` folder of the clone the
//! program was built from, if it is still there (a path compiled in); the user's data folder,
//! `$XDG_DATA_HOME/reversi` or `~/.local/share/reversi`, where an installed program's data goes.

use std::path::PathBuf;

/// The reference data folder (see the module's documentation for the order it is looked for).
pub fn shared_data() -> PathBuf {
    if let Some(dir) = std::env::var_os("REVERSI_DATA") {
        return PathBuf::from(dir);
    }
    let clone = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/reference"));
    if clone.is_dir() {
        return clone;
    }
    user_data()
}

/// `$XDG_DATA_HOME/reversi`, or `$HOME/.local/share/reversi`, or `/usr/local/share/reversi`
/// if neither variable is set.
fn user_data() -> PathBuf {
    let xdg = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty());
    match (xdg, std::env::var_os("HOME")) {
        (Some(dir), _) => PathBuf::from(dir).join("reversi"),
        (None, Some(home)) => PathBuf::from(home).join(".local/share/reversi"),
        (None, None) => PathBuf::from("/usr/local/share/reversi"),
    }
}

/// The XOT openings file (`xot-large.txt`) in the reference data.
pub fn xot_openings() -> PathBuf {
    shared_data().join("xot-large.txt")
}
