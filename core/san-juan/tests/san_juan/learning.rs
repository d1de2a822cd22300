//! A change of a built-in ruleset learns its balance model starting from that
//! ruleset's model: which ruleset that is, and that the warm start plays as
//! well as learning afresh (the experiment, `--ignored`).

use std::sync::Arc;

use engine_game::Rules as _;
use engine_game::models::warm_against_fresh;
use san_juan::{Game, Ruleset};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/san-juan");

fn design(id: &str) -> Arc<Ruleset> {
    Ruleset::load(&format!("{CORPUS}/{id}/ruleset.toml")).unwrap()
}

#[test]
fn a_design_stands_on_the_built_in_ruleset_it_changes() {
    let mint = design("mint");
    assert_eq!(mint.base(), Some("second-edition"));
    let base = mint.base_rules().unwrap().expect("the mint changes second-edition");
    assert_eq!(base.fingerprint, Ruleset::load("second-edition").unwrap().fingerprint);
    // Built-in rulesets are learned from the rules of thumb up, even one that extends another.
    for id in ["second-edition", "first-edition", "second-edition-expansion"] {
        assert_eq!(Ruleset::load(id).unwrap().base(), None, "{id}");
    }
    // A built-in example is a change like any other.
    assert_eq!(
        Ruleset::load_source(engine_rules::Source::Builtin(
            &san_juan::files::BUILTINS,
            "cards/san-juan/rulesets/examples/gallery.toml".into()
        ))
        .unwrap()
        .base(),
        Some("second-edition")
    );
}

#[test]
fn a_change_through_files_of_its_own_stands_on_the_nearest_built_in_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "house.toml",
        "id = \"house\"\nname = \"House\"\nextends = \"second-edition-expansion\"\n[rules]\nhand_limit = 8\n",
    );
    write("mine.toml", "id = \"mine\"\nname = \"Mine\"\nextends = \"house.toml\"\n[rules]\nmax_rounds = 40\n");
    let mine = Ruleset::load(dir.path().join("mine.toml").to_str().unwrap()).unwrap();
    assert_eq!(mine.base(), Some("second-edition-expansion"));
    // A checkout's copy of the built-in files on disk: its second-edition.toml is that ruleset.
    for (path, text) in san_juan::files::BUILTINS.files {
        let to = dir.path().join(path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, text).unwrap();
    }
    let rulesets = dir.path().join("cards/san-juan/rulesets");
    let write = |name: &str, text: &str| std::fs::write(rulesets.join(name), text).unwrap();
    let load = |name: &str| Ruleset::load(rulesets.join(name).to_str().unwrap()).unwrap();
    write("near.toml", "id = \"near\"\nname = \"Near\"\nextends = \"second-edition\"\n[rules]\nmax_rounds = 40\n");
    assert_eq!(load("near.toml").base(), Some("second-edition"));
    // The same file edited is a ruleset of its own: nothing to start from.
    let builtin = san_juan::files::BUILTINS.ruleset("second-edition").unwrap().read().unwrap();
    write("second-edition.toml", &builtin.replace("hand_limit = 7", "hand_limit = 6"));
    assert_eq!(load("near.toml").base(), None);
    // A change that changes nothing has the base's content: its model is the base's.
    write("second-edition.toml", &builtin);
    write("same.toml", "id = \"same\"\nname = \"Same\"\nextends = \"second-edition\"\n");
    let same = load("same.toml");
    assert_eq!(same.base(), Some("second-edition"));
    assert!(same.base_rules().unwrap().is_none(), "same content: no learning of its own");
}

/// The experiment behind `Schedule::warm_rounds`: for corpus designs, the
/// model learned from second-edition's against one learned afresh, 4 players,
/// the same deals with the seats swapped. Run with
/// `cargo test --release -p san-juan --test san_juan warm_start -- --ignored --nocapture`.
#[test]
#[ignore = "an experiment: minutes of learning"]
fn warm_start_plays_as_well_as_learning_afresh() {
    let designs: Vec<_> = ["mint", "reservation_desk", "founders_hall", "builders_guild", "remodel_yard"]
        .into_iter()
        .map(design)
        .collect();
    let (lines, worst) = warm_against_fresh::<Game>(&designs, 400).unwrap();
    println!("{}", lines.join("\n"));
    assert!(worst > 0.0, "a warm start played clearly worse than learning afresh");
}
