//! `on_targeted`: a building that answers before an effect of another
//! player's building reaches its owner, and may cancel it (the corpus's moat).

use std::fs;

use crate::common::setup_logged;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/san-juan");

/// The moat's ruleset (with the garrison and the inquisitor it reads) plus a
/// statue that, when its owner chooses the councillor, gives the next seat a
/// card: an effect that reaches another player but is no attack.
fn with_a_gift() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    for design in ["moat", "garrison", "inquisitor"] {
        fs::create_dir_all(dir.path().join(design)).unwrap();
        for f in fs::read_dir(format!("{CORPUS}/{design}")).unwrap() {
            let f = f.unwrap().path();
            if f.is_file() {
                fs::copy(&f, dir.path().join(design).join(f.file_name().unwrap())).unwrap();
            }
        }
    }
    let rules = dir.path().join("gift.toml");
    fs::write(
        &rules,
        "id = \"gift\"\nname = \"Gift\"\nextends = \"moat/ruleset.toml\"\n[cards.statue]\nscript = \"gift.rhai\"\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("gift.rhai"),
        "fn on_role(ctx) {\n    if ctx.role == \"councillor\" { #{ draw: 1, seat: (ctx.seat + 1) % ctx.players } } else { () }\n}\n",
    )
    .unwrap();
    let path = rules.to_str().unwrap().to_owned();
    (dir, path)
}

/// The moat cancels the garrison's discard for its owner only, and lets
/// through what is no attack (the statue's gift) and what no building does
/// (its owner's own effects).
#[test]
fn the_moat_cancels_an_attack_and_nothing_else() {
    let (_dir, ruleset) = with_a_gift();
    let mut game = setup_logged(&format!(
        r#"ruleset = "{ruleset}"
deck = ["well", "smithy", "quarry", "chapel", "tower", "hero", "library", "palace"]
[[players]]
buildings = ["garrison", "statue"]
[[players]]
buildings = ["moat"]
hand = ["smithy", "quarry", "statue", "hero", "chapel", "tower", "library"]
[[players]]
hand = ["well", "palace", "city_hall", "aqueduct", "carpenter", "prefecture"]
"#
    ));
    let events = game.apply_text("role councillor").unwrap();
    let lines: Vec<String> = events.iter().map(|e| e.text.clone()).collect();
    assert!(lines.iter().any(|l| l == "seat 1: its moat cancels the garrison's `discard` for it"), "{lines:?}");
    // Seat 2 must still discard 1 for the garrison; then the gift (waiting
    // behind that decision) reaches seat 1: 7 + 1.
    assert_eq!(game.player(2).hand.len(), 6);
    game.apply_text("discard well").unwrap();
    assert_eq!(game.player(2).hand.len(), 5);
    assert_eq!(game.player(1).hand.len(), 8, "{lines:?}");
}
