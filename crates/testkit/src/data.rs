//! Where the tests find the reference data: the WTHOR database, the FFO endgame suite, the XOT
//! openings and the perft counts, kept in the repository's `data/reference`.

use std::path::{Path, PathBuf};

/// The reference data folder, `data/reference` in the workspace.
///
/// It is found from this crate's own place in the workspace, so it does not depend on the
/// crate or the directory a test runs from, nor on anything beside the clone.
#[must_use]
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/reference")
}

/// The path of `relative` (such as `"obf/fforum-1-19.obf"`) in the [`data_dir`].
///
/// # Panics
///
/// If there is no such file or folder, with a message naming the path, rather than a bare
/// "No such file or directory" where the test reads it.
#[must_use]
#[track_caller]
pub fn data_file(relative: impl AsRef<Path>) -> PathBuf {
    let path = data_dir().join(relative);
    assert!(
        path.exists(),
        "reference data missing: {} (data/reference/README.md lists what belongs there)",
        path.display()
    );
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_in_the_workspace() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert!(workspace.join("Cargo.lock").exists());
        assert!(data_dir().join("README.md").exists());
        assert!(data_dir().starts_with(&workspace));
    }

    #[test]
    #[should_panic(expected = "reference data missing")]
    fn a_missing_file_is_named() {
        let _ = data_file("no-such-file.txt");
    }
}
