//! Timestamps as the database stores them: ISO 8601 text in UTC, without a date library.

use std::time::{SystemTime, UNIX_EPOCH};

use reversi_record::format_utc;

/// The time now, as `2026-11-22T17:43:37Z`.
#[must_use]
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_is_this_century() {
        assert!(now_utc().starts_with("20"));
    }
}
