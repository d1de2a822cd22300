//! The crate's integration tests: invariants over many seeded random games,
//! determinism and replay, scenarios, bots.

mod invariants;
