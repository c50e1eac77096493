//! The bench's positions and its signature, pinned (Stockfish checks its bench signature in
//! CI): a change of search or evaluation that changes the node count must say so here, with
//! the new figure in its commit message. (`reversi bench`'s test checks that every kernel
//! tier prints this same figure.)

use reversi_engine::bench;

/// The node count of `reversi bench` (the sum over the bench positions).
const SIGNATURE: u64 = 92_165_921;

#[test]
fn the_bench_positions_are_fixed() {
    let empties: Vec<u32> = bench::positions()
        .iter()
        .map(|p| p.board.empties().count_ones())
        .collect();
    assert_eq!(
        empties,
        [50, 44, 40, 36, 32, 28, 48, 38, 30, 22, 20, 19, 18]
    );
    let searches: Vec<&str> = bench::positions().iter().map(|p| p.search).collect();
    assert_eq!(searches[..6], ["depth 11"; 6]);
    assert_eq!(searches[6..9], ["15@73%"; 3]);
    assert_eq!(searches[9..], ["exact"; 4]);
}

#[test]
#[ignore = "slow: run in release mode"]
fn the_bench_signature_is_pinned() {
    let measured: Vec<bench::Measured> = bench::run().collect();
    let nodes: u64 = measured.iter().map(|m| m.nodes).sum();
    let scores: Vec<i32> = measured.iter().map(|m| m.score).collect();
    assert_eq!(
        scores,
        [15, -14, 12, 25, 39, -35, -27, 11, 25, 4, -2, -12, 28],
        "the bench's scores"
    );
    assert_eq!(nodes, SIGNATURE, "the bench signature");
}
