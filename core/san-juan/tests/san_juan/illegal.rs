//! An illegal action says why, in the words a player would use.

use crate::common::{refused, setup};

use san_juan::Action;

const TWO_SEATS: &str = "[[players]]\nbuildings = [\"indigo_plant\"]\n[[players]]\nbuildings = [\"indigo_plant\"]\n";

#[test]
fn building_a_card_not_in_hand() {
    let mut game = setup(
        "actions = []\n[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"well\", \"statue\"]\n[[players]]\n",
    );
    game.apply_text("role builder").unwrap();
    let err = refused(&mut game, "build library");
    assert!(err.contains("illegal action `build library`: seat 0 has no library in hand"), "{err}");
    assert!(err.contains("legal now: build well, pass"), "{err}");
}

#[test]
fn a_second_copy_of_a_city_building() {
    let mut game = setup(
        "[[players]]\nbuildings = [\"indigo_plant\", \"smithy\"]\nhand = [\"smithy\", \"well\", \"statue\"]\n[[players]]\n",
    );
    game.apply_text("role builder").unwrap();
    let err = refused(&mut game, "build smithy");
    assert!(err.contains("seat 0 already has a smithy; a city building may be built only once"), "{err}");
    let mut game = setup(
        "[[players]]\nbuildings = [\"aqueduct\"]\nhand = [\"aqueduct\", \"well\", \"statue\", \"hero\"]\n[[players]]\n",
    );
    game.apply_text("role builder").unwrap();
    let err = refused(&mut game, "build aqueduct");
    assert!(err.contains("seat 0 already has an aqueduct"), "{err}");
}

#[test]
fn building_over_another_building() {
    let hand = "hand = [\"palace\", \"well\", \"statue\", \"hero\"]";
    let mut game = setup(&format!("[[players]]\nbuildings = [\"chapel\"]\n{hand}\n[[players]]\n"));
    game.apply_text("role builder").unwrap();
    let err = refused(&mut game, "build palace over chapel");
    assert!(err.contains("none of seat 0's buildings lets it build over another"), "{err}");
    let mut game = setup(&format!("[[players]]\nbuildings = [\"chapel\", \"crane\"]\n{hand}\n[[players]]\n"));
    game.apply_text("role builder").unwrap();
    let err = refused(&mut game, "build palace over crane");
    assert!(err.contains("crane cannot be built over"), "{err}");
    // The crane's own exception keeps it off the legal list, not only out of the reasons.
    let legal = err.split("legal now:").nth(1).unwrap_or_default();
    assert!(legal.contains("build palace over chapel") && !legal.contains("over crane"), "{err}");
    let err = refused(&mut game, "build palace over tower");
    assert!(err.contains("seat 0 has no tower to build over"), "{err}");
    game.apply_text("build palace over chapel pay well statue").unwrap();
}

#[test]
fn a_card_that_costs_more_than_the_seat_can_pay() {
    let mut game =
        setup("[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"library\", \"well\", \"statue\"]\n[[players]]\n");
    game.apply_text("role builder").unwrap();
    let err = refused(&mut game, "build library");
    assert!(err.contains("library costs 4 after discounts; seat 0 has 2 other cards"), "{err}");
    // Without a discount there is nothing to say "after".
    let mut game = setup(
        "governor = 1\n[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"library\", \"well\", \"statue\"]\n\
         [[players]]\nhand = [\"smithy\"]\n",
    );
    game.apply_text("role builder").unwrap();
    game.apply_text("pass").unwrap();
    let err = refused(&mut game, "build library");
    assert!(err.contains("library costs 5; seat 0 has 2 other cards"), "{err}");
}

#[test]
fn selling_beyond_the_allowance() {
    // Seat 1 is the trader; seat 0 sells one good.
    let mut game = setup(
        "governor = 1\ntrading_tiles = [[1, 1, 2, 2, 3]]\n[[players]]\nbuildings = [\"indigo_plant\", \"sugar_mill\"]\n\
         goods = [\"indigo_plant\", \"sugar_mill\"]\n[[players]]\nbuildings = [\"indigo_plant\"]\n",
    );
    game.apply_text("role trader").unwrap();
    let hand = game.player(0).hand.len();
    let err = refused(&mut game, "sell indigo_plant sugar_mill");
    assert!(err.contains("illegal action `sell sugar_mill`: seat 0 may sell only 1 good"), "{err}");
    assert!(err.contains("now seat 0 must choose a role"), "{err}");
    assert_eq!(game.player(0).hand.len(), hand + 1, "the first sale stands");
}

#[test]
fn producing_beyond_the_allowance_and_on_a_full_building() {
    let text = "governor = 1\n[[players]]\nbuildings = [\"indigo_plant\", \"sugar_mill\", \"tobacco_storage\"]\n\
                goods = [\"indigo_plant\"]\n[[players]]\nbuildings = [\"indigo_plant\"]\ngoods = [\"indigo_plant\"]\n";
    let mut game = setup(text);
    game.apply_text("role producer").unwrap();
    let err = refused(&mut game, "produce indigo_plant");
    assert!(err.contains("seat 0's indigo_plant already has a good; a building holds one good at most"), "{err}");
    let err = refused(&mut game, "produce sugar_mill tobacco_storage");
    assert!(err.contains("seat 0 may produce only 1 good"), "{err}");
}

#[test]
fn the_wrong_kind_of_decision() {
    let mut game = setup(&format!("governor = 1\n{TWO_SEATS}"));
    let err = refused(&mut game, "build well");
    assert!(err.contains("seat 1 must choose a role, not build"), "{err}");
    let err = refused(&mut game, "pass");
    assert!(err.contains("seat 1 must choose a role, not pass"), "{err}");
}

#[test]
fn a_role_already_chosen() {
    let mut game = setup(&format!("governor = 1\n{TWO_SEATS}"));
    game.apply_text("role prospector").unwrap();
    let err = refused(&mut game, "role prospector");
    assert!(err.contains("the prospector was already chosen this round"), "{err}");
}

#[test]
fn why_illegal_is_none_for_a_legal_action() {
    let game = setup(TWO_SEATS);
    let first = game.legal_actions()[0];
    assert_eq!(game.why_illegal(first), None);
    assert!(game.why_illegal(Action::Pass).is_some());
}

const GALLERY: &str = "ruleset = \"../../cards/san-juan/rulesets/examples/gallery.toml\"\n";

/// `setup` reads scenarios as if in the crate's folder; the gallery path is relative to the snapshots folder.
fn gallery(text: &str) -> san_juan::Game {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots/san-juan/test.toml");
    let scenario =
        san_juan::scenario::Scenario::parse(san_juan::files::Source::Disk(path.into()), format!("{GALLERY}{text}"))
            .unwrap();
    let rs = scenario.ruleset().unwrap();
    scenario.setup(rs).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_choice_accepts_only_its_options() {
    let mut game =
        gallery("[[players]]\nbuildings = [\"bazaar\", \"indigo_plant\"]\ngoods = [\"indigo_plant\"]\n[[players]]\n");
    game.apply_text("role trader").unwrap();
    let err = refused(&mut game, "choose maybe");
    assert!(err.contains("`maybe` is neither an option offered nor a card"), "{err}");
    let err = refused(&mut game, "sell indigo_plant");
    assert!(err.contains("seat 0 must answer its bazaar: `choose sell` or `choose draw`, not sell"), "{err}");
    assert!(err.contains("legal now: choose sell, choose draw"), "{err}");
}

#[test]
fn cards_looked_at_are_the_only_ones_to_discard() {
    let mut game = gallery(
        "deck = [\"palace\", \"well\", \"tower\"]\n[[players]]\nhand = [\"chapel\"]\n[[players]]\nbuildings = [\"scriptorium\"]\nhand = [\"hero\"]\n",
    );
    game.apply_text("role prospector").unwrap();
    let err = refused(&mut game, "discard hero");
    assert!(err.contains("hero is not among the cards seat 1 looks at"), "{err}");
    // What seat 1 looks at is hidden from seat 0's view.
    let view = game.view(Some(0)).unwrap();
    assert_eq!(view.pending.as_ref().unwrap().offered, None);
    assert!(view.pending.as_ref().unwrap().legal.is_empty(), "the answers would name the cards");
    assert_eq!(game.view(Some(1)).unwrap().pending.unwrap().offered.unwrap(), ["palace", "well", "tower"]);
}

/// A house crane whose `overbuild_except` names itself, the chapel and an id
/// that is no card: both buildings stay off the legal list and out of the
/// reasons, and the unknown id excludes nothing.
#[test]
fn a_house_cranes_exceptions_name_cards_and_ignore_other_ids() {
    let dir = tempfile::tempdir().unwrap();
    let script = "fn on_build_options(ctx) { #{ overbuild: true, overbuild_except: [ctx.card.id, \"chapel\", \"no_such_card\"] } }\n";
    std::fs::write(dir.path().join("derrick.rhai"), script).unwrap();
    std::fs::write(
        dir.path().join("derrick-cards.toml"),
        "script_dir = \".\"\n[[card]]\nid = \"derrick\"\nname = \"Derrick\"\nkind = \"city\"\ncost = 2\nvp = 1\ncopies = 2\nscript = \"derrick.rhai\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("house.toml"),
        "id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\nextra_sets = [\"derrick-cards.toml\"]\n",
    )
    .unwrap();
    let text = "ruleset = \"house.toml\"\n[[players]]\nbuildings = [\"chapel\", \"derrick\", \"tower\"]\n\
                hand = [\"palace\", \"well\", \"statue\", \"hero\", \"market_hall\"]\n[[players]]\n";
    let path = dir.path().join("test.toml");
    let scenario = san_juan::scenario::Scenario::parse(san_juan::files::Source::Disk(path), text.into()).unwrap();
    let rs = scenario.ruleset().unwrap_or_else(|e| panic!("{e}"));
    let mut game = scenario.setup(rs).unwrap_or_else(|e| panic!("{e}"));
    game.apply_text("role builder").unwrap();
    for (over, why) in [("derrick", "derrick cannot be built over"), ("chapel", "chapel cannot be built over")] {
        let err = refused(&mut game, &format!("build palace over {over}"));
        assert!(err.contains(why), "{err}");
        let legal = err.split("legal now:").nth(1).unwrap_or_default();
        assert!(legal.contains("build well over tower") && !legal.contains(&format!("over {over}")), "{err}");
    }
}

/// A payment made for the player (every hand card had to go) may still be
/// written out, each card once: the line reads as the player meant it, and
/// leaves the game where the short line does.
#[test]
fn a_forced_payment_may_be_written_out_once() {
    let text = "[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"tobacco_storage\", \"well\", \"statue\"]\n\
                [[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"well\"]\n";
    let mut written = setup(text);
    written.apply_text("role builder").unwrap();
    written.apply_text("build tobacco_storage pay well statue").unwrap();
    let mut short = setup(text);
    short.apply_text("role builder").unwrap();
    short.apply_text("build tobacco_storage").unwrap();
    for game in [&written, &short] {
        assert!(game.player(0).hand.is_empty(), "both cards paid");
        assert_eq!(game.player(0).city.len(), 2, "tobacco storage built");
    }
    assert_eq!(written.legal_actions(), short.legal_actions(), "the same decision next");
    // The cards paid for the player are used up: another `pay well` answers seat 1's decision.
    let err = refused(&mut written, "pay well");
    assert!(err.contains("pay well"), "{err}");
}
