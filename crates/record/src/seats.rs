//! Who holds a game in progress: the web server's seats and the process writing a game.

use reversi_core::Color;

/// The seats of a game played through the web server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSeats {
    /// The creator's token: it moves for every human side but the guest's.
    pub owner_token: String,
    /// The side a second person plays from another browser.
    pub remote: Option<Color>,
    /// That person's token, once they joined.
    pub guest_token: Option<String>,
    /// The code in the link a guest joins with.
    pub join_code: Option<String>,
    /// The side that resigned, once one did (the history has the game as abandoned).
    pub resigned: Option<Color>,
}

/// A process that writes games: how it names itself, and where it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writer {
    /// What it is, for the message another writer gets (`reversi serve`).
    pub name: String,
    /// The machine's name.
    pub host: String,
    /// The process id.
    pub pid: u32,
}

impl Writer {
    /// This process, named `name`.
    #[must_use]
    pub fn this_process(name: &str) -> Writer {
        Writer {
            name: name.to_string(),
            host: this_host(),
            pid: std::process::id(),
        }
    }

    /// How another writer is told who holds a game: `reversi serve (pid 12 on host)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("{} (pid {} on {})", self.name, self.pid, self.host)
    }
}

/// The machine's name ("" when it cannot be read: leases are then judged by expiry only).
fn this_host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}
