//! Rulesets: which card sets, which rule numbers, which per-card overrides.
//!
//! A ruleset file may `extends` another and change only what differs: its
//! `[rules]` table is merged key by key over the parent's, its `[cards.<id>]`
//! tables patch single fields of a card, and `extra_sets` adds card files.

pub(crate) mod estimates;

use engine_script::HookMask;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use crate::cards::{CardDef, CardIdx, CardTable, SourcedCard, check_card_number, invalid_id, read_card_set};
use crate::doc::TomlDoc;
use crate::error::{LoadError, LoadErrors};
use crate::files::{BUILTINS, Source};
use crate::hooks::{self, HOOKS, Hook};
use crate::script::{Limits, ScriptHost};
use engine_rules::chain::{ChainFile, read_chain, relocate, resolve_spec};
use engine_rules::rules;

rules! {
    /// Fewest players.
    min_players: usize => Some((2, MAX_PLAYERS)),
    /// Most players.
    max_players: usize => Some((2, MAX_PLAYERS)),
    /// Cards dealt to each player at setup.
    start_hand: usize => Some((0, 50)),
    /// Buildings each player starts with, face up (taken out of the deck).
    start_buildings: Vec<String> => None,
    /// Hand limit checked at the start of each round (buildings may raise it).
    hand_limit: i32 => Some((1, 200)),
    /// The game ends after the builder phase in which someone has this many buildings.
    end_buildings: usize => Some((1, 100)),
    /// Not in the rulebook: a game still running after this many rounds ends as it
    /// stands (bot games can stall with every card under chapels or cranes).
    max_rounds: u32 => Some((1, 10_000)),
    /// Roles chosen per round, by number of players ("2" = 3: governor, opponent, governor).
    roles_per_round: BTreeMap<String, usize> => Some((1, 5)),
    /// Player counts in which a privilege boost (the library) works only once per round.
    privilege_boost_once_per_round: Vec<usize> => Some((2, MAX_PLAYERS)),
    /// Builder privilege: cards off the cost.
    builder_discount: i32 => Some((0, 20)),
    /// Goods each player may produce.
    produce: i32 => Some((0, 20)),
    /// Producer privilege: extra goods.
    producer_privilege: i32 => Some((0, 20)),
    /// Goods each player may sell.
    sell: i32 => Some((0, 20)),
    /// Trader privilege: extra sales.
    trader_privilege: i32 => Some((0, 20)),
    /// Cards each player draws in the councillor phase.
    council_draw: i32 => Some((0, 50)),
    /// Councillor privilege: extra cards drawn.
    council_privilege: i32 => Some((0, 50)),
    /// Cards each player keeps in the councillor phase.
    council_keep: i32 => Some((0, 50)),
    /// Prospector privilege: cards drawn.
    prospector_privilege: i32 => Some((0, 20)),
    /// Goods, in trading-tile column order.
    goods: Vec<String> => None,
    /// Trading house tiles: the price of each good, in `goods` order.
    trading_tiles: Vec<Vec<i32>> => Some((0, 20)),
    /// A player may own only one of each city building.
    unique_city_buildings: bool => None,
    /// Setup variant: players draw more cards and keep `start_hand`.
    setup_variant: bool => None,
    /// Setup variant: cards drawn by the 1st, 2nd, … player.
    setup_variant_draws: Vec<usize> => Some((0, 50)),
}

pub use crate::limits::MAX_PLAYERS;

impl Rules {
    /// Roles chosen per round with `players` players.
    pub fn roles_per_round(&self, players: usize) -> usize {
        // Keys are checked to be player counts at load; parsed, not formatted: this is asked every round.
        self.roles_per_round.iter().find(|(k, _)| k.parse() == Ok(players)).map_or(players, |(_, &n)| n)
    }
}

/// A `[cards.<id>]` table: changes to single fields of a card a set defines.
#[derive(Clone, Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = crate::cards::card_ranges)]
pub(crate) struct CardPatch {
    /// Display name.
    name: Option<String>,
    /// What the card does, in one line.
    text: Option<String>,
    /// Building cost in cards.
    cost: Option<i32>,
    /// Printed victory points.
    vp: Option<i32>,
    /// Copies in the deck; 0 takes the card out of the game.
    copies: Option<u32>,
    /// Replaces the card's tags.
    tags: Option<Vec<String>>,
    /// Another script, relative to this ruleset file; "" removes the script.
    script: Option<String>,
    /// Hook call order among cards, lower first.
    order: Option<i32>,
    /// The building carries a good.
    holds_good: Option<bool>,
    /// Sale price of a good on this building, whatever the trading tile says.
    fixed_price: Option<i32>,
    /// Victory points per card under this building.
    under_vp: Option<i32>,
    /// Lies face up beside the roles instead of in the deck.
    public: Option<bool>,
    /// `false`: a public card nobody may build, only claimed by a script's `move`.
    buildable: Option<bool>,
}

impl CardPatch {
    /// The numbers this patch sets, by field name.
    fn numbers(&self) -> Vec<(&'static str, i64)> {
        let fields = [
            ("cost", self.cost.map(i64::from)),
            ("vp", self.vp.map(i64::from)),
            ("copies", self.copies.map(i64::from)),
            ("order", self.order.map(i64::from)),
            ("fixed_price", self.fixed_price.map(i64::from)),
            ("under_vp", self.under_vp.map(i64::from)),
        ];
        fields.into_iter().filter_map(|(f, v)| v.map(|v| (f, v))).collect()
    }
}

/// A San Juan ruleset: its card sets, rule numbers and card changes (docs/rulesets.md).
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesetFile {
    /// Short name; game records and reports are labelled by it.
    id: String,
    /// Display name.
    name: String,
    /// What the ruleset is, in a sentence.
    #[serde(default)]
    description: String,
    /// The game, `san-juan` (may be left out: it is the default).
    #[schemars(extend("enum" = ["san-juan"]))]
    game: Option<String>,
    /// The ruleset this one changes (an id or a path relative to this file).
    extends: Option<String>,
    /// The card set files (relative to this file); replaces those of the ruleset extended.
    sets: Option<Vec<String>>,
    /// More card set files, added to those of the ruleset extended.
    #[serde(default)]
    extra_sets: Vec<String>,
    /// Rule numbers, merged key by key over those of the ruleset extended.
    #[serde(default)]
    rules: RulesPatch,
    /// Changes to single fields of a card, by card id.
    #[serde(default)]
    cards: BTreeMap<String, CardPatch>,
    /// The rules script (relative to this file): hooks every player hears, no card needed.
    rules_script: Option<String>,
    /// Actions of the ruleset's own (a verb, the decision it is offered at, what it uses, who may, its script).
    action: Option<Vec<engine_rules::actions::ActionEntry>>,
}

type Link = engine_rules::chain::Link<RulesetFile>;

impl ChainFile for RulesetFile {
    const SHAPE_HELP: &'static str = "a ruleset has id, name, game, extends or sets, rules_script, [rules] and [cards.<id>] tables (docs/rulesets.md)";

    /// A card set given where a ruleset belongs says so, rather than "unknown field `card`".
    fn shape_error(doc: &TomlDoc, e: LoadError) -> LoadError {
        if doc.has("card") && !doc.has("id") {
            return doc
                .key_error("card", format!("{} is a card set, not a ruleset", doc.source))
                .help("a ruleset lists its card sets in `sets` or `extra_sets`; give that ruleset (docs/rulesets.md)");
        }
        e.help(Self::SHAPE_HELP)
    }

    fn extends(&self) -> Option<&str> {
        self.extends.as_deref()
    }

    fn game(&self) -> Option<&str> {
        self.game.as_deref()
    }

    fn check_root(&self, doc: &TomlDoc) -> Result<(), LoadError> {
        if self.sets.is_some() {
            return Ok(());
        }
        Err(doc
            .key_error("id", "this ruleset names no card sets")
            .help("add `sets = [\"../base.toml\"]` or `extends = \"second-edition\"`"))
    }
}

/// A loaded ruleset: rules, cards and compiled scripts. Shared by all games.
pub struct Ruleset {
    /// Id, e.g. `second-edition`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What it is, in a sentence.
    pub description: String,
    /// The file it was loaded from.
    pub source: Source,
    /// The files it extends, nearest first.
    pub parents: Vec<Source>,
    /// The rule numbers.
    pub rules: Rules,
    /// The card types.
    pub cards: Arc<CardTable>,
    /// Compiled scripts and hook dispatch.
    pub scripts: ScriptHost,
    /// The `[rules]` numbers as scripts read them (`ctx.table.rules`).
    pub rules_map: Arc<rhai::Map>,
    /// `rules.start_buildings` resolved.
    pub start_buildings: Vec<CardIdx>,
    /// Cards sorted by hook order, for deterministic dispatch.
    pub order: Vec<CardIdx>,
    /// The card set files used.
    pub sets: Vec<Source>,
    /// Per card, a bit per hook its script defines.
    pub hook_masks: Vec<HookMask>,
    /// Every card of the deck (the public ones left out), each copy once, in
    /// card order: a game's deck before it is dealt, copied rather than made
    /// again for each game (2k instructions of a random game).
    pub deck_cards: Vec<CardIdx>,
    /// Every hook some card of the ruleset listens to, in play or not (a
    /// card in hand may set the rules of its own payment).
    pub(crate) all_hooks: HookMask,
    /// Per card, its `on_score` reads `ctx.covered_by`: it scores when covered too.
    pub(crate) scores_covered: Vec<bool>,
    /// Some card scores when covered (most rulesets: none, and nothing is looked at).
    pub(crate) any_scores_covered: bool,
    /// Roles chosen per round, by player count (`rules.roles_per_round`
    /// looked up once: a round asks it).
    pub(crate) round_roles: Vec<usize>,
    /// Discounts of build-cost hooks that depend only on what is built.
    pub cost_table: hooks::CostTable,
    /// What build-option hooks that depend on nothing grant.
    pub build_grants: hooks::BuildGrants,
    /// The mean over production buildings of their good's mean price (the balance bot's floor for a good).
    pub(crate) mean_good_price: f64,
    /// Per card, the mean price of its good over the trading tiles (0: none).
    pub(crate) mean_prices: Vec<f64>,
    /// The mean printed points of the deck's cards.
    pub(crate) mean_vp: f64,
    /// Per card, whether its scoring script answers from its owner's city alone.
    pub(crate) scores_by_city: Vec<bool>,
    /// What those scripts read of a building beyond its card and the cards under it.
    pub(crate) score_city_reads: estimates::CityReads,
    /// Per hook and owner, what a hook that reads the table (or more than
    /// plain values and cities) reads: the row its answers are remembered by.
    pub(crate) read_plans: crate::reads::ReadPlans,
    /// The hooks the rules script defines (0 without one): every seat hears
    /// them as if it owned a building with that script.
    pub(crate) rules_mask: HookMask,
    /// Every public card may be built (no `buildable = false`): the builder
    /// turn then skips the test.
    pub(crate) all_buildable: bool,
    /// The ruleset's own actions (`[[action]]`), in file order.
    pub actions: Vec<ActionDef>,
    /// A digest of everything that decides play: rules, cards and script texts.
    /// Game records carry it, so results of two different rulesets that share
    /// an id are not mixed up.
    pub fingerprint: String,
    /// The built-in ruleset this one is a change of (its balance model's learning starts from that one's).
    pub base: Option<String>,
    /// Problems that do not stop loading (a built-in id given to other content).
    pub warnings: Vec<LoadError>,
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ruleset").field("id", &self.id).field("source", &self.source).finish()
    }
}

/// The default ruleset id.
pub const DEFAULT_RULESET: &str = "second-edition";

impl Ruleset {
    /// Loads a built-in ruleset by id, or a ruleset file by path.
    pub fn load(spec: &str) -> Result<Arc<Ruleset>, LoadErrors> {
        Ruleset::load_source(resolve_spec(spec, None, &BUILTINS)?)
    }

    /// Loads the ruleset in `source`, reporting every problem found: reads the
    /// `extends` chain and its card sets, merges copies, card patches and
    /// rules, validates the result, then builds the ruleset.
    pub fn load_source(source: Source) -> Result<Arc<Ruleset>, LoadErrors> {
        let mut errors = Vec::new();
        let root = source.tree_root();
        let chain: Vec<Link> = read_chain(&source, root.as_deref(), &BUILTINS)?;
        let top = &chain[0];
        if let Err(e) = engine_rules::chain::check_ruleset_id(&top.doc, &top.file.id) {
            errors.push(e);
        }
        let sets = set_sources(&chain, root.as_deref(), &mut errors);
        let (specs, add_copies, sets_read) = read_cards(&sets, &mut errors);
        let mut defs: Vec<CardDef> = specs.iter().map(|c| to_def(c, root.as_deref(), &mut errors)).collect();
        merge_copies(&mut defs, add_copies, &mut errors);
        patch_cards(&chain, &mut defs, root.as_deref(), &mut errors);
        let rules = merge_rules(&chain, &mut errors);
        let rules_script = rules_script(&chain, root.as_deref(), &mut errors);
        let (table, start_buildings, mut scripts) =
            validate(&chain, &specs, defs, rules.as_ref(), sets_read, &mut errors);
        add_rules_script(&mut scripts, table.len(), rules_script.as_ref(), &mut errors);
        let actions = read_actions(&chain, &table, root.as_deref(), &mut scripts, &mut errors);
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        let rules = rules.unwrap_or_else(|| unreachable!("no errors means the rules merged"));
        let rules_text = rules_script.map(|(s, _)| s.read().unwrap_or_default());
        Ok(build(&chain, rules, table, scripts, start_buildings, sets, Own { rules_text, actions }))
    }

    /// What differs from `other`, rule by rule and card by card, one line each
    /// (`rules.hand_limit: 7 -> 6`, `+ card guard_room`, `card prefecture: cost 4 -> 3`).
    pub fn diff(&self, other: &Ruleset) -> Vec<String> {
        let mut out = Vec::new();
        let table = |r: &Rules| match toml::Value::try_from(r) {
            Ok(toml::Value::Table(t)) => t,
            _ => toml::Table::new(),
        };
        let (a, b) = (table(&self.rules), table(&other.rules));
        for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
            let show = |v: Option<&toml::Value>| v.map_or("(none)".to_owned(), ToString::to_string);
            if a.get(key) != b.get(key) {
                out.push(format!("rules.{key}: {} -> {}", show(a.get(key)), show(b.get(key))));
            }
        }
        for card in &self.cards.cards {
            match other.cards.idx(&card.id) {
                None => {
                    out.push(format!("- card {} (cost {}, {} VP, {} copies)", card.id, card.cost, card.vp, card.copies))
                }
                Some(i) => {
                    let theirs = other.cards.get(i);
                    let changes = card_changes(card, theirs);
                    if !changes.is_empty() {
                        out.push(format!("card {}: {}", card.id, changes.join(", ")));
                    }
                }
            }
        }
        for card in other.cards.cards.iter().filter(|c| self.cards.idx(&c.id).is_none()) {
            out.push(format!("+ card {} (cost {}, {} VP, {} copies)", card.id, card.cost, card.vp, card.copies));
        }
        // The ruleset's own rules: its rules script's hooks and its actions.
        let hooks = |r: &Ruleset| -> Vec<&str> {
            HOOKS
                .iter()
                .enumerate()
                .filter(|(h, _)| engine_script::has_hook(r.rules_mask, *h))
                .map(|(_, s)| s.name)
                .collect()
        };
        if self.rules_mask != other.rules_mask {
            let show = |h: Vec<&str>| if h.is_empty() { "(none)".to_owned() } else { h.join(" ") };
            out.push(format!("rules script: {} -> {}", show(hooks(self)), show(hooks(other))));
        }
        for a in self.actions.iter().filter(|a| !other.actions.iter().any(|b| b.id == a.id)) {
            out.push(format!("- action {} (`{}`)", a.id, a.verb.join(" ")));
        }
        for a in other.actions.iter().filter(|a| !self.actions.iter().any(|b| b.id == a.id)) {
            out.push(format!("+ action {} (`{}`)", a.id, a.verb.join(" ")));
        }
        out
    }

    /// The script owner of the rules script: the number after the cards' (as
    /// `Ctx::card`, a number no card has; `ctx.card` is `()` there).
    pub(crate) fn rules_owner(&self) -> CardIdx {
        self.cards.len() as CardIdx
    }

    /// What a script owner is called in the log: a card's name, an action's, or the rules.
    pub(crate) fn owner_name(&self, owner: CardIdx) -> String {
        let n = self.cards.len();
        match usize::from(owner).checked_sub(n + 1) {
            None if usize::from(owner) < n => self.cards.get(owner).name.to_lowercase(),
            Some(d) if d < self.actions.len() => format!("the action `{}`", self.actions[d].name),
            _ => "the rules".to_owned(),
        }
    }

    /// The script owner of action `def`: after the cards and the rules script.
    pub(crate) fn action_owner(&self, def: usize) -> CardIdx {
        (self.cards.len() + 1 + def) as CardIdx
    }

    /// The action whose script owner is `owner`, if it is one.
    pub(crate) fn action_of(&self, owner: CardIdx) -> Option<usize> {
        usize::from(owner).checked_sub(self.cards.len() + 1).filter(|&d| d < self.actions.len())
    }

    /// Total number of cards in the game (deck cards plus public cards).
    pub fn total_cards(&self) -> usize {
        self.cards.cards.iter().map(|c| c.copies as usize).sum()
    }
}

/// The fields in which two definitions of a card differ, as `field a -> b`.
fn card_changes(a: &CardDef, b: &CardDef) -> Vec<String> {
    let script = |c: &CardDef| c.script.as_ref().map_or("(none)".to_owned(), ToString::to_string);
    let fields: [(&str, String, String); 14] = [
        ("public", a.public.to_string(), b.public.to_string()),
        ("buildable", a.buildable.to_string(), b.buildable.to_string()),
        ("name", a.name.clone(), b.name.clone()),
        ("text", a.text.clone(), b.text.clone()),
        ("kind", a.kind.as_str().into(), b.kind.as_str().into()),
        ("cost", a.cost.to_string(), b.cost.to_string()),
        ("vp", a.vp.to_string(), b.vp.to_string()),
        ("copies", a.copies.to_string(), b.copies.to_string()),
        ("script", script(a), script(b)),
        ("tags", format!("{:?}", a.tags), format!("{:?}", b.tags)),
        ("order", a.order.to_string(), b.order.to_string()),
        ("holds_good", a.holds_good.to_string(), b.holds_good.to_string()),
        ("fixed_price", format!("{:?}", a.fixed_price), format!("{:?}", b.fixed_price)),
        ("under_vp", a.under_vp.to_string(), b.under_vp.to_string()),
    ];
    fields.into_iter().filter(|(_, x, y)| x != y).map(|(f, x, y)| format!("{f} {x} -> {y}")).collect()
}

/// The card set files of a chain: the nearest file that names `sets`, plus every `extra_sets`.
fn set_sources(chain: &[Link], root: Option<&std::path::Path>, errors: &mut Vec<LoadError>) -> Vec<Source> {
    let mut sets: Vec<Source> = Vec::new();
    for link in chain.iter().rev() {
        let file = &link.doc.source;
        let inside = |key: &str, i: usize, p: &str| {
            let s = file.join(p);
            s.check_inside(root, "toml").map(|()| s).map_err(|e| relocate(e, &link.doc, &format!("{key}.{i}")))
        };
        if let Some(s) = &link.file.sets {
            sets.clear();
            for (i, p) in s.iter().enumerate() {
                inside("sets", i, p).map_or_else(|e| errors.push(e), |s| sets.push(s));
            }
        }
        for (i, p) in link.file.extra_sets.iter().enumerate() {
            inside("extra_sets", i, p).map_or_else(|e| errors.push(e), |s| sets.push(s));
        }
    }
    sets
}

/// Extra copies a card set adds: (card id, copies, the file).
type AddCopies = Vec<(String, u32, Arc<TomlDoc>)>;

/// Reads the card sets: their cards (a card id defined twice is an error; the
/// first stays), their `add_copies`, and whether every set could be read.
fn read_cards(sets: &[Source], errors: &mut Vec<LoadError>) -> (Vec<SourcedCard>, AddCopies, bool) {
    let mut specs: Vec<SourcedCard> = Vec::new();
    let mut add_copies = Vec::new();
    let mut sets_read = true;
    for set in sets {
        match read_card_set(set) {
            Ok(s) => {
                specs.extend(s.cards);
                add_copies.extend(s.add_copies);
            }
            Err(e) => {
                errors.push(e);
                sets_read = false;
            }
        }
    }
    let mut seen: BTreeMap<String, Source> = BTreeMap::new();
    specs.retain(|c| match seen.get(&c.spec.id) {
        Some(first) => {
            errors.push(c.doc.error(&c.path("id"), format!("card id `{}` is defined twice", c.spec.id)).help(format!(
                "it is already defined in {first}; change one id, or patch it with [cards.{}]",
                c.spec.id
            )));
            false
        }
        None => {
            seen.insert(c.spec.id.clone(), c.doc.source.clone());
            true
        }
    });
    (specs, add_copies, sets_read)
}

/// Adds the sets' `add_copies` to the cards they name.
fn merge_copies(defs: &mut [CardDef], add_copies: AddCopies, errors: &mut Vec<LoadError>) {
    for (id, n, doc) in add_copies {
        match defs.iter_mut().find(|d| d.id == id.as_str()) {
            Some(d) => {
                // The same bound as `copies`: a card has at most that many copies in all.
                let max = crate::cards::CARD_RANGES.iter().find(|r| r.0 == "copies").map_or(200, |r| r.2) as u32;
                let total = d.copies.saturating_add(n);
                if total > max {
                    errors.push(
                        doc.error(
                            &format!("add_copies.{id}"),
                            format!(
                                "`add_copies.{id}` is {n}: with the {} defined that makes {total} copies",
                                d.copies
                            ),
                        )
                        .help(format!("a card has at most {max} copies in all; add fewer")),
                    );
                } else {
                    d.copies = total;
                }
            }
            None => errors.push(
                doc.key_error(
                    &format!("add_copies.{id}"),
                    format!("add_copies names `{id}`, which no card set defines"),
                )
                .help("add_copies adds copies of a card another set of the ruleset defines"),
            ),
        }
    }
}

/// Applies the chain's per-card patches, parent first so the child wins.
fn patch_cards(chain: &[Link], defs: &mut [CardDef], root: Option<&std::path::Path>, errors: &mut Vec<LoadError>) {
    for link in chain.iter().rev() {
        for (id, patch) in &link.file.cards {
            let path = format!("cards.{id}");
            let Some(def) = defs.iter_mut().find(|d| d.id == id.as_str()) else {
                let hint = crate::error::closest(id, defs.iter().map(|d| d.id.as_str()))
                    .map(|c| format!("did you mean `{c}`? "))
                    .unwrap_or_default();
                errors.push(
                    link.doc
                        .key_error(&path, format!("[cards.{id}] patches a card no set defines"))
                        .help(format!("{hint}to add a new card, put it in a card set file listed in `extra_sets`")),
                );
                continue;
            };
            for (field, value) in patch.numbers() {
                check_card_number(&link.doc, &format!("{path}.{field}"), field, value, errors);
            }
            if let Err(e) = apply_patch(def, patch, &link.doc.source, root) {
                errors.push(relocate(e, &link.doc, &format!("{path}.script")));
            }
            if patch.buildable == Some(false) && !def.public {
                errors.push(
                    link.doc
                        .error(
                            &format!("{path}.buildable"),
                            format!("card `{id}` is in the deck: `buildable = false` is for public cards"),
                        )
                        .help("set `public = true` too, or leave `buildable` out"),
                );
            }
        }
    }
}

/// The rules: each file's table is checked where it is written, then merged
/// over the parent's; `None` (with an error) when a rule is set nowhere.
fn merge_rules(chain: &[Link], errors: &mut Vec<LoadError>) -> Option<Rules> {
    let top = &chain[0];
    for link in chain {
        for (path, value, (lo, hi)) in link.file.rules.numbers() {
            if value < lo || value > hi {
                errors.push(
                    link.doc
                        .error(
                            &format!("rules.{path}"),
                            format!("rules.{path} is {value}; it must be between {lo} and {hi}"),
                        )
                        .help("the range of every rule number is in docs/rulesets.md"),
                );
            }
        }
    }
    let patches: Vec<&RulesPatch> = chain.iter().rev().map(|l| &l.file.rules).collect();
    match RulesPatch::merge(&patches) {
        Ok(r) => Some(r),
        Err(missing) => {
            let keys = missing.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            errors.push(
                top.doc
                    .key_error("rules", format!("the ruleset sets no {keys}"))
                    .help("add them under [rules], or `extends` a ruleset that sets them (docs/rulesets.md)"),
            );
            None
        }
    }
}

/// Checks the cards against the rules and each other, and compiles their
/// scripts: the card table, the start buildings and the scripts.
fn validate(
    chain: &[Link],
    specs: &[SourcedCard],
    mut defs: Vec<CardDef>,
    rules: Option<&Rules>,
    sets_read: bool,
    errors: &mut Vec<LoadError>,
) -> (CardTable, Vec<CardIdx>, ScriptHost) {
    if let Some(rules) = rules {
        for def in &mut defs {
            def.good = def.good_name.as_ref().and_then(|g| rules.goods.iter().position(|x| x == g));
        }
    }
    let table = CardTable::new(defs);
    for c in specs {
        validate_card(c, rules, errors);
    }
    let mut start_buildings = Vec::new();
    // Without every card, cross checks (start buildings, the deal) would only repeat the first error.
    if let Some(rules) = rules.filter(|_| sets_read) {
        validate_rules(rules, &table, chain, &mut start_buildings, errors);
    }

    let mut scripts = ScriptHost::new(HOOKS, hooks::SCALARS, hooks::CTX_MORE, Limits::default(), hooks::register);
    scripts.set_map_keys(crate::vocabulary::map_keys());
    scripts.set_keyed_members(hooks::KEYED);
    scripts.set_list_members(hooks::LISTED);
    scripts.set_hook_members(hooks::hook_members());
    scripts.set_effects(crate::vocabulary::effect_specs());
    scripts.set_events(crate::hooks::event_key_hints(), crate::hooks::event_keys_by_hook());
    scripts.set_shapes(&[("table", crate::hooks::TABLE_SHAPE)]);
    for (c, def) in table.cards.iter().enumerate() {
        errors.extend(scripts.add_owner(&def.id, def.script.as_ref()));
        // An action's hooks belong to an action's script: a card's would never be called.
        for h in ACTION_HOOKS.into_iter().filter(|&h| scripts.listens(h as usize, c)) {
            let what = format!(
                "`{}` is a hook of an action's script ([[action]] in the ruleset); a card's script never hears it",
                HOOKS[h as usize].name
            );
            errors.push(LoadError::from(scripts.bad_return(h as usize, c, &what)));
        }
    }
    (table, start_buildings, scripts)
}

/// The rules script the nearest file names (`rules_script`), checked to be a
/// script inside the rules tree (an error at that key otherwise).
fn rules_script(
    chain: &[Link],
    root: Option<&std::path::Path>,
    errors: &mut Vec<LoadError>,
) -> Option<(Source, Arc<TomlDoc>)> {
    let link = chain.iter().find(|l| l.file.rules_script.is_some())?;
    let path = link.file.rules_script.as_deref()?;
    let source = link.doc.source.join(path);
    match source.check_inside(root, "rhai") {
        Ok(()) => Some((source, Arc::clone(&link.doc))),
        Err(e) => {
            errors.push(relocate(e, &link.doc, "rules_script"));
            None
        }
    }
}

/// An action of the ruleset's own, as play needs it.
#[derive(Clone, Debug)]
pub struct ActionDef {
    /// Its id (`ctx.action`).
    pub id: String,
    /// Its name on a button (the verb when not given).
    pub name: String,
    /// The words it is written with.
    pub verb: Vec<String>,
    /// The decision it is offered at.
    pub decision: ActionAt,
    /// What each use of it uses up: a sale (`uses = "sell"`), or nothing.
    pub uses_sale: bool,
    /// Only the owners of this card (working in their city) are offered it.
    pub owners_of: Option<CardIdx>,
    /// The kinds of the arguments the engine lists (none: the script's `legal` lists them).
    pub args: Vec<ArgKind>,
}

/// The decisions at which an action may be offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionAt {
    /// The trader's sell decision.
    Sell,
}

/// What an action's argument is, when the engine lists the candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// One of the actor's buildings (its id).
    Building,
    /// One of the actor's hand cards (its id).
    Hand,
}

/// The decisions an action may be offered at, as files write them.
pub const ACTION_DECISIONS: &[&str] = &["sell"];
/// The argument kinds, as files write them.
pub const ARG_KINDS: &[&str] = &["building", "hand"];
/// The notation's own verbs, which an action may not take.
pub const BUILTIN_VERBS: &[&str] = &[
    "role", "build", "over", "pay", "spend", "produce", "sell", "keep", "discard", "tuck", "give", "choose", "pass",
    "plain", "undo", "quit", "help",
];
/// The hooks an action's script may define.
const ACTION_HOOKS: [Hook; 3] = [Hook::Legal, Hook::Allowed, Hook::Action];

/// `[[action]]` (from the nearest file that has the list): each entry checked
/// where it is written, its script compiled as the owner after the rules
/// script's; the actions as play needs them.
fn read_actions(
    chain: &[Link],
    table: &CardTable,
    root: Option<&std::path::Path>,
    scripts: &mut ScriptHost,
    errors: &mut Vec<LoadError>,
) -> Vec<ActionDef> {
    let Some(link) = chain.iter().find(|l| l.file.action.is_some()) else { return Vec::new() };
    let (doc, list) = (&link.doc, link.file.action.as_deref().unwrap_or_default());
    let mut out = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let at = |key: &str| format!("action.{i}.{key}");
        let before = errors.len();
        if let Some(why) = invalid_id(&a.id) {
            errors.push(doc.error(&at("id"), why.replace("card id", "action id")));
        } else if list[..i].iter().any(|o| o.id == a.id) {
            errors.push(doc.error(&at("id"), format!("two actions have the id `{}`", a.id)));
        }
        let game = engine_rules::actions::Vocabulary {
            decisions: ACTION_DECISIONS,
            arg_kinds: ARG_KINDS,
            builtin: BUILTIN_VERBS,
            payments: &[],
            reads: &["uses", "owners_of"],
        };
        if let Err((key, message)) = engine_rules::actions::check(a, &list[..i], &game) {
            errors.push(doc.error(&at(key), message).help("San Juan's [[action]] keys are in docs/rulesets.md"));
        }
        if a.ends_turn.is_some() {
            errors.push(
                doc.error(
                    &at("ends_turn"),
                    "a San Juan action answers a decision and the decision goes on: `ends_turn` is Alhambra's",
                )
                .help("leave `ends_turn` out; `uses = \"sell\"` makes each use cost one of the seller's sales"),
            );
        }
        if a.uses.is_none() && a.decision == "sell" {
            errors.push(
                doc.error(
                    &at("decision"),
                    "an action offered at the sell decision uses one of the seller's sales: write `uses = \"sell\"`",
                )
                .help("each use of it costs a sale, so the seller's decision ends"),
            );
        }
        if let Some(u) = a.uses.as_deref().filter(|u| *u != "sell" || a.decision != "sell") {
            errors.push(doc.error(&at("uses"), format!("`uses = \"{u}\"`: an action offered at the sell decision may use a sale (`uses = \"sell\"`); nothing else is used up")));
        }
        let owners_of = match a.owners_of.as_deref().map(|id| table.lookup(id)) {
            Some(Ok(c)) => Some(c),
            Some(Err(why)) => {
                errors.push(doc.error(&at("owners_of"), why).help("name the card whose owners are offered the action"));
                None
            }
            None => None,
        };
        let source = doc.source.join(&a.script);
        let source = match source.check_inside(root, "rhai") {
            Ok(()) => Some(source),
            Err(e) => {
                errors.push(relocate(e, doc, &at("script")));
                None
            }
        };
        let owner = table.len() + 1 + i;
        let found = scripts.add_owner(&format!("action {}", a.id), source.as_ref());
        errors.extend(found.into_iter().map(|e| match &source {
            Some(s) if e.pos.line == 0 && e.file == s.to_string() => relocate(e, doc, &at("script")),
            _ => e,
        }));
        for (h, spec) in HOOKS.iter().enumerate() {
            if scripts.listens(h, owner) && !ACTION_HOOKS.iter().any(|&k| k as usize == h) {
                let what = format!(
                    "an action's script cannot define `{}`: it defines `legal` (the arguments offered), `allowed` (a \
                     filter of the listed ones) and `on_action` (what it does); a card's hooks belong in a card's script",
                    spec.name
                );
                errors.push(LoadError::from(scripts.bad_return(h, owner, &what)));
            }
        }
        if errors.len() > before {
            continue;
        }
        out.push(ActionDef {
            id: a.id.clone(),
            name: a.name.clone().unwrap_or_else(|| a.verb.clone()),
            verb: a.words(),
            decision: ActionAt::Sell,
            uses_sale: a.uses.is_some(),
            owners_of,
            args: a.args.iter().map(|k| if k == "hand" { ArgKind::Hand } else { ArgKind::Building }).collect(),
        });
    }
    out
}

/// The hooks a rules script may define: those every player hears through the
/// engine's event and moment dispatch (effects, no building needed).
pub(crate) fn rules_hook_allowed(hook: usize) -> bool {
    HOOKS[hook].effects && ![Hook::Sold, Hook::Choice, Hook::Action].iter().any(|&h| h as usize == hook)
}

/// Compiles the rules script as the script owner after the cards (always
/// added, without a script when there is none, so that later owners have a
/// fixed number), and refuses a hook a rules script cannot hear.
fn add_rules_script(
    scripts: &mut ScriptHost,
    owner: usize,
    source: Option<&(Source, Arc<TomlDoc>)>,
    errors: &mut Vec<LoadError>,
) {
    let found = scripts.add_owner("the rules script", source.map(|(s, _)| s));
    // A file that cannot be read is the key's fault; its own errors point into it.
    errors.extend(found.into_iter().map(|e| match source {
        Some((s, doc)) if e.pos.line == 0 && e.file == s.to_string() => relocate(e, doc, "rules_script"),
        _ => e,
    }));
    if source.is_none() {
        return;
    }
    for (h, spec) in HOOKS.iter().enumerate() {
        if scripts.listens(h, owner) && !rules_hook_allowed(h) {
            let allowed: Vec<&str> =
                HOOKS.iter().enumerate().filter(|(k, _)| rules_hook_allowed(*k)).map(|(_, s)| s.name).collect();
            let what = format!(
                "a rules script cannot define `{}`: it belongs to a card (a building's own answer); a rules script \
                 hears the events and moments every player hears: {}",
                spec.name,
                allowed.join(", ")
            );
            errors.push(LoadError::from(scripts.bad_return(h, owner, &what)));
        }
    }
}

/// What the ruleset file adds beyond cards and rules: its rules script's text and its actions.
struct Own {
    rules_text: Option<String>,
    actions: Vec<ActionDef>,
}

/// The ruleset, from parts that passed every check.
fn build(
    chain: &[Link],
    rules: Rules,
    table: CardTable,
    scripts: ScriptHost,
    start_buildings: Vec<CardIdx>,
    sets: Vec<Source>,
    own: Own,
) -> Arc<Ruleset> {
    let Own { rules_text, actions } = own;
    let top = &chain[0];
    let mut table = table;
    table.verbs = actions.iter().map(|a| a.verb.clone()).collect();
    let rules_owner = table.len();
    let all_buildable = table.cards.iter().all(|c| c.buildable);
    let rules_mask = if rules_text.is_some() { scripts.owner_mask(rules_owner) } else { 0 };
    let mut order: Vec<CardIdx> = (0..table.len() as CardIdx).collect();
    order.sort_by_key(|&i| (table.get(i).order, i));
    let hook_masks: Vec<HookMask> = (0..table.len()).map(|c| scripts.owner_mask(c)).collect();
    let all_hooks = hook_masks.iter().fold(0, |m, h| m | h);
    // A covered building scores only if its script asks whether it is: the
    // scoring buildings written before covered ones scored stay as they were.
    let scores_covered: Vec<bool> = (0..table.len())
        .map(|c| {
            let reads = scripts.reads(Hook::Score as usize, c);
            scripts.listens(Hook::Score as usize, c) && reads.is_some_and(|r| r.iter().any(|m| m == "covered_by"))
        })
        .collect();
    let any_scores_covered = scores_covered.contains(&true);
    let cost_table = hooks::CostTable::new(&scripts, table.len());
    let round_roles = (0..=MAX_PLAYERS as usize).map(|n| rules.roles_per_round(n)).collect();
    let build_grants = hooks::BuildGrants::new(&scripts, table.len());
    let mut fingerprint = fingerprint(&rules, &table, rules_text.as_deref());
    // Only when there are some: a ruleset without keeps its fingerprint.
    if !actions.is_empty() {
        use sha2::{Digest, Sha256};
        let texts: Vec<String> = actions.iter().map(|a| format!("{a:?}")).collect();
        let digest = Sha256::digest(format!("{fingerprint}\0{}", texts.join("\0")));
        fingerprint = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    }
    let mean_good_price = estimates::mean_good_price(&table, &rules);
    let mean_prices = estimates::mean_prices(&table, &rules);
    let mean_vp = estimates::mean_vp(&table);
    let (scores_by_city, score_city_reads) = estimates::scores_by_city(&scripts, table.len());
    // The cards, the rules script and the actions: every script owner.
    let read_plans = crate::reads::ReadPlans::new(&scripts, table.len() + 1 + actions.len());
    let id = top.file.id.clone();
    let warnings = builtin_id_clash(&id, &top.doc, &chain[0].doc.source, &fingerprint);
    let rules_map = Arc::new(hooks::toml_map(&toml::Table::try_from(&rules).unwrap_or_default()));
    let deck_cards = table
        .cards
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.public)
        .flat_map(|(i, c)| std::iter::repeat_n(i as CardIdx, c.copies as usize))
        .collect();
    Arc::new(Ruleset {
        id,
        rules_map,
        deck_cards,
        name: top.file.name.clone(),
        description: top.file.description.clone(),
        source: top.doc.source.clone(),
        parents: chain[1..].iter().map(|l| l.doc.source.clone()).collect(),
        rules,
        cards: Arc::new(table),
        scripts,
        start_buildings,
        order,
        sets,
        hook_masks,
        all_hooks,
        scores_covered,
        any_scores_covered,
        round_roles,
        cost_table,
        build_grants,
        mean_good_price,
        mean_prices,
        mean_vp,
        scores_by_city,
        score_city_reads,
        read_plans,
        rules_mask,
        all_buildable,
        actions,
        fingerprint,
        base: engine_rules::chain::built_in_base(chain, &BUILTINS),
        warnings,
    })
}

fn to_def(c: &SourcedCard, root: Option<&std::path::Path>, errors: &mut Vec<LoadError>) -> CardDef {
    let s = &c.spec;
    if s.kind == crate::cards::Kind::Production && s.good.is_none() {
        errors.push(
            c.doc
                .key_error(&c.path("kind"), format!("production building `{}` names no good", s.id))
                .help("add `good = \"indigo\"` (one of the ruleset's goods)"),
        );
    }
    let mut script = s.script.as_ref().map(|p| c.script_dir.join(p));
    if let Some(Err(e)) = script.as_ref().map(|p| p.check_inside(root, "rhai")) {
        errors.push(relocate(e, &c.doc, &c.path("script")));
        script = None; // never read, so never shown
    }
    CardDef {
        id: s.id.as_str().into(),
        name: s.name.clone(),
        text: s.text.clone(),
        kind: s.kind,
        good: None,
        cost: s.cost,
        vp: s.vp,
        copies: s.copies,
        tags: s.tags.iter().map(|t| t.as_str().into()).collect(),
        script,
        order: s.order,
        holds_good: s.holds_good || s.kind == crate::cards::Kind::Production,
        fixed_price: s.fixed_price,
        under_vp: s.under_vp,
        public: s.public,
        buildable: s.buildable,
        good_name: s.good.clone(),
        defined_in: c.doc.source.clone(),
    }
}

fn apply_patch(
    def: &mut CardDef,
    p: &CardPatch,
    file: &Source,
    root: Option<&std::path::Path>,
) -> Result<(), LoadError> {
    if let Some(v) = &p.name {
        def.name = v.clone();
    }
    if let Some(v) = &p.text {
        def.text = v.clone();
    }
    if let Some(v) = p.cost {
        def.cost = v;
    }
    if let Some(v) = p.vp {
        def.vp = v;
    }
    if let Some(v) = p.copies {
        def.copies = v;
    }
    if let Some(v) = &p.tags {
        def.tags = v.iter().map(|t| t.as_str().into()).collect();
    }
    if let Some(v) = p.order {
        def.order = v;
    }
    if let Some(v) = p.holds_good {
        def.holds_good = v;
    }
    if let Some(v) = p.fixed_price {
        def.fixed_price = Some(v);
    }
    if let Some(v) = p.under_vp {
        def.under_vp = v;
    }
    if let Some(v) = p.public {
        def.public = v;
    }
    if let Some(v) = p.buildable {
        def.buildable = v;
    }
    if let Some(v) = &p.script {
        let script = (!v.is_empty()).then(|| file.join(v));
        if let Some(s) = &script {
            s.check_inside(root, "rhai")?;
        }
        def.script = script;
    }
    Ok(())
}

/// Checks one card as its set file writes it: id, name and numbers.
fn validate_card(c: &SourcedCard, rules: Option<&Rules>, errors: &mut Vec<LoadError>) {
    let s = &c.spec;
    if let Some(why) = invalid_id(&s.id) {
        errors.push(c.doc.error(&c.path("id"), why).help("ids are snake_case English names, e.g. `sugar_mill`"));
    }
    if s.name.trim().is_empty() {
        errors.push(
            c.doc
                .error(&c.path("name"), format!("card `{}` has an empty name", s.id))
                .help("write the name players see"),
        );
    }
    if !s.buildable && !s.public {
        errors.push(
            c.doc
                .error(&c.path("buildable"), format!("card `{}` is in the deck: `buildable = false` is for public cards", s.id))
                .help("a card in the deck is built from the hand; add `public = true` for a card that lies beside the roles and is only claimed by a script's `move`"),
        );
    }
    let numbers = [
        ("cost", Some(i64::from(s.cost))),
        ("vp", Some(i64::from(s.vp))),
        ("copies", Some(i64::from(s.copies))),
        ("order", Some(i64::from(s.order))),
        ("fixed_price", s.fixed_price.map(i64::from)),
        ("under_vp", Some(i64::from(s.under_vp))),
    ];
    for (field, value) in numbers {
        if let Some(v) = value {
            check_card_number(&c.doc, &c.path(field), field, v, errors);
        }
    }
    if let Some(rules) = rules
        && let Some(t) = &s.good
        && !rules.goods.iter().any(|g| g == t)
    {
        let near =
            crate::error::closest(t, rules.goods.iter().map(String::as_str)).map(|g| format!("did you mean `{g}`? "));
        errors.push(
            c.doc
                .error(&c.path("good"), format!("card `{}` makes good `{t}`, which the ruleset does not list", s.id))
                .help(format!("{}goods: {}", near.unwrap_or_default(), rules.goods.join(", "))),
        );
    }
}

/// Checks that go across rule keys, each reported in the file that set the key last.
fn validate_rules(
    rules: &Rules,
    table: &CardTable,
    chain: &[Link],
    start: &mut Vec<CardIdx>,
    errors: &mut Vec<LoadError>,
) {
    // A check about several keys is reported at the nearest file that sets one of them
    // (the house rule that changed `max_players`, not the parent that set `start_buildings`).
    let mut err = |paths: &[&str], msg: String, help: String| {
        let keys: Vec<String> = paths
            .iter()
            .map(|p| if p.starts_with("cards.") { (*p).to_owned() } else { format!("rules.{p}") })
            .collect();
        let (doc, key) = chain
            .iter()
            .find_map(|l| keys.iter().find(|k| l.doc.has(k)).map(|k| (&*l.doc, k.as_str())))
            .unwrap_or((&*chain[0].doc, "rules"));
        errors.push(doc.error(key, msg).help(help));
    };
    if rules.min_players > rules.max_players {
        err(
            &["max_players", "min_players"],
            format!("min_players ({}) is more than max_players ({})", rules.min_players, rules.max_players),
            "e.g. 2 and 4".into(),
        );
    }
    if rules.trading_tiles.is_empty() {
        err(&["trading_tiles"], "there are no trading tiles".into(), "list at least one tile".into());
    }
    for (i, tile) in rules.trading_tiles.iter().enumerate() {
        if tile.len() != rules.goods.len() {
            err(
                &[&format!("trading_tiles.{i}")],
                format!("trading tile {} has {} prices for {} goods", i + 1, tile.len(), rules.goods.len()),
                "give one price per good, in the order of `goods`".into(),
            );
        }
    }
    if rules.goods.is_empty() {
        err(&["goods"], "the ruleset lists no goods".into(), "e.g. goods = [\"indigo\", \"sugar\"]".into());
    }
    for (i, g) in rules.goods.iter().enumerate() {
        if g.trim().is_empty() {
            err(&[&format!("goods.{i}")], "a good's name is empty".into(), "name every good".into());
        } else if rules.goods[..i].contains(g) {
            err(&[&format!("goods.{i}")], format!("good `{g}` is listed twice"), "list each good once".into());
        }
    }
    for (i, id) in rules.start_buildings.iter().enumerate() {
        match table.lookup(id) {
            Ok(c) => start.push(c),
            Err(e) => err(
                &[&format!("start_buildings.{i}")],
                format!("start_buildings: {e}"),
                "name a card of the ruleset".into(),
            ),
        }
    }
    for key in rules.roles_per_round.keys() {
        match key.parse::<usize>() {
            Ok(n) if (2..=MAX_PLAYERS as usize).contains(&n) => {}
            _ => err(
                &[&format!("roles_per_round.{key}")],
                format!("roles_per_round key `{key}` is not a player count of this ruleset"),
                format!("write player counts from 2 to {MAX_PLAYERS}, e.g. `2 = 3`"),
            ),
        }
    }
    if rules.setup_variant && rules.setup_variant_draws.len() < rules.max_players {
        err(
            &["setup_variant_draws", "max_players", "setup_variant"],
            "setup_variant_draws has fewer entries than max_players".into(),
            "give the cards drawn by each seat, e.g. [5, 6, 7, 8]".into(),
        );
    }
    // The setup must be dealt from the cards there are: never create a card.
    let n = rules.max_players;
    let mut needed: BTreeMap<CardIdx, usize> = BTreeMap::new();
    for &c in start.iter() {
        *needed.entry(c).or_default() += n;
    }
    for (&c, &k) in &needed {
        let def = table.get(c);
        let have = if def.public { 0 } else { def.copies as usize };
        if k > have {
            err(
                &[&format!("cards.{}.copies", def.id), "max_players", "start_buildings"],
                format!("{n} players start with {k} `{}` in all, but the deck holds {have}", def.id),
                "give the card more copies, or lower max_players".into(),
            );
        }
    }
    let deck: usize = table.cards.iter().filter(|c| !c.public).map(|c| c.copies as usize).sum();
    let left = deck.saturating_sub(needed.values().sum());
    let (key, dealt) = if rules.setup_variant {
        ("setup_variant_draws", rules.setup_variant_draws.iter().take(n).sum::<usize>())
    } else {
        ("start_hand", rules.start_hand.saturating_mul(n))
    };
    let keys = [key, "max_players", "start_buildings"];
    if dealt > left {
        err(
            &keys,
            format!("{n} players are dealt {dealt} cards, but only {left} are left after the start buildings"),
            "deal fewer cards, add cards, or lower max_players".into(),
        );
    }
}

/// A short digest of what decides play: the rules, every card's fields and its script's text.
fn fingerprint(rules: &Rules, table: &CardTable, rules_script: Option<&str>) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(toml::to_string(rules).unwrap_or_default());
    for c in &table.cards {
        let script = c.script.as_ref().and_then(|s| s.read().ok()).unwrap_or_default();
        h.update(format!(
            "\0{}|{}|{}|{:?}|{:?}|{}|{}|{}|{:?}|{}|{:?}|{}|{}|{}\0{script}",
            c.id,
            c.name,
            c.kind.as_str(),
            c.good_name,
            c.tags,
            c.cost,
            c.vp,
            c.copies,
            c.fixed_price,
            c.order,
            c.script.is_some(),
            c.holds_good,
            c.under_vp,
            c.public
        ));
        // Only when set: every other card keeps the fingerprint it had.
        if !c.buildable {
            h.update("|unbuildable");
        }
    }
    // Only when there is one: a ruleset without keeps its fingerprint.
    if let Some(text) = rules_script {
        h.update(format!("\0rules script\0{text}"));
    }
    h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// A warning when a file on disk takes a built-in ruleset's id for other content:
/// its game records would be labelled, and merged, as the built-in one's.
fn builtin_id_clash(id: &str, doc: &TomlDoc, source: &Source, fingerprint: &str) -> Vec<LoadError> {
    let (Source::Disk(_), Some(builtin)) = (source, BUILTINS.ruleset(id)) else { return Vec::new() };
    match Ruleset::load_source(builtin) {
        Ok(b) if b.fingerprint != fingerprint => {
            vec![doc.error("id", format!("this ruleset differs from the built-in `{id}` but has its id")).help(
                "give it an id of its own (e.g. `id = \"my-rules\"`): game records are labelled and merged by id",
            )]
        }
        _ => Vec::new(),
    }
}
