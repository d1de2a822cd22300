//! The ruleset: the few numbers of High-Low, read from one TOML file (a
//! built-in id or a path) and checked, each problem located at its key.

use std::sync::Arc;

use engine_rules::actions::Vocabulary;
use engine_rules::chain::check_ruleset_id;
use engine_rules::doc::TomlDoc;
use engine_rules::{LoadErrors, Source};
use engine_script::EffectSpec;
use engine_script::verbs::Verbs;
use serde::Deserialize;

use crate::files::BUILTINS;

/// The ruleset used when none is named.
pub const DEFAULT_RULESET: &str = "high-low";

engine_rules::rules! {
    /// Fewest players.
    min_players: usize => Some((1, 8)),
    /// Most players.
    max_players: usize => Some((1, 8)),
    /// The lowest card value.
    low: u32 => Some((0, 99)),
    /// The highest card value.
    high: u32 => Some((0, 99)),
    /// Copies of each value in the deck.
    copies: u32 => Some((1, 20)),
    /// Cards dealt to each player.
    hand: usize => Some((1, 20)),
    /// Rounds played (a round is one turn of every seat).
    rounds: u32 => Some((1, 100)),
}

/// The words of a ruleset's own actions (`[[action]]`, read by
/// `engine_script::verbs`): where they are offered, the verbs they may not
/// take, what their scripts read and the effects they may return.
/// Where an action is offered, and the notation's own verbs it may not take.
pub(crate) const VOCABULARY: Vocabulary<'static> =
    Vocabulary { decisions: &["turn"], arg_kinds: &[], builtin: &["play", "draw", "pass"], payments: &[], reads: &[] };

/// The `ctx` members the game gives: the actor's hand (card ids) and points,
/// every seat's points, the pile's top (`()` when empty), the deck's size, the round.
pub(crate) const MEMBERS: &[&str] = &["hand", "score", "scores", "pile_top", "deck_size", "round"];

const ZONES: &[&str] = &["hand", "pile", "deck"];

/// The most points a seat may have, either way: a script's `score` stops there.
pub(crate) const MAX_POINTS: i32 = 1_000_000;

/// The effects: `#{ score: n }` points to the actor (negative: taken), `#{ draw: n }`
/// cards from the deck, `#{ move: "c3" | "top", from, to }` one card between the
/// actor's hand, the pile (its top) and the deck (its top).
pub(crate) const EFFECTS: &[EffectSpec] = &[
    EffectSpec { name: "score", keys: &[], values: &[] },
    EffectSpec { name: "draw", keys: &[], values: &[] },
    EffectSpec { name: "move", keys: &["from", "to"], values: &[("from", ZONES), ("to", ZONES)] },
];

/// A High-Low ruleset; no `extends`: a toy ruleset stands alone.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesetFile {
    /// Short name; game records are labelled by it.
    id: String,
    /// Display name.
    name: String,
    /// The game, `toy`.
    #[schemars(extend("enum" = ["toy"]))]
    game: Option<String>,
    /// What the ruleset is, in a sentence.
    #[serde(default)]
    description: String,
    /// Every rule number.
    rules: RulesPatch,
    /// Actions of the ruleset's own: a verb, a script that says when it is
    /// legal and what it does (`engine_script::verbs`).
    #[serde(default)]
    action: Vec<engine_rules::actions::ActionEntry>,
}

/// A loaded and checked ruleset, shared by every game played with it.
pub struct Ruleset {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// What it is, in a sentence.
    pub description: String,
    /// Where it was read from.
    pub source: Source,
    /// Its numbers.
    pub rules: Rules,
    /// The first 16 hex digits of the SHA-256 of the file and its scripts: records of edited rules are not mixed up.
    pub fingerprint: String,
    /// The ruleset's own actions, their scripts compiled.
    pub(crate) verbs: Verbs,
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ruleset").field("id", &self.id).field("rules", &self.rules).finish_non_exhaustive()
    }
}

impl Ruleset {
    /// Loads the ruleset in `source`, reporting every problem found.
    pub fn load_source(source: Source) -> Result<Arc<Ruleset>, LoadErrors> {
        source.check_inside(source.tree_root().as_deref(), "toml")?;
        let doc = TomlDoc::read(&source)?;
        let file: RulesetFile = doc.deserialize().map_err(|e| {
            e.help(
                "a ruleset has id, name, game, description, [rules] and [[action]]s (cards/toy/rulesets/high-low.toml)",
            )
        })?;
        let mut errors = Vec::new();
        if let Some(game) = file.game.as_deref().filter(|g| *g != BUILTINS.game) {
            errors.push(doc.error("game", format!("this ruleset is for `{game}`, not `{}`", BUILTINS.game)));
        }
        errors.extend(check_ruleset_id(&doc, &file.id).err());
        for (path, value, (lo, hi)) in file.rules.numbers() {
            if value < lo || value > hi {
                errors.push(doc.error(&format!("rules.{path}"), format!("{value}: must be {lo} to {hi}")));
            }
        }
        let rules = RulesPatch::merge(&[&file.rules]).map_err(|missing| {
            errors.push(doc.key_error("rules", format!("[rules] sets no {}", missing.join(", "))));
            LoadErrors(std::mem::take(&mut errors))
        })?;
        let mut err = |key: &str, message: String| errors.push(doc.error(&format!("rules.{key}"), message));
        if rules.min_players > rules.max_players {
            err("min_players", format!("{} players at least but {} at most", rules.min_players, rules.max_players));
        }
        if rules.low > rules.high {
            err("low", format!("the lowest value {} is above the highest {}", rules.low, rules.high));
        }
        // Every seat's hand and the pile's first card, at the most players.
        let cards = (rules.high.saturating_sub(rules.low) + 1) as usize * rules.copies as usize;
        let needed = rules.max_players * rules.hand + 1;
        if rules.low <= rules.high && cards < needed {
            err("hand", format!("{needed} cards are dealt to {} players, the deck has {cards}", rules.max_players));
        }
        let verbs = Verbs::load(&file.action, &doc, &VOCABULARY, MEMBERS, EFFECTS).map_err(|e| errors.extend(e));
        let (Ok(verbs), true) = (verbs, errors.is_empty()) else {
            return Err(LoadErrors(errors));
        };
        // The scripts are content too: a changed script is another ruleset to a record or a model.
        let mut content = doc.text.to_string();
        for a in &file.action {
            content.extend(doc.source.join(&a.script).read().ok());
        }
        Ok(Arc::new(Ruleset {
            id: file.id,
            name: file.name,
            description: file.description,
            fingerprint: fingerprint(&content),
            source,
            rules,
            verbs,
        }))
    }

    /// Every card of the deck, by value, lowest first.
    pub fn deck(&self) -> Vec<u8> {
        let r = &self.rules;
        (r.low..=r.high).flat_map(|v| std::iter::repeat_n(v as u8, r.copies as usize)).collect()
    }
}

/// The first 8 bytes of the text's SHA-256, in hex (the seed of self-play reads 16 digits).
fn fingerprint(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect()
}
