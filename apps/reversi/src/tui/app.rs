//! The terminal UI's state: which screen is up, the background workers, and the dispatch of
//! keys and worker reports to the screen; drawing the current screen.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::game::{GameAction, GameScreen};
use super::menu::{Menu, MenuItem};
use super::setup::{Setup, SetupAction};
use super::theme::Theme;
use super::worker::Workers;
use super::{help, Start};
use crate::session::{Session, Settings};

/// The screen shown.
pub enum Screen {
    Menu(Menu),
    Setup(Setup),
    Help,
    Game(Box<GameScreen>),
}

/// The whole terminal UI.
pub struct App {
    pub screen: Screen,
    /// The keys list is drawn over the game.
    pub keys_open: bool,
    pub theme: Theme,
    pub quit: bool,
    workers: Workers,
    /// The settings of the last game, offered again by New game.
    last: Settings,
}

impl App {
    #[must_use]
    pub fn new(start: Start, theme: Theme) -> App {
        let mut app = App {
            screen: Screen::Menu(Menu::default()),
            keys_open: false,
            theme,
            quit: false,
            workers: Workers::default(),
            last: Settings::default(),
        };
        match start {
            Start::Menu(settings) => app.last = settings,
            Start::Game(settings) => app.start_game(settings),
        }
        app
    }

    fn start_game(&mut self, settings: Settings) {
        self.last = settings;
        let mut game = GameScreen::new(Session::new(settings));
        game.advance(&mut self.workers);
        self.screen = Screen::Game(Box::new(game));
    }

    /// The game screen, when a game is up.
    #[must_use]
    pub fn game(&self) -> Option<&GameScreen> {
        match &self.screen {
            Screen::Game(g) => Some(g),
            _ => None,
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            if let Screen::Game(g) = &mut self.screen {
                g.cancel();
            }
            self.quit = true;
            return;
        }
        if self.keys_open {
            self.keys_open = false;
            return;
        }
        match &mut self.screen {
            Screen::Menu(menu) => match menu.on_key(key) {
                Some(MenuItem::NewGame) => {
                    let mut settings = self.last;
                    settings.seed = settings.seed.wrapping_add(1);
                    self.screen = Screen::Setup(Setup::new(settings));
                }
                Some(MenuItem::Help) => self.screen = Screen::Help,
                Some(MenuItem::Quit) => self.quit = true,
                None => {}
            },
            Screen::Setup(setup) => match setup.on_key(key) {
                SetupAction::Start(settings) => self.start_game(settings),
                SetupAction::Back => self.screen = Screen::Menu(Menu::default()),
                SetupAction::Stay => {}
            },
            Screen::Help => self.screen = Screen::Menu(Menu::default()),
            Screen::Game(game) => {
                if key.code == KeyCode::Char('?') {
                    self.keys_open = true;
                    return;
                }
                if game.on_key(key, &mut self.workers) == GameAction::Menu {
                    self.last = *game.session.settings();
                    self.screen = Screen::Menu(Menu::default());
                }
            }
        }
    }

    /// Takes in every waiting report of the background jobs.
    pub fn pump(&mut self) {
        while let Some(report) = self.workers.try_recv() {
            if let Screen::Game(game) = &mut self.screen {
                game.on_report(report, &mut self.workers);
            }
        }
    }

    /// Waits up to `timeout` for one report of the background jobs and takes it in. Returns
    /// whether one came.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        let Some(report) = self.workers.recv_timeout(timeout) else {
            return false;
        };
        if let Screen::Game(game) = &mut self.screen {
            game.on_report(report, &mut self.workers);
        }
        true
    }
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.keys_open {
            help::render(self.theme, area, buf);
            return;
        }
        match &self.screen {
            Screen::Menu(menu) => menu.render(self.theme, area, buf),
            Screen::Setup(setup) => setup.render(self.theme, area, buf),
            Screen::Help => help::render(self.theme, area, buf),
            Screen::Game(game) => super::game::render(game, self.theme, area, buf),
        }
    }
}
