//! Option values several commands share, checked when the command line is read: search
//! thread counts, transposition-table sizes and levels, refused with a message naming the bad value
//! rather than failing later (an allocation abort, a silent change to one thread).

use reversi_engine::engine::default_threads;
use reversi_engine::levels::Level;

/// `--threads N`: from 1 to the number of cores this machine has.
///
/// # Errors
/// Not a number, 0, or more threads than the machine runs at once.
pub fn threads(text: &str) -> Result<usize, String> {
    let cores = default_threads();
    match text.trim().parse::<usize>() {
        Ok(0) => Err(format!("0 threads cannot search; give 1 to {cores}")),
        Ok(n) if n > cores => Err(format!(
            "{n} threads, but this machine runs {cores} at once; give 1 to {cores}"
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is not a thread count; give 1 to {cores}")),
    }
}

/// `--hash-mb M`: a table of at least 1 MB and at most half the machine's memory (the rest
/// is left to the program and the system).
///
/// # Errors
/// Not a number, 0, or more than half the memory.
pub fn hash_mb(text: &str) -> Result<usize, String> {
    let limit = memory_mb().map_or(1 << 20, |mb| (mb / 2).max(1));
    match text.trim().parse::<usize>() {
        Ok(0) => Err(format!("a 0 MB table cannot be made; give 1 to {limit}")),
        Ok(mb) if mb > limit => Err(format!(
            "{mb} MB is more than half of this machine's memory; give 1 to {limit}"
        )),
        Ok(mb) => Ok(mb),
        Err(_) => Err(format!("{text:?} is not a size in MB; give 1 to {limit}")),
    }
}

/// `--level L`: a level by number (1 to 60) or name (`hard`).
///
/// # Errors
/// Neither a level number nor a level name.
pub fn level(text: &str) -> Result<Level, String> {
    Level::parse(text).ok_or_else(|| {
        format!(
            "{text:?} is not a level; give {} to {} or a name (`reversi levels` lists them)",
            Level::MIN,
            Level::MAX
        )
    })
}

/// The machine's memory in MB, where the system says (Linux's `/proc/meminfo`).
fn memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_checked() {
        assert_eq!(threads("1"), Ok(1));
        assert!(threads("0").unwrap_err().contains("0 threads"));
        assert!(threads("many").unwrap_err().contains("not a thread count"));
        let too_many = (default_threads() + 1).to_string();
        assert!(threads(&too_many).unwrap_err().contains("runs"));
    }

    #[test]
    fn table_sizes_are_checked() {
        assert_eq!(hash_mb("1"), Ok(1));
        assert!(hash_mb("0").unwrap_err().contains("0 MB"));
        assert!(hash_mb("-5").unwrap_err().contains("not a size"));
        let absurd = usize::MAX.to_string();
        assert!(hash_mb(&absurd).is_err());
    }
}
