//! The crate's integration tests, one binary: invariants over many seeded
//! random games, bots, events and what each seat sees, illegal actions
//! explained, bots' decisions explained, load errors, card texts, the docs
//! pages kept complete, and the files valid under the JSON Schemas `sanjuan
//! schema` writes.

mod actions;
mod bots;
mod card_texts;
mod common;
mod docs;
mod errors;
mod events;
mod explain;
mod fast_path;
mod illegal;
mod invariants;
mod learning;
mod payment;
mod reactions;
mod remembered;
mod schema;
mod scripted_events;
mod view;
mod zones;
