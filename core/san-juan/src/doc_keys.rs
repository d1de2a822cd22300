//! Every name a designer writes or reads, listed from the code, so that
//! `core/san-juan/tests/san_juan/docs.rs` can check that the user documentation in `docs/`
//! names each one. A field added to a file format, a new hook or a new `ctx`
//! property then fails a test until someone documents it.
//!
//! File-format keys come from each struct's own `Deserialize` impl, and script
//! names from the hook tables and the registration code in `hooks.rs`, so no
//! list here has to be kept in step by hand (except [`RETURN_KEYS`]).

pub use engine_rules::schema::field_names;

use crate::cards::{CardSetFile, CardSpec};
use crate::hooks::{HOOKS, SCALARS};
use crate::ruleset::{CardPatch, Rules, RulesetFile};
use crate::saved::SavedGame;
use crate::scenario::{Expect, PlayerSpec, ScenarioFile};
use crate::sim::{Built, GameRecord};

/// The docs page for ruleset and card set files.
pub const RULESETS_MD: &str = "rulesets.md";
/// The docs page for scripts.
pub const SCRIPTING_MD: &str = "scripting.md";
/// The docs page for scenario files.
pub const SCENARIOS_MD: &str = "scenarios.md";
/// The docs page for the JSON output and saved games.
pub const JSON_MD: &str = "json.md";

/// The keys a hook's returned map may hold. Hand-kept: the engine checks them
/// as literal lists at each `hooks::as_map` and `Game::call_map` call (`game/step.rs`, `roles.rs`), and
/// there is no list in code to read them from. A unit test ties each one to
/// the hook contracts in [`HOOKS`].
pub static RETURN_KEYS: &[&str] = &[
    "tuck",
    "exchange",
    "overbuild",
    "overbuild_except",
    "goods_as_cards",
    "draw",
    "tuck_sold",
    "keep",
    "from_hand",
    "min_goods",
    "refuse",
    "goods_of",
    "cancel",
    "build_from",
];

/// What a script can see, by the type the name is registered on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptNames {
    /// `ctx` properties (`ctx.hand`, `ctx.buildings`, …).
    pub ctx_properties: Vec<String>,
    /// `ctx` methods (`ctx.count_kind(k)`, …).
    pub ctx_methods: Vec<String>,
    /// `Card` properties (`card.cost`, …).
    pub card_properties: Vec<String>,
    /// `Card` methods (`card.has_tag(t)`, …).
    pub card_methods: Vec<String>,
    /// Functions over arrays (`costs(cards)`, …).
    pub library: Vec<String>,
}

/// The names `hooks::register` gives scripts, read from its source. Rhai can
/// list an engine's functions only with its `metadata` feature, which this
/// crate does not build with; reading the registration calls keeps the list
/// in step with the code instead of with a copy of it.
pub fn script_names() -> ScriptNames {
    script_names_in(include_str!("hooks.rs"))
}

/// The names registered by `getter("name", |x: &Type| …)`,
/// `function("name", |x: &Type, …| …)` (and Rhai's own `register_get`,
/// `register_fn`) calls in `source`, sorted by the type
/// of the first parameter (`ScriptCtx`, `Card`, anything else: the library).
/// Operators (`==`) are left out.
pub fn script_names_in(source: &str) -> ScriptNames {
    let mut out = ScriptNames::default();
    let calls = [
        ("register_get(\"", true),
        ("register_fn(\"", false),
        ("getter(\"", true),
        ("function(\"", false),
        ("function_text(\"", false),
    ];
    for (call, getter) in calls {
        for (at, _) in source.match_indices(call) {
            let rest = &source[at + call.len()..];
            let Some((name, rest)) = rest.split_once('"') else { continue };
            if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                continue;
            }
            // The closure's first parameter type: `|c: &mut Card| …` or `|a: Array| …`.
            let param = rest.split_once('|').map_or("", |(_, p)| p);
            let ty = param.split_once(':').map_or("", |(_, t)| t);
            let ty = ty.split(['|', ',']).next().unwrap_or("").trim();
            let list = match (ty.ends_with("ScriptCtx"), ty.ends_with("Card"), getter) {
                (true, _, true) => &mut out.ctx_properties,
                (true, _, false) => &mut out.ctx_methods,
                (_, true, true) => &mut out.card_properties,
                (_, true, false) => &mut out.card_methods,
                _ => &mut out.library,
            };
            if !list.iter().any(|n| n == name) {
                list.push(name.to_owned());
            }
        }
    }
    out
}

/// (docs page, name) for every key, hook and script name the code has.
pub fn code_keys() -> Vec<(&'static str, String)> {
    let mut keys = Vec::new();
    let mut add = |page: &'static str, names: &[&str]| keys.extend(names.iter().map(|n| (page, (*n).to_owned())));
    add(RULESETS_MD, field_names::<RulesetFile>());
    add(RULESETS_MD, field_names::<Rules>());
    add(RULESETS_MD, field_names::<CardPatch>());
    add(RULESETS_MD, field_names::<CardSetFile>());
    add(RULESETS_MD, field_names::<CardSpec>());
    add(SCENARIOS_MD, field_names::<ScenarioFile>());
    add(SCENARIOS_MD, field_names::<PlayerSpec>());
    add(SCENARIOS_MD, field_names::<Expect>());
    add(JSON_MD, field_names::<SavedGame>());
    add(JSON_MD, field_names::<GameRecord>());
    add(JSON_MD, field_names::<Built>());
    add(SCRIPTING_MD, &HOOKS.iter().map(|h| h.name).collect::<Vec<_>>());
    add(SCRIPTING_MD, SCALARS);
    add(SCRIPTING_MD, RETURN_KEYS);
    for (name, params, _) in crate::vocabulary::EFFECTS {
        add(SCRIPTING_MD, &[name]);
        add(SCRIPTING_MD, params);
    }
    let names = script_names();
    for list in [&names.ctx_properties, &names.ctx_methods, &names.card_properties, &names.card_methods, &names.library]
    {
        keys.extend(list.iter().map(|n| (SCRIPTING_MD, n.clone())));
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_follow_serde_renames() {
        assert_eq!(field_names::<CardSetFile>(), ["script_dir", "card", "add_copies"]);
        assert!(field_names::<Rules>().contains(&"hand_limit"));
    }

    #[test]
    fn registration_calls_are_read_by_type() {
        let names = script_names();
        // Every plain ctx value is a registered getter: a check that the source was read at all.
        for s in SCALARS {
            assert!(names.ctx_properties.iter().any(|n| n == s), "{s} not found in hooks::register");
        }
        assert!(names.ctx_methods.iter().any(|n| n == "count_kind"), "{names:?}");
        assert!(names.card_properties.iter().any(|n| n == "cost"), "{names:?}");
        assert!(names.card_methods.iter().any(|n| n == "has_tag"), "{names:?}");
        assert!(names.library.iter().any(|n| n == "cheapest"), "{names:?}");
        assert!(!names.card_methods.iter().any(|n| n == "=="), "operators are not names");
    }

    #[test]
    fn every_return_key_is_in_a_hook_contract() {
        for key in RETURN_KEYS {
            assert!(HOOKS.iter().any(|h| h.doc.contains(&format!("{key}:"))), "`{key}` is in no hook's doc");
        }
    }
}
