//! `reversi history stress-append` (hidden): random games stored move by move, each move
//! reported on standard output once committed, so a test can kill the process at any moment
//! and check that every reported move survived.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use reversi_core::{BoardSize, Game, Rules, XorShift64};
use reversi_store::{MoveRecord, NewGame, Player, Store};

pub fn run(store: &mut Store, seconds: u64) -> anyhow::Result<ExitCode> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut rng = XorShift64::new(u64::from(std::process::id()));
    let mut out = std::io::stdout().lock();
    let mut total = 0u64;
    while Instant::now() < deadline {
        let new = NewGame::standard(
            BoardSize::EIGHT,
            Rules::Othello,
            Player::computer("stress", "random"),
            Player::computer("stress", "random"),
        );
        let id = store.create_game(&new)?;
        let mut game = Game::new(new.start_position());
        while !game.is_over() && Instant::now() < deadline {
            let moves = game.current().moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            store.append_move(id, &MoveRecord::bare(mv))?;
            game.play(mv)?;
            total += 1;
            writeln!(out, "{id} {} {total}", game.moves().len())?;
            out.flush()?;
        }
        if let Some(score) = game.score() {
            store.finish_game(id, score)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
