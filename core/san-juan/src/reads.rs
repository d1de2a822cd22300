//! What a hook that reads more than plain values and cities reads of `ctx`
//! (the table, hand sizes, its own hand and counters), worked out once per
//! ruleset from the scripts: the plan of the row of numbers the game writes
//! for a call (`game::reads`), so that a hook asked again about what it has
//! seen answers from memory (`engine_script::reads`). A founders' hall that
//! reads the rounds its owner built in is asked at every decision a bot
//! prices; its answer changes only when its owner builds.

use engine_script::{ScriptHost, Shape};

use crate::hooks::{BUILDING_SHAPE, HOOKS, SCALARS, SEAT_SHAPE, TABLE_SHAPE};

/// A bit of a key of `ctx.table`, of a seat in `players`, or of a building in a seat's `buildings`.
pub(crate) mod bits {
    use super::{BUILDING_SHAPE, SEAT_SHAPE, Shape, TABLE_SHAPE};

    pub(crate) const PLAYERS: u32 = Shape::bit(TABLE_SHAPE, "players");
    pub(crate) const DECK: u32 = Shape::bit(TABLE_SHAPE, "deck");
    pub(crate) const DISCARD: u32 = Shape::bit(TABLE_SHAPE, "discard");
    pub(crate) const ROUND: u32 = Shape::bit(TABLE_SHAPE, "round");
    pub(crate) const GOVERNOR: u32 = Shape::bit(TABLE_SHAPE, "governor");
    pub(crate) const PHASE: u32 = Shape::bit(TABLE_SHAPE, "phase");
    pub(crate) const CHOOSER: u32 = Shape::bit(TABLE_SHAPE, "chooser");
    pub(crate) const CHOSEN_THIS_ROUND: u32 = Shape::bit(TABLE_SHAPE, "chosen_this_round");
    pub(crate) const EARLIER_ROUNDS: u32 = Shape::bit(TABLE_SHAPE, "earlier_rounds");
    pub(crate) const TILE: u32 = Shape::bit(TABLE_SHAPE, "tile");

    pub(crate) const HAND: u32 = Shape::bit(SEAT_SHAPE, "hand");
    pub(crate) const GOODS: u32 = Shape::bit(SEAT_SHAPE, "goods");
    pub(crate) const BUILDINGS: u32 = Shape::bit(SEAT_SHAPE, "buildings");
    pub(crate) const RESERVE: u32 = Shape::bit(SEAT_SHAPE, "reserve");
    pub(crate) const COUNTERS: u32 = Shape::bit(SEAT_SHAPE, "counters");
    pub(crate) const ROLES_CHOSEN: u32 = Shape::bit(SEAT_SHAPE, "roles_chosen");

    pub(crate) const CARD: u32 = Shape::bit(BUILDING_SHAPE, "card");
    pub(crate) const GOOD: u32 = Shape::bit(BUILDING_SHAPE, "good");
    pub(crate) const UNDER: u32 = Shape::bit(BUILDING_SHAPE, "under");
    pub(crate) const COUNTER: u32 = Shape::bit(BUILDING_SHAPE, "counter");
    pub(crate) const BUILT: u32 = Shape::bit(BUILDING_SHAPE, "built");
    pub(crate) const COVERED: u32 = Shape::bit(BUILDING_SHAPE, "covered");
    pub(crate) const WORKING: u32 = Shape::bit(BUILDING_SHAPE, "working");
}

/// The `ctx` members ([`CTX_MORE`]) a row writes, by name: the rest are
/// `()` or empty wherever a row is written (a choice, its tag, an action's
/// arguments, revealed cards), or hold for the whole game.
pub(crate) mod members {
    pub(crate) const HAND_SIZES: usize = 3;
    pub(crate) const ROLES_CHOSEN: usize = 6;
    pub(crate) const TABLE: usize = 7;
    pub(crate) const EVENT: usize = 8;
    pub(crate) const HAND_CARDS: usize = 9;
    pub(crate) const PLAYER_COUNTER: usize = 11;
    pub(crate) const TARGET_FROM: usize = 17;
}

/// What one hook of one owner reads, as the row of its reads writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadPlan {
    /// A bit per [`SCALARS`] entry read.
    pub(crate) scalars: u32,
    /// A bit per [`CTX_MORE`] member read (every bit: it does more with `ctx` than read it).
    pub(crate) members: u64,
    /// A bit per `ctx.table` key read (`bits::PLAYERS`…).
    pub(crate) table: u32,
    /// A bit per key read of each seat in `ctx.table.players`.
    pub(crate) seat: u32,
    /// Those of [`ReadPlan::seat`] only counted (`p.buildings.len()`).
    pub(crate) counted: u32,
    /// A bit per key read of each building in a seat's `buildings`.
    pub(crate) building: u32,
    /// It reads `ctx.table.players` only at `ctx.seat`: the other seats cannot matter.
    pub(crate) own_only: bool,
}

impl ReadPlan {
    /// What a table made for the hook holds of its seats, for `seat`'s building.
    pub(crate) fn parts(&self, seat: usize) -> crate::hooks::TableParts {
        crate::hooks::TableParts { seat: self.seat, building: self.building, own: self.own_only.then_some(seat) }
    }
}

/// Every hook's [`ReadPlan`] per owner: only for a hook the script host
/// does not remember by itself (by plain values and cities), none for the rest.
#[derive(Debug, Default)]
pub(crate) struct ReadPlans {
    /// `by_hook[hook][owner]`; a hook no owner needs a plan for has an empty list.
    by_hook: Vec<Vec<Option<ReadPlan>>>,
    /// No hook has a plan (every built-in ruleset): one test answers every call.
    none: bool,
}

impl ReadPlans {
    /// The plans of `owners` script owners' hooks.
    pub(crate) fn new(scripts: &ScriptHost, owners: usize) -> ReadPlans {
        let by_hook: Vec<Vec<Option<ReadPlan>>> = (0..HOOKS.len())
            .map(|h| {
                let plans: Vec<Option<ReadPlan>> = (0..owners).map(|o| plan(scripts, h, o)).collect();
                if plans.iter().all(Option::is_none) { Vec::new() } else { plans }
            })
            .collect();
        let none = by_hook.iter().all(Vec::is_empty);
        ReadPlans { by_hook, none }
    }

    /// `owner`'s plan for `hook`, if a row is written for it.
    #[inline]
    pub(crate) fn get(&self, hook: usize, owner: usize) -> Option<&ReadPlan> {
        if self.none {
            return None;
        }
        self.by_hook.get(hook)?.get(owner)?.as_ref()
    }
}

/// The positions of `names` in `shape`, a bit each (every bit for `None`: read whole).
fn shape_bits(names: Option<&[String]>, shape: &[Shape]) -> u32 {
    match names {
        Some(names) => names.iter().filter_map(|k| shape.iter().position(|s| s.key == k)).fold(0, |b, i| b | 1 << i),
        None => u32::MAX,
    }
}

/// `owner`'s plan for `hook`: `None` where it does not listen, answers a
/// literal, or is remembered by the plain values and the cities it reads.
fn plan(scripts: &ScriptHost, hook: usize, owner: usize) -> Option<ReadPlan> {
    if !scripts.listens(hook, owner)
        || scripts.constant(hook, owner).is_some()
        || scripts.memo_reads(hook, owner).is_some()
        || scripts.listed_reads(hook, owner).is_some()
    {
        return None;
    }
    let reads = scripts.reads(hook, owner);
    let scalars = match &reads {
        Some(reads) => shape_bits_of(reads, SCALARS),
        None => (1u32 << SCALARS.len()) - 1,
    };
    let members = scripts.member_bits(hook, owner);
    let (mut table, mut seat, mut counted, mut building, mut own_only) = (0, 0, 0, 0, false);
    if members & (1 << members::TABLE) != 0 {
        table = shape_bits(scripts.member_keys(hook, owner, "table").as_deref(), TABLE_SHAPE);
        let seats = scripts.element_reads(hook, owner, "table", "players", true, &[]);
        seat = shape_bits(seats.as_ref().map(|r| r.keys.as_slice()), SEAT_SHAPE);
        counted = seats.map_or(0, |r| shape_bits(Some(r.counted.as_slice()), SEAT_SHAPE));
        let buildings = scripts.element_reads(hook, owner, "table", "players", true, &["buildings"]);
        building = shape_bits(buildings.as_ref().map(|r| r.keys.as_slice()), BUILDING_SHAPE);
        own_only = scripts.indexed_by_only(hook, owner, "table", "players", "seat");
    }
    Some(ReadPlan { scalars, members, table, seat, counted, building, own_only })
}

/// A bit per entry of `names` among `all` (names not there are members of [`CTX_MORE`]).
fn shape_bits_of(names: &[String], all: &[&str]) -> u32 {
    names.iter().filter_map(|n| all.iter().position(|a| a == n)).fold(0, |b, i| b | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::CTX_MORE;

    #[test]
    fn the_members_a_row_writes_are_named_where_the_plan_looks_for_them() {
        use members::*;
        let named = [
            (HAND_SIZES, "hand_sizes"),
            (ROLES_CHOSEN, "roles_chosen"),
            (TABLE, "table"),
            (EVENT, "event"),
            (HAND_CARDS, "hand_cards"),
            (PLAYER_COUNTER, "player_counter"),
            (TARGET_FROM, "target_from"),
        ];
        for (i, name) in named {
            assert_eq!(CTX_MORE[i], name);
        }
        assert!(SCALARS.len() <= 32 && CTX_MORE.len() <= 64, "a bit each");
    }
}
