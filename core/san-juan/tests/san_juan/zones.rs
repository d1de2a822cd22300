//! Zones a card moves between (`move: <card>`, `from`, `to`): a player's
//! reserve (public, out of the hand, built from when a building grants
//! `build_from`), the public cards (one that is not `buildable` is only
//! claimed), a city; and the checks that refuse their misuse where written.

use std::fs;
use std::sync::Arc;

use engine_game::Game as _;
use san_juan::Ruleset;
use san_juan::scenario::Scenario;

/// A ruleset over the 2nd edition with the card set `cards` (its scripts in `scripts`).
fn with_cards(cards: &str, scripts: &[(&str, &str)]) -> (tempfile::TempDir, Result<Arc<Ruleset>, String>) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("extra.toml"), format!("script_dir = \".\"\n{cards}")).unwrap();
    for (name, text) in scripts {
        fs::write(dir.path().join(name), text).unwrap();
    }
    let rules = "id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\nextra_sets = [\"extra.toml\"]\n";
    let path = dir.path().join("house.toml");
    fs::write(&path, rules).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).map_err(|e| e.to_string());
    (dir, rs)
}

fn card(id: &str, extra: &str) -> String {
    format!("[[card]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\n{extra}\n")
}

fn game(rs: &Arc<Ruleset>, text: &str) -> Result<san_juan::Game, String> {
    let scenario = Scenario::parse(san_juan::files::Source::Disk("zones.toml".into()), text.to_owned()).unwrap();
    scenario.play(Arc::clone(rs)).map_err(|e| e.to_string())
}

const DESK: &str = "fn on_turn_start(ctx) { if ctx.role == \"builder\" { #{ choose_cards: 1, from: \"hand\", optional: true } } }\n\
    fn on_choice(ctx) { if ctx.chosen.len() > 0 { #{ move: ctx.chosen[0], from: \"hand\", to: \"reserve\" } } }\n";

#[test]
fn a_reserved_card_leaves_the_hand_is_seen_by_all_and_is_built_only_while_a_building_grants_it() {
    let grant = "fn on_build_options(ctx) { #{ build_from: [\"reserve\"] } }\n\
                 fn on_build_cost(ctx) { if ctx.target_from == \"reserve\" { 2 } else { 0 } }\n";
    let cards = format!("{}{}", card("desk", "script = \"desk.rhai\""), card("drawer", "script = \"drawer.rhai\""));
    let (_dir, rs) = with_cards(&cards, &[("desk.rhai", DESK), ("drawer.rhai", grant)]);
    let rs = rs.unwrap();
    // Without the drawer the reserved hero stays reserved and cannot be built.
    let text = "actions = [\"role builder\", \"choose hero\"]\n[[players]]\nbuildings = [\"desk\"]\n\
                hand = [\"hero\", \"well\", \"statue\"]\n[[players]]\n";
    let g = game(&rs, text).unwrap();
    let hero = rs.cards.idx("hero").unwrap();
    assert_eq!(g.player(0).reserve, vec![hero]);
    assert!(!g.player(0).hand.contains(&hero));
    assert!(!g.legal_actions().iter().any(|a| a.text(&rs.cards) == "build hero"), "{:?}", g.legal_actions());
    // The reserve is public: another seat's view shows it.
    let view = g.view(Some(1)).unwrap();
    assert_eq!(view.players[0].reserve, ["hero"]);
    let census = g.census();
    assert!(census.iter().zip(&rs.cards.cards).all(|(&n, c)| n == c.copies), "every card in one place");
    // With the drawer, the reserved hero is built for 5 - 1 (privilege) - 2 (reserved) = 2.
    let text = "actions = [\"role builder\", \"pass\", \"build hero pay well statue\"]\n[[players]]\n\
                buildings = [\"desk\", \"drawer\"]\nhand = [\"well\", \"statue\", \"chapel\"]\nreserve = [\"hero\"]\n\
                [[players]]\n[expect]\nbuildings = [[\"desk\", \"drawer\", \"hero\"], []]\nhands = [[\"chapel\"], []]\n\
                reserve = [[], []]\n";
    let g = game(&rs, text).unwrap();
    assert!(g.player(0).reserve.is_empty());
}

#[test]
fn a_move_is_logged_in_the_open_and_a_hand_card_discarded_only_to_its_owner() {
    // The line is made only while the log is on (a bot's copies play moves by
    // the hundred): with it on, a move to the reserve reads the same to every
    // seat, and a hand card sent to the discard pile is named to its owner alone.
    let tosser = "fn on_turn_start(ctx) { if ctx.role == \"builder\" { #{ choose_cards: 1, from: \"hand\", optional: true } } }\n\
        fn on_choice(ctx) { if ctx.chosen.len() > 0 { #{ move: ctx.chosen[0], from: \"hand\", to: \"discard\" } } }\n";
    for (script, owner, other) in [
        (
            DESK,
            "seat 0: desk moves hero from its hand to its reserve",
            "seat 0: desk moves hero from its hand to its reserve",
        ),
        (tosser, "seat 0: desk moves hero from its hand to the discard pile", "seat 0: desk discards a hand card"),
    ] {
        let (_dir, rs) = with_cards(&card("desk", "script = \"desk.rhai\""), &[("desk.rhai", script)]);
        let rs = rs.unwrap();
        let text = "[[players]]\nbuildings = [\"desk\"]\nhand = [\"hero\", \"well\", \"statue\"]\n[[players]]\n";
        let scenario = Scenario::parse(san_juan::files::Source::Disk("zones.toml".into()), text.to_owned()).unwrap();
        let mut g = scenario.setup(Arc::clone(&rs)).unwrap();
        g.log_events(true);
        let mut events = g.apply_text("role builder").unwrap();
        events.extend(g.apply_text("choose hero").unwrap());
        let seen =
            |seat: usize| -> Vec<String> { events.iter().filter_map(|e| e.seen_by(seat)).map(|e| e.text).collect() };
        assert!(seen(0).iter().any(|t| t == owner), "{:?}", seen(0));
        assert!(seen(1).iter().any(|t| t == other), "{:?}", seen(1));
    }
}

#[test]
fn a_public_card_that_is_not_buildable_is_never_offered_but_a_move_claims_it() {
    let claim = "fn on_builder_end(ctx) { #{ move: \"noble\", from: \"public\", to: \"city\" } }\n";
    let cards =
        format!("{}{}", card("noble", "public = true\nbuildable = false"), card("herald", "script = \"herald.rhai\""));
    let (_dir, rs) = with_cards(&cards, &[("herald.rhai", claim)]);
    let rs = rs.unwrap();
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"herald\"]\nhand = [\"well\"]\n[[players]]\n";
    let g = game(&rs, text).unwrap();
    // The builder phase ended (nothing to build: the noble is not offered); the herald claimed it.
    let noble = rs.cards.idx("noble").unwrap();
    assert!(g.player(0).city.iter().any(|s| s.card == noble));
    assert!(g.view(None).unwrap().public.is_empty());
}

#[test]
fn misused_zone_keys_are_refused_where_written() {
    // `buildable = false` on a deck card.
    let (_dir, rs) = with_cards(&card("ghost", "buildable = false"), &[]);
    let err = rs.unwrap_err();
    assert!(err.contains("extra.toml") && err.contains("`buildable = false` is for public cards"), "{err}");
    // A zone a card cannot come from, at check time.
    let bad = "fn on_role(ctx) { #{ move: \"hero\", from: \"deck\", to: \"reserve\" } }\n";
    let (_dir, rs) = with_cards(&card("mover", "script = \"mover.rhai\""), &[("mover.rhai", bad)]);
    let err = rs.unwrap_err();
    assert!(err.contains("mover.rhai:1:") && err.contains("`from: \"deck\"` is not a value"), "{err}");
    // A zone that is computed is refused when the effect runs, naming the card and hook.
    let bad = "fn on_role(ctx) { let z = \"ci\"; z += \"ty\"; #{ move: \"hero\", from: z, to: \"reserve\" } }\n";
    let (_dir, rs) = with_cards(&card("mover", "script = \"mover.rhai\""), &[("mover.rhai", bad)]);
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"mover\"]\nhand = [\"hero\"]\n[[players]]\n";
    let err = game(&rs.unwrap(), text).unwrap_err();
    assert!(err.contains("mover.rhai:1:") && err.contains("a card moves from"), "{err}");
    // `build_from` names a zone the engine builds from.
    let bad = "fn on_build_options(ctx) { #{ build_from: [\"deck\"] } }\n";
    let (_dir, rs) = with_cards(&card("mover", "script = \"mover.rhai\""), &[("mover.rhai", bad)]);
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"mover\"]\nhand = [\"well\"]\n[[players]]\n";
    let err = game(&rs.unwrap(), text).unwrap_err();
    assert!(err.contains("mover.rhai") && err.contains("`build_from`"), "{err}");
}

/// A ruleset over the 2nd edition with a rules script (and the card set `cards`).
fn with_rules(script: &str, cards: &str) -> (tempfile::TempDir, Result<Arc<Ruleset>, String>) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("extra.toml"), format!("script_dir = \".\"\n{cards}")).unwrap();
    fs::write(dir.path().join("rules.rhai"), script).unwrap();
    let rules = "id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\nextra_sets = [\"extra.toml\"]\n\
                 rules_script = \"rules.rhai\"\n";
    let path = dir.path().join("house.toml");
    fs::write(&path, rules).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).map_err(|e| e.to_string());
    (dir, rs)
}

#[test]
fn a_rules_script_hears_each_seats_builder_end_and_a_moment_of_the_table_once() {
    // Each seat draws 1 at the end of the builder phase (its own hook); the phase's end (a
    // moment) is heard once, as the chooser: 1 more card for it alone.
    let script = "fn on_builder_end(ctx) { #{ draw: 1 } }\n\
                  fn on_phase_end(ctx) { if ctx.role == \"builder\" { #{ draw: 1, seat: ctx.seat } } }\n";
    let (_dir, rs) = with_rules(script, "");
    let text = "actions = [\"role builder\"]\ndeck = [\"well\", \"statue\", \"hero\"]\n[[players]]\n\
                hand = [\"chapel\"]\n[[players]]\n[expect]\nhand_sizes = [3, 1]\n";
    let rs = rs.unwrap();
    let scenario = Scenario::parse(san_juan::files::Source::Disk("r.toml".into()), text.to_owned()).unwrap();
    let g = scenario.play(Arc::clone(&rs)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario.check(&g).unwrap(), Vec::<String>::new());
    // `cards --diff` names the rules script's hooks.
    let base = Ruleset::load("second-edition").unwrap();
    assert!(
        base.diff(&rs).contains(&"rules script: (none) -> on_builder_end on_phase_end".to_owned()),
        "{:?}",
        base.diff(&rs)
    );
}

#[test]
fn a_building_claimed_at_the_builder_phases_end_can_end_the_game() {
    let script = "fn on_builder_end(ctx) { if ctx.buildings.len() == 11 { #{ move: \"noble\", from: \"public\", to: \"city\" } } }\n";
    let (_dir, rs) = with_rules(script, &card("noble", "public = true\nbuildable = false"));
    let eleven = "\"indigo_plant\", \"sugar_mill\", \"tobacco_storage\", \"coffee_roaster\", \"silver_smelter\", \
                  \"well\", \"smithy\", \"chapel\", \"tower\", \"statue\", \"hero\"";
    let text = format!(
        "actions = [\"role builder\"]\n[[players]]\nbuildings = [{eleven}]\n[[players]]\n[expect]\nover = true\n"
    );
    let g = game(&rs.unwrap(), &text).unwrap();
    assert!(g.is_over());
}

#[test]
fn a_rules_script_is_refused_a_cards_hook_a_missing_file_and_a_self() {
    let (_dir, rs) = with_rules("fn on_build_cost(ctx) { 1 }\n", "");
    let err = rs.unwrap_err();
    assert!(err.contains("rules.rhai:1:") && err.contains("a rules script cannot define `on_build_cost`"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("house.toml");
    fs::write(&path, "id = \"house\"\nname = \"H\"\nextends = \"second-edition\"\nrules_script = \"gone.rhai\"\n")
        .unwrap();
    let err = Ruleset::load(path.to_str().unwrap()).unwrap_err().to_string();
    assert!(err.contains("house.toml:4:") && err.contains("gone.rhai"), "{err}");
    let (_dir, rs) = with_rules("fn on_builder_end(ctx) { #{ add_good: \"self\" } }\n", "");
    let text = "actions = [\"role builder\", \"pass\"]\n[[players]]\nhand = [\"chapel\"]\n[[players]]\n";
    let err = game(&rs.unwrap(), text).unwrap_err();
    assert!(err.contains("rules.rhai:1:") && err.contains("a rules script has none"), "{err}");
}
