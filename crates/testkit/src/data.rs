//! Where the tests find the shared data: the WTHOR database, the FFO endgame suite, the XOT
//! openings and the perft counts.

use std::path::{Path, PathBuf};

/// The shared data folder: `$REVERSI_DATA` if set, else `../shared/data` beside the workspace.
///
/// The default does not depend on the crate or the directory a test runs from: it is found
/// from this crate's own place in the workspace.
#[must_use]
pub fn data_dir() -> PathBuf {
    std::env::var_os("REVERSI_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    )
}

/// The path of `relative` (such as `"obf/fforum-1-19.obf"`) in the [`data_dir`].
///
/// # Panics
///
/// If there is no such file or folder, with a message naming the path and how to provide the
/// data, rather than a bare "No such file or directory" where the test reads it.
#[must_use]
#[track_caller]
pub fn data_file(relative: impl AsRef<Path>) -> PathBuf {
    let path = data_dir().join(relative);
    assert!(
        path.exists(),
        "shared test data missing: {} (set REVERSI_DATA, or put the data in ../shared/data \
         beside the workspace)",
        path.display()
    );
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_folder_is_beside_the_workspace() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert!(workspace.join("Cargo.lock").exists());
        if std::env::var_os("REVERSI_DATA").is_none() {
            assert_eq!(data_dir(), workspace.join("../shared/data"));
        }
    }

    #[test]
    #[should_panic(expected = "shared test data missing")]
    fn a_missing_file_is_named() {
        let _ = data_file("no-such-file.txt");
    }
}
