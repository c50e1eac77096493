//! How positions, moves, players and results map to column values, and back.

use reversi_core::{BoardSize, Color, Move, Outcome, Position, Rules, Square};

use crate::{PlayerKind, Status};

/// A set-up start as stored: the squares row by row (`X`, `O`, `-`), a space, the side to move.
pub(crate) fn position_to_text(p: &Position) -> String {
    let mut s: String = p.cells()[..p.size().cells()]
        .iter()
        .map(|c| c.map_or('-', Color::symbol))
        .collect();
    s.push(' ');
    s.push(p.turn().symbol());
    s
}

pub(crate) fn position_from_text(text: &str, size: BoardSize, rules: Rules) -> Option<Position> {
    let (cells, turn) = text.split_once(' ')?;
    let cells = cells
        .chars()
        .map(|c| match c {
            'X' => Some(Some(Color::Black)),
            'O' => Some(Some(Color::White)),
            '-' => Some(None),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let turn = match turn {
        "X" => Color::Black,
        "O" => Color::White,
        _ => return None,
    };
    Position::setup(size, rules, &cells, turn)
}

/// A move as stored: the row-major square index, or NULL for a pass.
pub(crate) fn move_to_column(mv: Move, size: BoardSize) -> Option<i64> {
    match mv {
        Move::Play(sq) => Some(sq.index(size) as i64),
        Move::Pass => None,
    }
}

pub(crate) fn move_from_column(square: Option<i64>, size: BoardSize) -> Option<Move> {
    match square {
        None => Some(Move::Pass),
        Some(i) => Square::from_index(usize::try_from(i).ok()?, size).map(Move::Play),
    }
}

pub(crate) fn kind_from_text(text: &str) -> Option<PlayerKind> {
    match text {
        "human" => Some(PlayerKind::Human),
        "computer" => Some(PlayerKind::Computer),
        _ => None,
    }
}

pub(crate) fn status_from_text(text: &str) -> Option<Status> {
    text.parse().ok()
}

pub(crate) fn outcome_to_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Color::Black) => "black",
        Outcome::Win(Color::White) => "white",
        Outcome::Draw => "draw",
    }
}

pub(crate) fn outcome_from_text(text: &str) -> Option<Outcome> {
    match text {
        "black" => Some(Outcome::Win(Color::Black)),
        "white" => Some(Outcome::Win(Color::White)),
        "draw" => Some(Outcome::Draw),
        _ => None,
    }
}

/// 128-bit FNV-1a: a stable hash (unlike std's) for telling games apart across runs.
pub(crate) struct Fnv128(u128);

impl Fnv128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

    pub(crate) fn new() -> Self {
        Fnv128(Self::OFFSET)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// A field: its length first, so that no two field lists hash the same bytes.
    pub(crate) fn field(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }

    pub(crate) fn finish(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_moves_round_trip() {
        for size in BoardSize::ALL {
            for rules in [Rules::Othello, Rules::Reversi] {
                let p = Position::start(size, rules).with_turn(Color::White);
                let text = position_to_text(&p);
                assert_eq!(position_from_text(&text, size, rules), Some(p));
                for i in 0..size.cells() {
                    let mv = Move::Play(Square::from_index(i, size).unwrap_or(Square::new(0, 0)));
                    assert_eq!(move_from_column(move_to_column(mv, size), size), Some(mv));
                }
            }
        }
        assert_eq!(move_from_column(Some(64), BoardSize::EIGHT), None);
        assert_eq!(move_from_column(Some(-1), BoardSize::EIGHT), None);
        assert_eq!(
            position_from_text("XO", BoardSize::FOUR, Rules::Othello),
            None
        );
    }

    #[test]
    fn fnv_is_stable() {
        let mut h = Fnv128::new();
        h.bytes(b"a");
        // The published FNV-1a 128 of "a".
        assert_eq!(
            u128::from_be_bytes(h.finish()),
            0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964
        );
    }
}
