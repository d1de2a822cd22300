//! Rulesets: every number of the game, read from a TOML file (the built-in
//! `alhambra`, or a designer's copy on disk) and checked.
//!
//! TODO(engine-rules): once the shared rule-file crate lands, read the file
//! through its `TomlDoc` (errors with line, column and caret) and `extends`
//! chain instead of the minimal reader here.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::LoadError;
use crate::files::Source;

/// The ruleset used when none is named.
pub const DEFAULT_RULESET: &str = "alhambra";
/// Most seats any ruleset may allow.
pub const MAX_PLAYERS: usize = 8;
/// Most currencies (a player's sums per currency are a fixed array).
pub const MAX_CURRENCIES: usize = 8;
/// Most building types (a collector's counts per type are a fixed array).
pub const MAX_TYPES: usize = 8;

/// The numbers of `[rules]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Fewest players.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
    /// Money dealt to each player at setup, one card at a time, until the total reaches this.
    pub starting_capital: u32,
    /// Money cards face up on the table.
    pub money_display: usize,
    /// Several money cards may be taken at once if their values total at most this.
    pub take_limit: u32,
    /// The money deck is cut into this many piles for the scoring cards.
    pub piles: usize,
    /// A collector with no building of a type does not rank for it.
    pub rank_needs_a_building: bool,
    /// Not a rule: a safety valve that ends a game after this many turns.
    pub max_turns: u32,
}

/// A currency.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Currency {
    /// Id used in money card ids (`denar` in `denar5`).
    pub id: String,
    /// Name in sentences (`denars`).
    pub name: String,
}

/// A building type as the file gives it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BuildingType {
    /// Id (`garden`); a building card's id is this and its price (`garden10`).
    pub id: String,
    /// Name in sentences.
    pub name: String,
    /// The price of each card of this type (one entry per card).
    pub prices: Vec<u8>,
}

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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TwoPlayers {
    /// Copies of each money card kept.
    pub money_copies: u8,
    /// The neutral collector's name.
    pub neutral: String,
    /// Its draws.
    pub neutral_draws: Vec<NeutralDraw>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct MoneyFile {
    currencies: Vec<Currency>,
    values: Vec<u8>,
    copies: u8,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct YardFile {
    slots: Vec<String>,
}

/// Paths of the ruleset's scripts, relative to the ruleset file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ScriptPaths {
    /// The scoring script.
    pub score: String,
    /// The neutral collector's draws.
    pub neutral: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesetFile {
    id: String,
    game: Option<String>,
    name: String,
    #[serde(default)]
    description: String,
    rules: Rules,
    money: MoneyFile,
    yard: YardFile,
    building: Vec<BuildingType>,
    scoring: Vec<Scoring>,
    scripts: ScriptPaths,
    two_players: TwoPlayers,
}

/// A loaded and checked ruleset.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it is, in a sentence.
    pub description: String,
    /// Where it was read from.
    pub source: Source,
    /// The numbers of `[rules]`.
    pub rules: Rules,
    /// The currencies.
    pub currencies: Vec<Currency>,
    /// The values each currency has a card of.
    pub values: Vec<u8>,
    /// Copies of each money card (3 or more players).
    pub copies: u8,
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
    /// The scripts: (file, text).
    pub scripts: Scripts,
}

/// The text of the ruleset's scripts.
#[derive(Clone, Debug)]
pub struct Scripts {
    /// The scoring script's file and text.
    pub score: (Source, String),
    /// The neutral collector's draws: file and text.
    pub neutral: (Source, String),
}

impl Ruleset {
    /// Loads a built-in ruleset by id, or a ruleset file by path.
    pub fn load(spec: &str) -> Result<Arc<Ruleset>, LoadError> {
        let source = if spec.ends_with(".toml") || spec.contains('/') {
            Source::Disk(spec.into())
        } else {
            Source::builtin_ruleset(spec).ok_or_else(|| {
                LoadError::new(&Source::Disk(spec.into()), None, format!("unknown ruleset `{spec}`")).help(format!(
                    "built-in rulesets: {}; or give a path to a .toml file",
                    Source::builtin_ruleset_ids().join(", ")
                ))
            })?
        };
        Ruleset::load_source(&source).map(Arc::new)
    }

    /// Loads a ruleset named inside another file (a scenario, a saved game): an id,
    /// or a path relative to that file.
    pub fn load_relative(spec: &str, from: &Source) -> Result<Arc<Ruleset>, LoadError> {
        if spec.ends_with(".toml") || spec.contains('/') {
            Ruleset::load_source(&from.join(spec)).map(Arc::new)
        } else {
            Ruleset::load(spec)
        }
    }

    /// Reads and checks the ruleset file `source`.
    pub fn load_source(source: &Source) -> Result<Ruleset, LoadError> {
        let text = source.read()?;
        Ruleset::parse(source.clone(), &text)
    }

    /// Parses and checks ruleset text; `source` names it in errors and resolves script paths.
    pub fn parse(source: Source, text: &str) -> Result<Ruleset, LoadError> {
        let file: RulesetFile = toml::from_str(text).map_err(|e| LoadError::toml(&source, text, &e))?;
        let err = |key: &str, message: String| LoadError::new(&source, Some(key), message);
        if let Some(game) = &file.game
            && game != "alhambra"
        {
            return Err(err("game", format!("this ruleset is for `{game}`, not `alhambra`")));
        }
        let r = &file.rules;
        if r.min_players < 2 || r.max_players > MAX_PLAYERS || r.min_players > r.max_players {
            return Err(err(
                "rules.min_players",
                format!("players {} to {}: must lie within 2 to {MAX_PLAYERS}", r.min_players, r.max_players),
            ));
        }
        if r.money_display == 0 || r.money_display > 16 {
            return Err(err("rules.money_display", format!("{}: must be 1 to 16", r.money_display)));
        }
        if r.piles == 0 || r.piles > 100 {
            return Err(err("rules.piles", format!("{}: must be 1 to 100", r.piles)));
        }
        if r.starting_capital == 0 || r.starting_capital > 1000 {
            return Err(err("rules.starting_capital", format!("{}: must be 1 to 1000", r.starting_capital)));
        }
        if r.take_limit > 1000 {
            return Err(err("rules.take_limit", format!("{}: must be 0 to 1000", r.take_limit)));
        }
        let m = &file.money;
        if m.currencies.is_empty() || m.currencies.len() > MAX_CURRENCIES {
            return Err(err(
                "money.currencies",
                format!("{} currencies: must be 1 to {MAX_CURRENCIES}", m.currencies.len()),
            ));
        }
        for (i, c) in m.currencies.iter().enumerate() {
            check_id(&c.id).map_err(|e| err(&format!("money.currencies.{i}.id"), e))?;
            if m.currencies[..i].iter().any(|o| o.id == c.id) {
                return Err(err(&format!("money.currencies.{i}.id"), format!("currency `{}` is listed twice", c.id)));
            }
        }
        if m.values.is_empty() || m.values.iter().any(|&v| v == 0 || v > 99) {
            return Err(err("money.values", "values must be 1 to 99, at least one".into()));
        }
        for (i, v) in m.values.iter().enumerate() {
            if m.values[..i].contains(v) {
                return Err(err(&format!("money.values.{i}"), format!("value {v} is listed twice")));
            }
        }
        if m.copies == 0 || m.copies > 20 {
            return Err(err("money.copies", format!("{}: must be 1 to 20", m.copies)));
        }
        let tp = &file.two_players;
        if tp.money_copies == 0 || tp.money_copies > m.copies {
            return Err(err("two_players.money_copies", format!("{}: must be 1 to money.copies", tp.money_copies)));
        }
        let currency = |id: &str| m.currencies.iter().position(|c| c.id == id);
        let mut yard = Vec::new();
        if file.yard.slots.is_empty() || file.yard.slots.len() > 16 {
            return Err(err("yard.slots", format!("{} slots: must be 1 to 16", file.yard.slots.len())));
        }
        for (i, s) in file.yard.slots.iter().enumerate() {
            let c = currency(s).ok_or_else(|| {
                let ids: Vec<&str> = m.currencies.iter().map(|c| c.id.as_str()).collect();
                err(&format!("yard.slots.{i}"), format!("unknown currency `{s}`; currencies: {}", ids.join(", ")))
            })?;
            yard.push(c as u8);
        }
        if file.building.is_empty() || file.building.len() > MAX_TYPES {
            return Err(err("building", format!("{} building types: must be 1 to {MAX_TYPES}", file.building.len())));
        }
        let mut buildings: Vec<BuildingDef> = Vec::new();
        for (t, b) in file.building.iter().enumerate() {
            check_id(&b.id).map_err(|e| err(&format!("building.{t}.id"), e))?;
            if file.building[..t].iter().any(|o| o.id == b.id) {
                return Err(err(&format!("building.{t}.id"), format!("building type `{}` is listed twice", b.id)));
            }
            if b.prices.is_empty() || b.prices.iter().any(|&p| p == 0 || p > 99) {
                return Err(err(&format!("building.{t}.prices"), "prices must be 1 to 99, at least one".into()));
            }
            let mut prices = b.prices.clone();
            prices.sort_unstable();
            for p in prices {
                match buildings.last_mut() {
                    Some(last) if last.kind as usize == t && last.price == p => last.copies += 1,
                    _ => buildings.push(BuildingDef { id: format!("{}{p}", b.id), kind: t as u8, price: p, copies: 1 }),
                }
            }
        }
        if buildings.len() > 250 {
            return Err(err("building", "more than 250 distinct building cards".into()));
        }
        let types = file.building.len();
        if file.scoring.is_empty() {
            return Err(err("scoring", "no scoring: the game end needs one".into()));
        }
        for (i, s) in file.scoring.iter().enumerate() {
            let last = i + 1 == file.scoring.len();
            let key = |k: &str| format!("scoring.{i}.{k}");
            match (&s.card, s.pile, last) {
                (None, None, true) => {}
                (None, _, true) => {
                    return Err(err(&key("pile"), "the final scoring has no card to put in a pile".into()));
                }
                (_, _, true) => {
                    return Err(err(&key("card"), "the last scoring happens at the game end: it has no card".into()));
                }
                (None, _, false) => {
                    return Err(err(&key("card"), format!("scoring {} needs a card: only the last has none", s.name)));
                }
                (Some(_), None, false) => return Err(err(&key("pile"), format!("scoring {} needs a pile", s.name))),
                (Some(c), Some(p), false) => {
                    check_id(c).map_err(|e| err(&key("card"), e))?;
                    if p == 0 || p > r.piles {
                        return Err(err(&key("pile"), format!("pile {p}: piles are 1 to {}", r.piles)));
                    }
                    if file.scoring[..i].iter().any(|o| o.pile == Some(p)) {
                        return Err(err(&key("pile"), format!("pile {p} already holds a scoring card")));
                    }
                }
            }
            if s.ranks.is_empty() {
                return Err(err(&key("ranks"), "no ranks: at least the 1st must score".into()));
            }
            for (k, row) in s.ranks.iter().enumerate() {
                if row.len() != types {
                    return Err(err(
                        &format!("scoring.{i}.ranks.{k}"),
                        format!("{} points; one per building type ({types}) is needed", row.len()),
                    ));
                }
                if row.iter().any(|&p| !(0..=1000).contains(&p)) {
                    return Err(err(&format!("scoring.{i}.ranks.{k}"), "points must be 0 to 1000".into()));
                }
            }
        }
        for (i, d) in tp.neutral_draws.iter().enumerate() {
            let known = d.at == "start" || file.scoring.iter().any(|s| s.card.is_some() && s.name == d.at);
            if !known {
                return Err(err(
                    &format!("two_players.neutral_draws.{i}.at"),
                    format!("`{}` is neither `start` nor the name of a scoring with a card", d.at),
                ));
            }
        }
        let script = |key: &str, path: &str| -> Result<(Source, String), LoadError> {
            let s = source.join(path);
            let text = s.read().map_err(|e| err(key, e.message))?;
            Ok((s, text))
        };
        let scripts = Scripts {
            score: script("scripts.score", &file.scripts.score)?,
            neutral: script("scripts.neutral", &file.scripts.neutral)?,
        };
        Ok(Ruleset {
            id: file.id,
            name: file.name,
            description: file.description,
            source,
            rules: file.rules,
            currencies: file.money.currencies,
            values: file.money.values,
            copies: file.money.copies,
            yard,
            types: file.building,
            buildings,
            scorings: file.scoring,
            two_players: file.two_players,
            scripts,
        })
    }

    /// Money cards in a game with this many players (every currency and value, times the copies).
    pub fn money_cards(&self, players: usize) -> usize {
        self.currencies.len() * self.values.len() * self.money_copies(players) as usize
    }

    /// Copies of each money card with this many players.
    pub fn money_copies(&self, players: usize) -> u8 {
        if players == 2 { self.two_players.money_copies } else { self.copies }
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
        self.money_cards(players) + self.building_cards() + self.scoring_cards()
    }

    /// Slots of the building display (one per yard currency).
    pub fn building_display(&self) -> usize {
        self.yard.len()
    }

    /// The id of a money card: `denar5`.
    pub fn money_id(&self, m: Money) -> String {
        format!("{}{}", self.currencies[m.currency as usize].id, m.value)
    }

    /// Reads a money card id.
    pub fn lookup_money(&self, id: &str) -> Result<Money, String> {
        for (i, c) in self.currencies.iter().enumerate() {
            if let Some(v) = id.strip_prefix(c.id.as_str())
                && let Ok(v) = v.parse::<u8>()
            {
                if self.values.contains(&v) {
                    return Ok(Money { currency: i as u8, value: v });
                }
                return Err(format!("there is no {} card of value {v}", c.name));
            }
        }
        let ids: Vec<&str> = self.currencies.iter().map(|c| c.id.as_str()).collect();
        Err(format!("unknown money card `{id}`; write a currency ({}) and a value, e.g. `{}5`", ids.join(", "), ids[0]))
    }

    /// The building card kind with this id (`garden10`).
    pub fn lookup_building(&self, id: &str) -> Result<BuildingIdx, String> {
        self.buildings.iter().position(|b| b.id == id).map(|i| i as BuildingIdx).ok_or_else(|| {
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

    /// The currency's name in sentences (`denars`).
    pub fn currency_name(&self, c: u8) -> &str {
        &self.currencies[c as usize].name
    }
}

/// A building card kind: an index into [`Ruleset::buildings`].
pub type BuildingIdx = u8;

/// A money card: a currency (index into [`Ruleset::currencies`]) and a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Money {
    /// Index of the currency.
    pub currency: u8,
    /// Face value.
    pub value: u8,
}

fn check_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    if ok { Ok(()) } else { Err(format!("`{id}`: an id is lowercase letters and `_`, starting with a letter")) }
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
        assert!(rs.lookup_money("ducat10").is_err());
        assert_eq!(rs.building(rs.lookup_building("garden10").unwrap()).copies, 3);
    }

    #[test]
    fn errors_name_the_file_and_key() {
        let text = Source::builtin_ruleset(DEFAULT_RULESET).unwrap().read().unwrap();
        let bad =
            text.replace("slots = [\"denar\", \"dirham\", \"ducat\", \"florin\"]", "slots = [\"denar\", \"euro\"]");
        let e = Ruleset::parse(Source::Builtin("cards/alhambra/x.toml".into()), &bad).unwrap_err();
        assert_eq!(
            e.to_string().lines().next().unwrap(),
            "cards/alhambra/x.toml: yard.slots.1: unknown currency `euro`; currencies: denar, dirham, ducat, florin"
        );
        let bad = text.replace("take_limit = 5", "take_limit = 5\ntake_limt = 3");
        let e = Ruleset::parse(Source::Builtin("cards/alhambra/x.toml".into()), &bad).unwrap_err();
        assert!(e.to_string().contains("take_limt"), "{e}");
        let line = bad.lines().position(|l| l.starts_with("take_limt")).unwrap() + 1;
        assert!(e.to_string().starts_with(&format!("cards/alhambra/x.toml:{line}: ")), "{e}");
    }
}
