//! # mancala
//!
//! A toolkit that plays, solves and analyses mancala games: the reference
//! games Kalah and Awari and the traditional games Akon, Djenon-abe, Anywoli
//! and Dakon, each at any board size `NAME:NxS`, exactly by the rules of the
//! project's rules document.
//!
//! The pieces:
//!
//! - [`Position`] (validated from a raw [`Setup`]) and its text notation
//!   (`S 4,4,4/4,4,4 0-0`, see [`notation`]);
//! - one type per game implementing [`Rules`] ([`games`]), and the runtime
//!   [`Game`] / [`Variant`] used at the edges;
//! - [`packed`]: a compact bit-packed key of a position;
//! - [`index`]: the perfect index (rank / unrank) of seed distributions;
//! - [`perft`]: move-sequence counts for checking move generators.
//!
//! ```
//! use mancala::{games::play, games::Kalah, Move, Variant};
//!
//! let kalah: Variant = "kalah:6x4".parse().unwrap();
//! let start = kalah.start();
//! // Pit 3 of 4 seeds ends in South's store: South moves again.
//! let next = play::<Kalah>(&start, Move::Pit(3)).unwrap();
//! assert_eq!(next.to_string(), "S 4,4,0,5,5,5/4,4,4,4,4,4 1-0");
//! assert_eq!(mancala::perft::perft::<Kalah>(&start, 2), 35);
//! ```
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod atomic_file;
pub(crate) mod board;
pub mod checksum;
pub mod db;
pub mod draw;
pub mod games;
pub mod index;
pub mod mem;
pub mod notation;
pub mod openings;
pub mod packed;
pub mod perft;
pub mod position;
pub mod puzzles;
pub mod search;
pub mod side;
pub mod svg;
pub mod variant;
pub mod wide;

pub use games::{Game, Move, MoveError, MoveList, Rules, Score};
pub use notation::NotationError;
pub use position::{Position, PositionError, Setup, MAX_N, MAX_SEEDS};
pub use side::{ByPlayer, Side};
pub use variant::{Variant, VariantError};
