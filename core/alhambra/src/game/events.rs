//! The event log: what happened, in words, and the helpers that word it.

use super::Game;

/// Something that happened, for logs and the terminal. Every move of this game
/// is seen by the whole table (money is taken from and paid onto open piles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The player it concerns, if any.
    pub seat: Option<usize>,
    /// What happened.
    pub text: String,
}

/// "1 card", "3 cards".
pub(crate) fn n_cards(n: usize) -> String {
    if n == 1 { "1 card".into() } else { format!("{n} cards") }
}

pub(super) fn list_or_nothing(items: &[String]) -> String {
    if items.is_empty() { "nothing".into() } else { items.join(", ") }
}

impl Game {
    pub(crate) fn event(&mut self, seat: Option<usize>, text: impl FnOnce(&Game) -> String) {
        if self.journal.logging() {
            let text = text(self);
            self.journal.event(|| Event { seat, text });
        }
    }
}
