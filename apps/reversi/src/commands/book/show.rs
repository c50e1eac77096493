//! `reversi book show` and `book stats`: a position's book moves, and the book's make-up.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::{bail, Context};
use reversi_core::{opening_name, parse_transcript, BoardSize, Game, Position, Rules};
use reversi_engine::book::build::Checked;
use reversi_engine::book::Book;
use reversi_engine::{Board, Sq};
use reversi_formats::position::PositionFormat;

/// The squares of a transcript from the 8x8 start (passes dropped: the book implies them).
pub fn transcript_squares(text: &str) -> anyhow::Result<Vec<Sq>> {
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let game = parse_transcript(text, start)?;
    Ok(game
        .moves()
        .iter()
        .filter_map(|&m| Sq::from_move(m))
        .collect())
}

/// The board `arg` names: empty for the start, or a position in any notation
/// ([`reversi_formats::position::parse_position`]: a transcript, a board and side, OBF, GGF)
/// on 8x8. Also the game of a transcript, for its moves and opening name.
fn parse_position(arg: &str) -> anyhow::Result<(Board, Option<Game>)> {
    let arg = arg.trim();
    if arg.is_empty() {
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        return Ok((Board::START, Some(Game::new(start))));
    }
    let input = reversi_formats::position::parse_position(arg, BoardSize::EIGHT, Rules::Othello)
        .with_context(|| format!("{arg:?}"))?;
    let p = input.position();
    if p.size() != BoardSize::EIGHT || p.rules() != Rules::Othello {
        bail!(
            "the book holds 8x8 Othello positions, not {} {}",
            p.size(),
            p.rules()
        );
    }
    let (board, _) = Board::from_position(p)?;
    let game = (input.format == PositionFormat::Transcript).then_some(input.game);
    Ok((board, game))
}

fn square_name(sq: Sq) -> String {
    format!("{}{}", char::from(b'a' + sq.col()), sq.row() + 1)
}

pub fn show(book: &Book, arg: &str) -> anyhow::Result<ExitCode> {
    let (mut board, game) = parse_position(arg)?;
    if board.moves() == 0 {
        if board.pass().moves() == 0 {
            bail!("the game is over in this position");
        }
        outln!("The side to move must pass.")?;
        board = board.pass();
    }
    if let Some(game) = &game {
        let line = reversi_core::format_transcript(game.moves(), false);
        outln!(
            "After {}",
            if line.is_empty() {
                "the start".to_string()
            } else {
                line
            }
        )?;
        if let Some(name) = opening_name(game) {
            outln!("Opening: {name}")?;
        }
    }
    outln!("{}", reversi_engine::book::text::board_text(board))?;
    let Some(rec) = book.get(board) else {
        outln!("Not in the book ({} positions).", book.len())?;
        return Ok(ExitCode::SUCCESS);
    };
    outln!(
        "In the book: {} games, value {}, searched {}",
        rec.games,
        rec.value.map_or("unknown".into(), |v| format!("{v:+}")),
        match (rec.depth, rec.exact) {
            (0, _) => "not yet".to_string(),
            (_, true) => "exactly".to_string(),
            (d, false) => format!("{d} plies deep"),
        }
    )?;
    let Some(moves) = book.moves(board) else {
        outln!("No move valued yet.")?;
        return Ok(ExitCode::SUCCESS);
    };
    outln!("move  value  depth  games")?;
    for m in moves {
        let depth = if m.exact {
            "exact".to_string()
        } else {
            m.depth.to_string()
        };
        outln!(
            "{:<4}  {:>5}  {:>5}  {:>5}",
            square_name(m.sq),
            format!("{:+}", m.value),
            depth,
            if m.games == 0 {
                "-".to_string()
            } else {
                m.games.to_string()
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The report of `book check`: each position's book value beside the fresh search's, then
/// the mean and largest differences.
pub fn checked(checked: &[Checked], depth: u8) -> anyhow::Result<ExitCode> {
    if checked.is_empty() {
        bail!("no valued position to check");
    }
    outln!(
        "position                                                           book  depth {depth}"
    )?;
    for c in checked {
        outln!(
            "{}  {:>4}  {:>8}",
            reversi_engine::book::text::board_text(c.key.board()),
            format!("{:+}", c.book),
            format!("{:+}", c.search)
        )?;
    }
    let diffs: Vec<i32> = checked.iter().map(|c| (c.book - c.search).abs()).collect();
    let mean = f64::from(diffs.iter().sum::<i32>()) / diffs.len() as f64;
    let bias =
        f64::from(checked.iter().map(|c| c.book - c.search).sum::<i32>()) / diffs.len() as f64;
    outln!(
        "{} positions: mean absolute difference {mean:.2} discs, mean difference {bias:+.2}, \
         largest {}",
        checked.len(),
        diffs.iter().max().copied().unwrap_or(0)
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn stats(book: &Book, file_size: u64) -> anyhow::Result<ExitCode> {
    let mut by_ply: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    let mut by_depth: BTreeMap<String, usize> = BTreeMap::new();
    for (key, r) in book.iter() {
        let ply = (key.player | key.opponent).count_ones() - 4;
        let e = by_ply.entry(ply).or_default();
        e.0 += 1;
        if r.depth > 0 {
            e.1 += 1;
        }
        let d = match (r.depth, r.exact) {
            (0, _) => "unsearched".to_string(),
            (_, true) => "exact".to_string(),
            (d, false) => format!("depth {d:>2}"),
        };
        *by_depth.entry(d).or_default() += 1;
    }
    outln!(
        "{} positions, {} bytes ({:.1} bytes a position); new positions are searched {} plies \
         deep",
        book.len(),
        file_size,
        file_size as f64 / book.len().max(1) as f64,
        book.depth
    )?;
    if let Some(r) = book.get(Board::START) {
        outln!(
            "the start: {} games, value {}",
            r.games,
            r.value.map_or("unknown".into(), |v| format!("{v:+}"))
        )?;
    }
    outln!("\nply  positions  searched")?;
    for (ply, (n, searched)) in &by_ply {
        outln!("{ply:>3}  {n:>9}  {searched:>8}")?;
    }
    outln!("\nsearch      positions")?;
    for (d, n) in &by_depth {
        outln!("{d:<10}  {n:>9}")?;
    }
    Ok(ExitCode::SUCCESS)
}
