//! A change of the built-in ruleset learns its balance model starting from
//! that ruleset's model: which ruleset that is, and that the warm start plays
//! as well as learning afresh (the experiment, `--ignored`).

use std::sync::Arc;

use alhambra::{Game, Ruleset};
use engine_game::Rules as _;
use engine_game::models::{duel, learn};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/alhambra");

fn design(id: &str) -> Arc<Ruleset> {
    Ruleset::load(&format!("{CORPUS}/{id}/ruleset.toml")).unwrap()
}

#[test]
fn a_design_and_an_example_stand_on_the_built_in_ruleset() {
    let reserve = design("reserve");
    assert_eq!(reserve.base(), Some("alhambra"));
    let base = reserve.base_rules().unwrap().expect("the reserve changes alhambra");
    assert_eq!(base.fingerprint, Ruleset::load("alhambra").unwrap().fingerprint);
    assert_eq!(Ruleset::load("alhambra").unwrap().base(), None);
    let example =
        engine_rules::Source::Builtin(&alhambra::files::BUILTINS, "cards/alhambra/examples/exchange.toml".into());
    assert_eq!(Ruleset::load_source(example).unwrap().base(), Some("alhambra"));
}

/// The experiment behind Alhambra's `Schedule::warm_rounds`: for corpus
/// designs, the model learned from the base's against one learned afresh, 4
/// players, the same deals with the seats swapped. Run with
/// `cargo test --release -p alhambra --test alhambra warm_start -- --ignored --nocapture`.
#[test]
#[ignore = "an experiment: minutes of learning"]
fn warm_start_plays_as_well_as_learning_afresh() {
    let base = Ruleset::load("alhambra").unwrap();
    let schedule = base.schedule();
    let players: Vec<usize> = (2..=6).rev().collect();
    let base_model = learn::<Game>(&base, players.clone(), schedule, None).unwrap();
    let mut worst: f64 = f64::INFINITY;
    for id in ["tea_house", "thief", "treasury", "vizier", "shekel"] {
        let rs = design(id);
        let clock = std::time::Instant::now();
        let warm = Arc::new(learn::<Game>(&rs, players.clone(), schedule, Some(&base_model)).unwrap());
        let warm_time = clock.elapsed().as_secs_f64();
        let clock = std::time::Instant::now();
        let fresh = Arc::new(learn::<Game>(&rs, players.clone(), schedule, None).unwrap());
        let fresh_time = clock.elapsed().as_secs_f64();
        let d = duel::<Game>(&rs, &warm, &fresh, 4, 300).unwrap();
        println!(
            "{id:<18} warm {warm_time:>5.1} s, afresh {fresh_time:>5.1} s; warm − afresh: {:+.2} ± {:.2} points, wins {:.3}",
            d.margin, d.error, d.wins
        );
        worst = worst.min(d.margin + 2.0 * d.error);
    }
    assert!(worst > 0.0, "a warm start played clearly worse than learning afresh");
}
