//! What the fuzz targets share: choosing a board and rule from a byte, repairing a file's
//! checksum so that mutations reach past it, and the checks every target makes of a game.

use reversi_core::{BoardSize, Game, Move, Position, Rules};
use reversi_engine::pattern::crc32;
use reversi_engine::Board;

/// A board size and start rule chosen by one byte: its low bits pick among the supported
/// sizes (8x8 most often), its high bit the Reversi rule.
#[must_use]
pub fn size_and_rules(byte: u8) -> (BoardSize, Rules) {
    let sizes = BoardSize::ALL;
    let pick = usize::from(byte & 0x0f);
    // Half the values give 8x8, the board every program meets most.
    let size = if pick < 8 {
        BoardSize::EIGHT
    } else {
        sizes[(pick - 8) % sizes.len()]
    };
    let rules = if byte & 0x80 == 0 {
        Rules::Othello
    } else {
        Rules::Reversi
    };
    (size, rules)
}

/// The boards of a game from `start` on the squares of `mask`, `start` included: each move
/// is the legal square the next byte of `choices` picks (a pass for a side with none), until
/// the game ends or the choices run out. Positions that can arise, unlike random bitboards.
#[must_use]
pub fn walk(start: Board, mask: u64, choices: &[u8]) -> Vec<Board> {
    let mut boards = vec![start];
    let mut board = start;
    for &choice in choices {
        let mut moves = board.moves() & mask;
        if moves == 0 {
            board = board.pass();
            moves = board.moves() & mask;
            if moves == 0 {
                break;
            }
        }
        for _ in 0..u32::from(choice) % moves.count_ones() {
            moves &= moves - 1;
        }
        board = board.play(moves.trailing_zeros());
        boards.push(board);
    }
    boards
}

/// The first byte (to steer the target) and the rest; `None` for no bytes.
#[must_use]
pub fn steer(data: &[u8]) -> Option<(u8, &[u8])> {
    data.split_first().map(|(&b, rest)| (b, rest))
}

/// `bytes` with its last four bytes replaced by the CRC-32 (little-endian) of all before
/// them, as the book, weights and solved-openings files end: a mutated file then fails on
/// what was mutated, not on its checksum. Shorter than four bytes: unchanged.
#[must_use]
pub fn with_crc(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if let Some(body) = out.len().checked_sub(4) {
        let crc = crc32(&out[..body]);
        out[body..].copy_from_slice(&crc.to_le_bytes());
    }
    out
}

/// Asserts that `game` is what replaying its moves from its start gives: every move legal
/// where it was played, and the positions it keeps those the moves lead to.
pub fn assert_replays(game: &Game) {
    match Game::from_moves(game.start().clone(), game.moves()) {
        Ok(again) => assert_eq!(&again, game, "the game differs from its replay"),
        Err((ply, e)) => panic!("move {} of {:?} is illegal: {e}", ply + 1, game.moves()),
    }
}

/// Asserts that a program may answer `mv` in `pos`: a legal square, or a pass when the side
/// to move has no square.
pub fn assert_legal_answer(pos: &Position, mv: Move, context: &str) {
    match mv {
        Move::Pass => assert!(
            pos.must_pass(),
            "{context}: a pass answered where {:?} can play\n{pos}",
            pos.legal_moves()
        ),
        Move::Play(sq) => assert!(
            pos.is_legal(sq),
            "{context}: {sq} answered, which is not legal\n{pos}"
        ),
    }
}
