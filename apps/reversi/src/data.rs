//! Where the program keeps and finds its files: the user's data folder (the game database by
//! default) and the reference data (the WTHOR games, the FFO positions, the XOT openings) a
//! command reads when it is not given a file, never a path relative to the working folder.
//! The libraries read no environment: the program finds these paths and hands them down.

use std::ffi::OsString;
use std::path::PathBuf;

/// The user's data folder: `$XDG_DATA_HOME/reversi`, or `~/.local/share/reversi` when
/// `XDG_DATA_HOME` is unset or not absolute (as the XDG spec says to treat it); `None` when
/// neither it nor `HOME` is set.
pub fn user_data() -> Option<PathBuf> {
    user_data_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

fn user_data_from(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let xdg = xdg_data_home.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = xdg.or_else(|| {
        home.filter(|h| !h.is_empty())
            .map(|h| PathBuf::from(h).join(".local/share"))
    })?;
    Some(base.join("reversi"))
}

/// The game database by default: `games.sqlite3` in the [`user_data`] folder.
pub fn default_db() -> Option<PathBuf> {
    user_data().map(|d| d.join("games.sqlite3"))
}

/// The reference data folder: the one named by `REVERSI_DATA`; else the `data/reference`
/// folder of the clone the program was built from, if it is still there (a path compiled
/// in); else `reference` in the [`user_data`] folder, where an installed program's data goes.
pub fn shared_data() -> PathBuf {
    if let Some(dir) = std::env::var_os("REVERSI_DATA") {
        return PathBuf::from(dir);
    }
    let clone = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/reference"));
    if clone.is_dir() {
        return clone;
    }
    user_data().map_or_else(
        || PathBuf::from("/usr/local/share/reversi/reference"),
        |d| d.join("reference"),
    )
}

/// The XOT openings file (`xot-large.txt`) in the reference data.
pub fn xot_openings() -> PathBuf {
    shared_data().join("xot-large.txt")
}

/// The person's name in the history: the login name, or `human`.
pub fn login_name() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .ok()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "human".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_then_home() {
        let p = |x: Option<&str>, h: Option<&str>| {
            user_data_from(x.map(OsString::from), h.map(OsString::from))
        };
        assert_eq!(
            p(Some("/x"), Some("/home/a")),
            Some(PathBuf::from("/x/reversi"))
        );
        assert_eq!(
            p(Some("rel"), Some("/home/a")),
            Some(PathBuf::from("/home/a/.local/share/reversi"))
        );
        assert_eq!(
            p(None, Some("/home/a")),
            Some(PathBuf::from("/home/a/.local/share/reversi"))
        );
        assert_eq!(p(None, None), None);
    }

    #[test]
    fn the_clone_s_reference_data_is_found() {
        if std::env::var_os("REVERSI_DATA").is_none() {
            assert!(shared_data().join("xot-large.txt").is_file());
        }
    }
}
