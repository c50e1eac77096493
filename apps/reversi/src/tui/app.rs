//! The terminal UI's state: which screen is up, the background workers, and the dispatch of
//! keys and worker reports to the screen; drawing the current screen.

use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::editor::{Editor, EditorAction};
use super::explorer::ExplorerPanel;
use super::game::{GameAction, GameScreen, Note};
use super::help;
use super::history::{HistoryAction, HistoryScreen};
use super::menu::{Menu, MenuItem};
use super::replay::{ReplayAction, ReplayScreen};
use super::setup::{Setup, SetupAction};
use super::theme::Theme;
use super::worker::Workers;
use reversi_core::Position;
use reversi_game::{Context, LogHandle, Replay, Session, Settings};

/// Where the UI opens.
#[derive(Debug, Clone)]
pub enum Start {
    /// The main menu; New game proposes these settings.
    Menu(Settings),
    /// Straight into a game.
    Game(Settings),
    /// Straight into this game (new or resumed); leaving it goes to the menu.
    Session(Box<Session>),
    /// Replaying a stored game; leaving it quits.
    Replay(Box<Replay>),
}

/// The game history the UI reads and saves to.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// The database the history screen lists (`None`: no history).
    pub db: Option<PathBuf>,
    /// Where games started here are saved (`None`: not saved).
    pub log: Option<LogHandle>,
}

/// The screen shown.
pub enum Screen {
    Menu(Menu),
    Setup(Box<Setup>),
    Editor(Box<Editor>),
    Help,
    Game(Box<GameScreen>),
    History(Box<HistoryScreen>),
    /// A replay, and the history list to go back to (`None`: leaving quits).
    Replay(Box<ReplayScreen>, Option<Box<HistoryScreen>>),
}

/// The whole terminal UI.
pub struct App {
    pub screen: Screen,
    /// The keys list is drawn over the game.
    pub keys_open: bool,
    pub theme: Theme,
    pub quit: bool,
    workers: Workers,
    /// The explorer panel of the game and replay screens.
    pub explorer: ExplorerPanel,
    /// The settings of the last game, offered again by New game.
    last: Settings,
    history: History,
}

impl App {
    /// The UI with no game history: games are not saved and the history screen is empty.
    #[must_use]
    pub fn new(start: Start, theme: Theme) -> App {
        App::with_history(start, theme, History::default())
    }

    /// The UI saving its games to, and listing them from, `history`.
    #[must_use]
    pub fn with_history(start: Start, theme: Theme, history: History) -> App {
        let mut app = App {
            screen: Screen::Menu(Menu::default()),
            keys_open: false,
            theme,
            quit: false,
            workers: Workers::default(),
            explorer: ExplorerPanel::new(history.db.clone()),
            last: Settings::default(),
            history,
        };
        match start {
            Start::Menu(settings) => app.last = settings,
            Start::Game(settings) => app.start_game(settings),
            Start::Session(session) => app.play(*session),
            Start::Replay(replay) => {
                let screen = ReplayScreen::new(*replay, app.variations());
                app.screen = Screen::Replay(Box::new(screen), None);
            }
        }
        app
    }

    /// Where a replay keeps the variations played in it: the history's database.
    fn variations(&self) -> Option<reversi_store::History> {
        self.history.db.as_deref().map(reversi_store::History::at)
    }

    fn start_game(&mut self, settings: Settings) {
        let start = Position::start(settings.size, settings.rules);
        self.play(Session::in_context(
            settings,
            start,
            self.history.log.clone(),
            Context::with(crate::advisor::get().clone()),
        ));
    }

    /// A new game from `start`, or from the standard start of `settings` without one.
    fn start_from(&mut self, settings: Settings, start: Option<reversi_core::Position>) {
        match start {
            Some(start) => {
                self.play(Session::in_context(
                    settings,
                    start,
                    self.history.log.clone(),
                    Context::with(crate::advisor::get().clone()),
                ));
            }
            None => self.start_game(settings),
        }
    }

    fn play(&mut self, session: Session) {
        self.last = *session.settings();
        let mut game = GameScreen::new(session);
        game.advance(&mut self.workers);
        self.screen = Screen::Game(Box::new(game));
    }

    /// Continues game `id` of the history screen's database, or says why not.
    fn resume(&mut self, mut list: Box<HistoryScreen>, id: reversi_store::GameId) {
        let seed = self.last.seed.wrapping_add(1);
        let resumed = match list.history() {
            Some(history) => history
                .resume(
                    id,
                    seed,
                    self.history.log.clone(),
                    Context::with(crate::advisor::get().clone()),
                )
                .map_err(|e| e.to_string()),
            None => Err("no game database".to_string()),
        };
        match resumed {
            Ok(session) => self.play(session),
            Err(text) => {
                list.note = Some(Note { text, error: true });
                self.screen = Screen::History(list);
            }
        }
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
            match &mut self.screen {
                Screen::Game(g) => g.cancel(),
                Screen::Replay(r, _) => r.cancel(),
                _ => {}
            }
            self.quit = true;
            return;
        }
        if self.keys_open {
            self.keys_open = false;
            return;
        }
        self.on_screen_key(key);
        self.refresh_explorer();
    }

    /// The position the explorer panel is about: the game's or the replay's.
    fn explored_position(&self) -> Option<&reversi_core::Position> {
        match &self.screen {
            Screen::Game(game) => Some(game.session.position()),
            Screen::Replay(replay, _) => Some(replay.replay.position()),
            _ => None,
        }
    }

    fn refresh_explorer(&mut self) {
        if let Some(pos) = self.explored_position().cloned() {
            self.explorer.update(&pos);
        }
    }

    fn on_screen_key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('x') {
            if let Some(pos) = self.explored_position().cloned() {
                self.explorer.toggle(&pos);
                return;
            }
        }
        match &mut self.screen {
            Screen::Menu(menu) => match menu.on_key(key) {
                Some(MenuItem::NewGame) => {
                    let mut settings = self.last;
                    settings.seed = settings.seed.wrapping_add(1);
                    self.screen = Screen::Setup(Box::new(Setup::new(settings)));
                }
                Some(MenuItem::Editor) => {
                    let editor = Editor::new(self.last.size, self.last.rules);
                    self.screen = Screen::Editor(Box::new(editor));
                }
                Some(MenuItem::History) => {
                    let list = HistoryScreen::open(self.history.db.as_deref());
                    self.screen = Screen::History(Box::new(list));
                }
                Some(MenuItem::Help) => self.screen = Screen::Help,
                Some(MenuItem::Quit) => self.quit = true,
                None => {}
            },
            Screen::Setup(setup) => match setup.on_key(key) {
                SetupAction::Start(settings) => {
                    let start = setup.start.clone();
                    self.start_from(settings, start);
                }
                SetupAction::Back => self.screen = Screen::Menu(Menu::default()),
                SetupAction::Stay => {}
            },
            Screen::Editor(editor) => match editor.on_key(key) {
                EditorAction::Play(start) => {
                    let mut settings = self.last;
                    settings.seed = settings.seed.wrapping_add(1);
                    self.screen = Screen::Setup(Box::new(Setup::from_position(settings, *start)));
                }
                EditorAction::Back => self.screen = Screen::Menu(Menu::default()),
                EditorAction::Stay => {}
            },
            Screen::Help => self.screen = Screen::Menu(Menu::default()),
            Screen::History(list) => match list.on_key(key) {
                HistoryAction::Stay => {}
                HistoryAction::Back => self.screen = Screen::Menu(Menu::default()),
                HistoryAction::Replay(replay) => {
                    let screen = Box::new(ReplayScreen::new(*replay, self.variations()));
                    let Screen::History(list) = std::mem::replace(&mut self.screen, Screen::Help)
                    else {
                        return;
                    };
                    self.screen = Screen::Replay(screen, Some(list));
                }
                HistoryAction::Resume(id) => {
                    if let Screen::History(list) = std::mem::replace(&mut self.screen, Screen::Help)
                    {
                        self.resume(list, id);
                    }
                }
            },
            Screen::Replay(replay, back) => {
                if replay.on_key(key, &mut self.workers) == ReplayAction::Leave {
                    match back.take() {
                        Some(mut list) => {
                            list.reload();
                            self.screen = Screen::History(list);
                        }
                        None => self.quit = true,
                    }
                }
            }
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
            self.on_report(report);
        }
        if let Screen::Game(game) = &mut self.screen {
            game.tick();
        }
        self.refresh_explorer();
    }

    /// Waits up to `timeout` for one report of the background jobs and takes it in. Returns
    /// whether one came.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        let Some(report) = self.workers.recv_timeout(timeout) else {
            return false;
        };
        self.on_report(report);
        self.refresh_explorer();
        true
    }

    fn on_report(&mut self, report: super::worker::Report) {
        match &mut self.screen {
            Screen::Game(game) => game.on_report(report, &mut self.workers),
            Screen::Replay(replay, _) => replay.on_report(report),
            _ => {}
        }
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
            Screen::Editor(editor) => editor.render(self.theme, area, buf),
            Screen::Help => help::render(self.theme, area, buf),
            Screen::Game(game) => {
                super::game::view::render(game, &self.explorer, self.theme, area, buf)
            }
            Screen::History(list) => list.render(self.theme, area, buf),
            Screen::Replay(replay, _) => replay.render(&self.explorer, self.theme, area, buf),
        }
    }
}
