//! `reversi analyze POSITION`: every legal move of a position with its score, what the score
//! is worth (book, exact, win/loss/draw or depth@selectivity) and its expected line, as text
//! or JSON; with `--svg`, a picture of the position with the scores on their squares.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context};
use clap::Args;
use reversi_core::{BoardSize, Color, Move, Position, Rules, Score};
use reversi_engine::levels::Level;
use reversi_engine::ScoreKind;
use reversi_formats::position::{board_string, parse_position};
use reversi_formats::svg::{position_svg, SvgOptions};
use reversi_game::move_at;
use reversi_players::HintLine;
use serde_json::{json, Value};

/// `reversi analyze` options.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The position: a board and the side to move ("---…OX…--- X": 64 squares of X or *, O
    /// and -, then X or O), an OBF line, a GGF game (its BO) or a transcript (f5d6c3).
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    pub position: String,
    /// The side to move (X or O), when the board is given as a word of its own.
    #[arg(value_name = "SIDE")]
    pub side: Option<String>,
    /// The level whose search scores the moves: 1-60 or a name (beginner … perfect).
    #[arg(long, default_value = "10")]
    pub level: String,
    /// Board size a transcript is played on.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Start rule of a transcript or board: othello or reversi.
    #[arg(long, default_value = "othello")]
    pub rules: Rules,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also draw the position with each move's score on its square, as SVG, into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// What the analysis found: the position, a pass if the side to move had to make one, and
/// each move with its line (empty when the game is over).
struct Analysis {
    position: Position,
    passed: Option<Color>,
    lines: Vec<HintLine>,
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let Some(level) = Level::parse(&args.level) else {
        bail!(
            "unknown level {:?}: expected 1-60 or a level name",
            args.level
        );
    };
    let text = match &args.side {
        Some(side) => format!("{} {side}", args.position),
        None => args.position.clone(),
    };
    let input =
        parse_position(&text, args.size, args.rules).with_context(|| format!("{text:?}"))?;
    let mut position = input.position().clone();
    // A side without a move passes; the moves worth scoring are then the other side's.
    let passed = position.must_pass().then(|| position.turn());
    if passed.is_some() {
        position = position.with_turn(position.turn().opposite());
    }
    let stop = AtomicBool::new(false);
    let lines = crate::advisor::get().hint_lines(&position, level, &stop, &mut |_| {});
    if let Some(path) = &args.svg {
        let last = match passed {
            Some(color) => Some((color, Move::Pass)),
            None => move_at(&input.game, input.game.moves().len()).map(|m| (m.color, m.mv)),
        };
        let scores = lines
            .iter()
            .filter_map(|h| match h.candidate.mv {
                Move::Play(sq) => Some((sq, h.candidate.short_score())),
                Move::Pass => None,
            })
            .collect();
        let options = SvgOptions {
            last,
            legal: false,
            scores,
            caption: Some(level_label(level)),
        };
        std::fs::write(path, position_svg(&position, &options))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let analysis = Analysis {
        position,
        passed,
        lines,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", to_json(&analysis, level))?;
    } else {
        write_text(&mut out, &analysis, level)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn level_label(level: Level) -> String {
    match level.name() {
        Some(name) => format!("level {} ({name})", level.get()),
        None => format!("level {}", level.get()),
    }
}

fn line_text(line: &[Move]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_text(out: &mut dyn Write, a: &Analysis, level: Level) -> std::io::Result<()> {
    let p = &a.position;
    writeln!(out, "{} {}, {}", p.size(), p.rules(), board_string(p))?;
    write!(out, "{p}")?;
    writeln!(
        out,
        "Black {}  White {}",
        p.disc_count(Color::Black),
        p.disc_count(Color::White)
    )?;
    if let Some(c) = a.passed {
        writeln!(out, "{c} has no legal move and passes.")?;
    }
    if p.is_game_over() {
        let score = Score::of(p);
        return writeln!(
            out,
            "The game is over: {}",
            reversi_game::result_line(score)
        );
    }
    writeln!(out, "{} to move; {}:", p.turn(), level_label(level))?;
    writeln!(out, "  move  score  kind            line")?;
    for h in &a.lines {
        let c = &h.candidate;
        writeln!(
            out,
            "  {:<4}  {:>5}  {:<14}  {}",
            c.mv.to_string(),
            c.short_score(),
            c.kind.to_string(),
            line_text(&h.line)
        )?;
    }
    Ok(())
}

/// The kind of a score as JSON: its name, and the depth and selectivity of a search's.
pub(crate) fn kind_json(kind: ScoreKind) -> Value {
    match kind {
        ScoreKind::Depth { depth, selectivity } => {
            json!({"name": "depth", "depth": depth, "selectivity": selectivity})
        }
        ScoreKind::Exact => json!({"name": "exact"}),
        ScoreKind::WinLossDraw => json!({"name": "win-loss-draw"}),
        ScoreKind::Book => json!({"name": "book"}),
        ScoreKind::Points(depth) => json!({"name": "points", "depth": depth}),
        ScoreKind::Flips => json!({"name": "flips"}),
        ScoreKind::Random => json!({"name": "random"}),
    }
}

fn to_json(a: &Analysis, level: Level) -> Value {
    let p = &a.position;
    let moves: Vec<Value> = a
        .lines
        .iter()
        .map(|h| {
            let c = &h.candidate;
            json!({
                "move": c.mv.to_string(),
                "score": c.score,
                "shown": c.short_score(),
                "upper_bound": c.upper_bound,
                "kind": kind_json(c.kind),
                "line": h.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })
        })
        .collect();
    let result = p.is_game_over().then(|| {
        let s = Score::of(p);
        json!({"black": s.black, "white": s.white})
    });
    json!({
        "position": board_string(p),
        "size": p.size().get(),
        "rules": p.rules().name(),
        "to_move": p.turn().name().to_lowercase(),
        "passed": a.passed.map(|c| c.name().to_lowercase()),
        "black_discs": p.disc_count(Color::Black),
        "white_discs": p.disc_count(Color::White),
        "result": result,
        "level": level.get(),
        "moves": moves,
    })
}
