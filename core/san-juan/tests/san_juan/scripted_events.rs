//! The events scripts hear (drew, discarded, a good placed, a counter…): an
//! effect that causes the event that calls it stops at the loop guard with an
//! error naming the card, and `check` refuses `ctx.event` keys the hook's
//! event does not carry, naming the event that does.

use std::fs;
use std::sync::Arc;

use san_juan::Ruleset;
use san_juan::scenario::Scenario;

/// A ruleset over the 2nd edition with one extra city building `id` whose script is `script`.
fn with_card(id: &str, script: &str) -> (tempfile::TempDir, Result<Arc<Ruleset>, String>) {
    let dir = tempfile::tempdir().unwrap();
    let card = format!(
        "script_dir = \".\"\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\n\
         script = \"{id}.rhai\"\n"
    );
    fs::write(dir.path().join("extra.toml"), card).unwrap();
    fs::write(dir.path().join(format!("{id}.rhai")), script).unwrap();
    let rules = "id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\nextra_sets = [\"extra.toml\"]\n";
    let path = dir.path().join("house.toml");
    fs::write(&path, rules).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).map_err(|e| e.to_string());
    (dir, rs)
}

fn play(rs: Arc<Ruleset>, text: &str) -> Result<(), String> {
    let scenario = Scenario::parse(san_juan::files::Source::Disk("events.toml".into()), text.to_owned()).unwrap();
    scenario.play(rs).map(|_| ()).map_err(|e| e.to_string())
}

#[test]
fn a_draw_that_hears_its_own_draw_stops_at_the_loop_guard_naming_the_card() {
    let (_dir, rs) = with_card("echo", "fn on_drew(ctx) { 1 }\n");
    let text = "actions = [\"role prospector\"]\n[[players]]\nbuildings = [\"echo\"]\n[[players]]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("echo.rhai:1:"), "{err}");
    assert!(err.contains("card `echo`") && err.contains("hook `on_drew`"), "{err}");
    assert!(err.contains("event loop") && err.contains("`drew` event 12 events deep"), "{err}");
}

#[test]
fn an_effect_that_changes_the_counter_it_hears_stops_at_the_loop_guard() {
    let script = "fn on_role(ctx) { #{ counter: 1 } }\nfn on_counter_changed(ctx) { #{ counter: 1 } }\n";
    let (_dir, rs) = with_card("ratchet", script);
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"ratchet\"]\n[[players]]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("ratchet.rhai:2:") && err.contains("hook `on_counter_changed`"), "{err}");
    assert!(err.contains("`counter_changed` event 12 events deep"), "{err}");
}

#[test]
fn a_chain_that_stops_by_itself_is_not_a_loop() {
    // Draws 1 for each draw that was not its own: one extra card, then quiet.
    let script = "fn on_drew(ctx) { if ctx.event.by == ctx.card { 0 } else { 1 } }\n";
    let (_dir, rs) = with_card("echo", script);
    let text = "deck = [\"well\", \"tower\", \"palace\"]\nactions = [\"role prospector\"]\n\
                [[players]]\nbuildings = [\"echo\"]\n[[players]]\n[expect]\nhand_sizes = [2, 0]\n";
    let rs = rs.unwrap();
    let scenario = Scenario::parse(san_juan::files::Source::Disk("events.toml".into()), text.to_owned()).unwrap();
    let game = scenario.play(rs).unwrap();
    let failures = scenario.check(&game).unwrap();
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn check_refuses_an_event_key_the_hook_does_not_hear_and_names_the_event_that_carries_it() {
    let (_dir, rs) = with_card("misread", "fn on_drew(ctx) {\n    if ctx.event.building == () { 1 } else { 0 }\n}\n");
    let err = rs.unwrap_err();
    assert!(err.contains("misread.rhai:2:"), "{err}");
    assert!(err.contains("the event `on_drew` hears has no `building`"), "{err}");
    assert!(err.contains("`ctx.event.building`: carried by the event `tucked`"), "{err}");
    assert!(err.contains("in `on_drew`, ctx.event has: name, actor, n, why, by"), "{err}");
}

#[test]
fn check_says_where_a_property_of_an_event_is_read() {
    let (_dir, rs) = with_card("misread", "fn on_other_sold(ctx) { ctx.prices.len() }\n");
    let err = rs.unwrap_err();
    assert!(err.contains("`ctx` has no property or method `prices`"), "{err}");
    assert!(
        err.contains(
            "did you mean `ctx.event.prices`: carried by the event `sold` (on_sold, on_other_sold, on_any_sold)?"
        ),
        "{err}"
    );
}

#[test]
fn check_refuses_ctx_event_in_a_hook_that_hears_no_event() {
    let (_dir, rs) = with_card("misread", "fn on_score(ctx) { ctx.event.n }\n");
    let err = rs.unwrap_err();
    assert!(err.contains("`on_score` hears no event: `ctx.event` is `()` there"), "{err}");
}

#[test]
fn a_misspelt_event_hook_is_answered_with_the_event_hook() {
    let (_dir, rs) = with_card("misread", "fn on_other_drawn(ctx) { 1 }\n");
    let err = rs.unwrap_err();
    assert!(err.contains("did you mean `on_other_drew`?"), "{err}");
}
