//! A game people share from several places (two browsers, say): who holds which seat (tokens
//! and the join code of [`Seats`]), which side each holder may move for, when moves may be
//! taken back and who resigns, as [`Table`] over a [`Session`]; refusals as [`TableError`].

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};

use reversi_core::{Color, ParseSquareError, Square};
use reversi_record::WebSeats;

use crate::session::{PlayError, Session};

/// Why a [`Table`] or its [`Seats`] refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableError {
    /// The game keeps no seat for a second person.
    NoSeat,
    /// The join code is not the game's.
    WrongCode,
    /// The second person's seat (this colour's) is held already.
    SeatTaken(Color),
    /// No token came with a request that needs one.
    NoToken,
    /// The token holds no seat of this game.
    UnknownToken,
    /// The token holds a seat, but not the side to move (this colour).
    NotYourTurn(Color),
    /// The game takes no more moves (over, resigned or closed).
    Over,
    /// The square named is not one of the board's.
    BadSquare(ParseSquareError),
    /// The session refused the move.
    Play(PlayError),
    /// Two people share the game: every move is final.
    NoTakebacks,
    /// Undo with no move of a person to take back.
    NothingToUndo,
    /// Redo with no move taken back.
    NothingToRedo,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NoSeat => f.write_str("this game has no seat to join"),
            TableError::WrongCode => {
                f.write_str("wrong join code: ask the game's creator for its link")
            }
            TableError::SeatTaken(c) => write!(f, "{c}'s seat is already taken"),
            TableError::NoToken => f.write_str("no player token"),
            TableError::UnknownToken => f.write_str("unknown player token for this game"),
            TableError::NotYourTurn(c) => write!(f, "it is {c}'s turn, not yours"),
            TableError::Over => f.write_str("the game is over"),
            TableError::BadSquare(e) => e.fmt(f),
            TableError::Play(PlayError::Illegal(e)) => write!(f, "illegal move: {e}"),
            TableError::Play(e) => e.fmt(f),
            TableError::NoTakebacks => f.write_str(
                "in a game between two people every move is final: undo and redo are off",
            ),
            TableError::NothingToUndo => f.write_str("nothing to undo"),
            TableError::NothingToRedo => f.write_str("nothing to redo"),
        }
    }
}

impl std::error::Error for TableError {}

/// A fresh random token (128 bits from the process's hash keys and the clock), for seats,
/// join codes and the like.
#[must_use]
pub fn new_token() -> String {
    let mut out = String::new();
    for _ in 0..2 {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}

/// Who holds which seat of a game.
#[derive(Debug)]
pub struct Seats {
    /// The creator's token: every human side but the one left for a guest.
    owner: String,
    /// The side a second person joins through the game's link, if any.
    pub remote: Option<Color>,
    guest: Option<String>,
    /// The code the game's link carries, without which nobody joins.
    code: Option<String>,
}

impl Seats {
    /// New seats: a token for the creator and, when a second person is to play `remote`, a
    /// join code for them.
    #[must_use]
    pub fn new(remote: Option<Color>) -> Seats {
        Seats {
            owner: new_token(),
            remote,
            guest: None,
            code: remote.map(|_| new_token()),
        }
    }

    /// The seats as the history keeps them (with nobody resigned).
    #[must_use]
    pub fn stored(&self) -> WebSeats {
        WebSeats {
            owner_token: self.owner.clone(),
            remote: self.remote,
            guest_token: self.guest.clone(),
            join_code: self.code.clone(),
            resigned: None,
        }
    }

    /// The seats kept in the history.
    #[must_use]
    pub fn from_stored(seats: WebSeats) -> Seats {
        Seats {
            owner: seats.owner_token,
            remote: seats.remote,
            guest: seats.guest_token,
            code: seats.join_code,
        }
    }

    /// The creator's token.
    #[must_use]
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The code a guest joins with (for the creator's share link).
    #[must_use]
    pub fn join_code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// Whether a second person has taken the open seat.
    #[must_use]
    pub fn joined(&self) -> bool {
        self.guest.is_some()
    }

    /// Whether `token` is the guest's.
    #[must_use]
    pub fn is_guest(&self, token: Option<&str>) -> bool {
        token.is_some() && token == self.guest.as_deref()
    }

    /// Gives the open seat to a guest who has the link's `code`, once: its colour and the
    /// guest's new token.
    ///
    /// # Errors
    /// [`TableError::NoSeat`], [`TableError::WrongCode`] or [`TableError::SeatTaken`].
    pub fn join(&mut self, code: &str) -> Result<(Color, String), TableError> {
        let Some(color) = self.remote else {
            return Err(TableError::NoSeat);
        };
        if self.code.as_deref() != Some(code) {
            return Err(TableError::WrongCode);
        }
        if self.guest.is_some() {
            return Err(TableError::SeatTaken(color));
        }
        let token = new_token();
        self.guest = Some(token.clone());
        Ok((color, token))
    }

    /// Whether `token` may move for `color`.
    ///
    /// # Errors
    /// [`TableError::NoToken`], [`TableError::NotYourTurn`] (a seat of the game, but not
    /// this side's) or [`TableError::UnknownToken`].
    pub fn check(&self, token: Option<&str>, color: Color) -> Result<(), TableError> {
        let token = token.ok_or(TableError::NoToken)?;
        let holder = if self.remote == Some(color) {
            self.guest.as_deref()
        } else {
            Some(self.owner.as_str())
        };
        if holder == Some(token) {
            Ok(())
        } else if token == self.owner || Some(token) == self.guest.as_deref() {
            Err(TableError::NotYourTurn(color))
        } else {
            Err(TableError::UnknownToken)
        }
    }

    /// Whether `token` holds any seat of the game.
    ///
    /// # Errors
    /// [`TableError::NoToken`] or [`TableError::UnknownToken`].
    pub fn any(&self, token: Option<&str>) -> Result<(), TableError> {
        match token {
            Some(t) if t == self.owner || Some(t) == self.guest.as_deref() => Ok(()),
            Some(_) => Err(TableError::UnknownToken),
            None => Err(TableError::NoToken),
        }
    }
}

/// A shared game: the session, its seats, and how it ended if not on the board.
#[derive(Debug)]
pub struct Table {
    /// The game itself.
    pub session: Session,
    /// Who holds which seat.
    pub seats: Seats,
    /// The side that resigned, once one did (the history then has the game abandoned).
    pub resigned: Option<Color>,
    /// Ended in the history (resigned, abandoned or lost on time) before this table was set,
    /// whatever the board says: nobody moves in it.
    pub closed: bool,
}

impl Table {
    /// A table for `session` with `seats`, nobody resigned.
    #[must_use]
    pub fn new(session: Session, seats: Seats) -> Table {
        Table {
            session,
            seats,
            resigned: None,
            closed: false,
        }
    }

    /// Whether the game takes no more moves (over, resigned or closed).
    #[must_use]
    pub fn ended(&self) -> bool {
        self.session.is_over() || self.resigned.is_some() || self.closed
    }

    /// Whether the session's undo and redo are open to the players: not between two people,
    /// whose every move is final, nor once the game has ended.
    #[must_use]
    pub fn takebacks(&self) -> bool {
        !self.ended() && self.seats.remote.is_none()
    }

    /// The seats and the resignation, as the history keeps them.
    #[must_use]
    pub fn stored_seats(&self) -> WebSeats {
        WebSeats {
            resigned: self.resigned,
            ..self.seats.stored()
        }
    }

    /// The holder of `token` plays `square` (its name, `f5`) for the side to move.
    ///
    /// # Errors
    /// [`TableError::Over`]; [`TableError::BadSquare`]; [`TableError::Play`] with
    /// [`PlayError::NotYourTurn`] when the computer plays the side to move (before any look at
    /// the token); the refusals of [`Seats::check`]; the session's other [`PlayError`]s
    /// (with [`PlayError::OutOfTime`] the game has just ended on time).
    pub fn play(&mut self, token: Option<&str>, square: &str) -> Result<(), TableError> {
        if self.ended() {
            return Err(TableError::Over);
        }
        let pos = self.session.position();
        let sq = Square::parse(square, pos.size()).map_err(TableError::BadSquare)?;
        let turn = pos.turn();
        if !self.session.player(turn).is_human() {
            return Err(TableError::Play(PlayError::NotYourTurn(turn)));
        }
        self.seats.check(token, turn)?;
        self.session.play(sq).map_err(TableError::Play)
    }

    /// The holder of `token` takes back to the previous turn of a person.
    ///
    /// # Errors
    /// The refusals of [`Seats::any`], then [`TableError::Over`], [`TableError::NoTakebacks`]
    /// or [`TableError::NothingToUndo`].
    pub fn undo(&mut self, token: Option<&str>) -> Result<(), TableError> {
        self.may_take_back(token)?;
        if self.session.undo() == 0 {
            return Err(TableError::NothingToUndo);
        }
        Ok(())
    }

    /// The holder of `token` replays what undo took back, to the next turn of a person.
    ///
    /// # Errors
    /// As [`Table::undo`], with [`TableError::NothingToRedo`].
    pub fn redo(&mut self, token: Option<&str>) -> Result<(), TableError> {
        self.may_take_back(token)?;
        if self.session.redo() == 0 {
            return Err(TableError::NothingToRedo);
        }
        Ok(())
    }

    fn may_take_back(&self, token: Option<&str>) -> Result<(), TableError> {
        self.seats.any(token)?;
        if self.ended() {
            return Err(TableError::Over);
        }
        if self.seats.remote.is_some() {
            return Err(TableError::NoTakebacks);
        }
        Ok(())
    }

    /// The holder of `token` resigns, and the side that resigned is returned: a guest's own
    /// side; between two people, the owner's; else the side to move when a person plays it,
    /// the other side when the computer does.
    ///
    /// # Errors
    /// The refusals of [`Seats::any`], then [`TableError::Over`].
    pub fn resign(&mut self, token: Option<&str>) -> Result<Color, TableError> {
        self.seats.any(token)?;
        if self.ended() {
            return Err(TableError::Over);
        }
        let turn = self.session.position().turn();
        let color = match self.seats.remote {
            Some(remote) if self.seats.is_guest(token) => remote,
            Some(remote) => remote.opposite(),
            None if self.session.player(turn).is_human() => turn,
            None => turn.opposite(),
        };
        self.resigned = Some(color);
        Ok(color)
    }
}

#[cfg(test)]
mod tests;
