//! The program's advisor: the engine and the opening book its computer players, hints,
//! analyses and explorer consult, made once in `main` from `--book`/`--no-book` and read by
//! the front ends. The libraries hold no such thing: they are handed it.

use std::sync::{Arc, OnceLock};

use reversi_engine::book::Book;
use reversi_players::Advisor;

static ADVISOR: OnceLock<Advisor> = OnceLock::new();

/// Sets the book the program consults (`None`: none); the engine is made at the first search.
/// Only the first call counts: `main` makes it before any command runs.
pub fn init(book: Option<Arc<Book>>) {
    let _ = ADVISOR.set(Advisor::standard().with_book(book));
}

/// The program's advisor (the shipped book if [`init`] was not called, as in unit tests).
pub fn get() -> &'static Advisor {
    ADVISOR.get_or_init(Advisor::standard)
}

/// The book the program consults.
pub fn book() -> Option<Arc<Book>> {
    get().book().cloned()
}

/// The hand-made evaluation when `REVERSI_EVAL=hand` asks for it (for comparisons: `reversi
/// bench` and `reversi solve` honour it), else `None` (the trained one).
pub fn evaluation_from_env() -> Option<Arc<dyn reversi_engine::eval::Evaluator>> {
    let hand = std::env::var("REVERSI_EVAL").is_ok_and(|v| v.eq_ignore_ascii_case("hand"));
    hand.then(|| {
        Arc::new(reversi_engine::eval::HandEval::new(8)) as Arc<dyn reversi_engine::eval::Evaluator>
    })
}

/// Holds the search to the SIMD tier `REVERSI_KERNEL` names (`portable` or `x86-64-v3`), for
/// comparing the tiers; any other value, or none, leaves the best the CPU runs.
pub fn kernel_from_env() {
    use reversi_engine::kernel::{cap, Kernel};
    match std::env::var("REVERSI_KERNEL").as_deref() {
        Ok("portable") => {
            cap(Kernel::Portable);
        }
        Ok("x86-64-v3") => {
            cap(Kernel::X86V3);
        }
        _ => {}
    }
}
