//! Fuzzes the weights-file readers behind `load_tables` (`Weights::from_bytes`: pattern
//! tables of every version; `NetWeights::from_bytes`: a generated evaluation's networks), on
//! the bytes as given, on the bytes with their checksum repaired, and on weights made from
//! the bytes. Asserts that weights read are written back (`to_bytes`) as a file that reads
//! as the same weights, and that the evaluation built from tables scores positions of a game
//! within -64..=64 discs. Networks are read but not expanded into tables (`tables()` takes
//! seconds a file, a computation rather than a reader).
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_engine::eval::Evaluator;
use reversi_engine::pattern::net::NetWeights;
use reversi_engine::pattern::{Extras, PatternEval, Weights};
use reversi_engine::Board;
use reversi_fuzz::{steer, walk, with_crc};

/// Weights of one to three stages, mostly zero, with the values the bytes give at the
/// places they give (three bytes a value: two for the place, one for the value).
fn weights_from(byte: u8, bytes: &[u8]) -> Weights {
    let stages = 1 + usize::from(byte >> 2) % 3;
    let extras = Extras {
        mobility: byte & 0x20 != 0,
        hidden: usize::from(byte >> 6),
    };
    let zero = Weights::from_parts(1, extras, &vec![Vec::new(); stages], &[]);
    let features = zero.stage(0).len();
    let mut discs = vec![vec![0.0f32; features]; stages];
    let mut heads = vec![vec![0.0f32; extras.head_params()]; stages];
    for (i, c) in bytes.chunks_exact(3).enumerate() {
        let place = usize::from(u16::from_le_bytes([c[0], c[1]]));
        let value = f32::from(c[2] as i8) / 4.0;
        let stage = i % stages;
        discs[stage][place * 37 % features] = value;
        if let Some(p) = heads[stage].get_mut(place % extras.head_params().max(1)) {
            *p = value / 16.0;
        }
    }
    Weights::from_parts(2, extras, &discs, &heads)
}

/// One input: its checks.
fn run(data: &[u8]) {
    let Some((byte, rest)) = steer(data) else {
        return;
    };
    // Weights made here are written and read back; bytes given are read, written and read.
    let (bytes, made) = match byte % 3 {
        0 => (rest.to_vec(), None),
        1 => (with_crc(rest), None),
        _ => {
            let w = weights_from(byte, rest);
            (w.to_bytes(), Some(w))
        }
    };
    if let Ok(net) = NetWeights::from_bytes(&bytes) {
        let written = net.to_bytes();
        match NetWeights::from_bytes(&written) {
            // Bytes, so that a NaN parameter compares equal to itself.
            Ok(again) => assert!(
                again.to_bytes() == written,
                "the networks read back differently"
            ),
            Err(e) => panic!("networks read do not read back: {e}"),
        }
    }
    let weights = match (Weights::from_bytes(&bytes), made) {
        (Ok(read), Some(made)) => {
            assert!(read == made, "the weights made read back differently");
            read
        }
        (Err(e), Some(_)) => panic!("the weights made do not read back: {e}"),
        (Ok(read), None) => {
            match Weights::from_bytes(&read.to_bytes()) {
                Ok(again) => assert!(again == read, "the weights read back differently"),
                Err(e) => panic!("weights read do not read back: {e}"),
            }
            read
        }
        (Err(_), None) => return,
    };
    let eval = PatternEval::new(&weights);
    for board in walk(Board::START, u64::MAX, rest.get(..60).unwrap_or(rest)) {
        let v = eval.evaluate(board, u64::MAX);
        assert!((-64..=64).contains(&v), "{v} discs for {board:?}");
    }
}

fuzz_target!(
    init: {
        // The pattern set is built once a process, for seconds under the sanitizer: before
        // the first input, so that it does not count as that input's time.
        let _ = Weights::from_parts(1, Extras::default(), &[Vec::new()], &[]);
    },
    |data: &[u8]| run(data)
);
