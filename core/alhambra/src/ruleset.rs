//! Rulesets: every number of the game, read from a TOML file (the built-in
//! `alhambra`, or a designer's copy on disk that may `extends` another) and
//! checked, each problem located at its file, line and key.
//!
//! Along `extends`, `[rules]` is merged key by key (the nearest file wins);
//! `[[building]]` and `[[scoring]]` are patched entry by entry (a type by its
//! id, a scoring by its name: a file changes or adds one without repeating the
//! rest; a new type brings its scoring column in `points`); `[scripts]` is
//! merged key by key too (a file replaces the scoring script alone, each path
//! relative to the file that writes it); every other table (`money`, `yard`,
//! `two_players`) is taken whole from the nearest file that has it.

use std::sync::Arc;

use engine_rules::actions::ActionEntry;
use engine_rules::chain::{ChainFile, read_chain, relocate, resolve_spec};
use engine_rules::doc::TomlDoc;
use engine_rules::rules;
use engine_script::words::WordCache;
use serde::{Deserialize, Serialize};

use crate::error::{LoadError, LoadErrors};
use crate::files::{BUILTINS, Source};
use crate::hooks::Hooks;

/// The ruleset used when none is named.
pub const DEFAULT_RULESET: &str = "alhambra";
pub use crate::limits::{MAX_CURRENCIES, MAX_PLAYERS, MAX_TYPES};

rules! {
    /// Fewest players.
    min_players: usize => Some((2, MAX_PLAYERS as i64)),
    /// Most players.
    max_players: usize => Some((2, MAX_PLAYERS as i64)),
    /// Money dealt to each player at setup, one card at a time, until the total reaches this.
    starting_capital: u32 => Some((1, 1000)),
    /// Money cards face up on the table.
    money_display: usize => Some((1, 16)),
    /// Several money cards may be taken at once if their values total at most this.
    take_limit: u32 => Some((0, 1000)),
    /// The money deck is cut into this many piles for the scoring cards.
    piles: usize => Some((1, 100)),
    /// A collector with no building of a type does not rank for it.
    rank_needs_a_building: bool => None,
    /// Not a rule: a safety valve that ends a game after this many turns.
    max_turns: u32 => Some((1, 1_000_000)),
}

/// A money card's value: `check`'s bound and the schema's.
const VALUE_RANGE: (i64, i64) = (1, 99);
/// Copies of each money card.
const COPIES_RANGE: (i64, i64) = (1, 20);
/// A building card's price.
const PRICE_RANGE: (i64, i64) = (1, 99);
/// The points of a rank in a scoring.
const POINTS_RANGE: (i64, i64) = (0, 1000);

/// True when `v` lies in `range` (both ends included).
fn within(v: i64, (lo, hi): (i64, i64)) -> bool {
    (lo..=hi).contains(&v)
}

/// `[money]`'s ranges in its JSON Schema.
fn money_ranges(schema: &mut schemars::Schema) {
    engine_rules::schema::write_ranges(schema, [("values", VALUE_RANGE), ("copies", COPIES_RANGE)]);
}

/// A `[[building]]` entry's ranges in its JSON Schema.
fn price_ranges(schema: &mut schemars::Schema) {
    engine_rules::schema::write_ranges(schema, [("prices", PRICE_RANGE)]);
}

/// A `[[scoring]]` entry's ranges in its JSON Schema.
fn points_ranges(schema: &mut schemars::Schema) {
    engine_rules::schema::write_ranges(schema, [("ranks", POINTS_RANGE)]);
}

/// A currency.
#[derive(Clone, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Currency {
    /// Id used in money card ids (`denar` in `denar5`).
    pub id: String,
    /// Name in sentences (`denars`).
    pub name: String,
    /// The currency's script (relative to the file): its `on_taken` and
    /// `on_paid` run for each card of the currency taken or paid, its `on_pays`
    /// while its owner holds a card of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// This currency's own face values (default: `[money] values`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<u8>>,
    /// Copies of each of this currency's cards with 3 or more players (default: `[money] copies`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies: Option<u8>,
}

/// Written as it was before currencies had scripts: the ruleset's fingerprint
/// is a digest of this text, and a ruleset without scripts keeps its fingerprint.
impl std::fmt::Debug for Currency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Currency");
        d.field("id", &self.id).field("name", &self.name);
        if let Some(s) = &self.script {
            d.field("script", s);
        }
        // Only when written: a ruleset whose currencies share `[money]`'s keeps its fingerprint.
        if let Some(v) = &self.values {
            d.field("values", v);
        }
        if let Some(c) = &self.copies {
            d.field("copies", c);
        }
        d.finish()
    }
}

/// A building type as the file gives it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingType {
    /// Id (`garden`); a building card's id is this and its price (`garden10`).
    pub id: String,
    /// Name in sentences.
    pub name: String,
    /// The price of each card of this type (one entry per card).
    pub prices: Vec<u8>,
    /// In a file that `extends` another: this type's column of the scoring
    /// table, per scoring name the points per rank (`{ A = [7], B = [14, 7] }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<std::collections::BTreeMap<String, Vec<i32>>>,
    /// The type's script (relative to the file): its hooks run for each card of
    /// the type a collector owns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// The type whose count a card of this one adds to (a bonus card), while
    /// its owner holds a building of that type; it has no column of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<String>,
}

/// A `[[building]]` entry as written: a new type gives `id`, `name` and
/// `prices`; a patch of a type the extended file has gives `id` and only the
/// keys it changes (the others are kept).
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = price_ranges)]
struct BuildingEntry {
    /// Id (`garden`); a building card's id is this and its price (`garden10`).
    id: String,
    /// Name in sentences.
    #[serde(default)]
    name: Option<String>,
    /// The price of each card of this type (one entry per card).
    #[serde(default)]
    prices: Option<Vec<u8>>,
    /// In a file that extends another: per scoring name, the points per rank for this type.
    #[serde(default)]
    points: Option<std::collections::BTreeMap<String, Vec<i32>>>,
    /// The type's script (relative to the file).
    #[serde(default)]
    script: Option<String>,
    /// A bonus card: the type (`garden`) it counts as one building of at every
    /// scoring and for every card, while its owner holds a building of that
    /// type; no `points` (no column of its own).
    #[serde(default)]
    counts_as: Option<String>,
}

/// The keys of a `[[building]]` entry, for error messages.
const BUILDING_KEYS: &str = "id, name, prices, points, script, counts_as";

/// One building card kind: a type at a price, with how many cards have it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BuildingDef {
    /// `garden10`.
    pub id: String,
    /// Index of its type in [`Ruleset::types`].
    pub kind: u8,
    /// Its price.
    pub price: u8,
    /// Cards of this type at this price.
    pub copies: u8,
}

/// One scoring.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = points_ranges)]
pub struct Scoring {
    /// `A`, `B`, `C`.
    pub name: String,
    /// The card in the money deck that triggers it (`scoring_a`); none: at the game end.
    #[serde(default)]
    pub card: Option<String>,
    /// The pile (from 1, the top) the card is shuffled into.
    #[serde(default)]
    pub pile: Option<usize>,
    /// Points per rank (1st first), per building type.
    pub ranks: Vec<Vec<i32>>,
}

/// When the neutral collector draws building cards, and how many.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NeutralDraw {
    /// `start` or a scoring's name.
    pub at: String,
    /// A fixed number of cards.
    #[serde(default)]
    pub cards: u32,
    /// If not 0: the deck's size divided by this, rounded down.
    #[serde(default)]
    pub share: u32,
}

/// The two-player rules.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TwoPlayers {
    /// Copies of each money card kept.
    pub money_copies: u8,
    /// The neutral collector's name.
    pub neutral: String,
    /// Its draws.
    pub neutral_draws: Vec<NeutralDraw>,
}

/// The `[money]` table: the money cards.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = money_ranges)]
struct MoneyFile {
    /// The currencies, one table each.
    currencies: Vec<Currency>,
    /// The face values each currency has a card of.
    values: Vec<u8>,
    /// Copies of each money card with 3 or more players.
    copies: u8,
}

/// A `[[money_card]]` entry: a money card of its own (not a currency's value),
/// shuffled into the money deck.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoneyCardFile {
    /// Its id in notation, scenarios and saved games (`joker`): lowercase letters and `_`.
    pub id: String,
    /// Name in sentences.
    pub name: String,
    /// A currency id, `"any"` (it may pay in every slot; its script says when and how much) or `"none"` (it never pays).
    #[serde(default = "none_currency")]
    pub currency: String,
    /// What it counts when taken (towards the take limit, and the starting capital); paid, unless its `on_pay_value` says otherwise.
    #[serde(default)]
    pub value: u8,
    /// Copies with 3 or more players (with two: as many fewer as `two_players.money_copies` is below `money.copies`, at least 1).
    #[serde(default = "one")]
    pub copies: u8,
    /// Its script (relative to the file): `on_taken`, `on_paid`, `on_pays`, `can_pay`, `on_pay_value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
}

/// A `[[deck_card]]` entry: a card of the money deck that is not money; drawn, its `on_drawn` runs and it leaves the game.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckCardFile {
    /// Its id in scenarios (`caravan`): lowercase letters and `_`.
    pub id: String,
    /// Name in sentences.
    pub name: String,
    /// The deck it is shuffled into: `"money"` (the only one so far).
    #[serde(default = "money_deck")]
    pub deck: String,
    /// The pile (from 1, the top) it is shuffled into, as a scoring card is.
    pub pile: usize,
    /// Its script (relative to the file): `on_drawn`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
}

fn none_currency() -> String {
    "none".into()
}

fn one() -> u8 {
    1
}

fn money_deck() -> String {
    "money".into()
}

/// The `[yard]` table: the building display.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct YardFile {
    /// One currency id per building display slot, left to right: what its building is paid in.
    slots: Vec<String>,
}

/// Paths of the ruleset's scripts, relative to the file that names them; a
/// file that extends another may give one and take the other from its parent.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ScriptPaths {
    /// The scoring script (`on_score`).
    score: Option<String>,
    /// The neutral collector's script (`on_neutral`).
    neutral: Option<String>,
    /// The ruleset's own rules as a script: every card hook (modifiers, events,
    /// `on_points`), run for every player as if each owned one such card.
    rules: Option<String>,
}

/// An Alhambra ruleset: every number of the game (docs/alhambra.md).
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesetFile {
    /// Short name; game records and reports are labelled by it.
    id: String,
    /// The game, `alhambra` (may be left out in a file that extends an Alhambra ruleset).
    #[schemars(extend("enum" = ["alhambra"]))]
    game: Option<String>,
    /// Display name.
    name: String,
    /// What the ruleset is, in a sentence.
    #[serde(default)]
    description: String,
    /// The ruleset this one changes (an id or a path relative to this file).
    extends: Option<String>,
    /// Rule numbers, merged key by key over those of the ruleset extended.
    #[serde(default)]
    rules: RulesPatch,
    /// The money cards.
    money: Option<MoneyFile>,
    /// Money cards of their own (a joker, a thief), each with its id, currency, value, copies and script.
    money_card: Option<Vec<MoneyCardFile>>,
    /// Cards of the money deck that are not money (a caravan), each with a pile and a script.
    deck_card: Option<Vec<DeckCardFile>>,
    /// Actions of the ruleset's own (a verb, when it is offered, its arguments, its script).
    action: Option<Vec<ActionEntry>>,
    /// The building display.
    yard: Option<YardFile>,
    /// The building types, one table each (patched by id along `extends`).
    building: Option<Vec<BuildingEntry>>,
    /// The scorings, one table each (patched by name along `extends`).
    scoring: Option<Vec<Scoring>>,
    /// The ruleset's scripts.
    scripts: Option<ScriptPaths>,
    /// The two-player rules.
    two_players: Option<TwoPlayers>,
}

type Link = engine_rules::chain::Link<RulesetFile>;

impl ChainFile for RulesetFile {
    const SHAPE_HELP: &'static str = "a ruleset has id, game, name, extends, [rules], [money], [[money_card]], [[deck_card]], [[action]], [yard], [[building]], [[scoring]], [scripts] and [two_players] (cards/alhambra/alhambra.toml shows them all)";

    fn extends(&self) -> Option<&str> {
        self.extends.as_deref()
    }

    fn game(&self) -> Option<&str> {
        self.game.as_deref()
    }

    fn check_root(&self, doc: &TomlDoc) -> Result<(), LoadError> {
        let missing: Vec<&str> = [
            ("money", self.money.is_none()),
            ("yard", self.yard.is_none()),
            ("building", self.building.is_none()),
            ("scoring", self.scoring.is_none()),
            ("scripts.score", self.scripts.as_ref().is_none_or(|s| s.score.is_none())),
            ("scripts.neutral", self.scripts.as_ref().is_none_or(|s| s.neutral.is_none())),
            ("two_players", self.two_players.is_none()),
        ]
        .into_iter()
        .filter(|(_, m)| *m)
        .map(|(k, _)| k)
        .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(doc
            .key_error("id", format!("this ruleset extends nothing and has no {}", missing.join(", ")))
            .help("add them, or `extends = \"alhambra\"` to take them from the built-in ruleset"))
    }
}

/// The words of an action's candidate arguments, by what they name.
#[derive(Debug)]
pub struct ArgWords {
    /// By money kind ([`Ruleset::kind_of`]).
    pub money: WordCache,
    /// By building.
    pub buildings: WordCache,
    /// By display slot (from 0; its word is the slot's number from 1).
    pub slots: WordCache,
}

/// A loaded and checked ruleset. Shared by all games.
pub struct Ruleset {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it is, in a sentence.
    pub description: String,
    /// Where it was read from.
    pub source: Source,
    /// The files it extends, nearest first.
    pub parents: Vec<Source>,
    /// The numbers of `[rules]`.
    pub rules: Rules,
    /// The currencies.
    pub currencies: Vec<Currency>,
    /// `[money] values`: the values of a currency that gives none of its own.
    pub values: Vec<u8>,
    /// `[money] copies`: the copies of a currency's cards that gives none (3 or more players).
    pub copies: u8,
    /// Every kind of money card: the currencies' (currency by currency, value
    /// by value), then the `[[money_card]]`s; a [`Money`]'s `kind` indexes it.
    pub money: Vec<MoneyKind>,
    /// The `[[money_card]]` entries as written.
    pub money_cards: Vec<MoneyCardFile>,
    /// The `[[deck_card]]` entries as written.
    pub deck_cards: Vec<DeckCardFile>,
    /// True when some `[[money_card]]` pays, or some card has `can_pay` or `on_pay_value`: the legal buys are then worked out card by card.
    pub odd_money: bool,
    /// Per building display slot: what may pay for it (its currency, and the money cards of it or of any).
    pub slot_pays: Vec<PayMask>,
    /// Per currency: what may pay in it (its bit, and the money cards of it or of any).
    pub currency_pays: Vec<PayMask>,
    /// A currency's card's kind at `currency * 100 + value`.
    kind_index: Vec<u8>,
    /// The currency of each building display slot, left to right.
    pub yard: Vec<u8>,
    /// The building types, in scoring-table order.
    pub types: Vec<BuildingType>,
    /// The building card kinds, by type then price.
    pub buildings: Vec<BuildingDef>,
    /// The scorings, in order (the last one at the game end).
    pub scorings: Vec<Scoring>,
    /// The two-player rules.
    pub two_players: TwoPlayers,
    /// The compiled scripts: scoring, neutral collector, building types, currencies.
    pub hooks: Hooks,
    /// `[rules]` as scripts read it (`ctx.table.rules`).
    pub rules_map: Arc<rhai::Map>,
    /// Each building card as scripts see it (`type`, `id`, `price`), by
    /// index: copied for a `ctx`, not written afresh (a display's buildings, at every call).
    pub building_maps: Vec<rhai::Map>,
    /// The same with the keys of a building held (`bought`, `exact`, `nth`),
    /// their values to be set: a map's values written in place, where
    /// inserting three keys was most of making a seat's buildings.
    pub held_maps: Vec<rhai::Map>,
    /// Each money kind as scripts see a card of it (`id`, `currency`, `value`),
    /// by [`Ruleset::kind_of`]: an action's arguments and a hand are made of them.
    pub money_maps: Vec<rhai::Map>,
    /// Money kinds and building cards by id: a script's effects and an
    /// action's arguments name cards by id at every move.
    money_ids: rustc_hash::FxHashMap<String, usize>,
    building_ids: rustc_hash::FxHashMap<String, BuildingIdx>,
    /// Each building card on each slot of the display (`slot` and `currency`
    /// too), at `slot * buildings + building`: a display read at every decision.
    display_maps: Vec<rhai::Map>,
    /// A digest of everything that decides play (rules, cards, scorings, script
    /// texts): records of two rulesets that share an id are not mixed up.
    pub fingerprint: String,
    /// The built-in ruleset this one is a change of (its balance model's learning starts from that one's).
    pub base: Option<String>,
    /// Each script's owner (`building type garden`) and text, for [`Ruleset::diff`].
    pub script_texts: Vec<(String, String)>,
    /// Each building's id as game records hold it (shared, not copied per record).
    record_ids: Vec<Arc<str>>,
    /// Each building's type id, likewise.
    record_kinds: Vec<Arc<str>>,
    /// The option names scripts' choices offered (`burn`, `keep`), shared by every game of the ruleset.
    pub words: engine_script::words::Words,
    /// The words of the money kinds, the buildings and the display's slots, once
    /// named as an action's candidates (named at every decision of a ruleset with actions).
    pub arg_words: ArgWords,
    /// The ruleset's own actions (`[[action]]`), in file order.
    pub actions: Vec<ActionDef>,
    /// Scripts take part in working out legal answers (odd money or actions of its own): the slower path.
    pub scripted_legal: bool,
    /// Some action is offered out of turn (`decision = "other_turn_end"`): a turn's end asks the others.
    pub out_of_turn: bool,
    /// Per type: the type a card of it counts as (a bonus card), if any.
    pub counts_as: Vec<Option<u8>>,
    /// Some type counts as another: a collector's counts are worked out from its buildings.
    pub bonus_types: bool,
}

/// An action of the ruleset's own, as play needs it.
#[derive(Clone, Debug)]
pub struct ActionDef {
    /// Its id (`ctx.action`).
    pub id: String,
    /// Its name on a button.
    pub name: String,
    /// The words it is written with.
    pub verb: Vec<String>,
    /// The kinds of the arguments the engine lists (none: the script's `legal` lists them).
    pub args: Vec<ArgKind>,
    /// Whether the turn ends after it.
    pub ends_turn: bool,
    /// The decision at which it is offered.
    pub at: ActionAt,
    /// How it is paid, when it buys the building in the slot its first argument names.
    pub payment: Option<Payment>,
}

/// Where an action of the ruleset's own is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionAt {
    /// As the seat's action in its turn.
    Turn,
    /// To each other seat, from the left, when a turn ends (before the
    /// refill): out of turn, once per turn end, or `pass`.
    OtherTurnEnd,
}

/// How an action that buys is paid: in the currency of the slot it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payment {
    /// Exactly the price: only the cards that keep an exact payment possible are legal.
    Exact,
    /// The price or more, as a buy.
    Price,
    /// The price or more, all in one currency, any (the first card's): the
    /// only rule for a building bought from a reserve, which has no slot.
    AnyOneCurrency,
}

/// What an action's argument is, when the engine lists the candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A building display slot (from 1).
    Slot,
    /// A money card of the actor's hand.
    Hand,
    /// A money card of the money display.
    MoneyDisplay,
    /// A building of the actor's Alhambra (its id).
    Building,
    /// A building of the actor's reserve (its id).
    Reserve,
}

/// The argument kinds, as files write them.
pub const ARG_KINDS: &[&str] = &["slot", "hand", "money_display", "building", "reserve"];
/// The decisions at which an action may be offered.
pub const ACTION_DECISIONS: &[&str] = &["turn", "other_turn_end"];
/// How an action may be paid (`payment`).
pub const PAYMENTS: &[&str] = &["exact", "price", "any_one_currency"];
/// The notation's own verbs, which an action may not take.
pub const BUILTIN_VERBS: &[&str] = &["take", "done", "buy", "pay", "keep", "donate", "pass", "choose", "discard"];

impl ArgKind {
    /// The kind a file names.
    pub fn of(name: &str) -> Option<ArgKind> {
        Some(match name {
            "slot" => ArgKind::Slot,
            "hand" => ArgKind::Hand,
            "money_display" => ArgKind::MoneyDisplay,
            "building" => ArgKind::Building,
            "reserve" => ArgKind::Reserve,
            _ => return None,
        })
    }
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ruleset").field("id", &self.id).field("source", &self.source).finish_non_exhaustive()
    }
}

/// The nearest file of the chain that sets a table, with the table.
fn nearest<'a, T>(chain: &'a [Link], get: impl Fn(&'a RulesetFile) -> Option<&'a T>) -> Option<(&'a TomlDoc, &'a T)> {
    chain.iter().find_map(|l| get(&l.file).map(|t| (&*l.doc, t)))
}

/// The rules: each file's numbers are checked where they are written, then the
/// tables are merged over the parents'; `None` when a rule is set nowhere.
fn merge_rules(chain: &[Link], errors: &mut Vec<LoadError>) -> Option<Rules> {
    for link in chain {
        for (path, value, (lo, hi)) in link.file.rules.numbers() {
            if value < lo || value > hi {
                errors.push(link.doc.error(
                    &format!("rules.{path}"),
                    format!("rules.{path} is {value}; it must be between {lo} and {hi}"),
                ));
            }
        }
    }
    let top = &chain[0].doc;
    if let Err(e) = engine_rules::chain::check_ruleset_id(top, &chain[0].file.id) {
        errors.push(e);
    }
    let patches: Vec<&RulesPatch> = chain.iter().rev().map(|l| &l.file.rules).collect();
    let rules = RulesPatch::merge(&patches).map_err(|missing| {
        let keys = missing.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        top.key_error("rules", format!("the ruleset sets no {keys}"))
            .help("add them under [rules], or `extends` a ruleset that sets them")
    });
    let rules = match rules {
        Ok(r) => r,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    if rules.min_players > rules.max_players {
        errors.push(top.error(
            "rules.min_players",
            format!("{} players at least but {} at most", rules.min_players, rules.max_players),
        ));
    }
    Some(rules)
}

/// The tables the ruleset is built from, each from the nearest file of the
/// chain that sets it, with that file (where its errors are reported); the
/// building types and scorings patched along the chain, each with the file and
/// entry it was last written in.
struct Tables<'a> {
    money_doc: &'a TomlDoc,
    money: &'a MoneyFile,
    yard_doc: &'a TomlDoc,
    yard: &'a YardFile,
    building_doc: &'a TomlDoc,
    types: Vec<BuildingType>,
    /// Where each of `types` was written: the file and its index in that file's `[[building]]`.
    type_at: Vec<(&'a TomlDoc, usize)>,
    /// Where each type's `prices` and `script` were last written (a patch may change only some keys).
    prices_at: Vec<(&'a TomlDoc, usize)>,
    script_at: Vec<(&'a TomlDoc, usize)>,
    scoring_doc: &'a TomlDoc,
    scorings: Vec<Scoring>,
    /// Where each of `scorings` was written.
    scoring_at: Vec<(&'a TomlDoc, usize)>,
    /// The scoring script's path and the file that names it.
    score: (&'a TomlDoc, &'a str),
    /// The neutral collector's script's path and the file that names it.
    neutral: (&'a TomlDoc, &'a str),
    /// The rules script's path and the file that names it, if the chain names one.
    rules: Option<(&'a TomlDoc, &'a str)>,
    two_doc: &'a TomlDoc,
    two: &'a TwoPlayers,
    /// `[[money_card]]` and `[[deck_card]]`, each from the nearest file that has the list.
    money_card: Option<(&'a TomlDoc, &'a Vec<MoneyCardFile>)>,
    deck_card: Option<(&'a TomlDoc, &'a Vec<DeckCardFile>)>,
    /// `[[action]]`, from the nearest file that has the list.
    action: Option<(&'a TomlDoc, &'a Vec<ActionEntry>)>,
}

impl<'a> Tables<'a> {
    /// Reads the tables from the chain, patching types and scorings from the root down.
    fn nearest(chain: &'a [Link], errors: &mut Vec<LoadError>) -> Self {
        // `check_root` makes sure the chain's last file has every table.
        let (money_doc, money) = nearest(chain, |f| f.money.as_ref()).expect("checked by the chain");
        let (yard_doc, yard) = nearest(chain, |f| f.yard.as_ref()).expect("checked by the chain");
        let (building_doc, _) = nearest(chain, |f| f.building.as_ref()).expect("checked by the chain");
        let (scoring_doc, _) = nearest(chain, |f| f.scoring.as_ref()).expect("checked by the chain");
        let script = |key: fn(&ScriptPaths) -> Option<&String>| {
            let (doc, path) = nearest(chain, |f| f.scripts.as_ref().and_then(key)).expect("checked by the chain");
            (doc, path.as_str())
        };
        let (score, neutral) = (script(|s| s.score.as_ref()), script(|s| s.neutral.as_ref()));
        let rules = nearest(chain, |f| f.scripts.as_ref().and_then(|s| s.rules.as_ref())).map(|(d, p)| (d, p.as_str()));
        let (two_doc, two) = nearest(chain, |f| f.two_players.as_ref()).expect("checked by the chain");
        let mut t = Tables {
            money_doc,
            money,
            yard_doc,
            yard,
            building_doc,
            types: Vec::new(),
            type_at: Vec::new(),
            prices_at: Vec::new(),
            script_at: Vec::new(),
            scoring_doc,
            scorings: Vec::new(),
            scoring_at: Vec::new(),
            score,
            neutral,
            rules,
            two_doc,
            two,
            money_card: nearest(chain, |f| f.money_card.as_ref()),
            deck_card: nearest(chain, |f| f.deck_card.as_ref()),
            action: nearest(chain, |f| f.action.as_ref()),
        };
        for (k, link) in chain.iter().rev().enumerate() {
            t.patch(&link.file, &link.doc, k == 0, errors);
        }
        t
    }

    /// Applies one file's `[[building]]` and `[[scoring]]` entries: the root's
    /// are the lists; a later file's replace the entry of the same id or name,
    /// or add one (a new type last, with its scoring column from `points`; a
    /// new scoring with a card before the final one).
    fn patch(&mut self, file: &RulesetFile, doc: &'a TomlDoc, root: bool, errors: &mut Vec<LoadError>) {
        let mut new_without_points = Vec::new();
        for (j, b) in file.building.iter().flatten().enumerate() {
            let at = self.types.iter().position(|t| t.id == b.id).filter(|_| !root);
            let i = match at {
                Some(i) => {
                    // A patch: the keys it gives replace the type's, the others stay.
                    let t = &mut self.types[i];
                    if let Some(name) = &b.name {
                        t.name.clone_from(name);
                    }
                    if let Some(prices) = &b.prices {
                        t.prices.clone_from(prices);
                        self.prices_at[i] = (doc, j);
                    }
                    if let Some(script) = &b.script {
                        t.script = Some(script.clone());
                        self.script_at[i] = (doc, j);
                    }
                    if b.points.is_some() {
                        t.points.clone_from(&b.points);
                    }
                    if b.counts_as.is_some() {
                        t.counts_as.clone_from(&b.counts_as);
                    }
                    self.type_at[i] = (doc, j);
                    i
                }
                None => {
                    let missing: Vec<&str> = [("name", b.name.is_none()), ("prices", b.prices.is_none())]
                        .into_iter()
                        .filter(|(_, m)| *m)
                        .map(|(k, _)| k)
                        .collect();
                    if !missing.is_empty() {
                        let what = if root { "building type" } else { "new building type" };
                        // A patch whose id is misspelt reads as a new type: name the type meant.
                        let near = engine_rules::error::closest(&b.id, self.types.iter().map(|t| t.id.as_str()))
                            .filter(|_| !root)
                            .map(|c| format!("did you mean `{c}`? "))
                            .unwrap_or_default();
                        errors.push(
                            doc.key_error(
                                &format!("building.{j}.id"),
                                format!("{what} `{}` has no {}", b.id, missing.join(" and ")),
                            )
                            .help(format!(
                                "{near}a [[building]] entry has {BUILDING_KEYS}; a new type needs id, name and prices, \
                                 a patch of a type the extended file has only its id and the keys it changes"
                            )),
                        );
                    }
                    self.types.push(BuildingType {
                        id: b.id.clone(),
                        name: b.name.clone().unwrap_or_else(|| b.id.clone()),
                        prices: b.prices.clone().unwrap_or_else(|| vec![1]),
                        points: b.points.clone(),
                        script: b.script.clone(),
                        counts_as: b.counts_as.clone(),
                    });
                    self.type_at.push((doc, j));
                    self.prices_at.push((doc, j));
                    self.script_at.push((doc, j));
                    // A bonus card's column is all 0 (filled below); it has no points of its own.
                    if !root && b.points.is_none() && b.counts_as.is_none() {
                        new_without_points.push((j, self.types.len() - 1));
                    }
                    self.types.len() - 1
                }
            };
            if b.counts_as.is_some() && b.points.is_some() {
                errors.push(
                    doc.key_error(
                        &format!("building.{j}.points"),
                        format!("`{}` counts as another type: it has no column of its own", b.id),
                    )
                    .help("leave `points` out: a card of it adds 1 to the count of the type it counts as"),
                );
                continue;
            }
            match (&b.points, root) {
                (Some(_), true) => errors.push(
                    doc.key_error(
                        &format!("building.{j}.points"),
                        "`points` patches the scoring table of the file this one extends; this file extends none",
                    )
                    .help("give the type's points in each `[[scoring]]`'s `ranks`, one number per type"),
                ),
                (Some(points), false) => self.set_column(i, points, doc, j, errors),
                (None, _) => {}
            }
        }
        for (j, s) in file.scoring.iter().flatten().enumerate() {
            match self.scorings.iter().position(|o| o.name == s.name).filter(|_| !root) {
                Some(i) => {
                    let mut s = s.clone();
                    // A patch that names no card keeps the scoring's card and pile.
                    if s.card.is_none() && s.pile.is_none() {
                        s.card.clone_from(&self.scorings[i].card);
                        s.pile = self.scorings[i].pile;
                    }
                    self.scorings[i] = s;
                    self.scoring_at[i] = (doc, j);
                }
                None if root || s.card.is_none() || self.scorings.is_empty() => {
                    self.scorings.push(s.clone());
                    self.scoring_at.push((doc, j));
                }
                None => {
                    let before = self.scorings.len() - 1;
                    self.scorings.insert(before, s.clone());
                    self.scoring_at.insert(before, (doc, j));
                }
            }
        }
        let n = self.types.len();
        let mut reported = false;
        for (j, i) in new_without_points {
            if self.scorings.iter().any(|s| s.ranks.iter().any(|r| r.len() <= i)) {
                let names: Vec<String> = self
                    .scorings
                    .iter()
                    .map(|s| format!("{} = [{}]", s.name, vec!["…"; s.ranks.len()].join(", ")))
                    .collect();
                errors.push(
                    doc.key_error(
                        &format!("building.{j}.id"),
                        format!("new building type `{}` has no column in the scoring table", self.types[i].id),
                    )
                    .help(format!(
                        "add `points = {{ {} }}`: per scoring, its points per rank (1st first)",
                        names.join(", ")
                    )),
                );
                reported = true;
            }
        }
        // A missing column (reported above, or a bonus card's) counts 0, so the ranks are not reported again.
        let bonus = self.types.iter().any(|t| t.counts_as.is_some());
        for s in self.scorings.iter_mut().filter(|_| reported || bonus) {
            for row in &mut s.ranks {
                if row.len() < n {
                    row.resize(n, 0);
                }
            }
        }
    }

    /// Sets type `i`'s column of the scoring table from `points` (per scoring name, per rank).
    fn set_column(
        &mut self,
        i: usize,
        points: &std::collections::BTreeMap<String, Vec<i32>>,
        doc: &TomlDoc,
        j: usize,
        errors: &mut Vec<LoadError>,
    ) {
        let key = format!("building.{j}.points");
        for name in points.keys().filter(|n| !self.scorings.iter().any(|s| &s.name == *n)) {
            let names: Vec<&str> = self.scorings.iter().map(|s| s.name.as_str()).collect();
            let near = engine_rules::error::closest(name, names.iter().copied())
                .map(|c| format!("did you mean `{c}`? "))
                .unwrap_or_default();
            errors.push(
                doc.key_error(&format!("{key}.{name}"), format!("there is no scoring `{name}`"))
                    .help(format!("{near}the scorings are {}", names.join(", "))),
            );
        }
        for s in &mut self.scorings {
            let Some(column) = points.get(&s.name) else {
                errors.push(doc.key_error(&key, format!("no points for scoring {}", s.name)).help(format!(
                    "add `{} = [{}]`: the type's points per rank in that scoring",
                    s.name,
                    vec!["…"; s.ranks.len()].join(", ")
                )));
                continue;
            };
            if column.len() != s.ranks.len() {
                errors.push(doc.error(
                    &format!("{key}.{}", s.name),
                    format!(
                        "{} points; scoring {} has {} rank(s): give one number per rank",
                        column.len(),
                        s.name,
                        s.ranks.len()
                    ),
                ));
                continue;
            }
            for (row, &p) in s.ranks.iter_mut().zip(column) {
                if row.len() <= i {
                    row.resize(i + 1, 0);
                }
                row[i] = p;
            }
        }
    }
}

/// Checks the money: currencies, values, copies (two players' too), and that
/// the starting capital can always be dealt.
fn check_money(chain: &[Link], rules: &Rules, t: &Tables, errors: &mut Vec<LoadError>) {
    let Tables { money_doc, money, two_doc, two, .. } = *t;
    let top = &chain[0].doc;
    let mut err = |doc: &TomlDoc, key: &str, message: String| errors.push(doc.error(key, message));
    let m = money;
    if m.currencies.is_empty() || m.currencies.len() > MAX_CURRENCIES {
        err(money_doc, "money.currencies", format!("{} currencies: must be 1 to {MAX_CURRENCIES}", m.currencies.len()));
    }
    for (i, c) in m.currencies.iter().enumerate() {
        if let Err(e) = check_id(&c.id) {
            err(money_doc, &format!("money.currencies.{i}.id"), e);
        }
        if m.currencies[..i].iter().any(|o| o.id == c.id) {
            err(money_doc, &format!("money.currencies.{i}.id"), format!("currency `{}` is listed twice", c.id));
        }
    }
    let check_values = |err: &mut dyn FnMut(&TomlDoc, &str, String), key: &str, values: &[u8]| {
        if values.is_empty() {
            err(money_doc, key, "no values: a money card needs one".into());
        }
        for (i, v) in values.iter().enumerate() {
            if !within(i64::from(*v), VALUE_RANGE) {
                let (lo, hi) = VALUE_RANGE;
                err(money_doc, &format!("{key}.{i}"), format!("value {v}: must be {lo} to {hi}"));
            }
            if values[..i].contains(v) {
                err(money_doc, &format!("{key}.{i}"), format!("value {v} is listed twice"));
            }
        }
    };
    check_values(&mut err, "money.values", &m.values);
    for (i, c) in m.currencies.iter().enumerate() {
        if let Some(values) = &c.values {
            check_values(&mut err, &format!("money.currencies.{i}.values"), values);
        }
    }
    let copies_ok = |c: u8| within(i64::from(c), COPIES_RANGE);
    let (lo, hi) = COPIES_RANGE;
    if !copies_ok(m.copies) {
        err(money_doc, "money.copies", format!("{}: must be {lo} to {hi}", m.copies));
    }
    for (i, c) in m.currencies.iter().enumerate() {
        if let Some(copies) = c.copies.filter(|&c| !copies_ok(c)) {
            err(money_doc, &format!("money.currencies.{i}.copies"), format!("{copies}: must be {lo} to {hi}"));
        }
    }
    if two.money_copies == 0 || two.money_copies > m.copies {
        err(
            two_doc,
            "two_players.money_copies",
            format!("{}: must be 1 to money.copies ({})", two.money_copies, m.copies),
        );
    }
    let currency_ids: Vec<&str> = m.currencies.iter().map(|c| c.id.as_str()).collect();
    let mut card_ids: Vec<&str> = Vec::new();
    if let Some((doc, cards)) = t.money_card {
        for (i, c) in cards.iter().enumerate() {
            let key = |k: &str| format!("money_card.{i}.{k}");
            if let Err(e) = check_id(&c.id) {
                err(doc, &key("id"), e);
            } else if currency_ids.contains(&c.id.as_str()) || card_ids.contains(&c.id.as_str()) {
                err(doc, &key("id"), format!("`{}` is already the id of a currency or money card", c.id));
            }
            card_ids.push(&c.id);
            if c.currency != "any" && c.currency != "none" && !currency_ids.contains(&c.currency.as_str()) {
                err(
                    doc,
                    &key("currency"),
                    format!(
                        "`{}` is not a currency; write one of {}, \"any\" or \"none\"",
                        c.currency,
                        currency_ids.join(", ")
                    ),
                );
            }
            if !within(i64::from(c.value), (0, VALUE_RANGE.1)) {
                err(doc, &key("value"), format!("{}: must be 0 to {}", c.value, VALUE_RANGE.1));
            }
            if !copies_ok(c.copies) {
                err(doc, &key("copies"), format!("{}: must be {lo} to {hi}", c.copies));
            }
        }
    }
    if let Some((doc, cards)) = t.deck_card {
        for (i, c) in cards.iter().enumerate() {
            let key = |k: &str| format!("deck_card.{i}.{k}");
            if let Err(e) = check_id(&c.id) {
                err(doc, &key("id"), e);
            } else if currency_ids.contains(&c.id.as_str())
                || card_ids.contains(&c.id.as_str())
                || t.scorings.iter().any(|s| s.card.as_deref() == Some(c.id.as_str()))
            {
                err(doc, &key("id"), format!("`{}` is already the id of a currency, money card or scoring card", c.id));
            }
            card_ids.push(&c.id);
            if c.deck != "money" {
                err(doc, &key("deck"), format!("`{}`: a deck card goes into the money deck; write \"money\"", c.deck));
            }
            if c.pile == 0 || c.pile > rules.piles {
                err(
                    doc,
                    &key("pile"),
                    format!("pile {}: the money deck is cut into {} piles (1 to {})", c.pile, rules.piles, rules.piles),
                );
            }
        }
    }
    // The starting capital must be dealt whatever the shuffle: each player is
    // dealt up to `capital + largest value - 1`, with 2 players from fewer copies.
    let kinds = money_kinds(m, t.money_card.map_or(&[][..], |(_, c)| c.as_slice()), two.money_copies);
    if let Some((doc, cards)) = t.money_card.filter(|(_, c)| c.len() > MAX_MONEY_CARDS) {
        err(doc, "money_card", format!("{} money cards: at most {MAX_MONEY_CARDS}", cards.len()));
        return;
    }
    if kinds.len() > MAX_MONEY_KINDS {
        err(
            money_doc,
            "money",
            format!(
                "{} kinds of money card: at most {MAX_MONEY_KINDS} (fewer currencies, values or money cards)",
                kinds.len()
            ),
        );
        return;
    }
    let dealt = kinds.iter().filter(|k| k.pays_in.is_some() || k.any);
    if let (Some(largest), false) = (dealt.clone().map(|k| k.card.value).max(), m.currencies.is_empty()) {
        let held = |n: usize| -> u64 {
            dealt
                .clone()
                .map(|k| u64::from(k.card.value) * u64::from(if n == 2 { k.two_copies } else { k.copies }))
                .sum()
        };
        let need = |n: usize| n as u64 * (u64::from(rules.starting_capital) + u64::from(largest).max(1) - 1);
        let short = (rules.min_players..=rules.max_players.min(MAX_PLAYERS)).find(|&n| need(n) > held(n));
        if let Some(n) = short {
            // Reported where the capital is set (the money may be what changed).
            let at = chain.iter().find(|l| l.file.rules.starting_capital.is_some()).map_or(&**top, |l| &*l.doc);
            err(
                at,
                "rules.starting_capital",
                format!(
                    "a starting capital of {} cannot always be dealt to {n} players: each may need up to {} \
                     (the capital plus the largest value less 1), {} in all, and the money holds {}",
                    rules.starting_capital,
                    u64::from(rules.starting_capital) + u64::from(largest) - 1,
                    need(n),
                    held(n)
                ),
            );
        }
    }
}

/// Every kind of money card, in [`Ruleset::money`]'s order: each currency's
/// values (its own or `[money]`'s), then the `[[money_card]]`s.
fn money_kinds(m: &MoneyFile, cards: &[MoneyCardFile], two_copies: u8) -> Vec<MoneyKind> {
    // With two players each kind has as many copies fewer as the printed money has.
    let fewer = m.copies.saturating_sub(two_copies);
    let two = |c: u8| c.saturating_sub(fewer).max(1);
    let mut out = Vec::new();
    for (ci, c) in m.currencies.iter().enumerate() {
        let copies = c.copies.unwrap_or(m.copies);
        for &value in c.values.as_ref().unwrap_or(&m.values) {
            out.push(MoneyKind {
                id: format!("{}{value}", c.id),
                card: Money { currency: ci as u8, value },
                copies,
                two_copies: if c.copies.is_none() { two_copies } else { two(copies) },
                script: ci,
                special: false,
                pays_in: Some(ci as u8),
                any: false,
                currency_id: c.id.clone(),
            });
        }
    }
    for (k, c) in cards.iter().enumerate() {
        out.push(MoneyKind {
            id: c.id.clone(),
            card: Money { currency: FIRST_CARD + k.min(MAX_MONEY_CARDS - 1) as u8, value: c.value },
            copies: c.copies,
            two_copies: two(c.copies),
            script: m.currencies.len() + k,
            special: true,
            pays_in: m.currencies.iter().position(|x| x.id == c.currency).map(|i| i as u8),
            any: c.currency == "any",
            currency_id: c.currency.clone(),
        });
    }
    out
}

/// The currency of each building display slot; an unknown currency is an error.
fn yard_slots(t: &Tables, errors: &mut Vec<LoadError>) -> Vec<u8> {
    let Tables { yard_doc, yard, money: m, .. } = *t;
    let mut err = |doc: &TomlDoc, key: &str, message: String| errors.push(doc.error(key, message));
    let mut yard_slots = Vec::new();
    if yard.slots.is_empty() || yard.slots.len() > 16 {
        err(yard_doc, "yard.slots", format!("{} slots: must be 1 to 16", yard.slots.len()));
    }
    for (i, s) in yard.slots.iter().enumerate() {
        match m.currencies.iter().position(|c| c.id == *s) {
            Some(c) => yard_slots.push(c as u8),
            None => {
                let ids: Vec<&str> = m.currencies.iter().map(|c| c.id.as_str()).collect();
                err(
                    yard_doc,
                    &format!("yard.slots.{i}"),
                    format!("unknown currency `{s}`; currencies: {}", ids.join(", ")),
                );
            }
        }
    }
    yard_slots
}

/// The building cards, by type then price (copies of a price counted), with the types checked.
fn building_cards(tables: &Tables, errors: &mut Vec<LoadError>) -> Vec<BuildingDef> {
    let t = tables;
    let (building_doc, types) = (t.building_doc, &t.types);
    let mut err = |doc: &TomlDoc, key: &str, message: String| errors.push(doc.error(key, message));
    if types.is_empty() || types.len() > MAX_TYPES {
        err(building_doc, "building", format!("{} building types: must be 1 to {MAX_TYPES}", types.len()));
    }
    let mut buildings: Vec<BuildingDef> = Vec::new();
    for (t, b) in types.iter().enumerate() {
        // Reported in the file and entry that wrote the type.
        let (doc, j) = tables.type_at[t];
        if let Err(e) = check_id(&b.id) {
            err(doc, &format!("building.{j}.id"), e);
        }
        if types[..t].iter().any(|o| o.id == b.id) {
            err(doc, &format!("building.{j}.id"), format!("building type `{}` is listed twice", b.id));
        }
        if let Some(target) = &b.counts_as {
            match types.iter().position(|o| o.id == *target) {
                Some(g) if g == t || types[g].counts_as.is_some() => err(
                    doc,
                    &format!("building.{j}.counts_as"),
                    format!(
                        "`{}` may not count as `{target}`: a bonus card counts as a type with a column of its own",
                        b.id
                    ),
                ),
                Some(_) => {}
                None => {
                    let ids: Vec<&str> =
                        types.iter().filter(|o| o.counts_as.is_none()).map(|o| o.id.as_str()).collect();
                    err(
                        doc,
                        &format!("building.{j}.counts_as"),
                        format!("unknown building type `{target}`; types: {}", ids.join(", ")),
                    );
                }
            }
        }
        let (doc, j) = tables.prices_at[t];
        if b.prices.is_empty() {
            err(doc, &format!("building.{j}.prices"), "no prices: a type needs at least one card".into());
        }
        for (i, p) in b.prices.iter().enumerate() {
            if !within(i64::from(*p), PRICE_RANGE) {
                let (lo, hi) = PRICE_RANGE;
                err(doc, &format!("building.{j}.prices.{i}"), format!("price {p}: must be {lo} to {hi}"));
            }
        }
        let mut prices = b.prices.clone();
        prices.sort_unstable();
        for p in prices {
            match buildings.last_mut() {
                Some(last) if last.kind as usize == t && last.price == p => last.copies = last.copies.saturating_add(1),
                _ => buildings.push(BuildingDef { id: format!("{}{p}", b.id), kind: t as u8, price: p, copies: 1 }),
            }
        }
    }
    if buildings.len() > 250 {
        err(building_doc, "building", "more than 250 distinct building cards".into());
    }
    buildings
}

/// Checks the scorings (cards, piles, ranks) and the neutral collector's draws.
fn check_scorings(rules: &Rules, t: &Tables, errors: &mut Vec<LoadError>) {
    let (scoring_doc, scorings, types) = (t.scoring_doc, &t.scorings, &t.types);
    let (two_doc, two) = (t.two_doc, t.two);
    let mut err = |doc: &TomlDoc, key: &str, message: String| errors.push(doc.error(key, message));
    if scorings.is_empty() {
        err(scoring_doc, "scoring", "no scoring: the game end needs one".into());
    }
    for (i, s) in scorings.iter().enumerate() {
        let last = i + 1 == scorings.len();
        // Reported in the file and entry that wrote the scoring.
        let (doc, j) = t.scoring_at[i];
        let key = |k: &str| format!("scoring.{j}.{k}");
        match (&s.card, s.pile, last) {
            (None, None, true) => {}
            (None, Some(_), true) => err(doc, &key("pile"), "the final scoring has no card to put in a pile".into()),
            (Some(_), _, true) => {
                err(doc, &key("card"), "the last scoring happens at the game end: it has no card".into())
            }
            (None, _, false) => {
                err(doc, &key("name"), format!("scoring {} needs a card: only the last has none", s.name))
            }
            (Some(_), None, false) => err(doc, &key("name"), format!("scoring {} needs a pile", s.name)),
            (Some(c), Some(p), false) => {
                if let Err(e) = check_id(c) {
                    err(doc, &key("card"), e);
                }
                if p == 0 || p > rules.piles {
                    err(doc, &key("pile"), format!("pile {p}: piles are 1 to {}", rules.piles));
                }
                if let Some(o) = scorings[..i].iter().find(|o| o.card.as_deref() == Some(c.as_str())) {
                    err(
                        doc,
                        &key("card"),
                        format!("card `{c}` already triggers scoring {}; give each scoring its own card", o.name),
                    );
                }
                if scorings[..i].iter().any(|o| o.pile == Some(p)) {
                    err(doc, &key("pile"), format!("pile {p} already holds a scoring card"));
                }
            }
        }
        if s.ranks.is_empty() || s.ranks.len() > MAX_PLAYERS {
            err(doc, &key("ranks"), format!("{} ranks: must be 1 to {MAX_PLAYERS}", s.ranks.len()));
        }
        for (k, row) in s.ranks.iter().enumerate() {
            if row.len() != types.len() {
                err(
                    doc,
                    &format!("scoring.{j}.ranks.{k}"),
                    format!("{} points; one per building type ({}) is needed", row.len(), types.len()),
                );
            }
            if row.iter().any(|&p| !within(i64::from(p), POINTS_RANGE)) {
                let (lo, hi) = POINTS_RANGE;
                err(doc, &format!("scoring.{j}.ranks.{k}"), format!("points must be {lo} to {hi}"));
            }
        }
    }
    for (i, d) in two.neutral_draws.iter().enumerate() {
        let known = d.at == "start" || scorings.iter().any(|s| s.card.is_some() && s.name == d.at);
        if !known {
            err(
                two_doc,
                &format!("two_players.neutral_draws.{i}.at"),
                format!("`{}` is neither `start` nor the name of a scoring with a card", d.at),
            );
        }
    }
}

/// `[[action]]`: ids, verbs that collide with nothing, decisions and argument kinds the game has.
fn check_actions(t: &Tables, errors: &mut Vec<LoadError>) {
    let Some((doc, list)) = t.action else { return };
    for (i, a) in list.iter().enumerate() {
        if let Err(e) = check_id(&a.id) {
            errors.push(doc.error(&format!("action.{i}.id"), e));
        } else if list[..i].iter().any(|o| o.id == a.id) {
            errors.push(doc.error(&format!("action.{i}.id"), format!("two actions have the id `{}`", a.id)));
        }
        let game = engine_rules::actions::Vocabulary {
            decisions: ACTION_DECISIONS,
            arg_kinds: ARG_KINDS,
            builtin: BUILTIN_VERBS,
            payments: PAYMENTS,
            reads: &[],
        };
        if let Err((key, message)) = engine_rules::actions::check(a, &list[..i], &game) {
            errors.push(doc.error(&format!("action.{i}.{key}"), message));
        } else if a.decision == "other_turn_end" && a.ends_turn.is_some() {
            let message = "an action out of turn ends no turn of the actor's: leave `ends_turn` out (the next seat is asked after it)";
            errors.push(doc.error(&format!("action.{i}.ends_turn"), message));
        } else if a.payment.is_some() && a.args.first().is_some_and(|k| k != "slot" && k != "reserve") {
            let message = format!(
                "an action with `payment` buys the building its first argument names: `args = [\"slot\"]` (a display slot) or `[\"reserve\"]` (the actor's reserve), not `{}`",
                a.args[0]
            );
            errors.push(doc.error(&format!("action.{i}.args"), message));
        } else if a.args.first().is_some_and(|k| k == "reserve")
            && a.payment.as_deref().is_some_and(|p| p != "any_one_currency")
        {
            let message = "a building bought from a reserve has no slot, so no currency of its own: `payment = \"any_one_currency\"`";
            errors.push(doc.error(&format!("action.{i}.payment"), message.to_owned()));
        }
    }
}

/// Compiles the scoring and neutral-collector scripts and the scripts of the
/// building types and currencies that name one; `None` (with errors) when they fail.
fn load_hooks(t: &Tables, root: Option<&std::path::Path>, errors: &mut Vec<LoadError>) -> Option<Hooks> {
    let Tables { score: (score_doc, score_path), neutral: (neutral_doc, neutral_path), money_doc, money, .. } = *t;
    let script = |doc: &TomlDoc, key: &str, path: &str, errors: &mut Vec<LoadError>| -> Option<Source> {
        let s = doc.source.join(path);
        match s.check_inside(root, "rhai") {
            Ok(()) => Some(s),
            Err(e) => {
                errors.push(relocate(e, doc, key));
                None
            }
        }
    };
    let score = script(score_doc, "scripts.score", score_path, errors);
    let neutral = script(neutral_doc, "scripts.neutral", neutral_path, errors);
    let before = errors.len();
    let rules = t.rules.and_then(|(doc, path)| script(doc, "scripts.rules", path, errors));
    let types: Vec<(String, Option<Source>)> = t
        .types
        .iter()
        .zip(&t.script_at)
        .map(|(b, &(doc, j))| {
            let s = b.script.as_ref().and_then(|p| script(doc, &format!("building.{j}.script"), p, errors));
            (format!("building type {}", b.id), s)
        })
        .collect();
    let currencies: Vec<(String, Option<Source>)> = money
        .currencies
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let s =
                c.script.as_ref().and_then(|p| script(money_doc, &format!("money.currencies.{i}.script"), p, errors));
            (format!("currency {}", c.id), s)
        })
        .collect();
    // The money cards' scripts follow the currencies': both are money scripts.
    let mut currencies = currencies;
    let mut card_keys: Vec<(&TomlDoc, String)> = Vec::new();
    if let Some((doc, cards)) = t.money_card {
        for (i, c) in cards.iter().enumerate() {
            let key = format!("money_card.{i}.script");
            let s = c.script.as_ref().and_then(|p| script(doc, &key, p, errors));
            currencies.push((format!("money card {}", c.id), s));
            card_keys.push((doc, key));
        }
    }
    let mut deck: Vec<(String, Option<Source>)> = Vec::new();
    if let Some((doc, cards)) = t.deck_card {
        for (i, c) in cards.iter().enumerate() {
            let key = format!("deck_card.{i}.script");
            let s = c.script.as_ref().and_then(|p| script(doc, &key, p, errors));
            deck.push((format!("deck card {}", c.id), s));
            card_keys.push((doc, key));
        }
    }
    let mut actions: Vec<(String, Source)> = Vec::new();
    if let Some((doc, list)) = t.action {
        for (i, a) in list.iter().enumerate() {
            let key = format!("action.{i}.script");
            if let Some(s) = script(doc, &key, &a.script, errors) {
                actions.push((format!("action {}", a.id), s));
            }
        }
    }
    match (score, neutral, errors.len() == before) {
        (Some(score), Some(neutral), true) => {
            match Hooks::load(&score, &neutral, &types, &currencies, &deck, rules.as_ref(), &actions) {
                Ok(h) => Some(h),
                Err(e) => {
                    // An error with no line (a script that cannot be read) points at the key that names it:
                    // the type's or currency's own key in the designer's file, not the built-in score key.
                    let mut keys: Vec<(String, &TomlDoc, String)> =
                        vec![(neutral.to_string(), neutral_doc, "scripts.neutral".into())];
                    if let (Some(s), Some((doc, _))) = (&rules, t.rules) {
                        keys.push((s.to_string(), doc, "scripts.rules".into()));
                    }
                    for ((_, s), &(doc, j)) in types.iter().zip(&t.script_at) {
                        keys.extend(s.as_ref().map(|s| (s.to_string(), doc, format!("building.{j}.script"))));
                    }
                    let printed = money.currencies.len();
                    for (i, (_, s)) in currencies.iter().take(printed).enumerate() {
                        keys.extend(
                            s.as_ref().map(|s| (s.to_string(), money_doc, format!("money.currencies.{i}.script"))),
                        );
                    }
                    for ((_, s), (doc, key)) in currencies[printed..].iter().chain(&deck).zip(&card_keys) {
                        keys.extend(s.as_ref().map(|s| (s.to_string(), *doc, key.clone())));
                    }
                    if let Some((doc, _)) = t.action {
                        for (i, (_, s)) in actions.iter().enumerate() {
                            keys.push((s.to_string(), doc, format!("action.{i}.script")));
                        }
                    }
                    errors.extend(e.into_iter().map(|e| match keys.iter().find(|(file, _, _)| *file == e.file) {
                        Some((_, doc, key)) => relocate_missing(e, doc, key),
                        None => relocate_missing(e, score_doc, "scripts.score"),
                    }));
                    None
                }
            }
        }
        _ => None,
    }
}

/// The ruleset, from parts that passed every check.
fn build(
    source: Source,
    chain: &[Link],
    rules: Rules,
    t: &Tables,
    yard_slots: Vec<u8>,
    buildings: Vec<BuildingDef>,
    hooks: Hooks,
) -> Arc<Ruleset> {
    let Tables { money, score: (score_doc, score_path), neutral: (neutral_doc, neutral_path), two, .. } = *t;
    let (scorings, types) = (&t.scorings, &t.types);
    let top = &chain[0].file;
    let script_texts = [score_doc.source.join(score_path), neutral_doc.source.join(neutral_path)]
        .map(|s| s.read().unwrap_or_default());
    let mut parts = vec![
        toml::to_string(&rules).unwrap_or_default(),
        format!("{money:?}|{yard_slots:?}|{buildings:?}|{scorings:?}|{two:?}"),
        script_texts[0].clone(),
        script_texts[1].clone(),
    ];
    // Bonus cards change the counts (a ruleset without keeps its fingerprint).
    if types.iter().any(|t| t.counts_as.is_some()) {
        let bonus: Vec<(&str, Option<&String>)> = types.iter().map(|t| (t.id.as_str(), t.counts_as.as_ref())).collect();
        parts.push(format!("counts_as:{bonus:?}"));
    }
    let mut script_texts = vec![
        ("scripts.score".to_owned(), script_texts[0].clone()),
        ("scripts.neutral".to_owned(), script_texts[1].clone()),
    ];
    // The rules script and the cards' scripts, when there are any (a ruleset without keeps its fingerprint).
    if let Some((doc, path)) = t.rules {
        let text = doc.source.join(path).read().unwrap_or_default();
        parts.push(format!("rules:{text}"));
        script_texts.push(("the rules script".to_owned(), text));
    }
    for (b, &(doc, _)) in types.iter().zip(&t.script_at) {
        if let Some(p) = &b.script {
            let text = doc.source.join(p).read().unwrap_or_default();
            parts.push(format!("{}:{}", b.id, text));
            script_texts.push((format!("building type {}", b.id), text));
        }
    }
    for c in &money.currencies {
        if let Some(p) = &c.script {
            let text = t.money_doc.source.join(p).read().unwrap_or_default();
            parts.push(format!("{}:{}", c.id, text));
            script_texts.push((format!("currency {}", c.id), text));
        }
    }
    // Money and deck cards of their own, only when there are some (the printed money keeps its fingerprint).
    let money_cards = t.money_card.map_or_else(Vec::new, |(_, c)| c.clone());
    let deck_cards = t.deck_card.map_or_else(Vec::new, |(_, c)| c.clone());
    for (doc, card) in t.money_card.iter().flat_map(|(d, c)| c.iter().map(move |c| (*d, c))) {
        parts.push(format!("{card:?}"));
        if let Some(p) = &card.script {
            let text = doc.source.join(p).read().unwrap_or_default();
            parts.push(format!("{}:{}", card.id, text));
            script_texts.push((format!("money card {}", card.id), text));
        }
    }
    for (doc, card) in t.deck_card.iter().flat_map(|(d, c)| c.iter().map(move |c| (*d, c))) {
        parts.push(format!("{card:?}"));
        if let Some(p) = &card.script {
            let text = doc.source.join(p).read().unwrap_or_default();
            parts.push(format!("{}:{}", card.id, text));
            script_texts.push((format!("deck card {}", card.id), text));
        }
    }
    let mut actions = Vec::new();
    for (doc, a) in t.action.iter().flat_map(|(d, l)| l.iter().map(move |a| (*d, a))) {
        parts.push(format!("{a:?}"));
        let text = doc.source.join(&a.script).read().unwrap_or_default();
        parts.push(format!("action {}:{}", a.id, text));
        script_texts.push((format!("action {}", a.id), text));
        actions.push(ActionDef {
            id: a.id.clone(),
            name: a.name.clone().unwrap_or_else(|| a.verb.clone()),
            verb: a.words(),
            args: a.args.iter().map(|k| ArgKind::of(k).expect("checked")).collect(),
            ends_turn: a.ends_turn.unwrap_or(true),
            at: if a.decision == "other_turn_end" { ActionAt::OtherTurnEnd } else { ActionAt::Turn },
            payment: a.payment.as_deref().map(|p| match p {
                "exact" => Payment::Exact,
                "any_one_currency" => Payment::AnyOneCurrency,
                _ => Payment::Price,
            }),
        });
    }
    let kinds = money_kinds(money, &money_cards, two.money_copies);
    let odd_money = kinds.iter().any(|k| {
        (k.special && (k.any || k.pays_in.is_some()))
            || hooks.currency_listens(crate::hooks::Hook::CanPay, k.script)
            || hooks.currency_listens(crate::hooks::Hook::PayValue, k.script)
    });
    let fingerprint = fingerprint(&parts.iter().map(String::as_str).collect::<Vec<_>>());
    let building_maps: Vec<rhai::Map> = buildings
        .iter()
        .map(|b| {
            let text = |t: &str| rhai::Dynamic::from(rhai::ImmutableString::from(t));
            rhai::Map::from_iter([
                ("type".into(), text(&types[b.kind as usize].id)),
                ("id".into(), text(&b.id)),
                ("price".into(), rhai::Dynamic::from_int(i32::from(b.price))),
            ])
        })
        .collect();
    let held_maps: Vec<rhai::Map> = building_maps
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.insert("bought".into(), rhai::Dynamic::from_int(0));
            m.insert("exact".into(), rhai::Dynamic::FALSE);
            m.insert("nth".into(), rhai::Dynamic::from_int(0));
            m
        })
        .collect();
    // The same, on the display: with its slot (from 1, as `buy 1` says) and the slot's currency.
    let display_maps: Vec<rhai::Map> = yard_slots
        .iter()
        .enumerate()
        .flat_map(|(slot, &c)| {
            let currency = rhai::Dynamic::from(rhai::ImmutableString::from(money.currencies[c as usize].id.as_str()));
            building_maps.iter().map(move |m| {
                let mut m = m.clone();
                m.insert("slot".into(), rhai::Dynamic::from_int(slot as i32 + 1));
                m.insert("currency".into(), currency.clone());
                m
            })
        })
        .collect();
    let rules_map = Arc::new(toml_map(&toml::Table::try_from(&rules).unwrap_or_default()));
    let (kinds_len, buildings_len, yard_len) = (kinds.len(), buildings.len(), yard_slots.len());
    Arc::new(Ruleset {
        id: top.id.clone(),
        name: top.name.clone(),
        description: top.description.clone(),
        parents: chain[1..].iter().map(|l| l.doc.source.clone()).collect(),
        source,
        rules,
        currencies: money.currencies.clone(),
        values: money.values.clone(),
        copies: money.copies,
        // Per slot: its currency's bit, and the bits of the money cards of that currency or of any.
        slot_pays: yard_slots.iter().map(|&c| currency_mask(&kinds, c)).collect(),
        currency_pays: (0..MAX_CURRENCIES as u8).map(|c| currency_mask(&kinds, c)).collect(),
        kind_index: {
            let mut index = vec![u8::MAX; MAX_CURRENCIES * 100];
            for (i, k) in kinds.iter().enumerate().filter(|(_, k)| !k.special) {
                index[usize::from(k.card.currency) * 100 + usize::from(k.card.value)] = i as u8;
            }
            index
        },
        money_ids: first_by_id(kinds.iter().map(|k| k.id.as_str())),
        building_ids: first_by_id(buildings.iter().map(|b| b.id.as_str())),
        money_maps: kinds
            .iter()
            .map(|k| {
                let text = |t: &str| rhai::Dynamic::from(rhai::ImmutableString::from(t));
                rhai::Map::from_iter([
                    ("id".into(), text(&k.id)),
                    ("currency".into(), text(&k.currency_id)),
                    ("value".into(), rhai::Dynamic::from_int(i32::from(k.card.value))),
                ])
            })
            .collect(),
        money: kinds,
        money_cards,
        deck_cards,
        odd_money,
        yard: yard_slots,
        types: types.clone(),
        record_ids: buildings.iter().map(|b| Arc::from(b.id.as_str())).collect(),
        record_kinds: buildings.iter().map(|b| Arc::from(types[b.kind as usize].id.as_str())).collect(),
        buildings,
        scorings: scorings.clone(),
        two_players: two.clone(),
        hooks,
        rules_map,
        building_maps,
        held_maps,
        display_maps,
        fingerprint,
        base: engine_rules::chain::built_in_base(chain, &BUILTINS),
        script_texts,
        words: Default::default(),
        arg_words: ArgWords {
            money: WordCache::new(kinds_len),
            buildings: WordCache::new(buildings_len),
            slots: WordCache::new(yard_len),
        },
        scripted_legal: odd_money || !actions.is_empty(),
        out_of_turn: actions.iter().any(|a| a.at == ActionAt::OtherTurnEnd),
        counts_as: types
            .iter()
            .map(|t| t.counts_as.as_ref().and_then(|g| types.iter().position(|o| o.id == *g)).map(|g| g as u8))
            .collect(),
        bonus_types: types.iter().any(|t| t.counts_as.is_some()),
        actions,
    })
}

impl Ruleset {
    /// Building `b` on display slot `slot` as scripts see it (`#{ type, id, price, slot, currency }`).
    pub fn display_map(&self, b: BuildingIdx, slot: usize) -> rhai::Map {
        self.display_maps[slot * self.buildings.len() + b as usize].clone()
    }

    /// The type whose count one more building of type `kind` raises for a
    /// collector with `counts`: its own, or for a bonus card the type it
    /// counts as while one is held (`None`: none, it counts for nothing yet).
    #[inline]
    pub fn counted_type(&self, kind: u8, counts: &[u8; MAX_TYPES]) -> Option<usize> {
        let t = usize::from(kind);
        if !self.bonus_types {
            return Some(t);
        }
        match self.counts_as[t] {
            Some(g) if counts[usize::from(g)] > 0 => Some(usize::from(g)),
            Some(_) => None,
            None => Some(t),
        }
    }

    /// Loads a built-in ruleset by id, or a ruleset file by path.
    pub fn load(spec: &str) -> Result<Arc<Ruleset>, LoadErrors> {
        Ruleset::load_source(resolve_spec(spec, None, &BUILTINS)?)
    }

    /// Loads the ruleset in `source`, reporting every problem found: reads the
    /// `extends` chain, merges its `[rules]`, validates each table where it is
    /// written, then builds the ruleset.
    pub fn load_source(source: Source) -> Result<Arc<Ruleset>, LoadErrors> {
        let root = source.tree_root();
        let chain: Vec<Link> = read_chain(&source, root.as_deref(), &BUILTINS)?;
        let mut errors = Vec::new();
        let Some(rules) = merge_rules(&chain, &mut errors) else { return Err(LoadErrors(errors)) };
        let t = Tables::nearest(&chain, &mut errors);
        check_money(&chain, &rules, &t, &mut errors);
        let yard_slots = yard_slots(&t, &mut errors);
        let buildings = building_cards(&t, &mut errors);
        check_scorings(&rules, &t, &mut errors);
        check_actions(&t, &mut errors);
        let hooks = load_hooks(&t, root.as_deref(), &mut errors);
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        Ok(build(source, &chain, rules, &t, yard_slots, buildings, hooks.expect("no errors")))
    }

    /// Money cards in a game with this many players (every kind, times its copies).
    pub fn money_cards(&self, players: usize) -> usize {
        self.money.iter().map(|k| usize::from(self.kind_copies(k, players))).sum()
    }

    /// Copies of a money card kind with this many players.
    pub fn kind_copies(&self, k: &MoneyKind, players: usize) -> u8 {
        if players == 2 { k.two_copies } else { k.copies }
    }

    /// Copies of each printed money card with this many players (`[money] copies`).
    pub fn money_copies(&self, players: usize) -> u8 {
        if players == 2 { self.two_players.money_copies } else { self.copies }
    }

    /// Deck cards (in the money deck, neither money nor scoring cards).
    pub fn deck_card_count(&self) -> usize {
        self.deck_cards.len()
    }

    /// Building cards.
    pub fn building_cards(&self) -> usize {
        self.buildings.iter().map(|b| b.copies as usize).sum()
    }

    /// Scoring cards (in the money deck).
    pub fn scoring_cards(&self) -> usize {
        self.scorings.iter().filter(|s| s.card.is_some()).count()
    }

    /// Every card of a game with this many players.
    pub fn total_cards(&self, players: usize) -> usize {
        self.money_cards(players) + self.building_cards() + self.scoring_cards() + self.deck_card_count()
    }

    /// Slots of the building display (one per yard currency).
    pub fn building_display(&self) -> usize {
        self.yard.len()
    }

    /// The index of a money card's kind in [`Ruleset::money`].
    #[inline]
    pub fn kind_of(&self, m: Money) -> usize {
        if m.currency >= FIRST_CARD {
            self.money.len() - self.money_cards.len() + usize::from(m.currency - FIRST_CARD)
        } else {
            usize::from(self.kind_index[usize::from(m.currency) * 100 + usize::from(m.value)])
        }
    }

    /// A money card's kind.
    pub fn kind(&self, m: Money) -> &MoneyKind {
        &self.money[self.kind_of(m)]
    }

    /// The id of a money card: `denar5`, `joker`.
    pub fn money_id(&self, m: Money) -> String {
        self.kind(m).id.clone()
    }

    /// The id of a money card, borrowed.
    pub fn money_str(&self, m: Money) -> &str {
        &self.kind(m).id
    }

    /// A money card in words: `5 denars`, `1 ducat` (a currency is named in the
    /// plural), a `[[money_card]]` by its name (`Joker`).
    pub fn money_name(&self, m: Money) -> String {
        if m.currency >= FIRST_CARD {
            return self.money_cards[usize::from(m.currency - FIRST_CARD)].name.clone();
        }
        let name = &self.currencies[m.currency as usize].name;
        let name = if m.value == 1 { name.strip_suffix('s').unwrap_or(name) } else { name };
        format!("{} {name}", m.value)
    }

    /// True for a money card of no currency (`currency = "none"`): it never pays and is no starting capital.
    pub fn pays_nowhere(&self, m: Money) -> bool {
        m.currency >= FIRST_CARD && {
            let k = self.kind(m);
            k.pays_in.is_none() && !k.any
        }
    }

    /// The money of currency `c` in a hand with these sums: its cards and the money cards of that currency.
    pub fn currency_total(&self, sums: &[u32; SUMS], c: u8) -> u32 {
        if self.money_cards.is_empty() {
            return sums[usize::from(c)];
        }
        let cards = self.money.iter().filter(|k| k.special && k.pays_in == Some(c));
        sums[usize::from(c)] + cards.map(|k| sums[usize::from(k.card.currency)]).sum::<u32>()
    }

    /// Reads a money card id.
    pub fn lookup_money(&self, id: &str) -> Result<Money, String> {
        if let Some(&k) = self.money_ids.get(id) {
            return Ok(self.money[k].card);
        }
        for (i, c) in self.currencies.iter().enumerate() {
            if let Some(v) = id.strip_prefix(c.id.as_str())
                && v.parse::<u8>().is_ok()
            {
                let values: Vec<String> = self
                    .money
                    .iter()
                    .filter(|k| k.card.currency == i as u8)
                    .map(|k| k.card.value.to_string())
                    .collect();
                return Err(format!("there is no money card `{id}`: {} come in values {}", c.name, values.join(", ")));
            }
        }
        let ids: Vec<&str> = self.currencies.iter().map(|c| c.id.as_str()).collect();
        let cards: Vec<&str> = self.money_cards.iter().map(|c| c.id.as_str()).collect();
        let also = if cards.is_empty() { String::new() } else { format!(" or a money card ({})", cards.join(", ")) };
        Err(format!(
            "unknown money card `{id}`; write a currency ({}) and a value, e.g. `{}5`{also}",
            ids.join(", "),
            ids[0]
        ))
    }

    /// The deck card with this id (`caravan`).
    pub fn lookup_deck_card(&self, id: &str) -> Option<u8> {
        self.deck_cards.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    /// The building card kind with this id (`garden10`).
    pub fn lookup_building(&self, id: &str) -> Result<BuildingIdx, String> {
        self.building_ids.get(id).copied().ok_or_else(|| {
            format!("unknown building `{id}`; write a type and a price, e.g. `{}`", self.buildings[0].id)
        })
    }

    /// The building type with this id (`garden`).
    pub fn lookup_type(&self, id: &str) -> Option<usize> {
        self.types.iter().position(|t| t.id == id)
    }

    /// The scoring whose card has this id.
    pub fn lookup_scoring_card(&self, id: &str) -> Option<u8> {
        self.scorings.iter().position(|s| s.card.as_deref() == Some(id)).map(|i| i as u8)
    }

    /// A building kind's definition.
    pub fn building(&self, b: BuildingIdx) -> &BuildingDef {
        &self.buildings[b as usize]
    }

    /// A building's id, shared (for game records).
    pub fn record_id(&self, b: BuildingIdx) -> Arc<str> {
        Arc::clone(&self.record_ids[b as usize])
    }

    /// A building's type id, shared (for game records).
    pub fn record_kind(&self, b: BuildingIdx) -> Arc<str> {
        Arc::clone(&self.record_kinds[b as usize])
    }

    /// The currency's name in sentences (`denars`).
    pub fn currency_name(&self, c: u8) -> &str {
        if c < FIRST_CARD {
            return &self.currencies[c as usize].name;
        }
        let k = &self.money[self.money.len() - self.money_cards.len() + usize::from(c - FIRST_CARD)];
        match (k.pays_in, k.any) {
            (Some(c), _) => &self.currencies[c as usize].name,
            (None, true) => "any currency",
            (None, false) => "no currency",
        }
    }
}

/// A bit per money kind that pays in currency `c`: the currency's own, and
/// the money cards that pay in it or in any.
pub(crate) fn currency_mask(kinds: &[MoneyKind], c: u8) -> PayMask {
    let cards = kinds.iter().filter(|k| k.special && (k.any || k.pays_in == Some(c)));
    cards.fold(1 << c, |bits: PayMask, k| bits | 1 << k.card.currency)
}

/// Each id's first place among `ids`, by id.
fn first_by_id<T: TryFrom<usize>>(ids: impl Iterator<Item = impl Into<String>>) -> rustc_hash::FxHashMap<String, T> {
    let mut by_id = rustc_hash::FxHashMap::default();
    for (i, id) in ids.enumerate() {
        if let Ok(i) = T::try_from(i) {
            by_id.entry(id.into()).or_insert(i);
        }
    }
    by_id
}

/// A building card kind: an index into [`Ruleset::buildings`].
pub type BuildingIdx = u8;

/// A [`Money`]'s `currency` from here on names a `[[money_card]]` (`FIRST_CARD + k`), not a currency.
pub const FIRST_CARD: u8 = MAX_CURRENCIES as u8;
/// Most `[[money_card]]` entries: each has its own bit in a [`PayMask`] and its own hand sum.
pub const MAX_MONEY_CARDS: usize = 8;
/// A hand's sums: one per currency, then one per `[[money_card]]`.
pub const SUMS: usize = MAX_CURRENCIES + MAX_MONEY_CARDS;
/// A bit per currency (and per `[[money_card]]`) that may pay for a building.
pub type PayMask = u16;
/// Most kinds of money card (currencies × values, and the money cards).
pub const MAX_MONEY_KINDS: usize = 250;

/// A money card: a currency and a value, two bytes read at every decision.
/// A `[[money_card]]` has `currency` [`FIRST_CARD`] + its index, so that its
/// cards are told apart from a currency's, and `value` its face value;
/// [`Ruleset::kind_of`] finds its id, copies and script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Money {
    /// Index of the currency in [`Ruleset::currencies`], or [`FIRST_CARD`] + the money card's index.
    pub currency: u8,
    /// Face value: what it counts when taken (and paid, unless its script says otherwise).
    pub value: u8,
}

/// One kind of money card: a currency's value, or a `[[money_card]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoneyKind {
    /// Its id (`denar5`, `joker`).
    pub id: String,
    /// The card itself.
    pub card: Money,
    /// Copies with 3 or more players.
    pub copies: u8,
    /// Copies with two players.
    pub two_copies: u8,
    /// Its script's index among the money scripts: the currencies', then the money cards'.
    pub script: usize,
    /// True for a `[[money_card]]`.
    pub special: bool,
    /// What it pays in: its currency's index, or `None` (`"any"` or `"none"`).
    pub pays_in: Option<u8>,
    /// `currency = "any"`: it may pay in every slot.
    pub any: bool,
    /// Its currency as written (`denar`, `any`, `none`).
    pub currency_id: String,
}

fn check_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    if ok { Ok(()) } else { Err(format!("`{id}`: an id is lowercase letters and `_`, starting with a letter")) }
}

/// A short digest of these texts.
fn fingerprint(parts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

impl Ruleset {
    /// What `other` changes: rule by rule (`rules.take_limit: 5 -> 6`), money
    /// and yard, building type by type (matched by id: `+ building type …`),
    /// scoring rank by rank, the two-player rules; each script whose text
    /// differs, by its owner (`building type garden: script text differs`).
    pub fn diff(&self, other: &Ruleset) -> Vec<String> {
        let (a, b) = (self, other);
        let prefixed = |p: &str, lines: Vec<String>| lines.into_iter().map(|l| format!("{p}.{l}")).collect::<Vec<_>>();
        let mut out = prefixed("rules", engine_rules::diff::changes(&a.rules, &b.rules));
        let mut field = |what: &str, x: String, y: String| {
            if x != y {
                out.push(format!("{what}: {x} -> {y}"));
            }
        };
        let currencies =
            |r: &Ruleset| spaced(&r.currencies.iter().map(|c| format!("{} ({})", c.id, c.name)).collect::<Vec<_>>());
        field("money.currencies", currencies(a), currencies(b));
        field("money.values", spaced(&a.values), spaced(&b.values));
        field("money.copies", a.copies.to_string(), b.copies.to_string());
        let yard =
            |r: &Ruleset| spaced(&r.yard.iter().map(|&c| r.currencies[c as usize].id.clone()).collect::<Vec<_>>());
        field("yard.slots", yard(a), yard(b));
        // Building types by id; their order is the scoring table's column order.
        let kind = |t: &BuildingType| format!("{}, {} cards, prices {}", t.name, t.prices.len(), spaced(&t.prices));
        for t in &a.types {
            match b.types.iter().find(|u| u.id == t.id) {
                None => out.push(format!("- building type {} ({})", t.id, kind(t))),
                Some(u) => {
                    if t.name != u.name {
                        out.push(format!("building type {}: name {} -> {}", t.id, t.name, u.name));
                    }
                    if t.prices != u.prices {
                        out.push(format!(
                            "building type {}: prices {} -> {}",
                            t.id,
                            spaced(&t.prices),
                            spaced(&u.prices)
                        ));
                    }
                }
            }
        }
        for t in b.types.iter().filter(|t| a.lookup_type(&t.id).is_none()) {
            out.push(format!("+ building type {} ({})", t.id, kind(t)));
        }
        let common = |x: &Ruleset, y: &Ruleset| -> Vec<String> {
            x.types.iter().filter(|t| y.lookup_type(&t.id).is_some()).map(|t| t.id.clone()).collect()
        };
        let (oa, ob) = (common(a, b), common(b, a));
        if oa != ob {
            out.push(format!("building type order: {} -> {}", spaced(&oa), spaced(&ob)));
        }
        // Scorings by name, rank by rank.
        let when = |s: &Scoring| match (&s.card, s.pile) {
            (Some(c), Some(p)) => format!("card {c} in pile {p}"),
            (Some(c), None) => format!("card {c}"),
            _ => "at the game end".to_owned(),
        };
        for s in &a.scorings {
            match b.scorings.iter().find(|t| t.name == s.name) {
                None => out.push(format!("- scoring {} ({})", s.name, when(s))),
                Some(t) => {
                    if when(s) != when(t) {
                        out.push(format!("scoring {}: {} -> {}", s.name, when(s), when(t)));
                    }
                    for r in 0..s.ranks.len().max(t.ranks.len()) {
                        let row = |x: &Scoring| x.ranks.get(r).map_or("(none)".into(), |v| spaced(v));
                        if row(s) != row(t) {
                            out.push(format!("scoring {} rank {}: {} -> {}", s.name, r + 1, row(s), row(t)));
                        }
                    }
                }
            }
        }
        for s in b.scorings.iter().filter(|s| !a.scorings.iter().any(|t| t.name == s.name)) {
            let ranks: Vec<String> = s.ranks.iter().map(|r| spaced(r)).collect();
            out.push(format!("+ scoring {} ({}; ranks {})", s.name, when(s), ranks.join(" / ")));
        }
        out.extend(prefixed("two_players", engine_rules::diff::changes(&a.two_players, &b.two_players)));
        let text = |r: &Ruleset, owner: &str| r.script_texts.iter().find(|(o, _)| o == owner).map(|(_, t)| t.clone());
        let owners = a.script_texts.iter().chain(&b.script_texts).map(|(o, _)| o.as_str());
        let mut named = Vec::new();
        for owner in owners {
            if named.contains(&owner) {
                continue;
            }
            named.push(owner);
            // A type or currency only one ruleset has is reported above, with or without its script.
            let exists = |r: &Ruleset| match (owner.strip_prefix("building type "), owner.strip_prefix("currency ")) {
                (Some(id), _) => r.lookup_type(id).is_some(),
                (_, Some(id)) => r.currencies.iter().any(|c| c.id == id),
                _ => true,
            };
            if !exists(a) || !exists(b) {
                continue;
            }
            match (text(a, owner), text(b, owner)) {
                (Some(x), Some(y)) if x != y => out.push(format!("{owner}: script text differs")),
                (Some(_), None) => out.push(format!("{owner}: script removed")),
                (None, Some(_)) => out.push(format!("{owner}: script added")),
                _ => {}
            }
        }
        if out.is_empty() && a.fingerprint != b.fingerprint {
            out.push(format!("scripts: their text differs (fingerprint {} -> {})", a.fingerprint, b.fingerprint));
        }
        out
    }
}

/// A TOML table as a script map (integers, booleans, strings, lists, tables).
fn toml_map(table: &toml::Table) -> rhai::Map {
    fn value(v: &toml::Value) -> rhai::Dynamic {
        match v {
            toml::Value::Integer(n) => {
                rhai::Dynamic::from_int((*n).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
            }
            toml::Value::Boolean(b) => rhai::Dynamic::from_bool(*b),
            toml::Value::Array(a) => rhai::Dynamic::from_array(a.iter().map(value).collect()),
            toml::Value::Table(t) => rhai::Dynamic::from_map(toml_map(t)),
            other => rhai::Dynamic::from(rhai::ImmutableString::from(other.as_str().unwrap_or_default())),
        }
    }
    table.iter().map(|(k, v)| (k.as_str().into(), value(v))).collect()
}

/// Numbers (or ids) separated by spaces: `2 3 4`.
fn spaced<T: ToString>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// A script file that cannot be read is reported where the ruleset names it (`key` in `doc`).
fn relocate_missing(e: LoadError, doc: &TomlDoc, key: &str) -> LoadError {
    if e.pos.line == 0 { relocate(e, doc, key) } else { e }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_ruleset_has_the_cards_of_the_rules_text() {
        let rs = Ruleset::load(DEFAULT_RULESET).unwrap();
        assert_eq!(rs.money_cards(4), 108);
        assert_eq!(rs.money_cards(2), 72);
        assert_eq!(rs.building_cards(), 54);
        assert_eq!(rs.scoring_cards(), 2);
        assert_eq!(rs.total_cards(3), 164);
        let per_type: Vec<usize> = (0..6)
            .map(|t| rs.buildings.iter().filter(|b| b.kind as usize == t).map(|b| b.copies as usize).sum())
            .collect();
        assert_eq!(per_type, [7, 7, 9, 9, 11, 11]);
        assert_eq!(rs.lookup_money("ducat7").map(|m| rs.money_id(m)), Ok("ducat7".into()));
        assert_eq!(
            rs.lookup_money("ducat10"),
            Err("there is no money card `ducat10`: ducats come in values 1, 2, 3, 4, 5, 6, 7, 8, 9".into())
        );
        assert_eq!(rs.building(rs.lookup_building("garden10").unwrap()).copies, 3);
        assert!(rs.diff(&rs).is_empty());
    }
}
