//! Helpers shared by the tests of every crate of the workspace, so that each exists once: the
//! shared data folder ([`data_dir`], [`data_file`]), a seeded generator ([`Rng`]), a runner
//! for the command-line program ([`TestCommand`]) and the crates' module graphs read from
//! their sources ([`ModuleGraph`]), for the check that no module imports one that imports it
//! back.
//!
//! Only tests depend on this crate (`[dev-dependencies]`). Of the workspace it depends on
//! `reversi-core` alone, for the generator the program uses too ([`reversi_core::XorShift64`]),
//! so every crate but core can use it; core's own tests do without it.
//!
//! # Examples
//! ```
//! use reversi_testkit::Rng;
//!
//! let mut rng = Rng::new(42);
//! let moves = ["f5", "d6", "c3", "d3"];
//! let mv = rng.pick(&moves);
//! assert!(moves.contains(mv));
//! ```

#![warn(missing_docs)]

mod command;
mod data;
mod module_graph;
mod rng;

pub use command::{Output, TestCommand};
pub use data::{data_dir, data_file};
pub use module_graph::ModuleGraph;
pub use rng::Rng;
