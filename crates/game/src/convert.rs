//! Between stored games and the file formats: GGF and transcripts out, and GGF, transcript and
//! WTHOR games in.
//!
//! # Examples
//! The shortest possible game, White wiped out after nine moves, stored, written out as a
//! transcript and as GGF, and read back as imports:
//! ```
//! use reversi_core::{BoardSize, Move, Rules, Score};
//! use reversi_formats::{ggf::parse_ggf, transcript::parse_transcript_line};
//! use reversi_game::convert::{from_ggf, from_transcript, to_ggf, to_transcript};
//! use reversi_store::{MoveRecord, NewGame, Player, Status, Store};
//!
//! let mut store = Store::open_in_memory()?;
//! let new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
//!     Player::human("Ann"), Player::human("Ben"));
//! let id = store.create_game(&new)?;
//! let start = new.start_position();
//! for name in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"] {
//!     store.append_move(id, &MoveRecord::bare(Move::Play(start.parse_square(name)?)))?;
//! }
//! let score = Score { black: 64, white: 0 };
//! store.finish_game(id, score)?;
//! let stored = store.load_game(id)?;
//!
//! let line = to_transcript(&stored);
//! assert_eq!(line, "e6f4e3f6g5d6e7f5c5 64-0");
//! let import = from_transcript(&parse_transcript_line(&line, start)?, "games.txt");
//! assert_eq!((import.status, import.score), (Status::Finished, Some(score)));
//! assert_eq!(import.moves.len(), 9);
//!
//! let text = to_ggf(&stored);
//! assert!(text.starts_with("(;GM[Othello]"), "{text}");
//! assert!(text.contains("PB[Ann]PW[Ben]RE[+64.00]"), "{text}");
//! let ggf = &parse_ggf(&text)?[0];
//! let game = ggf.game().map_err(|(ply, e)| format!("move {ply}: {e}"))?;
//! let import = from_ggf(ggf, &game, "games.ggf");
//! assert_eq!(import.game.black.name, "Ann");
//! assert_eq!((import.score, import.source.as_deref()), (Some(score), Some("games.ggf")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use reversi_core::{format_transcript, Game, Move, Position, Score};
use reversi_formats::ggf::{GgfGame, GgfMove};
use reversi_formats::transcript::{write_transcript, DeclaredResult, TranscriptGame};
use reversi_record::{ImportGame, MoveRecord, Player, Status, StoredGame, Termination};

use crate::Replay;

/// A stored game as a transcript line, its score after the moves when known.
pub fn to_transcript(stored: &StoredGame) -> String {
    write_transcript(&stored.game, stored.info.score.map(DeclaredResult::Score))
}

/// Each variation of `replay` as a line of text, in [`Replay::lines`]' order:
/// `variation 1 from move 2: f4c3e6`, and for a variation of a variation
/// `variation 2 from move 4 of variation 1: d6` (the move is the first of its own; passes are
/// written `PA`). `history show` lists these, and a transcript export writes them as `#`
/// comments under the game, which transcript readers skip.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move, Rules};
/// use reversi_game::{convert::variation_lines, Replay};
/// use reversi_store::{MoveRecord, NewGame, Player, Store};
///
/// let mut store = Store::open_in_memory()?;
/// let new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
///     Player::human("Ann"), Player::human("Ben"));
/// let id = store.create_game(&new)?;
/// let sq = |name: &str| new.start_position().parse_square(name).map(Move::Play);
/// store.append_move(id, &MoveRecord::bare(sq("f5")?))?;
/// let v = store.add_variation(id, None, 1, &[sq("f4")?, sq("e3")?])?;
/// store.add_variation(id, Some(v), 2, &[sq("c3")?])?;
/// let replay = Replay::with_variations(store.load_game(id)?, &store.variations(id)?)?;
/// assert_eq!(variation_lines(&replay), [
///     "variation 1 from move 2: f4e3",
///     "variation 2 from move 3 of variation 1: c3",
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn variation_lines(replay: &Replay) -> Vec<String> {
    let lines = replay.lines();
    lines
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, line)| {
            let of = match line.parent {
                Some(p) if p > 0 => format!(" of variation {p}"),
                _ => String::new(),
            };
            format!(
                "variation {i} from move {}{of}: {}",
                line.from_ply + 1,
                format_transcript(line.own_moves(), true)
            )
        })
        .collect()
}

/// A stored game as one GGF line: players, date, event, board, result, and each move's
/// evaluation and time.
pub fn to_ggf(stored: &StoredGame) -> String {
    let info = &stored.info;
    let mut tags = Vec::new();
    let mut tag = |k: &str, v: &str| tags.push((k.to_string(), v.to_string()));
    if let Some(e) = &info.event {
        tag("PC", e);
    }
    if let Some(d) = &info.started_at {
        tag("DT", d);
    }
    tag("PB", &info.black.name);
    tag("PW", &info.white.name);
    // GGS marks a loss on time `:t` after the margin.
    let suffix = match info.termination {
        Some(Termination::Time) => ":t",
        None => "",
    };
    if let Some(s) = info.score {
        tag("RE", &format!("{:+}.00{suffix}", s.margin()));
    } else {
        tag("RE", "?");
    }
    let moves = stored
        .moves
        .iter()
        .map(|m| GgfMove {
            mv: m.mv,
            eval: m.eval,
            seconds: m.time_ms.map(|t| t as f64 / 1000.0),
        })
        .collect();
    let mut ggf = GgfGame {
        start: stored.game.start().clone(),
        moves,
        tags,
    };
    ggf.set_time_control(info.clock);
    reversi_formats::ggf::write_ggf(&ggf)
}

/// The disc counts a margin implies when the board would be full (empties to the winner).
fn score_from_margin(cells: usize, margin: i32) -> Option<Score> {
    let cells = i32::try_from(cells).ok()?;
    if margin.abs() > cells || (cells + margin) % 2 != 0 {
        return None;
    }
    Some(Score {
        black: u16::try_from((cells + margin) / 2).ok()?,
        white: u16::try_from((cells - margin) / 2).ok()?,
    })
}

/// A player read from a file, whose kind the file does not say.
fn named(name: &str) -> Player {
    Player::human(if name.trim().is_empty() {
        "?"
    } else {
        name.trim()
    })
}

/// A game read from a GGF file, already replayed as `game`, as an import from `source`: the
/// players by name (`PB`, `PW`), the date (`DT`), the event (`PC`), the result (`RE`, a margin
/// turned into disc counts) and each move's evaluation and time.
pub fn from_ggf(g: &GgfGame, game: &Game, source: &str) -> ImportGame {
    let cells = g.start.size().cells();
    let declared = g
        .result_margin()
        .and_then(|m| score_from_margin(cells, m.round() as i32));
    let mut out = ImportGame::from_game(
        game,
        named(g.tag("PB").unwrap_or("?")),
        named(g.tag("PW").unwrap_or("?")),
        declared,
    );
    for (rec, m) in out.moves.iter_mut().zip(&g.moves) {
        rec.eval = m.eval;
        rec.time_ms = m
            .seconds
            .filter(|s| *s >= 0.0)
            .map(|s| (s * 1000.0).round() as u64);
    }
    out.game.started_at = g.tag("DT").map(str::to_string).filter(|d| !d.is_empty());
    // A clock that does not parse is left out rather than failing the import.
    out.game.clock = g.time_control().ok().flatten();
    if out.status == Status::Finished && g.tag("RE").is_some_and(|re| re.trim_end().ends_with(":t"))
    {
        out.termination = Some(Termination::Time);
    }
    out.event = g.tag("PC").map(str::to_string).filter(|d| !d.is_empty());
    out.source = Some(source.to_string());
    out
}

/// A game read from a transcript line as an import from `source`. A transcript names no
/// players, so both are `?`; a result after the moves (`33-31`, or a margin such as `B+4`)
/// becomes the score.
pub fn from_transcript(t: &TranscriptGame, source: &str) -> ImportGame {
    let cells = t.game.start().size().cells();
    let declared = t.result.and_then(|r| match r {
        DeclaredResult::Score(s) => Some(s),
        DeclaredResult::Margin(m) => score_from_margin(cells, m),
    });
    let mut out = ImportGame::from_game(&t.game, named("?"), named("?"), declared);
    out.source = Some(source.to_string());
    out
}

/// Why a WTHOR game does not replay: its 0-based move and the reason.
pub struct WthorReplayError {
    /// The 0-based index of the move among the game's stored moves (passes not counted).
    pub ply: usize,
    /// The square and the rule it breaks, e.g. `a1: a1 flips no disc`.
    pub text: String,
}

/// A WTHOR game (passes not stored) as an import, passes put back by replaying. `year` is the
/// database's, `players` and `tournaments` its name files (a number with no name is written
/// `#N`), and the result is the final score, or the disc count the file gives for Black when
/// the moves stop early.
///
/// # Errors
/// [`WthorReplayError`] when a move is illegal even after a pass: the file is damaged or not
/// WTHOR.
pub fn from_wthor(
    g: &reversi_formats::wthor::Game,
    year: u16,
    players: &[String],
    tournaments: &[String],
    source: &str,
) -> Result<ImportGame, WthorReplayError> {
    let mut pos = Position::start(reversi_core::BoardSize::EIGHT, reversi_core::Rules::Othello);
    let mut moves = Vec::with_capacity(g.moves.len() + 2);
    for (ply, &sq) in g.moves.iter().enumerate() {
        let next = match pos.play(Move::Play(sq)) {
            Ok(next) => next,
            // Not legal as it stands: the side to move may have had to pass first.
            Err(e) => match pos.play(Move::Pass).and_then(|p| p.play(Move::Play(sq))) {
                Ok(next) => {
                    moves.push(MoveRecord::bare(Move::Pass));
                    next
                }
                Err(_) => {
                    return Err(WthorReplayError {
                        ply,
                        text: format!("{sq}: {e}"),
                    })
                }
            },
        };
        moves.push(MoveRecord::bare(Move::Play(sq)));
        pos = next;
    }
    let name = |names: &[String], i: u16| {
        names
            .get(usize::from(i))
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("#{i}"))
    };
    let score = if pos.is_game_over() {
        Score::of(&pos)
    } else {
        Score {
            black: u16::from(g.black_score),
            white: 64u16.saturating_sub(u16::from(g.black_score)),
        }
    };
    Ok(ImportGame {
        game: reversi_record::NewGame {
            size: reversi_core::BoardSize::EIGHT,
            rules: reversi_core::Rules::Othello,
            start: None,
            black: Player::human(&name(players, g.black)),
            white: Player::human(&name(players, g.white)),
            started_at: Some(year.to_string()),
            clock: None,
        },
        moves,
        status: reversi_record::Status::Finished,
        ended_at: None,
        result: Some(score.outcome()),
        score: Some(score),
        event: Some(name(tournaments, g.tournament)),
        source: Some(source.to_string()),
        termination: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_to_scores() {
        assert_eq!(
            score_from_margin(64, 12),
            Some(Score {
                black: 38,
                white: 26
            })
        );
        assert_eq!(
            score_from_margin(64, -64),
            Some(Score {
                black: 0,
                white: 64
            })
        );
        assert_eq!(score_from_margin(64, 3), None);
        assert_eq!(score_from_margin(64, 66), None);
    }
}
