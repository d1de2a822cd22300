//! The crate's integration tests, one binary: invariants over many seeded
//! random games, determinism and replay, scenarios, bots, and the docs page
//! (`docs/alhambra.md`) kept complete, and the files valid under the JSON
//! Schemas `sanjuan schema` writes.

mod bots;
mod docs;
mod explain;
mod fast_path;
mod illegal;
mod invariants;
mod learning;
mod money;
mod remembered;
mod replay;
mod rulesets;
mod scenarios;
mod schema;
mod sensitivity;
