//! What a seat may see, as the JSON a page reads (and the engine's terminal words are made of).

use engine_game::Game as _;
use serde::Serialize;

use crate::actions::card_id;
use crate::game::Game;

/// The table as one seat (or everyone) sees it.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The ruleset's id.
    pub ruleset: String,
    /// The round being played, from 1.
    pub round: u32,
    /// Rounds in the game.
    pub rounds: u32,
    /// The seat to move; none once the game is over.
    pub to_move: Option<usize>,
    /// The pile's top card.
    pub pile_top: Option<String>,
    /// Cards left in the deck.
    pub deck_size: usize,
    /// Once over: the winning seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<usize>>,
    /// What a script asks the seat to move to choose, while it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
    /// Every seat.
    pub players: Vec<PlayerView>,
}

/// One seat as the viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// Its seat.
    pub seat: usize,
    /// Its points.
    pub score: i32,
    /// Its hand, when the viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Cards in its hand.
    pub hand_size: usize,
}

impl Game {
    /// What `viewer` may see (`None`: everything): its own hand, the others' hand sizes.
    pub fn view(&self, viewer: Option<usize>) -> View {
        let players = (0..self.scores().len())
            .map(|seat| PlayerView {
                seat,
                score: self.scores()[seat],
                hand: viewer.is_none_or(|v| v == seat).then(|| self.hand(seat).iter().map(|&c| card_id(c)).collect()),
                hand_size: self.hand(seat).len(),
            })
            .collect();
        View {
            ruleset: self.rules().id.clone(),
            round: self.round(),
            rounds: self.rules().rules.rounds,
            to_move: engine_play::TurnGame::to_move(self),
            pile_top: self.pile_top().map(card_id),
            deck_size: self.deck_size(),
            winners: self.is_over().then(|| self.winners()),
            asked: self.choice.as_ref().map(|(c, _)| c.prompt.clone()),
            players,
        }
    }
}
