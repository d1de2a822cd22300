//! Read-only questions about the state: the seats, piles, phase and roles.

use super::{Decision, Game, NOBODY, Phase, Player};
use crate::actions::Role;
use crate::cards::CardIdx;

impl Game {
    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// A player's state.
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }

    /// The seat holding the governor card.
    pub fn governor(&self) -> usize {
        self.governor
    }

    /// Round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Cards in the draw pile.
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// The draw pile in its order (what no player sees: for tests and tools).
    pub fn deck(&self) -> &[CardIdx] {
        &self.deck
    }

    /// Cards in the discard pile.
    pub fn discard_size(&self) -> usize {
        self.discard.len()
    }

    /// Public cards still on the table (the cathedral).
    pub fn public_cards(&self) -> &[CardIdx] {
        &self.public
    }

    /// Cards drawn or revealed that wait for a decision.
    pub fn limbo(&self) -> &[CardIdx] {
        &self.limbo
    }

    /// The face-up trading tile, if a trader phase is on.
    pub fn trading_tile(&self) -> Option<&[i32]> {
        self.tile.map(|t| self.rs.rules.trading_tiles[t].as_slice())
    }

    /// The face-up trading tile with good names: `indigo 1, sugar 1, tobacco 2, coffee 2, silver 3`.
    pub fn trading_tile_text(&self) -> Option<String> {
        let goods = &self.rs.rules.goods;
        let tile = self.trading_tile()?;
        Some(tile.iter().zip(goods).map(|(price, good)| format!("{good} {price}")).collect::<Vec<_>>().join(", "))
    }

    /// The current phase, if one is being played.
    pub fn phase(&self) -> Option<Phase> {
        self.phase
    }

    /// Roles already chosen this round.
    pub fn roles_taken(&self) -> Vec<Role> {
        Role::ALL.into_iter().filter(|&r| self.taken(r)).collect()
    }

    /// Whether `role` was chosen this round.
    pub(super) fn taken(&self, role: Role) -> bool {
        self.chosen_by[role as usize] != NOBODY
    }

    /// Roles already chosen this round, each with the seat that chose it.
    pub fn roles_chosen_by(&self) -> Vec<(Role, usize)> {
        Role::ALL.into_iter().filter(|&r| self.taken(r)).map(|r| (r, self.chosen_by[r as usize] as usize)).collect()
    }

    /// The decision waiting for an answer; `None` once the game is over.
    pub fn pending(&self) -> Option<&Decision> {
        self.pending.as_ref()
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Cards that came into `seat`'s hand since its last hand-limit check.
    pub fn cards_gained_since_hand_limit(&self, seat: usize) -> usize {
        self.players[seat].gained as usize
    }

    /// How many copies of each card type are where: the count per type over the
    /// draw pile, discard pile, hands, buildings (top, covered, good, under),
    /// public cards and cards waiting for a decision. Equals the ruleset's copies
    /// at every point of a game.
    pub fn census(&self) -> Vec<u32> {
        let mut count = vec![0u32; self.rs.cards.len()];
        let mut add = |c: &CardIdx| count[*c as usize] += 1;
        self.deck.iter().chain(&self.discard).chain(&self.public).chain(&self.limbo).for_each(&mut add);
        for p in &self.players {
            p.hand.iter().chain(&p.reserve).for_each(&mut add);
            for s in &p.city {
                add(&s.card);
                s.covered.iter().map(|c| &c.card).chain(&s.under).chain(s.good.iter()).for_each(&mut add);
            }
        }
        count
    }

    /// True if the game ended by the `max_rounds` safety valve, not by the rules.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// The building in a seat's city slot (of a decision a script asked for).
    pub fn card_at(&self, seat: u16, slot: u16) -> CardIdx {
        self.players[usize::from(seat)].city[usize::from(slot)].card
    }
}
