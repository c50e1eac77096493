//! A replay's variations: other moves played at any point of a stored game, and after them,
//! kept as a tree of lines (a line leaves the game's own moves or another variation after some
//! of its moves). Playing a move in a replay follows the line that already has it, extends
//! the variation shown at its end, or starts a new variation, saved to the store first.

use reversi_core::{Game, Move};
use reversi_players::{Advisor, Ai};
use reversi_record::{Archive, StoreError, StoredGame, Variation, VariationId};

use super::line::{Line, VariationError};
use super::Replay;
use crate::session::ComputerTurn;

/// Where a move played in a replay goes.
enum Placement {
    /// The line at this index already has it.
    Follow(usize),
    /// At the end of the variation shown: it grows.
    Extend,
    /// A new variation leaving the line shown here.
    New,
}

impl Replay {
    /// The replay of `stored` with its `variations` (as a store's `variations` gives them,
    /// parents first), at the start of the game's own moves.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when a variation leaves a line it does not follow, or does not
    /// replay.
    pub fn with_variations(
        stored: StoredGame,
        variations: &[Variation],
    ) -> Result<Replay, StoreError> {
        let mut replay = Replay::new(stored);
        for v in variations {
            let corrupt = |reason: String| StoreError::Corrupt {
                game: replay.info.id,
                reason: format!("variation {}: {reason}", v.id),
            };
            let parent = match v.parent {
                None => 0,
                Some(p) => replay.index_of(p).ok_or_else(|| {
                    corrupt(format!("it leaves variation {p}, not an earlier one"))
                })?,
            };
            let base = replay.lines[parent].game.moves();
            let mut moves = base
                .get(..v.from_ply)
                .map(<[Move]>::to_vec)
                .ok_or_else(|| {
                    corrupt(format!(
                        "it leaves a line of {} moves after move {}",
                        base.len(),
                        v.from_ply
                    ))
                })?;
            moves.extend_from_slice(&v.moves);
            let game = Game::from_moves(replay.game.start().clone(), &moves)
                .map_err(|(ply, e)| corrupt(format!("move {} does not replay: {e}", ply + 1)))?;
            replay.lines.push(Line {
                id: Some(v.id),
                parent: Some(parent),
                from_ply: v.from_ply,
                game,
            });
        }
        Ok(replay)
    }

    /// Every line: the game's own moves first, then the variations, oldest first.
    #[must_use]
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The line shown.
    #[must_use]
    pub fn line(&self) -> &Line {
        &self.lines[self.shown]
    }

    /// The index in [`Replay::lines`] of the line shown.
    #[must_use]
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// The index of the line of variation `id`.
    #[must_use]
    pub fn index_of(&self, id: VariationId) -> Option<usize> {
        self.lines.iter().position(|l| l.id == Some(id))
    }

    /// `main line`, or `variation 2 from move 12` (numbered in [`Replay::lines`]' order; the
    /// move is the first of its own).
    #[must_use]
    pub fn line_name(&self, index: usize) -> String {
        match self.lines.get(index) {
            Some(line) if !line.is_main() => {
                format!("variation {index} from move {}", line.from_ply + 1)
            }
            _ => "main line".to_string(),
        }
    }

    /// Shows line `index` (the same number of moves, or its last position when shorter).
    /// Returns whether there is such a line.
    pub fn show(&mut self, index: usize) -> bool {
        if index >= self.lines.len() {
            return false;
        }
        self.shown = index;
        self.jump(self.ply);
        true
    }

    /// The moves played from the position shown, each with the line that goes on with it:
    /// the line shown for its own next move, else the oldest line that has it; in the order
    /// of those lines in [`Replay::lines`] (so that going round them is the same from each).
    #[must_use]
    pub fn alternatives(&self) -> Vec<(Move, usize)> {
        let shown = self.line().game.moves();
        let prefix = &shown[..self.ply];
        let mut found: Vec<(Move, usize)> = Vec::new();
        if let Some(&mv) = shown.get(self.ply) {
            found.push((mv, self.shown));
        }
        for (i, line) in self.lines.iter().enumerate() {
            let moves = line.game.moves();
            let Some(&mv) = moves.get(self.ply) else {
                continue;
            };
            if moves.starts_with(prefix) && !found.iter().any(|&(m, _)| m == mv) {
                found.push((mv, i));
            }
        }
        found.sort_by_key(|&(_, i)| i);
        found
    }

    /// The move numbers (0-based plies) of the line shown at which another line goes on
    /// differently: `p` when some line shares its first `p` moves and then plays another
    /// move (or goes on after the line shown ends, `p` being its length).
    #[must_use]
    pub fn branch_plies(&self) -> Vec<usize> {
        let shown = self.line().game.moves();
        let mut plies: Vec<usize> = self
            .lines
            .iter()
            .filter_map(|line| {
                let moves = line.game.moves();
                let common = moves.iter().zip(shown).take_while(|(a, b)| a == b).count();
                (common < moves.len()).then_some(common)
            })
            .collect();
        plies.sort_unstable();
        plies.dedup();
        plies
    }

    /// Shows the next line that goes on from the position shown with another move (see
    /// [`Replay::alternatives`]), round to the first. Returns whether the line changed.
    pub fn next_line_here(&mut self) -> bool {
        let alternatives = self.alternatives();
        let at = alternatives.iter().position(|&(_, i)| i == self.shown);
        let next = match at {
            Some(k) => alternatives[(k + 1) % alternatives.len()].1,
            None => match alternatives.first() {
                Some(&(_, i)) => i,
                None => return false,
            },
        };
        let changed = next != self.shown;
        self.shown = next;
        changed
    }

    /// Shows the line the shown variation leaves, at the position where it leaves it (or
    /// where the replay was, if earlier). Returns whether there was one.
    pub fn parent_line(&mut self) -> bool {
        let line = self.line();
        let Some(parent) = line.parent else {
            return false;
        };
        let ply = self.ply.min(line.from_ply);
        self.shown = parent;
        self.jump(ply);
        true
    }

    /// Plays `mv` in the position shown and shows the position after it: along the line
    /// that already has that move there (no variation is made twice), at the end of the
    /// variation shown (which grows), or else in a new variation leaving the line shown
    /// here. A variation made or grown is saved in `store` first. Returns the index of the
    /// line now shown.
    ///
    /// # Errors
    /// [`VariationError::Illegal`] for a move the rules refuse there,
    /// [`VariationError::Store`] when the store fails; the replay is unchanged then.
    ///
    /// # Examples
    /// After `f5 d6`, `f6` instead of `d6` makes a variation, and a move at its end goes on
    /// in it:
    /// ```
    /// use reversi_core::{BoardSize, Move, Rules};
    /// use reversi_game::Replay;
    /// use reversi_store::{MoveRecord, NewGame, Player, Store};
    ///
    /// let mut store = Store::open_in_memory()?;
    /// let new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
    ///     Player::human("Ann"), Player::human("Ben"));
    /// let id = store.create_game(&new)?;
    /// let sq = |name: &str| new.start_position().parse_square(name).map(Move::Play);
    /// for name in ["f5", "d6"] {
    ///     store.append_move(id, &MoveRecord::bare(sq(name)?))?;
    /// }
    /// let mut replay = Replay::new(store.load_game(id)?);
    /// replay.forward();
    /// assert_eq!(replay.play(sq("f6")?, &mut store)?, 1);
    /// assert_eq!(replay.line_name(1), "variation 1 from move 2");
    /// replay.play(sq("e6")?, &mut store)?;
    /// assert_eq!((replay.ply(), replay.len()), (3, 3));
    ///
    /// // The store has it, and so has the replay loaded again.
    /// let variations = store.variations(id)?;
    /// let again = Replay::with_variations(store.load_game(id)?, &variations)?;
    /// assert_eq!(again.lines()[1].own_moves(), &[sq("f6")?, sq("e6")?]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, mv: Move, store: &mut dyn Archive) -> Result<usize, VariationError> {
        self.position().play(mv).map_err(VariationError::Illegal)?;
        let ply = self.ply;
        match self.placement(mv) {
            Placement::Follow(index) => self.shown = index,
            Placement::Extend => {
                let line = &self.lines[self.shown];
                if let Some(id) = line.id {
                    store.append_variation_move(id, mv)?;
                }
                self.lines[self.shown]
                    .game
                    .play(mv)
                    .map_err(VariationError::Illegal)?;
            }
            Placement::New => {
                let parent = self.line().id;
                let id = store.add_variation(self.info.id, parent, ply, &[mv])?;
                let mut game = self.line().game.clone();
                while game.moves().len() > ply {
                    game.undo();
                }
                game.play(mv).map_err(VariationError::Illegal)?;
                self.lines.push(Line {
                    id: Some(id),
                    parent: Some(self.shown),
                    from_ply: ply,
                    game,
                });
                self.shown = self.lines.len() - 1;
            }
        }
        self.jump(ply + 1);
        Ok(self.shown)
    }

    /// Shows `line` (a variation's id; `None`: the game's own moves) after its first `ply`
    /// moves, then [`Replay::play`]s `mv` there: what a request that keeps no replay between
    /// calls does (`History::play_variation` in `reversi-store`). Returns the index of the line
    /// now shown.
    ///
    /// # Errors
    /// [`VariationError::NoSuchLine`] for a line the game does not have,
    /// [`VariationError::NoSuchPly`] past its end, or as [`Replay::play`].
    pub fn play_after(
        &mut self,
        line: Option<VariationId>,
        ply: usize,
        mv: Move,
        store: &mut dyn Archive,
    ) -> Result<usize, VariationError> {
        let index = match line {
            None => 0,
            Some(v) => self.index_of(v).ok_or(VariationError::NoSuchLine(v))?,
        };
        let len = self.lines[index].game.moves().len();
        if ply > len {
            return Err(VariationError::NoSuchPly { ply, len });
        }
        self.show(index);
        self.jump(ply);
        self.play(mv, store)
    }

    fn placement(&self, mv: Move) -> Placement {
        if let Some(&(_, index)) = self.alternatives().iter().find(|&&(m, _)| m == mv) {
            Placement::Follow(index)
        } else if !self.line().is_main() && self.ply == self.len() {
            Placement::Extend
        } else {
            Placement::New
        }
    }

    /// The computer's move in the position shown, to think about on any thread and then
    /// [`Replay::play`], searching with `advisor`; `None` when the game is over there. `seed`
    /// drives the levels' choices.
    #[must_use]
    pub fn computer_turn(&self, advisor: &Advisor, ai: Ai, seed: u64) -> Option<ComputerTurn> {
        let position = self.position();
        if position.moves().is_empty() {
            return None;
        }
        Some(ComputerTurn {
            color: position.turn(),
            position: position.clone(),
            ply: self.ply,
            computer: advisor.computer(ai, seed),
        })
    }

    /// How many of the first moves of line `index` are the game's own.
    #[must_use]
    pub fn main_prefix(&self, index: usize) -> usize {
        let line = &self.lines[index];
        match line.parent {
            None => line.game.moves().len(),
            Some(p) => line.from_ply.min(self.main_prefix(p)),
        }
    }
}
