//! The scenario format refuses what it would silently ignore. (Every scenario
//! in `snapshots/alhambra/` runs, with its `[expect]` and snapshot, in the
//! snapshot harness, `snapshots/tests/scenarios.rs`.)

use std::path::PathBuf;

use alhambra::files::Source;
use alhambra::scenario::Scenario;

fn setup_error(text: &str) -> String {
    let s = Scenario::parse(Source::Disk(PathBuf::from("inline.toml")), text.to_owned()).unwrap();
    let rs = s.ruleset().unwrap();
    s.setup(rs).map(|_| ()).expect_err("the setup should be refused").to_string()
}

#[test]
fn a_position_beside_deal_is_refused_where_it_is_written() {
    let err = setup_error("deal = [\"denar5\"]\nto_move = 1\n[[players]]\n[[players]]\n[[players]]\n");
    assert!(err.contains("`to_move` has no effect with `deal`") && err.contains("inline.toml:2:"), "{err}");
    let err = setup_error("deal = [\"denar5\"]\n[[players]]\nhand = [\"denar2\"]\n[[players]]\n[[players]]\n");
    assert!(err.contains("a player's cards have no effect with `deal`"), "{err}");
}

#[test]
fn a_start_player_past_the_seats_is_refused() {
    let err = setup_error("start_player = 9\n[[players]]\n[[players]]\n[[players]]\n");
    assert!(err.contains("seat 9 is not a seat (seats 0 to 2)") && err.contains("inline.toml:1:16"), "{err}");
}

/// A misspelt key would leave its position unplaced or its check unread:
/// refused where written, at the top, in a seat's table and in `[expect]`
/// (its shared keys and Alhambra's own), with the key meant.
#[test]
fn an_unknown_scenario_key_is_refused_where_written_with_the_key_meant() {
    let seats = "[[players]]\n[[players]]\n[[players]]\n";
    for (text, at, key, meant) in [
        (format!("to_mov = 1\n{seats}"), "inline.toml:1:1", "to_mov", "to_move"),
        ("[[players]]\nscor = 3\n[[players]]\n[[players]]\n".to_owned(), "inline.toml:2:1", "scor", "score"),
        (format!("{seats}[expect]\npending_sea = 0\n"), "inline.toml:5:1", "pending_sea", "pending_seat"),
        (
            format!("{seats}[expect]\nover = false\nneutral_scor = 4\n"),
            "inline.toml:6:1",
            "neutral_scor",
            "neutral_score",
        ),
    ] {
        let err = Scenario::parse(Source::Disk(PathBuf::from("inline.toml")), text).unwrap_err().to_string();
        assert!(err.contains(at) && err.contains(&format!("unknown field `{key}`")), "{err}");
        assert!(err.contains(&format!("did you mean `{meant}`?")) && err.contains("docs/alhambra.md"), "{err}");
    }
}

/// Issue 21's corpus: each design's hand-worked scenario
/// (`snapshots/alhambra/corpus_*.toml`) passes its `[expect]`.
#[test]
fn the_corpus_scenarios_pass_their_checks() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots/alhambra"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("corpus_")))
        .collect();
    files.sort();
    assert_eq!(files.len(), 13, "one scenario per design: {files:?}");
    let mut fails = Vec::new();
    for path in files {
        let scenario = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let run = scenario.run().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for f in scenario.check(&run) {
            fails.push(format!("{}: {f}", path.display()));
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn the_display_shows_the_price_after_a_scripted_discount() {
    // The garden guild's scenario: seat 0 owns two gardens, each making a garden 1 cheaper for it.
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../snapshots/alhambra/corpus_garden_guild_discount.toml"
    ));
    let scenario = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let game = scenario.setup(scenario.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let prices: Vec<Option<u8>> = game.view(None).building_display.iter().map(|s| s.price).collect();
    // garden10 costs seat 0 (to move) 8; the other types keep their printed prices.
    assert_eq!(prices, [Some(2), Some(3), Some(8), Some(7)]);
}

fn corpus_scenario(name: &str) -> Scenario {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots/alhambra/")).join(name);
    Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The pickpocket's `take_money`: the card moved is named in the log to the
/// two seats whose hands they are; seat 2 reads only how many, and neither its
/// log nor its JSON view names the card.
#[test]
fn money_taken_from_a_hand_is_named_only_to_the_two_seats() {
    use engine_game::Game as _;
    let scenario = corpus_scenario("corpus_pickpocket_takes_a_card.toml");
    let mut game = scenario.setup(scenario.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    game.log_events(true);
    let events = game.apply_text("buy 1 pay denar2").unwrap();
    let lines =
        |seat: usize| -> Vec<String> { game.log_lines(&events, Some(seat)).into_iter().map(|l| l.text).collect() };
    // Each line names the card behind it first, as the README promises.
    let named = "seraglio4: seat 0 takes 1 card from seat 1's hand: ducat4";
    let public = "seraglio4: seat 0 takes 1 card from seat 1's hand";
    for seat in [0, 1] {
        assert!(lines(seat).iter().any(|l| l == named), "seat {seat}: {:?}", lines(seat));
    }
    let other = lines(2);
    assert!(other.iter().any(|l| l == public), "{other:?}");
    assert!(!other.iter().any(|l| l.contains("ducat4")), "{other:?}");
    // The observer's log (no seat) names the card.
    let all: Vec<String> = game.log_lines(&events, None).into_iter().map(|l| l.text).collect();
    assert!(all.iter().any(|l| l == named), "{all:?}");
    let view = |seat: usize| game.view_json(Some(seat)).unwrap().to_string();
    assert!(view(0).contains("ducat4"), "{}", view(0));
    assert!(!view(1).contains("ducat4") && !view(2).contains("ducat4"), "{}", view(2));
    let seat0 = &game.view_json(Some(2)).unwrap()["players"][0];
    assert_eq!(seat0["hand_size"], 1, "{seat0}");
    // Money is conserved: 3 cards in hands before; after, 2 in hands and denar2 on the discard pile.
    let hands: Vec<usize> = (0..3).map(|s| game.player(s).hand().len()).collect();
    assert_eq!((hands, game.discard().len()), (vec![1, 0, 1], 1));
}

/// `take_money` with `to`: the owner gives; more cards than the hand holds moves the whole hand.
#[test]
fn take_money_gives_to_another_seat_and_stops_at_an_empty_hand() {
    let root = tempfile::tempdir().unwrap();
    let cards = root.path().join("give.toml");
    std::fs::write(
        &cards,
        "id = \"give\"\ngame = \"alhambra\"\nname = \"Give\"\nextends = \"alhambra\"\n\
         [[building]]\nid = \"seraglio\"\nscript = \"give.rhai\"\n",
    )
    .unwrap();
    std::fs::write(
        root.path().join("give.rhai"),
        "fn on_bought(ctx) { if ctx.card.nth == 0 { #{ take_money: 5, from: ctx.seat, to: 2 } } }\n",
    )
    .unwrap();
    let text = format!(
        "ruleset = {:?}\nbuilding_display = [\"pavilion2\", \"arcades5\", \"arcades4\", \"chambers5\"]\n\
         money_display = [\"denar9\", \"dirham9\", \"ducat9\", \"florin9\"]\n\
         [[players]]\nhand = [\"denar2\", \"florin3\", \"florin4\"]\nbuildings = [\"seraglio4\", \"seraglio5\"]\n\
         [[players]]\nhand = [\"ducat4\"]\n[[players]]\nhand = [\"dirham1\"]\n",
        cards.to_str().unwrap()
    );
    let s = Scenario::parse(Source::Disk(root.path().join("s.toml")), text).unwrap();
    let mut game = s.setup(s.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    game.apply_text("buy 1 pay denar2").unwrap();
    let rs = s.ruleset().unwrap();
    let hand = |seat: usize| {
        let mut ids: Vec<String> = game.player(seat).hand().iter().map(|&m| rs.money_id(m)).collect();
        ids.sort();
        ids
    };
    assert_eq!(hand(0), Vec::<String>::new());
    assert_eq!(hand(1), ["ducat4"]);
    assert_eq!(hand(2), ["dirham1", "florin3", "florin4"]);
}

/// `ctx.player_counter("name")` reads a named counter (0 if never set), and a
/// scenario's `player_counters` sets it.
#[test]
fn player_counter_reads_a_named_counter_or_zero() {
    let root = tempfile::tempdir().unwrap();
    let cards = root.path().join("c.toml");
    std::fs::write(
        &cards,
        "id = \"c\"\ngame = \"alhambra\"\nname = \"C\"\nextends = \"alhambra\"\n\
         [[building]]\nid = \"tower\"\nscript = \"c.rhai\"\n",
    )
    .unwrap();
    std::fs::write(
        root.path().join("c.rhai"),
        "fn on_bought(ctx) { #{ score: ctx.player_counter(\"bought\") * 10 + ctx.player_counter(\"never\") + ctx.counter } }\n",
    )
    .unwrap();
    let text = format!(
        "ruleset = {:?}\nbuilding_display = [\"pavilion2\", \"arcades5\", \"arcades4\", \"chambers5\"]\n\
         money_display = [\"denar9\", \"dirham9\", \"ducat9\", \"florin9\"]\n\
         [[players]]\nhand = [\"denar2\"]\nbuildings = [\"tower7\"]\ncounters = {{ tower = 3 }}\nplayer_counters = {{ bought = 4 }}\n\
         [[players]]\n[[players]]\n",
        cards.to_str().unwrap()
    );
    let s = Scenario::parse(Source::Disk(root.path().join("s.toml")), text).unwrap();
    let mut game = s.setup(s.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    game.apply_text("buy 1 pay denar2").unwrap();
    let scores: Vec<i32> = game.scores().iter().map(|s| s.total).collect();
    assert_eq!(scores, [43, 0, 0]);
}

/// `draw_money`: the drawer reads the cards drawn, the other seats how many.
#[test]
fn money_drawn_by_a_script_is_named_only_to_the_drawer() {
    use engine_game::Game as _;
    let scenario = corpus_scenario("corpus_caravanserai_draws.toml");
    let mut game = scenario.setup(scenario.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    game.log_events(true);
    let events = game.apply_text("buy 1 pay denar2").unwrap();
    let lines =
        |seat: usize| -> Vec<String> { game.log_lines(&events, Some(seat)).into_iter().map(|l| l.text).collect() };
    assert!(
        lines(0).iter().any(|l| l == "caravanserai5: seat 0 draws 1 card from the money deck (ducat5)"),
        "{:?}",
        lines(0)
    );
    for seat in [1, 2] {
        assert!(
            lines(seat).iter().any(|l| l == "caravanserai5: seat 0 draws 1 card from the money deck"),
            "{:?}",
            lines(seat)
        );
        assert!(!lines(seat).iter().any(|l| l.contains("ducat5")), "{:?}", lines(seat));
    }
}

/// A type's id in a seat's buildings takes the cheapest card of the type that
/// the file does not name elsewhere: the display's explicit `pavilion2` is
/// placed, whichever list comes first in the file.
#[test]
fn a_type_id_leaves_the_buildings_named_elsewhere() {
    let text =
        "building_display = [\"pavilion2\"]\n[[players]]\nbuildings = [\"pavilion\"]\n[[players]]\n[[players]]\n";
    let s = Scenario::parse(Source::Disk(PathBuf::from("inline.toml")), text.to_owned()).unwrap();
    let rs = s.ruleset().unwrap();
    let game = s.setup(rs.clone()).expect("the position can be placed");
    let display = game.building_display()[0].map(|b| rs.building(b).id.clone());
    assert_eq!(display.as_deref(), Some("pavilion2"));
    let seat = game.player(0).buildings.iter().map(|&b| rs.building(b).price).collect::<Vec<_>>();
    assert_eq!(seat, [3], "the seat has the next cheapest pavilion (prices 2, 3, 4…)");
}

/// The `score` effect's points are `bonus` in the breakdown, and `[expect]
/// breakdown` checks that source like any other.
#[test]
fn expect_breakdown_checks_the_score_effects_bonus() {
    let root = tempfile::tempdir().unwrap();
    let rules = root.path().join("r.toml");
    std::fs::write(
        &rules,
        "id = \"r\"\ngame = \"alhambra\"\nname = \"R\"\nextends = \"alhambra\"\n\
         [[building]]\nid = \"pavilion\"\nscript = \"r.rhai\"\n",
    )
    .unwrap();
    std::fs::write(root.path().join("r.rhai"), "fn on_bought(ctx) { #{ score: 3 } }\n").unwrap();
    for (bonus, fails) in [(3, 0), (4, 1)] {
        let text = format!(
            "ruleset = {:?}\nbuilding_display = [\"pavilion2\"]\nactions = [\"buy 1 pay denar2\"]\n\
             [[players]]\nhand = [\"denar2\"]\n[[players]]\n[[players]]\n\
             [expect]\nbreakdown = [{{ bonus = {bonus} }}, {{}}, {{}}]\n",
            rules.to_str().unwrap()
        );
        let s = Scenario::parse(Source::Disk(root.path().join("s.toml")), text).unwrap();
        let run = s.play(s.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
        let got = s.check(&run);
        assert_eq!(got.len(), fails, "bonus = {bonus}: {got:?}");
        if fails == 1 {
            assert_eq!(got[0], "seat 0 breakdown `bonus`: expected 4, got 3");
        }
    }
}

/// Slots count from 1 in scripts as in the notation: `buy 4` is `slot == 4`
/// for `ctx.target` (a price hook), `ctx.event` (a buy) and the table.
#[test]
fn scripts_count_slots_from_one_as_the_notation_does() {
    let root = tempfile::tempdir().unwrap();
    let rules = root.path().join("r.toml");
    std::fs::write(
        &rules,
        "id = \"r\"\ngame = \"alhambra\"\nname = \"R\"\nextends = \"alhambra\"\n\
         [[building]]\nid = \"tower\"\nscript = \"r.rhai\"\n",
    )
    .unwrap();
    let script = "fn on_price(ctx) { if ctx.target.slot == 4 { 2 } else { 0 } }\n\
                  fn on_bought(ctx) {\n\
                  \x20   let shown = ctx.table.building_display.filter(|b| b != ()).map(|b| b.slot);\n\
                  \x20   #{ score: ctx.event.slot * 10 + shown[0] * 5 + shown.len() }\n}\n";
    std::fs::write(root.path().join("r.rhai"), script).unwrap();
    let text = format!(
        "ruleset = {:?}\nbuilding_display = [\"pavilion2\", \"arcades5\", \"arcades4\", \"tower9\"]\n\
         actions = [\"buy 4 pay florin7\"]\n\
         [[players]]\nhand = [\"florin7\"]\nbuildings = [\"tower7\"]\n[[players]]\n[[players]]\n",
        rules.to_str().unwrap()
    );
    let s = Scenario::parse(Source::Disk(root.path().join("s.toml")), text).unwrap();
    let run = s.play(s.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    // tower9 less 2 in slot 4 is paid by florin7 exactly; the event's slot is 4,
    // and the table still shows slots 1 to 3 (the bought one's slot is empty).
    let scores: Vec<i32> = run.game.scores().iter().map(|s| s.total).collect();
    // Both towers (the owned tower7, whose script makes the discount, and the
    // new tower9) hear the buy; counted from 0, each would score 30 + 0 + 3.
    assert_eq!(scores, [2 * (40 + 5 + 3), 0, 0]);
}

/// A building's history goes with it: seat 1's pavilion, bought exactly in
/// turn 1 (the scenario says so), is taken by seat 0's warlord (a choice among
/// another seat's buildings, then a move) and keeps both its turn and `exact`;
/// the warlord itself, bought with an exact payment now, says so too.
#[test]
fn a_building_moved_to_another_collector_keeps_its_history() {
    let text = std::fs::read_to_string(
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots/alhambra/"))
            .join("choices_warlord_takes_a_pavilion.toml"),
    )
    .unwrap()
    .replace(
        "buildings = [\"pavilion3\", \"tower8\"]",
        "buildings = [{ id = \"pavilion3\", exact = true, bought = 1 }, \"tower8\"]",
    )
    .replace("turn = ", "# turn = ");
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots/alhambra/history_probe.toml"));
    let scenario = Scenario::parse(Source::Disk(path), text).unwrap();
    let mut game = scenario.setup(scenario.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    game.apply_text("buy 2 pay dirham6").unwrap();
    assert_eq!(game.pending().map(|d| d.name()), Some("choose"));
    assert_eq!(game.asked_by().as_deref(), Some("warlord6"), "the JSON state's pending.by names the asking card");
    game.apply_text("choose pavilion3").unwrap();
    let p = game.player(0);
    let ids: Vec<&str> = p.buildings.iter().map(|&b| engine_game::Game::rules(&game).building(b).id.as_str()).collect();
    assert_eq!(ids, ["warlord6", "pavilion3"]);
    let exact: Vec<bool> = p.history.iter().map(|h| h.exact).collect();
    assert_eq!(exact, [true, true], "the warlord paid exactly now; the pavilion was bought exactly before");
    assert_eq!(p.history.iter().map(|h| h.turn).collect::<Vec<_>>(), [1, 1]);
    assert!(!game.player(1).history[0].exact, "the tower has no history");
}

/// The incinerator's burnt card leaves a hand: seat 0 reads which, the others
/// only that one card went out of the game; no card is lost or doubled.
#[test]
fn a_card_moved_out_of_a_hand_is_named_only_to_its_seat() {
    use engine_game::Game as _;
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/alhambra/incinerator/scenarios/burn_a_one.toml"
    ));
    let scenario = Scenario::load(&path).unwrap();
    let mut game = scenario.setup(scenario.ruleset().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let expected = game.census_expected();
    game.log_events(true);
    game.apply_text("buy 1 pay denar6").unwrap();
    let events = game.apply_text("choose denar1").unwrap();
    let lines =
        |seat: usize| -> Vec<String> { game.log_lines(&events, Some(seat)).into_iter().map(|l| l.text).collect() };
    let named = "incinerator6: denar1 moves from seat 0's hand to out of the game";
    assert!(lines(0).iter().any(|l| l == named), "{:?}", lines(0));
    assert!(lines(1).iter().any(|l| l.contains("1 card moves from seat 0's hand")), "{:?}", lines(1));
    assert!(!lines(1).iter().any(|l| l.contains("denar1")), "{:?}", lines(1));
    assert_eq!(game.census(), expected, "the burnt card is counted out of the game");
}
