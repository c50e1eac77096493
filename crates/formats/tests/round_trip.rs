//! Write → parse gives back the same game, for random games on every board size under both
//! start rules, in every text format.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use reversi_core::{BoardSize, Game, Move, Position, Rules, TimeControl};
use reversi_formats::ggf::{parse_ggf, write_ggf, GgfGame, GgfMove};
use reversi_formats::obf::{parse_obf, write_obf, ObfPosition};
use reversi_formats::transcript::{parse_transcript_file, write_transcript, DeclaredResult};
use reversi_testkit::{data_file, Rng};

/// A random game from the start, played to the end or stopped early at random.
fn random_game(rng: &mut Rng, size: BoardSize, rules: Rules) -> Game {
    let mut game = Game::new(Position::start(size, rules));
    let stop_early = rng.below(4) == 0;
    // At least one move: an empty game is a blank line, which transcript files skip.
    let limit = 1 + rng.below(size.cells());
    while !(game.is_over() || (stop_early && game.moves().len() >= limit)) {
        let moves = game.current().moves();
        game.play(*rng.pick(&moves)).unwrap();
    }
    game
}

fn games() -> Vec<Game> {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for size in BoardSize::ALL {
        for rules in [Rules::Othello, Rules::Reversi] {
            let count = if size.get() <= 8 { 40 } else { 8 };
            for _ in 0..count {
                out.push(random_game(&mut rng, size, rules));
            }
        }
    }
    out
}

#[test]
fn transcripts_round_trip() {
    let games = games();
    let mut passes = 0;
    for game in &games {
        let start = game.start().clone();
        let result = game
            .score()
            .map(DeclaredResult::Score)
            .or(Some(DeclaredResult::Margin(-3)));
        // Two lines, to exercise the file reader too.
        let text = format!(
            "{}\n{}\n",
            write_transcript(game, None),
            write_transcript(game, result)
        );
        let back = parse_transcript_file(&text, &start).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(&back[0].game, game, "{text}");
        assert_eq!(&back[1].game, game, "{text}");
        assert_eq!(back[1].result, result);
        passes += game.moves().iter().filter(|m| **m == Move::Pass).count();
    }
    assert!(
        passes > 10,
        "the random games should include passes, got {passes}"
    );
}

#[test]
fn ggf_round_trips() {
    let mut rng = Rng::new(42);
    let mut text = String::new();
    let mut expected = Vec::new();
    let mut clocks = Vec::new();
    for (i, game) in games().iter().enumerate() {
        let moves = game
            .moves()
            .iter()
            .map(|&mv| GgfMove {
                mv,
                eval: (rng.below(2) == 0).then(|| (rng.below(2000) as f64 - 1000.0) / 8.0),
                seconds: (rng.below(2) == 0).then(|| rng.below(100_000) as f64 / 1000.0),
            })
            .collect();
        let mut tags = vec![
            ("PC".to_string(), format!("test [{i}]")),
            ("PB".to_string(), "Black \\ player".to_string()),
            ("PW".to_string(), "White".to_string()),
            ("DT".to_string(), "2026-01-02T03:04:05Z".to_string()),
        ];
        if let Some(s) = game.score() {
            tags.push(("RE".to_string(), format!("{:+}.00", s.margin())));
        }
        let mut g = GgfGame {
            start: game.start().clone(),
            moves,
            tags,
        };
        // A clock on most games: whole seconds as GGS writes them, or any fraction.
        let clock = match rng.below(4) {
            0 => None,
            1 => Some(TimeControl::sudden_death(Duration::from_secs(
                1 + rng.below(24 * 3600) as u64,
            ))),
            _ => Some(TimeControl {
                base: Duration::from_millis(1 + rng.below(10_000_000) as u64),
                increment: Duration::from_nanos(rng.below(60_000_000_000) as u64),
            }),
        };
        g.set_time_control(clock);
        clocks.push(clock);
        text.push_str(&write_ggf(&g));
        text.push('\n');
        expected.push(g);
    }
    let back = parse_ggf(&text).unwrap();
    assert_eq!(back.len(), expected.len());
    for ((b, e), clock) in back.iter().zip(&expected).zip(&clocks) {
        assert_eq!(b, e);
        assert_eq!(b.time_control(), Ok(*clock));
        assert_eq!(b.start.rules(), e.start.rules());
        let game = b.game().unwrap();
        if let Some(s) = game.score() {
            assert_eq!(b.result_margin(), Some(f64::from(s.margin())));
        }
    }
}

#[test]
fn obf_round_trips() {
    let mut rng = Rng::new(7);
    let mut text = String::new();
    let mut expected = Vec::new();
    for game in games() {
        let pos = rng.pick(game.positions()).clone();
        // OBF has no start rule: positions read back as Othello ones.
        let cells = pos.cells()[..pos.size().cells()].to_vec();
        let pos = Position::setup(pos.size(), Rules::Othello, &cells, pos.turn()).unwrap();
        let scores = pos
            .moves()
            .into_iter()
            .map(|mv| (mv, rng.below(129) as i32 - 64))
            .collect();
        let p = ObfPosition {
            position: pos,
            scores,
        };
        text.push_str(&write_obf(&p));
        text.push('\n');
        expected.push(p);
    }
    assert_eq!(parse_obf(&text).unwrap(), expected);
}

#[test]
fn the_ffo_suite_reads_and_writes_back() {
    let mut count = 0;
    for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"] {
        let text = std::fs::read_to_string(data_file(format!("obf/{name}"))).unwrap();
        let positions = parse_obf(&text).unwrap();
        for (p, line) in positions
            .iter()
            .zip(text.lines().filter(|l| !l.trim().is_empty()))
        {
            assert_eq!(write_obf(p), line.trim_end());
            assert!(!p.scores.is_empty());
        }
        count += positions.len();
    }
    assert_eq!(count, 59);
}
