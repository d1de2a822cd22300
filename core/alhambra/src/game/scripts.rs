//! The cards' scripts in play: which cards hear an event (a building type's
//! hooks run for each card of the type a player owns; a currency's for each
//! card of it taken or paid), the `ctx` they see, the effects they return,
//! and the modifiers (take limit, prices, currencies that pay, exact payment,
//! points) worked out once per decision.
//!
//! Every entry point first asks whether any card listens: a ruleset whose
//! cards have no script pays one bit test per event and nothing per decision.

use std::cell::OnceCell;
use std::sync::Arc;

use engine_script::fast::Lent;
use engine_script::results::{as_bool, as_int_in};
use engine_script::scope::hearing_order;
use rhai::{Array, Dynamic, ImmutableString, Map};

use super::{Decision, Draw, Game, list_or_nothing, n_cards};
use crate::error::GameError;
use crate::hooks::{CTX_MORE, Hook, Scoped};
use crate::ruleset::{BuildingIdx, Money, PayMask};
use smallvec::SmallVec;

/// The modifiers of the seat to decide, worked out before its legal actions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Mods {
    /// Several money cards taken together may total this much.
    pub take_limit: u32,
    /// Per display slot: the price the seat pays.
    pub prices: Vec<u32>,
    /// Per display slot: a bit per currency that may pay it.
    pub pays: Vec<PayMask>,
}

/// A card that hears a hook: its script's owner, the seat owning the card, the card as `ctx.card`, and `ctx.owned`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Listener {
    pub(super) owner: usize,
    pub(super) seat: usize,
    pub(super) card: Heard,
    pub(super) owned: i32,
    /// The building type whose script it is (`None`: a currency's).
    pub(super) kind: Option<usize>,
    /// The word of the arguments an action's `on_action` hears: what it read
    /// of them is remembered by the word, not the maps (written at every action).
    pub(super) args: Option<u16>,
}

/// The cards that hear one hook, most often none or one.
type Listeners = SmallVec<[Listener; 4]>;

/// The card that hears a hook, made into `ctx.card` only when a script runs
/// (a literal answer needs none).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Heard {
    /// A building: which, the turn it was bought, its number among its type's, whether it was bought exactly.
    Building(BuildingIdx, u32, usize, bool),
    /// A money card about to be taken or paid.
    Money(Money),
    /// The ruleset's rules script, which every player hears (`ctx.card` is `()`).
    Rules,
    /// A deck card just drawn.
    Deck(u8),
    /// An action of the ruleset's own (its index in `Ruleset::actions`; `ctx.card` is `()`).
    Action(u8),
}

impl Heard {
    /// A number that tells apart every `ctx.card` a hook reading `keys` of
    /// it (a bit each of [`crate::hooks::OWNED_SHAPE`]) can tell apart: of a
    /// building card, only the parts read (a watchtower's `ctx.card.nth`
    /// alone: every tower of a rank whenever bought); any other card whole.
    pub(super) fn code_by(self, keys: u32) -> u128 {
        use super::reads::bits::{O_BOUGHT, O_EXACT, O_ID, O_NTH, O_PRICE, O_TYPE};
        match self {
            Heard::Building(b, bought, nth, exact) => {
                let read = |bits: u32, part: u128| if keys & bits != 0 { part } else { 0 };
                read(O_TYPE | O_ID | O_PRICE, u128::from(b) << 96)
                    | read(O_EXACT, u128::from(exact) << 95)
                    | read(O_BOUGHT, u128::from(bought) << 64)
                    | read(O_NTH, nth as u128)
            }
            _ => self.code(),
        }
    }

    /// A number that tells apart every `ctx.card` this card can be.
    pub(super) fn code(self) -> u128 {
        match self {
            Heard::Building(b, bought, nth, exact) => {
                (u128::from(b) << 96) | (u128::from(exact) << 95) | (u128::from(bought) << 64) | nth as u128
            }
            Heard::Money(m) => (1 << 127) | (u128::from(m.currency) << 64) | u128::from(m.value),
            Heard::Rules => 1 << 126,
            Heard::Deck(d) => (1 << 125) | u128::from(d),
            Heard::Action(a) => (1 << 124) | u128::from(a),
        }
    }
}

/// A counter's bounds when an effect gives none.
const COUNTER_BOUND: i32 = 1_000_000;

pub(super) fn s(text: &str) -> Dynamic {
    Dynamic::from(ImmutableString::from(text))
}

pub(super) fn int(n: impl TryInto<i32>) -> Dynamic {
    Dynamic::from_int(n.try_into().unwrap_or(i32::MAX))
}

/// The effects an effect map may name, a bit each ([`effect_words`]).
mod effect {
    pub const CHOOSE: u32 = 1;
    pub const CHOOSE_CARDS: u32 = 1 << 1;
    pub const DISCARD_MONEY: u32 = 1 << 2;
    pub const MOVE: u32 = 1 << 3;
    pub const DRAW_MONEY: u32 = 1 << 4;
    pub const EXTRA_ACTION: u32 = 1 << 5;
    pub const SCORE: u32 = 1 << 6;
    pub const COUNTER: u32 = 1 << 7;
    pub const EXTRA_TAKE: u32 = 1 << 8;
    pub const TAKE_MONEY: u32 = 1 << 9;
}

/// The effects `map` names (see [`effect`]); other keys count for nothing here.
fn effect_words(map: &Map) -> u32 {
    map.keys().fold(0, |bits, k| {
        bits | match k.as_str() {
            "choose" => effect::CHOOSE,
            "choose_cards" => effect::CHOOSE_CARDS,
            "discard_money" => effect::DISCARD_MONEY,
            "move" => effect::MOVE,
            "draw_money" => effect::DRAW_MONEY,
            "extra_action" => effect::EXTRA_ACTION,
            "score" => effect::SCORE,
            "counter" => effect::COUNTER,
            "extra_take" => effect::EXTRA_TAKE,
            "take_money" => effect::TAKE_MONEY,
            _ => 0,
        }
    })
}

/// A card's `ctx` keys, in key order (their places: [`place`]).
pub(super) const CTX_KEYS: [&str; 19] = [
    "action",
    "actor",
    "args",
    "card",
    "choice",
    "chosen",
    "counter",
    "event",
    "hand",
    "limit",
    "owned",
    "player_counters",
    "players",
    "scoring",
    "seat",
    "table",
    "tag",
    "target",
    "turn",
];

/// The places of a card's `ctx` members in [`Game::card_ctx`]'s key order
/// (and of `player_counter`, the method, after them): what its `ctx`, its
/// deferred members and its read row ([`Game::read_row`]) are made by.
pub(super) mod place {
    pub const ACTION: usize = 0;
    pub const ACTOR: usize = 1;
    pub const ARGS: usize = 2;
    pub const CARD: usize = 3;
    pub const CHOSEN: usize = 5;
    pub const COUNTER: usize = 6;
    pub const EVENT: usize = 7;
    pub const HAND: usize = 8;
    pub const OWNED: usize = 10;
    pub const PLAYER_COUNTERS: usize = 11;
    pub const PLAYERS: usize = 12;
    pub const SEAT: usize = 14;
    pub const TABLE: usize = 15;
    pub const TURN: usize = 18;
    pub const PLAYER_COUNTER: usize = 19;
}

/// The index in [`CTX_MORE`] of each member of a card's `ctx`, in the key
/// order [`Game::card_ctx`] lays them out, then `player_counter` (the method).
pub(super) const CARD_CTX_MEMBERS: [usize; 20] =
    [21, 4, 22, 7, 18, 19, 15, 9, 13, 11, 8, 16, 5, 12, 3, 14, 20, 10, 6, 17];

impl Game {
    /// A building card as scripts see it: type, id, price, the turn it was bought, its rank among its owner's of the type.
    pub(crate) fn building_map(&self, b: BuildingIdx, bought: Option<(u32, bool)>, nth: Option<usize>) -> Dynamic {
        if let (Some((t, exact)), Some(n)) = (bought, nth) {
            let mut m = self.rs.held_maps[b as usize].clone();
            let mut set = |key: &str, v: Dynamic| *m.get_mut(key).expect("a held building's keys") = v;
            set("bought", int(t));
            set("exact", Dynamic::from_bool(exact));
            set("nth", int(n));
            return Dynamic::from_map(m);
        }
        let mut m = self.rs.building_maps[b as usize].clone();
        if let Some((t, exact)) = bought {
            m.insert("bought".into(), int(t));
            m.insert("exact".into(), Dynamic::from_bool(exact));
        }
        if let Some(n) = nth {
            m.insert("nth".into(), int(n));
        }
        Dynamic::from_map(m)
    }

    /// The building `b` in display slot `slot` (from 0) as scripts see it, with
    /// only the keys of [`crate::hooks::DISPLAYED_SHAPE`] in `keys` (every key: the whole map).
    fn displayed_map(&self, b: BuildingIdx, slot: usize, keys: u32) -> Map {
        use super::reads::bits::*;
        let rs = &self.rs;
        if keys & DISPLAYED_ALL == DISPLAYED_ALL {
            return rs.display_map(b, slot);
        }
        let mut m = Map::new();
        let card = rs.building(b);
        if keys & D_TYPE != 0 {
            m.insert("type".into(), s(&rs.types[usize::from(card.kind)].id));
        }
        if keys & D_ID != 0 {
            m.insert("id".into(), s(&card.id));
        }
        if keys & D_PRICE != 0 {
            m.insert("price".into(), int(card.price));
        }
        if keys & D_SLOT != 0 {
            m.insert("slot".into(), int(slot + 1));
        }
        if keys & D_CURRENCY != 0 {
            m.insert("currency".into(), s(&rs.currencies[usize::from(rs.yard[slot])].id));
        }
        engine_script::Shape::debug_holds(crate::hooks::DISPLAYED_SHAPE, &m, false);
        m
    }

    /// A money card as scripts see it.
    pub(crate) fn money_map(&self, m: Money) -> Dynamic {
        let k = self.rs.kind_of(m);
        // Made at load: a card is its kind's (a money card of the ruleset's is the value its kind says).
        if self.rs.money[k].card.value == m.value {
            return Dynamic::from_map(self.rs.money_maps[k].clone());
        }
        let mut out = Map::new();
        out.insert("id".into(), s(&self.rs.money_id(m)));
        out.insert("currency".into(), s(&self.rs.kind(m).currency_id));
        out.insert("value".into(), int(m.value));
        Dynamic::from_map(out)
    }

    /// A building a collector owns as scripts see it (bought at turn `t`,
    /// `exact`ly paid, the `nth` of its type), with only the keys of
    /// [`crate::hooks::OWNED_SHAPE`] in `keys` (every key: [`Game::building_map`]).
    fn owned_map(&self, b: BuildingIdx, (t, exact, nth): (u32, bool, usize), keys: u32) -> Dynamic {
        use super::reads::bits::*;
        if keys & OWNED_ALL == OWNED_ALL {
            return self.building_map(b, Some((t, exact)), Some(nth));
        }
        let (rs, mut out) = (&self.rs, Map::new());
        let card = rs.building(b);
        if keys & O_TYPE != 0 {
            out.insert("type".into(), s(&rs.types[usize::from(card.kind)].id));
        }
        if keys & O_ID != 0 {
            out.insert("id".into(), s(&card.id));
        }
        if keys & O_PRICE != 0 {
            out.insert("price".into(), int(card.price));
        }
        if keys & O_BOUGHT != 0 {
            out.insert("bought".into(), int(t));
        }
        if keys & O_EXACT != 0 {
            out.insert("exact".into(), Dynamic::from_bool(exact));
        }
        if keys & O_NTH != 0 {
            out.insert("nth".into(), int(nth));
        }
        Dynamic::from_map(out)
    }

    /// A money card in a collector's hand as scripts see it, with only the
    /// keys of [`crate::hooks::HAND_SHAPE`] in `keys` (every key: [`Game::money_map`]).
    fn hand_card_map(&self, m: Money, keys: u32) -> Dynamic {
        use super::reads::bits::{H_CURRENCY, H_ID, H_VALUE};
        if keys & (H_ID | H_CURRENCY | H_VALUE) == H_ID | H_CURRENCY | H_VALUE {
            return self.money_map(m);
        }
        let mut out = Map::new();
        if keys & H_ID != 0 {
            out.insert("id".into(), s(&self.rs.money_id(m)));
        }
        if keys & H_CURRENCY != 0 {
            out.insert("currency".into(), s(&self.rs.kind(m).currency_id));
        }
        if keys & H_VALUE != 0 {
            out.insert("value".into(), int(m.value));
        }
        Dynamic::from_map(out)
    }

    /// Money card ids, for events.
    pub(crate) fn money_ids(&self, cards: &[Money]) -> Dynamic {
        Dynamic::from_array(cards.iter().map(|&m| s(&self.rs.money_id(m))).collect())
    }

    /// The cards of `seat` whose script defines `hook` (its buildings in the
    /// order bought), then, for the actor's own money events, the cards of
    /// `money` whose currency's script does, then the rules script, which
    /// every seat hears as its own.
    fn listeners(&self, hook: Hook, seat: usize, money: &[Money]) -> Listeners {
        let [out] = self.listeners_of([(hook, money)], seat);
        out
    }

    /// [`Game::listeners`] of several hooks (each with its money cards) in one
    /// walk over the seat's buildings: the modifiers ask three at every decision.
    fn listeners_of<const N: usize>(&self, asked: [(Hook, &[Money]); N], seat: usize) -> [Listeners; N] {
        let hooks = &self.rs.hooks;
        let p = &self.players[seat];
        // No allocation, and no walk over the buildings when no type listens.
        let mut out: [Listeners; N] = std::array::from_fn(|_| Listeners::new());
        let listening = asked.map(|(hook, _)| hooks.listening_types(hook));
        let any = listening.iter().fold(0, |m, b| m | b);
        if any != 0 {
            let mut seen = [0usize; crate::ruleset::MAX_TYPES];
            for (i, &b) in p.buildings.iter().enumerate() {
                let t = self.rs.building(b).kind as usize;
                let nth = seen[t];
                seen[t] += 1;
                if any & 1 << t == 0 {
                    continue;
                }
                for (k, types) in listening.iter().enumerate() {
                    if types & 1 << t != 0 {
                        out[k].push(self.building_listener(seat, i, nth));
                    }
                }
            }
        }
        for (k, &(hook, money)) in asked.iter().enumerate() {
            for &m in money {
                let c = self.rs.kind(m).script;
                if hooks.currency_listens(hook, c) {
                    let owned = p.hand().iter().filter(|&&h| self.rs.kind(h).script == c).count();
                    out[k].push(Listener {
                        owner: hooks.currency_owner(c),
                        seat,
                        card: Heard::Money(m),
                        owned: owned as i32,
                        kind: None,
                        args: None,
                    });
                }
            }
            if hooks.rules_listen(hook) {
                out[k].push(Listener {
                    owner: hooks.rules_owner(),
                    seat,
                    card: Heard::Rules,
                    owned: 0,
                    kind: None,
                    args: None,
                });
            }
        }
        out
    }

    /// The listener of `seat`'s `i`-th building, the `nth` of its type it bought.
    fn building_listener(&self, seat: usize, i: usize, nth: usize) -> Listener {
        let p = &self.players[seat];
        let b = p.buildings[i];
        let t = self.rs.building(b).kind as usize;
        Listener {
            owner: self.rs.hooks.type_owner(t),
            seat,
            card: Heard::Building(b, p.history[i].turn, nth, p.history[i].exact),
            owned: i32::from(p.counts[t]),
            kind: Some(t),
            args: None,
        }
    }

    /// `l`'s answer to `hook`: a literal one as it stands (no `ctx` is made:
    /// a bazaar's take limit is asked at every decision), else the script's,
    /// given its `ctx` (see [`Game::card_ctx`]).
    #[inline(never)] // out of the base game's paths, where no card listens (its budget)
    pub(super) fn call_listener(
        &self,
        hook: Hook,
        l: &Listener,
        actor: usize,
        event: &Dynamic,
        extra: &[(&str, Dynamic)],
    ) -> Result<Dynamic, GameError> {
        self.call_hook(hook, l, actor, event, extra, true, None)
    }

    /// [`Game::call_listener`] for a hook whose answer its caller remembers
    /// by a key of its own (no row of what it read is written).
    pub(super) fn call_unrowed(
        &self,
        hook: Hook,
        l: &Listener,
        actor: usize,
        extra: &[(&str, Dynamic)],
    ) -> Result<Dynamic, GameError> {
        self.call_hook(hook, l, actor, &Dynamic::UNIT, extra, false, None)
    }

    /// A literal answer as it stands, else the script's; with `rowed`, from
    /// memory when the hook was asked before about what it reads now (a
    /// `legal` reading the display, at every decision): see `reads.rs`.
    /// `table`, when given, is `ctx.table` kept by the caller across runs
    /// that see the same table (`l`'s, one decision's slots).
    #[allow(clippy::too_many_arguments)] // one private function behind the three ways a hook is asked
    fn call_hook(
        &self,
        hook: Hook,
        l: &Listener,
        actor: usize,
        event: &Dynamic,
        extra: &[(&str, Dynamic)],
        rowed: bool,
        table: Option<&OnceCell<Dynamic>>,
    ) -> Result<Dynamic, GameError> {
        let host = self.rs.hooks.script_host();
        if let Some(v) = host.constant(hook as usize, l.owner) {
            return Ok(v.clone());
        }
        // Written only while the hook's rows pay (the host asks).
        let row = || if rowed { self.read_row(hook, l, actor, event, extra) } else { None };
        let value = if host.reads_members_only(hook as usize, l.owner) {
            // The costly members (the table, the hand…) are made only if the hook reads them.
            let ctx = |lazy: bool| Dynamic::from_map(self.card_ctx(hook, l, actor, event, extra, lazy));
            let make = |m: u8| self.ctx_member(hook, l, event, usize::from(m));
            // The event every listener hears is read where it lies, not copied for each.
            let mut held = [None; place::EVENT + 1];
            held[place::EVENT] = Some(event);
            let kept = table.map(|t| [(place::TABLE as u8, t)]);
            let lent = Lent { held: &held, kept: kept.as_ref().map_or(&[], |k| k.as_slice()) };
            host.call_read_lazy(hook as usize, l.owner, row, &ctx, (&make, lent))?
        } else {
            let ctx = || Dynamic::from_map(self.card_ctx(hook, l, actor, event, extra, false));
            host.call_read(hook as usize, l.owner, row, ctx)?
        };
        Ok(value.unwrap_or(Dynamic::UNIT))
    }

    /// [`Game::call_listener`] for a hook about the building on offer whose
    /// `ctx.target` `target` makes (`about` tells it apart): remembered by
    /// card and building when the script reads nothing else of `ctx` (a
    /// garden guild's price is asked at every decision, of the same cards).
    /// `table` is `l`'s `ctx.table`, made once for all the slots it is asked
    /// about in one decision (a tax by every seat's buildings read it at each).
    fn call_about(
        &self,
        hook: Hook,
        l: &Listener,
        seat: usize,
        (about, target): (u64, &dyn Fn() -> Dynamic),
        table: &OnceCell<Dynamic>,
    ) -> Result<Dynamic, GameError> {
        let hooks = &self.rs.hooks;
        // A literal answer needs no `ctx.target` (a market tax's price, at every slot of every decision).
        if let Some(v) = hooks.script_host().constant(hook as usize, l.owner) {
            return Ok(v.clone());
        }
        if !hooks.reads_card_and_target_only(hook, l.owner) {
            return self.call_hook(hook, l, seat, &Dynamic::UNIT, &[("target", target())], true, Some(table));
        }
        // Remembered here by card and building: no row of what it read is needed.
        // A script that never reads the building (a trade route's `on_pays`) is
        // remembered by its card alone: the display changes at every purchase.
        let about = if hooks.reads_target(hook, l.owner) { about } else { 0 };
        let ask = || self.call_unrowed(hook, l, seat, &[("target", target())]);
        let card = l.card.code_by(hooks.card_keys(hook, l.owner));
        hooks.about((hook as u8, l.owner as u16, card, about), ask)
    }

    /// The `ctx` a card's hook sees: the members its script may read (`()`
    /// where a member means nothing to the hook; a missing one reads as
    /// `()` too). With `lazy`, the costly ones are markers the fast path makes
    /// when read ([`Game::ctx_member`]).
    fn card_ctx(
        &self,
        hook: Hook,
        l: &Listener,
        actor: usize,
        event: &Dynamic,
        extra: &[(&str, Dynamic)],
        lazy: bool,
    ) -> Map {
        let hooks = &self.rs.hooks;
        let p = &self.players[l.seat];
        // A member the script never reads is `()`: it cannot tell, and making
        // the member (a card's map, the counters, the table) cost more than the
        // call (an action's `allowed` is asked for every pair of cards).
        let read = |m: usize| hooks.may_read(hook, l.owner, CARD_CTX_MEMBERS[m]);
        // A costly member of a lazy `ctx` is made when the hook reads it (see `ctx_member`).
        let member = |m: usize| match (read(m), lazy) {
            (false, _) => Dynamic::UNIT,
            (true, true) => Dynamic::from(engine_script::fast::Deferred(m as u8)),
            (true, false) => self.ctx_member(hook, l, event, m),
        };
        // Only the members the script may read, each made only then: a missing
        // key reads as `()`, as an unread member would, and a map of 19 entries
        // made and dropped at every call was most of what a `legal` that reads
        // two of them cost. In key order: the map is laid out in one pass.
        const KEYS: [&str; 19] = CTX_KEYS;
        debug_assert!(KEYS.is_sorted());
        debug_assert!(KEYS.iter().zip(CARD_CTX_MEMBERS).all(|(k, m)| CTX_MORE[m] == *k));
        debug_assert!(extra.iter().all(|(k, _)| KEYS.contains(k)), "an extra member is one of ctx's");
        let value = |m: usize| -> Dynamic {
            if let Some((_, v)) = extra.iter().find(|(k, _)| *k == KEYS[m]) {
                return v.clone();
            }
            match m {
                place::ACTION => match l.card {
                    Heard::Action(a) => s(&self.rs.actions[a as usize].id),
                    _ => Dynamic::UNIT,
                },
                place::ACTOR => int(actor),
                // An action's arguments, where the listener holds their word: made when read.
                place::ARGS if l.args.is_some() => member(m),
                place::ARGS | place::CHOSEN => Dynamic::from_array(Array::new()),
                place::CARD | place::EVENT | place::HAND | place::TABLE => member(m),
                place::COUNTER => l.kind.map_or(Dynamic::UNIT, |t| int(p.counters[t])),
                place::OWNED => int(l.owned),
                place::PLAYER_COUNTERS => self.ctx_member(hook, l, event, m),
                place::PLAYERS => int(self.players.len()),
                place::SEAT => int(l.seat),
                place::TURN => int(self.turns),
                // `choice`, `limit`, `scoring`, `tag`, `target`: given by `extra` where they mean something.
                _ => Dynamic::UNIT,
            }
        };
        // `ctx.player_counter("name")` reads the counters' map too.
        let kept = |m: usize| read(m) || (m == place::PLAYER_COUNTERS && read(place::PLAYER_COUNTER));
        (0..KEYS.len()).filter(|&m| kept(m)).map(|m| (KEYS[m].into(), value(m))).collect()
    }

    /// Member `m` (of [`CARD_CTX_MEMBERS`]) of the `ctx` [`Game::card_ctx`]
    /// makes for `l`'s `hook`: the card, the event, the hand, the counters or
    /// the table (`()` for any other).
    fn ctx_member(&self, hook: Hook, l: &Listener, event: &Dynamic, m: usize) -> Dynamic {
        let hooks = &self.rs.hooks;
        let p = &self.players[l.seat];
        match m {
            place::CARD => match l.card {
                Heard::Building(b, bought, nth, exact) => {
                    self.owned_map(b, (bought, exact, nth), hooks.card_keys(hook, l.owner))
                }
                Heard::Money(m) => self.money_map(m),
                Heard::Rules | Heard::Action(_) => Dynamic::UNIT,
                Heard::Deck(d) => {
                    let c = &self.rs.deck_cards[d as usize];
                    Dynamic::from_map(payload([("id", s(&c.id)), ("name", s(&c.name))]))
                }
            },
            place::EVENT => event.clone(),
            place::ARGS => match (l.card, l.args) {
                (Heard::Action(d), Some(w)) => {
                    let texts = crate::actions::Act { def: d, args: crate::actions::WordId::of(w) }.arg_texts(&self.rs);
                    self.args_value(usize::from(d), &texts)
                }
                _ => Dynamic::from_array(Array::new()),
            },
            place::HAND => match hooks.counts_hand_only(hook, l.owner) {
                // Counted only: its cards cannot matter, and making them was most of a hand tax's turn.
                true => Dynamic::from_array(vec![Dynamic::UNIT; p.hand().len()]),
                false => Dynamic::from_array(p.hand().iter().map(|&c| self.money_map(c)).collect()),
            },
            place::PLAYER_COUNTERS => {
                Dynamic::from_map(p.player_counters.iter().map(|(k, &v)| (k.as_str().into(), int(v))).collect())
            }
            place::TABLE => Dynamic::from_map(self.table_map(&hooks.table_reads(hook, l.owner, l.seat))),
            _ => Dynamic::UNIT,
        }
    }

    /// The public table: every collector's buildings (with the turn bought)
    /// and counts by type, the number of money cards each holds (their values
    /// are secret), the displays, the piles, the scorings done, whose turn,
    /// and the ruleset's `[rules]`.
    /// Only the parts `reads` names are made: the keys of
    /// [`crate::hooks::TABLE_SHAPE`] it holds (a bit each), of each collector
    /// those of [`crate::hooks::COLLECTOR_SHAPE`], of each displayed building
    /// those of [`crate::hooks::DISPLAYED_SHAPE`]: a script that reads
    /// `ctx.table.currencies` pays for no seat, one that reads
    /// `ctx.table.seats[s].reserve` for no seat's buildings, one that asks
    /// which display slots are full for no building. With `own`, only that
    /// seat is made (the others are `()`: see [`crate::hooks::Hooks::reads_own_seat_only`]).
    pub(crate) fn table_map(&self, reads: &crate::hooks::TableReads) -> Map {
        use super::reads::bits::*;
        let rs = &self.rs;
        let (keys, collector_keys, own) = (reads.keys, reads.collector, reads.own);
        let want = |bit: u32| keys & bit != 0;
        let held = |bit: u32| collector_keys & bit != 0;
        // A list only counted: as many `()` (a grand vizier's `seat.buildings.len()`).
        let counted =
            |bit: u32, n: usize| (reads.counted & bit != 0).then(|| Dynamic::from_array(vec![Dynamic::UNIT; n]));
        let collector = |p: &super::Player, seat: Option<usize>, score: i32| {
            let mut m = Map::new();
            if held(SEAT) {
                m.insert("seat".into(), seat.map_or(Dynamic::UNIT, int));
            }
            if let Some(only) = held(BUILDINGS).then(|| counted(BUILDINGS, p.buildings.len())).flatten() {
                m.insert("buildings".into(), only);
            } else if held(BUILDINGS) {
                let mut seen = [0usize; crate::ruleset::MAX_TYPES];
                let buildings: Array = p
                    .buildings
                    .iter()
                    .zip(&p.history)
                    .map(|(&b, &super::player::Held { turn: t, exact })| {
                        let k = rs.building(b).kind as usize;
                        seen[k] += 1;
                        self.owned_map(b, (t, exact, seen[k] - 1), reads.owned)
                    })
                    .collect();
                m.insert("buildings".into(), Dynamic::from_array(buildings));
            }
            if held(COUNTS) {
                let counts: Map =
                    rs.types.iter().enumerate().map(|(t, ty)| (ty.id.as_str().into(), int(p.counts[t]))).collect();
                m.insert("counts".into(), Dynamic::from_map(counts));
            }
            if held(MONEY) {
                m.insert("money".into(), int(p.hand().len()));
            }
            if held(HAND) {
                // Hands are secret until the game ends: the leftover buildings go by what each holds.
                let hand = if self.ending && seat.is_some() {
                    counted(HAND, p.hand().len()).unwrap_or_else(|| {
                        Dynamic::from_array(p.hand().iter().map(|&c| self.hand_card_map(c, reads.hand)).collect())
                    })
                } else {
                    Dynamic::UNIT
                };
                m.insert("hand".into(), hand);
            }
            if held(SCORE) {
                m.insert("score".into(), int(score));
            }
            if held(RESERVE) {
                let reserve = seat.map_or(&[][..], |s| self.reserve(s));
                let reserve = counted(RESERVE, reserve.len()).unwrap_or_else(|| {
                    Dynamic::from_array(reserve.iter().map(|&b| self.building_map(b, None, None)).collect())
                });
                m.insert("reserve".into(), reserve);
            }
            engine_script::Shape::debug_holds(crate::hooks::COLLECTOR_SHAPE, &m, collector_keys == u32::MAX);
            Dynamic::from_map(m)
        };
        let mut m = Map::new();
        if want(SEATS) {
            let seats: Array = self
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| match own {
                    Some(s) if s != i => Dynamic::UNIT,
                    _ => collector(p, Some(i), self.earned[i].total),
                })
                .collect();
            m.insert("seats".into(), Dynamic::from_array(seats));
        }
        if want(NEUTRAL) {
            // Only a game with the neutral collector keeps its points.
            let neutral = |n| collector(n, None, self.earned[self.players.len()].total);
            m.insert("neutral".into(), self.neutral.as_ref().map_or(Dynamic::UNIT, neutral));
        }
        if want(MONEY_DISPLAY) {
            m.insert("money_display".into(), self.money_ids(&self.money_display));
        }
        if want(BUILDING_DISPLAY) {
            let display: Array = self
                .building_display
                .iter()
                .enumerate()
                .map(|(slot, b)| {
                    b.map_or(Dynamic::UNIT, |b| Dynamic::from_map(self.displayed_map(b, slot, reads.displayed)))
                })
                .collect();
            m.insert("building_display".into(), Dynamic::from_array(display));
        }
        if want(DECK) {
            m.insert("deck".into(), int(self.deck.len()));
        }
        if want(BUILDING_DECK) {
            m.insert("building_deck".into(), int(self.building_deck.len()));
        }
        if want(DISCARD) {
            m.insert("discard".into(), self.money_ids(&self.discard));
        }
        if want(SCORED) {
            let scored: Array = self.scored.iter().map(|&k| s(&rs.scorings[k as usize].name)).collect();
            m.insert("scored".into(), Dynamic::from_array(scored));
        }
        if want(SCORED_AT) {
            let scored_at: Array = self
                .scored
                .iter()
                .zip(&self.scored_turns)
                .map(|(&k, &turn)| {
                    Dynamic::from_map(payload([("name", s(&rs.scorings[k as usize].name)), ("turn", int(turn))]))
                })
                .collect();
            m.insert("scored_at".into(), Dynamic::from_array(scored_at));
        }
        if want(TURN) {
            m.insert("turn".into(), int(self.turns));
        }
        if want(TO_MOVE) {
            // Between turns (a refill): the seat whose turn just ended.
            let to_move = self.pending.map(|d| d.seat()).or(self.refilling_for);
            m.insert("to_move".into(), to_move.map_or(Dynamic::UNIT, int));
        }
        if want(START_PLAYER) {
            m.insert("start_player".into(), int(self.start_player));
        }
        if want(TYPES) {
            m.insert("types".into(), Dynamic::from_array(rs.types.iter().map(|t| s(&t.id)).collect()));
        }
        if want(CURRENCIES) {
            m.insert("currencies".into(), Dynamic::from_array(rs.currencies.iter().map(|c| s(&c.id)).collect()));
        }
        if want(RULES) {
            m.insert("rules".into(), Dynamic::from_map((*rs.rules_map).clone()));
        }
        engine_script::Shape::debug_holds(crate::hooks::TABLE_SHAPE, &m, keys == u32::MAX);
        m
    }

    /// An event heard by the actor's cards (`own`, then `any`) and every other
    /// player's from the actor's left (`other`, then `any`); `money` are the
    /// money cards it concerns (their currencies' scripts hear the actor's own
    /// hook). `event` is worked out only when some card listens.
    #[inline]
    pub(crate) fn event_hooks(
        &mut self,
        ev: Scoped,
        actor: usize,
        money: &[Money],
        event: impl FnOnce(&Game, u64) -> Map,
    ) -> Result<(), GameError> {
        // The base game's cards have no script: one test, and the rest stays out of line.
        if self.rs.hooks.listened() == 0 || !self.rs.hooks.any_listens(ev.hooks()) || self.over {
            return Ok(());
        }
        let mut event = Some(event);
        self.told_event_hooks(ev, actor, money, &mut |g, keys| event.take().map(|make| make(g, keys)))
    }

    // Out of line and not generic: the base game's paths stay as small as they were (its budget).
    #[inline(never)]
    fn told_event_hooks(
        &mut self,
        ev: Scoped,
        actor: usize,
        money: &[Money],
        event: &mut dyn FnMut(&Game, u64) -> Option<Map>,
    ) -> Result<(), GameError> {
        // Where only money cards listen (a thief's `on_taken`), nothing is asked
        // unless a card concerned has a script for the event: every take is one.
        let hooks = &self.rs.hooks;
        let cards_listen = ev.hooks().any(|h| hooks.rules_listen(h) || hooks.types_listen(h));
        let money_listens = || {
            money.iter().any(|&m| ev.heard_by(actor, actor).any(|h| hooks.currency_listens(h, self.rs.kind(m).script)))
        };
        if !cards_listen && !money_listens() {
            return Ok(());
        }
        // The rules script hears an event of the table once, as the seat to move: it is one rule, not one per player.
        let table = ev.own.is_none() && ev.other.is_none();
        // The facts are made for the first card that hears them, before any card's
        // effects: a customs house hears others' purchases, and its owner's own are most.
        // None reads them (a watchtower's `on_bought` reads only its card): `()`.
        let read = ev.hooks().any(|h| hooks.some_may_read(h, CARD_CTX_MEMBERS[place::EVENT]));
        let mut facts: Option<Dynamic> = (!read).then_some(Dynamic::UNIT);
        for seat in hearing_order(actor, self.players.len()) {
            for hook in ev.heard_by(seat, actor) {
                let mine: &[Money] = if seat == actor { money } else { &[] };
                // Nothing of this seat's can hear it (a hand tax's rules script hears a turn's
                // end once, as the actor's): its buildings are not walked.
                let hooks = &self.rs.hooks;
                let rules = hooks.rules_listen(hook) && !(table && seat != actor);
                if !rules && mine.is_empty() && !hooks.types_listen(hook) {
                    continue;
                }
                for l in self.listeners(hook, seat, mine) {
                    if table && seat != actor && matches!(l.card, Heard::Rules) {
                        continue;
                    }
                    if facts.is_none() {
                        // Of the facts, only the keys some listener reads.
                        let keys = self.rs.hooks.event_keys(ev.hooks());
                        facts = Some(Dynamic::from_map(event(self, keys).expect("the facts are made once")));
                    }
                    let told = facts.as_ref().expect("made above");
                    let hooks = &self.rs.hooks;
                    let value = if hooks.reads_card_and_target_only(hook, l.owner) {
                        // Reads of `ctx` only its card (a watchtower's `ctx.card.nth`, at every
                        // purchase): remembered by the card, no row of the rest written.
                        let card = l.card.code_by(hooks.card_keys(hook, l.owner));
                        let ask = || self.call_hook(hook, &l, actor, told, &[], false, None);
                        hooks.about((hook as u8, l.owner as u16, card, 0), ask)?
                    } else {
                        self.call_listener(hook, &l, actor, told, &[])?
                    };
                    self.apply_effects(hook, &l, value)?;
                }
            }
        }
        Ok(())
    }

    /// The effects a card's event hook returned: `()`, a map or a list of maps.
    pub(super) fn apply_effects(&mut self, hook: Hook, l: &Listener, value: Dynamic) -> Result<(), GameError> {
        if value.is_unit() {
            return Ok(());
        }
        let rs = Arc::clone(&self.rs);
        let bad = |what: String| rs.hooks.bad_card_return(hook, l.owner, &what);
        let maps: Vec<Map> = if value.is_map() {
            vec![value.cast::<Map>()]
        } else if value.is_array() {
            let list = value.cast::<Array>();
            if list.len() > engine_script::MAX_EFFECTS {
                return Err(bad(engine_script::too_many_effects(list.len())));
            }
            let mut out = Vec::with_capacity(list.len());
            for v in list {
                let t = v.type_name();
                out.push(
                    v.try_cast::<Map>()
                        .ok_or_else(|| bad(format!("returned a list holding a {t}; each effect is a map")))?,
                );
            }
            out
        } else {
            return Err(bad(format!("returned a {}, expected () or effects", value.type_name())));
        };
        self.apply_maps(hook, l, maps)
    }

    /// Applies effect maps in order; from a choice on, the rest wait for its answer.
    pub(super) fn apply_maps(&mut self, hook: Hook, l: &Listener, maps: Vec<Map>) -> Result<(), GameError> {
        self.vacated.clear();
        let rs = Arc::clone(&self.rs);
        let bad = |what: String| rs.hooks.bad_card_return(hook, l.owner, &what);
        let n = self.players.len();
        // A log line a card caused starts with that card's id, as a building's does in San Juan.
        let by: std::borrow::Cow<str> = match l.card {
            Heard::Building(b, ..) => rs.building(b).id.as_str().into(),
            Heard::Money(m) => rs.money_str(m).into(),
            Heard::Rules => "rules".into(),
            Heard::Action(a) => rs.actions[a as usize].id.as_str().into(),
            Heard::Deck(d) => rs.deck_cards[d as usize].id.as_str().into(),
        };
        let mut maps = maps.into_iter();
        while let Some(map) = maps.next() {
            if self.asked() {
                let mut rest = vec![map];
                rest.extend(maps);
                self.fresh.push(super::asks::Work::Effects { hook, by: *l, maps: rest });
                return Ok(());
            }
            let seat_of = |key: &str, default: usize| -> Result<usize, GameError> {
                match map.get(key) {
                    None => Ok(default),
                    Some(v) => as_int_in(v.clone(), Some((0, n as i64 - 1)))
                        .map(|s| s as usize)
                        .map_err(|e| bad(format!("key `{key}` {e} (a seat, 0 to {})", n - 1))),
                }
            };
            let int_of = |key: &str, lo: i64, hi: i64| -> Result<i32, GameError> {
                as_int_in(map[key].clone(), Some((lo, hi))).map_err(|e| bad(format!("`{key}` {e}")))
            };
            // A counter's `min` and `max` (when not given: -1000000 and 1000000).
            let bounds = |map: &Map| -> Result<(i32, i32), GameError> {
                let mut out = [-COUNTER_BOUND, COUNTER_BOUND];
                for (i, key) in ["min", "max"].into_iter().enumerate() {
                    if let Some(v) = map.get(key) {
                        out[i] = as_int_in(v.clone(), Some((-i64::from(COUNTER_BOUND), i64::from(COUNTER_BOUND))))
                            .map_err(|e| bad(format!("`{key}` {e}")))?;
                    }
                }
                Ok((out[0], out[1]))
            };
            // The effect it names, found in one pass over its keys (a counter's map
            // was looked up for six other effects first, at every purchase).
            let has = effect_words(&map);
            if has & (effect::CHOOSE | effect::CHOOSE_CARDS | effect::DISCARD_MONEY) != 0 {
                let ask = self.ask_of(l, &map).map_err(bad)?;
                self.ask(ask)?;
            } else if has & effect::MOVE != 0 {
                self.move_card(l, &map, &by).map_err(bad)?;
            } else if has & effect::DRAW_MONEY != 0 {
                let k = int_of("draw_money", 0, 10)? as usize;
                let seat = seat_of("seat", l.seat)?;
                self.draw_money(seat, k, &by)?;
            } else if has & effect::EXTRA_ACTION != 0 {
                let k = int_of("extra_action", 0, 3)?;
                self.extra_actions = self.extra_actions.saturating_add(k as u8);
                self.event(None, |_| format!("{by}: the player to move gets {k} extra action(s)"));
            } else if has & effect::SCORE != 0 {
                let k = int_of("score", -100, 100)?;
                let seat = seat_of("seat", l.seat)?;
                Arc::make_mut(&mut self.earned)[seat].add("bonus", k);
                self.event(Some(seat), |_| format!("{by}: seat {seat} scores {k}"));
            } else if has & effect::COUNTER != 0 {
                let Some(t) = l.kind else {
                    return Err(bad("`counter`: only a building type's script has a counter".into()));
                };
                let add = int_of("counter", -1000, 1000)?;
                let (min, max) = bounds(&map)?;
                let c = &mut self.players[l.seat].counters[t];
                *c = c.saturating_add(add).clamp(min, max.max(min));
                let (to, ty) = (*c, &rs.types[t].id);
                let seat = l.seat;
                self.event(Some(seat), |_| format!("{by}: seat {seat}'s {ty} counter is {to}"));
            } else if let Some(name) = map.get("player_counter") {
                let name = name
                    .clone()
                    .into_immutable_string()
                    .map_err(|t| bad(format!("`player_counter` is a {t}; write the counter's name")))?;
                if name.is_empty() || name.len() > 40 {
                    return Err(bad("`player_counter`: a counter's name has 1 to 40 characters".into()));
                }
                let add = if map.contains_key("add") { int_of("add", -1000, 1000)? } else { 1 };
                let (min, max) = bounds(&map)?;
                let seat = l.seat;
                let counters = &mut self.players[seat].player_counters;
                // The name is copied only for a counter met the first time.
                if !counters.contains_key(name.as_str()) {
                    counters.insert(name.to_string(), 0);
                }
                let c = counters.get_mut(name.as_str()).expect("inserted above");
                *c = c.saturating_add(add).clamp(min, max.max(min));
                let to = *c;
                self.event(Some(seat), |_| format!("{by}: seat {seat}'s counter {name} is {to}"));
            } else if has & effect::EXTRA_TAKE != 0 {
                let k = int_of("extra_take", 0, 5)? as u8;
                let any = match map.get("ignore_limit") {
                    None => false,
                    Some(v) => v.as_bool().map_err(|t| bad(format!("`ignore_limit` is a {t}; write true or false")))?,
                };
                // Only while money is being taken: the seat taking it may take k more cards.
                if matches!(self.pending, Some(Decision::Take { .. })) {
                    self.extra_takes = self.extra_takes.saturating_add(k);
                    self.extra_any_value |= any;
                    let of = if any { "of any value" } else { "each within the limit" };
                    self.event(None, |_| {
                        format!("{by}: the seat taking money may take {k} more card(s) past the limit, {of}")
                    });
                } else {
                    self.event(None, |_| format!("{by}: no money is being taken: `extra_take` does nothing"));
                }
            } else if has & effect::TAKE_MONEY != 0 {
                let k = int_of("take_money", 0, 20)? as usize;
                if !map.contains_key("from") {
                    return Err(bad("`take_money` needs `from`: the seat whose hand the cards leave".into()));
                }
                let from = seat_of("from", l.seat)?;
                let to = seat_of("to", l.seat)?;
                self.move_money(k, from, to, &by);
            } else if let Some(what) = map.get("move_building") {
                let what = what
                    .clone()
                    .into_immutable_string()
                    .map_err(|t| bad(format!("`move_building` is a {t}; write a type or building id")))?;
                let from = seat_of("from", l.seat)?;
                let to = match map.get("to") {
                    None => return Err(bad("`move_building` needs `to`: a seat, \"display\" or \"neutral\"".into())),
                    Some(v) if v.is_int() => Some(seat_of("to", l.seat)?),
                    Some(v) => match v.clone().into_immutable_string().as_deref() {
                        Ok("display") => None,
                        Ok("neutral") if self.neutral.is_some() => Some(n),
                        Ok("neutral") => {
                            return Err(bad("`to: \"neutral\"`: only two players have a neutral collector".into()));
                        }
                        _ => return Err(bad(format!("`to` is {v}; write a seat, \"display\" or \"neutral\""))),
                    },
                };
                self.move_building(&what, from, to, &by).map_err(bad)?;
            } else {
                let keys: Vec<&str> = map.keys().map(|k| k.as_str()).collect();
                return Err(bad(format!("returned a map naming no effect ({})", keys.join(", "))));
            }
        }
        Ok(())
    }

    /// `k` money cards picked at random from `from`'s hand go to `to`'s (fewer
    /// when the hand holds fewer). Hands are secret: the log names the cards
    /// to the two seats only, and the others read how many moved.
    fn move_money(&mut self, k: usize, from: usize, to: usize, by: &str) {
        let k = k.min(self.players[from].hand().len());
        let mut moved = Vec::with_capacity(k);
        for _ in 0..k {
            let i = crate::rng::below(&mut self.rng, self.players[from].hand().len());
            moved.push(self.players[from].lose_money_at(i));
        }
        for &m in &moved {
            self.players[to].gain_money(m);
        }
        let public = || format!("{by}: seat {to} takes {} from seat {from}'s hand", n_cards(k));
        self.private_event(Some(to), &[from, to], public, |g| {
            let ids: Vec<String> = moved.iter().map(|&m| g.rs.money_id(m)).collect();
            format!("{by}: seat {to} takes {} from seat {from}'s hand: {}", n_cards(k), list_or_nothing(&ids))
        });
    }

    /// `seat` draws `k` money cards from the money deck (the discard pile
    /// shuffled in when it runs out; a scoring card met is scored at once).
    fn draw_money(&mut self, seat: usize, k: usize, by: &str) -> Result<(), GameError> {
        let mut drawn = Vec::new();
        while drawn.len() < k {
            if !self.deck_ready() {
                break;
            }
            match self.deck.pop() {
                Some(Draw::Money(m)) => {
                    self.players[seat].gain_money(m);
                    drawn.push(m);
                }
                Some(Draw::Scoring(sc)) => {
                    self.score_round(sc as usize)?;
                    let name = self.rs.scorings[sc as usize].name.clone();
                    self.neutral_draws(&name, self.turns)?;
                }
                Some(Draw::Deck(d)) => self.deck_card_drawn(d)?,
                None => break,
            }
        }
        let public = || format!("{by}: seat {seat} draws {} from the money deck", n_cards(drawn.len()));
        self.private_event(Some(seat), &[seat], public, |g| {
            let ids: Vec<String> = drawn.iter().map(|&m| g.rs.money_id(m)).collect();
            format!("{by}: seat {seat} draws {} from the money deck ({})", n_cards(drawn.len()), ids.join(", "))
        });
        Ok(())
    }

    /// Moves `from`'s last bought building of a type (or with an id) to
    /// another collector (`n`: the neutral one) or, `None`, back to the
    /// display (its first empty slot, else the top of the building deck).
    /// Nothing to move is no error: nothing moves.
    fn move_building(&mut self, what: &str, from: usize, to: Option<usize>, by: &str) -> Result<(), String> {
        let rs = Arc::clone(&self.rs);
        let matches = |b: BuildingIdx| {
            let def = rs.building(b);
            def.id == what || rs.types[def.kind as usize].id == what
        };
        if rs.lookup_type(what).is_none() && rs.lookup_building(what).is_err() {
            let types: Vec<&str> = rs.types.iter().map(|t| t.id.as_str()).collect();
            return Err(format!(
                "`move_building: \"{what}\"` names no building type or card; types: {}",
                types.join(", ")
            ));
        }
        let p = &mut self.players[from];
        let Some(i) = p.buildings.iter().rposition(|&b| matches(b)) else {
            self.event(Some(from), |_| format!("{by}: seat {from} has no {what} to move"));
            return Ok(());
        };
        let (b, _, _) = p.remove_building_at(&rs, i);
        let turn = self.turns;
        let n = self.players.len();
        let id = &rs.building(b).id;
        match to {
            Some(t) if t == n => {
                self.neutral.as_mut().expect("checked: two players").add_building_at(&rs, b, turn);
                self.event(Some(from), |g| {
                    format!("{by}: {id} moves from seat {from} to {}", g.rs.two_players.neutral)
                });
            }
            Some(t) => {
                self.players[t].add_building_at(&rs, b, turn);
                self.event(Some(from), |_| format!("{by}: {id} moves from seat {from} to seat {t}"));
            }
            None => match self.building_display.iter().position(Option::is_none) {
                Some(slot) => {
                    self.building_display[slot] = Some(b);
                    self.event(Some(from), |_| {
                        format!("{by}: {id} moves from seat {from} to slot {} of the display", slot + 1)
                    });
                }
                None => {
                    self.building_deck.push(b);
                    self.event(Some(from), |_| {
                        format!("{by}: {id} moves from seat {from} to the top of the building deck")
                    });
                }
            },
        }
        Ok(())
    }

    /// After an action that ends the turn unless an extra action is owed:
    /// another action, or the turn ends (its `turn_end` heard first).
    #[inline]
    pub(super) fn action_done(&mut self, seat: usize) -> Result<(), GameError> {
        // Extra takes last for the take they were given in.
        self.extra_takes = 0;
        self.extra_any_value = false;
        if self.extra_actions > 0 {
            self.extra_actions -= 1;
            self.event(Some(seat), |_| format!("seat {seat} takes an extra action"));
            self.pending = Some(Decision::Turn { seat });
            return Ok(());
        }
        let turn = self.turns;
        self.event_hooks(crate::hooks::TURN_END, seat, &[], |_, keys| turn_map(seat, turn, keys))?;
        super::asks::then!(self, super::asks::Step::EndTurn { seat }, self.end_turn_now(seat))
    }

    /// The modifiers of the seat to decide, when some card may change them.
    #[inline]
    pub(crate) fn refresh_mods(&mut self) -> Result<(), GameError> {
        let hooks = &self.rs.hooks;
        if hooks.listened() == 0 || !hooks.any_listens([Hook::TakeLimit, Hook::Price, Hook::Pays]) {
            return Ok(());
        }
        self.work_out_mods()
    }

    /// [`Game::refresh_mods`] when some card modifies the take limit, a price or what pays.
    #[inline(never)]
    fn work_out_mods(&mut self) -> Result<(), GameError> {
        let Some(d) = self.pending else { return Ok(()) };
        // A price holds from the purchase to its last card: asked again as the
        // cards are paid, a price that reads the hand moved under the payment
        // and could leave it with no card that pays.
        if matches!(d, Decision::Pay { .. }) && self.mods.is_some() {
            return Ok(());
        }
        let seat = d.seat();
        if self.rs.hooks.prices_by_card_and_target() && self.rs.hooks.script_host().remembers_reads() {
            return self.card_prices(seat);
        }
        let rs = Arc::clone(&self.rs);
        let unit = Dynamic::UNIT;
        let mut limit = i64::from(rs.rules.take_limit);
        // A money script's `on_pays` is asked while its owner holds a card of it (one card per script).
        let mut held: SmallVec<[Money; 4]> = SmallVec::new();
        for &m in self.players[seat].hand() {
            let script = rs.kind(m).script;
            if rs.hooks.currency_listens(Hook::Pays, script) && !held.iter().any(|&h| rs.kind(h).script == script) {
                held.push(m);
            }
        }
        let [take_listeners, mut price_listeners, mut pays_listeners] =
            self.listeners_of([(Hook::TakeLimit, &[]), (Hook::Price, &[]), (Hook::Pays, &held)], seat);
        for l in take_listeners {
            let v = match rs.hooks.script_host().constant(Hook::TakeLimit as usize, l.owner) {
                Some(v) => v.clone(),
                None => self.call_listener(Hook::TakeLimit, &l, seat, &unit, &[("limit", int(limit))])?,
            };
            let range = crate::hooks::HOOKS[Hook::TakeLimit as usize].range;
            limit +=
                i64::from(as_int_in(v, range).map_err(|e| rs.hooks.bad_card_return(Hook::TakeLimit, l.owner, &e))?);
        }
        // Worked out at every decision: the last decision's box is filled again.
        let mut mods = self.mods.take().unwrap_or_default();
        mods.take_limit = limit.max(0) as u32;
        mods.prices.clear();
        mods.pays.clear();
        // A literal answer (a market tax's `-1`, an exchange's `["denar"]`) is
        // the same for every slot: read once here, not once per slot. The
        // others are asked slot by slot, in order.
        let (mut flat_price, mut flat_pays): (i64, PayMask) = (0, 0);
        let literal = |hook: Hook, l: &Listener| rs.hooks.script_host().constant(hook as usize, l.owner);
        let price_range = crate::hooks::HOOKS[Hook::Price as usize].range;
        for l in &price_listeners {
            if let Some(v) = literal(Hook::Price, l) {
                let n = as_int_in(v.clone(), price_range)
                    .map_err(|e| rs.hooks.bad_card_return(Hook::Price, l.owner, &e))?;
                flat_price -= i64::from(n);
            }
        }
        price_listeners.retain(|l| literal(Hook::Price, l).is_none());
        for l in &pays_listeners {
            if let Some(v) = literal(Hook::Pays, l) {
                flat_pays |= self.currency_bits(v).map_err(|e| rs.hooks.bad_card_return(Hook::Pays, l.owner, &e))?;
            }
        }
        pays_listeners.retain(|l| literal(Hook::Pays, l).is_none());
        // One that reads nothing of the building on offer (a trade route's
        // `ctx.table.currencies`, a catch-up price by the seats' scores) answers
        // the same for every slot: asked once, for the first building on offer.
        let first_on_offer = || self.building_display.iter().enumerate().find_map(|(k, b)| b.map(|b| (k, b)));
        let hooks = &rs.hooks;
        let slot_free = |hook: Hook, l: &Listener| !hooks.reads_target(hook, l.owner);
        if let Some((slot, b)) = pays_listeners.iter().any(|l| slot_free(Hook::Pays, l)).then(first_on_offer).flatten()
        {
            let target = || Dynamic::from_map(rs.display_map(b, slot));
            for l in pays_listeners.iter().filter(|l| slot_free(Hook::Pays, l)) {
                let bits = self.currency_bits(&self.call_about(Hook::Pays, l, seat, (0, &target), &OnceCell::new())?);
                flat_pays |= bits.map_err(|e| rs.hooks.bad_card_return(Hook::Pays, l.owner, &e))?;
            }
            pays_listeners.retain(|l| !slot_free(Hook::Pays, l));
        }
        // A price by what is not on offer: its `ctx.target` is never read, so not made.
        // (One that reads only its card is found in a table by the card, slot by slot.)
        let general =
            |l: &Listener| slot_free(Hook::Price, l) && !hooks.reads_card_and_target_only(Hook::Price, l.owner);
        if price_listeners.iter().any(general) && first_on_offer().is_some() {
            for l in price_listeners.iter().filter(|l| general(l)) {
                let v = self.call_listener(Hook::Price, l, seat, &unit, &[("target", Dynamic::UNIT)])?;
                let n = as_int_in(v, price_range).map_err(|e| hooks.bad_card_return(Hook::Price, l.owner, &e))?;
                flat_price -= i64::from(n);
            }
            price_listeners.retain(|l| !general(l));
        }
        // Memory on and no trace keeping prints: asked once, not per card and slot.
        let remember = rs.hooks.script_host().remembers_reads();
        // The `ctx.table` of each price listener asked slot by slot, then of
        // each such payment listener: made for the first slot whose run reads
        // it, read by the others (a tax by every seat's buildings made it once a slot).
        let mut tables: Vec<OnceCell<Dynamic>> = Vec::new();
        tables.resize_with(price_listeners.len() + pays_listeners.len(), OnceCell::new);
        let (price_tables, pays_tables) = tables.split_at(price_listeners.len());
        for (slot, b) in self.building_display.iter().enumerate() {
            let base = b.map_or(0, |b| u32::from(rs.building(b).price));
            let mut price = i64::from(base);
            let mut pays: PayMask = rs.slot_pays[slot];
            if b.is_some() {
                price += flat_price;
                pays |= flat_pays;
            }
            // No listener left to ask slot by slot: the flat modifiers are the whole price.
            if let Some(b) = b.filter(|_| !tables.is_empty()) {
                // `ctx.target`, made only for a script that runs (not a literal or remembered answer).
                let target = std::cell::OnceCell::new();
                let target = || target.get_or_init(|| Dynamic::from_map(rs.display_map(b, slot))).clone();
                // The yard fixes a slot's currency: building and slot make the whole target.
                let about = (u64::from(b) << 8) | slot as u64;
                let hooks = &rs.hooks;
                for (l, table) in price_listeners.iter().zip(price_tables) {
                    let checked = |v: Dynamic| {
                        as_int_in(v, price_range).map_err(|e| hooks.bad_card_return(Hook::Price, l.owner, &e))
                    };
                    let n = match l.card {
                        // A building card whose price reads its kind and the building on offer:
                        // found in a table by the two (and the slot, if it reads it), asked
                        // outright on a miss (the table is its memory, not the keyed one too).
                        // The rules script's price (a Concordia row's, by slot) likewise: it has no card.
                        Heard::Building(..) | Heard::Rules
                            if remember
                                && hooks.reads_card_and_target_only(Hook::Price, l.owner)
                                && (matches!(l.card, Heard::Rules)
                                    || hooks.reads_card_kind_only(Hook::Price, l.owner)) =>
                        {
                            let card = match l.card {
                                Heard::Building(card, ..) => card as usize,
                                _ => 0,
                            };
                            let (on, at) =
                                if hooks.reads_target(Hook::Price, l.owner) { (b as usize, slot) } else { (0, 0) };
                            let sizes = (rs.buildings.len(), rs.yard.len());
                            let ask = || checked(self.call_unrowed(Hook::Price, l, seat, &[("target", target())])?);
                            hooks.price_about(l.owner, sizes, (card, on, at), ask)?
                        }
                        _ => checked(self.call_about(Hook::Price, l, seat, (about, &target), table)?)?,
                    };
                    price -= i64::from(n);
                }
                for (l, table) in pays_listeners.iter().zip(pays_tables) {
                    let bits = self.currency_bits(&self.call_about(Hook::Pays, l, seat, (about, &target), table)?);
                    pays |= bits.map_err(|e| rs.hooks.bad_card_return(Hook::Pays, l.owner, &e))?;
                }
            }
            mods.prices.push(if b.is_some() { price.max(1) as u32 } else { 0 });
            mods.pays.push(pays);
        }
        self.mods = Some(mods);
        Ok(())
    }

    /// [`Game::work_out_mods`] when only prices change, each by a literal or
    /// by an answer kept for the card's kind and the building on offer
    /// ([`crate::hooks::Hooks::prices_by_card_and_target`]: a garden guild's,
    /// asked for every garden owned at every slot of every decision): the same
    /// answers asked in the same order, with no listener lists and no tables.
    #[inline(never)]
    fn card_prices(&mut self, seat: usize) -> Result<(), GameError> {
        let rs = Arc::clone(&self.rs);
        let hooks = &rs.hooks;
        let price_range = crate::hooks::HOOKS[Hook::Price as usize].range;
        let checked = |v: Dynamic, owner: usize| {
            as_int_in(v, price_range).map_err(|e| hooks.bad_card_return(Hook::Price, owner, &e))
        };
        let literal = |owner: usize| hooks.script_host().constant(Hook::Price as usize, owner);
        // Literal answers are the same for every slot (read once, in the
        // listeners' order); the others are asked slot by slot: a building's
        // index among the seat's, its number among its type's, its card and owner.
        let mut flat = 0i64;
        let mut asked: SmallVec<[(usize, usize, usize, usize); 8]> = SmallVec::new();
        let types = hooks.listening_types(Hook::Price);
        if types != 0 {
            let mut seen = [0usize; crate::ruleset::MAX_TYPES];
            for (i, &b) in self.players[seat].buildings.iter().enumerate() {
                let t = rs.building(b).kind as usize;
                let nth = seen[t];
                seen[t] += 1;
                if types & 1 << t == 0 {
                    continue;
                }
                match literal(hooks.type_owner(t)) {
                    Some(v) => flat -= i64::from(checked(v.clone(), hooks.type_owner(t))?),
                    None => asked.push((i, nth, b as usize, hooks.type_owner(t))),
                }
            }
        }
        let rules = hooks.rules_owner();
        let mut rules_asked = false;
        if hooks.rules_listen(Hook::Price) {
            match literal(rules) {
                Some(v) => flat -= i64::from(checked(v.clone(), rules)?),
                None => rules_asked = true,
            }
        }
        let mut mods = self.mods.take().unwrap_or_default();
        mods.take_limit = rs.rules.take_limit;
        mods.prices.clear();
        mods.pays.clear();
        let sizes = (rs.buildings.len(), rs.yard.len());
        for (slot, b) in self.building_display.iter().enumerate() {
            mods.pays.push(rs.slot_pays[slot]);
            let Some(b) = *b else {
                mods.prices.push(0);
                continue;
            };
            let mut price = i64::from(rs.building(b).price) + flat;
            // `ctx.target`, made only for a script that runs.
            let target = OnceCell::new();
            let target = || target.get_or_init(|| Dynamic::from_map(rs.display_map(b, slot))).clone();
            // Asked with the listener made only when the table has no answer.
            let ask = |owner: usize, card: usize, l: &dyn Fn() -> Listener| {
                let (on, at) = if hooks.reads_target(Hook::Price, owner) { (b as usize, slot) } else { (0, 0) };
                let answer = || checked(self.call_unrowed(Hook::Price, &l(), seat, &[("target", target())])?, owner);
                hooks.price_about(owner, sizes, (card, on, at), answer)
            };
            for &(i, nth, card, owner) in &asked {
                price -= i64::from(ask(owner, card, &|| self.building_listener(seat, i, nth))?);
            }
            if rules_asked {
                let l = || Listener { owner: rules, seat, card: Heard::Rules, owned: 0, kind: None, args: None };
                price -= i64::from(ask(rules, 0, &l)?);
            }
            mods.prices.push(price.max(1) as u32);
        }
        self.mods = Some(mods);
        Ok(())
    }

    /// The currencies an `on_pays` result names, a bit each.
    fn currency_bits(&self, v: &Dynamic) -> Result<PayMask, String> {
        if v.is_unit() {
            return Ok(0);
        }
        // Read where it lies: asked for every slot at every decision (a literal list, most often).
        let currencies = &self.rs.currencies;
        let list =
            v.as_array_ref().map_err(|_| format!("returned a {}, expected a list of currency ids", v.type_name()))?;
        let mut bits: PayMask = 0;
        for item in list.iter() {
            let id = item
                .as_immutable_string_ref()
                .map_err(|t| format!("returned a list holding a {t}; write currency ids"))?;
            let c = currencies.iter().position(|c| c.id == id.as_str()).ok_or_else(|| {
                let ids: Vec<&str> = currencies.iter().map(|c| c.id.as_str()).collect();
                format!("`{}` is not a currency ({})", id.as_str(), ids.join(", "))
            })?;
            bits |= 1 << c;
        }
        Ok(bits)
    }

    /// The take limit of the seat to decide.
    pub(crate) fn take_limit(&self) -> u32 {
        self.mods.as_ref().map_or(self.rs.rules.take_limit, |m| m.take_limit)
    }

    /// The price the seat to decide pays for the building in `slot`.
    pub(crate) fn price_at(&self, slot: u8) -> u32 {
        match &self.mods {
            Some(m) => m.prices[slot as usize],
            None => self.building_display[slot as usize].map_or(0, |b| u32::from(self.rs.building(b).price)),
        }
    }

    /// True when currency `c` may pay for the building in `slot`.
    pub(crate) fn pays(&self, slot: u8, c: u8) -> bool {
        self.pays_mask(slot) & (1 << c) != 0
    }

    /// A bit per currency that may pay for the building in `slot` (the seat to decide's).
    pub(crate) fn pays_mask(&self, slot: u8) -> PayMask {
        match &self.mods {
            Some(m) => m.pays[slot as usize],
            None => self.rs.slot_pays[slot as usize],
        }
    }

    /// The money `seat` holds that may pay for the building in `slot`.
    pub(crate) fn money_for(&self, seat: usize, slot: u8) -> u32 {
        match &self.mods {
            Some(_) => {
                let sums = self.players[seat].sums();
                (0..sums.len()).filter(|&c| self.pays(slot, c as u8)).map(|c| sums[c]).sum()
            }
            None => self.players[seat].sums()[self.rs.yard[slot as usize] as usize],
        }
    }

    /// An overpayment some card of `seat` counts as exact.
    pub(super) fn counts_as_exact(&self, seat: usize, event: impl FnOnce() -> Dynamic) -> Result<bool, GameError> {
        if !self.rs.hooks.any_listens([Hook::Exact]) {
            return Ok(false);
        }
        let listeners = self.listeners(Hook::Exact, seat, &[]);
        if listeners.is_empty() {
            return Ok(false);
        }
        // Made only for a card that listens: asked at every purchase.
        let event = event();
        for l in listeners {
            let v = self.call_listener(Hook::Exact, &l, seat, &event, &[])?;
            if as_bool(v).map_err(|e| self.rs.hooks.bad_card_return(Hook::Exact, l.owner, &e))? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The points `seat`'s cards add at scoring `name`.
    pub(super) fn card_points(&self, seat: usize, name: &str) -> Result<i32, GameError> {
        let mut total = 0i32;
        for l in self.listeners(Hook::Points, seat, &[]) {
            let v = self.call_listener(Hook::Points, &l, seat, &Dynamic::UNIT, &[("scoring", s(name))])?;
            let range = crate::hooks::HOOKS[Hook::Points as usize].range;
            total = total.saturating_add(
                as_int_in(v, range).map_err(|e| self.rs.hooks.bad_card_return(Hook::Points, l.owner, &e))?,
            );
        }
        Ok(total)
    }
}

/// A turn event's payload.
pub(super) fn turn_map(seat: usize, turn: u32, keys: u64) -> Map {
    facts!(keys; "seat" => int(seat), "turn" => int(turn))
}

/// An event's facts (a map of `key => value`), each made only when some
/// listener reads its key: `keys` holds their [`crate::hooks::key_bit`]s
/// ([`crate::hooks::Hooks::event_keys`]).
macro_rules! facts {
    ($keys:expr; $($key:literal => $value:expr),* $(,)?) => {{
        let keys: u64 = $keys;
        let mut map = rhai::Map::new();
        $(
            if keys & const { crate::hooks::key_bit($key) } != 0 {
                map.insert($key.into(), $value);
            }
        )*
        map
    }};
}
pub(super) use facts;

/// Builds a payload map from pairs.
pub(super) fn payload<const N: usize>(pairs: [(&str, Dynamic); N]) -> Map {
    pairs.into_iter().map(|(k, v)| (k.into(), v)).collect()
}
