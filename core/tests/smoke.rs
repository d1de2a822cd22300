use sanjuan_core::bots::{Bot, RandomBot, play_out};
use sanjuan_core::{Game, Ruleset};

#[test]
fn random_games_finish() {
    let rs = Ruleset::load("second-edition").unwrap();
    for seed in 0..50 {
        let mut g = Game::new(rs.clone(), 4, seed).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = (0..4).map(|i| Box::new(RandomBot::new(seed * 10 + i)) as Box<dyn Bot>).collect();
        play_out(&mut g, &mut bots).unwrap();
        assert!(g.is_over());
        println!("{seed}: round {} scores {:?}", g.round(), g.scores().unwrap().iter().map(|s| s.total).collect::<Vec<_>>());
    }
}
