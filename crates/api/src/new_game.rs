//! A request for a new game, as the page's new-game form sends it, checked and turned into
//! the game's settings, start and record: the same rules for the server and the browser.

use reversi_core::{BoardSize, Color, Position, Rules, TimeControl};
use reversi_formats::position::{parse_position, PositionInput};
use reversi_game::{ParsePlayerError, Player, Settings};
use reversi_players::Ai;
use reversi_record::NewGame;
use serde::Deserialize;

/// A new game: every field may be left out (8x8 Othello, a person as Black against the
/// default level).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    /// 4-16, even (default 8).
    pub size: Option<u8>,
    /// `othello` or `reversi` (default `othello`).
    pub rules: Option<String>,
    /// `human`, `ai:LEVEL` (1-60 or a level name), `ai:greedy`, `ai:random`.
    pub black: Option<String>,
    /// As `black` [the default level].
    pub white: Option<String>,
    /// The side a second person plays from another browser, joining by the game's link.
    pub remote: Option<String>,
    /// The computer players' seed [from the clock].
    pub seed: Option<u64>,
    /// Each side's clock, `BASE[+INCREMENT]` (`5m+3s`); none for an untimed game.
    pub clock: Option<String>,
    /// A set-up start (any notation a position is read in; its size and rule replace `size`
    /// and `rules`, which a transcript is played under).
    pub position: Option<String>,
}

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// Malformed: a size, rule, player, side or clock that does not read.
    BadRequest(String),
    /// Well formed but impossible: a start that cannot be read, cannot arise, or is over.
    Unprocessable(String),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::BadRequest(m) | RequestError::Unprocessable(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RequestError {}

fn bad(e: impl std::fmt::Display) -> RequestError {
    RequestError::BadRequest(e.to_string())
}

/// A checked new game: its settings, start, the side played from another browser, and the
/// record the history keeps of it.
#[derive(Debug, Clone)]
pub struct NewGamePlan {
    /// The players, board, rule, seed and clock.
    pub settings: Settings,
    /// Where the game starts.
    pub start: Position,
    /// The human side a second person plays by the game's link.
    pub remote: Option<Color>,
    /// The history's record (the players named as the page names them).
    pub record: NewGame,
}

/// Reads `text` as a position: a transcript is played on `size` (default 8) from the start
/// of `rules` (default `othello`), which is also the rule of a board or OBF line.
///
/// # Errors
/// [`RequestError::BadRequest`] for a size or rule out of range,
/// [`RequestError::Unprocessable`] naming what is wrong with the text.
pub fn read_position(
    text: &str,
    size: Option<u8>,
    rules: Option<&str>,
) -> Result<PositionInput, RequestError> {
    let size = BoardSize::new(size.unwrap_or(8)).map_err(bad)?;
    let rules: Rules = rules
        .unwrap_or("othello")
        .parse()
        .map_err(|e: reversi_core::ParseRulesError| bad(e))?;
    parse_position(text, size, rules).map_err(|e| RequestError::Unprocessable(e.to_string()))
}

fn parse_color(text: &str) -> Result<Color, RequestError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        _ => Err(bad(format!(
            "unknown side {text:?}: expected black or white"
        ))),
    }
}

/// A side's player; the classic algorithms are refused, since their searches have no time
/// budget and a deep one would hold a search for minutes.
fn parse_player(text: Option<&str>, default: Player) -> Result<Player, RequestError> {
    let player = match text {
        None => default,
        Some(t) => t.parse().map_err(|e: ParsePlayerError| bad(e))?,
    };
    if let Player::Computer(ai @ Ai::Classic { .. }) = player {
        return Err(bad(format!(
            "the page's computer players are the levels, greedy and random: {ai} has no time \
             budget"
        )));
    }
    Ok(player)
}

/// A side as the history names it: `Human` (or `Guest` for the remote side), or the
/// program at its level.
fn stored_player(p: Player, guest: bool) -> reversi_record::Player {
    match p {
        Player::Human if guest => reversi_record::Player::human("Guest"),
        Player::Human => reversi_record::Player::human("Human"),
        Player::Computer(ai) => reversi_record::Player::computer("reversi", &ai.to_string()),
    }
}

impl NewGameRequest {
    /// The game this request asks for; `seed` gives the seed when the request has none.
    ///
    /// # Errors
    /// What is wrong with the request (see [`RequestError`]).
    pub fn plan(&self, seed: impl FnOnce() -> u64) -> Result<NewGamePlan, RequestError> {
        let size = BoardSize::new(self.size.unwrap_or(8)).map_err(bad)?;
        let rules: Rules = self
            .rules
            .as_deref()
            .unwrap_or("othello")
            .parse()
            .map_err(|e: reversi_core::ParseRulesError| bad(e))?;
        let black = parse_player(self.black.as_deref(), Player::Human)?;
        let white = parse_player(self.white.as_deref(), Player::Computer(Ai::default()))?;
        let remote = self.remote.as_deref().map(parse_color).transpose()?;
        let start = match self.position.as_deref() {
            None => Position::start(size, rules),
            Some(text) => {
                let start = read_position(text, Some(size.get()), Some(rules.name()))?
                    .position()
                    .clone();
                if start.is_game_over() {
                    return Err(RequestError::Unprocessable(
                        "neither side can move in this position: the game is over before it \
                         starts"
                            .into(),
                    ));
                }
                start
            }
        };
        let (size, rules) = (start.size(), start.rules());
        let settings = Settings {
            size,
            rules,
            black,
            white,
            seed: self.seed.unwrap_or_else(seed),
            clock: self
                .clock
                .as_deref()
                .filter(|c| !c.trim().is_empty())
                .map(str::parse::<TimeControl>)
                .transpose()
                .map_err(bad)?,
        };
        if let Some(side) = remote {
            if !settings.player(side).is_human() {
                return Err(bad(format!(
                    "the remote side {side} must be played by a human"
                )));
            }
        }
        let standard = start == Position::start(size, rules);
        let record = NewGame {
            clock: settings.clock,
            start: (!standard).then(|| start.clone()),
            ..NewGame::standard(
                size,
                rules,
                stored_player(black, remote == Some(Color::Black)),
                stored_player(white, remote == Some(Color::White)),
            )
        };
        Ok(NewGamePlan {
            settings,
            start,
            remote,
            record,
        })
    }
}
