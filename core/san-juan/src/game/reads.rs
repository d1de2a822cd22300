//! What a hook read, as a row of numbers (`engine_script::reads`), written
//! from the state by its [`ReadPlan`] without making the `ctx`: the exact
//! content of every member the hook may read, in the terms
//! [`Game::script_ctx`] makes them, so that a hook asked again about what it
//! has seen answers from memory. `remembered_answers_play_every_game_as_answers_worked_out_each_time`
//! (in the crate's tests) holds the two together.

use engine_script::reads::{ReadRow, write_str};

use super::{Game, Slot};
use crate::hooks::{CITY_MEMBERS, Ctx};
use crate::reads::{ReadPlan, bits, members};

/// Each set bit of `bits`, lowest first.
fn each_bit(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            i
        })
    })
}

impl Game {
    /// The row of what a hook planned by `plan` reads of the `ctx` that
    /// [`Game::call`] makes from `ctx`, with the owner's city `own` when
    /// given (a city that might be): `None` when it may read an event that
    /// is being told (the hook then simply runs).
    pub(crate) fn read_row(&self, plan: &ReadPlan, ctx: &Ctx, own: Option<&[Slot]>) -> Option<ReadRow> {
        let has = |m: usize| plan.members & (1 << m) != 0;
        if has(members::EVENT) && self.event_now.is_some() {
            return None;
        }
        let mut row = ReadRow::new();
        row.extend(each_bit(u64::from(plan.scalars)).map(|i| ctx.scalar(i) as u32));
        let city = |s: usize| match own {
            Some(city) if s == ctx.seat => city,
            _ => &self.players[s].city,
        };
        let n = self.players.len();
        if CITY_MEMBERS.into_iter().any(has) {
            for s in 0..n {
                let c = city(s);
                row.push(c.len() as u32);
                row.extend(c.iter().map(|slot| u32::from(slot.card)));
            }
        }
        if has(members::HAND_SIZES) {
            row.extend(self.players.iter().map(|p| p.hand.len() as u32));
        }
        let me = &self.players[ctx.seat];
        if has(members::ROLES_CHOSEN) {
            row.push(u32::from(me.roles_chosen));
        }
        if has(members::HAND_CARDS) {
            row.push(me.hand.len() as u32);
            row.extend(me.hand.iter().map(|&c| u32::from(c)));
        }
        if has(members::PLAYER_COUNTER) {
            counters(&me.counters, &mut row);
        }
        if has(members::TARGET_FROM) {
            row.push(ctx.target_from.map_or(u32::MAX, |f| f as u32));
        }
        if has(members::TABLE) {
            self.table_row(plan, ctx, &city, &mut row);
        }
        Some(row)
    }

    /// The row of `ctx.table` as [`Game::table_facts`] and the table's map
    /// make it, key by key of those `plan` reads (`rules` holds for the game).
    fn table_row<'a>(&'a self, plan: &ReadPlan, ctx: &Ctx, city: &impl Fn(usize) -> &'a [Slot], row: &mut ReadRow) {
        let want = |bit: u32| plan.table & bit != 0;
        if want(bits::PLAYERS) {
            let seats = match plan.own_only {
                true => ctx.seat..ctx.seat + 1,
                false => 0..self.players.len(),
            };
            for s in seats {
                row.push(s as u32);
                self.seat_row(plan, s, city(s), row);
            }
        }
        if want(bits::DECK) {
            row.push(self.deck.len() as u32);
        }
        if want(bits::DISCARD) {
            row.push(self.discard.len() as u32);
        }
        if want(bits::ROUND) {
            row.push(ctx.round);
        }
        if want(bits::GOVERNOR) {
            row.push(self.governor as u32);
        }
        if want(bits::PHASE) {
            row.push(ctx.scalar(4) as u32);
        }
        if want(bits::CHOOSER) {
            row.push(self.phase.map_or(u32::MAX, |ph| ph.chooser as u32));
        }
        if want(bits::CHOSEN_THIS_ROUND) {
            row.extend(self.chosen_by.iter().map(|&s| u32::from(s)));
        }
        if want(bits::EARLIER_ROUNDS) {
            row.push(self.earlier_rounds.len() as u32);
            row.extend(self.earlier_rounds.iter().flatten().map(|&s| u32::from(s)));
        }
        if want(bits::TILE) {
            row.push(self.tile.map_or(u32::MAX, |t| t as u32));
        }
    }

    /// One seat of `ctx.table.players`, by the keys `plan` reads, its city `city`.
    fn seat_row(&self, plan: &ReadPlan, seat: usize, city: &[Slot], row: &mut ReadRow) {
        let p = &self.players[seat];
        let (want, counted) = (|bit: u32| plan.seat & bit != 0, |bit: u32| plan.counted & bit != 0);
        if want(bits::HAND) {
            row.push(p.hand.len() as u32);
        }
        if want(bits::GOODS) {
            row.push(super::goods_on(city) as u32);
        }
        if want(bits::BUILDINGS) {
            row.push(city.len() as u32);
            if !counted(bits::BUILDINGS) {
                for s in city {
                    building_row(plan.building, s, row);
                }
            }
        }
        if want(bits::RESERVE) {
            row.push(p.reserve.len() as u32);
            if !counted(bits::RESERVE) {
                row.extend(p.reserve.iter().map(|&c| u32::from(c)));
            }
        }
        if want(bits::COUNTERS) {
            counters(&p.counters, row);
        }
        if want(bits::ROLES_CHOSEN) {
            row.push(u32::from(p.roles_chosen));
        }
    }
}

/// One building of a seat's `buildings`, by the keys `keys` read.
fn building_row(keys: u32, s: &Slot, row: &mut ReadRow) {
    let want = |bit: u32| keys & bit != 0;
    if want(bits::CARD) {
        row.push(u32::from(s.card));
    }
    if want(bits::GOOD) {
        row.push(u32::from(s.good.is_some()));
    }
    if want(bits::UNDER) {
        row.push(s.under.len() as u32);
    }
    if want(bits::COUNTER) {
        row.push(s.counter as u32);
    }
    if want(bits::BUILT) {
        row.push(s.built_round);
    }
    if want(bits::COVERED) {
        row.push(s.covered.len() as u32);
        row.extend(s.covered.iter().map(|c| u32::from(c.card)));
    }
    if want(bits::WORKING) {
        row.push(u32::from(s.active));
    }
}

/// A seat's named counters: how many, then each name and value.
fn counters(counters: &[(std::sync::Arc<str>, i32)], row: &mut ReadRow) {
    row.push(counters.len() as u32);
    for (name, v) in counters {
        write_str(name, row);
        row.push(*v as u32);
    }
}
