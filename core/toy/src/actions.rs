//! The action notation: `play c7`, `draw`, `pass` (a line is read back by the
//! engine, which matches it to the legal action written so), and a ruleset's
//! own verbs.

use engine_script::verbs::Verb;

use crate::ruleset::Ruleset;

/// One answer of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Plays a card of this value from the hand onto the pile.
    Play(u8),
    /// Takes the deck's top card.
    Draw,
    /// Does nothing: the deck is empty and no card is played.
    Pass,
    /// One of the ruleset's own actions, or the answer to a choice its script
    /// asked: the engine's (`engine_script::verbs`), written as the ruleset says.
    Script(Verb),
}

/// A card's id: `c7` for a 7.
pub fn card_id(value: u8) -> String {
    format!("c{value}")
}

impl Action {
    /// The action in the notation of `rs`.
    pub fn text(self, rs: &Ruleset) -> String {
        match self {
            Action::Play(v) => format!("play {}", card_id(v)),
            Action::Draw => "draw".into(),
            Action::Pass => "pass".into(),
            Action::Script(v) => rs.verbs.text(&v),
        }
    }
}
