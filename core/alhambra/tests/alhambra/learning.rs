//! A change of the built-in ruleset learns its balance model starting from
//! that ruleset's model: which ruleset that is, and that the warm start plays
//! as well as learning afresh (the experiment, `--ignored`).

use std::sync::Arc;

use alhambra::{Game, Ruleset};
use engine_game::Rules as _;
use engine_game::models::warm_against_fresh;

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
    let designs: Vec<_> = ["tea_house", "thief", "treasury", "vizier", "shekel"].into_iter().map(design).collect();
    let (lines, worst) = warm_against_fresh::<Game>(&designs, 300).unwrap();
    println!("{}", lines.join("\n"));
    assert!(worst > 0.0, "a warm start played clearly worse than learning afresh");
}

/// The experiment behind Alhambra's `Schedule::warm_by_model`: for corpus
/// designs and examples, the model whose one warm round the base's model
/// played against the one whose round the rules of thumb played, 4 players,
/// the same deals with the seats swapped. Run with
/// `cargo test --release -p alhambra --test alhambra warm_round -- --ignored --nocapture`
/// (`DESIGNS=a,b.toml` for others: a corpus design, or an example by file name).
#[test]
#[ignore = "an experiment: minutes of learning"]
fn a_warm_round_by_the_base_model_plays_better_than_the_rules_of_thumb() {
    use engine_game::models::{duel, learn};
    let ids = std::env::var("DESIGNS").unwrap_or_else(|_| "tea_house,thief,treasury,vizier,house-rule.toml".into());
    let base = Ruleset::load("alhambra").unwrap();
    let base_model = learn::<Game>(&base, vec![4, 3, 2], base.schedule(), None).unwrap();
    let mut worst = f64::INFINITY;
    for id in ids.split(',') {
        let rs = match id.strip_suffix(".toml") {
            Some(_) => Ruleset::load(&format!("{}/../../cards/alhambra/examples/{id}", env!("CARGO_MANIFEST_DIR"))),
            None => Ruleset::load(&format!("{CORPUS}/{id}/ruleset.toml")),
        }
        .unwrap();
        let (fewest, most) = rs.players();
        let players: Vec<usize> = (fewest..=most).rev().collect();
        let clock = std::time::Instant::now();
        let by_model = Arc::new(learn::<Game>(&rs, players.clone(), rs.schedule(), Some(&base_model)).unwrap());
        let time = clock.elapsed().as_secs_f64();
        let thumb = engine_play::value::Schedule { warm_by_model: false, ..rs.schedule() };
        let by_thumb = Arc::new(learn::<Game>(&rs, players, thumb, Some(&base_model)).unwrap());
        let d = duel::<Game>(&rs, &by_model, &by_thumb, 4, 300).unwrap();
        let money = |m: &engine_play::value::ValueModel| m.weight("money");
        println!(
            "{id:<18} learned in {time:>4.1} s; by the model − by the rules of thumb: {:+.2} ± {:.2} points, wins {:.3}; `money` {:+.2} against {:+.2}",
            d.margin,
            d.error,
            d.wins,
            money(&by_model),
            money(&by_thumb)
        );
        worst = worst.min(d.margin - 2.0 * d.error);
    }
    assert!(worst > 0.0, "a round by the base's model did not play clearly better");
}
