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
