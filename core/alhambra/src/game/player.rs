//! A seat (or the neutral collector): its money, with the value per currency
//! kept beside it, and its buildings.

use crate::ruleset::{BuildingIdx, MAX_TYPES, Money, Ruleset, SUMS};

/// When and how a collector got a building.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// The turn it was acquired in; 0: before the first turn (the neutral
    /// collector's first draws, a scenario's setup).
    pub turn: u32,
    /// Bought with an exact payment.
    pub exact: bool,
}

/// A seat, or the neutral collector (two players).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Money cards in hand (hidden from the others; their number is public).
    hand: Vec<Money>,
    /// The hand's value per currency (then no currency, any), kept with the hand: the legal actions of
    /// every turn compare it with the prices on display.
    sums: [u32; SUMS],
    /// Buildings owned, in the order acquired.
    pub buildings: Vec<BuildingIdx>,
    /// How each of `buildings` came (same order): its history, kept when a
    /// script moves it to another collector.
    pub history: Vec<Held>,
    /// Buildings owned per type.
    pub counts: [u8; MAX_TYPES],
    /// Per building type: the counter its cards' `counter` effect changes (one per type and collector).
    pub counters: [i32; MAX_TYPES],
    /// Named counters, changed by the `player_counter` effect.
    pub player_counters: std::collections::BTreeMap<String, i32>,
}

impl Player {
    /// A player whose hand and buildings start at their usual size.
    pub(crate) fn with_room() -> Player {
        Player {
            hand: Vec::with_capacity(16),
            buildings: Vec::with_capacity(24),
            history: Vec::with_capacity(24),
            ..Player::default()
        }
    }

    /// `self` made the very same as `from`, in its own buffers (see [`super::Game::refill_from`]).
    pub(crate) fn refill_from(&mut self, from: &Player) {
        let Player { hand, sums, buildings, history, counts, counters, player_counters } = from;
        self.hand.clone_from(hand);
        self.sums = *sums;
        self.buildings.clone_from(buildings);
        self.history.clone_from(history);
        self.counts = *counts;
        self.counters = *counters;
        self.player_counters.clone_from(player_counters);
    }

    /// Money cards in hand, in the order taken.
    pub fn hand(&self) -> &[Money] {
        &self.hand
    }

    /// The total value of the hand per currency.
    pub fn sums(&self) -> [u32; SUMS] {
        self.sums
    }

    /// The hand's value in currency `c` (or of money card `c`, from `FIRST_CARD`).
    #[inline]
    pub fn sum(&self, c: u8) -> u32 {
        self.sums[usize::from(c)]
    }

    /// Adds a money card to the hand.
    pub(crate) fn gain_money(&mut self, m: Money) {
        self.sums[m.currency as usize] += u32::from(m.value);
        self.hand.push(m);
    }

    /// Takes the money card at `i` out of the hand (the last card takes its place).
    pub(crate) fn lose_money_at(&mut self, i: usize) -> Money {
        let m = self.hand.swap_remove(i);
        self.sums[m.currency as usize] -= u32::from(m.value);
        m
    }

    /// Replaces the hand (a search's redeal of hidden cards).
    pub(crate) fn set_hand(&mut self, hand: Vec<Money>) {
        self.sums = [0; SUMS];
        for m in &hand {
            self.sums[m.currency as usize] += u32::from(m.value);
        }
        self.hand = hand;
    }

    /// The total value of the hand.
    pub fn money(&self) -> u32 {
        self.sums.iter().sum()
    }

    /// Adds a building acquired in `turn` (not bought, or not exactly).
    pub(crate) fn add_building_at(&mut self, rs: &Ruleset, b: BuildingIdx, turn: u32) {
        self.add_building_with(rs, b, turn, false);
    }

    /// Adds a building acquired in `turn`, bought exactly or not.
    pub(crate) fn add_building_with(&mut self, rs: &Ruleset, b: BuildingIdx, turn: u32, exact: bool) {
        self.buildings.push(b);
        self.history.push(Held { turn, exact });
        if rs.bonus_types {
            self.recount(rs);
        } else {
            self.counts[rs.building(b).kind as usize] += 1;
        }
    }

    /// Takes out the building at `i`, with the turn it was acquired in and whether it was bought exactly.
    pub(crate) fn remove_building_at(&mut self, rs: &Ruleset, i: usize) -> (BuildingIdx, u32, bool) {
        let b = self.buildings.remove(i);
        // A bonus card's own count is 0 (and a building's may carry bonuses): counted again.
        if rs.bonus_types {
            self.recount(rs);
        } else {
            self.counts[rs.building(b).kind as usize] -= 1;
        }
        let Held { turn, exact } = self.history.remove(i);
        (b, turn, exact)
    }

    /// The counts when some type counts as another (a bonus card): each of its
    /// cards adds 1 to that type's count while a building of that type is
    /// held, and the bonus type itself counts 0 (no column of its own).
    #[cold]
    fn recount(&mut self, rs: &Ruleset) {
        let mut real = [0u8; MAX_TYPES];
        for &b in &self.buildings {
            real[rs.building(b).kind as usize] += 1;
        }
        let mut counts = real;
        for (t, target) in rs.counts_as.iter().enumerate() {
            if let Some(g) = *target {
                counts[t] = 0;
                if real[g as usize] > 0 {
                    counts[g as usize] += real[t];
                }
            }
        }
        self.counts = counts;
    }
}
