//! The events scripts hear (drew, discarded, a good placed, a counter…): an
//! effect that causes the event that calls it stops at the loop guard with an
//! error naming the card, and `check` refuses `ctx.event` keys the hook's
//! event does not carry, naming the event that does.
//! A build option that reads the table is asked in every builder turn.

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

/// Plays a scenario; an error, or each `[expect]` key not met, is the `Err`.
fn play(rs: Arc<Ruleset>, text: &str) -> Result<(), String> {
    let scenario = Scenario::parse(san_juan::files::Source::Disk("events.toml".into()), text.to_owned()).unwrap();
    let game = scenario.play(rs).map_err(|e| e.to_string())?;
    let failures = scenario.check(&game).map_err(|e| e.to_string())?;
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
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

#[test]
fn a_give_from_another_seat_asks_that_seat_and_moves_its_card() {
    // When the owner chooses the councillor, seat 1 gives seat 2 one card of its choice.
    let script =
        "fn on_role(ctx) {\n    if ctx.role == \"councillor\" { #{ give: 1, from: 1, to: 2 } } else { () }\n}\n";
    let (_dir, rs) = with_card("envoy", script);
    let rs = rs.unwrap();
    let text = "deck = [\"well\", \"tower\", \"palace\", \"chapel\", \"smithy\", \"market_stand\"]\n\
                actions = [\"role councillor\", \"give aqueduct\"]\n\
                [[players]]\nbuildings = [\"envoy\"]\n[[players]]\nhand = [\"aqueduct\", \"statue\"]\n\
                [[players]]\nhand = [\"quarry\"]\n\
                [expect]\nhands = [[], [\"statue\"], [\"quarry\", \"aqueduct\"]]\npending = \"keep\"\npending_seat = 0\n";
    play(Arc::clone(&rs), text).unwrap();
    // Seat 1 is asked: seat 0 cannot answer for it.
    let text = "actions = [\"role councillor\"]\n[[players]]\nbuildings = [\"envoy\"]\n[[players]]\n\
                hand = [\"aqueduct\", \"statue\"]\n[[players]]\n\
                [expect]\npending = \"give\"\npending_seat = 1\nlegal = [\"give aqueduct\", \"give statue\"]\n";
    play(Arc::clone(&rs), text).unwrap();
    // Giving to oneself is refused, naming both keys.
    let (_dir, rs) = with_card("envoy", "fn on_role(ctx) { #{ give: 1, from: 1, to: 1 } }\n");
    let text =
        "actions = [\"role councillor\"]\n[[players]]\nbuildings = [\"envoy\"]\n[[players]]\nhand = [\"aqueduct\"]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("`to: 1` is the same seat as `from: 1`"), "{err}");
}

#[test]
fn a_random_card_can_go_from_one_other_seat_to_another() {
    // When the owner chooses the builder, a random card of seat 2 goes to seat 1.
    let script =
        "fn on_role(ctx) {\n    if ctx.role == \"builder\" { #{ take_random: 1, from: 2, to: 1 } } else { () }\n}\n";
    let (_dir, rs) = with_card("thief", script);
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"thief\"]\n[[players]]\n\
                [[players]]\nhand = [\"statue\"]\n[expect]\nhands = [[], [\"statue\"], []]\n";
    play(rs.unwrap(), text).unwrap();
}

#[test]
fn a_wrong_effect_map_is_shown_where_it_is_written_not_at_the_hook() {
    // The second map of a list, in a helper function the hook calls: the caret is on its `#{`.
    let script = "// a comment\nfn on_role(ctx) {\n    if ctx.role == \"builder\" { more(ctx) } else { () }\n}\n\
                  fn more(ctx) {\n    [#{ draw: 1 },\n     #{ draw: 1, seat: ctx.players }]\n}\n";
    let (_dir, rs) = with_card("broken", script);
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"broken\"]\n[[players]]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("broken.rhai:7:6") && err.contains("`seat: 2` is outside 0..=1"), "{err}");
    // Two maps with the same keys: the string values tell them apart.
    let script = "fn on_role(ctx) {\n    let s = ctx.players;\n    if ctx.role == \"builder\" {\n        \
                  [#{ add_good: \"self\" },\n         #{ add_good: \"palace\", seat: s }]\n    } else { () }\n}\n";
    let (_dir, rs) = with_card("broken", script);
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("broken.rhai:5:10"), "{err}");
    // Two maps with the same key: the value written tells them apart (the empty list is the wrong one).
    let script = "fn on_role(ctx) {\n    if ctx.role == \"trader\" { #{ choose: [\"a\", \"b\"] } }\n    \
                  else { #{ choose: [] } }\n}\n";
    let (_dir, rs) = with_card("broken", script);
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("broken.rhai:3:12") && err.contains("`choose` needs at least one option"), "{err}");
    // A map built key by key is written nowhere whole: the hook's function.
    let script = "fn on_role(ctx) {\n    let m = #{};\n    m.draw = 1;\n    m.seat = 9;\n    m\n}\n";
    let (_dir, rs) = with_card("broken", script);
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("broken.rhai:1:") && err.contains("`seat: 9`"), "{err}");
}

#[test]
fn a_scenario_that_starts_with_the_round_start_hears_the_new_round() {
    // Draws 1 whenever a round begins: a scenario with `round_start` begins one.
    let (_dir, rs) = with_card("herald", "fn on_new_round(ctx) { if ctx.event.round == 3 { 1 } else { 0 } }\n");
    let rs = rs.unwrap();
    let text = "round = 3\nround_start = true\ndeck = [\"well\"]\n[[players]]\nbuildings = [\"herald\"]\n[[players]]\n\
                [expect]\nhands = [[\"well\"], []]\nround = 3\npending = \"role\"\n";
    play(Arc::clone(&rs), text).unwrap();
    // Without it the scenario starts at the first role: no round began.
    let text = "round = 3\ndeck = [\"well\"]\n[[players]]\nbuildings = [\"herald\"]\n[[players]]\n\
                [expect]\nhand_sizes = [0, 0]\nround = 3\n";
    play(Arc::clone(&rs), text).unwrap();
    // `round` is checked: a wrong one fails naming it.
    let text = "[[players]]\nbuildings = [\"herald\"]\n[[players]]\n[expect]\nround = 2\n";
    let err = play(rs, text).unwrap_err();
    assert!(err.contains("round: expected 2, got 1"), "{err}");
}

#[test]
fn every_earlier_round_tells_who_chose_which_role() {
    // A chronicle that checks, each new round, that ctx.table.earlier_rounds holds
    // one map per earlier round with the round's roles (3 with 2 or 3 players, 4
    // with 4) and the governor of that round among their choosers, and counts the
    // builders chosen so far on its counter.
    let script = r#"
fn on_new_round(ctx) {
    let rounds = ctx.table.earlier_rounds;
    if rounds.len() != ctx.round - 1 { throw `${rounds.len()} earlier rounds in round ${ctx.round}`; }
    let per_round = if ctx.players == 4 { 4 } else { 3 };
    let builders = 0;
    for r in 0..rounds.len() {
        let m = rounds[r];
        if m.len() != per_round { throw `round ${r + 1}: ${m}`; }
        let governor = (ctx.table.governor + ctx.players * 20 - (ctx.round - 1 - r)) % ctx.players;
        if !m.values().contains(governor) { throw `round ${r + 1}: governor ${governor} chose nothing: ${m}`; }
        if "builder" in m { builders += 1; }
    }
    #{ counter: builders - ctx.counter }
}
"#;
    let (_dir, rs) = with_card("chronicle", script);
    let rs = rs.unwrap();
    for players in 2..=4 {
        let mut text = String::from("[[players]]\nbuildings = [\"chronicle\"]\n");
        text += &"[[players]]\n".repeat(players - 1);
        let scenario = Scenario::parse(san_juan::files::Source::Disk("t.toml".into()), text).unwrap();
        let mut game = scenario.setup(Arc::clone(&rs)).unwrap();
        let mut bot = san_juan::bots::RandomBot::new(players as u64);
        let mut builders = 0;
        let mut last_round = 1;
        while game.pending().is_some() {
            if game.round() != last_round {
                last_round = game.round();
                assert_eq!(game.player(0).city[0].counter, builders, "{players} players, round {last_round}");
            }
            let before = game.round();
            let chose_builder = game.legal_actions().iter().any(|a| a.text(&rs.cards) == "role builder");
            let a = san_juan::bots::Bot::choose(&mut bot, &game, game.legal_actions());
            if chose_builder && a.text(&rs.cards) == "role builder" && game.round() == before {
                builders += 1;
            }
            game.apply(a).unwrap_or_else(|e| panic!("{players} players: {e}"));
        }
        assert!(last_round > 3, "the game lasted {last_round} rounds");
    }
}

#[test]
fn a_choice_among_filtered_hand_cards_may_be_declined_and_acts_on_the_card_chosen() {
    // Renovator: when the owner chooses the builder, it may discard one hand card
    // costing 1 to draw 2.
    let script = r#"
fn on_role(ctx) {
    if ctx.role != "builder" { return (); }
    let ones = [];
    for c in ctx.hand_cards { if c.cost == 1 && !ones.contains(c.id) { ones.push(c.id); } }
    #{ choose_cards: 1, from: "hand", only: ones, optional: true }
}
fn on_choice(ctx) {
    if ctx.chosen.len() == 0 { return (); }
    [#{ discard: ctx.chosen }, #{ draw: 2 }]
}
"#;
    let (_dir, rs) = with_card("renovator", script);
    let rs = rs.unwrap();
    let base = "deck = [\"well\", \"tower\", \"palace\"]\n[[players]]\nbuildings = [\"renovator\"]\n\
                hand = [\"indigo_plant\", \"hero\", \"smithy\"]\n[[players]]\n";
    // Only the cost-1 cards are offered, and the owner may pass.
    let offered = format!(
        "actions = [\"role builder\"]\n{base}[expect]\npending = \"choose_cards\"\n\
         legal = [\"choose indigo_plant\", \"choose smithy\", \"pass\"]\n"
    );
    play(Arc::clone(&rs), &offered).unwrap();
    // Choosing the smithy discards exactly it and draws the well and the tower.
    let chosen = format!(
        "actions = [\"role builder\", \"choose smithy\"]\n{base}[expect]\n\
         hands = [[\"indigo_plant\", \"hero\", \"well\", \"tower\"], []]\ndiscard_size = 1\n"
    );
    play(Arc::clone(&rs), &chosen).unwrap();
    // Passing changes nothing.
    let passed = format!(
        "actions = [\"role builder\", \"pass\"]\n{base}[expect]\nhands = [[\"indigo_plant\", \"hero\", \"smithy\"], []]\n\
         discard_size = 0\npending = \"build\"\n"
    );
    play(Arc::clone(&rs), &passed).unwrap();
    // An unknown id in `only` is named with the id meant.
    let (_dir, rs) = with_card("renovator", "fn on_role(ctx) { #{ choose_cards: 1, only: [\"smithi\"] } }\n");
    let text =
        "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"renovator\"]\nhand = [\"well\"]\n[[players]]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(err.contains("unknown card `smithi`; did you mean `smithy`?"), "{err}");
}

#[test]
fn named_cards_are_given_from_one_hand_to_another() {
    // When the owner chooses the trader, seat 1 gives seat 0 its statues.
    let (_dir, rs) = with_card("customs", "fn on_role(ctx) { #{ give: [\"statue\", \"statue\"], from: 1, to: 0 } }\n");
    let text = "actions = [\"role trader\"]\n[[players]]\nbuildings = [\"customs\"]\n[[players]]\n\
                hand = [\"statue\", \"well\", \"statue\", \"statue\"]\n[expect]\n\
                hands = [[\"statue\", \"statue\"], [\"well\", \"statue\"]]\n";
    play(rs.unwrap(), text).unwrap();
}

#[test]
fn a_tag_carries_what_a_script_remembers_from_one_choice_to_the_next() {
    // Bandit: on the producer, the owner names another seat, then chooses one of that
    // seat's buildings with a good; the good is discarded. The seat travels as the tag.
    let script = r#"
fn on_role(ctx) {
    if ctx.role != "producer" { return (); }
    let seats = [];
    for s in 0..ctx.players { if s != ctx.seat { seats.push(`seat${s}`); } }
    #{ choose: seats, tag: "which seat" }
}
fn on_choice(ctx) {
    if ctx.tag == "which seat" {
        let seat = parse_int(ctx.choice.sub_string(4));
        return #{ choose_cards: 1, from: "goods", of: seat, tag: seat };
    }
    if ctx.chosen.len() == 0 { return (); }
    #{ remove_good: ctx.chosen[0].id, seat: ctx.tag }
}
"#;
    let (_dir, rs) = with_card("bandit", script);
    let text = "actions = [\"role producer\", \"choose seat2\", \"choose sugar_mill\"]\n\
                [[players]]\nbuildings = [\"bandit\"]\n[[players]]\nbuildings = [\"indigo_plant\"]\ngoods = [\"indigo_plant\"]\n\
                [[players]]\nbuildings = [\"indigo_plant\", \"sugar_mill\"]\ngoods = [\"indigo_plant\", \"sugar_mill\"]\n\
                [expect]\ngoods = [[], [\"indigo_plant\"], [\"indigo_plant\"]]\ndiscard_size = 1\n";
    play(rs.unwrap(), text).unwrap();
    // A tag that is neither a number nor a string is refused where it is written.
    let (_dir, rs) = with_card("bandit", "fn on_role(ctx) {\n    #{ choose: [\"a\"], tag: [1] }\n}\n");
    let text = "actions = [\"role producer\"]\n[[players]]\nbuildings = [\"bandit\"]\n[[players]]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert!(
        err.contains("bandit.rhai:2:5") && err.contains("`tag` is a array, expected a number or a string"),
        "{err}"
    );
}

#[test]
fn a_building_can_be_removed_from_another_city_with_what_it_holds() {
    // Warlord: when the owner chooses the builder, it may remove one building costing
    // 2 or less of the player on its left (the seat travels as the tag).
    let script = r#"
fn on_role(ctx) {
    if ctx.role != "builder" { return (); }
    let left = (ctx.seat + 1) % ctx.players;
    let cheap = [];
    for b in ctx.table.players[left].buildings {
        if b.card.cost <= 2 && !cheap.contains(b.card.id) { cheap.push(b.card.id); }
    }
    #{ choose_cards: 1, from: "buildings", of: left, only: cheap, optional: true, tag: left }
}
fn on_choice(ctx) {
    if ctx.chosen.len() == 0 { return (); }
    #{ remove_building: ctx.chosen[0].id, seat: ctx.tag }
}
"#;
    let (_dir, rs) = with_card("warlord", script);
    let rs = rs.unwrap();
    let position = "[[players]]\nbuildings = [\"warlord\"]\n[[players]]\nbuildings = [\"indigo_plant\", \"smithy\", \"tower\"]\n\
                    goods = [\"indigo_plant\"]\n";
    let offered = format!(
        "actions = [\"role builder\"]\n{position}[expect]\npending = \"choose_cards\"\n\
         legal = [\"choose indigo_plant\", \"choose smithy\", \"pass\"]\n"
    );
    play(Arc::clone(&rs), &offered).unwrap();
    // The indigo plant goes, with its good: 2 cards to the discard pile.
    let removed = format!(
        "actions = [\"role builder\", \"choose indigo_plant\"]\n{position}[expect]\n\
         buildings = [[\"warlord\"], [\"smithy\", \"tower\"]]\ngoods = [[], []]\ndiscard_size = 2\n"
    );
    play(rs, &removed).unwrap();
}

#[test]
fn removing_a_building_moves_along_the_work_queued_by_the_buildings_after_it() {
    // Seat 0's razer removes seat 0's own smithy (before it in the city) while its
    // drawer's draw is still queued: the draw still happens, from the drawer.
    let dir = tempfile::tempdir().unwrap();
    let card = |id: &str| {
        format!(
            "[[card]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\nscript = \"{id}.rhai\"\n"
        )
    };
    fs::write(dir.path().join("extra.toml"), format!("script_dir = \".\"\n{}{}", card("razer"), card("drawer")))
        .unwrap();
    fs::write(dir.path().join("razer.rhai"), "fn on_role(ctx) { #{ remove_building: \"smithy\" } }\n").unwrap();
    fs::write(dir.path().join("drawer.rhai"), "fn on_role(ctx) { #{ draw: 1 } }\n").unwrap();
    let rules = "id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\nextra_sets = [\"extra.toml\"]\n";
    fs::write(dir.path().join("house.toml"), rules).unwrap();
    let rs = Ruleset::load(dir.path().join("house.toml").to_str().unwrap()).unwrap();
    let text = "deck = [\"well\"]\nactions = [\"role builder\"]\n[[players]]\nbuildings = [\"smithy\", \"razer\", \"drawer\"]\n\
                [[players]]\n[expect]\nbuildings = [[\"razer\", \"drawer\"], []]\nhands = [[\"well\"], []]\ndiscard_size = 1\n";
    play(rs, text).unwrap();
}

#[test]
fn counters_of_any_building_and_any_player_can_be_changed() {
    // Patron: whenever another player builds, +2 on the building they built and +1 to
    // their counter `favours`; the events name that building and that player.
    let script = "fn on_other_build(ctx) {\n    [#{ counter: 2, on: \"target\" }, #{ player_counter: \"favours\", seat: ctx.actor }]\n}\n\
                  fn on_any_counter_changed(ctx) {\n    if ctx.event.actor == 1 && ctx.event.counter == \"favours\" { 1 } else { 0 }\n}\n";
    let (_dir, rs) = with_card("patron", script);
    let text = "deck = [\"well\", \"tower\"]\ngovernor = 1\nactions = [\"role builder\", \"build smithy\"]\n\
                [[players]]\nbuildings = [\"patron\"]\n[[players]]\nhand = [\"smithy\", \"indigo_plant\"]\n\
                [expect]\nbuildings = [[\"patron\"], [\"smithy\"]]\ncounters = [{}, { smithy = 2 }]\n\
                player_counters = [{}, { favours = 1 }]\nhands = [[\"well\"], [\"indigo_plant\"]]\n";
    play(rs.unwrap(), text).unwrap();
    // A seat without a building is refused, saying what to add.
    let (_dir, rs) = with_card("patron", "fn on_role(ctx) { #{ counter: 1, seat: 1 } }\n");
    let err = play(rs.unwrap(), "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"patron\"]\n[[players]]\n")
        .unwrap_err();
    assert!(err.contains("give the building too, `on: \"id\"`"), "{err}");
}

#[test]
fn a_build_option_that_reads_the_table_is_asked_every_turn_not_remembered() {
    // A market whose goods may pay only while its owner has 2 or more: the
    // grant of a hook that reads only `ctx.card` is parsed once per ruleset,
    // this one must be asked again in each builder turn.
    let script = "fn on_build_options(ctx) { #{ goods_as_cards: if ctx.goods >= 2 { 2 } else { 0 } } }\n";
    let (_dir, rs) = with_card("bazaar", script);
    let rs = rs.unwrap();
    let turn = |goods: &str, expect: &str| {
        format!(
            "actions = [\"role builder\"]\n[[players]]\n\
             buildings = [\"indigo_plant\", \"sugar_mill\", \"bazaar\"]\ngoods = [{goods}]\nhand = [\"well\"]\n\
             [[players]]\n[expect]\n{expect}\n"
        )
    };
    // A well (2, 1 for the Builder) with no other card in hand: only goods can pay for it.
    let two = turn("\"indigo_plant\", \"sugar_mill\"", "legal_includes = [\"build well\"]");
    play(Arc::clone(&rs), &two).unwrap();
    let one = turn("\"indigo_plant\"", "legal_excludes = [\"build well\"]");
    play(Arc::clone(&rs), &one).unwrap();
    play(rs, &two).unwrap();
}

#[test]
fn a_hook_sees_the_cities_and_hand_sizes_however_it_reads_them() {
    // The cities and hand sizes are put in `ctx` only for hooks that may read
    // them: read directly, through a helper that is handed `ctx`, or by a closure.
    let scripts = [
        "fn on_role(ctx) { #{ draw: ctx.buildings.len() + ctx.hand_sizes[1] } }\n",
        "fn count(c) { c.buildings.len() + c.hand_sizes[1] }\nfn on_role(ctx) { #{ draw: count(ctx) } }\n",
        "fn on_role(ctx) { let f = || ctx.building_counts()[0] + ctx.hand_sizes[1]; #{ draw: f.call() } }\n",
        "fn on_role(ctx) { #{ draw: ctx.others[0].len() + ctx.count_kind(\"production\") + ctx.count_types(\"city\") } }\n",
    ];
    for script in scripts {
        let (_dir, rs) = with_card("surveyor", script);
        // 2 buildings in the chooser's city, 2 cards in the other hand (or: 2 in the other
        // city, 1 production building, 1 kind of city building): 4 cards drawn.
        let text = "deck = [\"aqueduct\", \"archive\", \"well\", \"well\", \"well\", \"market_stand\"]\nactions = [\"role builder\"]\n\
                    [[players]]\nbuildings = [\"surveyor\", \"indigo_plant\"]\n\
                    [[players]]\nbuildings = [\"smithy\", \"quarry\"]\nhand = [\"tower\", \"chapel\"]\n\
                    [expect]\ndeck_top = [\"well\", \"market_stand\"]\nhands = [[\"aqueduct\", \"archive\", \"well\", \"well\"], [\"tower\", \"chapel\"]]\n";
        play(rs.unwrap(), text).unwrap_or_else(|e| panic!("{script}: {e}"));
    }
}

/// A per-seat map that does not match reads as written, not as escaped JSON.
#[test]
fn a_counters_mismatch_reads_as_the_maps_themselves() {
    let (_dir, rs) = with_card("tally", "fn on_role(ctx) { #{ counter: 2 } }\n");
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"tally\"]\n[[players]]\n\
                [expect]\ncounters = [{ tally = 9 }, {}]\n";
    let err = play(rs.unwrap(), text).unwrap_err();
    assert_eq!(err, r#"counters: expected [{"tally": 9}, {}], got [{"tally": 2}, {}]"#);
}

/// "Did you mean" goes by meaning: a misspelt effect gets its spelling, but
/// another verb on the same thing (`move_good`, where `remove_good` would
/// discard the good) gets the effects on that thing, not the opposite one.
#[test]
fn did_you_mean_does_not_offer_the_opposite_effect() {
    let (_dir, rs) = with_card("porter", "fn on_role(ctx) { #{ move_good: 1 } }\n");
    let err = rs.unwrap_err();
    assert!(err.contains("`move_good` is not an effect"), "{err}");
    assert!(err.contains("did you mean `move: \"good\"`?"), "{err}");
    assert!(!err.contains("did you mean `remove_good`"), "{err}");
    let (_dir, rs) = with_card("porter", "fn on_role(ctx) { #{ discard_good: 1 } }\n");
    let err = rs.unwrap_err();
    assert!(!err.contains("`discard: \"good\"`"), "discard takes no \"good\": {err}");
    let (_dir, rs) = with_card("porter", "fn on_role(ctx) { #{ remove_goods: 1 } }\n");
    let err = rs.unwrap_err();
    assert!(err.contains("did you mean `remove_good`?"), "{err}");
}

/// A bad map in a list written over several lines is reported at its own key,
/// not at the list's first line (the optimizer folds the list into one value).
#[test]
fn each_bad_map_of_a_multi_line_list_is_reported_at_its_own_line() {
    let script =
        "fn on_role(ctx) {\n  [\n    #{ draw: 1 },\n    #{ draw: 1, sed: 2 },\n    #{ draw: 1, fro: 1 },\n  ]\n}\n";
    let (_dir, rs) = with_card("lister", script);
    let err = rs.unwrap_err();
    assert!(err.contains("`sed` is not an effect") && err.contains("lister.rhai:4:17"), "{err}");
    assert!(err.contains("`fro` is not an effect") && err.contains("lister.rhai:5:17"), "{err}");
}
