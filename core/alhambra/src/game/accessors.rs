//! Read-only questions about the state: the seats, displays, piles and the
//! census of every card.

use super::{Decision, Draw, Game, Player};
use crate::actions::Action;
use crate::ruleset::{BuildingIdx, Money};

impl Game {
    /// Number of players (the neutral collector is not one).
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// A player's state.
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }

    /// The neutral collector (two players).
    pub fn neutral(&self) -> Option<&Player> {
        self.neutral.as_ref()
    }

    /// The seat that took the first turn.
    pub fn start_player(&self) -> usize {
        self.start_player
    }

    /// Turn number, from 1.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Money cards face up to take.
    pub fn money_display(&self) -> &[Money] {
        &self.money_display
    }

    /// The building display, one entry per yard slot.
    pub fn building_display(&self) -> &[Option<BuildingIdx>] {
        &self.building_display
    }

    /// Cards in the money deck (scoring cards included).
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// Cards in the building deck.
    pub fn building_deck_size(&self) -> usize {
        self.building_deck.len()
    }

    /// The discard pile (face up), last paid on top.
    pub fn discard(&self) -> &[Money] {
        &self.discard
    }

    /// Scorings done so far, by name.
    pub fn scored(&self) -> Vec<&str> {
        self.scored.iter().map(|&i| self.rs.scorings[i as usize].name.as_str()).collect()
    }

    /// Buildings nobody got at the end (a tie for the most money of their currency).
    pub fn unclaimed(&self) -> &[BuildingIdx] {
        &self.unclaimed
    }

    /// The decision waiting for an answer; `None` once the game is over.
    pub fn pending(&self) -> Option<&Decision> {
        self.pending.as_ref()
    }

    /// Every legal answer to the pending decision (empty once the game is over).
    pub fn legal_actions(&self) -> &[Action] {
        &self.legal
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// True if the game ended by the `max_turns` safety valve, not by the rules.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// Index of a card kind in [`Game::census`]: money kinds (as
    /// [`crate::ruleset::Ruleset::money`] lists them), then building kinds, then
    /// scoring cards, then deck cards.
    pub fn census_index_of_money(&self, m: Money) -> usize {
        self.rs.kind_of(m)
    }

    /// How many cards of each kind are where, over every place a card can be
    /// (decks, displays, discard pile, hands, buildings, the neutral
    /// collector's, unclaimed, scoring cards done). Equals
    /// [`Game::census_expected`] at every point of a game.
    pub fn census(&self) -> Vec<u32> {
        let money_kinds = self.rs.money.len();
        let buildings = self.rs.buildings.len();
        let decks = money_kinds + buildings + self.rs.scorings.len();
        let mut count = vec![0u32; decks + self.rs.deck_cards.len()];
        let money = |count: &mut Vec<u32>, m: &Money| count[self.census_index_of_money(*m)] += 1;
        let building = |count: &mut Vec<u32>, b: &BuildingIdx| count[money_kinds + *b as usize] += 1;
        for d in &self.deck {
            match d {
                Draw::Money(m) => money(&mut count, m),
                Draw::Scoring(s) => count[money_kinds + buildings + *s as usize] += 1,
                Draw::Deck(d) => count[decks + *d as usize] += 1,
            }
        }
        for d in &self.drawn_out {
            count[decks + *d as usize] += 1;
        }
        for s in &self.scored {
            if self.rs.scorings[*s as usize].card.is_some() {
                count[money_kinds + buildings + *s as usize] += 1;
            }
        }
        self.discard.iter().chain(&self.money_display).chain(&self.out).for_each(|m| money(&mut count, m));
        self.building_deck
            .iter()
            .chain(self.building_display.iter().flatten())
            .chain(&self.unclaimed)
            .chain(&self.set_aside)
            .chain(self.reserves.iter().flatten())
            .for_each(|b| building(&mut count, b));
        for p in self.players.iter().chain(&self.neutral) {
            p.hand().iter().for_each(|m| money(&mut count, m));
            p.buildings.iter().for_each(|b| building(&mut count, b));
        }
        count
    }

    /// What [`Game::census`] must be: every card once.
    pub fn census_expected(&self) -> Vec<u32> {
        let n = self.players.len();
        let mut out: Vec<u32> = self.rs.money.iter().map(|k| u32::from(self.rs.kind_copies(k, n))).collect();
        out.extend(self.rs.buildings.iter().map(|b| u32::from(b.copies)));
        out.extend(self.rs.scorings.iter().map(|s| u32::from(s.card.is_some())));
        out.extend(self.rs.deck_cards.iter().map(|_| 1));
        out
    }
}
