//! The crate's integration tests, one binary: invariants over many seeded
//! random games, determinism and replay, scenarios, bots.

mod bots;
mod invariants;
mod replay;
