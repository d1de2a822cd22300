//! Effects: what a building's script may make happen beyond its hook's own
//! answer. A hook that may return effects returns one (a map) or several (an
//! array of maps); a plain number still means "draw that many cards". Each
//! effect is checked when the hook returns, then applied in order before the
//! game goes on, recorded as an event naming the building, and moves cards
//! only from where they are to where they go.
//!
//! An effect that needs a player's decision (discard, give, tuck, keep, look,
//! choose) pends it; the effects after it wait until it is answered. The answer
//! to `choose` and `choose_cards` goes to the building's `on_choice` hook.

use std::sync::Arc;

use rhai::{Dynamic, Map};

use super::{COUNTER_CHANGED, DISCARDED, DREW, GOOD_PLACED, GOOD_REMOVED};
use super::{Chain, Decision, DiscardReason, Game, PickRules, Step, count, n_cards};
use crate::cards::CardIdx;
use crate::error::GameError;
use crate::hooks::{self, Answer, Ctx, EventFacts, Hook, Tag};
use crate::rng;
use crate::vocabulary::EFFECTS;

/// Which of its cards a player chooses from (`choose_cards`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickFrom {
    /// Hand cards.
    Hand,
    /// Own buildings.
    Buildings,
    /// Own buildings that carry a good.
    Goods,
    /// Production buildings without a good (where a good could go).
    Empty,
}

impl PickFrom {
    /// The name a script writes.
    pub fn name(self) -> &'static str {
        match self {
            PickFrom::Hand => "hand",
            PickFrom::Buildings => "buildings",
            PickFrom::Goods => "goods",
            PickFrom::Empty => "empty",
        }
    }
}

/// A zone a card moves between (`move: "<card>"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// A player's hand.
    Hand,
    /// A player's reserve: face up, out of the hand.
    Reserve,
    /// The public cards beside the roles.
    Public,
    /// A player's city, as a building.
    City,
    /// The discard pile.
    Discard,
}

impl Zone {
    /// The name a script writes.
    pub fn name(self) -> &'static str {
        match self {
            Zone::Hand => "hand",
            Zone::Reserve => "reserve",
            Zone::Public => "public",
            Zone::City => "city",
            Zone::Discard => "discard",
        }
    }

    fn from_name(name: &str, to: bool) -> Option<Zone> {
        Some(match name {
            "hand" => Zone::Hand,
            "reserve" => Zone::Reserve,
            "public" if !to => Zone::Public,
            "city" if to => Zone::City,
            "discard" if to => Zone::Discard,
            _ => return None,
        })
    }
}

/// What a grant adds to, for the rest of the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrantKind {
    /// More goods to sell.
    Sell,
    /// More goods to produce.
    Produce,
    /// A lower building cost.
    Discount,
}

/// One-off grants for the current phase, per player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// More goods to sell.
    pub sell: i32,
    /// More goods to produce.
    pub produce: i32,
    /// Cards less for each building.
    pub discount: i32,
}

/// One effect, checked, with seats and buildings resolved (the fields are
/// the keys of [`EFFECTS`]).
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A seat draws.
    Draw { seat: usize, n: i32 },
    /// A seat discards cards of its choice.
    Discard { seat: usize, n: i32 },
    /// A seat discards these cards of its hand (those it holds).
    DiscardCards { seat: usize, cards: Box<[CardIdx]> },
    /// A seat (the owner unless named) takes random hand cards from another seat.
    TakeRandom { from: usize, to: usize, n: i32 },
    /// A seat (the owner unless named) gives hand cards of its choice to another.
    Give { from: usize, to: usize, n: i32 },
    /// A seat gives these cards of its hand (those it holds) to another.
    GiveCards { from: usize, to: usize, cards: Box<[CardIdx]> },
    /// A good goes on a building (`seat`, `slot`).
    AddGood { seat: usize, slot: Option<usize> },
    /// A building leaves its city for the discard pile (`seat`, `slot`).
    RemoveBuilding { seat: usize, slot: Option<usize> },
    /// The good on a building is discarded.
    RemoveGood { seat: usize, slot: Option<usize> },
    /// The good on one building (`seat`, `slot`) goes onto another (`to`, `to_slot`).
    MoveGood { seat: usize, slot: Option<usize>, to: usize, to_slot: Option<usize> },
    /// One card goes from a zone of `seat`'s (or the public cards) to another.
    MoveCard { seat: usize, card: CardIdx, from: Zone, to: Zone },
    /// The owner may tuck hand cards under this building.
    Tuck { n: i32 },
    /// Cards turned face up, some kept (up to `keep`, or none, when `optional`).
    Reveal { n: i32, keep: i32, optional: bool },
    /// Cards looked at, some discarded, the rest put back.
    Look { n: i32, may_discard: i32 },
    /// This building's counter.
    Counter { seat: usize, slot: Option<usize>, add: i32, min: i32, max: i32 },
    /// A named counter of the owner.
    PlayerCounter { seat: usize, name: Arc<str>, add: i32, min: i32, max: i32 },
    /// A grant for the rest of the phase.
    Grant { kind: GrantKind, n: i32 },
    /// A choice among named options.
    Choose { seat: usize, options: Vec<u16>, tag: Tag },
    /// A choice of cards: `seat` chooses among `of`'s.
    ChooseCards {
        seat: usize,
        of: usize,
        from: PickFrom,
        n: i32,
        only: Option<Box<[CardIdx]>>,
        optional: bool,
        tag: Tag,
    },
}

impl Effect {
    /// The effect's name, as a script writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Effect::Draw { .. } => "draw",
            Effect::Discard { .. } | Effect::DiscardCards { .. } => "discard",
            Effect::TakeRandom { .. } => "take_random",
            Effect::Give { .. } | Effect::GiveCards { .. } => "give",
            Effect::AddGood { .. } => "add_good",
            Effect::RemoveBuilding { .. } => "remove_building",
            Effect::RemoveGood { .. } => "remove_good",
            Effect::MoveGood { .. } | Effect::MoveCard { .. } => "move",
            Effect::Tuck { .. } => "tuck",
            Effect::Reveal { .. } => "reveal",
            Effect::Look { .. } => "look",
            Effect::Counter { .. } => "counter",
            Effect::PlayerCounter { .. } => "player_counter",
            Effect::Grant { .. } => "grant",
            Effect::Choose { .. } => "choose",
            Effect::ChooseCards { .. } => "choose_cards",
        }
    }

    /// The seats whose hand, buildings, counters or answer the effect touches
    /// (an owner's effect on itself names its own seat).
    pub fn seats(&self) -> smallvec::SmallVec<[usize; 2]> {
        let mut out = smallvec::SmallVec::new();
        match *self {
            Effect::Draw { seat, .. }
            | Effect::Discard { seat, .. }
            | Effect::DiscardCards { seat, .. }
            | Effect::AddGood { seat, .. }
            | Effect::RemoveBuilding { seat, .. }
            | Effect::RemoveGood { seat, .. }
            | Effect::Counter { seat, .. }
            | Effect::PlayerCounter { seat, .. }
            | Effect::MoveCard { seat, .. }
            | Effect::Choose { seat, .. } => out.push(seat),
            Effect::TakeRandom { from, to, .. }
            | Effect::Give { from, to, .. }
            | Effect::GiveCards { from, to, .. } => out.extend([from, to]),
            Effect::MoveGood { seat, to, .. } => out.extend([seat, to]),
            Effect::ChooseCards { seat, of, .. } => out.extend([seat, of]),
            Effect::Tuck { .. } | Effect::Reveal { .. } | Effect::Look { .. } | Effect::Grant { .. } => {}
        }
        out.dedup();
        out
    }
}

/// An effect waiting its turn, with the building it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Queued {
    pub seat: usize,
    pub slot: usize,
    pub hook: Hook,
    pub effect: Effect,
    /// The chain of events it belongs to, for the loop guard.
    pub chain: Chain,
}

/// Where a hook was called: the owner's building, and the building just built.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Origin {
    pub seat: usize,
    pub slot: usize,
    pub target: Option<(usize, usize)>,
}

const MOST: i64 = 50;

/// The effect a map names: exactly one effect key, and only the keys that effect takes.
fn effect_name(map: &Map) -> Result<&str, String> {
    let names: Vec<&str> = map.keys().map(|k| k.as_str()).filter(|k| EFFECTS.iter().any(|(n, ..)| n == k)).collect();
    let name = match names.as_slice() {
        [one] => *one,
        [] => {
            let keys: Vec<&str> = map.keys().map(|k| k.as_str()).collect();
            let near = keys
                .iter()
                .find_map(|k| crate::error::closest(k, EFFECTS.iter().map(|(n, ..)| *n)))
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            return Err(format!("#{{ {} }} names no effect{near}", keys.join(", ")));
        }
        more => return Err(format!("one effect per map, this one names {}", more.join(" and "))),
    };
    let (_, allowed, _) = EFFECTS.iter().find(|(n, ..)| *n == name).expect("known effect");
    if let Some(k) = map.keys().find(|k| k.as_str() != name && !allowed.contains(&k.as_str())) {
        let keys = if allowed.is_empty() { "no other key".to_owned() } else { allowed.join(", ") };
        return Err(format!("`{name}` takes {keys}, not `{k}`"));
    }
    Ok(name)
}

/// A script that is no building's (the rules script) cannot name `"self"`,
/// nor run an effect that needs its own building (cards under it, a choice
/// answered to it, cards looked at by it, its counter).
fn no_building(map: &Map, name: &str) -> Result<(), String> {
    let needs = match name {
        "tuck" | "look" | "choose" | "choose_cards" => true,
        "counter" => !map.contains_key("on"),
        _ => false,
    };
    if needs {
        return Err(format!("`{name}` needs a building of its own; a rules script has none"));
    }
    let selfish = map.iter().any(|(_, v)| v.read_lock::<rhai::ImmutableString>().is_some_and(|s| s.as_str() == "self"));
    if selfish {
        return Err(
            "\"self\" names the building whose script runs; a rules script has none: name a building by id".into()
        );
    }
    Ok(())
}

fn int(map: &Map, key: &str, lo: i64, hi: i64, default: i64) -> Result<i32, String> {
    let Some(v) = map.get(key) else { return Ok(default as i32) };
    let n = v.as_int().map_err(|t| format!("`{key}` is a {t}, expected an integer"))?;
    if !(lo..=hi).contains(&i64::from(n)) {
        return Err(format!("`{key}: {n}` is outside {lo}..={hi}"));
    }
    Ok(n)
}

/// A choice's `tag`: a number or a string, carried to `on_choice` as `ctx.tag`.
fn tag_of(map: &Map) -> Result<Tag, String> {
    let Some(v) = map.get("tag") else { return Ok(Tag::None) };
    if let Ok(n) = v.as_int() {
        return Ok(Tag::Int(n));
    }
    match v.read_lock::<rhai::ImmutableString>() {
        Some(s) => Ok(Tag::Text(s.as_str().into())),
        None => Err(format!("`tag` is a {}, expected a number or a string (a seat, a card id)", v.type_name())),
    }
}

fn flag(map: &Map, key: &str) -> Result<bool, String> {
    let Some(v) = map.get(key) else { return Ok(false) };
    v.as_bool().map_err(|t| format!("`{key}` is a {t}, expected true or false"))
}

/// The text at `key` (shared with the map, not copied: effects are read at every move).
fn text(map: &Map, key: &str) -> Result<rhai::ImmutableString, String> {
    let v = map.get(key).unwrap_or(&Dynamic::UNIT);
    v.as_immutable_string_ref()
        .map(|s| s.clone())
        .map_err(|_| format!("`{key}` is a {}, expected a string", v.type_name()))
}

impl Game {
    /// Reads a hook's effects: a map is one, an array of maps several. A wrong
    /// map comes back with the error, so that the error can point at it.
    pub(crate) fn parse_effects(&self, value: Dynamic, at: Origin) -> Result<Vec<Effect>, (String, Option<Map>)> {
        if value.is_map() {
            let map = value.cast::<Map>();
            return match self.parse_effect(&map, at) {
                Ok(e) => Ok(vec![e]),
                Err(e) => Err((e, Some(map))),
            };
        }
        let type_name = value.type_name();
        let list = value.try_cast::<rhai::Array>().ok_or_else(|| {
            (format!("returned a {type_name}; expected a number, an effect map or an array of them"), None)
        })?;
        if list.len() > engine_script::MAX_EFFECTS {
            return Err((engine_script::too_many_effects(list.len()), None));
        }
        let mut effects = Vec::with_capacity(list.len());
        for (i, v) in list.into_iter().enumerate() {
            let type_name = v.type_name();
            let map = v
                .try_cast::<Map>()
                .ok_or_else(|| (format!("effect {} is a {type_name}, expected a map", i + 1), None))?;
            match self.parse_effect(&map, at) {
                Ok(e) => effects.push(e),
                Err(e) => return Err((format!("effect {}: {e}", i + 1), Some(map))),
            }
        }
        Ok(effects)
    }

    fn parse_effect(&self, map: &Map, at: Origin) -> Result<Effect, String> {
        let name = effect_name(map)?;
        if at.slot >= super::SCRIPT_SLOT {
            no_building(map, name)?;
        }
        let players = self.players.len() as i64;
        let seat_of = |key: &str, default: usize| match int(map, key, 0, players - 1, default as i64) {
            Ok(s) => Ok(s as usize),
            Err(e) if e.contains("is outside") => Err(format!(
                "{e}: not a seat (seats count from 0 to ctx.players - 1; the seat on the owner's left is \
                 (ctx.seat + 1) % ctx.players)"
            )),
            Err(e) => Err(e),
        };
        let owner = at.seat;
        // The seat at `key` (which must be given), and the seat at `mover` (the owner
        // unless given), which must differ: cards move between two hands.
        let between = |key: &str, mover: &str| -> Result<(usize, usize), String> {
            if !map.contains_key(key) {
                return Err(format!("`{name}` needs `{key}: seat`"));
            }
            let (s, m) = (seat_of(key, owner)?, seat_of(mover, owner)?);
            if s == m {
                let whose = if map.contains_key(mover) { format!("`{mover}: {m}`") } else { "the owner".to_owned() };
                return Err(format!("`{key}: {s}` is the same seat as {whose}: cards move between two hands"));
            }
            Ok((s, m))
        };
        let amount = |lo: i64| int(map, name, lo, MOST, 0);
        // The building named at `key`: "self", "target", or the first of an id of `seat` (the owner's).
        let building_at = |map: &Map, key: &str| -> Result<(usize, Option<usize>), String> {
            let which = text(map, key)?;
            let whose = seat_of("seat", owner)?;
            if map.contains_key("seat") && matches!(which.as_str(), "self" | "target") {
                return Err(format!(
                    "`seat` names whose building; \"{which}\" is one building already: leave `seat` out"
                ));
            }
            Ok(match which.as_str() {
                "self" => (owner, Some(at.slot)),
                "target" => match at.target {
                    Some((s, slot)) => (s, Some(slot)),
                    None => return Err("\"target\": this hook has no building just built".into()),
                },
                id => {
                    let card = self.rs.cards.lookup(id)?;
                    let city = &self.players[whose].city;
                    let free = |s: &&super::Slot| s.card == card && s.good.is_none();
                    let slot = match name {
                        "add_good" => city.iter().position(|s| free(&s)),
                        "remove_good" => city.iter().position(|s| s.card == card && s.good.is_some()),
                        _ => city.iter().position(|s| s.card == card),
                    };
                    (whose, slot)
                }
            })
        };
        let building = |map: &Map| building_at(map, name);
        // A building a good moves from (`good`: it has one) or to (it carries goods and has none).
        let good_end = |key: &str, seat_key: &str, good: bool| -> Result<(usize, Option<usize>), String> {
            let which = text(map, key)
                .map_err(|_| format!("`move: \"good\"` needs `{key}`: \"self\", \"target\" or a building id"))?;
            let whose = seat_of(seat_key, owner)?;
            Ok(match which.as_str() {
                "self" => (owner, Some(at.slot)),
                "target" => at
                    .target
                    .map(|(s, slot)| (s, Some(slot)))
                    .ok_or("\"target\": this hook has no building just built")?,
                id => {
                    let card = self.rs.cards.lookup(id)?;
                    let holds = self.rs.cards.get(card).holds_good;
                    let slot = self.players[whose].city.iter().position(|s| {
                        s.card == card && (if good { s.good.is_some() } else { holds && s.good.is_none() })
                    });
                    (whose, slot)
                }
            })
        };
        Ok(match name {
            "draw" => Effect::Draw { seat: seat_of("seat", owner)?, n: amount(0)? },
            "discard" => match self.card_list(map, name)? {
                Some(cards) => Effect::DiscardCards { seat: seat_of("seat", owner)?, cards },
                None => Effect::Discard { seat: seat_of("seat", owner)?, n: amount(0)? },
            },
            "take_random" => {
                let (from, to) = between("from", "to")?;
                Effect::TakeRandom { from, to, n: amount(0)? }
            }
            "give" => {
                let (to, from) = between("to", "from")?;
                match self.card_list(map, name)? {
                    Some(cards) => Effect::GiveCards { from, to, cards },
                    None => Effect::Give { from, to, n: amount(0)? },
                }
            }
            "add_good" => {
                let (seat, slot) = building(map)?;
                Effect::AddGood { seat, slot }
            }
            "remove_good" => {
                let (seat, slot) = building(map)?;
                Effect::RemoveGood { seat, slot }
            }
            "remove_building" => {
                let (seat, slot) = building(map)?;
                Effect::RemoveBuilding { seat, slot }
            }
            "move" if map.contains_key("from") || map.contains_key("to") => {
                let card = match map.get(name) {
                    Some(v) if v.is::<crate::hooks::Card>() => v.clone_cast::<crate::hooks::Card>().idx(),
                    _ => self.rs.cards.lookup(&text(map, name)?)?,
                };
                let zone = |key: &str, to: bool| -> Result<Zone, String> {
                    let z = text(map, key).map_err(|_| format!("`move: <card>` needs `{key}`: a zone"))?;
                    Zone::from_name(&z, to).ok_or_else(|| {
                        let zones = if to {
                            "\"hand\", \"reserve\", \"city\" or \"discard\""
                        } else {
                            "\"hand\", \"reserve\" or \"public\""
                        };
                        format!("`{key}: \"{z}\"`: a card moves {} {zones}", if to { "to" } else { "from" })
                    })
                };
                let (from, to) = (zone("from", false)?, zone("to", true)?);
                if from == to {
                    return Err(format!("`from` and `to` are both \"{}\": a move goes somewhere else", from.name()));
                }
                if let Some(k) =
                    ["from_building", "to_building", "from_seat", "to_seat"].iter().find(|k| map.contains_key(**k))
                {
                    return Err(format!(
                        "`{k}` is for `move: \"good\"`; a card's move names its zones `from`, `to` and `seat`"
                    ));
                }
                Effect::MoveCard { seat: seat_of("seat", owner)?, card, from, to }
            }
            "move" => {
                let what = text(map, name)?;
                if what != "good" {
                    return Err(format!(
                        "`move: \"{what}\"`: a card moves with `from` and `to` zones (#{{ move: \"{what}\", from: \"hand\", \
                         to: \"reserve\" }}); `move: \"good\"` moves a building's good onto another building"
                    ));
                }
                let (seat, slot) = good_end("from_building", "from_seat", true)?;
                let (to, to_slot) = good_end("to_building", "to_seat", false)?;
                Effect::MoveGood { seat, slot, to, to_slot }
            }
            "tuck" => Effect::Tuck { n: amount(0)? },
            "reveal" => {
                Effect::Reveal { n: amount(0)?, keep: int(map, "keep", 0, MOST, 0)?, optional: flag(map, "optional")? }
            }
            "look" => Effect::Look { n: amount(0)?, may_discard: int(map, "may_discard", 0, MOST, 0)? },
            "counter" => {
                let (seat, slot) = if map.contains_key("on") {
                    building_at(map, "on")?
                } else if map.contains_key("seat") {
                    return Err("`seat` names whose building: give the building too, `on: \"id\"`".into());
                } else {
                    (owner, Some(at.slot))
                };
                Effect::Counter {
                    seat,
                    slot,
                    add: int(map, name, -1000, 1000, 0)?,
                    min: int(map, "min", -1_000_000, 1_000_000, -1_000_000)?,
                    max: int(map, "max", -1_000_000, 1_000_000, 1_000_000)?,
                }
            }
            "player_counter" => {
                let counter = text(map, name)?;
                if counter.is_empty() || counter.len() > 40 {
                    return Err("a counter's name has 1 to 40 characters".into());
                }
                Effect::PlayerCounter {
                    seat: seat_of("seat", owner)?,
                    name: counter.as_str().into(),
                    add: int(map, "add", -1000, 1000, 1)?,
                    min: int(map, "min", -1_000_000, 1_000_000, -1_000_000)?,
                    max: int(map, "max", -1_000_000, 1_000_000, 1_000_000)?,
                }
            }
            "grant" => {
                let kind = match text(map, name)?.as_str() {
                    "sell" => GrantKind::Sell,
                    "produce" => GrantKind::Produce,
                    "discount" => GrantKind::Discount,
                    other => return Err(format!("cannot grant `{other}`; grants: sell, produce, discount")),
                };
                Effect::Grant { kind, n: int(map, "n", -MOST, MOST, 1)? }
            }
            "choose" => Effect::Choose {
                seat: seat_of("seat", owner)?,
                options: self.choose_options(map, name)?,
                tag: tag_of(map)?,
            },
            "choose_cards" => {
                let from = match map.get("from").map(|v| v.to_string()).as_deref() {
                    Some("hand") | None => PickFrom::Hand,
                    Some("buildings") => PickFrom::Buildings,
                    Some("goods") => PickFrom::Goods,
                    Some("empty") => PickFrom::Empty,
                    Some(other) => {
                        return Err(format!(
                            "`from: {other}`: choose from \"hand\", \"buildings\", \"goods\" or \"empty\""
                        ));
                    }
                };
                let seat = seat_of("seat", owner)?;
                let of = seat_of("of", seat)?;
                if from == PickFrom::Hand && of != seat {
                    return Err(format!(
                        "`of: {of}` with `from: \"hand\"`: a hand is secret; `of` chooses among another seat's \
                         \"buildings\", \"goods\" or \"empty\""
                    ));
                }
                let only = match map.get("only") {
                    None => None,
                    Some(_) => Some(self.card_list(map, "only")?.ok_or("`only` takes a list of card ids")?),
                };
                Effect::ChooseCards {
                    seat,
                    of,
                    from,
                    n: amount(0)?,
                    only,
                    optional: flag(map, "optional")?,
                    tag: tag_of(map)?,
                }
            }
            _ => unreachable!("every effect is parsed"),
        })
    }

    /// The value at `key` as card ids when it is a list (`#{ discard: ["statue"] }`), else `None`.
    fn card_list(&self, map: &Map, key: &str) -> Result<Option<Box<[CardIdx]>>, String> {
        let Some(list) = map.get(key).and_then(|v| v.read_lock::<rhai::Array>().map(|a| a.clone())) else {
            return Ok(None);
        };
        let mut cards = Vec::with_capacity(list.len());
        for v in list {
            let type_name = v.type_name();
            let card = if let Some(id) = v.read_lock::<rhai::ImmutableString>() {
                self.rs.cards.lookup(id.as_str())?
            } else if let Some(c) = v.read_lock::<crate::hooks::Card>() {
                c.idx()
            } else {
                return Err(format!("`{key}` lists a {type_name}; write card ids (\"statue\") or Cards (ctx.chosen)"));
            };
            cards.push(card);
        }
        Ok(Some(cards.into()))
    }

    /// The option names of a `choose` effect, as words of the card table.
    fn choose_options(&self, map: &Map, name: &str) -> Result<Vec<u16>, String> {
        self.rs.cards.words().options(map.get(name).cloned().unwrap_or(Dynamic::UNIT))
    }

    /// Runs an effect hook of one building: a number is drawn at once, effects join the queue.
    pub(crate) fn effect_hook(&mut self, hook: Hook, ctx: Ctx, at: Origin) -> Result<(), GameError> {
        let value = self.call(hook, ctx)?;
        self.take_effects(hook, value, at, false)
    }

    /// Applies a hook's result: a number draws at once; effects are queued
    /// (in front of the queue when `first`: the answer to a choice).
    pub(crate) fn take_effects(
        &mut self,
        hook: Hook,
        value: Dynamic,
        at: Origin,
        first: bool,
    ) -> Result<(), GameError> {
        let card = self.slot_card(at.seat, at.slot);
        // What this hook makes happen belongs to the chain running now; a loop names it.
        self.chain.cause = Some((hook, card));
        let bad =
            |g: &Game, e: String| -> GameError { g.rs.scripts.bad_return(hook as usize, card as usize, &e).into() };
        if value.is_unit() || value.is_int() {
            let n = hooks::as_int_in(value, hooks::HOOKS[hook as usize].range).map_err(|e| bad(self, e))?;
            if n > 0 {
                self.draw_from(at.seat, n, Some(card));
            }
            return Ok(());
        }
        let effects = self.parse_effects(value, at).map_err(|(e, map)| match map {
            Some(map) => self.rs.scripts.bad_map(hook as usize, card as usize, &map, &e).into(),
            None => bad(self, e),
        })?;
        let chain = self.chain;
        let queued = effects.into_iter().map(|effect| Queued { seat: at.seat, slot: at.slot, hook, effect, chain });
        if first {
            for q in queued.rev() {
                self.effects.push_front(q);
            }
        } else {
            self.effects.extend(queued);
        }
        Ok(())
    }

    /// True when a player an effect of `by` (a building of `owner`'s) would
    /// reach cancels it for all: one of its working buildings answers
    /// `#{ cancel: true }` to `on_targeted`, asked before anything happens.
    fn cancelled(&mut self, owner: usize, by: CardIdx, effect: &Effect) -> Result<bool, GameError> {
        for s in effect.seats() {
            if s == owner || !engine_script::has_hook(self.hook_mask[s], Hook::Targeted as usize) {
                continue;
            }
            let facts =
                EventFacts { effect: effect.name(), by: Some(by), seat: s, ..EventFacts::new("targeted", owner) };
            let told = self.rs.scripts.hook_may_read(Hook::Targeted as usize, hooks::CTX_EVENT);
            let before = std::mem::replace(&mut self.event_now, told.then(|| Arc::new(facts)));
            let mut answer = Ok(None);
            for slot in self.listeners(Hook::Targeted, s) {
                let mut ctx = self.ctx(s, slot);
                ctx.actor = owner;
                match self.call_map(Hook::Targeted, ctx, &["cancel"], |m| hooks::map_bool(m, "cancel")) {
                    Ok(false) => {}
                    Ok(true) => {
                        answer = Ok(Some(self.players[s].city[slot].card));
                        break;
                    }
                    Err(e) => {
                        answer = Err(e);
                        break;
                    }
                }
            }
            self.event_now = before;
            if let Some(shield) = answer? {
                let name = effect.name();
                self.event_from(s, shield, |g| {
                    format!("seat {s}: its {} cancels the {}'s `{name}` for it", g.name_of(shield), g.name_of(by))
                });
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Applies one queued effect; it may pend a decision.
    pub(crate) fn run_effect(&mut self, q: Queued) -> Result<(), GameError> {
        let Queued { seat, slot, hook, effect, chain } = q;
        let card = self.slot_card(seat, slot);
        self.chain = chain;
        // Nobody in play reacting before an effect (a moat) costs this one test.
        if engine_script::has_hook(self.hook_union, Hook::Targeted as usize) && self.cancelled(seat, card, &effect)? {
            return Ok(());
        }
        let needs_table = |g: &Game, what: &str| -> Result<(), GameError> {
            if g.limbo.is_empty() {
                return Ok(());
            }
            let why = format!("`{what}` cannot run while other cards lie face up waiting for a decision");
            Err(g.rs.scripts.bad_return(hook as usize, card as usize, &why).into())
        };
        match effect {
            Effect::Draw { seat: who, n } => {
                self.draw_from(who, n, Some(card));
            }
            Effect::Discard { seat: who, n } => {
                let left = (n.max(0) as usize).min(self.players[who].hand.len());
                if left > 0 {
                    self.event_from(who, card, |g| {
                        format!("seat {who}: {} makes it discard {}", g.name_of(card), n_cards(left as i64))
                    });
                    self.pending = Some(Decision::Discard { seat: who, left, reason: DiscardReason::Building(card) });
                }
            }
            Effect::DiscardCards { seat: who, cards } => {
                let gone = self.take_these(who, &cards);
                if !gone.is_empty() {
                    let n = gone.len() as i32;
                    self.secret_event(who, Some(card), |g| {
                        let why = g.name_of(card);
                        (
                            format!("seat {who} discards {} ({why})", g.ids(&gone)),
                            format!("seat {who} discards {} ({why})", n_cards(i64::from(n))),
                        )
                    });
                    self.discard.extend_from_slice(&gone);
                    let by = Some(card);
                    self.publish(DISCARDED, |_| EventFacts {
                        n,
                        why: "building",
                        by,
                        ..EventFacts::new("discarded", who)
                    });
                }
            }
            Effect::GiveCards { from, to, cards } => {
                let gone = self.take_these(from, &cards);
                if !gone.is_empty() {
                    let k = gone.len();
                    self.secret_event(from, Some(card), |g| {
                        let why = g.name_of(card);
                        (
                            format!("seat {from} gives {} to seat {to} ({why})", g.ids(&gone)),
                            format!("seat {from} gives {} to seat {to} ({why})", n_cards(k as i64)),
                        )
                    });
                    self.players[to].hand.extend_from_slice(&gone);
                    self.players[to].gained += k as u32;
                }
            }
            Effect::TakeRandom { from, to, n } => self.take_random(to, card, from, n),
            Effect::Give { from, to, n } => {
                let left = (n.max(0) as usize).min(self.players[from].hand.len());
                if left > 0 {
                    self.pending = Some(Decision::Give { seat: from, to, left, cause: card });
                }
            }
            Effect::AddGood { seat: who, slot: at } => {
                self.add_good(seat, card, who, at);
                // A good an action bought arrives after the sales it could have counted in: not for sale this phase.
                if let Some(at) = at
                    && self.rs.action_of(card).is_some()
                {
                    self.unsellable.push((who, at));
                }
            }
            Effect::RemoveGood { seat: who, slot: at } => self.remove_good(seat, card, who, at),
            Effect::MoveGood { seat: who, slot: Some(at), to, to_slot: Some(to_at) } => {
                self.move_good(seat, card, (who, at), (to, to_at));
            }
            Effect::MoveGood { .. } => {}
            Effect::MoveCard { seat: who, card: moved, from, to } => self.move_card(card, who, moved, from, to),
            Effect::RemoveBuilding { seat: who, slot: Some(at) } => self.remove_building(seat, card, who, at),
            Effect::RemoveBuilding { slot: None, .. } => {}
            Effect::Tuck { n } => {
                let left = (n.max(0) as usize).min(self.players[seat].hand.len());
                if left > 0 {
                    self.pending = Some(Decision::Tuck { seat, slot, left, done: 0 });
                }
            }
            Effect::Reveal { n, keep, optional } => {
                needs_table(self, "reveal")?;
                self.reveal_cards(seat, card, n, keep, optional);
            }
            Effect::Look { n, may_discard } => {
                needs_table(self, "look")?;
                self.look_at(seat, slot, card, n, may_discard);
            }
            Effect::Counter { slot: None, .. } => {}
            Effect::Counter { seat: who, slot: Some(at), add, min, max } => {
                let on = self.players[who].city[at].card;
                let c = &mut self.players[who].city[at].counter;
                let new = c.saturating_add(add).clamp(min, max.max(min));
                if new != *c {
                    let from = std::mem::replace(c, new);
                    self.event_from(seat, card, |g| format!("seat {who}: {}'s counter is {new}", g.name_of(on)));
                    self.publish(COUNTER_CHANGED, |_| EventFacts {
                        building: Some(on),
                        from,
                        to: new,
                        by: Some(card),
                        ..EventFacts::new("counter_changed", who)
                    });
                }
            }
            Effect::PlayerCounter { seat: who, name, add, min, max } => {
                self.player_counter(seat, card, who, name, add, min, max)
            }
            Effect::Grant { kind, n } => self.grant(seat, card, kind, n),
            Effect::Choose { seat: who, options, tag } => {
                let (owner, slot) = (seat as u16, slot as u16);
                self.pending =
                    Some(Decision::Choose { seat: who, owner, slot, options: options.into(), tag: Box::new(tag) });
            }
            Effect::ChooseCards { seat: who, of, from, n, only, optional, tag } => {
                let d = Decision::Pick {
                    seat: who,
                    of: of as u16,
                    owner: seat as u16,
                    slot: slot as u16,
                    from,
                    left: n.max(0) as usize,
                    picked: Box::default(),
                    rules: Box::new(PickRules { only, optional, tag }),
                };
                if n <= 0 || self.pick_candidates(&d).is_empty() {
                    let Decision::Pick { rules, .. } = d else { unreachable!() };
                    return self.answer_choice(who, seat, slot, Answer::Cards(Arc::default()), rules.tag);
                }
                self.pending = Some(d);
            }
        }
        Ok(())
    }

    /// Takes out of `seat`'s hand each of `cards` it holds (a card listed twice, twice if held twice).
    fn take_these(&mut self, seat: usize, cards: &[CardIdx]) -> Vec<CardIdx> {
        let hand = &mut self.players[seat].hand;
        let mut gone = Vec::new();
        for &c in cards {
            if let Some(i) = hand.iter().position(|&x| x == c) {
                gone.push(hand.swap_remove(i));
            }
        }
        gone
    }

    /// `take_random`: up to `n` cards at random from `from`'s hand into `seat`'s.
    fn take_random(&mut self, seat: usize, card: CardIdx, from: usize, n: i32) {
        let mut taken = Vec::new();
        for _ in 0..n {
            let hand = &mut self.players[from].hand;
            if hand.is_empty() {
                break;
            }
            let i = rng::below(&mut self.rng, hand.len());
            taken.push(hand.swap_remove(i));
        }
        if !taken.is_empty() {
            let k = taken.len();
            self.players[seat].hand.extend_from_slice(&taken);
            self.players[seat].gained += k as u32;
            self.secret_event(seat, Some(card), |g| {
                let public =
                    format!("seat {seat}: {} takes {} at random from seat {from}", g.name_of(card), n_cards(k as i64));
                (format!("{public}: {}", g.ids(&taken)), public)
            });
        }
    }

    /// `add_good`: a good from the draw pile on the empty building `at` of `who`.
    fn add_good(&mut self, seat: usize, card: CardIdx, who: usize, at: Option<usize>) {
        if let Some(at) = at
            && self.players[who].city[at].good.is_none()
            && let Some(good) = self.draw()
        {
            self.players[who].city[at].good = Some(good);
            let on = self.players[who].city[at].card;
            self.event_from(seat, card, |g| {
                format!("seat {who}: {} puts a good on {}", g.name_of(card), g.rs.cards.id(on))
            });
            self.publish(GOOD_PLACED, |_| EventFacts {
                building: Some(on),
                why: "building",
                by: Some(card),
                ..EventFacts::new("good_placed", who)
            });
        }
    }

    /// `remove_good`: the good on the building `at` of `who` to the discard pile.
    fn remove_good(&mut self, seat: usize, card: CardIdx, who: usize, at: Option<usize>) {
        if let Some(at) = at
            && let Some(good) = self.players[who].city[at].good.take()
        {
            self.discard.push(good);
            let on = self.players[who].city[at].card;
            self.event_from(seat, card, |g| {
                format!("seat {who}: {} discards the good on {}", g.name_of(card), g.rs.cards.id(on))
            });
            self.publish(GOOD_REMOVED, |_| EventFacts {
                building: Some(on),
                why: "building",
                by: Some(card),
                ..EventFacts::new("good_removed", who)
            });
        }
    }

    /// `move: "good"`: the good on building `from` goes onto the empty building
    /// `to` (which carries goods): face down all along, so the card is told to nobody.
    fn move_good(&mut self, seat: usize, card: CardIdx, from: (usize, usize), to: (usize, usize)) {
        if from == to
            || self.players[to.0].city[to.1].good.is_some()
            || !self.rs.cards.get(self.players[to.0].city[to.1].card).holds_good
        {
            return;
        }
        let Some(good) = self.players[from.0].city[from.1].good.take() else { return };
        self.players[to.0].city[to.1].good = Some(good);
        let (on, onto) = (self.players[from.0].city[from.1].card, self.players[to.0].city[to.1].card);
        self.event_from(seat, card, |g| {
            let whose = |s: usize| if s == seat { String::new() } else { format!("seat {s}'s ") };
            format!(
                "seat {seat}: {} moves the good on {}{} onto {}{}",
                g.name_of(card),
                whose(from.0),
                g.rs.cards.id(on),
                whose(to.0),
                g.rs.cards.id(onto)
            )
        });
        self.publish(GOOD_REMOVED, |_| EventFacts {
            building: Some(on),
            why: "moved",
            by: Some(card),
            ..EventFacts::new("good_removed", from.0)
        });
        self.publish(GOOD_PLACED, |_| EventFacts {
            building: Some(onto),
            why: "moved",
            by: Some(card),
            ..EventFacts::new("good_placed", to.0)
        });
    }

    /// `move: <card>`: one copy of `moved` goes from `who`'s zone `from` (or
    /// the public cards) to its zone `to`; nothing happens when it is not
    /// there, or when a city would own a unique city building twice.
    fn move_card(&mut self, card: CardIdx, who: usize, moved: CardIdx, from: Zone, to: Zone) {
        let rs = Arc::clone(&self.rs);
        if to == Zone::City
            && rs.rules.unique_city_buildings
            && rs.cards.get(moved).kind == crate::cards::Kind::City
            && self.players[who].owns(moved)
        {
            return;
        }
        let pile = match from {
            Zone::Hand => &mut self.players[who].hand,
            Zone::Reserve => &mut self.players[who].reserve,
            Zone::Public => &mut self.public,
            Zone::City | Zone::Discard => return,
        };
        let Some(i) = pile.iter().position(|&c| c == moved) else { return };
        // The hand keeps its order for the rest (a player reads it); the others are sets.
        let c = if from == Zone::Hand { pile.remove(i) } else { pile.swap_remove(i) };
        match to {
            Zone::Hand => {
                self.players[who].hand.push(c);
                self.players[who].gained += 1;
            }
            Zone::Reserve => self.players[who].reserve.push(c),
            Zone::Discard => self.discard.push(c),
            Zone::City => {
                let mut slot = super::Slot::new(c, true);
                slot.built_round = self.round;
                self.players[who].city.push(slot);
                self.refresh_seat_mask(who);
            }
            Zone::Public => self.public.push(c),
        }
        // A card from the hand to the discard pile stays secret; every other move is face up.
        // The text is made only while events are logged (a bot's copies play such moves by the hundred).
        let text = move |g: &Game| {
            let whose =
                if from == Zone::Public { "the public cards".to_owned() } else { format!("its {}", from.name()) };
            let to = match to {
                Zone::Discard => "the discard pile".to_owned(),
                z => format!("its {}", z.name()),
            };
            format!("seat {who}: {} moves {} from {whose} to {to}", g.name_of(card), g.rs.cards.id(moved))
        };
        if from == Zone::Hand && to == Zone::Discard {
            self.secret_event(who, Some(card), |g| {
                (text(g), format!("seat {who}: {} discards a hand card", g.name_of(card)))
            });
            let by = Some(card);
            self.publish(DISCARDED, |_| EventFacts { n: 1, why: "building", by, ..EventFacts::new("discarded", who) });
        } else {
            self.event_from(who, card, text);
        }
    }

    /// `remove_building`: building `at` of `who` leaves the city for the discard
    /// pile with what it holds. Work still queued that names a building of that
    /// city by its place is moved along (the removed building's own is dropped).
    fn remove_building(&mut self, seat: usize, card: CardIdx, who: usize, at: usize) {
        let gone = self.players[who].city.remove(at);
        let good = gone.good.is_some();
        self.discard.push(gone.card);
        self.discard.extend(gone.good);
        self.discard.extend_from_slice(&gone.under);
        self.discard.extend(gone.covered_cards());
        self.refresh_hook_masks();
        let moved = |slot: usize| match slot.cmp(&at) {
            std::cmp::Ordering::Less => Some(slot),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(slot - 1),
        };
        // A good an action bought stays unsellable where its building moved to.
        if !self.unsellable.is_empty() {
            self.unsellable.retain_mut(|(s, i)| match (*s == who).then(|| moved(*i)) {
                None => true,
                Some(Some(m)) => {
                    *i = m;
                    true
                }
                Some(None) => false,
            });
        }
        self.effects.retain_mut(|q| {
            if let Effect::AddGood { seat: s, slot }
            | Effect::RemoveGood { seat: s, slot }
            | Effect::RemoveBuilding { seat: s, slot }
            | Effect::Counter { seat: s, slot, .. } = &mut q.effect
                && *s == who
            {
                *slot = slot.and_then(moved);
            }
            if let Effect::MoveGood { seat, slot, to, to_slot } = &mut q.effect {
                if *seat == who {
                    *slot = slot.and_then(moved);
                }
                if *to == who {
                    *to_slot = to_slot.and_then(moved);
                }
            }
            if q.seat != who || q.slot >= super::SCRIPT_SLOT {
                return true;
            }
            match moved(q.slot) {
                Some(s) => {
                    q.slot = s;
                    true
                }
                None => false,
            }
        });
        self.steps.retain_mut(|step| match step {
            Step::Offer { seat: s, slot } | Step::Reveal { seat: s, slot } if *s == who => match moved(*slot) {
                Some(m) => {
                    *slot = m;
                    true
                }
                None => false,
            },
            _ => true,
        });
        self.event_from(seat, card, |g| {
            format!("seat {who}: {} removes its {}", g.name_of(card), g.rs.cards.id(gone.card))
        });
        if good {
            self.publish(GOOD_REMOVED, |_| EventFacts {
                building: Some(gone.card),
                why: "building",
                by: Some(card),
                ..EventFacts::new("good_removed", who)
            });
        }
    }

    /// `reveal`: `n` cards face up, of which `seat` keeps `keep`.
    fn reveal_cards(&mut self, seat: usize, card: CardIdx, n: i32, keep: i32, optional: bool) {
        let drawn = self.draw_to_limbo(n);
        if drawn == 0 {
            return;
        }
        self.event_from(seat, card, |g| {
            format!("seat {seat}: {} reveals {}: {}", g.name_of(card), n_cards(drawn), g.ids(&g.limbo))
        });
        let keep = keep.max(0) as usize;
        if keep == 0 {
            self.discard.append(&mut self.limbo);
        } else if optional {
            // Up to `keep` of them, or none: the owner keeps one at a time or stops.
            self.pending = Some(Decision::Keep { seat, left: keep, may_stop: true, by: Some(card) });
        } else if keep >= self.limbo.len() {
            self.event_from(seat, card, |g| format!("seat {seat} keeps {}", g.ids(&g.limbo)));
            let n = self.limbo.len() as i32;
            self.players[seat].gained += n as u32;
            self.players[seat].hand.append(&mut self.limbo);
            self.publish(DREW, |_| EventFacts { n, why: "kept", by: Some(card), ..EventFacts::new("drew", seat) });
        } else {
            self.pending = Some(Decision::Keep { seat, left: keep, may_stop: false, by: Some(card) });
        }
    }

    /// `look`: `seat` looks at the top `n` cards and may discard some; the rest go back.
    fn look_at(&mut self, seat: usize, slot: usize, card: CardIdx, n: i32, may_discard: i32) {
        let drawn = self.draw_to_limbo(n);
        if drawn == 0 {
            return;
        }
        self.secret_event(seat, Some(card), |g| {
            let public = format!("seat {seat}: {} looks at the top {}", g.name_of(card), n_cards(drawn));
            (format!("{public}: {}", g.ids(&g.limbo)), public)
        });
        if may_discard > 0 {
            self.pending = Some(Decision::Look { seat, slot, left: may_discard as usize });
        } else {
            self.put_back();
        }
    }

    /// `player_counter`: `seat`'s named counter changed by `add`, kept within `min` and `max`.
    #[allow(clippy::too_many_arguments)]
    fn player_counter(&mut self, seat: usize, card: CardIdx, who: usize, name: Arc<str>, add: i32, min: i32, max: i32) {
        let counters = Arc::make_mut(&mut self.players[who].counters);
        let i = match counters.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                counters.push((Arc::clone(&name), 0));
                counters.len() - 1
            }
        };
        let new = counters[i].1.saturating_add(add).clamp(min, max.max(min));
        let from = std::mem::replace(&mut counters[i].1, new);
        self.event_from(seat, card, |g| format!("seat {who}: {} sets its counter {name} to {new}", g.name_of(card)));
        if from != new {
            self.publish(COUNTER_CHANGED, |_| EventFacts {
                counter: Some(name),
                from,
                to: new,
                by: Some(card),
                ..EventFacts::new("counter_changed", who)
            });
        }
    }

    /// `grant`: a one-off allowance for `seat` in the current phase.
    fn grant(&mut self, seat: usize, card: CardIdx, kind: GrantKind, n: i32) {
        let grants = &mut self.players[seat].grants;
        let what = match kind {
            GrantKind::Sell => {
                grants.sell += n;
                format!("sell {} this phase", count(n, "more good"))
            }
            GrantKind::Produce => {
                grants.produce += n;
                format!("produce {} this phase", count(n, "more good"))
            }
            GrantKind::Discount => {
                grants.discount += n;
                format!("pay {} less for buildings this phase", n_cards(n))
            }
        };
        self.event_from(seat, card, |g| format!("seat {seat}: {} lets it {what}", g.name_of(card)));
    }

    /// Cards looked at go back on top of the draw pile in the order they were drawn.
    pub(crate) fn put_back(&mut self) {
        while let Some(c) = self.limbo.pop() {
            self.deck.push(c);
        }
    }

    /// The cards a `Pick` decision may still take (one entry per copy).
    pub(crate) fn pick_candidates(&self, d: &Decision) -> Vec<CardIdx> {
        let Decision::Pick { of, from, picked, rules, .. } = d else { return Vec::new() };
        let p = &self.players[usize::from(*of)];
        let cards = &self.rs.cards;
        let mut all: Vec<CardIdx> = match from {
            PickFrom::Hand => p.hand.clone(),
            PickFrom::Buildings => p.city.iter().map(|s| s.card).collect(),
            PickFrom::Goods => p.city.iter().filter(|s| s.good.is_some()).map(|s| s.card).collect(),
            PickFrom::Empty => p
                .city
                .iter()
                .filter(|s| s.good.is_none() && cards.get(s.card).kind == crate::cards::Kind::Production)
                .map(|s| s.card)
                .collect(),
        };
        if let Some(only) = &rules.only {
            all.retain(|c| only.contains(c));
        }
        for c in picked {
            if let Some(i) = all.iter().position(|x| x == c) {
                all.swap_remove(i);
            }
        }
        all
    }

    /// Tells the building that asked what `chooser` answered (`on_choice`); its effects go first.
    pub(crate) fn answer_choice(
        &mut self,
        chooser: usize,
        owner: usize,
        slot: usize,
        answer: Answer,
        tag: Tag,
    ) -> Result<(), GameError> {
        let card = self.players[owner].city[slot].card;
        if !self.rs.scripts.listens(Hook::Choice as usize, card as usize) {
            return Ok(());
        }
        let mut facts = self.ctx(owner, slot);
        facts.actor = chooser;
        let mut ctx = self.script_ctx(Hook::Choice, facts, None);
        ctx.choice = Some(answer);
        ctx.tag = tag;
        let value =
            self.rs.scripts.call(Hook::Choice as usize, card as usize, Dynamic::from(ctx))?.unwrap_or(Dynamic::UNIT);
        self.take_effects(Hook::Choice, value, Origin { seat: owner, slot, target: None }, true)
    }
}
