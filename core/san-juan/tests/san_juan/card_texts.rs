//! Every card says what it does in one line, and an edition's wording follows its rules.

use san_juan::Ruleset;

#[test]
fn every_card_of_every_built_in_ruleset_has_a_text() {
    let mut ids = san_juan::files::BUILTINS.ruleset_ids();
    assert!(ids.len() >= 3, "built-in rulesets: {ids:?}");
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/house-rule.toml");
    ids.push(example.to_owned());
    for id in &ids {
        let rs = Ruleset::load(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        for card in &rs.cards.cards {
            let text = card.text.trim();
            assert!(!text.is_empty(), "{id}: card `{}` has no text", card.id);
            assert!(!text.contains('\n'), "{id}: card `{}`'s text is more than one line", card.id);
        }
    }
}

#[test]
fn the_first_edition_shows_its_own_guild_hall_and_gold_mine_texts() {
    let second = Ruleset::load("second-edition").unwrap();
    let first = Ruleset::load("first-edition").unwrap();
    let text = |rs: &Ruleset, id: &str| rs.cards.get(rs.cards.idx(id).unwrap()).text.clone();
    assert_eq!(text(&first, "guild_hall"), "Game end: 2 VP per production building");
    assert!(text(&second, "guild_hall").contains("per type of production building"));
    assert!(text(&first, "gold_mine").contains("keep any one"));
    assert!(text(&second, "gold_mine").contains("keep the cheapest"));
    assert_eq!(text(&first, "smithy"), text(&second, "smithy"));
}
