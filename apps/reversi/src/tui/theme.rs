//! How the screens look: colours, or none when `NO_COLOR` is set, and the characters for
//! discs and markers, which differ in shape as well as colour.

use ratatui::style::{Color as Tint, Modifier, Style};
use reversi_core::Color;

/// Colours on or off; everything drawn asks the theme for its glyph and style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub colour: bool,
}

impl Theme {
    pub const COLOUR: Theme = Theme { colour: true };
    pub const MONO: Theme = Theme { colour: false };

    /// Colours unless `NO_COLOR` is set to anything non-empty (<https://no-color.org>).
    #[must_use]
    pub fn from_env() -> Theme {
        Theme {
            colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    /// A disc: `●`/`○` in colour, `X`/`O` without.
    #[must_use]
    pub fn disc(self, color: Color) -> char {
        match (self.colour, color) {
            (true, Color::Black) => '●',
            (true, Color::White) => '○',
            (false, c) => c.symbol(),
        }
    }

    /// A disc the last move flipped: lower case without colour, a tinted square with it.
    #[must_use]
    pub fn flipped_disc(self, color: Color) -> char {
        if self.colour {
            self.disc(color)
        } else {
            color.symbol().to_ascii_lowercase()
        }
    }

    /// An empty square.
    #[must_use]
    pub fn empty(self) -> char {
        if self.colour {
            ' '
        } else {
            '.'
        }
    }

    /// An empty square the side to move may play (move assist).
    #[must_use]
    pub fn legal(self) -> char {
        if self.colour {
            '·'
        } else {
            '*'
        }
    }

    fn tint(self, style: Style, fg: Option<Tint>, bg: Option<Tint>) -> Style {
        if !self.colour {
            return style;
        }
        let style = fg.map_or(style, |c| style.fg(c));
        bg.map_or(style, |c| style.bg(c))
    }

    /// A board square holding `disc` (or empty).
    #[must_use]
    pub fn square(self, disc: Option<Color>) -> Style {
        let fg = match disc {
            Some(Color::Black) => Tint::Black,
            Some(Color::White) | None => Tint::White,
        };
        self.tint(Style::default(), Some(fg), Some(Tint::Green))
    }

    #[must_use]
    pub fn legal_style(self) -> Style {
        self.tint(Style::default(), Some(Tint::Yellow), Some(Tint::Green))
    }

    #[must_use]
    pub fn last_move(self, disc: Option<Color>) -> Style {
        let fg = match disc {
            Some(Color::Black) => Tint::Black,
            _ => Tint::White,
        };
        self.tint(Style::default(), Some(fg), Some(Tint::LightRed))
            .add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn flipped(self, disc: Option<Color>) -> Style {
        let fg = match disc {
            Some(Color::Black) => Tint::Black,
            _ => Tint::White,
        };
        self.tint(Style::default(), Some(fg), Some(Tint::LightGreen))
    }

    #[must_use]
    pub fn hint(self, best: bool) -> Style {
        let style = self.tint(Style::default(), Some(Tint::LightYellow), Some(Tint::Green));
        if best {
            style.add_modifier(Modifier::BOLD)
        } else {
            style
        }
    }

    #[must_use]
    pub fn title(self) -> Style {
        self.tint(Style::default(), Some(Tint::Cyan), None)
            .add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn error(self) -> Style {
        self.tint(Style::default(), Some(Tint::LightRed), None)
    }

    #[must_use]
    pub fn dim(self) -> Style {
        self.tint(Style::default(), Some(Tint::DarkGray), None)
    }

    #[must_use]
    pub fn banner(self) -> Style {
        self.tint(Style::default(), Some(Tint::Yellow), None)
            .add_modifier(Modifier::BOLD)
    }

    /// The selected line of a menu, and the board cursor.
    #[must_use]
    pub fn selected(self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }
}
