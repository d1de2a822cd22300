//! Events name the building that caused them, and a seat's log hides the
//! cards it could not see at a real table.

use crate::common::setup_logged;

use std::collections::HashSet;

use engine_game::Game as _;
use san_juan::bots::{Bot, RandomBot};
use san_juan::game::{Event, Visibility};
use san_juan::{Game, Ruleset};

fn caused_by<'a>(game: &Game, events: &'a [Event], card: &str) -> Vec<&'a str> {
    let idx = game.rules().cards.idx(card).unwrap();
    events.iter().filter(|e| e.cause == Some(idx)).map(|e| e.text.as_str()).collect()
}

#[test]
fn a_library_doubles_the_privilege_and_says_so() {
    let mut game = setup_logged(
        "[[players]]\nbuildings = [\"indigo_plant\", \"library\"]\nhand = [\"sugar_mill\", \"well\"]\n[[players]]\n",
    );
    let events = game.apply_text("role builder").unwrap();
    assert_eq!(caused_by(&game, &events, "library"), ["seat 0: library doubles the builder privilege"]);
    let events = game.apply_text("build sugar_mill").unwrap();
    let texts: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert!(texts.contains(&"seat 0: the builder's privilege lowers the cost of sugar_mill by 2"), "{texts:?}");
    assert!(texts.contains(&"seat 0 has built sugar_mill for 0 cards"), "{texts:?}");
}

#[test]
fn a_well_gives_a_card_named_only_to_its_owner() {
    let mut game = setup_logged(
        "deck = [\"hero\", \"chapel\", \"statue\", \"smithy\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\", \"sugar_mill\", \"well\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\"]\n",
    );
    game.apply_text("role producer").unwrap();
    let events = game.apply_text("produce indigo_plant sugar_mill").unwrap();
    let well = caused_by(&game, &events, "well");
    assert_eq!(well, ["seat 0: well gives 1 card: statue"]);
    let e = events.iter().find(|e| e.text == well[0]).unwrap();
    assert_eq!(e.visibility, Visibility::Seat(0));
    assert_eq!(e.seen_by(0).unwrap().text, "seat 0: well gives 1 card: statue");
    assert_eq!(e.seen_by(1).unwrap().text, "seat 0: well gives 1 card");
}

#[test]
fn a_gold_mine_reveals_in_public() {
    let mut game = setup_logged(
        "deck = [\"statue\", \"quarry\", \"gold_mine\", \"tobacco_storage\", \"library\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\", \"gold_mine\"]\n[[players]]\n",
    );
    let events = game.apply_text("role prospector").unwrap();
    let mine = caused_by(&game, &events, "gold_mine");
    assert_eq!(mine, ["seat 0: gold mine reveals 4 cards: quarry, gold_mine, tobacco_storage, library"]);
    let e = events.iter().find(|e| e.text == mine[0]).unwrap();
    assert_eq!(e.visibility, Visibility::Public);
    // The prospector's own card is drawn unseen.
    let seen: Vec<String> = events.iter().filter_map(|e| e.seen_by(1)).map(|e| e.text).collect();
    assert!(seen.contains(&"seat 0 draws 1 card".to_owned()), "{seen:?}");
    assert!(!seen.iter().any(|t| t.contains("statue")), "{seen:?}");
}

#[test]
fn what_a_councillor_draws_and_keeps_is_hidden_from_the_others() {
    let mut game = setup_logged(
        "deck = [\"well\", \"smithy\", \"statue\", \"chapel\", \"hero\", \"quarry\", \"tower\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"library\", \"aqueduct\", \"carpenter\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\"]\n",
    );
    let mut events = game.apply_text("role councillor").unwrap();
    events.extend(game.apply_text("keep statue").unwrap());
    let keep = events.iter().find(|e| e.text == "seat 0 keeps statue").expect("keep event");
    assert_eq!(keep.visibility, Visibility::Seat(0));
    assert_eq!(keep.public_text.as_deref(), Some("seat 0 keeps 1 card"));
    let seen_by_1: Vec<String> = events.iter().filter_map(|e| e.seen_by(1)).map(|e| e.text).collect();
    assert!(seen_by_1.contains(&"seat 0 keeps 1 card".to_owned()), "{seen_by_1:?}");
    assert!(seen_by_1.contains(&"seat 0 draws 5 cards to choose from".to_owned()), "{seen_by_1:?}");
    for hidden in ["well", "smithy", "statue", "chapel", "hero"] {
        assert!(!seen_by_1.iter().any(|t| t.contains(hidden)), "`{hidden}` leaked: {seen_by_1:?}");
    }
    let seen_by_0: Vec<String> = events.iter().filter_map(|e| e.seen_by(0)).map(|e| e.text).collect();
    assert!(seen_by_0.contains(&"seat 0 keeps statue".to_owned()), "{seen_by_0:?}");
}

#[test]
fn the_cards_a_builder_pays_with_are_hidden() {
    let mut game = setup_logged(
        "[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"tobacco_storage\", \"well\", \"statue\", \"hero\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\"]\n",
    );
    let mut all = game.apply_text("role builder").unwrap();
    all.extend(game.apply_text("build tobacco_storage pay well statue").unwrap());
    let others: Vec<String> = all.iter().filter_map(|e| e.seen_by(1)).map(|e| e.text).collect();
    assert_eq!(others.iter().filter(|t| *t == "seat 0 pays with 1 card").count(), 2, "{others:?}");
    assert!(!others.iter().any(|t| t.contains("well") || t.contains("statue")), "{others:?}");
    assert!(others.contains(&"seat 0 has built tobacco_storage for 2 cards".to_owned()), "{others:?}");
}

/// Over random games of every ruleset: what a seat's log shows of another
/// seat's private event names no card but the building that caused it.
#[test]
fn public_texts_name_no_hidden_card() {
    for ruleset in ["second-edition", "second-edition-expansion", "first-edition"] {
        let rs = Ruleset::load(ruleset).unwrap();
        let ids: HashSet<String> = rs.cards.cards.iter().map(|c| c.id.to_string()).collect();
        for seed in 0..20 {
            let mut game = Game::new(rs.clone(), 3, seed).unwrap();
            game.log_events(true);
            let mut bot = RandomBot::new(seed);
            let mut private = 0;
            while game.pending().is_some() {
                let a = bot.choose(&game, game.legal_actions());
                for e in game.apply(a).unwrap() {
                    let Visibility::Seat(owner) = e.visibility else { continue };
                    private += 1;
                    let public = e.public_text.as_deref().expect("a private event tells the others something");
                    let allowed = e.cause.map(|c| rs.cards.id(c).to_owned());
                    for word in public.split(|ch: char| !(ch.is_ascii_lowercase() || ch == '_')) {
                        let named = ids.contains(word) && allowed.as_deref() != Some(word);
                        assert!(!named, "{ruleset} seed {seed}: `{public}` (seat {owner}'s `{}`) names {word}", e.text);
                    }
                    assert_eq!(e.seen_by((owner + 1) % 3).unwrap().text, public);
                }
            }
            assert!(private > 0, "{ruleset} seed {seed}: no private event in a whole game");
        }
    }
}
