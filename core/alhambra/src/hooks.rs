//! The ruleset's scripts, run through the engine's sandboxed script host:
//! `on_score` (one scoring's points for one building type) and `on_neutral`
//! (how many building cards the neutral collector draws).
//!
//! A scoring depends only on the counts of one type and the scoring, so its
//! points are remembered per (scoring, type, counts): the script runs once
//! for each distinct position, not once per game.

use engine_script::{FlagMemo, KeyedMemo, Shards, remember_keyed};
use engine_script::{HookMask, has_hook, hook_bit};
use std::collections::HashMap;

use engine_script::results::as_int_in;
use engine_script::{EffectSpec, HookSpec, Limits, ScriptHost, Shape};
use rhai::{Array, Dynamic, Map};

use crate::error::{GameError, LoadError};
use crate::files::Source;
use crate::limits::{MAX_PLAYERS, MAX_TYPES};

/// Most collectors: the players and, with two, the neutral collector.
pub const MAX_COLLECTORS: usize = MAX_PLAYERS + 1;

/// Hook ids: the index into [`HOOKS`].
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Hook {
    Score,
    Neutral,
    Taken,
    OtherTaken,
    AnyTaken,
    Paid,
    OtherPaid,
    AnyPaid,
    Bought,
    OtherBought,
    AnyBought,
    TurnStart,
    OtherTurnStart,
    AnyTurnStart,
    TurnEnd,
    OtherTurnEnd,
    AnyTurnEnd,
    Refilled,
    Scored,
    NeutralDrew,
    GameEnd,
    TakeLimit,
    Price,
    Pays,
    Exact,
    Points,
    Choice,
    BuildingDrawn,
    CanPay,
    PayValue,
    Drawn,
    Legal,
    Allowed,
    Action,
}

const SCORE: usize = Hook::Score as usize;
const NEUTRAL: usize = Hook::Neutral as usize;

/// An event's hooks by scope.
pub type Scoped = engine_script::scope::Scoped<Hook>;

/// Money taken from the display (one card at a time).
pub const TAKEN: Scoped = Scoped::all(Hook::Taken, Hook::OtherTaken, Hook::AnyTaken);
/// A building's price paid in full.
pub const PAID: Scoped = Scoped::all(Hook::Paid, Hook::OtherPaid, Hook::AnyPaid);
/// A building bought, kept or donated.
pub const BOUGHT: Scoped = Scoped::all(Hook::Bought, Hook::OtherBought, Hook::AnyBought);
/// A turn begins.
pub const TURN_START: Scoped = Scoped::all(Hook::TurnStart, Hook::OtherTurnStart, Hook::AnyTurnStart);
/// A turn ends (before the displays are refilled).
pub const TURN_END: Scoped = Scoped::all(Hook::TurnEnd, Hook::OtherTurnEnd, Hook::AnyTurnEnd);
/// Events of the table, with no actor: every owner hears them.
pub const fn table_event(h: Hook) -> Scoped {
    Scoped { own: None, other: None, any: Some(h) }
}

macro_rules! event_hook {
    ($name:literal, $doc:literal) => {
        HookSpec { name: $name, arity: 1, range: Some((0, 0)), effects: true, results: &[], doc: $doc }
    };
}

/// Every hook, in [`Hook`] order: the ruleset's two (`on_score`, `on_neutral`),
/// the events in their scopes, and the modifiers.
pub static HOOKS: &[HookSpec] = &[
    HookSpec {
        name: "on_score",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "called for each building type at each scoring with ctx.counts (buildings of the type per collector), \
              ctx.ranks (points per rank for the type) and ctx.needs_building; returns the points per collector, an array",
    },
    HookSpec {
        name: "on_neutral",
        arity: 1,
        range: Some((0, 1000)),
        effects: false,
        results: &[],
        doc: "called when the neutral collector draws, with ctx.deck (building cards left), ctx.cards and ctx.share \
              (from two_players.neutral_draws); returns how many cards it draws",
    },
    event_hook!(
        "on_taken",
        "called after the owner took a money card (ctx.event: seat, cards, total, taken); events return () or effects"
    ),
    event_hook!(
        "on_other_taken",
        "called after another player took a money card (ctx.event as on_taken); events return () or effects"
    ),
    event_hook!(
        "on_any_taken",
        "called after any player took a money card (ctx.event as on_taken); events return () or effects"
    ),
    event_hook!(
        "on_paid",
        "called after the owner paid a building's price in full (ctx.event: seat, cards, paid, price, exact, slot, building, type, currency); events return () or effects"
    ),
    event_hook!(
        "on_other_paid",
        "called after another player paid a building (ctx.event as on_paid); events return () or effects"
    ),
    event_hook!(
        "on_any_paid",
        "called after any player paid a building (ctx.event as on_paid); events return () or effects"
    ),
    event_hook!(
        "on_bought",
        "called after the owner's bought building was placed (ctx.event: seat, building, type, price, slot, currency, exact, donated); events return () or effects"
    ),
    event_hook!(
        "on_other_bought",
        "called after another player's bought building was placed (ctx.event as on_bought); events return () or effects"
    ),
    event_hook!(
        "on_any_bought",
        "called after any player's bought building was placed (ctx.event as on_bought); events return () or effects"
    ),
    event_hook!(
        "on_turn_start",
        "called when the owner's turn starts (ctx.event: seat, turn); events return () or effects"
    ),
    event_hook!(
        "on_other_turn_start",
        "called when another player's turn starts (ctx.event: seat, turn); events return () or effects"
    ),
    event_hook!(
        "on_any_turn_start",
        "called when any player's turn starts (ctx.event: seat, turn); events return () or effects"
    ),
    event_hook!(
        "on_turn_end",
        "called when the owner's turn ends, before the displays are refilled (ctx.event: seat, turn); events return () or effects"
    ),
    event_hook!(
        "on_other_turn_end",
        "called when another player's turn ends (ctx.event: seat, turn); events return () or effects"
    ),
    event_hook!(
        "on_any_turn_end",
        "called when any player's turn ends (ctx.event: seat, turn); events return () or effects"
    ),
    event_hook!(
        "on_refilled",
        "called after the displays were refilled (ctx.event: buildings, money: the cards laid out); events return () or effects"
    ),
    event_hook!(
        "on_scored",
        "called after a scoring (ctx.event: scoring, points per collector); events return () or effects"
    ),
    event_hook!(
        "on_neutral_drew",
        "called after the neutral collector drew building cards (ctx.event: cards, at); events return () or effects"
    ),
    event_hook!(
        "on_game_end",
        "called once the final scoring is done (ctx.event: scores); events return () or effects"
    ),
    HookSpec {
        name: "on_take_limit",
        arity: 1,
        range: Some((-20, 20)),
        effects: false,
        results: &[],
        doc: "called when the owner takes money (ctx.limit: the limit so far); return how much more (or less) \
              several cards taken together may total",
    },
    HookSpec {
        name: "on_price",
        arity: 1,
        range: Some((-20, 20)),
        effects: false,
        results: &[],
        doc: "called for each building on the display the owner could buy (ctx.target: type, building, price, slot, \
              currency); return the discount (an integer; a price never falls below 1)",
    },
    HookSpec {
        name: "on_pays",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "called for each building on the display the owner could buy (ctx.target); return () or a list of \
              currency ids that may also pay it",
    },
    HookSpec {
        name: "on_exact",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "called when the owner overpaid (ctx.event as on_paid); return true if the payment counts as exact \
              (another action)",
    },
    HookSpec {
        name: "on_points",
        arity: 1,
        range: Some((-1000, 1000)),
        effects: false,
        results: &[],
        doc: "called at each scoring (ctx.scoring: its name); return the points the card adds to its owner's score",
    },
    event_hook!(
        "on_choice",
        "called when a choice this card's script asked (`choose`, `choose_cards`) is answered (ctx.choice: the option, ctx.chosen: the cards, ctx.tag, ctx.actor: who chose); returns () or effects"
    ),
    event_hook!(
        "on_building_drawn",
        "called for each building card drawn to refill the display, before it is laid out (ctx.event: building, slot); returns () or effects (`#{ move: \"drawn\", to: \"out\" }` puts it out of the game and another is drawn)"
    ),
    HookSpec {
        name: "can_pay",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "a money card's: called before it may be paid (ctx.event: price, paid so far, slot, building, currency); \
              return true if it may be paid now (false: refused, and the building is offered only if it can be paid)",
    },
    HookSpec {
        name: "on_pay_value",
        arity: 1,
        range: Some((0, 99)),
        effects: false,
        results: &[],
        doc: "a money card's: what it is worth in this payment (ctx.event as can_pay); return an integer",
    },
    event_hook!(
        "on_drawn",
        "a deck card's: called when it is drawn from the money deck (ctx.event: seat, the player to move); then it leaves the game; events return () or effects"
    ),
    HookSpec {
        name: "legal",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "an action's: the arguments the player to move may give it now (ctx.action: its id): a list, each \
              entry () for none, a value (a card id, a slot) or a list of values; an empty list: not offered",
    },
    HookSpec {
        name: "allowed",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "an action's with `args` kinds: whether these arguments (ctx.args) may be given now; return true or false",
    },
    event_hook!(
        "on_action",
        "an action's: what it does (ctx.action: its id, ctx.args: the arguments given); returns () or effects"
    ),
];

/// The effects an event hook's map may name, with their keys and literal values.
pub static EFFECTS: &[EffectSpec] = &[
    EffectSpec { name: "draw_money", keys: &["seat"], values: &[] },
    EffectSpec { name: "extra_action", keys: &[], values: &[] },
    EffectSpec { name: "score", keys: &["seat"], values: &[] },
    EffectSpec { name: "move_building", keys: &["from", "to"], values: &[("to", &["display", "neutral"])] },
    EffectSpec { name: "take_money", keys: &["from", "to"], values: &[] },
    EffectSpec { name: "counter", keys: &["min", "max"], values: &[] },
    EffectSpec { name: "player_counter", keys: &["add", "min", "max"], values: &[] },
    EffectSpec { name: "extra_take", keys: &["ignore_limit"], values: &[] },
    EffectSpec { name: "choose", keys: &["seat", "tag"], values: &[] },
    EffectSpec {
        name: "choose_cards",
        keys: &["from", "seat", "of", "only", "optional", "tag"],
        values: &[("from", CHOOSE_FROM)],
    },
    EffectSpec { name: "discard_money", keys: &["seat"], values: &[] },
    EffectSpec {
        name: "move",
        keys: &["from", "to", "seat", "from_seat", "to_seat", "slot", "to_slot", "at", "in_place_of"],
        values: &[("from", ZONES), ("to", ZONES), ("at", &["top", "bottom"])],
    },
];

/// Where a `choose_cards` takes its cards from.
pub static CHOOSE_FROM: &[&str] = &["hand", "buildings", "money_display", "building_display"];

/// The zones a card may be moved from or to (`move`): money zones, then building zones.
pub static ZONES: &[&str] = &[
    "hand",
    "money_display",
    "money_deck",
    "discard",
    "buildings",
    "alhambra",
    "building_display",
    "building_deck",
    "neutral",
    "reserve",
    "out",
];

/// Every key an effect map may hold.
pub static MAP_KEYS: &[&str] = &[
    "draw_money",
    "extra_action",
    "score",
    "move_building",
    "take_money",
    "counter",
    "player_counter",
    "extra_take",
    "choose",
    "choose_cards",
    "discard_money",
    "move",
    "seat",
    "from",
    "to",
    "add",
    "min",
    "max",
    "ignore_limit",
    "of",
    "only",
    "optional",
    "tag",
    "from_seat",
    "to_seat",
    "slot",
    "to_slot",
    "at",
    "in_place_of",
];

/// The hooks a money script (a currency's or a money card's) may define: money
/// cards act when taken or paid, widen what pays while held, and say when and
/// for how much they may be paid.
pub static CURRENCY_HOOKS: &[Hook] = &[Hook::Taken, Hook::Paid, Hook::Pays, Hook::CanPay, Hook::PayValue];
/// The hooks only money or deck cards have.
static CARD_ONLY_HOOKS: &[Hook] =
    &[Hook::CanPay, Hook::PayValue, Hook::Drawn, Hook::Legal, Hook::Allowed, Hook::Action];
/// The hooks a deck card's script may define.
pub static DECK_HOOKS: &[Hook] = &[Hook::Drawn];
/// The hooks an action's script may define.
pub static ACTION_HOOKS: &[Hook] = &[Hook::Legal, Hook::Allowed, Hook::Action, Hook::Choice];

/// The documentation page of these hooks, named in script errors' hints.
pub const DOCS_PAGE: &str = "docs/alhambra.md";

/// Context properties that are plain numbers: a hook reading only these is remembered by their values.
pub static SCALARS: &[&str] = &["deck", "cards", "share"];
/// The other context properties.
pub static CTX_MORE: &[&str] = &[
    "counts",
    "ranks",
    "needs_building",
    "seat",
    "actor",
    "players",
    "turn",
    "card",
    "owned",
    "event",
    "target",
    "limit",
    "scoring",
    "hand",
    "table",
    "counter",
    "player_counters",
    // A method: `ctx.player_counter("name")` (registered in `Hooks::load`).
    "player_counter",
    "choice",
    "chosen",
    "tag",
    "action",
    "args",
];
/// What every card hook's `ctx` holds; a hook's own member is added per hook ([`ctx_of`]).
macro_rules! card_ctx {
    ($($own:literal),*) => {
        &["actor", "card", "counter", "hand", "owned", "player_counters", "player_counter", "players", "seat",
          "table", "turn" $(, $own)*]
    };
}

/// The `ctx` members a hook is given (the rest are `()` there): what `check`
/// holds a script's reads against, so `ctx.table` in a scoring script is an
/// error before a game runs, not `()` in the middle of one.
pub fn ctx_of(hook: usize) -> &'static [&'static str] {
    const EVENT: &[&str] = card_ctx!("event");
    match hook {
        SCORE => &["counts", "ranks", "needs_building"],
        NEUTRAL => &["deck", "cards", "share"],
        h if h == Hook::TakeLimit as usize => card_ctx!("limit"),
        h if h == Hook::Price as usize || h == Hook::Pays as usize => card_ctx!("target"),
        h if h == Hook::Points as usize => card_ctx!("scoring"),
        h if h == Hook::Choice as usize => card_ctx!("choice", "chosen", "tag", "action"),
        h if h == Hook::Legal as usize => card_ctx!("action"),
        h if h == Hook::Allowed as usize || h == Hook::Action as usize => card_ctx!("action", "args"),
        _ => EVENT,
    }
}

/// What `ctx.table` holds, for `check` (maps keyed by data, like a
/// collector's `counts` by type or the rules, are not checked).
pub const TABLE_SHAPE: &[Shape] = &[
    Shape { key: "seats", of: COLLECTOR_SHAPE },
    Shape { key: "neutral", of: COLLECTOR_SHAPE },
    Shape::leaf("money_display"),
    Shape { key: "building_display", of: DISPLAYED_SHAPE },
    Shape::leaf("deck"),
    Shape::leaf("building_deck"),
    Shape::leaf("discard"),
    Shape::leaf("scored"),
    Shape { key: "scored_at", of: &[Shape::leaf("name"), Shape::leaf("turn")] },
    Shape::leaf("turn"),
    Shape::leaf("to_move"),
    Shape::leaf("start_player"),
    Shape::leaf("types"),
    Shape::leaf("currencies"),
    Shape::leaf("rules"),
];

/// A collector in `ctx.table.seats` (and the neutral one).
pub const COLLECTOR_SHAPE: &[Shape] = &[
    Shape::leaf("seat"),
    Shape { key: "buildings", of: OWNED_SHAPE },
    Shape::leaf("counts"),
    Shape::leaf("money"),
    Shape { key: "hand", of: HAND_SHAPE },
    Shape::leaf("score"),
    Shape { key: "reserve", of: &[Shape::leaf("type"), Shape::leaf("id"), Shape::leaf("price")] },
];

/// A money card in a collector's hand (shown once the game ends).
pub const HAND_SHAPE: &[Shape] = &[Shape::leaf("id"), Shape::leaf("currency"), Shape::leaf("value")];

/// A building a collector owns.
pub const OWNED_SHAPE: &[Shape] = &[
    Shape::leaf("type"),
    Shape::leaf("id"),
    Shape::leaf("price"),
    Shape::leaf("bought"),
    Shape::leaf("exact"),
    Shape::leaf("nth"),
];

/// The parts of `ctx.table` a hook reads: the table's keys, a collector's,
/// a displayed building's (a bit each of [`TABLE_SHAPE`], [`COLLECTOR_SHAPE`],
/// [`DISPLAYED_SHAPE`]; all bits for a part taken whole), and the one seat
/// made when the hook reads only its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableReads {
    /// The table's keys.
    pub keys: u32,
    /// A collector's keys.
    pub collector: u32,
    /// Those of its lists only counted (made as that many `()`).
    pub counted: u32,
    /// A card's keys in a collector's hand.
    pub hand: u32,
    /// A building's keys in a collector's buildings.
    pub owned: u32,
    /// A displayed building's keys.
    pub displayed: u32,
    /// The only seat made, if one.
    pub own: Option<usize>,
}

impl TableReads {
    /// Every part, every seat.
    pub const WHOLE: TableReads = TableReads {
        keys: u32::MAX,
        collector: u32::MAX,
        counted: 0,
        hand: u32::MAX,
        owned: u32::MAX,
        displayed: u32::MAX,
        own: None,
    };
}

/// A building on the display.
pub const DISPLAYED_SHAPE: &[Shape] =
    &[Shape::leaf("type"), Shape::leaf("id"), Shape::leaf("price"), Shape::leaf("slot"), Shape::leaf("currency")];

/// Remembered points stop growing here; further positions are simply computed.
const MEMO_CAPACITY: usize = 1 << 16;

#[derive(Clone, Copy, PartialEq, Eq)]
struct ScoreKey {
    scoring: u8,
    kind: u8,
    collectors: u8,
    counts: [u8; MAX_COLLECTORS],
}

impl ScoreKey {
    /// The key's twelve bytes as one number, its top byte set (no key is 0, an unused [`Recent`] entry).
    fn packed(&self) -> u128 {
        let mut bytes = [0u8; 16];
        bytes[0] = self.scoring;
        bytes[1] = self.kind;
        bytes[2] = self.collectors;
        bytes[3..3 + MAX_COLLECTORS].copy_from_slice(&self.counts);
        bytes[15] = 1;
        u128::from_le_bytes(bytes)
    }
}

impl std::hash::Hash for ScoreKey {
    /// The key's twelve bytes as one number: a derived hash fed the hasher
    /// byte by byte (and the counts' length), most of a lookup's cost.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u128(self.packed());
    }
}

/// Sorts `key`'s counts largest first; `order[j]` is the collector whose
/// count is j-th (stable, so ties keep seat order).
fn sort_counts(key: &mut ScoreKey, order: &mut [u8; MAX_COLLECTORS], counts: &[u8]) {
    // Each collector as one number, its count above its seat counted down:
    // larger numbers first is most buildings first, ties in seat order.
    let mut packed = [0u16; MAX_COLLECTORS];
    for (i, (p, &c)) in packed.iter_mut().zip(counts).enumerate() {
        *p = u16::from(c) << 8 | (255 - i as u16);
    }
    let packed = &mut packed[..counts.len()];
    // Insertion sort: a handful of counts, sorted some 700 times a game by
    // the balance bot (the library's sort cost four times this).
    for i in 1..packed.len() {
        let p = packed[i];
        let mut j = i;
        while j > 0 && packed[j - 1] < p {
            packed[j] = packed[j - 1];
            j -= 1;
        }
        packed[j] = p;
    }
    for (j, &p) in packed.iter().enumerate() {
        order[j] = 255 - (p & 0xff) as u8;
        key.counts[j] = (p >> 8) as u8;
    }
}

/// A quick hash for the memo's small keys (bots look points up many times a
/// turn; the keys are not chosen by anyone who could make them collide).
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.mix(u64::from(b));
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.mix(n as u64);
        self.mix((n >> 64) as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Remembered scoring answers ([`Hooks::points`]).
#[derive(Default)]
struct Memo {
    points: HashMap<ScoreKey, [i32; MAX_COLLECTORS], std::hash::BuildHasherDefault<KeyHasher>>,
    recent: Recent,
}

/// The latest answers by their key as asked (counts in seat order), one per
/// place a key's hash picks: found there, an answer needs neither the
/// symmetry test, nor the sort, nor the map (the balance bot asks for the
/// same columns of counts at every position it judges, and those steps were
/// most of it). Made when first used.
#[derive(Default)]
struct Recent(Box<[(u128, [i32; MAX_COLLECTORS])]>);

/// How many answers [`Recent`] holds (a power of two).
const RECENT: usize = 1 << 11;

impl Recent {
    fn at(key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - RECENT.trailing_zeros())) as usize
    }

    fn get(&self, key: u128) -> Option<[i32; MAX_COLLECTORS]> {
        let (k, points) = self.0.get(Recent::at(key))?;
        (*k == key).then_some(*points)
    }

    fn put(&mut self, key: u128, points: [i32; MAX_COLLECTORS]) {
        if self.0.is_empty() {
            self.0 = vec![(0, [0; MAX_COLLECTORS]); RECENT].into_boxed_slice();
        }
        self.0[Recent::at(key)] = (key, points);
    }
}

/// Per scoring, type and number of collectors, whether the scoring script
/// scores by counts alone: not probed yet, no, or yes. One answer for every
/// thread (the script decides it), read without a lock.
struct Symmetry(Box<[std::sync::atomic::AtomicU8]>);

const UNPROBED: u8 = 0;
const ORDERED: u8 = 1;
const SYMMETRIC: u8 = 2;

impl Symmetry {
    fn new() -> Symmetry {
        Symmetry(
            (0..256 * MAX_TYPES * (MAX_COLLECTORS + 1)).map(|_| std::sync::atomic::AtomicU8::new(UNPROBED)).collect(),
        )
    }

    fn slot(&self, key: &ScoreKey) -> &std::sync::atomic::AtomicU8 {
        // A type's index is below MAX_TYPES and the collectors at most MAX_COLLECTORS (the counts' rows and keys).
        let at = (usize::from(key.scoring) * MAX_TYPES + usize::from(key.kind)) * (MAX_COLLECTORS + 1)
            + usize::from(key.collectors);
        &self.0[at]
    }

    fn forget(&self) {
        for s in self.0.iter() {
            s.store(UNPROBED, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// A card hook asked about a building on offer: the hook, the script's owner,
/// the card (`ctx.card`) and the building with its slot (`ctx.target`), each
/// as a number that determines the map the script sees.
pub type AboutKey = (u8, u16, u128, u64);

/// The compiled scripts of a ruleset.
pub struct Hooks {
    host: ScriptHost,
    /// Per thread (see [`Shards`]): bots of parallel games look points up all the time.
    memo: Shards<Memo>,
    symmetry: Symmetry,
    /// Card hooks about a display building, by [`AboutKey`] ([`Hooks::reads_card_and_target_only`]).
    about: KeyedMemo<AboutKey>,
    /// Per owner, the price changes its building cards give each building on
    /// each slot, made when first asked ([`Hooks::price_about`]).
    prices: Vec<std::sync::OnceLock<Box<[std::sync::atomic::AtomicI32]>>>,
    /// The actions' `allowed` answers that read only the arguments, by their words ([`Hooks::allowed_about`]).
    allowed: std::sync::OnceLock<FlagMemo>,
    /// Per owner: an action's `allowed` answers for two arguments of small
    /// words, with the word offered for the pair ([`Hooks::allowed_pair`]).
    pairs: Vec<std::sync::OnceLock<Box<[std::sync::atomic::AtomicU32]>>>,
    /// Per owner: a bit per hook that reads nothing of `ctx` but `card`, `target` and the table's constants.
    card_and_target_only: Vec<HookMask>,
    /// `ctx.target`'s index among the members (see [`Hooks::reads_target`]).
    target_member: usize,
    /// Per owner: a bit per hook that reads nothing of `ctx` but `args`, `action` and the table's constants.
    args_only: Vec<HookMask>,
    /// Per owner: a bit per hook that reads nothing of `ctx` but `card`, `event` and the table's constants.
    card_and_event_only: Vec<HookMask>,
    /// Per owner: a bit per hook that reads of `ctx.card` only what the card's kind fixes.
    card_fixed: Vec<HookMask>,
    /// Per owner: a bit per hook that reads `ctx.table.seats` only at `ctx.seat`.
    own_seat: Vec<HookMask>,
    /// Per owner: a bit per hook that reads of `ctx.event` only `price` and `paid`.
    event_amounts_only: Vec<HookMask>,
    /// Per owner: a bit per hook that only counts `ctx.hand` (`ctx.hand.len()`).
    hand_counted: Vec<HookMask>,
    /// `card_keys[hook][owner]`: a bit per [`OWNED_SHAPE`] key the hook reads of
    /// `ctx.card`, a building card it owns (all of them when it takes the card whole).
    card_keys: Vec<Vec<u32>>,
    /// `table_reads[hook][owner]`: the keys the hook reads of `ctx.table`, of
    /// a collector (its lists only counted apart), of a card in a hand, of an
    /// owned and of a displayed building (a bit each; all of them for a part
    /// it does more with than read keys), with `own` `Some(0)` for a hook that
    /// reads only its owner's seat.
    table_reads: Vec<Vec<TableReads>>,
    /// `event_reads[hook][owner]`: the keys the hook reads of `ctx.event`, and
    /// of a map there the keys it reads of it (`None`: it takes the event whole).
    event_reads: Vec<Vec<Option<engine_script::reads::KeysRead>>>,
    /// Per building type: a bit per hook its script defines.
    type_masks: Vec<HookMask>,
    /// Per money script (currencies, then money cards): a bit per hook it defines.
    currency_masks: Vec<HookMask>,
    /// Every building type's bits: a hook no type defines skips a seat's buildings.
    types_union: HookMask,
    /// Per hook: a bit per building type whose script defines it.
    listening_types: Vec<u32>,
    /// Per deck card: a bit per hook its script defines.
    deck_masks: Vec<HookMask>,
    /// The rules script's owner and its bits (0 without one).
    rules: (usize, HookMask),
    /// Per action of the ruleset: a bit per hook its script defines.
    action_masks: Vec<HookMask>,
    /// Every type's, currency's and the rules script's bits: 0 when nothing has a script, so a game pays nothing for them.
    union: HookMask,
    /// See [`Hooks::prices_by_card_and_target`].
    card_prices: bool,
    /// Per hook: the [`key_bit`]s of the keys of `ctx.event` its listeners read
    /// (every bit when one of them does more with the event than read keys).
    event_keys: Vec<u64>,
}

/// An event's key as one bit of 64 ([`Hooks::event_keys`]): two keys may
/// share a bit, and an event then holds a key no listener reads, which none can tell.
pub const fn key_bit(key: &str) -> u64 {
    // FNV-1a, worked out where the game names the key (a constant).
    let bytes = key.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    1 << (h % 64)
}

/// A price table's entry not asked yet ([`Hooks::price_about`]).
const PRICE_UNKNOWN: i32 = i32::MIN;

/// The words an argument of [`Hooks::allowed_pair`]'s table may have (256 KiB
/// an action): the cards' words come first, a pair's joined words after them.
pub const PAIR_WORDS: usize = 256;

/// The first owner index of the building types' scripts (after the scoring and the neutral collector's).
const FIRST_TYPE: usize = 2;

struct NeutralCtx {
    deck: i32,
    cards: i32,
    share: i32,
}

impl Hooks {
    /// Times the scripts' calls into `profile` while it is on (see [`ScriptHost::set_profile`]).
    pub fn set_profile(&self, profile: std::sync::Arc<engine_script::profile::Profile>) -> bool {
        self.host.set_profile(profile)
    }

    /// True when `owner`'s `hook` reads nothing of `ctx` but `card`,
    /// `target` and the table's constants (`ctx.table.currencies`, `types`,
    /// `rules`): its answer then depends on the two alone (scripts cannot
    /// see anything else), and is remembered by them ([`Hooks::about`]).
    #[inline]
    pub fn reads_card_and_target_only(&self, hook: Hook, owner: usize) -> bool {
        self.card_and_target_only.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// True when `owner`'s `hook` reads nothing of `ctx` but `card`, `event`
    /// and the table's constants: its answer is a function of the two (a
    /// joker's worth, asked for every building at every decision).
    pub fn reads_card_and_event_only(&self, hook: Hook, owner: usize) -> bool {
        self.card_and_event_only.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// What `owner`'s `hook` reads of `ctx.event` (`None`: all of it): a row
    /// holds that alone (a mirage that reads the type of the building drawn
    /// is answered from memory for every building of the type).
    pub fn event_reads(&self, hook: Hook, owner: usize) -> Option<&engine_script::reads::KeysRead> {
        self.event_reads[hook as usize].get(owner)?.as_ref()
    }

    /// True when `owner`'s `hook` reads of `ctx.event` only `price` and
    /// `paid` (a joker's `on_pay_value`): two payments of the same amounts
    /// are the same to it, whatever building they buy.
    pub fn reads_event_amounts_only(&self, hook: Hook, owner: usize) -> bool {
        self.event_amounts_only.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// True when `owner`'s `hook` may read `ctx.target` (the building on
    /// offer): one that does not answers alike for every building and slot.
    pub fn reads_target(&self, hook: Hook, owner: usize) -> bool {
        self.host.may_read(hook as usize, owner, self.target_member)
    }

    /// True when `owner`'s `hook` reads of `ctx.table.seats` only the seat
    /// `ctx.seat` (`ctx.table.seats[ctx.seat].reserve`): a table made for it
    /// holds that seat alone, the others `()`, which it cannot tell.
    pub fn reads_own_seat_only(&self, hook: Hook, owner: usize) -> bool {
        self.own_seat.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// True when `owner`'s `hook` only counts `ctx.hand` (`ctx.hand.len()`):
    /// a hand of that many `()` is the same to it, and it is remembered by
    /// the hand's size (a hand tax's `on_turn_end`, at every turn).
    pub fn counts_hand_only(&self, hook: Hook, owner: usize) -> bool {
        self.hand_counted.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// What `owner`'s `hook` reads of `ctx.table`, for `seat`'s card: the
    /// parts a table made for it holds (and a row of its reads writes).
    pub fn table_reads(&self, hook: Hook, owner: usize, seat: usize) -> TableReads {
        // One lookup, not six: asked for every row a hook that reads the table writes.
        let mut reads = self.table_reads[hook as usize].get(owner).copied().unwrap_or(TableReads::WHOLE);
        if reads.own.is_some() {
            reads.own = Some(seat);
        }
        reads
    }

    /// The keys of [`OWNED_SHAPE`] `owner`'s `hook` reads of `ctx.card` (a bit
    /// each; all of them when it takes the card whole): a building card is made of those.
    pub fn card_keys(&self, hook: Hook, owner: usize) -> u32 {
        self.card_keys[hook as usize].get(owner).copied().unwrap_or(u32::MAX)
    }

    /// True when `owner`'s `hook` reads of `ctx.card` only what the card's
    /// kind fixes (its type, id, price; a money card's currency and value):
    /// what it answers for one card of a kind it answers for every other.
    pub fn reads_card_kind_only(&self, hook: Hook, owner: usize) -> bool {
        self.card_fixed.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// True when `owner`'s `hook` reads nothing of `ctx` but `args` and
    /// `action`: its answer is a function of the arguments (an action's `allowed`).
    pub fn reads_args_only(&self, hook: Hook, owner: usize) -> bool {
        self.args_only.get(owner).is_some_and(|&bits| has_hook(bits, hook as usize))
    }

    /// The answer remembered for `key`, else `answer`'s (remembered when it
    /// is one: an error is not).
    pub fn about(
        &self,
        key: AboutKey,
        answer: impl FnOnce() -> Result<Dynamic, GameError>,
    ) -> Result<Dynamic, GameError> {
        // Not while a trace keeps what scripts print, nor with memory off (as a row).
        if !self.host.remembers_reads() {
            return answer();
        }
        let mut ran = false;
        let v = remember_keyed(&self.about, key, || {
            ran = true;
            answer()
        });
        if !ran {
            self.host.count_remembered(usize::from(key.0), usize::from(key.1));
        }
        v
    }

    /// Action `def`'s `allowed` (its script `owner`'s) for the arguments
    /// whose words are `words`, else `answer`'s, remembered when there are at
    /// most three: for an `allowed` that reads of `ctx` only the arguments (a
    /// money changer's, asked for every pair of cards at every decision),
    /// found without a lock or a hash map. An error is not remembered. The
    /// caller asks [`ScriptHost::remembers_reads`] once for all its pairs.
    pub fn allowed_about(
        &self,
        (def, owner): (usize, usize),
        words: &[u16],
        answer: impl FnOnce() -> Result<bool, GameError>,
    ) -> Result<bool, GameError> {
        if words.len() > 3 || def > 255 {
            return answer();
        }
        let key = words.iter().fold(def as u64, |k, &w| k << 16 | u64::from(w));
        let memo = self.allowed.get_or_init(|| FlagMemo::new(14));
        if let Some(yes) = memo.get(key) {
            self.host.count_remembered(Hook::Allowed as usize, owner);
            return Ok(yes);
        }
        let yes = answer()?;
        memo.put(key, yes);
        Ok(yes)
    }

    /// The word action `def`'s pair of arguments is offered as (`join`'s),
    /// or `None` when `allowed` (`answer`) refuses it, remembered as
    /// [`Hooks::allowed_about`] remembers it, in a table indexed by the two
    /// words where both are under [`PAIR_WORDS`] (a money changer's hand card
    /// and display card, every pair at every turn: one load each, the joined
    /// word kept beside the answer). An error is not remembered.
    pub fn allowed_pair(
        &self,
        (def, owner): (usize, usize),
        pair: [u16; 2],
        answer: impl FnOnce() -> Result<bool, GameError>,
        join: impl FnOnce() -> Result<u16, GameError>,
    ) -> Result<Option<u16>, GameError> {
        use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
        let [a, b] = pair.map(usize::from);
        if a >= PAIR_WORDS || b >= PAIR_WORDS {
            return match self.allowed_about((def, owner), &pair, answer)? {
                true => join().map(Some),
                false => Ok(None),
            };
        }
        let table = self.pairs[owner].get_or_init(|| (0..PAIR_WORDS * PAIR_WORDS).map(|_| AtomicU32::new(0)).collect());
        let slot = &table[a * PAIR_WORDS + b];
        // 0: not asked yet; else bit 0 set, bit 1 the answer, the high half the word.
        match slot.load(Relaxed) {
            0 => {
                let word = match answer()? {
                    true => Some(join()?),
                    false => None,
                };
                slot.store(word.map_or(1, |w| u32::from(w) << 16 | 3), Relaxed);
                Ok(word)
            }
            e => {
                self.host.count_remembered(Hook::Allowed as usize, owner);
                Ok((e & 2 != 0).then_some((e >> 16) as u16))
            }
        }
    }

    /// [`Hooks::allowed_pair`] for every pair of a word of `first` and one of
    /// `second`, in that order: `offer` is given the word of each pair
    /// `allowed` accepts. The table is found once for all the pairs (a money
    /// changer's thirty or so at every turn), and a pair is one load.
    pub fn allowed_pairs(
        &self,
        (def, owner): (usize, usize),
        (first, second): (&[u16], &[u16]),
        mut answer: impl FnMut([u16; 2]) -> Result<bool, GameError>,
        mut join: impl FnMut([u16; 2]) -> Result<u16, GameError>,
        mut offer: impl FnMut(u16),
    ) -> Result<(), GameError> {
        use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
        let words = || first.iter().chain(second);
        if words().any(|&w| usize::from(w) >= PAIR_WORDS) {
            for &a in first {
                for &b in second {
                    let word = self.allowed_pair((def, owner), [a, b], || answer([a, b]), || join([a, b]))?;
                    word.map(&mut offer);
                }
            }
            return Ok(());
        }
        let table = self.pairs[owner].get_or_init(|| (0..PAIR_WORDS * PAIR_WORDS).map(|_| AtomicU32::new(0)).collect());
        let mut remembered = 0;
        for &a in first {
            let row = &table[usize::from(a) * PAIR_WORDS..][..PAIR_WORDS];
            for &b in second {
                let slot = &row[usize::from(b)];
                // As in `allowed_pair`: 0 not asked yet; else bit 0 set, bit 1 the answer, the high half the word.
                let word = match slot.load(Relaxed) {
                    0 => {
                        let word = match answer([a, b])? {
                            true => Some(join([a, b])?),
                            false => None,
                        };
                        slot.store(word.map_or(1, |w| u32::from(w) << 16 | 3), Relaxed);
                        word
                    }
                    e => {
                        remembered += 1;
                        (e & 2 != 0).then_some((e >> 16) as u16)
                    }
                };
                word.map(&mut offer);
            }
        }
        for _ in 0..remembered {
            self.host.count_remembered(Hook::Allowed as usize, owner);
        }
        Ok(())
    }

    /// `owner`'s price change from building card `card` for building
    /// `target` on `slot` (`buildings` cards, `slots` slots in the ruleset),
    /// else `answer`'s, remembered: for an `on_price` that reads of `ctx` only
    /// its card's kind and the building on offer (a garden guild's, asked for
    /// every garden owned, every slot, every decision), found without a lock
    /// or a hash. An error is not remembered. The caller asks
    /// [`ScriptHost::remembers_reads`] once for all its slots.
    pub fn price_about(
        &self,
        owner: usize,
        (buildings, slots): (usize, usize),
        (card, target, slot): (usize, usize, usize),
        answer: impl FnOnce() -> Result<i32, GameError>,
    ) -> Result<i32, GameError> {
        use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
        let table = self.prices[owner]
            .get_or_init(|| (0..buildings * buildings * slots).map(|_| AtomicI32::new(PRICE_UNKNOWN)).collect());
        let at = (card * buildings + target) * slots + slot;
        match table[at].load(Relaxed) {
            PRICE_UNKNOWN => {
                let n = answer()?;
                table[at].store(n, Relaxed);
                Ok(n)
            }
            n => {
                self.host.count_remembered(Hook::Price as usize, owner);
                Ok(n)
            }
        }
    }

    /// The script host (what a test asks: which hooks take the fast path).
    pub fn script_host(&self) -> &ScriptHost {
        &self.host
    }

    /// Keeps (or stops keeping) what the scripts `print` and `debug` on this thread: a traced scenario shows it.
    pub fn listen_to_prints(&self, on: bool) {
        self.host.listen_to_prints(on);
    }

    /// What the scripts printed on this thread since the last call.
    pub fn take_prints(&self) -> Vec<String> {
        self.host.take_prints()
    }

    /// Lets a hook asked again about what it has seen answer from memory
    /// (`true`, the default) or runs it every time (`false`): what a test compares.
    pub fn set_remember_reads(&self, on: bool) {
        self.host.set_remember_reads(on);
    }

    /// Runs every script in Rhai (`true`) or lets the fast path answer what it
    /// can (`false`, the default), forgetting every remembered answer either way:
    /// what a test compares.
    pub fn set_rhai_only(&self, on: bool) {
        self.host.set_rhai_only(on);
        self.host.forget();
        for shard in self.memo.all() {
            *shard.write().unwrap_or_else(|e| e.into_inner()) = Memo::default();
        }
        self.symmetry.forget();
        if let Some(memo) = self.allowed.get() {
            memo.forget();
        }
        for table in self.pairs.iter().filter_map(std::sync::OnceLock::get) {
            for slot in table.iter() {
                slot.store(0, std::sync::atomic::Ordering::Relaxed);
            }
        }
        // The price tables too: a comparison of Rhai with the fast path must run both.
        for table in self.prices.iter().filter_map(std::sync::OnceLock::get) {
            for slot in table.iter() {
                slot.store(PRICE_UNKNOWN, std::sync::atomic::Ordering::Relaxed);
            }
        }
        for shard in self.about.all() {
            shard.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// Compiles the scoring script, the neutral collector's script, the
    /// scripts of the building types and currencies that have one (each named
    /// by its owner's name, e.g. `building type bazaar`) and the rules script.
    pub fn load(
        score: &Source,
        neutral: &Source,
        types: &[(String, Option<Source>)],
        currencies: &[(String, Option<Source>)],
        deck: &[(String, Option<Source>)],
        rules: Option<&Source>,
        actions: &[(String, Source)],
    ) -> Result<Hooks, Vec<LoadError>> {
        let mut host = ScriptHost::new(HOOKS, SCALARS, CTX_MORE, Limits::default(), |lib| {
            // `ctx.player_counter("name")`: the owner's counter of that name, 0 if never set.
            lib.function_text("player_counter", |ctx: &Map, name: &str| -> rhai::INT {
                ctx.get("player_counters")
                    .and_then(|m| m.read_lock::<Map>().and_then(|m| m.get(name).and_then(|v| v.as_int().ok())))
                    .unwrap_or(0)
            });
        });
        host.set_docs_page(DOCS_PAGE);
        host.set_owner_noun("script");
        host.set_map_keys(MAP_KEYS);
        host.set_effects(EFFECTS);
        host.set_shapes(&[("table", TABLE_SHAPE)]);
        host.set_hook_members((0..HOOKS.len()).map(|h| Some(ctx_of(h))).collect());
        let mut errors = host.add_owner("scoring", Some(score));
        errors.extend(host.add_owner("neutral collector", Some(neutral)));
        for (name, source) in types.iter().chain(currencies).chain(deck) {
            errors.extend(host.add_owner(name, source.as_ref()));
        }
        // The rules script is the last owner: every player hears its hooks.
        let first_deck = FIRST_TYPE + types.len() + currencies.len();
        let rules_owner = first_deck + deck.len();
        errors.extend(host.add_owner("the rules script", rules));
        // The actions' scripts come after it.
        let first_action = rules_owner + 1;
        for (name, source) in actions {
            errors.extend(host.add_owner(name, Some(source)));
        }
        if errors.is_empty() {
            for (owner, hook, source) in [(SCORE, SCORE, score), (NEUTRAL, NEUTRAL, neutral)] {
                if !host.listens(hook, owner) {
                    errors.push(
                        LoadError::at(
                            source,
                            Default::default(),
                            format!("the script defines no `{}`", HOOKS[hook].name),
                        )
                        .help(format!("write `fn {}(ctx) {{ … }}`: {}", HOOKS[hook].name, HOOKS[hook].doc)),
                    );
                }
            }
        }
        // Which hooks each owner may define: the ruleset's scripts their one
        // hook, a type every event and modifier, a currency taken and paid.
        let may = |owner: usize, h: usize| match owner {
            SCORE => h == SCORE,
            NEUTRAL => h == NEUTRAL,
            o if o >= first_action => ACTION_HOOKS.iter().any(|c| *c as usize == h),
            o if o < FIRST_TYPE + types.len() || o == rules_owner => {
                h > NEUTRAL && !CARD_ONLY_HOOKS.iter().any(|c| *c as usize == h)
            }
            o if o >= first_deck => DECK_HOOKS.iter().any(|c| *c as usize == h),
            _ => CURRENCY_HOOKS.iter().any(|c| *c as usize == h),
        };
        let sources: Vec<Option<&Source>> = [Some(score), Some(neutral)]
            .into_iter()
            .chain(types.iter().chain(currencies).chain(deck).map(|(_, s)| s.as_ref()))
            .chain([rules])
            .chain(actions.iter().map(|(_, s)| Some(s)))
            .collect();
        for (owner, source) in sources.iter().enumerate() {
            let Some(source) = source else { continue };
            for (h, spec) in HOOKS.iter().enumerate() {
                if host.listens(h, owner) && !may(owner, h) {
                    let allowed: Vec<&str> =
                        HOOKS.iter().enumerate().filter(|(k, _)| may(owner, *k)).map(|(_, s)| s.name).collect();
                    let what = match owner {
                        SCORE => "the scoring script".to_owned(),
                        NEUTRAL => "the neutral collector's script".to_owned(),
                        o if o < FIRST_TYPE + types.len() => types[o - FIRST_TYPE].0.clone(),
                        o if o == rules_owner => "the rules script".to_owned(),
                        o if o >= first_action => actions[o - first_action].0.clone(),
                        o if o >= first_deck => deck[o - first_deck].0.clone(),
                        o => currencies[o - FIRST_TYPE - types.len()].0.clone(),
                    };
                    // At the function in the designer's script, not at the key of the ruleset that names it.
                    let text: std::sync::Arc<str> = source.read().unwrap_or_default().into();
                    let message = format!("{what} may not define `{}`", spec.name);
                    errors.push(
                        LoadError::at_pos(source, &text, host.hook_pos(h, owner), message)
                            .help(format!("it may define: {} ({DOCS_PAGE}, Scripting)", allowed.join(", "))),
                    );
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mask = |o: usize| host.owner_mask(o);
        let type_masks: Vec<HookMask> = (0..types.len()).map(|t| mask(FIRST_TYPE + t)).collect();
        let currency_masks: Vec<HookMask> = (0..currencies.len()).map(|c| mask(FIRST_TYPE + types.len() + c)).collect();
        let deck_masks: Vec<HookMask> = (0..deck.len()).map(|d| mask(first_deck + d)).collect();
        let rules_mask = mask(rules_owner);
        let action_masks: Vec<HookMask> = (0..actions.len()).map(|a| mask(first_action + a)).collect();
        let types_union = type_masks.iter().fold(0, |m, b| m | b);
        let listening_types = (0..HOOKS.len())
            .map(|h| (0..types.len()).filter(|&t| has_hook(type_masks[t], h)).fold(0, |bits, t| bits | 1 << t))
            .collect();
        let union = type_masks
            .iter()
            .chain(&currency_masks)
            .chain(&deck_masks)
            .chain(&action_masks)
            .fold(rules_mask, |m, b| m | b);
        let member = |name: &str| CTX_MORE.iter().position(|m| *m == name);
        let owners = first_action + actions.len();
        // Per hook and owner, a bit per key of `shape` the hook reads of `ctx.<member>`
        // (every bit when it does more with the member than read its keys).
        let member_bits = |member: &str, shape: &[Shape]| -> Vec<Vec<u32>> {
            (0..HOOKS.len())
                .map(|h| {
                    (0..owners)
                        .map(|o| match host.member_keys(h, o, member) {
                            Some(keys) => keys
                                .iter()
                                .filter_map(|k| shape.iter().position(|s| s.key == k))
                                .fold(0, |bits, i| bits | 1 << i),
                            None => u32::MAX,
                        })
                        .collect()
                })
                .collect()
        };
        let table_keys = member_bits("table", TABLE_SHAPE);
        let card_keys = member_bits("card", OWNED_SHAPE);
        // Per hook and owner, a bit per key of `shape` it reads of each element of
        // `ctx.table.<list>` (each of `lists`), every bit when it takes one whole;
        // and the bits of those it only counts (none when it takes one whole).
        let element_bits = |lists: &[(&str, bool)], below: &[&str], shape: &[Shape]| {
            let bits = |keys: &[String]| {
                keys.iter().filter_map(|k| shape.iter().position(|s| s.key == k)).fold(0, |b, i| b | 1 << i)
            };
            let reads = |h: usize, o: usize| {
                lists
                    .iter()
                    .try_fold((0, 0), |(keys, counted), &(list, is_list)| {
                        let r = host.element_reads(h, o, "table", list, is_list, below)?;
                        Some((keys | bits(&r.keys), counted | bits(&r.counted)))
                    })
                    .unwrap_or((u32::MAX, 0))
            };
            let per_hook: Vec<Vec<(u32, u32)>> =
                (0..HOOKS.len()).map(|h| (0..owners).map(|o| reads(h, o)).collect()).collect();
            let pick = |f: fn(&(u32, u32)) -> u32| -> Vec<Vec<u32>> {
                per_hook.iter().map(|owners| owners.iter().map(f).collect()).collect()
            };
            (pick(|r| r.0), pick(|r| r.1))
        };
        let collectors = [("seats", true), ("neutral", false)];
        let (collector_keys, collector_counted) = element_bits(&collectors, &[], COLLECTOR_SHAPE);
        let (hand_keys, _) = element_bits(&collectors, &["hand"], HAND_SHAPE);
        let (owned_keys, _) = element_bits(&collectors, &["buildings"], OWNED_SHAPE);
        let (displayed_keys, _) = element_bits(&[("building_display", true)], &[], DISPLAYED_SHAPE);
        // The table's keys that hold for the whole game (the types, the
        // currencies, the rules): reading only those is reading a constant.
        let constant: u32 = ["types", "currencies", "rules"]
            .iter()
            .filter_map(|k| TABLE_SHAPE.iter().position(|s| s.key == *k))
            .fold(0, |bits, i| bits | 1 << i);
        let table = member("table");
        // Per owner, a bit per hook that reads of `ctx` only the members named and the table's constants.
        let reading_only = |names: [&str; 2]| -> Vec<HookMask> {
            let kept = names.map(member);
            (0..owners)
                .map(|o| {
                    let only = |h: usize| {
                        (0..CTX_MORE.len()).all(|m| {
                            kept.contains(&Some(m))
                                || !host.may_read(h, o, m)
                                || (Some(m) == table && table_keys[h][o] & !constant == 0)
                        })
                    };
                    (0..HOOKS.len()).filter(|&h| only(h)).fold(0, |bits, h| bits | hook_bit(h))
                })
                .collect()
        };
        let card_and_target_only = reading_only(["card", "target"]);
        let args_only = reading_only(["args", "action"]);
        let card_and_event_only = reading_only(["card", "event"]);
        // Per owner, a bit per hook for which `holds(hook, owner)`.
        let masks = |holds: &dyn Fn(usize, usize) -> bool| -> Vec<HookMask> {
            (0..owners)
                .map(|o| (0..HOOKS.len()).filter(|&h| holds(h, o)).fold(0, |bits, h| bits | hook_bit(h)))
                .collect()
        };
        // True when the hook reads of `ctx.<member>` only keys among `keys`.
        let reads_within = |h: usize, o: usize, member: &str, keys: &[&str]| {
            host.member_keys(h, o, member).is_some_and(|read| read.iter().all(|k| keys.contains(&k.as_str())))
        };
        // Per owner, a bit per hook that reads of `ctx.card` only what its kind
        // fixes (a building's type, id and price; a money card's currency and
        // value): two cards of a kind answer alike, whenever bought.
        let card_fixed =
            masks(&|h, o| reads_within(h, o, "card", &["type", "id", "price", "currency", "value", "name"]));
        // Per owner, a bit per hook that reads only its own seat of `ctx.table.seats`:
        // the other seats are left `()` (the reserve's `legal`, at every decision).
        let own_seat = masks(&|h, o| host.indexed_by_only(h, o, "table", "seats", "seat"));
        let table_reads = (0..table_keys.len())
            .map(|h| {
                (0..table_keys[h].len())
                    .map(|o| TableReads {
                        keys: table_keys[h][o],
                        collector: collector_keys[h][o],
                        counted: collector_counted[h][o],
                        hand: hand_keys[h][o],
                        owned: owned_keys[h][o],
                        displayed: displayed_keys[h][o],
                        own: has_hook(own_seat[o], h).then_some(0),
                    })
                    .collect()
            })
            .collect();
        // Per owner, a bit per hook that reads of `ctx.event` only its amounts
        // (`price`, `paid`): a joker's worth, the same for every building of a price.
        let event_amounts_only = masks(&|h, o| reads_within(h, o, "event", &["price", "paid"]));
        let hand_counted = masks(&|h, o| host.counted_only(h, o, "hand"));
        let event_reads: Vec<Vec<Option<engine_script::reads::KeysRead>>> =
            (0..HOOKS.len()).map(|h| (0..owners).map(|o| host.keys_read(h, o, "event")).collect()).collect();
        let event = member("event").expect("`event` is a member of every card's ctx");
        let event_keys = (0..HOOKS.len())
            .map(|h| {
                let listening = (0..owners).filter(|&o| host.listens(h, o) && host.may_read(h, o, event));
                listening.fold(0, |bits, o| match &event_reads[h][o] {
                    Some(read) => read.0.iter().fold(bits, |b, (k, _)| b | key_bit(k)),
                    None => u64::MAX,
                })
            })
            .collect();
        let mut hooks = Hooks {
            host,
            own_seat,
            event_amounts_only,
            hand_counted,
            memo: Shards::default(),
            symmetry: Symmetry::new(),
            about: KeyedMemo::default(),
            prices: (0..owners).map(|_| std::sync::OnceLock::new()).collect(),
            allowed: std::sync::OnceLock::new(),
            pairs: (0..owners).map(|_| std::sync::OnceLock::new()).collect(),
            card_and_target_only,
            target_member: member("target").expect("`target` is a member of every card's ctx"),
            args_only,
            card_and_event_only,
            card_fixed,
            table_reads,
            event_reads,
            card_keys,
            type_masks,
            listening_types,
            types_union,
            currency_masks,
            deck_masks,
            rules: (rules_owner, rules_mask),
            action_masks,
            union,
            card_prices: false,
            event_keys,
        };
        hooks.card_prices = hooks.only_card_prices();
        Ok(hooks)
    }

    /// True when no card changes the take limit or what pays, and every
    /// `on_price` (a building type's, the rules script's) is a literal or
    /// reads of `ctx` only its card's kind and the building on offer: a
    /// decision's prices are then sums of answers kept in [`Hooks::price_about`]'s table.
    #[inline]
    pub fn prices_by_card_and_target(&self) -> bool {
        self.card_prices
    }

    /// The [`key_bit`]s of the keys of `ctx.event` that some listener of `hooks`
    /// reads: an event made for them needs no other (the exile's `on_bought`
    /// reads the type alone, at every purchase of its owner).
    #[inline]
    pub fn event_keys(&self, hooks: impl IntoIterator<Item = Hook>) -> u64 {
        hooks.into_iter().fold(0, |bits, h| bits | self.event_keys[h as usize])
    }

    fn only_card_prices(&self) -> bool {
        let (take, pays, price) = (Hook::TakeLimit, Hook::Pays, Hook::Price);
        let constant = |owner: usize| self.host.constant(price as usize, owner).is_some();
        let types_priced = (0..self.type_masks.len()).filter(|&t| self.type_listens(price, t)).all(|t| {
            let o = self.type_owner(t);
            constant(o) || (self.reads_card_and_target_only(price, o) && self.reads_card_kind_only(price, o))
        });
        let rules_priced = !self.rules_listen(price)
            || constant(self.rules_owner())
            || self.reads_card_and_target_only(price, self.rules_owner());
        self.listening_types(take) == 0
            && self.listening_types(pays) == 0
            && !self.rules_listen(take)
            && !self.rules_listen(pays)
            && !(0..self.currency_masks.len()).any(|c| self.currency_listens(pays, c) || self.currency_listens(take, c))
            && types_priced
            && rules_priced
    }

    /// A bit per hook some building type or currency listens to (0: no card has a script).
    #[inline]
    pub fn listened(&self) -> HookMask {
        self.union
    }

    /// True when some card listens to one of `hooks`.
    #[inline]
    pub fn any_listens(&self, hooks: impl IntoIterator<Item = Hook>) -> bool {
        let bits = hooks.into_iter().fold(0, |m, h| m | hook_bit(h as usize));
        self.union & bits != 0
    }

    /// True when building type `t`'s script defines `hook`.
    #[inline]
    pub fn type_listens(&self, hook: Hook, t: usize) -> bool {
        self.type_masks.get(t).is_some_and(|&m| has_hook(m, hook as usize))
    }

    /// A bit per building type whose script defines `hook`.
    #[inline]
    pub fn listening_types(&self, hook: Hook) -> u32 {
        self.listening_types[hook as usize]
    }

    /// True when some building type's script defines `hook`.
    #[inline]
    pub fn types_listen(&self, hook: Hook) -> bool {
        has_hook(self.types_union, hook as usize)
    }

    /// True when currency `c`'s script defines `hook`.
    #[inline]
    pub fn currency_listens(&self, hook: Hook, c: usize) -> bool {
        self.currency_masks.get(c).is_some_and(|&m| has_hook(m, hook as usize))
    }

    /// True when deck card `d`'s script defines `hook`.
    #[inline]
    pub fn deck_listens(&self, hook: Hook, d: usize) -> bool {
        self.deck_masks.get(d).is_some_and(|&m| has_hook(m, hook as usize))
    }

    /// The script owner of deck card `d`.
    pub fn deck_owner(&self, d: usize) -> usize {
        FIRST_TYPE + self.type_masks.len() + self.currency_masks.len() + d
    }

    /// True when the rules script defines `hook`.
    #[inline]
    pub fn rules_listen(&self, hook: Hook) -> bool {
        has_hook(self.rules.1, hook as usize)
    }

    /// True when action `a`'s script defines `hook`.
    #[inline]
    pub fn action_listens(&self, hook: Hook, a: usize) -> bool {
        self.action_masks.get(a).is_some_and(|&m| has_hook(m, hook as usize))
    }

    /// The script owner of action `a`.
    pub fn action_owner(&self, a: usize) -> usize {
        self.rules.0 + 1 + a
    }

    /// The rules script's owner number.
    pub fn rules_owner(&self) -> usize {
        self.rules.0
    }

    /// The script owner of building type `t`.
    pub fn type_owner(&self, t: usize) -> usize {
        FIRST_TYPE + t
    }

    /// The script owner of money script `c` (a currency's, then a money card's).
    pub fn currency_owner(&self, c: usize) -> usize {
        FIRST_TYPE + self.type_masks.len() + c
    }

    /// True when `owner`'s `hook` may read `ctx` member `CTX_MORE[member]`.
    pub fn may_read(&self, hook: Hook, owner: usize, member: usize) -> bool {
        self.host.may_read(hook as usize, owner, member)
    }

    /// True when some owner's `hook` may read `ctx` member `CTX_MORE[member]`.
    pub fn some_may_read(&self, hook: Hook, member: usize) -> bool {
        self.host.hook_may_read(hook as usize, member)
    }

    /// A card's hook returned what its contract does not allow: an error at the hook.
    pub fn bad_card_return(&self, hook: Hook, owner: usize, what: &str) -> GameError {
        GameError::from(self.host.bad_return(hook as usize, owner, what))
    }

    /// The points of scoring `scoring` for building type `kind`: `counts` per
    /// collector, `ranks` the points per rank for the type.
    ///
    /// Remembered per scoring, type and counts. When the script scores
    /// collectors by their counts alone (same counts in another order, same
    /// points in that order: checked once per scoring, type and number of
    /// collectors), the counts are remembered sorted, so one answer serves
    /// every seat order; a script that tells collectors apart by position is
    /// remembered per order instead.
    pub fn points(
        &self,
        scoring: usize,
        kind: usize,
        counts: &[u8],
        ranks: &[i32],
        needs_building: bool,
    ) -> Result<[i32; MAX_COLLECTORS], GameError> {
        let n = counts.len();
        let mut key =
            ScoreKey { scoring: scoring as u8, kind: kind as u8, collectors: n as u8, counts: [0; MAX_COLLECTORS] };
        key.counts[..n].copy_from_slice(counts);
        let asked = key.packed();
        let memo = self.memo.mine();
        // A poisoned lock only means another thread panicked mid-insert; the map is still sound.
        if let Some(p) = memo.read().unwrap_or_else(|e| e.into_inner()).recent.get(asked) {
            self.host.count_remembered(SCORE, SCORE);
            return Ok(p);
        }
        let symmetric = match self.symmetry.slot(&key).load(std::sync::atomic::Ordering::Relaxed) {
            UNPROBED => self.symmetric(key, ranks, needs_building)?,
            known => known == SYMMETRIC,
        };
        let mut order = [0u8; MAX_COLLECTORS];
        if symmetric {
            sort_counts(&mut key, &mut order, counts);
        }
        let remembered = memo.read().unwrap_or_else(|e| e.into_inner()).points.get(&key).copied();
        let sorted = match remembered {
            Some(p) => {
                self.host.count_remembered(SCORE, SCORE);
                p
            }
            None => {
                let p = self.call_score(&key.counts[..n], ranks, needs_building)?;
                let mut memo = memo.write().unwrap_or_else(|e| e.into_inner());
                if memo.points.len() < MEMO_CAPACITY {
                    memo.points.insert(key, p);
                }
                p
            }
        };
        let points = if symmetric {
            let mut points = [0i32; MAX_COLLECTORS];
            for (j, &c) in order[..n].iter().enumerate() {
                points[c as usize] = sorted[j];
            }
            points
        } else {
            sorted
        };
        memo.write().unwrap_or_else(|e| e.into_inner()).recent.put(asked, points);
        Ok(points)
    }

    /// Whether the scoring script gives `key`'s scoring, type and number of
    /// collectors points by count alone, whatever the order: probed once on a
    /// few count vectors, each against a rotation and a swap of its first two
    /// (which together reach every order).
    fn symmetric(&self, key: ScoreKey, ranks: &[i32], needs_building: bool) -> Result<bool, GameError> {
        let n = usize::from(key.collectors);
        let mut symmetric = n > 1;
        // Counts all different, with ties, and with zeros (which may not rank).
        let patterns: [fn(usize) -> u8; 3] =
            [|i| ((i * 7 + 3) % 10) as u8, |i| (i % 3) as u8 * 2, |i| ((i * i + 1) % 4) as u8];
        'probe: for pattern in patterns {
            if !symmetric {
                break;
            }
            let mut base = [0u8; MAX_COLLECTORS];
            for (i, c) in base[..n].iter_mut().enumerate() {
                *c = pattern(i);
            }
            let base = &base[..n];
            let at_base = self.call_score(base, ranks, needs_building)?;
            let moves: [&dyn Fn(usize) -> usize; 2] = [&|i| (i + 1) % n, &|i| if i < 2 { 1 - i } else { i }];
            for to in moves {
                // Collector i's count goes to seat to(i); its points must follow it.
                let mut moved = [0u8; MAX_COLLECTORS];
                for (i, &c) in base.iter().enumerate() {
                    moved[to(i)] = c;
                }
                let at_moved = self.call_score(&moved[..n], ranks, needs_building)?;
                if (0..n).any(|i| at_moved[to(i)] != at_base[i]) {
                    symmetric = false;
                    break 'probe;
                }
            }
        }
        let known = if symmetric { SYMMETRIC } else { ORDERED };
        self.symmetry.slot(&key).store(known, std::sync::atomic::Ordering::Relaxed);
        Ok(symmetric)
    }

    /// One call of the scoring script, its answer checked.
    fn call_score(
        &self,
        counts: &[u8],
        ranks: &[i32],
        needs_building: bool,
    ) -> Result<[i32; MAX_COLLECTORS], GameError> {
        let mut ctx = Map::new();
        ctx.insert("counts".into(), Dynamic::from_array(counts.iter().map(|&c| Dynamic::from(i32::from(c))).collect()));
        ctx.insert("ranks".into(), Dynamic::from_array(ranks.iter().map(|&r| Dynamic::from(r)).collect()));
        ctx.insert("needs_building".into(), Dynamic::from(needs_building));
        let value = self.host.call(SCORE, SCORE, Dynamic::from_map(ctx))?.unwrap_or(Dynamic::UNIT);
        let bad = |what: String| GameError::from(self.host.bad_return(SCORE, SCORE, &what));
        let type_name = value.type_name();
        let array: Array =
            value.try_cast::<Array>().ok_or_else(|| bad(format!("returned a {type_name}, expected an array")))?;
        if array.len() != counts.len() {
            return Err(bad(format!("returned {} points for {} collectors", array.len(), counts.len())));
        }
        let mut points = [0i32; MAX_COLLECTORS];
        for (i, v) in array.into_iter().enumerate() {
            points[i] = as_int_in(v, Some((0, 100_000))).map_err(|e| bad(format!("entry {i} {e}")))?;
        }
        Ok(points)
    }

    /// How many building cards the neutral collector draws from a deck of `deck`.
    pub fn neutral_draws(&self, deck: u32, cards: u32, share: u32) -> Result<u32, GameError> {
        let clamp = |n: u32| n.min(i32::MAX as u32) as i32;
        let ctx = NeutralCtx { deck: clamp(deck), cards: clamp(cards), share: clamp(share) };
        let scalar = |c: &NeutralCtx, i: usize| Some([c.deck, c.cards, c.share][i]);
        let wrap = |c: NeutralCtx| {
            let mut m = Map::new();
            m.insert("deck".into(), Dynamic::from(c.deck));
            m.insert("cards".into(), Dynamic::from(c.cards));
            m.insert("share".into(), Dynamic::from(c.share));
            Dynamic::from_map(m)
        };
        let value = self.host.call_memo(NEUTRAL, NEUTRAL, ctx, scalar, wrap)?.unwrap_or(Dynamic::UNIT);
        let n = as_int_in(value, HOOKS[NEUTRAL].range).map_err(|e| self.host.bad_return(NEUTRAL, NEUTRAL, &e))?;
        Ok(n as u32)
    }
}
