//! `reversi history import`: reads each file whole, then adds its games in one transaction.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, Context};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use reversi_core::{BoardSize, Position, Rules};
use reversi_formats::{ggf, transcript, wthor};
use reversi_game::convert;
use reversi_store::{ImportGame, Store};

/// The format of a file to import (`--format`): found from its name and first bytes by
/// default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFormat {
    Auto,
    Wthor,
    Ggf,
    Transcript,
}

/// Player and tournament names of a WTHOR folder, read once.
#[derive(Default)]
struct WthorNames {
    by_dir: HashMap<PathBuf, (Vec<String>, Vec<String>)>,
}

impl WthorNames {
    /// The names beside `file` (`WTH.JOU`, `WTH.TRN`, any case); empty lists if absent.
    fn beside(&mut self, file: &Path) -> anyhow::Result<&(Vec<String>, Vec<String>)> {
        let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        if !self.by_dir.contains_key(&dir) {
            let read = |ext: &str, record: usize| -> anyhow::Result<Vec<String>> {
                let Some(path) = find_ci(&dir, &format!("wth.{ext}")) else {
                    return Ok(Vec::new());
                };
                let bytes = std::fs::read(&path).with_context(|| format!("{}", path.display()))?;
                wthor::parse_names(&bytes, record).with_context(|| format!("{}", path.display()))
            };
            let names = (
                read("jou", wthor::PLAYER_RECORD)?,
                read("trn", wthor::TOURNAMENT_RECORD)?,
            );
            self.by_dir.insert(dir.clone(), names);
        }
        self.by_dir
            .get(&dir)
            .ok_or_else(|| anyhow!("names of {} not loaded", dir.display()))
    }
}

/// The file in `dir` named `name`, ignoring case.
fn find_ci(dir: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name))
        .map(|e| e.path())
}

fn detect(path: &Path, bytes: &[u8], format: ImportFormat) -> ImportFormat {
    if format != ImportFormat::Auto {
        return format;
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("wtb") => ImportFormat::Wthor,
        Some("ggf") => ImportFormat::Ggf,
        _ if bytes
            .strip_prefix(b"\xef\xbb\xbf")
            .unwrap_or(bytes)
            .trim_ascii_start()
            .starts_with(b"(;") =>
        {
            ImportFormat::Ggf
        }
        _ => ImportFormat::Transcript,
    }
}

/// Reads a whole file into games to import; the error names the line or record and why.
fn read_games(
    path: &Path,
    format: ImportFormat,
    start: &Position,
    names: &mut WthorNames,
) -> anyhow::Result<Vec<ImportGame>> {
    let bytes = std::fs::read(path).context("cannot read it")?;
    let source = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let text = || {
        std::str::from_utf8(&bytes)
            .map(|t| t.strip_prefix('\u{feff}').unwrap_or(t))
            .context("not UTF-8 text")
    };
    match detect(path, &bytes, format) {
        ImportFormat::Wthor => {
            let db = wthor::parse_wtb(&bytes)?;
            let (players, tournaments) = names.beside(path)?;
            db.games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    convert::from_wthor(g, db.header.year, players, tournaments, &source)
                        .map_err(|e| anyhow!("game {} move {} ({})", i + 1, e.ply + 1, e.text))
                })
                .collect()
        }
        ImportFormat::Ggf => {
            let games = ggf::parse_ggf(text()?)?;
            games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let game = g
                        .game()
                        .map_err(|(ply, e)| anyhow!("game {} move {}: {e}", i + 1, ply + 1))?;
                    Ok(convert::from_ggf(g, &game, &source))
                })
                .collect()
        }
        ImportFormat::Transcript | ImportFormat::Auto => {
            let games = transcript::parse_transcript_file(text()?, start)?;
            Ok(games
                .iter()
                .map(|t| convert::from_transcript(t, &source))
                .collect())
        }
    }
}

fn progress_bar(total_bytes: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total_bytes);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

pub fn run(
    store: &mut Store,
    files: &[PathBuf],
    format: ImportFormat,
    size: BoardSize,
    rules: Rules,
) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let start = Position::start(size, rules);
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .collect();
    let bar = progress_bar(sizes.iter().sum());
    let mut names = WthorNames::default();
    let (mut added, mut skipped, mut failed) = (0usize, 0usize, 0usize);
    let mut done_bytes = 0u64;
    for (path, &len) in files.iter().zip(&sizes) {
        let name = path.display().to_string();
        bar.set_message(
            path.file_name()
                .map_or(name.clone(), |n| n.to_string_lossy().into_owned()),
        );
        let result = read_games(path, format, &start, &mut names).and_then(|games| {
            let count = games.len().max(1) as u64;
            let report = store.import_games(&games, &mut |n| {
                bar.set_position(done_bytes + len * n as u64 / count);
            })?;
            Ok((games.len(), report))
        });
        done_bytes += len;
        bar.set_position(done_bytes);
        match result {
            Ok((_, report)) => {
                added += report.added;
                skipped += report.skipped;
                bar.suspend(|| {
                    outln!(
                        "{name}: {} added, {} skipped as duplicates",
                        report.added,
                        report.skipped
                    )
                })?;
            }
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("reversi: {name}: {e:#}; nothing imported from it"));
            }
        }
    }
    bar.finish_and_clear();
    if files.len() > 1 {
        outln!(
            "total: {added} added, {skipped} skipped as duplicates, {failed} file{} rejected, in {:.1} s",
            if failed == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64()
        )?;
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
