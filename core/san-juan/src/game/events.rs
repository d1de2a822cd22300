//! The event log: what happened, who may read it, and the helpers that log it.

use super::Game;
use crate::cards::CardIdx;

/// "1 card", "3 cards".
pub(crate) fn n_cards(n: impl Into<i64>) -> String {
    count(n, "card")
}

/// "1 good", "3 goods": a number and a noun that takes an s.
pub(crate) fn count(n: impl Into<i64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Who may read an event's full text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Everyone at the table.
    Public,
    /// Only this seat: the text names cards the others cannot see (a hand card
    /// paid, discarded, kept or put under a building; the cards drawn).
    Seat(usize),
}

/// Something that happened, for logs and the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The player it concerns, if any.
    pub seat: Option<usize>,
    /// The building whose effect caused it (the library that doubled a privilege,
    /// the well that gave a card), if any.
    pub cause: Option<CardIdx>,
    /// Who may read `text`.
    pub visibility: Visibility,
    /// What happened, in words with card ids, hidden cards included.
    pub text: String,
    /// What the seats that may not read `text` learn instead ("seat 2 keeps 1 card").
    pub public_text: Option<String>,
}

impl Event {
    /// The event as `seat` sees it: the public text in place of one that names
    /// cards hidden from `seat`; `None` if `seat` learns nothing from it.
    pub fn seen_by(&self, seat: usize) -> Option<Event> {
        match self.visibility {
            Visibility::Public => Some(self.clone()),
            Visibility::Seat(s) if s == seat => Some(self.clone()),
            Visibility::Seat(_) => self.public_text.as_ref().map(|text| Event {
                seat: self.seat,
                cause: self.cause,
                visibility: Visibility::Public,
                text: text.clone(),
                public_text: None,
            }),
        }
    }
}

impl Game {
    /// Logs a public event that no building caused.
    pub(crate) fn event(&mut self, seat: Option<usize>, text: impl FnOnce(&Game) -> String) {
        self.log_event(seat, None, None, |g| (text(g), None));
    }

    /// Logs a public event caused by the building `cause` of `seat`.
    pub(crate) fn event_from(&mut self, seat: usize, cause: CardIdx, text: impl FnOnce(&Game) -> String) {
        self.log_event(Some(seat), Some(cause), None, |g| (text(g), None));
    }

    /// Logs an event whose text only `seat` may read; `texts` gives (that text, what the others learn).
    pub(crate) fn secret_event(
        &mut self,
        seat: usize,
        cause: Option<CardIdx>,
        texts: impl FnOnce(&Game) -> (String, String),
    ) {
        self.log_event(Some(seat), cause, Some(seat), |g| {
            let (private, public) = texts(g);
            (private, Some(public))
        });
    }

    pub(crate) fn log_event(
        &mut self,
        seat: Option<usize>,
        cause: Option<CardIdx>,
        only: Option<usize>,
        texts: impl FnOnce(&Game) -> (String, Option<String>),
    ) {
        if self.journal.logging() {
            // The rules script is no card: an event it caused names none.
            let cause = cause.filter(|&c| usize::from(c) < self.rs.cards.len());
            // What scripts printed so far comes first, where it happened (a traced scenario only).
            for text in self.rs.scripts.take_prints() {
                self.journal.event(|| Event {
                    seat: None,
                    cause: None,
                    visibility: Visibility::Public,
                    text,
                    public_text: None,
                });
            }
            let (text, public_text) = texts(self);
            let visibility = only.map_or(Visibility::Public, Visibility::Seat);
            self.journal.event(|| Event { seat, cause, visibility, text, public_text });
        }
    }

    /// True while events are logged: work done only to describe an event checks this first.
    pub(crate) fn logging(&self) -> bool {
        self.journal.logging()
    }

    /// A building's name as a sentence names it: `gold mine`.
    pub(crate) fn name_of(&self, card: CardIdx) -> String {
        self.rs.owner_name(card)
    }

    /// Card ids, comma-separated.
    pub(crate) fn ids(&self, cards: &[CardIdx]) -> String {
        cards.iter().map(|&c| self.rs.cards.id(c)).collect::<Vec<_>>().join(", ")
    }
}
