//! Every parser returns an error, never panics, on random bytes and on mutated valid input.

#![allow(clippy::unwrap_used)]

use reversi_core::{BoardSize, Position, Rules};
use reversi_formats::{ggf, obf, transcript, wthor};
use reversi_testkit::Rng;

/// Characters the formats give meaning to, plus some that they do not.
const ALPHABET: &[u8] = b"()[];:/\\-+*.,0123456789 \n\tabcdefghpABOWXPATYGMIN\xc3\xa9\xff\x00";

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(200);
    (0..len)
        .map(|_| {
            if rng.below(4) == 0 {
                rng.next_u64() as u8
            } else {
                ALPHABET[rng.below(ALPHABET.len())]
            }
        })
        .collect()
}

/// `valid` with a few bytes changed, inserted, deleted or a slice duplicated.
fn mutate(rng: &mut Rng, valid: &[u8]) -> Vec<u8> {
    let mut out = valid.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 if at < out.len() => out[at] = ALPHABET[rng.below(ALPHABET.len())],
            1 => out.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            2 if at < out.len() => {
                out.remove(at);
            }
            3 => out.truncate(at),
            _ => {
                let end = (at + rng.below(20)).min(out.len());
                let piece = out[at..end].to_vec();
                out.splice(at..at, piece);
            }
        }
    }
    out
}

const GGF: &str = "(;GM[Othello]PC[x]PB[a]PW[b]TI[05:00/00:03,1/02:00,N0]TY[8]RE[+2.00]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//1.2]W[d6/-1.5/0.3]B[c3]W[d3];)\n(;GM[Othello]TY[6]BO[6 ------ ------ ------ ------ ------ ------ *]B[c3]W[d3];)";
const OBF: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; PA:-4;";
const TRANSCRIPT: &str = "1. f5 d6 2. c3 d3 3. c4 f4 B+4\nF5D6C3D3C4F4F6F3E6E7 32-32\n";

fn inputs(valid: &str, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for i in 0..3000 {
        let bytes = if i % 2 == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, valid.as_bytes())
        };
        out.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    out
}

#[test]
fn ggf_never_panics() {
    let mut ok = 0;
    let mut clocks = 0;
    for text in inputs(GGF, 1) {
        if let Ok(games) = ggf::parse_ggf(&text) {
            ok += 1;
            for g in games {
                let _ = g.game();
                let _ = g.result_margin();
                // A clock reads or says why not, and one that reads writes back the same.
                if let Ok(Some(tc)) = g.time_control() {
                    clocks += 1;
                    assert_eq!(ggf::parse_clock(&ggf::write_clock(&tc)), Ok(tc));
                }
                // What was read writes back to something that reads the same.
                assert_eq!(ggf::parse_ggf(&ggf::write_ggf(&g)).unwrap()[0], g);
            }
        }
    }
    assert!(ok > 50, "some mutations should still parse ({ok})");
    assert!(clocks > 20, "some clocks should still read ({clocks})");
}

#[test]
fn obf_never_panics() {
    for text in inputs(OBF, 2) {
        if let Ok(positions) = obf::parse_obf(&text) {
            for p in positions {
                let line = obf::write_obf(&p);
                assert_eq!(obf::parse_obf_line(&line, 1).unwrap(), p);
            }
        }
    }
}

#[test]
fn transcripts_never_panic() {
    for size in [BoardSize::EIGHT, BoardSize::new(10).unwrap()] {
        let start = Position::start(size, Rules::Othello);
        for text in inputs(TRANSCRIPT, 3 + u64::from(size.get())) {
            if let Ok(games) = transcript::parse_transcript_file(&text, &start) {
                for g in games {
                    let line = transcript::write_transcript(&g.game, g.result);
                    let back = transcript::parse_transcript_line(&line, start.clone()).unwrap();
                    assert_eq!(back.game, g.game);
                }
            }
        }
    }
}

#[test]
fn wthor_never_panics() {
    let mut rng = Rng::new(4);
    let db = wthor::Database {
        header: wthor::Header {
            created: (2024, 1, 2),
            game_count: 2,
            year: 2023,
            theoretical_depth: 24,
        },
        games: vec![
            wthor::Game {
                tournament: 1,
                black: 2,
                white: 3,
                black_score: 40,
                theoretical_score: 36,
                moves: vec![reversi_core::Square::new(5, 4)],
            };
            2
        ],
    };
    let valid = wthor::write_wtb(&db);
    for _ in 0..3000 {
        let mut bytes = valid.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len());
            bytes[at] = rng.next_u64() as u8;
        }
        let _ = wthor::parse_wtb(&bytes);
        let _ = wthor::parse_names(&bytes, wthor::PLAYER_RECORD);
    }
}
