//! The crate's integration tests, one binary: invariants over many seeded
//! random games, bots, events and what each seat sees, illegal actions
//! explained, load errors, card texts, and the docs pages kept complete.

mod bots;
mod card_texts;
mod common;
mod docs;
mod errors;
mod events;
mod fast_path;
mod illegal;
mod invariants;
mod scripted_events;
mod view;
