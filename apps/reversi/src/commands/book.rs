//! `reversi book`: build, grow, merge, show, measure, export and import the opening book (as
//! text or as Edax's book).

mod show;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use reversi_engine::book::build::{self, Progress, SearchOptions};
use reversi_engine::book::edax::{EdaxBook, EdaxDate};
use reversi_engine::book::Book;
use reversi_engine::shard::Shard;
use reversi_engine::Sq;
use reversi_formats::wthor;

/// `reversi book` options.
#[derive(Debug, Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub what: BookCommand,
}

/// How positions are searched, shared by the commands that search.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// Midgame search depth of each position (exact when the empties allow).
    #[arg(long, default_value_t = 14)]
    depth: u8,
    /// Probcut selectivity of that search in %: 73, 87, 95, 98, 99 or 100 (full width).
    #[arg(long, default_value_t = 73, value_parser = parse_selectivity)]
    selectivity: u8,
    /// Solve positions with this many empty squares or fewer exactly.
    #[arg(long, default_value_t = 20)]
    exact_empties: u8,
    /// Positions searched at once, one thread each (the book does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    threads: usize,
    /// Search only shard K of N (0 <= K < N; positions split by a hash of their key): N runs,
    /// on one machine or many, merged with `book merge`, make the book one run makes.
    #[arg(long)]
    shard: Option<Shard>,
    /// Save the book this often while searching, in seconds (a stopped run resumes there).
    #[arg(long, default_value_t = 30)]
    save_every: u64,
}

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Build a book from the WTHOR games: every position reached at least --min-games times
    /// within --max-ply moves, each searched for its best move out of the book. Resumes when
    /// OUT exists.
    Build {
        /// The book file to write (and resume).
        #[arg(long)]
        out: PathBuf,
        /// Folder of WTH_YYYY.wtb files [default: the reference data's wthor/]
        #[arg(long)]
        wthor: Option<PathBuf>,
        /// Positions reached by at least this many games.
        #[arg(long, default_value_t = 20)]
        min_games: u32,
        /// Positions at most this many moves from the start.
        #[arg(long, default_value_t = 24)]
        max_ply: usize,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Search the book's positions again, deeper: those searched shallower than --depth.
    Deepen {
        /// The book file (rewritten, or written to --out).
        #[arg(value_name = "BOOK")]
        file: PathBuf,
        /// Write the result here instead.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Add the engine's own best lines: the positions after the best moves out of the book
    /// (the most played first), searched; their parents are searched again for their next
    /// move out of the book.
    Extend {
        /// The book file (rewritten, or written to --out).
        #[arg(value_name = "BOOK")]
        file: PathBuf,
        /// Write the result here instead.
        #[arg(long)]
        out: Option<PathBuf>,
        /// How many positions to add.
        #[arg(long, default_value_t = 100)]
        positions: usize,
        /// Follow moves out of the book within this many discs of the position's value.
        #[arg(long, default_value_t = 0)]
        margin: i32,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Add games to the book (transcripts, one a line, from the standard start), up to
    /// --max-ply moves, and search the new positions.
    Learn {
        /// The book file (rewritten, or written to --out).
        #[arg(value_name = "BOOK")]
        file: PathBuf,
        /// Files of transcripts.
        games: Vec<PathBuf>,
        /// Write the result here instead.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Learn positions at most this many moves from the start.
        #[arg(long, default_value_t = 30)]
        max_ply: usize,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Merge books (the shards of one build, or books grown apart) into one.
    Merge {
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        /// The books to merge.
        #[arg(required = true)]
        books: Vec<PathBuf>,
    },
    /// Each book move of a position with its value, depth and games, and the opening's name.
    Show {
        /// An 8x8 position: a transcript from the start (`f5d6c3`), a board (64 squares a1..h8,
        /// `X`/`*` black, `O` white, `-` empty) and the side to move, an OBF line or a GGF
        /// game, as `reversi analyze` reads them. Default: the start.
        position: Vec<String>,
        /// The book to read [default: the one --book names, else the shipped one]
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Sets the book's values beside fresh, deeper searches of a sample of its positions: the
    /// mean and largest differences.
    Check {
        /// The book to read [default: the one --book names, else the shipped one]
        #[arg(long)]
        file: Option<PathBuf>,
        /// Positions to search, spread evenly through the book.
        #[arg(long, default_value_t = 50)]
        positions: usize,
        /// Depth of the fresh searches.
        #[arg(long, default_value_t = 20)]
        depth: u8,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
        threads: usize,
    },
    /// How many positions the book holds, by ply and by depth, and its size.
    Stats {
        /// The book to read [default: the one --book names, else the shipped one]
        file: Option<PathBuf>,
    },
    /// Write the book as text, one position a line, or as Edax's book.
    Export {
        /// The book to read [default: the one --book names, else the shipped one]
        file: Option<PathBuf>,
        /// The file to write [default: standard output, for text]
        #[arg(long)]
        out: Option<PathBuf>,
        /// The format to write: text (one position a line) or edax (Edax 4's book.dat).
        #[arg(long, value_enum, default_value_t = BookFormat::Text)]
        format: BookFormat,
    },
    /// Read a book from text (as `book export` writes it) or from Edax's book into a book file.
    Import {
        /// The file to read.
        #[arg(value_name = "FILE")]
        input: PathBuf,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        /// The format of FILE: text (as `book export` writes it) or edax (Edax 4's book.dat).
        #[arg(long, value_enum, default_value_t = BookFormat::Text)]
        format: BookFormat,
    },
}

/// The formats `book export` writes and `book import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BookFormat {
    /// This program's text form, one position a line.
    Text,
    /// Edax 4's binary book (`book.dat`).
    Edax,
}

/// A selectivity in % as an index of the probcut table.
fn parse_selectivity(text: &str) -> Result<u8, String> {
    use reversi_engine::search::probcut::SELECTIVITY_PERCENT;
    let p: u8 = text
        .trim()
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("{text:?} is not a selectivity in %"))?;
    SELECTIVITY_PERCENT
        .iter()
        .position(|&s| s == p)
        .map(|i| i as u8)
        .ok_or_else(|| format!("selectivity {p}% is not one of 73, 87, 95, 98, 99, 100"))
}

/// Reads a book file, naming it in the error.
pub fn load(path: &Path) -> anyhow::Result<Book> {
    let bytes = fs::read(path).with_context(|| format!("reading the book {}", path.display()))?;
    Book::from_bytes(&bytes).with_context(|| format!("reading the book {}", path.display()))
}

/// Writes a book file whole or not at all (a temporary file renamed over it).
pub fn save(book: &Book, path: &Path) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, book.to_bytes()).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// The book of `file`, else the process's (`--book`, or the shipped one).
fn chosen(file: Option<&Path>) -> anyhow::Result<Arc<Book>> {
    match file {
        Some(path) => Ok(Arc::new(load(path)?)),
        None => crate::advisor::book().context("no book: --no-book was given"),
    }
}

pub fn run(args: BookArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        BookCommand::Build {
            out,
            wthor,
            min_games,
            max_ply,
            search,
        } => {
            let mut book = if out.exists() {
                let book = load(&out)?;
                eprintln!("resuming {} ({} positions)", out.display(), book.len());
                book
            } else {
                let dir = wthor.unwrap_or_else(|| crate::data::shared_data().join("wthor"));
                let started = Instant::now();
                let games = wthor_games(&dir)?;
                let book = build::from_games(games.iter().map(Vec::as_slice), max_ply, min_games);
                eprintln!(
                    "{} positions reached by at least {min_games} of {} games within {max_ply} \
                     moves ({:.1} s)",
                    book.len(),
                    games.len(),
                    started.elapsed().as_secs_f64()
                );
                book
            };
            search_pending(&mut book, &search, &out)?;
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Deepen {
            file: book,
            out,
            search,
        } => {
            let mut b = load(&book)?;
            search_pending(&mut b, &search, out.as_deref().unwrap_or(&book))?;
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Extend {
            file: book,
            out,
            positions,
            margin,
            search,
        } => {
            let mut b = load(&book)?;
            let added = build::extend(&mut b, positions, margin);
            eprintln!("{added} positions added along the best lines");
            search_pending(&mut b, &search, out.as_deref().unwrap_or(&book))?;
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Learn {
            file: book,
            games,
            out,
            max_ply,
            search,
        } => {
            let mut b = if book.exists() {
                load(&book)?
            } else {
                Book::new()
            };
            let mut new = 0;
            let mut count = 0;
            for path in &games {
                let text = fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let moves = show::transcript_squares(line)
                        .with_context(|| format!("{} line {}: {line:?}", path.display(), i + 1))?;
                    new += build::learn(&mut b, &moves, max_ply);
                    count += 1;
                }
            }
            eprintln!("{count} games learned, {new} new positions");
            search_pending(&mut b, &search, out.as_deref().unwrap_or(&book))?;
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Merge { out, books } => {
            let mut merged = Book::new();
            for path in &books {
                merged.merge(&load(path)?);
            }
            save(&merged, &out)?;
            eprintln!(
                "{} books merged into {} ({} positions)",
                books.len(),
                out.display(),
                merged.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Show { position, file } => {
            let book = chosen(file.as_deref())?;
            show::show(&book, &position.join(" "))
        }
        BookCommand::Check {
            file,
            positions,
            depth,
            threads,
        } => {
            let book = chosen(file.as_deref())?;
            let opts = SearchOptions::new(depth, threads);
            let stop = AtomicBool::new(false);
            let mut last = Instant::now();
            let checked = build::check(&book, positions, opts, &stop, &mut |p| {
                if last.elapsed() >= Duration::from_secs(5) {
                    last = Instant::now();
                    eprintln!("{}", progress_line(p));
                }
            });
            show::checked(&checked, depth)
        }
        BookCommand::Stats { file } => {
            let book = chosen(file.as_deref())?;
            let size = match &file {
                Some(p) => fs::metadata(p).map(|m| m.len()).unwrap_or(0),
                None => book.to_bytes().len() as u64,
            };
            show::stats(&book, size)
        }
        BookCommand::Export { file, out, format } => {
            let book = chosen(file.as_deref())?;
            match format {
                BookFormat::Text => export_text(&book, out.as_deref())?,
                BookFormat::Edax => export_edax(&book, out.as_deref())?,
            }
            Ok(ExitCode::SUCCESS)
        }
        BookCommand::Import { input, out, format } => {
            let book = match format {
                BookFormat::Text => {
                    let t = fs::read_to_string(&input)
                        .with_context(|| format!("reading {}", input.display()))?;
                    Book::from_text(&t).with_context(|| format!("reading {}", input.display()))?
                }
                BookFormat::Edax => import_edax(&input)?,
            };
            save(&book, &out)?;
            eprintln!("{} positions written to {}", book.len(), out.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `book export --format text`: to `out`, else standard output.
fn export_text(book: &Book, out: Option<&Path>) -> anyhow::Result<()> {
    let text = book.to_text();
    match out {
        Some(path) => fs::write(path, text).with_context(|| format!("writing {}", path.display())),
        None => Ok(out!("{text}")?),
    }
}

/// `book export --format edax`: Edax's book, dated now.
fn export_edax(book: &Book, out: Option<&Path>) -> anyhow::Result<()> {
    let Some(path) = out else {
        bail!("--format edax writes a binary file: name it with --out FILE");
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let edax = book.to_edax(EdaxDate::from_unix_seconds(now));
    fs::write(path, edax.to_bytes()).with_context(|| format!("writing {}", path.display()))?;
    eprintln!(
        "{} positions written to {} as an Edax book ({} with the pass positions Edax keeps; \
         level {}; game counts are not part of Edax's format)",
        book.len(),
        path.display(),
        edax.positions.len(),
        edax.header.level
    );
    Ok(())
}

/// Reads Edax's book at `path`.
fn import_edax(path: &Path) -> anyhow::Result<Book> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let edax =
        EdaxBook::from_bytes(&bytes).with_context(|| format!("reading {}", path.display()))?;
    let book = Book::from_edax(&edax).with_context(|| format!("reading {}", path.display()))?;
    eprintln!(
        "{} Edax positions read from {} (Edax 4.{}, saved {}, level {}): {} book positions, \
         no game counts",
        edax.positions.len(),
        path.display(),
        edax.header.release,
        edax.header.date,
        edax.header.level,
        book.len()
    );
    Ok(book)
}

/// The games of every `.wtb` file of `dir`, as squares.
fn wthor_games(dir: &Path) -> anyhow::Result<Vec<Vec<Sq>>> {
    let files = wthor::list_files(dir).with_context(|| format!("reading {}", dir.display()))?;
    if files.is_empty() {
        bail!("no .wtb files in {}", dir.display());
    }
    let mut games = Vec::new();
    for path in files {
        let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let db = wthor::parse_wtb(&bytes).with_context(|| format!("reading {}", path.display()))?;
        games.extend(
            db.games
                .iter()
                .map(|g| g.moves.iter().filter_map(|&s| Sq::from_square(s)).collect()),
        );
    }
    Ok(games)
}

/// Searches the positions of `book` the options call for, saving to `out` as it goes and at
/// the end, with progress on standard error.
fn search_pending(book: &mut Book, args: &SearchArgs, out: &Path) -> anyhow::Result<()> {
    let opts = SearchOptions {
        exact_empties: args.exact_empties,
        selectivity: args.selectivity,
        ..SearchOptions::new(args.depth, args.threads)
    };
    let shard = args.shard.unwrap_or(Shard::ALL);
    let keys = build::pending(book, opts, shard);
    eprintln!(
        "{} positions to search at depth {} on {} thread(s){}",
        keys.len(),
        opts.depth,
        opts.workers,
        args.shard
            .map(|s| format!(", shard {}/{}", s.index, s.count))
            .unwrap_or_default()
    );
    let stop = AtomicBool::new(false);
    let mut last = Instant::now();
    let mut failed = None;
    build::search(
        book,
        &keys,
        opts,
        &stop,
        &mut |p: &Progress| {
            if last.elapsed() >= Duration::from_secs(5) || p.done == p.total {
                last = Instant::now();
                eprintln!("{}", progress_line(p));
            }
        },
        Duration::from_secs(args.save_every.max(1)),
        &mut |b: &Book| {
            if let Err(e) = save(b, out) {
                failed = Some(e);
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    save(book, out)?;
    eprintln!("{} positions saved to {}", book.len(), out.display());
    Ok(())
}

/// `searched 120/5000 positions, 3.2/s, about 25 min left`.
fn progress_line(p: &Progress) -> String {
    let rate = p.done as f64 / p.elapsed.as_secs_f64().max(1e-3);
    let left = (p.total - p.done) as f64 / rate.max(1e-9);
    format!(
        "searched {}/{} positions, {rate:.2}/s, about {} left",
        p.done,
        p.total,
        if left >= 120.0 {
            format!("{:.0} min", left / 60.0)
        } else {
            format!("{left:.0} s")
        }
    )
}
