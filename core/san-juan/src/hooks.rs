//! The hooks San Juan raises, the read-only context a script sees, and how
//! each hook's return value is read.
//!
//! A card's script implements a hook by defining a function of the same name
//! taking one parameter, `ctx`. A hook may return `()` for "nothing".
//! Within one hook, owners are called in card `order` (lower first), then in
//! the order the buildings were built.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};

pub use engine_script::results::{as_bool, as_int, as_int_in, as_map, map_int_in, with_map};
use rhai::{Array, Dynamic, ImmutableString, Map};

use crate::cards::{CardIdx, CardTable};
use crate::script::{HookSpec, ScriptHost, Shape, fast::Registrar};

/// Hook ids; the index into [`HOOKS`].
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Hook {
    RoundStart,
    HandLimit,
    Privilege,
    BuildOptions,
    BuildCost,
    CoveredCost,
    Build,
    OtherBuild,
    AnyBuild,
    BuilderEnd,
    Produce,
    Produced,
    Sell,
    Sold,
    TraderEnd,
    CouncilStart,
    Council,
    Prospect,
    Reveal,
    RoundEnd,
    Score,
    Role,
    OtherRole,
    AnyRole,
    PhaseStart,
    PhaseEnd,
    TurnStart,
    GameEnd,
    Choice,
    OtherBuildCost,
    OtherHandLimit,
    OtherProduce,
    OtherSell,
    OtherProduced,
    AnyProduced,
    OtherSold,
    AnySold,
    OtherTurnStart,
    AnyTurnStart,
    TurnEnd,
    OtherTurnEnd,
    AnyTurnEnd,
    NewRound,
    Drew,
    OtherDrew,
    AnyDrew,
    Discarded,
    OtherDiscarded,
    AnyDiscarded,
    Tucked,
    OtherTucked,
    AnyTucked,
    GoodPlaced,
    OtherGoodPlaced,
    AnyGoodPlaced,
    GoodRemoved,
    OtherGoodRemoved,
    AnyGoodRemoved,
    CounterChanged,
    OtherCounterChanged,
    AnyCounterChanged,
    Payment,
    CardValue,
    SalePrice,
    Targeted,
    Legal,
    Allowed,
    Action,
}

/// Every hook, in [`Hook`] order, with its contract.
pub static HOOKS: &[HookSpec] = &[
    HookSpec {
        name: "on_round_start",
        effects: false,
        results: &["tuck", "exchange"],
        arity: 1,
        range: None,
        doc: "called at the start of every round after the first, per owner, before the hand limit; \
              return () or an offer map: #{ tuck: n } (put up to n hand cards under this building) \
              or #{ exchange: n } (discard up to n hand cards, then draw as many)",
    },
    HookSpec {
        name: "on_hand_limit",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 200)),
        doc: "called when the hand limit is checked at round start; return the hand limit this \
              building allows (an integer); the owner's limit is the largest of these and the ruleset's",
    },
    HookSpec {
        name: "on_privilege",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((1, 10)),
        doc: "called when the owner chooses a role; return the factor the privilege is multiplied by \
              (an integer; the largest factor counts)",
    },
    HookSpec {
        name: "on_build_options",
        effects: false,
        results: &["overbuild", "overbuild_except", "goods_as_cards", "goods_of", "build_from"],
        arity: 1,
        range: None,
        doc: "called at the start of the owner's builder turn; return a map with any of \
              overbuild: bool (may build over an own building), overbuild_except: [card ids] \
              (buildings that may not be built over), goods_as_cards: n (pay with up to n goods), \
              goods_of: [seats] (the goods of these other seats may pay too, 1 card each), \
              build_from: [zones] (zones besides the hand and the public cards the owner may build from: \
              \"reserve\")",
    },
    HookSpec {
        name: "on_build_cost",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called for each building the owner could build (ctx.target, ctx.over); return the \
              discount (an integer); the cost never falls below 0",
    },
    HookSpec {
        name: "on_covered_cost",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called for the building about to be built over (ctx.target is the new building); \
              return a further discount (a covered building's other hooks no longer count)",
    },
    HookSpec {
        name: "on_build",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called after the owner built and paid (ctx.target is the new building, ctx.hand the \
              cards left); return the number of cards to draw",
    },
    HookSpec {
        name: "on_other_build",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called for each building of every other player after a player built and paid \
              (ctx.actor is the builder's seat, ctx.target the new building); return the number \
              of cards the owner draws",
    },
    HookSpec {
        name: "on_any_build",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player, the builder's first, after a player built and \
              paid (ctx.actor is the builder's seat, ctx.target the new building); return the number of \
              cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_builder_end",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called at the end of every builder phase, before new buildings start to work; \
              return the number of cards to draw",
    },
    HookSpec {
        name: "on_produce",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called before the owner produces; return how many more goods the owner may produce",
    },
    HookSpec {
        name: "on_produced",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called after the owner produced ctx.produced goods; return the number of cards to draw",
    },
    HookSpec {
        name: "on_sell",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called before the owner sells; return how many more goods the owner may sell",
    },
    HookSpec {
        name: "on_sold",
        effects: true,
        results: &["draw", "tuck_sold"],
        arity: 1,
        range: Some((0, 20)),
        doc: "called after the owner sold ctx.sold goods; return the number of cards to draw, a \
              map #{ draw: n, tuck_sold: n } (tuck_sold: sold goods that go under this building \
              instead of the discard pile), or effects",
    },
    HookSpec {
        name: "on_trader_end",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called at the end of every trader phase (ctx.total_sold: goods sold by all players); \
              return the number of cards to draw",
    },
    HookSpec {
        name: "on_council_start",
        effects: false,
        results: &[],
        arity: 1,
        range: None,
        doc: "called at the start of every councillor phase, per owner; return true to put the top \
              card of the draw pile on this building as a good (if it has none)",
    },
    HookSpec {
        name: "on_council",
        effects: false,
        results: &["draw", "keep", "from_hand"],
        arity: 1,
        range: None,
        doc: "called before the owner draws in the councillor phase; return a map with any of \
              draw: n (more cards), keep: n (keep more), from_hand: bool (drawn cards go to the hand \
              and the discards may come from the whole hand)",
    },
    HookSpec {
        name: "on_prospect",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called in the prospector phase after the privilege, per owner clockwise from the \
              prospector; return the number of cards to reveal from the draw pile",
    },
    HookSpec {
        name: "on_reveal",
        effects: false,
        results: &[],
        arity: 1,
        range: None,
        doc: "called with the cards this building revealed (ctx.revealed); return an array of the \
              card ids the owner may keep one of (empty: all are discarded)",
    },
    HookSpec {
        name: "on_round_end",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called at the end of every round that the game outlasts, per owner from the governor \
              (ctx.hand_sizes: every player's hand size, by seat); return the number of cards to draw",
    },
    HookSpec {
        name: "on_score",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((-100, 200)),
        doc: "called at game end, in card order (ctx.subtotal: the owner's points so far); return \
              the victory points this building adds",
    },
    HookSpec {
        name: "on_role",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when the owner chooses a role (ctx.role), after the privilege boost; return the \
              number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_other_role",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when another player chooses a role (ctx.role; ctx.actor is the chooser), per \
              owner from the chooser's left; return the number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_any_role",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when any player chooses a role (ctx.role; ctx.actor is the chooser), per owner \
              from the chooser; return the number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_phase_start",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when every phase starts (ctx.role; ctx.actor is the chooser), per owner from the \
              chooser, before anyone's turn; return the number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_phase_end",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when every phase ends (ctx.role; ctx.actor is the chooser), per owner from the \
              chooser, after the last turn; return the number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_turn_start",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called at the start of the owner's own turn in every phase (ctx.role), before the turn \
              is worked out; return the number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_game_end",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called once when the game ends, per owner from the governor, before scoring; return the \
              number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_choice",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when a choice this building asked for is answered (ctx.choice: the option, or \
              ctx.chosen: the cards; ctx.actor: who chose); return the number of cards to draw, or effects",
    },
    HookSpec {
        name: "on_other_build_cost",
        arity: 1,
        effects: false,
        results: &[],
        range: Some((-20, 20)),
        doc: "called for each building another player could build (ctx.actor is the builder, \
              ctx.target, ctx.over); return a discount for them (negative: they pay more)",
    },
    HookSpec {
        name: "on_other_hand_limit",
        arity: 1,
        effects: false,
        results: &[],
        range: Some((-20, 20)),
        doc: "called when another player's hand limit is checked (ctx.actor is that player); return \
              what to add to their limit (negative: fewer cards)",
    },
    HookSpec {
        name: "on_other_produce",
        arity: 1,
        effects: false,
        results: &[],
        range: Some((-20, 20)),
        doc: "called before another player produces (ctx.actor); return how many more goods they may \
              produce (negative: fewer)",
    },
    HookSpec {
        name: "on_other_sell",
        arity: 1,
        effects: false,
        results: &[],
        range: Some((-20, 20)),
        doc: "called before another player sells (ctx.actor); return how many more goods they may \
              sell (negative: fewer)",
    },
    HookSpec {
        name: "on_other_produced",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after a player produced (ctx.actor; \
              ctx.produced goods; ctx.event.goods the buildings that produced); return the number of \
              cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_produced",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player, the producer's first, after a player produced \
              (ctx.actor; ctx.produced goods; ctx.event.goods the buildings that produced); return the \
              number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_sold",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after a player sold (ctx.actor; ctx.sold \
              goods; ctx.event.goods the buildings sold from, ctx.event.prices what each brought); return \
              the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_sold",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player, the seller's first, after a player sold \
              (ctx.actor; ctx.sold goods; ctx.event.goods, ctx.event.prices); return the number of cards \
              the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_turn_start",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called at the start of another player's turn in every phase (ctx.actor; ctx.event.role), per owner from that player's left; return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_turn_start",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called at the start of every player's turn in every phase (ctx.actor; ctx.event.role), that player's buildings first; return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_turn_end",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after the owner's turn in a phase ended (ctx.event.role); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_turn_end",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after another player's turn in a phase ended, from that player's left (ctx.actor; ctx.event.role); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_turn_end",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after any player's turn in a phase ended, that player's first (ctx.actor; ctx.event.role); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_new_round",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called when a new round starts, after the governor passed and before the round-start offers and hand limits, per owner from the governor (ctx.actor: the governor; ctx.event.round); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_drew",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after the owner drew cards into the hand (ctx.event.n cards, ctx.event.why, ctx.event.by: the building that caused it or ()); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_drew",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after another player drew cards into the hand, from that player's left (ctx.actor; ctx.event.n cards, ctx.event.why, ctx.event.by: the building that caused it or ()); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_drew",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after any player drew cards into the hand, that player's first (ctx.actor; ctx.event.n cards, ctx.event.why, ctx.event.by: the building that caused it or ()); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_discarded",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after the owner discarded cards from the hand or from the cards it drew to choose from (ctx.event.n, ctx.event.why: hand_limit, build, councillor, exchange, building, setup; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_discarded",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after another player discarded cards from the hand or from the cards it drew to choose from, from that player's left (ctx.actor; ctx.event.n, ctx.event.why: hand_limit, build, councillor, exchange, building, setup; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_discarded",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after any player discarded cards from the hand or from the cards it drew to choose from, that player's first (ctx.actor; ctx.event.n, ctx.event.why: hand_limit, build, councillor, exchange, building, setup; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_tucked",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after the owner put cards under one of its buildings (ctx.event.n, ctx.event.building, ctx.event.why: hand or sold); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_tucked",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after another player put cards under one of its buildings, from that player's left (ctx.actor; ctx.event.n, ctx.event.building, ctx.event.why: hand or sold); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_tucked",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after any player put cards under one of its buildings, that player's first (ctx.actor; ctx.event.n, ctx.event.building, ctx.event.why: hand or sold); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_good_placed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after a good went on one of the owner's buildings (ctx.event.building, ctx.event.why: produced, council, building; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_good_placed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after a good went on one of another player's buildings, from that player's left (ctx.actor; ctx.event.building, ctx.event.why: produced, council, building; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_good_placed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after a good went on one of any player's buildings, that player's first (ctx.actor; ctx.event.building, ctx.event.why: produced, council, building; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_good_removed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after a good left one of the owner's buildings (ctx.event.building, ctx.event.why: sold, spent, covered, building, moved; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_good_removed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after a good left one of another player's buildings, from that player's left (ctx.actor; ctx.event.building, ctx.event.why: sold, spent, covered, building, moved; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_good_removed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after a good left one of any player's buildings, that player's first (ctx.actor; ctx.event.building, ctx.event.why: sold, spent, covered, building, moved; ctx.event.by); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_counter_changed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each of the owner's buildings after a counter of the owner changed (ctx.event.building or ctx.event.counter (a named counter), ctx.event.from, ctx.event.to); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_other_counter_changed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every other player after a counter of another player changed, from that player's left (ctx.actor; ctx.event.building or ctx.event.counter (a named counter), ctx.event.from, ctx.event.to); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_any_counter_changed",
        arity: 1,
        effects: true,
        results: &[],
        range: Some((0, 20)),
        doc: "called for each building of every player after a counter of any player changed, that player's first (ctx.actor; ctx.event.building or ctx.event.counter (a named counter), ctx.event.from, ctx.event.to); return the number of cards the owner draws, or effects",
    },
    HookSpec {
        name: "on_payment",
        effects: false,
        results: &["goods_as_cards", "min_goods", "refuse"],
        arity: 1,
        range: None,
        doc: "called for the building being built (ctx.card == ctx.target, from the hand or the display) and \
              for each of the builder's working buildings (ctx.target the building being built, ctx.over the \
              one covered); return a map with any of goods_as_cards: n (up to n more of the builder's goods \
              may pay, 1 card each), min_goods: n (at least n goods must pay, or all of a smaller cost; \
              without them the building cannot be built), refuse: \"reason\" (the building cannot be built \
              now, for this reason)",
    },
    HookSpec {
        name: "on_card_value",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called for each hand card the owner could pay for a building with (ctx.paying the card, \
              ctx.target the building); return how many cards of the cost it pays (the largest answer of \
              the owner's buildings counts, 1 without one; no change is given)",
    },
    HookSpec {
        name: "on_sale_price",
        effects: false,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "called for each good sold from this building (ctx.table.tile: the trading tile turned up); \
              return the price in cards (instead of the tile's or the card's fixed_price)",
    },
    HookSpec {
        name: "on_targeted",
        effects: false,
        results: &["cancel"],
        arity: 1,
        range: None,
        doc: "called for each of the owner's working buildings before an effect of a building of another \
              player's reaches the owner (ctx.event.effect the effect's name, ctx.event.by the building, \
              ctx.event.actor its owner, ctx.event.seat the owner's seat); return #{ cancel: true } to drop \
              that effect, or ()",
    },
    HookSpec {
        name: "legal",
        effects: false,
        results: &[],
        arity: 1,
        range: None,
        doc: "an action's script ([[action]]): called at each decision the action is offered at, for the seat \
              deciding; return the list of the arguments it may give the verb now: an entry is () (no argument), \
              a card id, a number, a Card, or a list of at most two of them (empty: not offered)",
    },
    HookSpec {
        name: "allowed",
        effects: false,
        results: &[],
        arity: 1,
        range: None,
        doc: "an action's script whose [[action]] names `args` kinds: called for each combination of \
              candidates (ctx.args); return true to offer it",
    },
    HookSpec {
        name: "on_action",
        effects: true,
        results: &[],
        arity: 1,
        range: Some((0, 20)),
        doc: "an action's script: called when the seat takes the action (ctx.action its id, ctx.args its \
              arguments, card ids as written); return the number of cards to draw, or effects",
    },
];

/// The context properties that are plain values, in [`Ctx::scalar`] order. A hook
/// that reads nothing else is remembered by their values (see `ScriptHost::call_memo`).
pub static SCALARS: &[&str] = &[
    "card",
    "seat",
    "players",
    "round",
    "role",
    "privileged",
    "hand",
    "goods",
    "target",
    "over",
    "produced",
    "sold",
    "total_sold",
    "uses",
    "under",
    "subtotal",
    "actor",
    "counter",
    "paying",
    "covered_by",
];

/// Members of [`CTX_MORE`] answered from the seat's own city alone, which the
/// game keys exactly ([`Game::keyed_member`](crate::Game)): a scoring script
/// that counts a city's kinds or tags is remembered per city, not run for
/// every position a bot looks at.
pub static KEYED: &[&str] = &["count_kind", "count_tag", "count_types"];

/// Members of [`CTX_MORE`] that read the cities' cards and nothing else, which
/// the game gives the script host as lists ([`Game::city_lists`](crate::Game)):
/// a scoring script that walks a city is remembered per cities, not run for
/// every position a bot looks at.
pub static LISTED: &[&str] = &["buildings", "others", "built_by_anyone", "building_counts"];

/// The `ctx` members only some hooks are given, with those hooks: anywhere
/// else they are always `()`, and `check` says so where a script reads one.
static ONLY_IN: &[(&str, &[Hook])] = &[
    ("action", &[Hook::Legal, Hook::Allowed, Hook::Action]),
    ("args", &[Hook::Allowed, Hook::Action]),
    ("target_from", &[Hook::BuildCost, Hook::OtherBuildCost]),
    ("paying", &[Hook::CardValue]),
    ("covered_by", &[Hook::Score]),
    // The building being built (or paid for) and the one it covers: only where a build is priced or heard.
    ("target", BUILD_HOOKS),
    ("over", BUILD_HOOKS),
    // An answer and the tag its question carried: only `on_choice` hears one.
    ("choice", &[Hook::Choice]),
    ("tag", &[Hook::Choice]),
];

/// The hooks given `ctx.target` and `ctx.over`: a building priced, paid for or built.
const BUILD_HOOKS: &[Hook] = &[
    Hook::BuildCost,
    Hook::OtherBuildCost,
    Hook::CoveredCost,
    Hook::Payment,
    Hook::CardValue,
    Hook::Build,
    Hook::OtherBuild,
    Hook::AnyBuild,
];

/// Per hook, in [`Hook`] order, the `ctx` members it is given (for `check`).
pub fn hook_members() -> Vec<Option<&'static [&'static str]>> {
    static MEMBERS: OnceLock<Vec<&'static [&'static str]>> = OnceLock::new();
    let members = MEMBERS.get_or_init(|| {
        (0..HOOKS.len())
            .map(|h| {
                let given = |m: &&str| {
                    ONLY_IN
                        .iter()
                        .find(|(name, _)| name == m)
                        .is_none_or(|(_, hooks)| hooks.iter().any(|&k| k as usize == h))
                };
                let list: Vec<&'static str> = SCALARS.iter().chain(CTX_MORE).copied().filter(given).collect();
                &*Vec::leak(list)
            })
            .collect()
    });
    members.iter().map(|&m| Some(m)).collect()
}

/// The index of `table` in [`CTX_MORE`]: the costly part of a context.
pub const CTX_TABLE: usize = 7;
/// The index of `event` in [`CTX_MORE`].
pub const CTX_EVENT: usize = 8;
/// The index of `hand_cards` in [`CTX_MORE`].
pub const CTX_HAND_CARDS: usize = 9;

/// The index of `hand_sizes` in [`CTX_MORE`].
pub const CTX_HAND_SIZES: usize = 3;
/// The members of [`CTX_MORE`] that read the cities (`ScriptCtx::buildings`).
pub const CITY_MEMBERS: [usize; 7] = [1, 2, 12, 13, 14, 15, 16];

/// The properties and methods of `ctx` beyond [`SCALARS`] (lists and methods),
/// for `check`'s "no such property".
pub static CTX_MORE: &[&str] = &[
    "revealed",
    "buildings",
    "others",
    "hand_sizes",
    "choice",
    "chosen",
    "roles_chosen",
    "table",
    "event",
    "hand_cards",
    "tag",
    "player_counter",
    "count_kind",
    "count_tag",
    "built_by_anyone",
    "building_counts",
    "count_types",
    "target_from",
    "action",
    "args",
];

/// Where a building to be built comes from (`ctx.target_from`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BuildFrom {
    /// The builder's hand.
    #[default]
    Hand,
    /// The public cards beside the roles.
    Public,
    /// The builder's reserve (an `on_build_options` `build_from`).
    Reserve,
}

impl BuildFrom {
    /// The zone's name, as `ctx.target_from` says it.
    pub fn name(self) -> &'static str {
        match self {
            BuildFrom::Hand => "hand",
            BuildFrom::Public => "public",
            BuildFrom::Reserve => "reserve",
        }
    }
}

/// A card as a script sees it: `card.id`, `card.kind`, `card.cost`, `card.vp`, `card.good`, `card.tags`.
#[derive(Clone)]
pub struct Card {
    table: Arc<CardTable>,
    idx: CardIdx,
}

impl Card {
    /// The card's index in the card table.
    pub(crate) fn idx(&self) -> CardIdx {
        self.idx
    }

    /// The card's id.
    pub(crate) fn id(&self) -> String {
        self.table.id(self.idx).to_owned()
    }

    fn new(table: &Arc<CardTable>, idx: CardIdx) -> Self {
        Card { table: Arc::clone(table), idx }
    }
}

/// What a hook knows: the owner's situation and the game's public facts, as
/// plain values (cheap to make; a remembered hook is looked up by them).
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// The building whose script runs.
    pub card: CardIdx,
    /// The owner's seat.
    pub seat: usize,
    /// Number of players.
    pub players: usize,
    /// Round number, from 1.
    pub round: u32,
    /// The role of the current phase (`builder`, …) or "".
    pub role: &'static str,
    /// The owner chose the current role.
    pub privileged: bool,
    /// Cards in the owner's hand.
    pub hand: i32,
    /// The owner's goods.
    pub goods: i32,
    /// The building being built.
    pub target: Option<CardIdx>,
    /// The building being built over.
    pub over: Option<CardIdx>,
    /// Goods the owner produced this phase.
    pub produced: i32,
    /// Goods the owner sold this phase.
    pub sold: i32,
    /// Goods all players sold this phase.
    pub total_sold: i32,
    /// Times this building's offer was taken.
    pub uses: i32,
    /// Cards under this building.
    pub under: i32,
    /// Points so far (scoring only).
    pub subtotal: i32,
    /// The seat whose action the hook answers: the owner's own, except in
    /// hooks about another player's action (`on_other_build`: the builder).
    pub actor: usize,
    /// This building's counter.
    pub counter: i32,
    /// The hand card offered as payment (`on_card_value`).
    pub paying: Option<CardIdx>,
    /// The building on top of this one when it is covered (`on_score`).
    pub covered_by: Option<CardIdx>,
    /// Where the building being built comes from (`on_build_cost`, `on_other_build_cost`): `None` elsewhere.
    pub target_from: Option<BuildFrom>,
}

/// The `ctx` a script receives: the plain facts plus the lists (cards, cities,
/// revealed cards) it may walk. Made only when a script really runs.
#[derive(Clone)]
pub struct ScriptCtx {
    /// The plain facts.
    pub facts: Ctx,
    /// The card table.
    pub table: Arc<CardTable>,
    /// Buildings in play, per seat: made only for a hook that may read a city
    /// ([`CITY_MEMBERS`]).
    pub buildings: Option<Arc<Vec<Vec<CardIdx>>>>,
    /// Cards in each player's hand, by seat (public: everyone sees hand sizes):
    /// made only for a hook that may read `hand_sizes`.
    pub hand_sizes: Option<Arc<Vec<i32>>>,
    /// The owner's counters by name.
    pub counters: Arc<Vec<(Arc<str>, i32)>>,
    /// The roles the owner chose so far this game, a bit per role.
    pub roles_chosen: u8,
    /// The whole public table and the owner's hand (`ctx.table`, `ctx.hand_cards`):
    /// made only for a hook that may read them.
    pub view: Option<Arc<TableFacts>>,
    /// Cards this building revealed.
    pub revealed: Option<Arc<Vec<CardIdx>>>,
    /// The answer to this building's choice (`on_choice`): an option or cards.
    pub choice: Option<Answer>,
    /// What the asking effect wrote as its `tag` (`on_choice`).
    pub tag: Tag,
    /// The event an event hook hears (`ctx.event`); `None` in the other hooks.
    pub event: Option<Arc<EventFacts>>,
    /// An action's id and arguments (`ctx.action`, `ctx.args`), in its script's hooks.
    pub act: Option<Arc<(ImmutableString, Array)>>,
    /// What `ctx.table.players` holds: only what the hook reads of it.
    pub parts: TableParts,
}

/// What a table made for a hook holds of its seats: the keys the hook reads
/// of each seat and of each building (a bit per key of the seat's and the
/// building's shape), and only the owner's seat when it reads no other (the
/// others are `()`). It cannot tell the difference, and a founders' hall
/// that reads the rounds of its owner's buildings is not given every key of
/// every building in play at each call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableParts {
    /// A bit per key of a seat made.
    pub seat: u32,
    /// A bit per key of a building made.
    pub building: u32,
    /// The one seat made, when the hook reads no other.
    pub own: Option<usize>,
}

impl TableParts {
    /// Every seat, whole.
    pub const ALL: TableParts = TableParts { seat: u32::MAX, building: u32::MAX, own: None };

    /// True when seat `seat` is made.
    pub fn has_seat(&self, seat: usize) -> bool {
        self.own.is_none_or(|own| own == seat)
    }
}

/// One building in play as every player sees it.
#[derive(Clone, Debug)]
pub struct SlotFacts {
    /// The building.
    pub card: CardIdx,
    /// It holds a good (which card is the good stays hidden).
    pub good: bool,
    /// Cards under it (face down: only their number).
    pub under: i32,
    /// Its counter.
    pub counter: i32,
    /// The round it was built in (0: at setup, or placed by a scenario).
    pub built: u32,
    /// The buildings it covers (a crane's), oldest first.
    pub covered: Vec<CardIdx>,
    /// Its functions work (from the end of the builder phase it was built in).
    pub working: bool,
}

/// One seat as every player sees it.
#[derive(Clone, Debug, Default)]
pub struct SeatFacts {
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the reserve (face up), in the order reserved.
    pub reserve: Vec<CardIdx>,
    /// Buildings in play, in the order built.
    pub city: Vec<SlotFacts>,
    /// Named counters.
    pub counters: Arc<Vec<(Arc<str>, i32)>>,
    /// The roles chosen so far this game, a bit per role.
    pub roles_chosen: u8,
}

/// The public table when a hook runs, plus what the owner alone may see (its hand).
#[derive(Clone, Debug)]
pub struct TableFacts {
    /// Every seat, by seat number.
    pub seats: Vec<SeatFacts>,
    /// The owner's hand.
    pub own_hand: Vec<CardIdx>,
    /// Cards in the draw pile.
    pub deck: i32,
    /// Cards in the discard pile.
    pub discard: i32,
    /// The governor's seat.
    pub governor: usize,
    /// Per role (in table order), who chose it this round.
    pub chosen_by: [Option<usize>; 5],
    /// The same for every earlier round, oldest first (a seat, or 255: nobody).
    pub earlier_rounds: Arc<Vec<[u8; 5]>>,
    /// The seat that chose the current phase's role.
    pub chooser: Option<usize>,
    /// The ruleset's `[rules]` numbers as a map.
    pub rules: Arc<Map>,
    /// The trading tile turned up, good by good (`()` when none is).
    pub tile: Option<Map>,
}

/// What happened, as an event hook hears it (`ctx.event`): the event's name,
/// who did it and its own details (see [`EVENTS`] for which event carries what).
#[derive(Clone, Debug)]
pub struct EventFacts {
    /// The event's name, one of [`EVENTS`].
    pub name: &'static str,
    /// The seat whose action it was (whose hand, whose building, whose counter).
    pub actor: usize,
    /// The role chosen (`role`), or the phase's (`turn_start`, `turn_end`, `phase_start`, `phase_end`).
    pub role: Option<&'static str>,
    /// The building built and the one it covered (`build`).
    pub target: Option<CardIdx>,
    /// The building built over (`build`).
    pub over: Option<CardIdx>,
    /// The buildings that produced, or were sold from (`produced`, `sold`), in order.
    pub goods: Vec<CardIdx>,
    /// What each good sold brought (`sold`), in the same order.
    pub prices: Vec<i32>,
    /// How many cards (`drew`, `discarded`, `tucked`).
    pub n: i32,
    /// Why it happened (`drew`, `discarded`, `tucked`, `good_placed`, `good_removed`).
    pub why: &'static str,
    /// The building whose hook or effect made it happen, if one did.
    pub by: Option<CardIdx>,
    /// The building concerned (`tucked`, `good_placed`, `good_removed`, `counter_changed`).
    pub building: Option<CardIdx>,
    /// A named counter (`counter_changed` of a player's counter).
    pub counter: Option<Arc<str>>,
    /// A counter's value before and after (`counter_changed`).
    pub from: i32,
    /// See `from`.
    pub to: i32,
    /// The round (`new_round`, `round_end`).
    pub round: u32,
    /// The effect about to reach a player (`targeted`).
    pub effect: &'static str,
    /// The seat it reaches (`targeted`).
    pub seat: usize,
}

impl EventFacts {
    /// An event with only a name and an actor.
    pub fn new(name: &'static str, actor: usize) -> Self {
        EventFacts {
            name,
            actor,
            role: None,
            target: None,
            over: None,
            goods: Vec::new(),
            prices: Vec::new(),
            n: 0,
            why: "",
            by: None,
            building: None,
            counter: None,
            from: 0,
            to: 0,
            round: 0,
            effect: "",
            seat: 0,
        }
    }
}

/// An event scripts hear: its name, its hooks by scope (the actor's own, every
/// other player's, everyone's) and the keys `ctx.event` holds for it besides
/// `name` and `actor`.
#[derive(Clone, Copy, Debug)]
pub struct EventSpec {
    /// `ctx.event.name`.
    pub name: &'static str,
    /// The hooks that hear it: own, other, any (a table moment has only the last).
    pub hooks: [Option<Hook>; 3],
    /// What `ctx.event` carries besides `name` and `actor`.
    pub keys: &'static [&'static str],
}

const fn scoped(name: &'static str, own: Hook, other: Hook, any: Hook, keys: &'static [&'static str]) -> EventSpec {
    EventSpec { name, hooks: [Some(own), Some(other), Some(any)], keys }
}

const fn moment(name: &'static str, hook: Hook, keys: &'static [&'static str]) -> EventSpec {
    EventSpec { name, hooks: [None, None, Some(hook)], keys }
}

/// Every event, with its hooks and payload; `check` and the docs read it.
pub static EVENTS: &[EventSpec] = &[
    scoped("role", Hook::Role, Hook::OtherRole, Hook::AnyRole, &["role"]),
    scoped("build", Hook::Build, Hook::OtherBuild, Hook::AnyBuild, &["target", "over"]),
    scoped("produced", Hook::Produced, Hook::OtherProduced, Hook::AnyProduced, &["goods"]),
    scoped("sold", Hook::Sold, Hook::OtherSold, Hook::AnySold, &["goods", "prices"]),
    scoped("turn_start", Hook::TurnStart, Hook::OtherTurnStart, Hook::AnyTurnStart, &["role"]),
    scoped("turn_end", Hook::TurnEnd, Hook::OtherTurnEnd, Hook::AnyTurnEnd, &["role"]),
    scoped("drew", Hook::Drew, Hook::OtherDrew, Hook::AnyDrew, &["n", "why", "by"]),
    scoped("discarded", Hook::Discarded, Hook::OtherDiscarded, Hook::AnyDiscarded, &["n", "why", "by"]),
    scoped("tucked", Hook::Tucked, Hook::OtherTucked, Hook::AnyTucked, &["n", "building", "why", "by"]),
    scoped("good_placed", Hook::GoodPlaced, Hook::OtherGoodPlaced, Hook::AnyGoodPlaced, &["building", "why", "by"]),
    scoped("good_removed", Hook::GoodRemoved, Hook::OtherGoodRemoved, Hook::AnyGoodRemoved, &["building", "why", "by"]),
    scoped(
        "counter_changed",
        Hook::CounterChanged,
        Hook::OtherCounterChanged,
        Hook::AnyCounterChanged,
        &["building", "counter", "from", "to", "by"],
    ),
    moment("phase_start", Hook::PhaseStart, &["role"]),
    moment("phase_end", Hook::PhaseEnd, &["role"]),
    moment("new_round", Hook::NewRound, &["round"]),
    moment("round_end", Hook::RoundEnd, &["round"]),
    moment("game_end", Hook::GameEnd, &[]),
    // Not heard after the fact: asked before an effect reaches a player (`on_targeted`).
    moment("targeted", Hook::Targeted, &["effect", "by", "seat"]),
];

/// The event named `name`.
pub fn event_spec(name: &str) -> &'static EventSpec {
    EVENTS.iter().find(|e| e.name == name).expect("every event is in EVENTS")
}

/// For `check`: each key some event carries, with where to read it — so that
/// `ctx.prices` is answered with "`ctx.event.prices`, carried by `sold` (on_sold, …)".
pub fn event_key_hints() -> &'static [(&'static str, &'static str)] {
    static HINTS: std::sync::OnceLock<Vec<(&'static str, &'static str)>> = std::sync::OnceLock::new();
    HINTS.get_or_init(|| {
        let mut keys: Vec<&'static str> = EVENTS.iter().flat_map(|e| e.keys.iter().copied()).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter()
            .map(|key| {
                let carriers: Vec<String> = EVENTS
                    .iter()
                    .filter(|e| e.keys.contains(&key))
                    .map(|e| {
                        let hooks: Vec<&str> = e.hooks.iter().flatten().map(|&h| HOOKS[h as usize].name).collect();
                        format!("`{}` ({})", e.name, hooks.join(", "))
                    })
                    .collect();
                let hint = format!("`ctx.event.{key}`: carried by the event {}", carriers.join(", "));
                (key, &*String::leak(hint))
            })
            .collect()
    })
}

/// For `check`: each event hook with the keys its `ctx.event` holds (`name` and `actor` too).
pub fn event_keys_by_hook() -> &'static [(&'static str, &'static [&'static str])] {
    static KEYS: std::sync::OnceLock<Vec<(&'static str, &'static [&'static str])>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        EVENTS
            .iter()
            .flat_map(|e| {
                let keys: Vec<&'static str> = ["name", "actor"].into_iter().chain(e.keys.iter().copied()).collect();
                let keys: &'static [&'static str] = Vec::leak(keys);
                e.hooks.iter().flatten().map(move |&h| (HOOKS[h as usize].name, keys))
            })
            .collect()
    })
}

/// A value an effect that asks a choice carries to `on_choice` (`tag`): what
/// the script wants to remember across the question, such as a seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Tag {
    /// No tag.
    #[default]
    None,
    /// A number.
    Int(i32),
    /// A string.
    Text(Arc<str>),
}

impl Tag {
    /// The tag as the script wrote it (`()` for none).
    fn value(&self) -> Dynamic {
        match self {
            Tag::None => Dynamic::UNIT,
            Tag::Int(n) => Dynamic::from_int(*n),
            Tag::Text(s) => Dynamic::from(ImmutableString::from(&**s)),
        }
    }
}

/// What a player answered to a choice.
#[derive(Clone, Debug)]
pub enum Answer {
    /// One of the named options.
    Option(Arc<str>),
    /// Cards.
    Cards(Arc<Vec<CardIdx>>),
}

impl std::ops::Deref for ScriptCtx {
    type Target = Ctx;
    fn deref(&self) -> &Ctx {
        &self.facts
    }
}

impl Ctx {
    /// The i-th of [`SCALARS`] as a number (cards by index + 1, none as 0).
    pub fn scalar(&self, i: usize) -> i32 {
        let card = |c: Option<CardIdx>| c.map_or(0, |c| i32::from(c) + 1);
        match i {
            0 => i32::from(self.card),
            1 => self.seat as i32,
            2 => self.players as i32,
            3 => self.round as i32,
            4 => ["", "builder", "producer", "trader", "councillor", "prospector"]
                .iter()
                .position(|r| *r == self.role)
                .map_or(-1, |i| i as i32),
            5 => i32::from(self.privileged),
            6 => self.hand,
            7 => self.goods,
            8 => card(self.target),
            9 => card(self.over),
            10 => self.produced,
            11 => self.sold,
            12 => self.total_sold,
            13 => self.uses,
            14 => self.under,
            15 => self.subtotal,
            16 => self.actor as i32,
            17 => self.counter,
            18 => card(self.paying),
            _ => card(self.covered_by),
        }
    }
}

impl ScriptCtx {
    /// A card as scripts see it; `()` for none, and for a script owner that is no card (the rules script).
    fn card_value(&self, idx: Option<CardIdx>) -> Dynamic {
        match idx {
            Some(i) if usize::from(i) < self.table.len() => Dynamic::from(Card::new(&self.table, i)),
            _ => Dynamic::UNIT,
        }
    }

    /// Every seat's buildings (none when the hook was judged not to read them).
    fn cities(&self) -> &[Vec<CardIdx>] {
        self.buildings.as_deref().map_or(&[], Vec::as_slice)
    }

    /// `seat`'s buildings.
    fn city(&self, seat: usize) -> &[CardIdx] {
        self.cities().get(seat).map_or(&[], Vec::as_slice)
    }

    fn cards(&self, list: &[CardIdx]) -> Array {
        list.iter().map(|&i| Dynamic::from(Card::new(&self.table, i))).collect()
    }

    fn roles(&self, bits: u8) -> Array {
        crate::actions::Role::ALL
            .iter()
            .filter(|r| bits & r.bit() != 0)
            .map(|r| Dynamic::from(ImmutableString::from(r.name())))
            .collect()
    }

    /// `ctx.table`: the public table as maps and lists, one entry per [`TABLE_KEYS`].
    fn table_map(&self) -> Dynamic {
        if self.view.is_none() {
            return Dynamic::UNIT;
        }
        let m: Map = TABLE_KEYS.iter().filter_map(|&k| Some((k.into(), self.table_entry(k)?))).collect();
        Dynamic::from_map(m)
    }

    /// `ctx.table[key]`, built alone (the fast path's shortcut for
    /// `ctx.table.key`: a hook reading the rounds need not build every city).
    fn table_entry(&self, key: &str) -> Option<Dynamic> {
        let v = self.view.as_ref()?;
        let int = |n: i64| Dynamic::from_int(n as rhai::INT);
        Some(match key {
            "players" => {
                let parts = self.parts;
                let want = |key: &str| parts.seat & Shape::bit(SEAT_SHAPE, key) != 0;
                let players: Array = v
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(seat, p)| {
                        if !parts.has_seat(seat) {
                            return Dynamic::UNIT;
                        }
                        let mut m = Map::new();
                        if want("seat") {
                            m.insert("seat".into(), int(seat as i64));
                        }
                        if want("hand") {
                            m.insert("hand".into(), int(i64::from(p.hand)));
                        }
                        if want("goods") {
                            m.insert("goods".into(), int(p.city.iter().filter(|s| s.good).count() as i64));
                        }
                        if want("buildings") {
                            let buildings: Array = p.city.iter().map(|s| Dynamic::from_map(self.slot_map(s))).collect();
                            m.insert("buildings".into(), Dynamic::from_array(buildings));
                        }
                        if want("reserve") {
                            m.insert("reserve".into(), Dynamic::from_array(self.cards(&p.reserve)));
                        }
                        if want("counters") {
                            let counters: Map =
                                p.counters.iter().map(|(k, n)| ((&**k).into(), int(i64::from(*n)))).collect();
                            m.insert("counters".into(), Dynamic::from_map(counters));
                        }
                        if want("roles_chosen") {
                            m.insert("roles_chosen".into(), Dynamic::from_array(self.roles(p.roles_chosen)));
                        }
                        Shape::debug_holds(SEAT_SHAPE, &m, parts.seat == u32::MAX);
                        Dynamic::from_map(m)
                    })
                    .collect();
                Dynamic::from_array(players)
            }
            "deck" => int(i64::from(v.deck)),
            "discard" => int(i64::from(v.discard)),
            "round" => int(i64::from(self.round)),
            "governor" => int(v.governor as i64),
            "phase" => Dynamic::from(ImmutableString::from(self.role)),
            "chooser" => v.chooser.map_or(Dynamic::UNIT, |s| int(s as i64)),
            "chosen_this_round" => {
                let chosen: Map = crate::actions::Role::ALL
                    .iter()
                    .zip(v.chosen_by)
                    .filter_map(|(r, by)| by.map(|s| (r.name().into(), int(s as i64))))
                    .collect();
                Dynamic::from_map(chosen)
            }
            "earlier_rounds" => {
                let seats = v.seats.len();
                let earlier: rhai::Array = (v.earlier_rounds.iter())
                    .map(|round| {
                        let m: Map = (crate::actions::Role::ALL.iter().zip(round))
                            .filter(|(_, by)| usize::from(**by) < seats)
                            .map(|(r, by)| (r.name().into(), int(i64::from(*by))))
                            .collect();
                        Dynamic::from_map(m)
                    })
                    .collect();
                Dynamic::from_array(earlier)
            }
            "rules" => Dynamic::from_map((*v.rules).clone()),
            "tile" => v.tile.clone().map_or(Dynamic::UNIT, Dynamic::from_map),
            _ => return None,
        })
    }

    /// A building of a seat's `buildings`, with the keys the hook reads ([`TableParts::building`]).
    fn slot_map(&self, s: &SlotFacts) -> Map {
        let int = |n: i64| Dynamic::from_int(n as rhai::INT);
        let keys = self.parts.building;
        let want = |key: &str| keys & Shape::bit(BUILDING_SHAPE, key) != 0;
        let mut m = Map::new();
        if want("card") {
            m.insert("card".into(), Dynamic::from(Card::new(&self.table, s.card)));
        }
        if want("good") {
            m.insert("good".into(), Dynamic::from_bool(s.good));
        }
        if want("under") {
            m.insert("under".into(), int(i64::from(s.under)));
        }
        if want("counter") {
            m.insert("counter".into(), int(i64::from(s.counter)));
        }
        if want("built") {
            m.insert("built".into(), int(i64::from(s.built)));
        }
        if want("covered") {
            m.insert("covered".into(), Dynamic::from_array(self.cards(&s.covered)));
        }
        if want("working") {
            m.insert("working".into(), Dynamic::from_bool(s.working));
        }
        Shape::debug_holds(BUILDING_SHAPE, &m, keys == u32::MAX);
        m
    }

    /// `ctx.event`: the event an event hook hears, `()` elsewhere.
    fn event_value(&self) -> Dynamic {
        let Some(e) = &self.event else { return Dynamic::UNIT };
        let int = |n: i32| Dynamic::from_int(n);
        let text = |s: &str| Dynamic::from(ImmutableString::from(s));
        let mut m = Map::new();
        m.insert("name".into(), text(e.name));
        m.insert("actor".into(), Dynamic::from_int(e.actor as rhai::INT));
        for &key in event_spec(e.name).keys {
            let v = match key {
                "role" => e.role.map_or(Dynamic::UNIT, text),
                "target" => self.card_value(e.target),
                "over" => self.card_value(e.over),
                "goods" => Dynamic::from_array(self.cards(&e.goods)),
                "prices" => Dynamic::from_array(e.prices.iter().map(|&p| int(p)).collect()),
                "n" => int(e.n),
                "why" => text(e.why),
                "by" => self.card_value(e.by),
                "building" => self.card_value(e.building),
                "counter" => e.counter.as_deref().map_or(Dynamic::UNIT, text),
                "from" => int(e.from),
                "to" => int(e.to),
                "round" => int(e.round as i32),
                "effect" => text(e.effect),
                "seat" => Dynamic::from_int(e.seat as rhai::INT),
                _ => Dynamic::UNIT,
            };
            m.insert(key.into(), v);
        }
        Dynamic::from_map(m)
    }
}

/// A TOML table as a script's map: integers, booleans, strings, lists and tables.
pub fn toml_map(table: &toml::Table) -> Map {
    fn value(v: &toml::Value) -> Dynamic {
        match v {
            toml::Value::Integer(n) => Dynamic::from_int((*n).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32),
            toml::Value::Boolean(b) => Dynamic::from_bool(*b),
            toml::Value::Array(a) => Dynamic::from_array(a.iter().map(value).collect()),
            toml::Value::Table(t) => Dynamic::from_map(toml_map(t)),
            other => Dynamic::from(ImmutableString::from(other.as_str().unwrap_or_default())),
        }
    }
    table.iter().map(|(k, v)| (k.as_str().into(), value(v))).collect()
}

/// Registers [`Ctx`] and [`Card`] with their getters.
pub fn register(lib: &mut Registrar) {
    lib.engine().register_type_with_name::<Card>("Card").register_type_with_name::<ScriptCtx>("Ctx");
    lib.getter("id", |c: &Card| c.table.get(c.idx).id.clone())
        .getter("name", |c: &Card| ImmutableString::from(c.table.get(c.idx).name.as_str()))
        .getter("kind", |c: &Card| ImmutableString::from(c.table.get(c.idx).kind.as_str()))
        .getter("cost", |c: &Card| c.table.get(c.idx).cost)
        .getter("vp", |c: &Card| c.table.get(c.idx).vp)
        .getter("good", |c: &Card| c.table.get(c.idx).good.is_some())
        .getter("produces", |c: &Card| match &c.table.get(c.idx).good_name {
            Some(g) => Dynamic::from(ImmutableString::from(g.as_str())),
            None => Dynamic::UNIT,
        })
        .getter("tags", |c: &Card| c.table.get(c.idx).tags.iter().cloned().map(Dynamic::from).collect::<Array>())
        .function_text("has_tag", |c: &Card, tag: &str| c.table.get(c.idx).tags.iter().any(|t| t == tag))
        .function("to_string", |c: &Card| c.table.get(c.idx).id.clone())
        .operator("==", |a: &Card, b: &Card| a.idx == b.idx)
        .operator("!=", |a: &Card, b: &Card| a.idx != b.idx);

    lib.getter("card", |c: &ScriptCtx| c.card_value(Some(c.facts.card)))
        .getter("seat", |c: &ScriptCtx| c.seat as i32)
        .getter("players", |c: &ScriptCtx| c.players as i32)
        .getter("round", |c: &ScriptCtx| c.round as i32)
        .getter("role", |c: &ScriptCtx| ImmutableString::from(c.role))
        .getter("privileged", |c: &ScriptCtx| c.privileged)
        .getter("hand", |c: &ScriptCtx| c.hand)
        .getter("goods", |c: &ScriptCtx| c.goods)
        .getter("target", |c: &ScriptCtx| c.card_value(c.target))
        .getter("over", |c: &ScriptCtx| c.card_value(c.over))
        .getter("produced", |c: &ScriptCtx| c.produced)
        .getter("sold", |c: &ScriptCtx| c.sold)
        .getter("total_sold", |c: &ScriptCtx| c.total_sold)
        .getter("uses", |c: &ScriptCtx| c.uses)
        .getter("under", |c: &ScriptCtx| c.under)
        .getter("subtotal", |c: &ScriptCtx| c.subtotal)
        .getter("actor", |c: &ScriptCtx| c.actor as rhai::INT)
        .getter("counter", |c: &ScriptCtx| c.counter)
        .getter("paying", |c: &ScriptCtx| c.card_value(c.paying))
        .getter("covered_by", |c: &ScriptCtx| c.card_value(c.covered_by))
        .getter("target_from", |c: &ScriptCtx| match c.target_from {
            Some(from) => Dynamic::from(ImmutableString::from(from.name())),
            None => Dynamic::UNIT,
        })
        .getter("choice", |c: &ScriptCtx| match &c.choice {
            Some(Answer::Option(o)) => Dynamic::from(ImmutableString::from(&**o)),
            _ => Dynamic::UNIT,
        })
        .getter("chosen", |c: &ScriptCtx| match &c.choice {
            Some(Answer::Cards(cards)) => c.cards(cards),
            _ => Array::new(),
        })
        .getter("roles_chosen", |c: &ScriptCtx| c.roles(c.roles_chosen))
        .getter("tag", |c: &ScriptCtx| c.tag.value())
        .getter("action", |c: &ScriptCtx| c.act.as_ref().map_or(Dynamic::UNIT, |a| Dynamic::from(a.0.clone())))
        .getter("args", |c: &ScriptCtx| c.act.as_ref().map_or_else(Array::new, |a| a.1.clone()))
        .function_text("player_counter", |c: &ScriptCtx, name: &str| {
            c.counters.iter().find(|(n, _)| &**n == name).map_or(0, |(_, v)| *v)
        })
        .getter("revealed", |c: &ScriptCtx| c.cards(c.revealed.as_deref().map_or(&[], |v| v.as_slice())))
        .getter("buildings", |c: &ScriptCtx| c.cards(c.city(c.seat)))
        .getter("hand_sizes", |c: &ScriptCtx| {
            c.hand_sizes.iter().flat_map(|v| v.iter()).map(|&n| Dynamic::from(n as rhai::INT)).collect::<Array>()
        })
        .getter("others", |c: &ScriptCtx| {
            let n = c.players;
            (1..n).map(|k| Dynamic::from_array(c.cards(c.city((c.seat + k) % n)))).collect::<Array>()
        })
        .getter("table", |c: &ScriptCtx| c.table_map())
        .getter("event", |c: &ScriptCtx| c.event_value())
        .getter("hand_cards", |c: &ScriptCtx| c.cards(c.view.as_ref().map_or(&[], |v| v.own_hand.as_slice())))
        .function_text("count_kind", |c: &ScriptCtx, kind: &str| {
            c.city(c.seat).iter().filter(|&&i| c.table.get(i).kind.as_str() == kind).count() as i32
        })
        .function_text("count_tag", |c: &ScriptCtx, tag: &str| {
            c.city(c.seat).iter().filter(|&&i| c.table.get(i).tags.iter().any(|t| t == tag)).count() as i32
        })
        .function_text("built_by_anyone", |c: &ScriptCtx, id: &str| {
            c.cities().iter().flatten().any(|&i| c.table.get(i).id == id)
        })
        .function("building_counts", |c: &ScriptCtx| {
            let n = c.players;
            (0..n).map(|k| Dynamic::from_int(c.city((c.seat + k) % n).len() as i32)).collect::<Array>()
        })
        .function_text("count_types", |c: &ScriptCtx, kind: &str| {
            let mut seen: Vec<CardIdx> = Vec::new();
            for &i in c.city(c.seat) {
                if c.table.get(i).kind.as_str() == kind && !seen.contains(&i) {
                    seen.push(i);
                }
            }
            seen.len() as i32
        });

    // A small library over arrays of cards, so that scripts stay short (and fast).
    // Cards are read in place (no copies of the boxed values).
    fn each_card<'a, T>(a: &'a Array, f: impl Fn(&Card) -> T + 'a) -> impl Iterator<Item = T> + 'a {
        a.iter().filter_map(move |v| v.read_lock::<Card>().map(|c| f(&c)))
    }
    // `ctx.table.rounds` and the like build their own part of the table, not all of it.
    for &key in TABLE_KEYS {
        lib.shortcut("table", key, move |c: &ScriptCtx| c.table_entry(key));
    }
    // Sized up front: a list that grows as it is filled reallocates (a gold mine asks at every reveal).
    fn collected<T>(a: &Array, f: impl Fn(&Card) -> T) -> Vec<T> {
        let mut out = Vec::with_capacity(a.len());
        out.extend(each_card(a, f));
        out
    }
    lib.function("costs", |a: &Array| -> Array { collected(a, |c| Dynamic::from_int(c.table.get(c.idx).cost)) })
        .function("ids", |a: &Array| -> Array { collected(a, |c| Dynamic::from(c.table.get(c.idx).id.clone())) })
        .function("cheapest", |a: &Array| -> Dynamic {
            // The first of the lowest cost, found by reading the cards; only that one is copied.
            let best = a
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.read_lock::<Card>().map(|c| (c.table.get(c.idx).cost, i)))
                .min();
            best.map_or(Dynamic::UNIT, |(_, i)| a[i].clone())
        })
        .function("all_different", |a: &Array| -> bool { all_different(a) });
}

/// No two elements equal: numbers by value, cards by type, anything else by
/// its text. Without reading cards as cards, every card printed as its type
/// name and any two cards counted as equal.
fn all_different(a: &[Dynamic]) -> bool {
    #[derive(PartialEq)]
    enum Key {
        Int(rhai::INT),
        Card(CardIdx),
        Text(String),
    }
    let keys: smallvec::SmallVec<[Key; 8]> = a
        .iter()
        .map(|v| {
            if let Ok(n) = v.as_int() {
                Key::Int(n)
            } else if let Some(c) = v.read_lock::<Card>() {
                Key::Card(c.idx)
            } else {
                Key::Text(v.to_string())
            }
        })
        .collect();
    keys.iter().enumerate().all(|(i, k)| !keys[i + 1..].contains(k))
}

/// The entries of `ctx.table` (see `docs/scripting.md`).
const TABLE_KEYS: &[&str] = &[
    "players",
    "deck",
    "discard",
    "round",
    "governor",
    "phase",
    "chooser",
    "chosen_this_round",
    "earlier_rounds",
    "rules",
    "tile",
];

/// What `ctx.table` holds, for `check` ([`TABLE_KEYS`] with what each holds;
/// maps keyed by data, like a seat's counters or the rules, are not checked).
pub const TABLE_SHAPE: &[Shape] = &[
    Shape { key: "players", of: SEAT_SHAPE },
    Shape::leaf("deck"),
    Shape::leaf("discard"),
    Shape::leaf("round"),
    Shape::leaf("governor"),
    Shape::leaf("phase"),
    Shape::leaf("chooser"),
    Shape::leaf("chosen_this_round"),
    Shape::leaf("earlier_rounds"),
    Shape::leaf("rules"),
    Shape::leaf("tile"),
];

/// A seat in `ctx.table.players`.
pub(crate) const SEAT_SHAPE: &[Shape] = &[
    Shape::leaf("seat"),
    Shape::leaf("hand"),
    Shape::leaf("goods"),
    Shape { key: "buildings", of: BUILDING_SHAPE },
    Shape::leaf("reserve"),
    Shape::leaf("counters"),
    Shape::leaf("roles_chosen"),
];

/// A building in a seat's `buildings`.
pub(crate) const BUILDING_SHAPE: &[Shape] = &[
    Shape::leaf("card"),
    Shape::leaf("good"),
    Shape::leaf("under"),
    Shape::leaf("counter"),
    Shape::leaf("built"),
    Shape::leaf("covered"),
    Shape::leaf("working"),
];

/// The range of each integer key a hook's map may hold; a key means the same in every hook.
pub static MAP_KEY_RANGES: &[(&str, i64, i64)] = &[
    ("tuck", 0, 200),
    ("exchange", 0, 200),
    ("goods_as_cards", 0, 20),
    ("min_goods", 0, 20),
    ("draw", 0, 50),
    ("keep", 0, 50),
    ("tuck_sold", 0, 20),
];

/// A list of seats (`goods_of`) as a bit per seat; each a seat of the game.
pub fn seat_bits(value: &Dynamic, players: usize) -> Result<u16, String> {
    let type_name = value.type_name();
    let list = value.as_array_ref().map_err(|_| format!("is a {type_name}, expected a list of seats"))?;
    let mut bits = 0u16;
    for v in list.iter() {
        let seat = v.as_int().map_err(|t| format!("holds a {t}, expected seats (numbers)"))?;
        if !(0..players as i32).contains(&seat) {
            return Err(format!("holds {seat}: not a seat (seats count from 0 to ctx.players - 1)"));
        }
        bits |= 1 << seat;
    }
    Ok(bits)
}

/// An integer field of a map result (0 when missing).
pub fn map_int(map: &Map, key: &str) -> Result<i32, String> {
    map_int_in(map, key, MAP_KEY_RANGES)
}

/// A boolean field of a map result (false when missing).
pub fn map_bool(map: &Map, key: &str) -> Result<bool, String> {
    engine_script::results::field(map, key).cloned().map_or(Ok(false), as_bool).map_err(|e| format!("key `{key}` {e}"))
}

/// The cards a result lists (an array of card ids or cards), as indices in
/// `table`; an id that names no card of the ruleset matches none, so it is
/// left out. Cards are read by index, not by their id's text.
pub fn as_cards(value: &Dynamic, table: &CardTable) -> Result<smallvec::SmallVec<[CardIdx; 4]>, String> {
    if value.is_unit() {
        return Ok(smallvec::SmallVec::new());
    }
    let type_name = value.type_name();
    let array = value.as_array_ref().map_err(|_| format!("returned a {type_name}, expected an array"))?;
    let mut out = smallvec::SmallVec::new();
    for v in array.iter() {
        if let Ok(id) = v.as_immutable_string_ref() {
            out.extend(table.idx(&id));
        } else if let Some(card) = v.read_lock::<Card>() {
            out.push(card.idx);
        } else {
            return Err(format!("returned an array holding a {}, expected card ids", v.type_name()));
        }
    }
    Ok(out)
}

/// A fast path for `on_build_cost` hooks that read only `ctx.target`,
/// `ctx.over` and `ctx.card` (smithy, quarry, crane): their discounts sit in a
/// table per ruleset, filled on first use, so the builder's many candidate
/// costs need neither a context nor a map lookup. Shared by all threads
/// (entries are written once and only read after that).
pub struct CostTable {
    cards: usize,
    /// Per owner: `None` when its hook reads more than target/over; else a
    /// table made on first use, so memory grows with the cards really built.
    per_owner: Vec<Option<OnceLock<Box<[AtomicI32]>>>>,
    /// Per owner: its hook never reads `ctx.over`, so its discount is the same
    /// whatever is covered (a builder turn's crane prices count it once per card).
    over_free: Vec<bool>,
}

const UNKNOWN: i32 = i32::MIN;

/// Above this many card types the per-owner tables (cards² entries each) would
/// cost more than they save; the per-thread memo serves those rulesets.
const MAX_TABLE_CARDS: usize = 256;

impl CostTable {
    /// Finds the owners whose `on_build_cost` qualifies.
    pub fn new(scripts: &ScriptHost, cards: usize) -> Self {
        let per_owner = (0..cards)
            .map(|owner| {
                let reads = scripts.memo_reads(Hook::BuildCost as usize, owner)?;
                let qualifies =
                    cards <= MAX_TABLE_CARDS && reads.iter().all(|r| matches!(*r, "target" | "over" | "card"));
                qualifies.then(OnceLock::new)
            })
            .collect();
        let over_free = (0..cards)
            .map(|owner| {
                scripts.reads(Hook::BuildCost as usize, owner).is_some_and(|reads| !reads.iter().any(|r| r == "over"))
            })
            .collect();
        CostTable { cards, per_owner, over_free }
    }

    /// True when this owner's discount does not depend on the building covered.
    pub fn over_free(&self, owner: CardIdx) -> bool {
        self.over_free.get(usize::from(owner)).copied().unwrap_or(false)
    }

    fn entry(&self, owner: CardIdx, target: CardIdx, over: Option<CardIdx>) -> Option<&AtomicI32> {
        self.row(owner)?.entry(target, over)
    }

    /// One owner's discounts, found once for many lookups (`None`: its hook reads more).
    pub fn row(&self, owner: CardIdx) -> Option<CostRow<'_>> {
        let lazy = self.per_owner.get(usize::from(owner))?.as_ref()?;
        let n = self.cards;
        let table = lazy.get_or_init(|| (0..n * (n + 1)).map(|_| AtomicI32::new(UNKNOWN)).collect());
        Some(CostRow { table, cards: n })
    }

    /// The discount, if this owner's hook qualifies and it was computed before.
    pub fn get(&self, owner: CardIdx, target: CardIdx, over: Option<CardIdx>) -> Option<i32> {
        self.entry(owner, target, over).map(|a| a.load(Ordering::Relaxed)).filter(|&v| v != UNKNOWN)
    }

    /// Records a discount (ignored for owners whose hook reads more).
    pub fn set(&self, owner: CardIdx, target: CardIdx, over: Option<CardIdx>, value: i32) {
        if let Some(a) = self.entry(owner, target, over)
            && value != UNKNOWN
        {
            a.store(value, Ordering::Relaxed);
        }
    }
}

/// One owner's row of a [`CostTable`].
#[derive(Clone, Copy)]
pub struct CostRow<'a> {
    table: &'a [AtomicI32],
    cards: usize,
}

impl<'a> CostRow<'a> {
    fn entry(&self, target: CardIdx, over: Option<CardIdx>) -> Option<&'a AtomicI32> {
        let n = self.cards;
        self.table.get(usize::from(target) * (n + 1) + over.map_or(n, usize::from))
    }

    /// The discount on `target` built over `over`, if computed before.
    #[inline]
    pub fn get(&self, target: CardIdx, over: Option<CardIdx>) -> Option<i32> {
        Some(self.entry(target, over)?.load(Ordering::Relaxed)).filter(|&v| v != UNKNOWN)
    }
}

/// What one building's `on_build_options` grants its owner in a builder turn.
#[derive(Clone, Debug, Default)]
pub struct BuildGrant {
    /// It lets its owner build over another building (a crane).
    pub overbuild: bool,
    /// Cards that may not be built over (ids that name no card are left out:
    /// they match nothing).
    pub except: Arc<[CardIdx]>,
    /// Goods that may pay part of a cost (a black market).
    pub goods_as_cards: i32,
    /// The seats whose goods may pay part of a cost, a bit each (a caravan depot).
    pub goods_of: u16,
    /// Its owner may build the cards of its reserve (`build_from: ["reserve"]`).
    pub from_reserve: bool,
}

/// A fast path for `on_build_options` hooks that read nothing of `ctx` but
/// `ctx.card` (black market, crane): what they grant is the same in every
/// builder turn, so it is parsed once per ruleset instead of once per turn
/// (a random game's builder turns spent 6% of it there).
pub struct BuildGrants {
    per_owner: Vec<Option<OnceLock<BuildGrant>>>,
}

impl BuildGrants {
    /// Finds the owners whose `on_build_options` qualifies.
    pub fn new(scripts: &ScriptHost, cards: usize) -> Self {
        let per_owner = (0..cards)
            .map(|owner| {
                let reads = scripts.memo_reads(Hook::BuildOptions as usize, owner)?;
                reads.iter().all(|r| *r == "card").then(OnceLock::new)
            })
            .collect();
        BuildGrants { per_owner }
    }

    /// The grant of `owner`, if its hook qualifies and was parsed before.
    pub fn get(&self, owner: CardIdx) -> Option<&BuildGrant> {
        self.per_owner.get(usize::from(owner))?.as_ref()?.get()
    }

    /// Records a grant (ignored for owners whose hook reads more).
    pub fn set(&self, owner: CardIdx, grant: &BuildGrant) {
        if let Some(Some(lock)) = self.per_owner.get(usize::from(owner)) {
            let _ = lock.set(grant.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_masks_have_room_for_every_hook() {
        // A seat's hooks are a bit each in a u64 (`Game::hook_mask`, `ScriptHost::owner_mask`).
        assert!(HOOKS.len() <= engine_script::MAX_HOOKS, "{} hooks; widen the hook masks", HOOKS.len());
        assert_eq!(HOOKS.len(), Hook::Action as usize + 1);
        assert_eq!(HOOKS[Hook::Payment as usize].name, "on_payment");
        assert_eq!(HOOKS[Hook::NewRound as usize].name, "on_new_round");
        assert_eq!(HOOKS[Hook::AnyCounterChanged as usize].name, "on_any_counter_changed");
    }

    #[test]
    fn every_event_hook_belongs_to_one_event_and_every_key_is_given() {
        let mut seen = Vec::new();
        for e in EVENTS {
            for h in e.hooks.iter().flatten() {
                assert!(!seen.contains(h), "{h:?} hears two events");
                seen.push(*h);
                // A question before the effect, not an event heard: it answers `cancel`.
                assert!(
                    HOOKS[*h as usize].effects || *h == Hook::Targeted,
                    "{h:?} hears an event but returns no effects"
                );
            }
        }
        assert_eq!(
            seen.len(),
            4 * 3 + 8 * 3 + 6,
            "role, build, produced, sold; eight more scoped events; five moments and `targeted`"
        );
        let hint = event_key_hints().iter().find(|(k, _)| *k == "prices").unwrap().1;
        assert_eq!(hint, "`ctx.event.prices`: carried by the event `sold` (on_sold, on_other_sold, on_any_sold)");
    }

    #[test]
    fn the_costly_members_are_named_where_dispatch_looks_for_them() {
        assert_eq!(CTX_MORE[CTX_TABLE], "table");
        assert_eq!(CTX_MORE[CTX_HAND_CARDS], "hand_cards");
        assert_eq!(CTX_MORE[CTX_EVENT], "event");
        assert_eq!(CTX_MORE[CTX_HAND_SIZES], "hand_sizes");
        // The game keys each by what it reads, by its bit in this order.
        assert_eq!(LISTED, ["buildings", "others", "built_by_anyone", "building_counts"]);
        let cities: Vec<&str> = CITY_MEMBERS.iter().map(|&m| CTX_MORE[m]).collect();
        assert_eq!(
            cities,
            ["buildings", "others", "count_kind", "count_tag", "built_by_anyone", "building_counts", "count_types"]
        );
    }
}

#[cfg(test)]
mod library_tests {
    use super::*;
    use crate::ruleset::Ruleset;

    fn eval_bool(script: &str) -> bool {
        let rs = Ruleset::load("second-edition").expect("built-in ruleset");
        let mut engine = rhai::Engine::new();
        register(&mut Registrar::new(&mut engine, &mut Default::default()));
        let table = Arc::clone(&rs.cards);
        let idx = |id: &str| table.idx(id).expect("a 2nd-edition card");
        let card = |id: &str| Dynamic::from(Card::new(&table, idx(id)));
        let mut scope = rhai::Scope::new();
        scope.push("smithy", card("smithy")).push("smithy2", card("smithy")).push("well", card("well"));
        engine.eval_with_scope::<bool>(&mut scope, script).expect(script)
    }

    #[test]
    fn a_card_list_result_reads_ids_and_cards_and_leaves_out_unknown_ids() {
        let rs = Ruleset::load("second-edition").expect("built-in ruleset");
        let table = &rs.cards;
        let idx = |id: &str| table.idx(id).expect("a 2nd-edition card");
        let list: Array = vec![
            Dynamic::from(ImmutableString::from("well")),
            Dynamic::from(Card::new(table, idx("smithy"))),
            Dynamic::from(ImmutableString::from("no_such_card")),
            Dynamic::from(ImmutableString::from("well")),
        ];
        let cards = as_cards(&Dynamic::from_array(list), table).expect("ids and cards");
        assert_eq!(cards.as_slice(), [idx("well"), idx("smithy"), idx("well")]);
        assert!(as_cards(&Dynamic::UNIT, table).expect("nothing").is_empty());
        let err = as_cards(&Dynamic::from_int(3), table).expect_err("a number is no list");
        assert!(err.contains("expected an array"), "{err}");
        let err = as_cards(&Dynamic::from_array(vec![Dynamic::from_int(3)]), table).expect_err("a number is no card");
        assert!(err.contains("holding a i32, expected card ids"), "{err}");
    }

    #[test]
    fn all_different_tells_numbers_cards_and_text_apart() {
        assert!(eval_bool("all_different([1, 2, 3])"));
        assert!(!eval_bool("all_different([1, 2, 1])"));
        assert!(eval_bool("all_different([])"));
        assert!(eval_bool(r#"all_different(["a", "b"])"#));
        assert!(!eval_bool(r#"all_different(["a", "b", "a"])"#));
        // Two different cards are different; two copies of one card are not.
        assert!(eval_bool("all_different([smithy, well])"));
        assert!(!eval_bool("all_different([smithy, smithy2])"));
        // The smithy costs 1, the well 2.
        assert!(eval_bool("all_different(costs([smithy, well]))"));
        assert!(!eval_bool("all_different(costs([smithy, smithy2, well]))"));
        // A list read by reference is left as it was.
        assert!(eval_bool(
            "let a = [smithy, well]; let c = costs(a); cheapest(a) == smithy && a.len() == 2 && c == [1, 2]"
        ));
    }
}
