//! Invariants over many seeded random games: every card is in exactly one
//! place after setup and after every action (the census), and every game ends.

use alhambra::Ruleset;
use alhambra::sim::check_random_game;

const GAMES_PER_COUNT: u64 = 1000;

fn check_count(players: usize) {
    let rs = Ruleset::load("alhambra").unwrap();
    for seed in 0..GAMES_PER_COUNT {
        check_random_game(&rs, players, seed).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn two_players() {
    check_count(2);
}

#[test]
fn three_players() {
    check_count(3);
}

#[test]
fn four_players() {
    check_count(4);
}

#[test]
fn five_players() {
    check_count(5);
}

#[test]
fn six_players() {
    check_count(6);
}

/// The scripted designs of issue 21's corpus (`cards/alhambra/examples/`):
/// random and balance bots at every seat count, the census checked after
/// every action (money drawn and buildings moved by scripts included).
const CORPUS: &[&str] = &[
    "bazaar",
    "exchange",
    "twin",
    "garden_guild",
    "gold_florin",
    "caravanserai",
    "customs_house",
    "exile",
    "fountain",
    "counting_house",
    "pickpocket",
    "watchtower",
    "garden_chronicle",
];

fn corpus(id: &str) -> std::sync::Arc<Ruleset> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/alhambra/examples/").to_owned() + id + ".toml";
    Ruleset::load(&path).unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn the_corpus_keeps_every_card_with_random_bots() {
    for id in CORPUS {
        let rs = corpus(id);
        for players in 2..=6 {
            for seed in 0..8 {
                check_random_game(&rs, players, seed).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
        }
    }
}

#[test]
fn the_corpus_keeps_every_card_with_balance_bots() {
    use engine_play::value::{Schedule, ValueBot};
    for id in CORPUS {
        let rs = corpus(id);
        // A short self-play: the bot's model matters less here than its play reaching every rule.
        let schedule = Schedule { games: 12, rounds: 1, ..Default::default() };
        let model = std::sync::Arc::new(engine_game::models::learn::<alhambra::Game>(&rs, vec![3], schedule).unwrap());
        for players in 2..=6 {
            for seed in 0..2 {
                let mut bot = ValueBot::new(std::sync::Arc::clone(&model), seed);
                alhambra::sim::check_game_with(&rs, players, seed, &mut bot).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
        }
    }
}

#[test]
fn each_money_card_is_offered_once_whatever_its_currency_or_value() {
    // Six currencies and values past 15: the legal list's one-action-per-card
    // check works by a bit per card for the usual ones and by a search for these.
    use alhambra::actions::Action;
    use alhambra::game::Decision;
    use engine_play::turns::TurnGame as _;
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "id = \"wide\"\ngame = \"alhambra\"\nname = \"Wide\"\nextends = \"alhambra\"\n\n[money]\ncurrencies = [\n{}]\nvalues = [1, 2, 9, 15, 16, 17, 20]\ncopies = 2\n",
        ["denar", "dirham", "ducat", "florin", "rupee", "obol"]
            .map(|c| format!("  {{ id = \"{c}\", name = \"{c}s\" }},\n"))
            .concat()
    );
    let path = dir.path().join("wide.toml");
    std::fs::write(&path, text).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let (mut turns, mut wide) = (0, 0);
    for seed in 0..20 {
        let mut game = alhambra::Game::new(rs.clone(), 3, seed).unwrap();
        let mut pick = seed as usize;
        while game.to_move().is_some() {
            let legal = game.legal().to_vec();
            for (i, a) in legal.iter().enumerate() {
                assert!(!legal[..i].contains(a), "seed {seed}: {a:?} offered twice in {legal:?}");
            }
            if let Some(Decision::Turn { .. }) = game.pending() {
                // Every card on display may be taken (one action for equal cards).
                for m in game.money_display() {
                    assert!(legal.contains(&Action::Take(*m)), "seed {seed}: {m:?} not offered in {legal:?}");
                    wide += usize::from(m.currency >= 4 || m.value >= 16);
                }
                turns += 1;
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            game.play(legal[(pick >> 33) % legal.len()]).unwrap();
        }
    }
    assert!(turns > 200 && wide > 200, "{turns} turns, {wide} cards past the usual ones");
}
