//! The event log: what happened, in words, and the helpers that word it.

use super::Game;

/// Something that happened, for logs and the terminal. The game's own moves
/// are seen by the whole table (money is taken from and paid onto open piles);
/// a card's script may move money into or out of a hand, which only the seats
/// whose hands they are may read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The player it concerns, if any.
    pub seat: Option<usize>,
    /// What happened, hidden cards included.
    pub text: String,
    /// The seats that may read `text` (empty: every seat).
    pub readers: Vec<usize>,
    /// What the other seats read instead ("seat 1 takes 2 cards from seat 0's hand").
    pub public_text: Option<String>,
}

impl Event {
    /// The event as `seat` sees it: the public text in place of one naming cards hidden from `seat`.
    pub fn seen_by(&self, seat: usize) -> Event {
        match &self.public_text {
            Some(public) if !self.readers.is_empty() && !self.readers.contains(&seat) => {
                Event { seat: self.seat, text: public.clone(), readers: Vec::new(), public_text: None }
            }
            _ => self.clone(),
        }
    }
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
            self.log_prints();
            let text = text(self);
            self.journal.event(|| Event { seat, text, readers: Vec::new(), public_text: None });
        }
    }

    /// What scripts printed so far, logged where it happened (a traced scenario only).
    fn log_prints(&mut self) {
        for text in self.rs.hooks.take_prints() {
            self.journal.event(|| Event { seat: None, text, readers: Vec::new(), public_text: None });
        }
    }

    /// An event only `readers` may read in full; the other seats read `public`.
    pub(crate) fn private_event(
        &mut self,
        seat: Option<usize>,
        readers: &[usize],
        public: impl FnOnce() -> String,
        text: impl FnOnce(&Game) -> String,
    ) {
        if self.journal.logging() {
            self.log_prints();
            let (text, public) = (text(self), public());
            let readers = readers.to_vec();
            self.journal.event(|| Event { seat, text, readers, public_text: Some(public) });
        }
    }
}
