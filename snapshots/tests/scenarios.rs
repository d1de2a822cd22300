//! Runs every scenario in `snapshots/scenarios/`: its `[expect]` table must
//! hold, and its resulting state must match the accepted snapshot.
//! New or changed snapshots: `cargo insta review` (with CI set, they fail).

use sanjuan_core::scenario::Scenario;

#[test]
fn scenarios() {
    insta::glob!(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"), "*.toml", |path: &std::path::Path| {
        let scenario = Scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
        let game = scenario.run().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fails = scenario.check(&game).expect("scoring works");
        assert!(fails.is_empty(), "{}: [expect] failed:\n{}", path.display(), fails.join("\n"));
        assert!(scenario.file.expect.is_some(), "{}: every scenario needs an [expect] table", path.display());
        let state = game.to_json(None).expect("state");
        insta::with_settings!({ description => scenario.file.description.clone(), omit_expression => true }, {
            insta::assert_yaml_snapshot!(state);
        });
    });
}
