//! Where the shared data is (the WTHOR games, the FFO positions, the XOT openings): the
//! folder named by `REVERSI_DATA`, or `../shared/data` beside the project.

use std::path::PathBuf;

/// `$REVERSI_DATA`, or `../shared/data`.
pub fn shared_data() -> PathBuf {
    std::env::var_os("REVERSI_DATA").map_or_else(|| PathBuf::from("../shared/data"), PathBuf::from)
}

/// The XOT openings file (`xot-large.txt`) in the shared data.
pub fn xot_openings() -> PathBuf {
    shared_data().join("xot-large.txt")
}
