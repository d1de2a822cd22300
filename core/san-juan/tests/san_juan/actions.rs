//! The ruleset's own actions (`[[action]]`) in San Juan: offered at the
//! trader's sell decision to the owners of a card, each use a sale; written
//! and read in the notation (so saved games replay them); a good bought is
//! not for sale in the same phase; and `check` refuses misuse at the key.

use std::fs;
use std::sync::Arc;

use san_juan::Ruleset;
use san_juan::actions::parse_line;
use san_juan::scenario::Scenario;

/// The trading house (corpus/san-juan/trading_house), with `action` as its `[[action]]` table.
fn house(action: &str, script: &str) -> (tempfile::TempDir, Result<Arc<Ruleset>, String>) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/san-juan/trading_house");
    fs::copy(format!("{corpus}/cards.toml"), dir.path().join("cards.toml")).unwrap();
    fs::write(dir.path().join("buy.rhai"), script).unwrap();
    let rules = format!(
        "id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\nextra_sets = [\"cards.toml\"]\n\
         [[action]]\n{action}\n"
    );
    let path = dir.path().join("house.toml");
    fs::write(&path, rules).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).map_err(|e| e.to_string());
    (dir, rs)
}

const BUY: &str = "id = \"buy_good\"\nverb = \"buy\"\ndecision = \"sell\"\nuses = \"sell\"\n\
                   owners_of = \"trading_house\"\nscript = \"buy.rhai\"";

fn script() -> String {
    fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/san-juan/trading_house/trading_house_buy.rhai"
    ))
    .unwrap()
}

fn play(rs: &Arc<Ruleset>, text: &str) -> Result<san_juan::Game, String> {
    let scenario = Scenario::parse(san_juan::files::Source::Disk("acts.toml".into()), text.to_owned()).unwrap();
    let game = scenario.play(Arc::clone(rs)).map_err(|e| e.to_string())?;
    let fails = scenario.check(&game).map_err(|e| e.to_string())?;
    if fails.is_empty() { Ok(game) } else { Err(fails.join("; ")) }
}

#[test]
fn an_action_is_written_read_and_offered_only_to_the_owners_of_its_card() {
    let (_dir, rs) = house(BUY, &script());
    let rs = rs.unwrap();
    // Seat 1 has no trading house: its sale decision offers no `buy` (only its good and pass).
    let text = "trading_tiles = [[1, 1, 1, 2, 2]]\nactions = [\"role trader\", \"pass\"]\n[[players]]\n\
                buildings = [\"trading_house\", \"indigo_plant\"]\nhand = [\"well\"]\n[[players]]\n\
                buildings = [\"indigo_plant\"]\ngoods = [\"indigo_plant\"]\nhand = [\"well\"]\n\
                [expect]\npending = \"sell\"\npending_seat = 1\nlegal = [\"sell indigo_plant\", \"pass\"]\n";
    play(&rs, text).unwrap();
    // The notation reads the ruleset's verb and writes it back the same.
    let line = parse_line("buy indigo_plant", &rs.cards).unwrap();
    assert_eq!(line.actions.len(), 1);
    assert_eq!(line.actions[0].text(&rs.cards), "buy indigo_plant");
    assert!(parse_line("buy", &rs.cards).is_ok(), "an action without arguments is a line too");
    // `cards --diff` names the action a ruleset adds.
    let base = Ruleset::load("second-edition").unwrap();
    assert!(base.diff(&rs).contains(&"+ action buy_good (`buy`)".to_owned()), "{:?}", base.diff(&rs));
    let err = parse_line("barter well", &rs.cards).unwrap_err();
    assert!(err.contains("and this ruleset's buy"), "{err}");
}

#[test]
fn a_good_bought_is_not_for_sale_in_the_same_phase_and_each_buy_uses_a_sale() {
    let (_dir, rs) = house(BUY, &script());
    let rs = rs.unwrap();
    // Seat 0 has 2 sales (the privilege): it buys indigo (1 card: it discards statue), then may
    // sell its sugar but not the bought indigo.
    let text = "trading_tiles = [[1, 1, 1, 2, 2]]\ndeck = [\"smithy\"]\n\
                actions = [\"role trader\", \"buy indigo_plant\", \"discard statue\"]\n[[players]]\n\
                buildings = [\"trading_house\", \"indigo_plant\", \"sugar_mill\"]\ngoods = [\"sugar_mill\"]\n\
                hand = [\"well\", \"statue\"]\n[[players]]\n[expect]\npending = \"sell\"\npending_seat = 0\n\
                legal = [\"sell sugar_mill\", \"pass\"]\ngoods = [[\"indigo_plant\", \"sugar_mill\"], []]\n\
                hands = [[\"well\"], []]\n";
    let g = play(&rs, text).unwrap();
    // At the terminal the action is typed as written.
    let before = "trading_tiles = [[1, 1, 1, 2, 2]]\nactions = [\"role trader\"]\n[[players]]\n\
                  buildings = [\"trading_house\", \"indigo_plant\"]\nhand = [\"well\"]\n[[players]]\n";
    let at_sale = play(&rs, before).unwrap();
    assert_eq!(san_juan::terminal::resolve(&at_sale, "buy indigo_plant").as_deref(), Ok("buy indigo_plant"));
    // One sale used by the buy: one left.
    assert!(matches!(g.pending(), Some(san_juan::Decision::Sell { left: 1, .. })), "{:?}", g.pending());
}

#[test]
fn misused_action_keys_are_refused_where_written() {
    let cases = [
        (BUY.replace("uses = \"sell\"\n", ""), "write `uses = \\\"sell\\\"`"),
        (BUY.replace("uses = \"sell\"", "uses = \"build\""), "`uses = \"build\"`"),
        (BUY.replace("owners_of = \"trading_house\"", "owners_of = \"trading_hose\""), "did you mean `trading_house`"),
        (BUY.replace("verb = \"buy\"", "verb = \"sell\""), "`sell` is a verb of the game already"),
        (BUY.replace("decision = \"sell\"", "decision = \"turn\""), "an action is offered at one of: sell"),
        (format!("{BUY}\nends_turn = false"), "`ends_turn` is Alhambra's"),
    ];
    for (action, want) in cases {
        let (_dir, rs) = house(&action, &script());
        let err = rs.unwrap_err();
        let want = want.replace("\\\"", "\"");
        assert!(err.contains("house.toml:") && err.contains(&want), "{action}\n{err}");
    }
    let (_dir, rs) = house(BUY, "fn on_build(ctx) { 1 }\n");
    let err = rs.unwrap_err();
    assert!(err.contains("buy.rhai:1:") && err.contains("an action's script cannot define `on_build`"), "{err}");
    // A card's script with an action's hook: it would never be called.
    let dir = tempfile::tempdir().unwrap();
    let card = "script_dir = \".\"\n[[card]]\nid = \"stall\"\nname = \"Stall\"\nkind = \"city\"\ncost = 1\nvp = 1\n\
                copies = 1\nscript = \"stall.rhai\"\n";
    fs::write(dir.path().join("c.toml"), card).unwrap();
    fs::write(dir.path().join("stall.rhai"), "fn on_action(ctx) { 1 }\n").unwrap();
    let path = dir.path().join("r.toml");
    fs::write(&path, "id = \"r\"\nname = \"R\"\nextends = \"second-edition\"\nextra_sets = [\"c.toml\"]\n").unwrap();
    let err = Ruleset::load(path.to_str().unwrap()).unwrap_err().to_string();
    assert!(err.contains("stall.rhai:1:") && err.contains("`on_action` is a hook of an action's script"), "{err}");
    // A `legal` that lists what is no argument stops the game naming the script.
    let (_dir, rs) = house(BUY, "fn legal(ctx) { [\"a b\"] }\n");
    let text = "trading_tiles = [[1, 1, 1, 2, 2]]\nactions = [\"role trader\"]\n[[players]]\n\
                buildings = [\"trading_house\"]\nhand = [\"well\"]\n[[players]]\n";
    let err = play(&rs.unwrap(), text).unwrap_err();
    assert!(err.contains("buy.rhai") && err.contains("legal"), "{err}");
}
