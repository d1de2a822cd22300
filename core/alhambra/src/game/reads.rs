//! What a card's hook read, as a row of numbers (`engine_script::reads`):
//! the exact content of each `ctx` member the hook may read, written from the
//! state without making the member, so that a hook asked again about what it
//! has seen answers from memory. Every key of the `ctx` that
//! [`Game::card_ctx`] and [`Game::table_map`] make has its entry here, in the
//! same terms; `a_row_tells_apart_every_table_the_scripts_see` (in the game's
//! tests) holds the two together.

use engine_script::Shape;
use engine_script::reads::{ReadRow, write_keys_read, write_value};
use rhai::Dynamic;

use super::Game;
use super::scripts::{Heard, Listener, place};
use crate::hooks::{
    COLLECTOR_SHAPE, CTX_MORE, DISPLAYED_SHAPE, HAND_SHAPE, Hook, OWNED_SHAPE, TABLE_SHAPE, TableReads,
};
use crate::ruleset::Money;

/// A bit of a key of `ctx.table` or of one of its collectors.
pub(crate) mod bits {
    use super::{COLLECTOR_SHAPE, DISPLAYED_SHAPE, HAND_SHAPE, OWNED_SHAPE, Shape, TABLE_SHAPE};

    pub(crate) const SEATS: u32 = Shape::bit(TABLE_SHAPE, "seats");
    pub(crate) const NEUTRAL: u32 = Shape::bit(TABLE_SHAPE, "neutral");
    pub(crate) const MONEY_DISPLAY: u32 = Shape::bit(TABLE_SHAPE, "money_display");
    pub(crate) const BUILDING_DISPLAY: u32 = Shape::bit(TABLE_SHAPE, "building_display");
    pub(crate) const DECK: u32 = Shape::bit(TABLE_SHAPE, "deck");
    pub(crate) const BUILDING_DECK: u32 = Shape::bit(TABLE_SHAPE, "building_deck");
    pub(crate) const DISCARD: u32 = Shape::bit(TABLE_SHAPE, "discard");
    pub(crate) const SCORED: u32 = Shape::bit(TABLE_SHAPE, "scored");
    pub(crate) const SCORED_AT: u32 = Shape::bit(TABLE_SHAPE, "scored_at");
    pub(crate) const TURN: u32 = Shape::bit(TABLE_SHAPE, "turn");
    pub(crate) const TO_MOVE: u32 = Shape::bit(TABLE_SHAPE, "to_move");
    pub(crate) const START_PLAYER: u32 = Shape::bit(TABLE_SHAPE, "start_player");
    pub(crate) const TYPES: u32 = Shape::bit(TABLE_SHAPE, "types");
    pub(crate) const CURRENCIES: u32 = Shape::bit(TABLE_SHAPE, "currencies");
    pub(crate) const RULES: u32 = Shape::bit(TABLE_SHAPE, "rules");

    pub(crate) const SEAT: u32 = Shape::bit(COLLECTOR_SHAPE, "seat");
    pub(crate) const BUILDINGS: u32 = Shape::bit(COLLECTOR_SHAPE, "buildings");
    pub(crate) const COUNTS: u32 = Shape::bit(COLLECTOR_SHAPE, "counts");
    pub(crate) const MONEY: u32 = Shape::bit(COLLECTOR_SHAPE, "money");
    pub(crate) const HAND: u32 = Shape::bit(COLLECTOR_SHAPE, "hand");
    pub(crate) const SCORE: u32 = Shape::bit(COLLECTOR_SHAPE, "score");
    pub(crate) const RESERVE: u32 = Shape::bit(COLLECTOR_SHAPE, "reserve");

    pub(crate) const H_ID: u32 = Shape::bit(HAND_SHAPE, "id");
    pub(crate) const H_CURRENCY: u32 = Shape::bit(HAND_SHAPE, "currency");
    pub(crate) const H_VALUE: u32 = Shape::bit(HAND_SHAPE, "value");

    pub(crate) const O_TYPE: u32 = Shape::bit(OWNED_SHAPE, "type");
    pub(crate) const O_ID: u32 = Shape::bit(OWNED_SHAPE, "id");
    pub(crate) const O_PRICE: u32 = Shape::bit(OWNED_SHAPE, "price");
    pub(crate) const O_BOUGHT: u32 = Shape::bit(OWNED_SHAPE, "bought");
    pub(crate) const O_EXACT: u32 = Shape::bit(OWNED_SHAPE, "exact");
    pub(crate) const O_NTH: u32 = Shape::bit(OWNED_SHAPE, "nth");
    /// Every key of an owned building.
    pub(crate) const OWNED_ALL: u32 = O_TYPE | O_ID | O_PRICE | O_BOUGHT | O_EXACT | O_NTH;

    pub(crate) const D_TYPE: u32 = Shape::bit(DISPLAYED_SHAPE, "type");
    pub(crate) const D_ID: u32 = Shape::bit(DISPLAYED_SHAPE, "id");
    pub(crate) const D_PRICE: u32 = Shape::bit(DISPLAYED_SHAPE, "price");
    pub(crate) const D_SLOT: u32 = Shape::bit(DISPLAYED_SHAPE, "slot");
    pub(crate) const D_CURRENCY: u32 = Shape::bit(DISPLAYED_SHAPE, "currency");
    /// Every key of a displayed building.
    pub(crate) const DISPLAYED_ALL: u32 = D_TYPE | D_ID | D_PRICE | D_SLOT | D_CURRENCY;
}

/// Per member of [`CTX_MORE`], its place in a card's `ctx` ([`super::scripts::CARD_CTX_MEMBERS`]).
const PLACE_OF: [u8; 64] = {
    let mut places = [u8::MAX; 64];
    let members = super::scripts::CARD_CTX_MEMBERS;
    let mut m = 0;
    while m < members.len() {
        places[members[m]] = m as u8;
        m += 1;
    }
    places
};

/// A bit per member of [`CTX_MORE`] that has a place in a card's `ctx`.
const MEMBERS_WITH_PLACE: u64 = {
    let members = super::scripts::CARD_CTX_MEMBERS;
    let (mut bits, mut m) = (0u64, 0);
    while m < members.len() {
        bits |= 1 << members[m];
        m += 1;
    }
    bits
};

/// A money card in a row.
fn money(m: Money) -> u32 {
    (u32::from(m.currency) << 8) | u32::from(m.value)
}

/// A list of money cards in a row: its length, then each.
fn moneys(cards: &[Money], row: &mut ReadRow) {
    row.push(cards.len() as u32);
    row.extend(cards.iter().map(|&m| money(m)));
}

impl Game {
    /// The row of what `l`'s `hook` may read of the `ctx` [`Game::card_ctx`]
    /// would make for it: `None` when a member holds a value no row can
    /// stand for (the hook then simply runs).
    #[inline(never)]
    pub(super) fn read_row(
        &self,
        hook: Hook,
        l: &Listener,
        actor: usize,
        event: &Dynamic,
        extra: &[(&str, Dynamic)],
    ) -> Option<ReadRow> {
        let hooks = &self.rs.hooks;
        let p = &self.players[l.seat];
        let mut row = ReadRow::new();
        // Asked at every decision for an action's `legal`: the members read are looked up once.
        let read = hooks.script_host().member_bits(hook as usize, l.owner);
        // The places of the members read, by their bits (most hooks read two or three of twenty).
        let mut bits = read & MEMBERS_WITH_PLACE;
        while bits != 0 {
            let member = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let m = usize::from(PLACE_OF[member]);
            row.push(m as u32 | 0x8000_0000); // which member: the rows of two hooks' reads never run together
            if let (place::ARGS, Hook::Action, Some(w)) = (m, hook, l.args) {
                // A tag no value is written with (see `write_value`).
                row.extend([8, u32::from(w)]);
                continue;
            }
            let key = CTX_MORE[member];
            if let Some((_, v)) = extra.iter().find(|(k, _)| *k == key) {
                if !write_value(v, &mut row) {
                    return None;
                }
                continue;
            }
            // By the member's place in `card_ctx`'s order (text matched member by member
            // was a good part of a row written at every decision).
            match m {
                place::ACTION => row.push(match l.card {
                    Heard::Action(a) => u32::from(a),
                    _ => u32::MAX,
                }),
                place::ACTOR => row.push(actor as u32),
                place::CARD => {
                    let c = l.card.code_by(hooks.card_keys(hook, l.owner));
                    row.extend([c as u32, (c >> 32) as u32, (c >> 64) as u32, (c >> 96) as u32]);
                }
                place::COUNTER => row.push(l.kind.map_or(u32::MAX, |t| p.counters[t] as u32)),
                place::EVENT => {
                    let written = match hooks.event_reads(hook, l.owner) {
                        Some(keys) => write_keys_read(event, keys, &mut row),
                        None => write_value(event, &mut row),
                    };
                    if !written {
                        return None;
                    }
                }
                // A hook that only counts the hand is asked again only about another size.
                place::HAND if hooks.counts_hand_only(hook, l.owner) => row.push(p.hand().len() as u32),
                place::HAND => moneys(p.hand(), &mut row),
                place::OWNED => row.push(l.owned as u32),
                // `player_counters`, and the method `player_counter` that reads it.
                place::PLAYER_COUNTERS | place::PLAYER_COUNTER => {
                    row.push(p.player_counters.len() as u32);
                    for (k, &v) in &p.player_counters {
                        engine_script::reads::write_str(k, &mut row);
                        row.push(v as u32);
                    }
                }
                place::PLAYERS => row.push(self.players.len() as u32),
                place::SEAT => row.push(l.seat as u32),
                place::TABLE => self.table_row(&hooks.table_reads(hook, l.owner, l.seat), &mut row),
                place::TURN => row.push(self.turns),
                // The members a caller gives (`args`, `target`, `limit`…) are `()` or empty when it gives none.
                _ => row.push(u32::MAX - 1),
            }
        }
        Some(row)
    }

    /// The row of the table [`Game::table_map`] makes for `reads`, entry by
    /// entry in the same terms (the ruleset's constants, `types`,
    /// `currencies` and `rules`, need no entry).
    pub(crate) fn table_row(&self, reads: &TableReads, row: &mut ReadRow) {
        use bits::*;
        let (keys, collector_keys, own) = (reads.keys, reads.collector, reads.own);
        let want = |bit: u32| keys & bit != 0;
        let collector = |p: &super::Player, seat: Option<usize>, score: i32, row: &mut ReadRow| {
            let held = |bit: u32| collector_keys & bit != 0;
            let counted = |bit: u32| reads.counted & bit != 0;
            row.push(seat.map_or(u32::MAX, |s| s as u32));
            if held(BUILDINGS) {
                row.push(p.buildings.len() as u32);
                if !counted(BUILDINGS) {
                    // Each building by the keys made of it (`type` alone: its type, so that a
                    // row stays the same while the types do; the id fixes type and price; the
                    // `nth` of its type follows from the types before it).
                    let owned = reads.owned;
                    let by_id = owned & O_ID != 0;
                    for (&b, h) in p.buildings.iter().zip(&p.history) {
                        if by_id {
                            row.push(u32::from(b));
                        } else {
                            let card = self.rs.building(b);
                            if owned & (O_TYPE | O_NTH) != 0 {
                                row.push(u32::from(card.kind));
                            }
                            if owned & O_PRICE != 0 {
                                row.push(u32::from(card.price));
                            }
                        }
                        if owned & O_BOUGHT != 0 {
                            row.push(h.turn);
                        }
                        if owned & O_EXACT != 0 {
                            row.push(u32::from(h.exact));
                        }
                    }
                }
            }
            if held(COUNTS) {
                row.extend(p.counts[..self.rs.types.len()].iter().map(|&c| c as u32));
            }
            if held(MONEY) {
                row.push(p.hand().len() as u32);
            }
            if held(HAND) {
                match self.ending && seat.is_some() {
                    true if counted(HAND) => row.push(p.hand().len() as u32),
                    true => moneys(p.hand(), row),
                    false => row.push(u32::MAX),
                }
            }
            if held(SCORE) {
                row.push(score as u32);
            }
            if held(RESERVE) {
                let reserve = seat.map_or(&[][..], |s| self.reserve(s));
                row.push(reserve.len() as u32);
                if !counted(RESERVE) {
                    row.extend(reserve.iter().map(|&b| u32::from(b)));
                }
            }
        };
        if want(SEATS) {
            for (i, p) in self.players.iter().enumerate() {
                match own {
                    Some(s) if s != i => row.push(u32::MAX - 2),
                    _ => collector(p, Some(i), self.earned[i].total, row),
                }
            }
        }
        if want(NEUTRAL) {
            match &self.neutral {
                Some(n) => collector(n, None, self.earned[self.players.len()].total, row),
                None => row.push(u32::MAX),
            }
        }
        if want(MONEY_DISPLAY) {
            moneys(&self.money_display, row);
        }
        if want(BUILDING_DISPLAY) {
            row.push(self.building_display.len() as u32);
            // A building by the keys made of it (`slot` alone: whether the slot is full).
            let displayed = reads.displayed & DISPLAYED_ALL;
            for (slot, b) in self.building_display.iter().enumerate() {
                match *b {
                    None => row.push(u32::MAX),
                    Some(b) if displayed == DISPLAYED_ALL => row.push(u32::from(b)),
                    Some(b) => {
                        let card = self.rs.building(b);
                        row.push(slot as u32);
                        // The id fixes the type and the price; else each as read (a mirage
                        // reads the types alone: the same row whatever the prices).
                        if displayed & D_ID != 0 {
                            row.push(u32::from(b));
                        }
                        if displayed & (D_TYPE | D_ID) == D_TYPE {
                            row.push(u32::from(card.kind));
                        }
                        if displayed & (D_PRICE | D_ID) == D_PRICE {
                            row.push(u32::from(card.price));
                        }
                    }
                }
            }
        }
        if want(DECK) {
            row.push(self.deck.len() as u32);
        }
        if want(BUILDING_DECK) {
            row.push(self.building_deck.len() as u32);
        }
        if want(DISCARD) {
            moneys(&self.discard, row);
        }
        if want(SCORED) || want(SCORED_AT) {
            row.push(self.scored.len() as u32);
            row.extend(self.scored.iter().map(|&k| u32::from(k)));
        }
        if want(SCORED_AT) {
            row.extend(self.scored_turns.iter().copied());
        }
        if want(TURN) {
            row.push(self.turns);
        }
        if want(TO_MOVE) {
            let to_move = self.pending.map(|d| d.seat()).or(self.refilling_for);
            row.push(to_move.map_or(u32::MAX, |s| s as u32));
        }
        if want(START_PLAYER) {
            row.push(self.start_player as u32);
        }
    }
}

/// The bit of a key of the table, by name (for tests).
#[cfg(test)]
pub(crate) fn bits_of(key: &str) -> u32 {
    1 << TABLE_SHAPE.iter().position(|s| s.key == key).expect("a key of the table")
}
