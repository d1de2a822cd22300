//! The crate's integration tests, one binary: invariants over many seeded
//! random games, bots, events and what each seat sees, illegal actions
//! explained, load errors, card texts, the docs pages kept complete, and the
//! files valid under the JSON Schemas `sanjuan schema` writes.

mod bots;
mod card_texts;
mod common;
mod docs;
mod errors;
mod events;
mod fast_path;
mod illegal;
mod invariants;
mod schema;
mod scripted_events;
mod view;
