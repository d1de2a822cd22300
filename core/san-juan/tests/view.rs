//! A player's view hides what that seat cannot see; a determinized game keeps
//! what it can see and redeals only the rest.

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
