//! Payment rules set by scripts (`on_payment`, `on_card_value`): the corpus's
//! mint and surveyors' lodge and the payment lab, through whole games between
//! every kind of bot, saved and read back, and the numbers a person meets.

use engine_game::Game as _;
use san_juan::{Game, Ruleset};

use crate::common::{refused, setup};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn ruleset(path: &str) -> String {
    format!("{ROOT}/{path}")
}

/// Random games keep every card in one place with each payment rule in play:
/// the mint (a card's rule for itself), the lodge (card values), the lab (rules
/// of buildings in play on other builds, refusals).
#[test]
fn random_games_keep_every_invariant_under_payment_rules() {
    for path in [
        "corpus/san-juan/mint/ruleset.toml",
        "corpus/san-juan/surveyors_lodge/ruleset.toml",
        "snapshots/san-juan/rules/payment.toml",
    ] {
        let rs = Ruleset::load(&ruleset(path)).unwrap();
        for players in 2..=4 {
            for seed in 0..150 {
                san_juan::sim::check_random_game(&rs, players, seed).unwrap_or_else(|e| panic!("{path}: {e}"));
            }
        }
    }
}

/// Greedy, balance and search bots answer the payment decisions (spending the
/// goods a mint needs, paying with cards worth 2) through whole games, and each
/// saved game reads back into the same final state.
#[test]
fn bot_games_under_payment_rules_end_and_replay() {
    use san_juan::files::Source;
    use san_juan::saved::SavedGame;
    let models = engine_game::Models::new();
    let (mut mints, mut neighbours) = (0, 0);
    for path in [
        "corpus/san-juan/mint/ruleset.toml",
        "snapshots/san-juan/rules/payment.toml",
        "corpus/san-juan/caravan_depot/ruleset.toml",
    ] {
        let rs = Ruleset::load(&ruleset(path)).unwrap();
        let mint = rs.cards.idx("mint");
        for lineup in [&["greedy", "balance", "random"][..], &["mcts:3", "greedy"][..]] {
            let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
            for index in 0..12 {
                let (record, game) = engine_game::run::play_game::<san_juan::Game>(&rs, &bots, 5, index, true, &models)
                    .unwrap_or_else(|e| panic!("{path} {bots:?} game {index}: {e}"));
                assert!(record.rounds > 0 && record.rounds < 100, "{path} game {index}: {} rounds", record.rounds);
                if let Some(mint) = mint {
                    mints += (0..bots.len()).filter(|&s| game.player(s).owns(mint)).count();
                }
                let saved = SavedGame::of(&game, path, record.seed, bots.clone());
                let source = Source::Disk(format!("{index}.toml").into());
                let text = saved.to_toml();
                // `spend sugar_mill@1`: a neighbour's good, read back from the saved text.
                neighbours += text.matches("@").count();
                let back = SavedGame::parse(&source, &text).unwrap();
                let fresh = Ruleset::load(&ruleset(path)).unwrap();
                let (again, _) = back.replay_with(fresh, &source, false).unwrap_or_else(|e| panic!("{e}"));
                assert!(again.is_over(), "{path} {bots:?} game {index}: replay stops before the end");
                assert_eq!(again.view(None).unwrap(), game.view(None).unwrap(), "{path} {bots:?} game {index}");
            }
        }
    }
    assert!(mints > 0, "no bot ever built a mint: the rule was never met");
    assert!(neighbours > 0, "no bot ever spent a neighbour's good");
}

/// `spend b@s` reads and writes back; a seat that is no number, or none, is
/// refused with how to write it.
#[test]
fn spending_another_seats_good_is_written_building_at_seat() {
    use san_juan::actions::{Action, parse_line};
    let rs = Ruleset::load("second-edition").unwrap();
    let cards = &rs.cards;
    let line = parse_line("build library spend sugar_mill@1 indigo_plant pay well", cards).unwrap();
    let texts: Vec<String> = line.actions.iter().map(|a| a.text(cards)).collect();
    assert_eq!(texts, ["build library", "spend sugar_mill@1", "spend indigo_plant", "pay well"]);
    let one = parse_line("spend coffee_roaster@11", cards).unwrap();
    assert_eq!(one.actions, [Action::SpendOf(cards.idx("coffee_roaster").unwrap(), 11)]);
    for bad in [
        "spend sugar_mill@",
        "spend sugar_mill@12",
        "spend sugar_mill@-1",
        "spend sugar_mill@1@2",
        "spend sugar_mill@x",
    ] {
        let err = parse_line(bad, cards).unwrap_err();
        assert!(err.contains("after `@` write the seat"), "{bad}: {err}");
    }
    let err = parse_line("spend @1", cards).unwrap_err();
    assert!(err.contains("card"), "{err}");
}

/// A seat spends a neighbour's good only with a building that allows it,
/// and only the seats it names; the neighbour's board and the one who spent
/// see it as such.
#[test]
fn a_neighbours_good_pays_only_where_a_building_allows_it() {
    let text = |depot: &str| {
        format!(
            r#"ruleset = "{}"
deck = ["smithy", "quarry"]
[[players]]
buildings = [{depot}]
hand = ["tobacco_storage", "well"]
[[players]]
buildings = ["indigo_plant"]
goods = ["indigo_plant"]
[[players]]
buildings = ["sugar_mill"]
goods = ["sugar_mill"]
[[players]]
buildings = ["coffee_roaster"]
goods = ["coffee_roaster"]
"#,
            ruleset("corpus/san-juan/caravan_depot/ruleset.toml")
        )
    };
    // Without the depot: seat 0 has 1 card for a cost of 2.
    let mut game = setup(&text(""));
    game.apply_text("role builder").unwrap();
    let why = refused(&mut game, "build tobacco_storage");
    assert!(why.contains("costs 2"), "{why}");
    // With it: the left (1) and right (3) neighbours' goods, not seat 2's.
    let mut game = setup(&text("\"caravan_depot\""));
    game.apply_text("role builder").unwrap();
    game.apply_text("build tobacco_storage").unwrap();
    let legal = texts(&game);
    assert_eq!(legal, ["pay well", "spend indigo_plant@1", "spend coffee_roaster@3"]);
    let why = refused(&mut game, "spend sugar_mill@2");
    assert!(why.contains("none of seat 0's buildings lets seat 2's goods pay"), "{why}");
    game.apply_text("spend coffee_roaster@3 indigo_plant@1").unwrap();
    // Each neighbour drew 1 for its good; seat 0 kept its well.
    assert_eq!(game.player(0).hand.len(), 1);
    assert_eq!((game.player(1).hand.len(), game.player(2).hand.len(), game.player(3).hand.len()), (1, 0, 1));
}

/// The mint's rule is asked of the mint in the hand, whoever holds it: here the
/// privilege and a quarry bring it to 5 - 1 - 1 = 3, and 2 goods must still pay.
#[test]
fn the_mint_asks_two_goods_of_a_cost_made_smaller() {
    let mut game = setup(&format!(
        r#"ruleset = "{}"
[[players]]
buildings = ["quarry", "indigo_plant", "sugar_mill"]
goods = ["indigo_plant", "sugar_mill"]
hand = ["mint", "well", "statue", "hero"]
[[players]]
"#,
        ruleset("corpus/san-juan/mint/ruleset.toml")
    ));
    game.apply_text("role builder").unwrap();
    game.apply_text("build mint").unwrap();
    // 3 to pay, 2 of them goods: one card may go now, a second may not.
    let legal = texts(&game);
    assert!(legal.iter().any(|a| a == "pay well") && legal.iter().any(|a| a == "spend indigo_plant"), "{legal:?}");
    game.apply_text("pay well").unwrap();
    assert_eq!(texts(&game), ["spend indigo_plant", "spend sugar_mill"]);
    let why = refused(&mut game, "pay statue");
    assert!(why.contains("statue"), "{why}");
    game.apply_text("spend indigo_plant sugar_mill").unwrap();
    let mint = game.rules().cards.idx("mint").unwrap();
    assert!(game.player(0).owns(mint));
    assert_eq!(game.player(0).hand.len(), 2);
}

fn texts(game: &Game) -> Vec<String> {
    game.legal_actions().iter().map(|a| a.text(&game.rules().cards)).collect()
}

/// A covered building scores when its script asks whether it is covered
/// (`ctx.covered_by`, the building right on top): twice covered, the stone
/// still scores 3, in card order (the palace, last, counts it in its subtotal);
/// a covered building whose script does not ask, as before, scores nothing.
#[test]
fn a_covered_building_that_asks_is_scored_in_card_order() {
    let game = setup(&format!(
        r#"ruleset = "{}"
[[players]]
buildings = ["crane", "palace", "city_hall"]
covered = {{ palace = ["foundation_stone", "statue"], city_hall = ["guild_hall"] }}
[[players]]
"#,
        ruleset("corpus/san-juan/foundation_stone/ruleset.toml")
    ));
    let score = game.score(0).unwrap();
    // Printed: crane 1 + palace 0 + city hall 0; the stone 3; the city hall 1 per
    // city building (crane, palace, city hall: 3); the palace 1 per 4 points (7 / 4 = 1).
    let parts: Vec<(String, i32)> = score.breakdown.clone();
    assert!(parts.contains(&("foundation_stone".to_owned(), 3)), "{parts:?}");
    assert!(!parts.iter().any(|(k, _)| k == "guild_hall"), "{parts:?}");
    assert_eq!(score.total, 1 + 3 + 3 + (1 + 3 + 3) / 4, "{parts:?}");
}
