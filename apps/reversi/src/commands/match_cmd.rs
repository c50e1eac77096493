//! `reversi match`: two engines play each opening twice with colours swapped; the games are
//! saved and the result reported with an Elo difference.

mod player;
mod record;
mod stats;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use reversi_core::{
    parse_transcript, BoardSize, Color, Game, Move, Position, Rules, Score, TimeControl,
};
use reversi_store::MoveRecord;

use player::{BookChoice, Contender, EngineError, EngineSpec, MoveClock, Setup};
use record::{Forfeit, Played, Sink};
use stats::{Outcome, Tally};

/// `reversi match` options.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The first engine: an internal player (level:12, 12, hard, minimax:4, greedy, random),
    /// the command line of a GTP engine after `gtp:` ("gtp:reversi gtp --level 8",
    /// "gtp:edax -gtp"), or the command line of an NBoard engine, alone or after `nboard:`
    /// ("reversi nboard", "nboard:edax -q"). `reversi` runs this very program.
    #[arg(long = "a", value_name = "ENGINE")]
    pub a: String,
    /// The second engine.
    #[arg(long = "b", value_name = "ENGINE")]
    pub b: String,
    /// XOT openings file, one transcript a line, used in order [default:
    /// $REVERSI_DATA/xot-large.txt, or ../shared/data/xot-large.txt]
    #[arg(long, conflicts_with = "from_start")]
    pub openings: Option<PathBuf>,
    /// Play every game from the standard start instead of XOT openings (the players' book
    /// and allowance make the games differ).
    #[arg(long)]
    pub from_start: bool,
    /// The first engine's opening book, if an internal level: a book file, or `none`
    /// [default: the program's book]
    #[arg(long, value_name = "FILE|none")]
    pub a_book: Option<String>,
    /// The second engine's opening book, as --a-book.
    #[arg(long, value_name = "FILE|none")]
    pub b_book: Option<String>,
    /// Number of games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Caps every move of an internal level at this many seconds, and is each move's time of
    /// a GTP engine (`time_settings 0 S 1`, in whole seconds rounded up); an external engine
    /// forfeits after max(10, 20 × this) seconds without an answer.
    #[arg(long, value_name = "S")]
    pub time_per_move: Option<f64>,
    /// A game clock for each engine, BASE[+INCREMENT] (5m+3s, 1m+1s): internal levels and
    /// NBoard engines (through the game's `TI` and move times) budget their moves by it, GTP
    /// engines hear `time_settings` and `time_left`; an engine whose time runs out loses.
    #[arg(long, value_name = "BASE[+INC]")]
    pub clock: Option<TimeControl>,
    /// Midgame depth of NBoard engines (`set depth`); internal players and GTP engines (which
    /// have no such command) keep their own.
    #[arg(long, value_name = "D", default_value_t = 10)]
    pub depth: u32,
    /// Search threads of each internal level.
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
    /// Transposition table of each internal level, in MB.
    #[arg(long, default_value_t = 16, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// Seconds an external engine may take for a move (or to start) before it forfeits the
    /// game [default: max(10, 20 × time per move), 60 without a time per move]
    #[arg(long, value_name = "S")]
    pub move_timeout: Option<f64>,
    /// Write the games to this GGF file instead of the game database.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Game database [default: $REVERSI_DB, else $XDG_DATA_HOME/reversi/games.sqlite3, else
    /// ~/.local/share/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
}

fn seconds(what: &str, s: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("{what} must be a positive number of seconds, not {s}"))
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.depth == 0 || args.depth > 60 {
        bail!("--depth must be 1-60, not {}", args.depth);
    }
    let time_per_move = args
        .time_per_move
        .map(|s| seconds("--time-per-move", s))
        .transpose()?;
    let timeout = match args.move_timeout {
        Some(s) => seconds("--move-timeout", s)?,
        None => time_per_move.map_or(Duration::from_secs(60), |t| {
            (t * 20).max(Duration::from_secs(10))
        }),
    };
    let spec_a: EngineSpec = args.a.parse().context("--a")?;
    let spec_b: EngineSpec = args.b.parse().context("--b")?;
    let path = args
        .openings
        .clone()
        .unwrap_or_else(crate::data::xot_openings);
    let openings = if args.from_start {
        vec![Game::new(Position::start(BoardSize::EIGHT, Rules::Othello)); args.games.div_ceil(2)]
    } else {
        read_openings(&path, args.games.div_ceil(2))?
    };
    let mut sink = match &args.out {
        Some(out) => Sink::ggf(out)?,
        None => Sink::store(&crate::frontend::db_path(args.db.clone())?)?,
    };
    let setup = Setup {
        threads: args.threads.max(1),
        hash_mb: args.hash_mb,
        time_per_move,
        clock: args.clock,
        depth: args.depth,
    };
    let mut a = Contender::new(
        &args.a,
        &spec_a,
        &setup,
        &book_choice(args.a_book.as_deref())?,
    );
    let mut b = Contender::new(
        &args.b,
        &spec_b,
        &setup,
        &book_choice(args.b_book.as_deref())?,
    );

    outln!(
        "{} vs {}: {} games on {} openings from {}, colours swapped",
        args.a,
        args.b,
        args.games,
        openings.len(),
        if args.from_start {
            "the standard start".to_string()
        } else {
            path.display().to_string()
        }
    )?;
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut tally = Tally::default();
    let mut forfeits = [0usize; 2];
    // Each engine's thinking time and moves.
    let mut thought = [(Duration::ZERO, 0u32, Duration::ZERO); 2];
    let mut ids = Vec::new();
    for g in 0..args.games {
        let opening = &openings[g / 2];
        let a_black = g % 2 == 0;
        // A seed per opening and colour, not per engine: the two games of a pair give the
        // same rolls to whoever plays Black (and White), so equal engines mirror each other,
        // while games from the same opening (--from-start) still differ from pair to pair.
        let (black_seed, white_seed) = (0x5eed + g as u64 / 2 * 2, 0x5eed + g as u64 / 2 * 2 + 1);
        let (a_seed, b_seed) = if a_black {
            (black_seed, white_seed)
        } else {
            (white_seed, black_seed)
        };
        a.set_seed(a_seed);
        b.set_seed(b_seed);
        let played = if a_black {
            play_game(&mut a, &mut b, opening, timeout, args.clock)
        } else {
            play_game(&mut b, &mut a, opening, timeout, args.clock)
        };
        let a_color = if a_black { Color::Black } else { Color::White };
        let positions = played.game.positions();
        for (i, m) in played.moves.iter().enumerate() {
            if let Some(ms) = m.time_ms {
                let t = &mut thought[usize::from(positions[i].turn() != a_color)];
                let took = Duration::from_millis(ms);
                *t = (t.0 + took, t.1 + 1, t.2.max(took));
            }
        }
        let margin = match a_color {
            Color::Black => played.score.margin(),
            Color::White => -played.score.margin(),
        };
        tally.add(Outcome {
            margin,
            as_black: a_black,
        });
        let line = format!(
            "game {:>3}  opening {:>3}  {} (Black) {} {} (White){}",
            g + 1,
            g / 2 + 1,
            // Named by the engines themselves (another program's output).
            reversi_game::printable(&played.black.name),
            played.score,
            reversi_game::printable(&played.white.name),
            played
                .forfeit
                .as_ref()
                .map(|f| format!(
                    "  {} forfeits: {}",
                    if f.color == a_color { &args.a } else { &args.b },
                    f.reason
                ))
                .unwrap_or_default()
        );
        if let Some(f) = &played.forfeit {
            forfeits[usize::from(f.color != a_color)] += 1;
        }
        bar.suspend(|| outln!("{line}"))?;
        if let Some(id) = sink.save(&played)? {
            ids.push(id);
        }
        bar.set_message(format!("{}: {}", args.a, tally.record()));
        bar.inc(1);
    }
    bar.finish_and_clear();
    report(&args, &tally, forfeits, thought)?;
    match (ids.first(), ids.last()) {
        (Some(first), Some(last)) => outln!(
            "saved {} games to {} (ids {first}-{last})",
            ids.len(),
            sink.describe()
        )?,
        _ => outln!("saved {} games to {}", tally.games(), sink.describe())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Each engine's total thinking time, moves and longest move.
type Thought = (Duration, u32, Duration);

fn report(
    args: &MatchArgs,
    tally: &Tally,
    forfeits: [usize; 2],
    thought: [Thought; 2],
) -> std::io::Result<()> {
    let (elo, lo, hi) = tally.elo();
    outln!(
        "{}: {} (as Black {}, as White {}) against {}",
        args.a,
        tally.record(),
        tally.record_as(true),
        tally.record_as(false),
        args.b
    )?;
    outln!("average disc difference {:+.2}", tally.average_margin())?;
    outln!("score {:.1}%", 100.0 * tally.score())?;
    outln!("Elo difference {elo} (95% interval {lo} to {hi})")?;
    for (name, (total, moves, longest)) in [&args.a, &args.b].into_iter().zip(thought) {
        outln!(
            "time per move: {name} {:.3} s on average, longest {:.3} s ({moves} moves)",
            total.as_secs_f64() / f64::from(moves.max(1)),
            longest.as_secs_f64()
        )?;
    }
    outln!(
        "forfeits: {} {}, {} {}",
        args.a,
        forfeits[0],
        args.b,
        forfeits[1]
    )
}

/// Plays one game from `opening`; a side whose engine fails, or whose time runs out, loses it
/// 0-64.
fn play_game(
    black: &mut Contender,
    white: &mut Contender,
    opening: &Game,
    timeout: Duration,
    clock: Option<TimeControl>,
) -> Played {
    let mut game = opening.clone();
    let mut moves: Vec<MoveRecord> = game.moves().iter().map(|&m| MoveRecord::bare(m)).collect();
    let forfeit = play_out(black, white, &mut game, &mut moves, timeout, clock);
    let names = [black.history_player(), white.history_player()];
    let score = match &forfeit {
        Some(f) => Score::forfeit(f.color, game.current().size()),
        None => Score::of(game.current()),
    };
    let [black_player, white_player] = names;
    Played {
        game,
        moves,
        black: black_player,
        white: white_player,
        score,
        forfeit,
        clock,
    }
}

/// The moves of the game until its end or a forfeit.
fn play_out(
    black: &mut Contender,
    white: &mut Contender,
    game: &mut Game,
    moves: &mut Vec<MoveRecord>,
    timeout: Duration,
    clock: Option<TimeControl>,
) -> Option<Forfeit> {
    let fail = |color: Color, who: &mut Contender, e: &EngineError| {
        who.reset();
        Some(Forfeit {
            color,
            reason: e.to_string(),
            timeout: e.is_timeout(),
            out_of_time: false,
        })
    };
    if let Err(e) = black.new_game(game, timeout) {
        return fail(Color::Black, black, &e);
    }
    if let Err(e) = white.new_game(game, timeout) {
        return fail(Color::White, white, &e);
    }
    loop {
        let pos = game.current();
        if pos.is_game_over() {
            return None;
        }
        let turn = pos.turn();
        let record = if pos.must_pass() {
            MoveRecord::bare(Move::Pass)
        } else {
            let mover = match turn {
                Color::Black => &mut *black,
                Color::White => &mut *white,
            };
            // The opening's moves took no time.
            let spent: Vec<Option<Duration>> = moves
                .iter()
                .map(|m| m.time_ms.map(Duration::from_millis))
                .collect();
            let move_clock = clock.map(|control| MoveClock {
                control,
                spent: &spent,
            });
            // On a clock an engine may think as long as its time lasts, and a little more
            // before it is given up on.
            let (wait, left) = match &move_clock {
                Some(c) => {
                    let left = c.left(game);
                    (left + Duration::from_secs(2), Some(left))
                }
                None => (timeout, None),
            };
            match mover.choose(game, wait, move_clock.as_ref()) {
                Ok(c) if left.is_some_and(|left| c.time > left) => {
                    mover.reset();
                    return Some(Forfeit {
                        color: turn,
                        reason: format!(
                            "lost on time ({:.3} s for a move with {:.3} s left)",
                            c.time.as_secs_f64(),
                            left.unwrap_or_default().as_secs_f64()
                        ),
                        timeout: true,
                        out_of_time: true,
                    });
                }
                Ok(c) => MoveRecord {
                    mv: c.mv,
                    time_ms: Some(c.time.as_millis().try_into().unwrap_or(u64::MAX)),
                    eval: c.eval,
                },
                Err(e) if left.is_some() && e.is_timeout() => {
                    mover.reset();
                    return Some(Forfeit {
                        color: turn,
                        reason: format!("lost on time: {e}"),
                        timeout: true,
                        out_of_time: true,
                    });
                }
                Err(e) => return fail(turn, mover, &e),
            }
        };
        if let Err(why) = game.play(record.mv) {
            let mover = match turn {
                Color::Black => &mut *black,
                Color::White => &mut *white,
            };
            mover.reset();
            return Some(Forfeit {
                color: turn,
                reason: format!("illegal move {}: {why}", record.mv),
                timeout: false,
                out_of_time: false,
            });
        }
        moves.push(record);
        if let Err(e) = black.observe(record.mv) {
            return fail(Color::Black, black, &e);
        }
        if let Err(e) = white.observe(record.mv) {
            return fail(Color::White, white, &e);
        }
    }
}

/// The book `--a-book`/`--b-book` names: a file, `none`, or the program's when not given.
fn book_choice(arg: Option<&str>) -> anyhow::Result<BookChoice> {
    Ok(match arg {
        None => BookChoice::Process,
        Some("none") => BookChoice::Own(None),
        Some(path) => BookChoice::Own(Some(Arc::new(crate::commands::book::load(Path::new(
            path,
        ))?))),
    })
}

/// The first `count` openings of a file of transcripts (8x8 Othello), as games.
fn read_openings(path: &Path, count: usize) -> anyhow::Result<Vec<Game>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the openings {}", path.display()))?;
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let mut out = Vec::with_capacity(count);
    for (i, line) in text.lines().enumerate() {
        if out.len() == count {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let game = parse_transcript(line.trim(), start.clone())
            .with_context(|| format!("{}:{}", path.display(), i + 1))?;
        if !game.is_over() {
            out.push(game);
        }
    }
    if out.len() < count {
        bail!(
            "{} holds only {} openings, {count} needed",
            path.display(),
            out.len()
        );
    }
    Ok(out)
}
