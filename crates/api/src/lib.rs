//! The page's JSON: what `reversi serve` and the engine compiled to WebAssembly both send the
//! same page (games being played, the computer's thinking, hints, levels, stored games, their
//! lines and analyses). One definition, so that the two back ends cannot drift apart.

pub mod explore;
pub mod levels;
pub mod lines;
pub mod new_game;
pub mod position;
pub mod upload;
pub mod view;
