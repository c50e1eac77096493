//! GGF, the Generic Game Format of GGS and NBoard: `(;GM[Othello]PB[..]TY[8]BO[..]B[f5]..;)`.
//!
//! A game is a list of `TAG[value]` pairs between `(;` and `;)`. `BO[8 <64 squares> *]` gives
//! the start: the size, the squares row by row from `a1` (`-` empty, `*` Black, `O` White,
//! whitespace ignored) and the side to move (`*` or `O`). Moves are `B[f5]` and `W[d6]`, each
//! optionally followed by `/eval/seconds` (`B[f5//1.2]`, `W[d6/-1.5/0.3]`); `PA` is a pass.
//! Values escape `]` and `\` with a backslash. Other tags are kept in order and written back.
//!
//! The clock (`TI`, or `TB` and `TW` for each side) is kept as a tag too, so that whatever a
//! clock says is written back as it was read; [`GgfGame::time_control`] reads it as a base and
//! an increment, and [`GgfGame::set_time_control`] writes one (see [`clock`] for the syntax).
//!
//! GGF has no tag for the Reversi start rule: a start board with an empty centre square is
//! read as [`Rules::Reversi`], any other as [`Rules::Othello`].

pub mod clock;

use std::fmt;

use reversi_core::{
    BoardSize, Color, Game, IllegalMove, Move, Position, Rules, Square, TimeControl,
};

pub use clock::{parse_clock, write_clock, ParseClockError};

/// One move of a GGF game, with the evaluation and time the mover gave for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GgfMove {
    /// The square played, or a pass (`PA`).
    pub mv: Move,
    /// The mover's evaluation, in discs, if given.
    pub eval: Option<f64>,
    /// Seconds spent, if given.
    pub seconds: Option<f64>,
}

/// A GGF game: its start position, its moves (passes included, as played), and every other
/// tag in file order (`PB`, `PW`, `RE`, …; not `GM`, `TY`, `BO`, `B`, `W`).
#[derive(Debug, Clone, PartialEq)]
pub struct GgfGame {
    /// The start position from `BO`, or the standard start of the `TY` size when `BO` is
    /// missing.
    pub start: Position,
    /// The moves in order; passes the file left out are filled in.
    pub moves: Vec<GgfMove>,
    /// The other tags as `(name, value)`, values unescaped.
    pub tags: Vec<(String, String)>,
}

/// Why a GGF game could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GgfErrorKind {
    /// No `(;` opening a game where one was expected, or text between games.
    NotAGame(String),
    /// The game's `;)` is missing.
    Unterminated,
    /// A tag name not followed by `[`, or a value without its `]`.
    BadTag(String),
    /// `GM` names another game.
    NotOthello(String),
    /// `BO` is malformed (the reason says how).
    BadBoard(String),
    /// `TY` and `BO` disagree on the board size, or the size is not supported.
    BadSize(String),
    /// A move value that is not a square, a pass, or `square/eval/time`.
    BadMove {
        /// 1-based number of the move in the game, counting passes as written.
        number: usize,
        /// The move's value as written.
        text: String,
    },
    /// A move that is not legal where it is played.
    Illegal {
        /// 1-based number of the move in the game, counting passes as written.
        number: usize,
        /// The move's value as written.
        text: String,
        /// Why the rules refuse it.
        reason: IllegalMove,
    },
}

/// A GGF error and where: the 1-based game number in the file and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgfError {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// 1-based line on which that game starts.
    pub line: usize,
    /// What is wrong with the game.
    pub kind: GgfErrorKind,
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} (game {}): ", self.line, self.game)?;
        match &self.kind {
            GgfErrorKind::NotAGame(t) => write!(f, "expected a game starting \"(;\", found {t:?}"),
            GgfErrorKind::Unterminated => f.write_str("the game has no closing \";)\""),
            GgfErrorKind::BadTag(t) => write!(f, "malformed tag {t:?}"),
            GgfErrorKind::NotOthello(g) => write!(f, "GM[{g}] is not an Othello game"),
            GgfErrorKind::BadBoard(why) => write!(f, "bad BO tag: {why}"),
            GgfErrorKind::BadSize(why) => write!(f, "bad board size: {why}"),
            GgfErrorKind::BadMove { number, text } => write!(
                f,
                "move {number} {text:?} is not a square, PA, or square/eval/time"
            ),
            GgfErrorKind::Illegal {
                number,
                text,
                reason,
            } => write!(f, "move {number} {text:?}: {reason}"),
        }
    }
}

impl std::error::Error for GgfError {}

impl GgfGame {
    /// The value of the first tag named `name` (`"PB"`, `"RE"`, …).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing its first occurrence or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Removes every tag named `name`.
    pub fn remove_tag(&mut self, name: &str) {
        self.tags.retain(|(k, _)| k != name);
    }

    /// The game's clock as a base and an increment for each side: from `TI`, or else from `TB`
    /// and `TW` when they say the same; `None` when there is no clock tag. The extension of a
    /// GGS clock is left out (see [`clock`]).
    ///
    /// # Errors
    /// [`ParseClockError`] when the clock is malformed, is not a base and an increment, or
    /// differs between the sides (or is given for one side only).
    ///
    /// # Examples
    /// ```
    /// use std::time::Duration;
    /// use reversi_core::TimeControl;
    /// use reversi_formats::ggf::{parse_ggf, write_ggf};
    ///
    /// let mut game = parse_ggf("(;GM[Othello]TI[05:00//02:00]B[f5];)")?.remove(0);
    /// let five = TimeControl::sudden_death(Duration::from_secs(300));
    /// assert_eq!(game.time_control(), Ok(Some(five)));
    ///
    /// let blitz: TimeControl = "3m+2s".parse().expect("a clock");
    /// game.set_time_control(Some(blitz));
    /// let text = write_ggf(&game);
    /// assert!(text.contains("TI[03:00/00:02]"), "{text}");
    /// assert_eq!(parse_ggf(&text)?[0].time_control(), Ok(Some(blitz)));
    /// # Ok::<(), reversi_formats::ggf::GgfError>(())
    /// ```
    pub fn time_control(&self) -> Result<Option<TimeControl>, ParseClockError> {
        if let Some(ti) = self.tag("TI") {
            return parse_clock(ti).map(Some);
        }
        match (self.tag("TB"), self.tag("TW")) {
            (None, None) => Ok(None),
            (Some(b), Some(w)) => {
                let black = parse_clock(b)?;
                if parse_clock(w)? == black {
                    Ok(Some(black))
                } else {
                    Err(ParseClockError {
                        text: format!("TB[{b}]TW[{w}]").chars().take(40).collect(),
                        reason: "Black's and White's clocks differ",
                    })
                }
            }
            (Some(one), None) | (None, Some(one)) => Err(ParseClockError {
                text: one.chars().take(40).collect(),
                reason: "a clock for one side only",
            }),
        }
    }

    /// Sets the clock: `TI` written from `tc` (replacing `TI`, `TB` and `TW`), or no clock
    /// tag at all for `None`.
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.remove_tag("TB");
        self.remove_tag("TW");
        match tc {
            Some(tc) => self.set_tag("TI", &write_clock(&tc)),
            None => self.remove_tag("TI"),
        }
    }

    /// The game as the rules crate holds it. The moves were checked when read, so this only
    /// fails for a `GgfGame` built by hand with illegal moves.
    ///
    /// # Errors
    /// The index of the first illegal move and why.
    pub fn game(&self) -> Result<Game, (usize, IllegalMove)> {
        let moves: Vec<Move> = self.moves.iter().map(|m| m.mv).collect();
        Game::from_moves(self.start.clone(), &moves)
    }

    /// `RE` read as Black's margin in discs (`+12.00` → 12, `-4` → -4); `None` when absent or
    /// not a number (`?`).
    #[must_use]
    pub fn result_margin(&self) -> Option<f64> {
        let re = self.tag("RE")?;
        let number = re.split(':').next()?.trim();
        number.parse::<f64>().ok().filter(|m| m.is_finite())
    }
}

/// A cursor over one game's text.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Reads `NAME[value]`, unescaping the value; `None` at the game's end `;)`.
    fn tag(&mut self) -> Result<Option<(String, String)>, GgfErrorKind> {
        self.skip_ws();
        if self.rest().starts_with(";)") {
            self.pos += 2;
            return Ok(None);
        }
        if self.rest().is_empty() {
            return Err(GgfErrorKind::Unterminated);
        }
        let name_len = self
            .rest()
            .bytes()
            .take_while(u8::is_ascii_alphanumeric)
            .count();
        let name = &self.rest()[..name_len];
        self.pos += name_len;
        self.skip_ws();
        if name.is_empty() || !self.rest().starts_with('[') {
            let shown: String = self.rest().chars().take(12).collect();
            return Err(GgfErrorKind::BadTag(format!("{name}{shown}")));
        }
        self.pos += 1;
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        loop {
            match chars.next() {
                None => return Err(GgfErrorKind::BadTag(format!("{name}[{value}"))),
                Some((i, ']')) => {
                    self.pos += i + 1;
                    break;
                }
                Some((_, '\\')) => match chars.next() {
                    Some((_, c)) => value.push(c),
                    None => return Err(GgfErrorKind::BadTag(format!("{name}[{value}"))),
                },
                Some((_, c)) => value.push(c),
            }
        }
        Ok(Some((name.to_string(), value)))
    }
}

/// Reads `BO[size squares side]`.
fn parse_board(value: &str) -> Result<Position, GgfErrorKind> {
    let bad = |why: String| GgfErrorKind::BadBoard(why);
    let value = value.trim();
    let digits = value.bytes().take_while(u8::is_ascii_digit).count();
    let n: u8 = value[..digits]
        .parse()
        .map_err(|_| bad(format!("{value:?} does not start with the board size")))?;
    let size = BoardSize::new(n).map_err(|e| GgfErrorKind::BadSize(e.to_string()))?;
    let mut cells = Vec::with_capacity(size.cells());
    let mut turn = None;
    for ch in value[digits..].chars().filter(|c| !c.is_whitespace()) {
        let cell = match ch {
            '-' | '.' => None,
            '*' | 'X' | 'x' | '#' => Some(Color::Black),
            'O' | 'o' => Some(Color::White),
            _ => return Err(bad(format!("{ch:?} is not a square (- * O)"))),
        };
        if cells.len() < size.cells() {
            cells.push(cell);
        } else if turn.is_none() {
            turn = Some(cell.ok_or_else(|| bad("the side to move is not * or O".into()))?);
        } else {
            return Err(bad(format!("more than {} squares", size.cells())));
        }
    }
    let turn = turn.ok_or_else(|| {
        bad(format!(
            "{} squares and a side to move expected, {} found",
            size.cells(),
            cells.len()
        ))
    })?;
    let centre = Position::start(size, Rules::Othello).centre();
    let rules = if centre.iter().any(|sq| cells[sq.index(size)].is_none()) {
        Rules::Reversi
    } else {
        Rules::Othello
    };
    Position::setup(size, rules, &cells, turn)
        .ok_or_else(|| bad(format!("{} squares", cells.len())))
}

/// Reads a number of seconds: `1.25`, or `m:ss` / `h:mm:ss`.
fn parse_seconds(text: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        total = total * 60.0 + v;
    }
    total.is_finite().then_some(total)
}

fn parse_move(value: &str, size: BoardSize, number: usize) -> Result<GgfMove, GgfErrorKind> {
    let bad = || GgfErrorKind::BadMove {
        number,
        text: value.to_string(),
    };
    let mut parts = value.split('/');
    let sq = parts.next().unwrap_or_default().trim();
    let mv = if sq.eq_ignore_ascii_case("pa") || sq == "--" {
        Move::Pass
    } else {
        Move::Play(Square::parse(sq, size).map_err(|_| bad())?)
    };
    let number_or_none = |p: Option<&str>, seconds: bool| match p.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => {
            let v = if seconds {
                parse_seconds(t)
            } else {
                t.parse::<f64>().ok().filter(|v| v.is_finite())
            };
            v.map(Some).ok_or_else(bad)
        }
    };
    let eval = number_or_none(parts.next(), false)?;
    let seconds = number_or_none(parts.next(), true)?;
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(GgfMove { mv, eval, seconds })
}

/// The leading size digits of a `TY` value (`8`, `10`, `8r`, `s8r20`).
fn size_of_type(ty: &str) -> Option<u8> {
    let start = ty.find(|c: char| c.is_ascii_digit())?;
    let digits: String = ty[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Reads one game's text, from `(;` to `;)`. Returns the game and the bytes it used.
fn parse_one(text: &str) -> Result<(GgfGame, usize), GgfErrorKind> {
    let mut s = Scanner { text, pos: 0 };
    s.skip_ws();
    if !s.rest().starts_with("(;") {
        let shown: String = s.rest().chars().take(20).collect();
        return Err(GgfErrorKind::NotAGame(shown));
    }
    s.pos += 2;
    let mut tags = Vec::new();
    let mut board: Option<Position> = None;
    let mut ty_size: Option<u8> = None;
    // Moves as read, checked once the board is known (BO may follow them).
    let mut raw_moves: Vec<(Color, String)> = Vec::new();
    while let Some((name, value)) = s.tag()? {
        match name.as_str() {
            "GM" => {
                if !value.trim().eq_ignore_ascii_case("othello") {
                    return Err(GgfErrorKind::NotOthello(value));
                }
            }
            "TY" => {
                let n = size_of_type(&value)
                    .ok_or_else(|| GgfErrorKind::BadSize(format!("TY[{value}] names no size")))?;
                // Each TY kept is written back, so they must all name one size.
                if let Some(earlier) = ty_size.filter(|&earlier| earlier != n) {
                    return Err(GgfErrorKind::BadSize(format!(
                        "one TY says {earlier}, another {n}"
                    )));
                }
                ty_size = Some(n);
                // A bare size is implied by BO and written back from it; keep anything more.
                if value.trim() != n.to_string() {
                    tags.push((name, value));
                }
            }
            "BO" => board = Some(parse_board(&value)?),
            "B" => raw_moves.push((Color::Black, value)),
            "W" => raw_moves.push((Color::White, value)),
            _ => tags.push((name, value)),
        }
    }
    let used = s.pos;
    let start = match (board, ty_size) {
        (Some(b), Some(n)) if b.size().get() != n => {
            return Err(GgfErrorKind::BadSize(format!(
                "TY says {n} but BO says {}",
                b.size().get()
            )))
        }
        (Some(b), _) => b,
        (None, n) => {
            let size =
                BoardSize::new(n.unwrap_or(8)).map_err(|e| GgfErrorKind::BadSize(e.to_string()))?;
            Position::start(size, Rules::Othello)
        }
    };
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(raw_moves.len());
    for (i, (color, value)) in raw_moves.iter().enumerate() {
        let number = i + 1;
        let m = parse_move(value, start.size(), number)?;
        let illegal = |reason| GgfErrorKind::Illegal {
            number,
            text: value.clone(),
            reason,
        };
        // A pass the file left out: the mover is not the side to move, who has no move.
        if *color != pos.turn() && m.mv != Move::Pass && pos.must_pass() {
            pos = pos.play(Move::Pass).map_err(illegal)?;
            moves.push(GgfMove {
                mv: Move::Pass,
                eval: None,
                seconds: None,
            });
        }
        if *color != pos.turn() {
            return Err(illegal(IllegalMove::PassWithMoves(pos.turn())));
        }
        pos = pos.play(m.mv).map_err(illegal)?;
        moves.push(m);
    }
    Ok((GgfGame { start, moves, tags }, used))
}

/// Reads a file of GGF games: any number, one a line or spread over lines. Text outside games
/// other than whitespace is an error.
///
/// # Errors
/// [`GgfError`] naming the first bad game, the line it starts on, and why.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move, Position, Rules};
/// use reversi_formats::ggf::{parse_ggf, GgfErrorKind};
///
/// let text = "(;GM[Othello]PB[Ann]PW[Edax]RE[+12.00]TY[8]\
///     BO[8 ---------------------------O*------*O--------------------------- *]\
///     B[f5//1.2]W[d6/-1.5/0.3]B[c3];)\n";
/// let games = parse_ggf(text)?;
/// let g = &games[0];
/// assert_eq!(g.start, Position::start(BoardSize::EIGHT, Rules::Othello));
/// assert_eq!((g.tag("PB"), g.tag("PW")), (Some("Ann"), Some("Edax")));
/// assert_eq!(g.result_margin(), Some(12.0));
/// assert_eq!(g.moves.len(), 3);
/// assert_eq!(g.moves[0].mv, Move::Play(g.start.parse_square("f5").expect("f5 is on 8x8")));
/// assert_eq!((g.moves[1].eval, g.moves[1].seconds), (Some(-1.5), Some(0.3)));
/// assert_eq!(g.game().map(|game| game.moves().len()), Ok(3));
///
/// // The second game's third move, White's c4, is not White's turn: Black moves third.
/// let two = format!("{text}(;GM[Othello]B[f5]W[d6]W[c4];)");
/// let err = parse_ggf(&two).unwrap_err();
/// assert_eq!((err.game, err.line), (2, 2));
/// assert!(matches!(err.kind, GgfErrorKind::Illegal { number: 3, .. }));
/// # Ok::<(), reversi_formats::ggf::GgfError>(())
/// ```
pub fn parse_ggf(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut games = Vec::new();
    let mut pos = 0;
    let mut line = 1;
    loop {
        let rest = &text[pos..];
        let skipped = rest.len() - rest.trim_start().len();
        line += rest[..skipped].matches('\n').count();
        pos += skipped;
        if pos == text.len() {
            return Ok(games);
        }
        let (game, used) = parse_one(&text[pos..]).map_err(|kind| GgfError {
            game: games.len() + 1,
            line,
            kind,
        })?;
        line += text[pos..pos + used].matches('\n').count();
        pos += used;
        games.push(game);
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes a number in the fewest digits that read back the same (`1.5`, `-2`); Rust never
/// writes an exponent here, which GGF readers would not expect.
fn number(v: f64) -> String {
    format!("{v}")
}

/// Writes one game on one line: `GM`, then the kept tags, `TY` (when not among them), `BO`,
/// and the moves with their evaluations and times.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move, Position, Rules};
/// use reversi_formats::ggf::{parse_ggf, write_ggf, GgfGame, GgfMove};
///
/// let start = Position::start(BoardSize::FOUR, Rules::Othello);
/// let b1 = start.parse_square("b1").expect("b1 is on 4x4");
/// let mut game = GgfGame {
///     start,
///     moves: vec![GgfMove { mv: Move::Play(b1), eval: Some(-10.0), seconds: None }],
///     tags: Vec::new(),
/// };
/// game.set_tag("PB", "Ann [club]");
/// let text = write_ggf(&game);
/// assert_eq!(text, "(;GM[Othello]PB[Ann [club\\]]TY[4]BO[4 ---- -O*- -*O- ---- *]B[b1/-10];)");
/// assert_eq!(parse_ggf(&text)?, [game]);
/// # Ok::<(), reversi_formats::ggf::GgfError>(())
/// ```
#[must_use]
pub fn write_ggf(game: &GgfGame) -> String {
    let size = game.start.size();
    let mut out = String::from("(;GM[Othello]");
    for (k, v) in &game.tags {
        out.push_str(&format!("{k}[{}]", escape(v)));
    }
    if game.tag("TY").is_none() {
        out.push_str(&format!("TY[{}]", size.get()));
    }
    out.push_str(&format!("BO[{} ", size.get()));
    for (i, cell) in game.start.cells().iter().enumerate() {
        if i > 0 && i % usize::from(size.get()) == 0 {
            out.push(' ');
        }
        out.push(match cell {
            None => '-',
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
        });
    }
    out.push_str(match game.start.turn() {
        Color::Black => " *]",
        Color::White => " O]",
    });
    let mut turn = game.start.turn();
    for m in &game.moves {
        out.push_str(match turn {
            Color::Black => "B[",
            Color::White => "W[",
        });
        out.push_str(&m.mv.to_string());
        if m.eval.is_some() || m.seconds.is_some() {
            out.push('/');
            if let Some(e) = m.eval {
                out.push_str(&number(e));
            }
            if let Some(t) = m.seconds {
                out.push('/');
                out.push_str(&number(t));
            }
        }
        out.push(']');
        turn = turn.opposite();
    }
    out.push_str(";)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_testkit::Rng;

    const SAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[/1]PW[Edax (delay:0)]RB[1900]RW[2000]TI[5:00]TY[8]RE[+12.00]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//1.2]W[d6/-1.5/0.3]B[C3];)";

    #[test]
    fn reads_a_game() {
        let games = parse_ggf(SAMPLE).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("PB"), Some("/1"));
        assert_eq!(g.tag("PW"), Some("Edax (delay:0)"));
        assert_eq!(g.result_margin(), Some(12.0));
        assert_eq!(g.start, Position::start(BoardSize::EIGHT, Rules::Othello));
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0].seconds, Some(1.2));
        assert_eq!(g.moves[0].eval, None);
        assert_eq!(g.moves[1].eval, Some(-1.5));
        assert_eq!(g.moves[1].seconds, Some(0.3));
        assert_eq!(g.game().unwrap().moves().len(), 3);
        let again = parse_ggf(&write_ggf(g)).unwrap();
        assert_eq!(&again[0], g);
    }

    #[test]
    fn several_games_sizes_and_escapes() {
        let mut text = String::new();
        text.push_str(SAMPLE);
        text.push('\n');
        text.push_str("(;GM[Othello]TY[10r]PB[a \\] b]BO[10 ");
        text.push_str(&"-".repeat(100));
        text.push_str(" *]B[e5]W[f5]\n;)\n");
        let games = parse_ggf(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].start.size().get(), 10);
        assert_eq!(games[1].start.rules(), Rules::Reversi);
        assert_eq!(games[1].tag("PB"), Some("a ] b"));
        assert_eq!(parse_ggf(&write_ggf(&games[1])).unwrap()[0], games[1]);
    }

    #[test]
    fn errors_name_the_game_line_and_reason() {
        let text = format!("{SAMPLE}\n\n{}", SAMPLE.replace("B[C3]", "B[a1]"));
        let err = parse_ggf(&text).unwrap_err();
        assert_eq!((err.game, err.line), (2, 3));
        assert_eq!(
            err.to_string(),
            "line 3 (game 2): move 3 \"a1\": a1 flips no disc"
        );
        let err = parse_ggf("(;GM[Chess];)").unwrap_err();
        assert!(matches!(err.kind, GgfErrorKind::NotOthello(_)));
        let err = parse_ggf(&SAMPLE.replace(";)", "")).unwrap_err();
        assert_eq!(err.kind, GgfErrorKind::Unterminated);
        let err = parse_ggf(&SAMPLE.replace("TY[8]", "TY[10]")).unwrap_err();
        assert!(matches!(err.kind, GgfErrorKind::BadSize(_)), "{err}");
        let err = parse_ggf(&SAMPLE.replace(" *]", "]")).unwrap_err();
        assert!(matches!(err.kind, GgfErrorKind::BadBoard(_)), "{err}");
        let err = parse_ggf(&SAMPLE.replace("B[C3]", "B[C3/x]")).unwrap_err();
        assert!(matches!(err.kind, GgfErrorKind::BadMove { number: 3, .. }));
        let err = parse_ggf("junk").unwrap_err();
        assert!(matches!(err.kind, GgfErrorKind::NotAGame(_)));
        let err = parse_ggf(&SAMPLE.replace("B[C3]", "W[C3]")).unwrap_err();
        assert!(matches!(err.kind, GgfErrorKind::Illegal { number: 3, .. }));
    }

    #[test]
    fn the_nboard_clock_reads_and_writes_back() {
        let g = &parse_ggf(SAMPLE).unwrap()[0];
        let five = TimeControl::sudden_death(std::time::Duration::from_secs(300));
        assert_eq!(g.time_control(), Ok(Some(five)));
        // Kept as written, so written back the same.
        let text = write_ggf(g);
        assert!(text.contains("TI[5:00]"), "{text}");
        let again = &parse_ggf(&text).unwrap()[0];
        assert_eq!(again, g);
        assert_eq!(again.time_control(), Ok(Some(five)));
    }

    #[test]
    fn clocks_set_replace_and_remove_the_clock_tags() {
        let mut g = parse_ggf(&SAMPLE.replace("TI[5:00]", "TB[05:00//02:00]TW[5:00]"))
            .unwrap()
            .remove(0);
        let five = TimeControl::sudden_death(std::time::Duration::from_secs(300));
        assert_eq!(g.time_control(), Ok(Some(five)));
        let tc: TimeControl = "10m+5s".parse().unwrap();
        g.set_time_control(Some(tc));
        assert_eq!((g.tag("TB"), g.tag("TW")), (None, None));
        assert_eq!(g.tag("TI"), Some("10:00/00:05"));
        let back = parse_ggf(&write_ggf(&g)).unwrap().remove(0);
        assert_eq!(back.time_control(), Ok(Some(tc)));
        assert_eq!(back, g);
        g.set_time_control(None);
        assert_eq!(g.time_control(), Ok(None));
        assert!(!write_ggf(&g).contains("TI["));
    }

    #[test]
    fn clocks_that_do_not_map_are_errors_and_kept() {
        for (tags, reason) in [
            ("TI[2:00:00,N40//30:00]", "number of moves"),
            ("TI[soon]", "[[HH:]MM:]SS"),
            ("TB[5:00]TW[1:00]", "differ"),
            ("TB[5:00]", "one side only"),
        ] {
            let text = SAMPLE.replace("TI[5:00]", tags);
            let g = parse_ggf(&text).unwrap().remove(0);
            let e = g.time_control().unwrap_err();
            assert!(e.to_string().contains(reason), "{tags}: {e}");
            // The game reads, and its clock is written back untouched.
            assert!(write_ggf(&g).contains(tags), "{tags}");
        }
    }

    #[test]
    fn passes_written_or_left_out() {
        // A random 4x4 game to its end, with a pass in it: both spellings read the same.
        let start = Position::start(BoardSize::FOUR, Rules::Othello);
        let mut game = Game::new(start.clone());
        let mut rng = Rng::new(5);
        while !game.is_over() {
            game.play(*rng.pick(&game.current().moves())).unwrap();
        }
        assert!(game.moves().contains(&Move::Pass), "{:?}", game.moves());
        let ggf = GgfGame {
            start,
            moves: game
                .moves()
                .iter()
                .map(|&mv| GgfMove {
                    mv,
                    eval: None,
                    seconds: None,
                })
                .collect(),
            tags: vec![],
        };
        let written = write_ggf(&ggf);
        assert_eq!(parse_ggf(&written).unwrap()[0], ggf);
        let without: String = written.replace("B[PA]", "").replace("W[PA]", "");
        assert_eq!(parse_ggf(&without).unwrap()[0].game().unwrap(), game);
    }
}
