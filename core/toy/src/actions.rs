//! The action notation: `play c7` (or `play 7`), `draw`, `pass`.

use crate::error::GameError;

/// One answer of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Plays a card of this value from the hand onto the pile.
    Play(u8),
    /// Takes the deck's top card.
    Draw,
    /// Does nothing: the deck is empty and no card is played.
    Pass,
}

/// A card's id: `c7` for a 7.
pub fn card_id(value: u8) -> String {
    format!("c{value}")
}

/// A card's value from its id (`c7`) or its bare number (`7`).
pub fn parse_card(text: &str) -> Option<u8> {
    text.strip_prefix('c').unwrap_or(text).parse().ok()
}

impl Action {
    /// The action in the notation.
    pub fn text(self) -> String {
        match self {
            Action::Play(v) => format!("play {}", card_id(v)),
            Action::Draw => "draw".into(),
            Action::Pass => "pass".into(),
        }
    }

    /// Reads one action; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Action, GameError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let fail = |why: &str| GameError::Parse { text: text.to_owned(), why: why.to_owned() };
        match words.as_slice() {
            ["draw"] => Ok(Action::Draw),
            ["pass"] => Ok(Action::Pass),
            ["play", card] => parse_card(card).map(Action::Play).ok_or_else(|| fail("write a card as c7 or 7")),
            ["play"] => Err(fail("play which card? e.g. `play c7`")),
            _ => Err(fail("actions are `play c7`, `draw` and `pass`")),
        }
    }
}
