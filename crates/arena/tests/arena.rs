//! The match library end to end: equal engines mirror each other pair by pair, an engine that
//! cannot start forfeits every game without stopping the match, and the games reach a GGF
//! file and the history.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use reversi_arena::{BookChoice, Contender, EngineSpec, Match, MatchRules, Setup, Sink};
use reversi_core::{Color, Game};
use reversi_formats::xot::read_openings;
use reversi_store::{GameFilter, Store};

const OPENINGS: &str = "f5d6c4d3c2b3b4b5\n\nf5f4g3g6f3g4e3e2\nf5f6d3c5d6c7b5e3\n";

fn contender(name: &str) -> Contender {
    let setup = Setup {
        threads: 1,
        hash_mb: 1,
        time_per_move: None,
        clock: None,
        depth: 1,
    };
    let spec: EngineSpec = name.parse().unwrap();
    Contender::new(name, &spec, &setup, &BookChoice::Own(None))
}

fn openings(count: usize) -> Vec<Game> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("xot.txt");
    std::fs::write(&path, OPENINGS).unwrap();
    read_openings(&path, ..count).unwrap()
}

fn rules() -> MatchRules {
    MatchRules {
        timeout: Duration::from_secs(10),
        clock: None,
    }
}

#[test]
fn equal_engines_mirror_each_pair_and_score_even() {
    let mut m = Match::new(
        contender("greedy"),
        contender("greedy"),
        openings(2),
        4,
        rules(),
    );
    assert_eq!(m.len(), 4);
    let games: Vec<_> = std::iter::from_fn(|| m.play_next()).collect();
    assert_eq!(games.len(), 4);
    for pair in games.chunks(2) {
        assert_eq!(
            (pair[0].a_color, pair[1].a_color),
            (Color::Black, Color::White)
        );
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].played.game.moves(), pair[1].played.game.moves());
    }
    let tally = m.tally();
    assert_eq!((tally.games(), tally.score()), (4, 0.5));
    assert_eq!(tally.elo().0.to_string(), "+0");
    assert_eq!(m.forfeits(), [0, 0]);
    let [a, b] = m.move_times();
    assert!(a.moves > 0 && a.moves == b.moves, "{a:?} {b:?}");
}

#[test]
fn an_engine_that_cannot_start_forfeits_every_game_and_the_match_goes_on() {
    let mut m = Match::new(
        contender("nboard:/nonexistent/engine"),
        contender("greedy"),
        openings(1),
        2,
        rules(),
    );
    while let Some(g) = m.play_next() {
        let f = g.played.forfeit.as_ref().unwrap();
        assert_eq!(f.color, g.a_color);
        assert!(f.reason.contains("cannot start"), "{}", f.reason);
        assert_eq!(g.played.score.margin().abs(), 64);
    }
    assert_eq!(m.forfeits(), [2, 0]);
    assert_eq!(m.tally().record().to_string(), "+0 =0 -2");
}

#[test]
fn games_are_saved_to_a_ggf_file_and_to_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = Match::new(
        contender("greedy"),
        contender("random"),
        openings(1),
        2,
        rules(),
    );
    let ggf = dir.path().join("games.ggf");
    let db = dir.path().join("games.sqlite3");
    let mut file = Sink::ggf(&ggf).unwrap();
    let mut store = Sink::store(&db).unwrap();
    let mut ids = Vec::new();
    while let Some(g) = m.play_next() {
        assert_eq!(file.save(&g.played).unwrap(), None);
        ids.push(store.save(&g.played).unwrap().unwrap());
    }
    assert_eq!(ids, [1, 2]);
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(
        text.contains("PC[reversi match]") && text.contains("PB[greedy]"),
        "{text}"
    );
    assert_eq!(
        store.describe(),
        format!("the game database {}", db.display())
    );
    drop(store);
    let games = Store::open(&db)
        .unwrap()
        .list_games(&GameFilter::default())
        .unwrap();
    assert_eq!(games.len(), 2);
}
