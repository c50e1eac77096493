//! The page in a real browser: starts `reversi serve` on a free port with a fresh database and
//! runs the Playwright script `e2e/run.mjs` in Debian's headless Chromium (installed, with the
//! script's packages, by `scripts/setup`). Screenshots go to `target/e2e-screenshots/`. The
//! restart test starts and kills servers of its own, so the script is told the binary.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Child;

use reversi_testkit::TestCommand;

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn e2e_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e")
}

#[test]
fn the_page_plays_replays_and_analyses_in_chromium() {
    let dir = e2e_dir();
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).exists(),
        "{chromium} not found: run scripts/setup (installs Debian's chromium)"
    );
    assert!(
        dir.join("node_modules/playwright-core").exists(),
        "{}/node_modules missing: run scripts/setup (npm ci there)",
        dir.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let mut child = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "serve",
            "--no-book",
            "--addr",
            "127.0.0.1:0",
            "--searches",
            "2",
            "--no-admin-token",
            "--db",
        ])
        .arg(tmp.path().join("games.sqlite3"))
        .spawn();
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut first = String::new();
    // Kept open while the server runs: it must be able to write.
    let mut reader = BufReader::new(stdout);
    reader.read_line(&mut first).unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in the server's first line: {first:?}"))
        .to_string();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    // Needs Node.js.
    let out = TestCommand::new("node")
        .arg("run.mjs")
        .current_dir(&dir)
        .env("REVERSI_URL", &url)
        .env("SCREENSHOT_DIR", &shots)
        .env("CHROMIUM", &chromium)
        .env("REVERSI_BIN", env!("CARGO_BIN_EXE_reversi"))
        .run();
    drop(server);
    drop(reader);
    println!("{}", out.stdout);
    assert!(out.success(), "browser tests failed: {out}");
}
