//! Where the game database lives by default.

use std::ffi::OsString;
use std::path::PathBuf;

/// `$XDG_DATA_HOME/reversi/games.sqlite3`, or `~/.local/share/reversi/games.sqlite3` when
/// `XDG_DATA_HOME` is unset or not absolute (as the XDG spec says to treat it); `None` when
/// neither it nor `HOME` is set.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    path_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

fn path_from(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let xdg = xdg_data_home.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = xdg.or_else(|| {
        home.filter(|h| !h.is_empty())
            .map(|h| PathBuf::from(h).join(".local/share"))
    })?;
    Some(base.join("reversi").join("games.sqlite3"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_then_home() {
        let p = |x: Option<&str>, h: Option<&str>| {
            path_from(x.map(OsString::from), h.map(OsString::from))
        };
        assert_eq!(
            p(Some("/x"), Some("/home/a")),
            Some(PathBuf::from("/x/reversi/games.sqlite3"))
        );
        assert_eq!(
            p(Some("rel"), Some("/home/a")),
            Some(PathBuf::from("/home/a/.local/share/reversi/games.sqlite3"))
        );
        assert_eq!(
            p(None, Some("/home/a")),
            Some(PathBuf::from("/home/a/.local/share/reversi/games.sqlite3"))
        );
        assert_eq!(p(None, None), None);
    }
}
