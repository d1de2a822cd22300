//! A player's view hides what that seat cannot see; a determinized game keeps
//! what it can see and redeals only the rest.

use engine_game::Game as _;
use engine_play::Determinize as _;
use san_juan::bots::{Bot, RandomBot};
use san_juan::{Game, Ruleset};

fn mid_game() -> Game {
    let rs = Ruleset::load("second-edition-expansion").unwrap();
    let mut game = Game::new(rs, 3, 5).unwrap();
    let mut bot = RandomBot::new(9);
    for _ in 0..120 {
        let a = bot.choose(&game, game.legal_actions());
        game.apply(a).unwrap();
    }
    game
}

#[test]
fn a_players_view_hides_other_hands() {
    let game = mid_game();
    let view = serde_json::to_value(game.view(Some(1)).unwrap()).unwrap();
    let players = view["players"].as_array().unwrap();
    assert!(players[1].get("hand").is_some());
    for p in [&players[0], &players[2]] {
        assert!(p.get("hand").is_none(), "{p}");
        assert!(p.get("under").is_none() && p.get("score").is_none(), "{p}");
        assert!(p["hand_size"].as_u64().is_some());
    }
    assert!(players[1].get("score").is_some());
    let full = serde_json::to_value(game.view(None).unwrap()).unwrap();
    assert!(full["players"][0].get("hand").is_some());
}

#[test]
fn determinizing_keeps_what_the_seat_sees() {
    let game = mid_game();
    for seed in 0..20 {
        let d = game.determinize(0, seed);
        assert_eq!(d.census(), game.census(), "cards are only redealt");
        assert_eq!(d.player(0).hand, game.player(0).hand);
        for s in 0..3 {
            assert_eq!(d.player(s).hand.len(), game.player(s).hand.len());
            let cities = |g: &Game| g.player(s).city.iter().map(|x| (x.card, x.good.is_some())).collect::<Vec<_>>();
            assert_eq!(cities(&d), cities(&game));
        }
        assert_eq!(d.deck_size(), game.deck_size());
        assert_eq!(d.pending(), game.pending());
    }
    let hands: Vec<_> = (0..20).map(|seed| game.determinize(0, seed).player(1).hand.clone()).collect();
    assert!(hands.iter().any(|h| *h != game.player(1).hand), "other hands are redealt");
}

#[test]
fn determinizing_for_several_seats_keeps_each_ones_hand_and_deals_the_rest_again() {
    let game = mid_game();
    let both = engine_play::Seats::of(&[0, 2]);
    let mut deck_moved = false;
    let mut seat_1_moved = false;
    for seed in 0..20 {
        let d = game.determinize_for(both, seed);
        assert_eq!(d.census(), game.census(), "cards are only redealt");
        assert_eq!(d.player(0).hand, game.player(0).hand);
        assert_eq!(d.player(2).hand, game.player(2).hand);
        assert_eq!(d.player(1).hand.len(), game.player(1).hand.len());
        seat_1_moved |= d.player(1).hand != game.player(1).hand;
        deck_moved |= d.deck() != game.deck();
    }
    assert!(seat_1_moved && deck_moved, "what neither seat 0 nor seat 2 has seen is dealt again");
}

#[test]
fn the_view_says_who_chose_each_role_this_round() {
    let rs = Ruleset::load("second-edition").unwrap();
    let mut game = Game::new(rs, 2, 3).unwrap();
    let roles = |g: &Game| serde_json::to_value(g.view(Some(0)).unwrap()).unwrap()["roles"].clone();
    assert_eq!(roles(&game), serde_json::Value::Null, "nothing chosen yet");
    let governor = game.governor();
    game.apply_text("role prospector").unwrap();
    assert_eq!(roles(&game), serde_json::json!([{ "role": "prospector", "seat": governor }]));
    let mut bot = RandomBot::new(1);
    while game.roles_taken().len() < 3 {
        let a = bot.choose(&game, game.legal_actions());
        game.apply(a).unwrap();
    }
    // Two players: the governor chooses, then the other, then the governor again (EN2).
    let chosen = roles(&game);
    let by_governor = chosen.as_array().unwrap().iter().filter(|r| r["seat"] == governor).count();
    assert_eq!((chosen.as_array().unwrap().len(), by_governor), (3, 2), "{chosen}");
    while game.round() == 1 {
        let a = bot.choose(&game, game.legal_actions());
        game.apply(a).unwrap();
    }
    assert_eq!(roles(&game), serde_json::Value::Null, "a new round clears the roles");
}

/// An undo re-deals what the undoing seat has not seen: taking back a
/// prospector's draw and choosing the prospector again does not draw the same
/// face-down card every time. The re-deal is an entry of the saved game, which
/// still replays.
#[test]
fn an_undo_cannot_peek_at_the_deck_and_the_game_still_replays() {
    use engine_game::saved::{SavedGame, undo_to};
    let rs = Ruleset::load("second-edition").unwrap();
    // A position where seat 0 may choose the prospector.
    let (mut game, seed) = (0..50)
        .find_map(|seed| {
            let mut g = Game::new(rs.clone(), 3, seed).unwrap();
            g.record_actions(true);
            let prospector = g.legal_actions().iter().any(|a| a.text(&rs.cards) == "role prospector");
            (g.pending().unwrap().seat() == 0 && prospector).then_some((g, seed))
        })
        .unwrap();
    let mark = game.saved_len();
    let hand = game.player(0).hand.clone();
    let drawn = |g: &mut Game| {
        g.apply_exact("role prospector").unwrap();
        let mut new = g.player(0).hand.clone();
        for c in &hand {
            let i = new.iter().position(|x| x == c).unwrap();
            new.swap_remove(i);
        }
        new
    };
    let first = drawn(&mut game.clone());
    let mut draws = Vec::new();
    for fresh in 0..8 {
        let mut back = undo_to(&game, rs.clone(), seed, mark, 0, fresh).unwrap();
        assert_eq!(back.view(Some(0)).unwrap(), game.view(Some(0)).unwrap(), "seat 0 sees the same position");
        draws.push(drawn(&mut back));
    }
    assert!(draws.iter().any(|d| *d != first), "the same card after every undo: {first:?} {draws:?}");
    // Played on after a re-deal, the game replays from its file, the re-deal included.
    let mut back = undo_to(&game, rs.clone(), seed, mark, 0, 77).unwrap();
    let mut bot = RandomBot::new(4);
    for _ in 0..60 {
        let a = bot.choose(&back, back.legal_actions());
        back.apply(a).unwrap();
    }
    let saved = SavedGame::<Game>::of(&back, "second-edition", seed, Vec::new());
    assert!(saved.actions.contains(&"redeal 0 77".to_owned()), "{:?}", saved.actions);
    let source = engine_rules::files::Source::Disk("game.toml".into());
    let text = saved.to_toml();
    let (replayed, _) = SavedGame::<Game>::parse(&source, &text).unwrap().replay(&source, false).unwrap();
    assert_eq!(replayed.view(None).unwrap(), back.view(None).unwrap());
    // Never once the game is over.
    while back.pending().is_some() {
        let a = bot.choose(&back, back.legal_actions());
        back.apply(a).unwrap();
    }
    assert!(back.redeal(&[0], 1).is_err());
    game.apply_exact("role prospector").unwrap();
}

/// A position where seat 0 has a chapel with two cards under it (face down),
/// a guild hall (points per production building) and a statue.
const CHAPEL: &str = r#"
ruleset = "second-edition-expansion"
actions = []

[[players]]
buildings = ["indigo_plant", "sugar_mill", "chapel", "guild_hall", "statue"]
under = { chapel = 2 }
hand = ["palace", "smithy", "statue"]

[[players]]
buildings = ["indigo_plant"]
hand = ["palace", "smithy", "well"]
"#;

#[test]
fn every_seat_sees_everyones_public_score_without_the_cards_under_buildings() {
    let game = crate::common::setup(CHAPEL);
    let own = game.score(0).unwrap();
    let public = game.public_score(0).unwrap();
    // The two cards under the chapel are all that differs: one point each.
    assert_eq!(own.total - public.total, 2, "{own:?} against {public:?}");
    assert!(!public.breakdown.iter().any(|(k, _)| k == "chapel"), "{public:?}");
    assert!(public.breakdown.iter().any(|(k, p)| k == "guild_hall" && *p > 0), "bonuses count: {public:?}");
    for viewer in 0..2 {
        let view = serde_json::to_value(game.view(Some(viewer)).unwrap()).unwrap();
        for (seat, p) in view["players"].as_array().unwrap().iter().enumerate() {
            assert_eq!(p["public_score"]["total"], game.public_score(seat).unwrap().total, "{viewer} sees {p}");
        }
    }
    // An observer sees every true score already: no public one beside it.
    let full = serde_json::to_value(game.view(None).unwrap()).unwrap();
    assert!(full["players"][0].get("public_score").is_none());
}

#[test]
fn why_not_names_each_card_the_builder_cannot_build_and_only_to_its_seat() {
    use engine_game::AnyGame;
    let mut game = crate::common::setup(CHAPEL);
    game.apply_text("role builder").unwrap();
    // Seat 0 chose the builder and builds first: a palace costs more than its
    // two other cards, a second statue is refused, a smithy it can build.
    assert_eq!(game.pending().map(|d| d.seat()), Some(0));
    let why = AnyGame::why_not(&game, 0);
    let said = |card: &str| why.iter().find(|w| w.card == card && w.zone == "hand").map(|w| w.why.clone());
    assert!(said("palace").is_some_and(|w| w.contains("costs")), "{why:?}");
    assert!(said("statue").is_some_and(|w| w.contains("already has")), "{why:?}");
    assert_eq!(said("smithy"), None, "a card it can build has no reason: {why:?}");
    assert!(AnyGame::why_not(&game, 1).is_empty(), "another seat is told nothing of seat 0's hand");
    game.apply_text("pass").unwrap();
    // Seat 1's turn now: of its hand only the palace is out of reach (and the public cathedral).
    let why = AnyGame::why_not(&game, 1);
    let hand: Vec<&str> = why.iter().filter(|w| w.zone == "hand").map(|w| w.card.as_str()).collect();
    assert_eq!(hand, ["palace"], "{why:?}");
    assert!(why.iter().any(|w| w.zone == "public" && w.card == "cathedral"), "{why:?}");
    assert!(AnyGame::why_not(&game, 0).is_empty());
}
