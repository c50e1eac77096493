//! The engine's side of an NBoard session: the game the GUI set up, the depth it asked for,
//! and the answers to `go`, `hint`, `analyze`, `ping` and `learn`, written to any `Write`.
//!
//! With an opening book ([`Session::with_book`]), `go` plays the best book move at once and
//! `hint` streams `book` lines for the book's moves before searching the others; `learn`
//! adds the game to the book when the session can save it ([`Session::learn_into`]) and is
//! refused with a `status` line otherwise.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use reversi_core::{BoardSize, Color, Game, Move, Position, Rules, Score, TimeControl};
use reversi_engine::book::build::{self as book_build, SearchOptions};
use reversi_engine::book::{Book, BookMove};
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::levels::Level;
use reversi_engine::time::TimeBudget;
use reversi_engine::{Board, FromPositionError, ScoreKind, Sq, Thinking};
use reversi_formats::ggf::parse_ggf;

use super::command::Command;
use super::notation::{depth_text, eval_text, line_text, move_text, parse_annotated};

/// Whether the session goes on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The GUI said `quit`: the session is over.
    Quit,
}

/// The name the engine gives itself in `set myname`, followed by its depth (`Reversi12`), as
/// NTest and Edax do.
pub const NAME: &str = "Reversi";

/// The midgame depth before the GUI sets one (the terminal game's default level).
pub const DEFAULT_DEPTH: u32 = Level::DEFAULT.get() as u32;

/// An NBoard session over an engine.
///
/// Games the bitboard engine cannot search (boards larger than 8x8, the Reversi rule's centre
/// placement) are still set up and followed move by move, but `go`, `hint` and `analyze`
/// answer them with a `status` line saying why instead of a move.
///
/// # Examples
/// A GUI sets a shallow depth, plays two moves and asks for the engine's move; the replies
/// are written to a `Vec` here, to standard output by `reversi nboard`:
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use reversi_engine::engine::Engine;
/// use reversi_protocol::nboard::notation::parse_annotated;
/// use reversi_protocol::nboard::{Flow, Session};
///
/// let mut session = Session::new(Engine::new(1, 1));
/// let stop = AtomicBool::new(false);
/// let mut out = Vec::new();
/// for line in ["nboard 2", "set depth 4", "move F5", "move D6/0.50/1.2", "junk", "ping 1", "go"] {
///     assert_eq!(session.handle_line(line, &mut out, &stop)?, Flow::Continue);
/// }
/// assert_eq!(session.handle_line("quit", &mut out, &stop)?, Flow::Quit);
///
/// let replies = String::from_utf8(out)?;
/// let replies: Vec<&str> = replies.lines().collect();
/// assert_eq!(replies[..3], ["set myname Reversi4", "pong 1", "status Reversi4 is thinking"]);
/// assert!(replies.iter().any(|l| l.starts_with("search ")), "{replies:?}");
/// // The answer is a legal move for Black; `go` does not play it.
/// let answer = replies.last().and_then(|l| l.strip_prefix("=== ")).expect("an answer");
/// let game = session.game();
/// let mv = parse_annotated(answer, game.current().size())?.mv;
/// assert!(game.current().play(mv).is_ok(), "{answer}");
/// assert_eq!(game.moves().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Session {
    engine: Engine,
    game: Game,
    /// The clock of the game the GUI set (`TI`), if any.
    clock: Option<TimeControl>,
    /// The time each move of `game` took, as the GUI gave it.
    spent: Vec<Option<Duration>>,
    depth: u32,
    contempt: f64,
    version: u32,
    book: Option<Arc<Book>>,
    save_book: Option<SaveBook>,
}

/// Saves the book after `learn`, or says why it could not.
pub type SaveBook = Box<dyn FnMut(&Book) -> Result<(), String> + Send>;

/// Moves a learned game adds to the book, from the start.
pub const LEARN_PLIES: usize = 36;

/// The depth a learned position is searched to when the book does not say.
const LEARN_DEPTH: u8 = 16;

/// A search's answer seen from the side to move of the position asked about (a forced pass
/// included).
#[derive(Debug, Clone)]
struct Thought {
    kind: ScoreKind,
    score: i32,
    pv: Vec<Move>,
    /// Root moves with their scores, best first.
    moves: Vec<(Move, i32)>,
    nodes: u64,
    elapsed: Duration,
}

impl Thought {
    /// The thought of a search of the position after the forced pass when `passed`; `None`
    /// when the search had no move to choose.
    fn from_thinking(t: &Thinking, passed: bool) -> Option<Thought> {
        let best = t.best.as_ref()?;
        let sign = if passed { -1 } else { 1 };
        let mut pv = t.pv.clone();
        let moves = if passed {
            pv.insert(0, Move::Pass);
            vec![(Move::Pass, -best.score)]
        } else {
            t.candidates.iter().map(|c| (c.mv, c.score)).collect()
        };
        Some(Thought {
            kind: best.kind,
            score: sign * best.score,
            pv,
            moves,
            nodes: t.nodes,
            elapsed: t.elapsed,
        })
    }

    fn best(&self) -> Move {
        self.pv.first().copied().unwrap_or(Move::Pass)
    }

    /// The `search` line for root move `i`: the best move with the whole line, the others
    /// alone; `None` past the moves searched.
    fn search_line(&self, i: usize) -> Option<String> {
        let (line, score) = if i == 0 {
            (line_text(&self.pv), self.score)
        } else {
            let &(mv, score) = self.moves.get(i)?;
            if mv == self.best() {
                return None;
            }
            (line_text(&[mv]), score)
        };
        Some(format!(
            "search {line} {} 0 {}",
            eval_text(score, self.kind),
            depth_text(self.kind)
        ))
    }
}

/// Seconds from a GGF move or an NBoard `move` as a duration (`None` if absent or negative).
fn seconds(s: Option<f64>) -> Option<Duration> {
    s.and_then(|s| Duration::try_from_secs_f64(s).ok())
}

/// Writes one reply line and flushes it, as the protocol requires.
fn send(out: &mut dyn Write, line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

impl Session {
    /// A session on the 8x8 Othello start at [`DEFAULT_DEPTH`].
    #[must_use]
    pub fn new(engine: Engine) -> Session {
        Session {
            engine,
            game: Game::new(Position::start(BoardSize::EIGHT, Rules::Othello)),
            clock: None,
            spent: Vec::new(),
            depth: DEFAULT_DEPTH,
            contempt: 0.0,
            version: 0,
            book: None,
            save_book: None,
        }
    }

    /// The same session playing and hinting from `book` in the opening.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Session {
        self.book = book;
        self
    }

    /// Lets `learn` add games to the book (an empty one if the session has none), calling
    /// `save` with the book after each.
    #[must_use]
    pub fn learn_into(mut self, save: SaveBook) -> Session {
        self.book.get_or_insert_with(|| Arc::new(Book::new()));
        self.save_book = Some(save);
        self
    }

    /// The session's opening book, if it has one.
    #[must_use]
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The book's moves of the current position, best first (none for boards other than the
    /// 8x8 or positions outside the book).
    fn book_moves(&self, pos: &Position) -> Vec<BookMove> {
        let Some(book) = &self.book else {
            return Vec::new();
        };
        match Board::from_position(pos) {
            Ok((board, u64::MAX)) => book.moves(board).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// The game the GUI set up and the moves played since.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The midgame depth.
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The contempt the GUI set: kept and reported, not used (the book values draws as 0).
    #[must_use]
    pub fn contempt(&self) -> f64 {
        self.contempt
    }

    /// The protocol version the GUI announced (0 before `nboard`).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.version
    }

    /// What a search does at the current depth: the level of that number, that is the depth
    /// in the midgame and an exact solve from about twice as many empty squares (capped as the
    /// levels cap it, so that answers stay quick).
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits::level(self.level())
    }

    /// The level of the current depth (`set depth N` plays like level N).
    fn level(&self) -> Level {
        let n = u8::try_from(self.depth.clamp(1, 60)).unwrap_or(Level::MAX);
        Level::new(n).unwrap_or(Level::DEFAULT)
    }

    /// Handles one line from the GUI; a line that is not a command is ignored.
    ///
    /// # Errors
    /// Only when writing a reply fails.
    pub fn handle_line(
        &mut self,
        line: &str,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> io::Result<Flow> {
        match Command::parse(line) {
            Ok(command) => self.handle(command, out, stop),
            Err(_) => Ok(Flow::Continue),
        }
    }

    /// Carries out one command, writing its replies to `out`. `stop` ends a search early (the
    /// line reader raises it when a `ping` arrives).
    ///
    /// # Errors
    /// Only when writing a reply fails.
    pub fn handle(
        &mut self,
        command: Command,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> io::Result<Flow> {
        match command {
            Command::NBoard(version) => self.version = version,
            Command::SetDepth(depth) => {
                self.depth = depth.min(60);
                send(out, &format!("set myname {NAME}{}", self.depth))?;
            }
            Command::SetGame(text) => self.set_game(&text),
            Command::SetContempt(c) => self.contempt = c,
            Command::Move(text) => self.play(&text),
            Command::Hint(n) => self.hint(n, out, stop)?,
            Command::Go => self.go(out, stop)?,
            Command::Ping(n) => send(out, &format!("pong {n}"))?,
            Command::Learn => self.learn(out)?,
            Command::Analyze => self.analyze(out, stop)?,
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// `set game`: a game that does not parse is ignored, and the current one kept. Its
    /// clock (`TI`) and the seconds of its moves are kept for `go` to budget its time.
    fn set_game(&mut self, text: &str) {
        let Ok(games) = parse_ggf(text) else { return };
        let Some(ggf) = games.first() else { return };
        if let Ok(game) = ggf.game() {
            self.game = game;
            // A clock that does not parse is as good as none: the level's own budget applies.
            self.clock = ggf.time_control().ok().flatten();
            self.spent = ggf.moves.iter().map(|m| seconds(m.seconds)).collect();
        }
    }

    /// The time the side to move should take by the game's clock, if it has one.
    #[must_use]
    pub fn clock_budget(&self) -> Option<Duration> {
        let clock = self.clock?;
        let (black, white) = clock.time_left(&self.game, &self.spent);
        let pos = self.game.current();
        let left = if pos.turn() == Color::Black {
            black
        } else {
            white
        };
        let empties = u32::try_from(pos.empty_count()).unwrap_or(u32::MAX);
        Some(
            TimeBudget::Clock {
                remaining: left,
                increment: clock.increment,
            }
            .for_move(empties),
        )
    }

    /// `move`: an illegal move is ignored. A move for the other side while the side to move
    /// has to pass is taken as the pass and the move, for GUIs that leave passes out.
    fn play(&mut self, text: &str) {
        let pos = self.game.current().clone();
        let Ok(m) = parse_annotated(text, pos.size()) else {
            return;
        };
        self.spent.truncate(self.game.moves().len());
        if self.game.play(m.mv).is_ok() {
            self.spent.push(seconds(m.seconds));
            return;
        }
        if m.mv != Move::Pass && pos.must_pass() {
            let after_pass = pos.with_turn(pos.turn().opposite());
            if after_pass.play(m.mv).is_ok() {
                let _ = self.game.play(Move::Pass);
                let _ = self.game.play(m.mv);
                self.spent.extend([None, seconds(m.seconds)]);
            }
        }
    }

    /// Searches `pos`: `Ok(None)` when the game is over. A forced pass is searched from the
    /// opponent's side and reported as the pass.
    fn think(
        &self,
        pos: &Position,
        all_exact: bool,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Thought),
    ) -> Result<Option<Thought>, FromPositionError> {
        if pos.is_game_over() {
            return Ok(None);
        }
        let (board, mask) = Board::from_position(pos)?;
        let passed = pos.must_pass();
        let board = if passed { board.pass() } else { board };
        // On 8x8 a level may play its midgame as another, as in a game (perfect as level 24).
        let mut limits = if mask == u64::MAX {
            Limits::level_at(self.level(), (board.empties() & mask).count_ones())
        } else {
            self.limits()
        };
        // The move to play in the game the GUI set: no longer than its clock allows.
        if !all_exact && *pos == *self.game.current() {
            if let Some(budget) = self.clock_budget() {
                limits.time = Some(limits.time.map_or(budget, |t| t.min(budget)));
            }
        }
        let mut progress = |t: &Thinking| {
            if let Some(thought) = Thought::from_thinking(t, passed) {
                report(&thought);
            }
        };
        let thinking = if all_exact {
            self.engine
                .analyze(board, mask, &limits, stop, &mut progress)
        } else {
            self.engine
                .search(board, mask, &limits, stop, &mut progress)
        };
        Ok(Thought::from_thinking(&thinking, passed))
    }

    fn go(&mut self, out: &mut dyn Write, stop: &AtomicBool) -> io::Result<()> {
        let pos = self.game.current().clone();
        if pos.must_pass() {
            return send(out, "=== PA");
        }
        send(out, &format!("status {NAME}{} is thinking", self.depth))?;
        if let Some(best) = self.book_moves(&pos).first() {
            send(out, &book_line(best))?;
            return send(
                out,
                &format!(
                    "=== {}/{}/0.00",
                    move_text(Move::from(best.sq)),
                    eval_text(best.value, ScoreKind::Book)
                ),
            );
        }
        let mut failed = None;
        let result = self.think(&pos, false, stop, &mut |t| {
            if failed.is_none() {
                if let Some(line) = t.search_line(0) {
                    failed = send(out, &line).err();
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        match result {
            Ok(Some(t)) => {
                send(out, &nodestats(&t))?;
                send(
                    out,
                    &format!(
                        "=== {}/{}/{:.2}",
                        move_text(t.best()),
                        eval_text(t.score, t.kind),
                        t.elapsed.as_secs_f64()
                    ),
                )
            }
            Ok(None) => send(out, "status the game is over: no move to play"),
            Err(e) => send(out, &format!("status cannot search this position: {e}")),
        }
    }

    fn hint(&mut self, n: usize, out: &mut dyn Write, stop: &AtomicBool) -> io::Result<()> {
        let pos = self.game.current().clone();
        send(out, &format!("status {NAME}{} is analysing", self.depth))?;
        // The book's moves first; the search then fills in the others, if more are wanted.
        let book: Vec<Move> = self
            .book_moves(&pos)
            .iter()
            .take(n)
            .map(|m| send(out, &book_line(m)).map(|()| Move::from(m.sq)))
            .collect::<io::Result<_>>()?;
        if !book.is_empty() && (book.len() >= n || book.len() == pos.legal_moves().len()) {
            return send(out, "status");
        }
        let mut failed = None;
        let mut reported = false;
        let write_top = |t: &Thought, out: &mut dyn Write| -> io::Result<()> {
            for i in 0..n.min(t.moves.len().max(1)) {
                if t.moves.get(i).is_some_and(|(mv, _)| book.contains(mv)) {
                    continue;
                }
                if let Some(line) = t.search_line(i) {
                    send(out, &line)?;
                }
            }
            Ok(())
        };
        let result = self.think(&pos, true, stop, &mut |t| {
            reported = true;
            if failed.is_none() {
                failed = write_top(t, out).err();
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        match result {
            Ok(Some(t)) => {
                if !reported {
                    write_top(&t, out)?;
                }
                send(out, &nodestats(&t))?;
            }
            Ok(None) => send(out, "status the game is over: nothing to hint")?,
            Err(e) => send(out, &format!("status cannot search this position: {e}"))?,
        }
        send(out, "status")
    }

    /// `analyze`: every position of the game from the last to the start (so that the later,
    /// smaller searches fill the table for the earlier ones), one `analysis` line each.
    fn analyze(&mut self, out: &mut dyn Write, stop: &AtomicBool) -> io::Result<()> {
        send(out, &format!("status {NAME}{} is analysing", self.depth))?;
        let positions = self.game.positions().to_vec();
        for (made, pos) in positions.iter().enumerate().rev() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let eval = if pos.is_game_over() {
                Some(format!("{:.2}", f64::from(final_margin(pos))))
            } else {
                match self.think(pos, false, stop, &mut |_| {}) {
                    Ok(Some(t)) => Some(eval_text(t.score, t.kind)),
                    _ => None,
                }
            };
            if let Some(eval) = eval {
                send(out, &format!("analysis {made} {eval}"))?;
            }
        }
        send(out, "status")
    }
}

impl Session {
    /// `learn`: adds the game to the book, searches its new positions and saves the book;
    /// refused with a `status` line when the session cannot save a book, or the game is not
    /// an 8x8 Othello game from the standard start.
    fn learn(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let (Some(book), Some(save)) = (&mut self.book, &mut self.save_book) else {
            return send(
                out,
                "status cannot learn: no book file to learn into (start the engine with --learn FILE)",
            );
        };
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        if *self.game.start() != start {
            return send(
                out,
                "status cannot learn: the book holds 8x8 Othello games from the standard start",
            );
        }
        send(out, "status learning the game")?;
        let moves: Vec<Sq> = self
            .game
            .moves()
            .iter()
            .filter_map(|&m| Sq::from_move(m))
            .collect();
        let book = Arc::make_mut(book);
        book_build::learn(book, &moves, LEARN_PLIES);
        let depth = if book.depth == 0 {
            LEARN_DEPTH
        } else {
            book.depth
        };
        book_build::search_pending(book, SearchOptions::new(depth, 1));
        match save(book) {
            Ok(()) => send(out, "learned"),
            Err(e) => send(out, &format!("status cannot learn: {e}")),
        }
    }
}

/// The `book` line of a book move: `book F5 1.00 1234 16`.
fn book_line(m: &BookMove) -> String {
    let depth = if m.exact {
        "100%".to_string()
    } else {
        m.depth.to_string()
    };
    format!(
        "book {} {} {} {depth}",
        move_text(Move::from(m.sq)),
        eval_text(m.value, ScoreKind::Book),
        m.games
    )
}

fn nodestats(t: &Thought) -> String {
    format!("nodestats {} {:.2}", t.nodes, t.elapsed.as_secs_f64())
}

/// The final disc difference of a finished game for its side to move, empty squares to the
/// winner.
fn final_margin(pos: &Position) -> i32 {
    let margin = Score::of(pos).margin();
    match pos.turn() {
        Color::Black => margin,
        Color::White => -margin,
    }
}

#[cfg(test)]
mod tests;
