//! Rulesets: which card sets, which rule numbers, which per-card overrides.
//!
//! A ruleset file may `extends` another and change only what differs: its
//! `[rules]` table is merged key by key over the parent's, its `[cards.<id>]`
//! tables patch single fields of a card, and `extra_sets` adds card files.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::cards::{CardDef, CardIdx, CardTable, SourcedCard, read_card_set};
use crate::error::{LoadError, LoadErrors, Pos};
use crate::files::Source;
use crate::hooks::{self, HOOKS};
use crate::script::{Limits, ScriptHost};

/// The most seats a ruleset may allow (`max_players`).
pub const MAX_PLAYERS: usize = 100;
/// The largest `max_rounds` a ruleset may set.
pub const MAX_ROUNDS: u32 = 10_000;
/// The largest magnitude of a rule number, a trading-tile price or a card's points.
pub const MAX_RULE_NUMBER: i32 = 1000;

/// The rule numbers of a ruleset. Every field is required: the numbers live
/// in `cards/rulesets/*.toml`, not in Rust.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Fewest players.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
    /// Cards dealt to each player at setup.
    pub start_hand: usize,
    /// Buildings each player starts with, face up (taken out of the deck).
    pub start_buildings: Vec<String>,
    /// Hand limit checked at the start of each round (buildings may raise it).
    pub hand_limit: i32,
    /// The game ends after the builder phase in which someone has this many buildings.
    pub end_buildings: usize,
    /// Not in the rulebook: a game still running after this many rounds ends as it
    /// stands (bot games can stall with every card under chapels or cranes).
    pub max_rounds: u32,
    /// Roles chosen per round, by number of players ("2" = 3: governor, opponent, governor).
    pub roles_per_round: BTreeMap<String, usize>,
    /// Player counts in which a privilege boost (the library) works only once per round.
    pub privilege_boost_once_per_round: Vec<usize>,
    /// Builder privilege: cards off the cost.
    pub builder_discount: i32,
    /// Goods each player may produce.
    pub produce: i32,
    /// Producer privilege: extra goods.
    pub producer_privilege: i32,
    /// Goods each player may sell.
    pub sell: i32,
    /// Trader privilege: extra sales.
    pub trader_privilege: i32,
    /// Cards each player draws in the councillor phase.
    pub council_draw: i32,
    /// Councillor privilege: extra cards drawn.
    pub council_privilege: i32,
    /// Cards each player keeps in the councillor phase.
    pub council_keep: i32,
    /// Prospector privilege: cards drawn.
    pub prospector_privilege: i32,
    /// Goods, in trading-tile column order.
    pub goods: Vec<String>,
    /// Trading house tiles: the price of each good, in `goods` order.
    pub trading_tiles: Vec<Vec<i32>>,
    /// A player may own only one of each city building.
    pub unique_city_buildings: bool,
    /// Setup variant: players draw more cards and keep `start_hand`.
    pub setup_variant: bool,
    /// Setup variant: cards drawn by the 1st, 2nd, … player.
    pub setup_variant_draws: Vec<usize>,
}

impl Rules {
    /// Roles chosen per round with `players` players.
    pub fn roles_per_round(&self, players: usize) -> usize {
        self.roles_per_round.get(&players.to_string()).copied().unwrap_or(players)
    }
}

/// A per-card override in a ruleset (`[cards.prefecture] cost = 3`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardPatch {
    name: Option<String>,
    text: Option<String>,
    cost: Option<i32>,
    vp: Option<i32>,
    copies: Option<u32>,
    tags: Option<Vec<String>>,
    /// A script path relative to the ruleset file, or "" for none.
    script: Option<String>,
    order: Option<i32>,
    holds_good: Option<bool>,
    fixed_price: Option<i32>,
    under_vp: Option<i32>,
    public: Option<bool>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesetFile {
    id: String,
    name: String,
    #[serde(default)]
    description: String,
    extends: Option<String>,
    sets: Option<Vec<String>>,
    #[serde(default)]
    extra_sets: Vec<String>,
    #[serde(default)]
    rules: toml::Table,
    #[serde(default)]
    cards: BTreeMap<String, CardPatch>,
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
    /// `rules.start_buildings` resolved.
    pub start_buildings: Vec<CardIdx>,
    /// Cards sorted by hook order, for deterministic dispatch.
    pub order: Vec<CardIdx>,
    /// The card set files used.
    pub sets: Vec<Source>,
    /// Per card, a bit per hook its script defines.
    pub hook_masks: Vec<u32>,
    /// Discounts of build-cost hooks that depend only on what is built.
    pub cost_table: hooks::CostTable,
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
        Ruleset::load_source(resolve_spec(spec, None)?)
    }

    /// Loads a ruleset named relative to another file (a scenario's `ruleset = …`).
    pub fn load_relative(spec: &str, from: &Source) -> Result<Arc<Ruleset>, LoadErrors> {
        Ruleset::load_source(resolve_spec(spec, Some(from))?)
    }

    /// Loads the ruleset in `source`, reporting every problem found.
    pub fn load_source(source: Source) -> Result<Arc<Ruleset>, LoadErrors> {
        let mut errors = Vec::new();
        let chain = read_chain(&source)?;
        let top = &chain[0].1;

        // Card sets: the nearest file that names `sets`, plus every `extra_sets`.
        let mut sets: Vec<Source> = Vec::new();
        for (file, rf) in chain.iter().rev() {
            if let Some(s) = &rf.sets {
                sets = s.iter().map(|p| file.join(p)).collect();
            }
            sets.extend(rf.extra_sets.iter().map(|p| file.join(p)));
        }
        let mut specs: Vec<SourcedCard> = Vec::new();
        let mut add_copies = Vec::new();
        for set in &sets {
            match read_card_set(set) {
                Ok(s) => {
                    specs.extend(s.cards);
                    add_copies.extend(s.add_copies);
                }
                Err(e) => errors.push(e),
            }
        }
        let mut seen: BTreeMap<String, Source> = BTreeMap::new();
        specs.retain(|c| match seen.get(&c.spec.id) {
            Some(first) => {
                errors.push(LoadError::at(&c.file, c.pos, format!("card id `{}` is defined twice", c.spec.id)).help(
                    format!("it is already defined in {first}; change one id, or patch it with [cards.{}]", c.spec.id),
                ));
                false
            }
            None => {
                seen.insert(c.spec.id.clone(), c.file.clone());
                true
            }
        });

        let mut defs: Vec<CardDef> = specs.iter().map(|c| to_def(c, &mut errors)).collect();
        for (id, n, file, pos) in add_copies {
            match defs.iter_mut().find(|d| d.id == id.as_str()) {
                Some(d) => d.copies += n,
                None => errors.push(
                    LoadError::at(&file, pos, format!("add_copies names `{id}`, which no card set defines"))
                        .help("add_copies adds copies of a card another set of the ruleset defines"),
                ),
            }
        }

        // Per-card patches, parent first so the child wins.
        for (file, rf) in chain.iter().rev() {
            let text = file.read().unwrap_or_default();
            for (id, patch) in &rf.cards {
                let pos = Pos::of_text(&text, &format!("[cards.{id}]"));
                let Some(def) = defs.iter_mut().find(|d| d.id == id.as_str()) else {
                    let known = CardTable::new(defs.clone());
                    let hint = known.closest(id).map(|c| format!("did you mean `{c}`? ")).unwrap_or_default();
                    errors
                        .push(LoadError::at(file, pos, format!("[cards.{id}] patches a card no set defines")).help(
                            format!("{hint}to add a new card, put it in a card set file listed in `extra_sets`"),
                        ));
                    continue;
                };
                apply_patch(def, patch, file);
            }
        }

        let merged = merge_rules(&chain);
        let rules: Option<Rules> = match Rules::deserialize(toml::Value::Table(merged)) {
            Ok(r) => Some(r),
            Err(e) => {
                let msg = e.message().to_owned();
                let key = msg.split('`').nth(1).unwrap_or("");
                let (file, text) = chain
                    .iter()
                    .map(|(f, _)| (f, f.read().unwrap_or_default()))
                    .find(|(_, t)| !key.is_empty() && t.contains(key))
                    .unwrap_or((&chain[0].0, String::new()));
                errors.push(
                    LoadError::at(file, Pos::of_text(&text, key), format!("[rules]: {msg}"))
                        .help("see cards/rulesets/second-edition.toml for every rule number"),
                );
                None
            }
        };

        if let Some(rules) = &rules {
            for def in &mut defs {
                def.good = def.good_name.as_ref().and_then(|g| rules.goods.iter().position(|x| x == g));
            }
        }
        let table = CardTable::new(defs);
        for def in &table.cards {
            validate_card(def, rules.as_ref(), &mut errors);
        }
        let mut start_buildings = Vec::new();
        if let Some(rules) = &rules {
            validate_rules(rules, &table, &chain[0].0, &mut start_buildings, &mut errors);
        }

        let mut scripts = ScriptHost::new(HOOKS, hooks::SCALARS, Limits::default(), hooks::register);
        for def in &table.cards {
            errors.extend(scripts.add_owner(&def.id, def.script.as_ref()));
        }

        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        let mut order: Vec<CardIdx> = (0..table.len() as CardIdx).collect();
        order.sort_by_key(|&i| (table.get(i).order, i));
        let hook_masks = (0..table.len()).map(|c| scripts.owner_mask(c)).collect();
        let cost_table = hooks::CostTable::new(&scripts, table.len());
        Ok(Arc::new(Ruleset {
            id: top.id.clone(),
            name: top.name.clone(),
            description: top.description.clone(),
            source: chain[0].0.clone(),
            parents: chain[1..].iter().map(|(s, _)| s.clone()).collect(),
            rules: rules.expect("no errors means rules parsed"),
            cards: Arc::new(table),
            scripts,
            start_buildings,
            order,
            sets,
            hook_masks,
            cost_table,
        }))
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
        out
    }

    /// Total number of cards in the game (deck cards plus public cards).
    pub fn total_cards(&self) -> usize {
        self.cards.cards.iter().map(|c| c.copies as usize).sum()
    }
}

/// The fields in which two definitions of a card differ, as `field a -> b`.
fn card_changes(a: &CardDef, b: &CardDef) -> Vec<String> {
    let script = |c: &CardDef| c.script.as_ref().map_or("(none)".to_owned(), ToString::to_string);
    let fields: [(&str, String, String); 12] = [
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

/// Turns `second-edition` or `path/to/file.toml` into a source.
fn resolve_spec(spec: &str, from: Option<&Source>) -> Result<Source, LoadError> {
    if spec.ends_with(".toml") || spec.contains('/') {
        return Ok(match from {
            Some(f) => f.join(spec),
            None => Source::Disk(spec.into()),
        });
    }
    // An id: a sibling file on disk wins (so an edited checkout is used), then the built-in one.
    if let Some(Source::Disk(f)) = from {
        let sibling = Source::Disk(f.clone()).join(&format!("{spec}.toml"));
        if let Source::Disk(p) = &sibling
            && p.exists()
        {
            return Ok(sibling);
        }
    }
    Source::builtin_ruleset(spec).ok_or_else(|| {
        let ids = Source::builtin_ruleset_ids();
        LoadError::at(&Source::Disk(spec.into()), Pos::default(), format!("unknown ruleset `{spec}`"))
            .help(format!("built-in rulesets: {}; or give a path to a .toml file", ids.join(", ")))
    })
}

/// The ruleset file and its ancestors, nearest first.
fn read_chain(source: &Source) -> Result<Vec<(Source, RulesetFile)>, LoadError> {
    let mut chain: Vec<(Source, RulesetFile)> = Vec::new();
    let mut next = Some(source.clone());
    while let Some(src) = next.take() {
        if chain.iter().any(|(s, _)| *s == src) {
            return Err(LoadError::at(&src, Pos::default(), "`extends` forms a cycle")
                .help("a ruleset may not extend itself, directly or through others"));
        }
        let text = src.read()?;
        let rf: RulesetFile = toml::from_str(&text).map_err(|e| {
            LoadError::toml(&src, &text, &e)
                .help("a ruleset has id, name, extends or sets, [rules] and [cards.<id>] tables")
        })?;
        if let Some(parent) = &rf.extends {
            let p = resolve_spec(parent, Some(&src)).map_err(|e| LoadError {
                pos: Pos::of_text(&text, "extends"),
                file: src.to_string(),
                ..e
            })?;
            next = Some(p);
        } else if rf.sets.is_none() {
            return Err(LoadError::at(&src, Pos::default(), "this ruleset names no card sets")
                .help("add `sets = [\"../base.toml\"]` or `extends = \"second-edition\"`"));
        }
        chain.push((src, rf));
    }
    Ok(chain)
}

/// Merges `[rules]` tables key by key, parent first.
fn merge_rules(chain: &[(Source, RulesetFile)]) -> toml::Table {
    let mut merged = toml::Table::new();
    for (_, rf) in chain.iter().rev() {
        for (k, v) in &rf.rules {
            merged.insert(k.clone(), v.clone());
        }
    }
    merged
}

fn to_def(c: &SourcedCard, errors: &mut Vec<LoadError>) -> CardDef {
    let s = &c.spec;
    if s.kind == crate::cards::Kind::Production && s.good.is_none() {
        errors.push(
            LoadError::at(&c.file, c.pos, format!("production building `{}` names no good", s.id))
                .help("add `good = \"indigo\"` (one of the ruleset's goods)"),
        );
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
        script: s.script.as_ref().map(|p| c.script_dir.join(p)),
        order: s.order,
        holds_good: s.holds_good || s.kind == crate::cards::Kind::Production,
        fixed_price: s.fixed_price,
        under_vp: s.under_vp,
        public: s.public,
        good_name: s.good.clone(),
        defined_in: c.file.clone(),
    }
}

fn apply_patch(def: &mut CardDef, p: &CardPatch, file: &Source) {
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
    if let Some(v) = &p.script {
        def.script = (!v.is_empty()).then(|| file.join(v));
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
}

fn validate_card(def: &CardDef, rules: Option<&Rules>, errors: &mut Vec<LoadError>) {
    let text = def.defined_in.read().unwrap_or_default();
    let pos = Pos::of_text(&text, &format!("\"{}\"", def.id));
    let mut err = |msg: String, help: &str| errors.push(LoadError::at(&def.defined_in, pos, msg).help(help));
    if def.cost < 0 || def.cost > 20 {
        err(format!("card `{}` costs {}", def.id, def.cost), "a cost is a number of cards from 0 to 20");
    }
    if def.copies == 0 && !def.public {
        // copies = 0 is how a ruleset removes a card; allowed.
    }
    if def.copies > 200 {
        err(format!("card `{}` has {} copies", def.id, def.copies), "copies must be between 0 and 200");
    }
    // Scores and prices are summed in i32: a bound keeps any sum of them far from overflow.
    for (field, v) in [("vp", def.vp), ("under_vp", def.under_vp), ("fixed_price", def.fixed_price.unwrap_or(0))] {
        if !(-MAX_RULE_NUMBER..=MAX_RULE_NUMBER).contains(&v) {
            err(
                format!("card `{}` has {field} = {v}", def.id),
                &format!("{field} must be between -{MAX_RULE_NUMBER} and {MAX_RULE_NUMBER}"),
            );
        }
    }
    if let Some(rules) = rules
        && let Some(t) = &def.good_name
        && !rules.goods.iter().any(|g| g == t)
    {
        err(
            format!("card `{}` makes good `{t}`, which the ruleset does not list", def.id),
            &format!("goods: {}", rules.goods.join(", ")),
        );
    }
}

fn validate_rules(
    rules: &Rules,
    table: &CardTable,
    file: &Source,
    start: &mut Vec<CardIdx>,
    errors: &mut Vec<LoadError>,
) {
    let text = file.read().unwrap_or_default();
    let mut err = |key: &str, msg: String, help: &str| {
        errors.push(LoadError::at(file, Pos::of_text(&text, key), msg).help(help));
    };
    if rules.min_players < 1 || rules.min_players > rules.max_players {
        err("min_players", "min_players must be at least 1 and at most max_players".into(), "e.g. 2 and 4");
    }
    if rules.max_players > MAX_PLAYERS {
        let msg = format!("max_players = {} is too large", rules.max_players);
        err("max_players", msg, &format!("a ruleset allows at most {MAX_PLAYERS} players"));
    }
    if rules.max_rounds > MAX_ROUNDS {
        let help = format!("at most {MAX_ROUNDS}: it only ends games that stall");
        err("max_rounds", format!("max_rounds = {} is too large", rules.max_rounds), &help);
    }
    // The engine adds and multiplies these in i32 (privileges, prices, discounts): a
    // bound far beyond any card game keeps every such sum from overflowing.
    let counts = [("start_hand", rules.start_hand), ("end_buildings", rules.end_buildings)];
    for (key, v) in counts.into_iter().chain(rules.setup_variant_draws.iter().map(|&v| ("setup_variant_draws", v))) {
        if v > MAX_RULE_NUMBER as usize {
            err(key, format!("{key} = {v} is too large"), &format!("at most {MAX_RULE_NUMBER}"));
        }
    }
    let numbers = [
        ("hand_limit", rules.hand_limit),
        ("builder_discount", rules.builder_discount),
        ("produce", rules.produce),
        ("producer_privilege", rules.producer_privilege),
        ("sell", rules.sell),
        ("trader_privilege", rules.trader_privilege),
        ("council_draw", rules.council_draw),
        ("council_privilege", rules.council_privilege),
        ("council_keep", rules.council_keep),
        ("prospector_privilege", rules.prospector_privilege),
    ];
    let prices = rules.trading_tiles.iter().flatten().map(|&v| ("trading_tiles", v));
    for (key, v) in numbers.into_iter().chain(prices) {
        if !(-MAX_RULE_NUMBER..=MAX_RULE_NUMBER).contains(&v) {
            err(
                key,
                format!("{key}: {v} is out of range"),
                &format!("between -{MAX_RULE_NUMBER} and {MAX_RULE_NUMBER}"),
            );
        }
    }
    if rules.trading_tiles.is_empty() {
        err("trading_tiles", "there are no trading tiles".into(), "list at least one tile");
    }
    for (i, tile) in rules.trading_tiles.iter().enumerate() {
        if tile.len() != rules.goods.len() {
            err(
                "trading_tiles",
                format!("trading tile {} has {} prices for {} goods", i + 1, tile.len(), rules.goods.len()),
                "give one price per good, in the order of `goods`",
            );
        }
    }
    for id in &rules.start_buildings {
        match table.lookup(id) {
            Ok(i) => start.push(i),
            Err(e) => err("start_buildings", format!("start_buildings: {e}"), "name a card of the ruleset"),
        }
    }
    for key in rules.roles_per_round.keys() {
        if key.parse::<usize>().is_err() {
            err(key, format!("roles_per_round key `{key}` is not a player count"), "write e.g. `2 = 3`");
        }
    }
    if rules.setup_variant && rules.setup_variant_draws.len() < rules.max_players {
        err(
            "setup_variant_draws",
            "setup_variant_draws has fewer entries than max_players".into(),
            "give the cards drawn by each seat, e.g. [5, 6, 7, 8]",
        );
    }
    let dup: HashSet<_> = rules.goods.iter().collect();
    if dup.len() != rules.goods.len() {
        err("goods", "a good is listed twice".into(), "list each good once");
    }
}
