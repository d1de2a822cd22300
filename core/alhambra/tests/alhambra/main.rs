//! The crate's integration tests, one binary: invariants over many seeded
//! random games, determinism and replay, scenarios, bots.

mod bots;
mod illegal;
mod invariants;
mod replay;
mod rulesets;
mod scenarios;
