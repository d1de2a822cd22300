//! Money cards as cards: a currency with its own values and copies, a
//! `[[money_card]]` with its own id, currency, value and script, and a
//! `[[deck_card]]` that acts when drawn, each played, saved and read back,
//! refused where it is wrong, and learned by the balance bot like the
//! printed money.

use std::path::PathBuf;
use std::sync::Arc;

use alhambra::files::Source;
use alhambra::scenario::Scenario;
use alhambra::{Action, Game};
use engine_game::run::play_game;

use crate::rulesets::{load, tree};

const HEAD: &str = "id = \"p\"\ngame = \"alhambra\"\nname = \"P\"\nextends = \"alhambra\"\n";
const PRINTED: &str = "{ id = \"denar\", name = \"denars\" },\n  { id = \"dirham\", name = \"dirhams\" },\n  \
                       { id = \"ducat\", name = \"ducats\" },\n  { id = \"florin\", name = \"florins\" },\n";

/// Plays random legal actions to the end, the census checked after each.
fn play_random(game: &mut Game, seed: u64) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let expected = game.census_expected();
    while !game.is_over() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let legal = game.legal_actions();
        let a: Action = legal[(x % legal.len() as u64) as usize];
        game.apply(a).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.census(), expected, "every card in exactly one place");
    }
}

/// Two new currencies with values and copies of their own (not the corpus's
/// shekels): their cards, their copies with two players, their ids, and games
/// at two players in which every card stays in one place.
#[test]
fn two_small_currencies_with_their_own_values_at_two_players() {
    let money = format!(
        "[money]\ncurrencies = [\n  {PRINTED}  {{ id = \"shekel\", name = \"shekels\", values = [1, 2, 3, 4] }},\n  \
         {{ id = \"obol\", name = \"obols\", values = [5, 10], copies = 2 }},\n]\nvalues = [1, 2, 3, 4, 5, 6, 7, 8, 9]\n\
         copies = 3\n[yard]\nslots = [\"denar\", \"dirham\", \"ducat\", \"florin\", \"obol\"]\n"
    );
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{money}"))]);
    let rs = load(&root, "cards/p.toml").unwrap();
    // 4 × 9 × 3 printed, 4 shekels × 3, 2 obols × 2; with two players one copy fewer each (obols: 1).
    assert_eq!(rs.money_cards(3), 108 + 12 + 4);
    assert_eq!(rs.money_cards(2), 72 + 8 + 2);
    assert_eq!(rs.money_id(rs.lookup_money("obol10").unwrap()), "obol10");
    assert_eq!(rs.lookup_money("obol7").unwrap_err(), "there is no money card `obol7`: obols come in values 5, 10");
    assert!(rs.lookup_money("shekel5").unwrap_err().contains("shekels come in values 1, 2, 3, 4"));
    let obol10 = rs.kind_of(rs.lookup_money("obol10").unwrap());
    for seed in 0..6 {
        let mut game = Game::new(Arc::clone(&rs), 2, seed).unwrap();
        assert_eq!(game.census()[obol10], 1, "one obol10 with two players");
        play_random(&mut game, seed);
    }
}

/// A money card of no currency and no script (a blank), taken in a game,
/// saved, and read back: the saved game replays to the same state.
#[test]
fn a_money_card_with_no_currency_in_a_saved_game_reads_back() {
    use alhambra::saved::SavedGame;
    let card = "[[money_card]]\nid = \"blank\"\nname = \"Blank\"\ncurrency = \"none\"\nvalue = 1\ncopies = 6\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{card}"))]);
    let rs = load(&root, "cards/p.toml").unwrap();
    assert_eq!(rs.money_cards(3), 114);
    assert_eq!(rs.money_cards(2), 72 + 5);
    let mut taken = 0;
    for index in 0..6 {
        let bots = vec!["random".to_owned(), "greedy".to_owned(), "random".to_owned()];
        let (record, game) = play_game::<Game>(&rs, &bots, 3, index, true, &engine_game::Models::default()).unwrap();
        let saved = SavedGame::of(&game, "p", record.seed, bots.clone());
        taken += saved.actions.iter().filter(|a| a.contains("blank")).count();
        let source = Source::Disk(format!("saved-{index}.toml").into());
        let back = SavedGame::parse(&source, &saved.to_toml()).unwrap();
        assert_eq!(back, saved);
        let (again, _) = back.replay_with(Arc::clone(&rs), &source, false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.view(None), game.view(None));
        assert_eq!(again.census(), game.census());
    }
    assert!(taken > 0, "some game took a blank");
    // Never paid: a blank cannot pay for any slot.
    let text = format!(
        "ruleset = {:?}\nbuilding_display = [\"pavilion2\", \"seraglio3\", \"garden10\", \"tower7\"]\n\
         money_display = [\"denar2\", \"dirham3\", \"ducat1\", \"florin6\"]\nactions = [\"buy 1 pay blank\"]\n\
         [[players]]\nhand = [\"blank\", \"denar1\", \"denar2\"]\n[[players]]\n[[players]]\n",
        root.path().join("cards/p.toml").to_str().unwrap()
    );
    let s = Scenario::parse(Source::Disk(root.path().join("s.toml")), text).unwrap();
    let mut game = s.setup(s.ruleset().unwrap()).unwrap();
    let err = game.apply_text("buy 1 pay blank").unwrap_err().to_string();
    assert!(err.contains("blank is no currency, but pavilion2 in slot 1 is paid in denars"), "{err}");
}

fn corpus(design: &str, scenario: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/alhambra")
        .join(design)
        .join("scenarios")
        .join(scenario);
    Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The joker: refused as the first card with its reason; worth what is
/// missing after ducat6 (4, not its face value 3); never more than 4.
#[test]
fn a_joker_is_refused_first_and_worth_what_is_missing() {
    let s = corpus("joker", "joker_completes_exactly.toml");
    let rs = s.ruleset().unwrap();
    let mut game = s.setup(Arc::clone(&rs)).unwrap();
    game.apply_text("buy 3").unwrap();
    // A front end names it by its name, and offers it only once a first card is paid.
    let labels = |g: &Game| g.legal_views().into_iter().map(|v| v.label).collect::<Vec<_>>();
    assert_eq!(labels(&game), ["Pay with 6 ducats", "Pay with 1 ducat"]);
    let err = game.apply_text("pay joker").unwrap_err().to_string();
    assert!(err.contains("joker may not be paid now: its `can_pay` refuses it (0 of 10 paid so far"), "{err}");
    game.apply_text("pay ducat6").unwrap();
    assert_eq!(labels(&game), ["Pay with Joker", "Pay with 1 ducat"], "in hand order");
    // ducat6 then the joker: 6 + 4 = 10 exact, although it counts 3 when taken (6 + 3 would still owe 1).
    game.apply_text("pay joker").unwrap();
    assert_eq!(game.player(0).buildings.len(), 1);
    assert_eq!(game.pending().map(|d| d.seat()), Some(0), "paid exactly: another action");
    assert_eq!(game.player(0).hand().iter().map(|&m| rs.money_id(m)).collect::<Vec<_>>(), ["ducat1"]);
}

/// Money hooks belong to money scripts, `on_drawn` to deck cards: each
/// refused elsewhere at the function, with what the script may define.
#[test]
fn money_and_deck_hooks_are_refused_in_other_scripts() {
    let bazaar = "[[building]]\nid = \"garden\"\nscript = \"b.rhai\"\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{bazaar}")), ("cards/b.rhai", "fn can_pay(ctx) { true }\n")]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("building type garden may not define `can_pay`"), "{err}");
    let deck = "[[deck_card]]\nid = \"storm\"\nname = \"Storm\"\npile = 2\nscript = \"d.rhai\"\n";
    let root =
        tree(&[("cards/p.toml", &format!("{HEAD}{deck}")), ("cards/d.rhai", "// storm\nfn on_taken(ctx) { () }\n")]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("deck card storm may not define `on_taken`") && err.contains("d.rhai:2:"), "{err}");
    assert!(err.contains("it may define: on_drawn ("), "{err}");
    let card = "[[money_card]]\nid = \"joker\"\nname = \"Joker\"\ncurrency = \"any\"\nvalue = 3\nscript = \"j.rhai\"\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{card}")), ("cards/j.rhai", "fn on_drawn(ctx) { () }\n")]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("money card joker may not define `on_drawn`"), "{err}");
    // A deck card in a pile the deck does not have, a money card of an unknown currency.
    let bad = "[[money_card]]\nid = \"joker\"\nname = \"J\"\ncurrency = \"gold\"\n[[deck_card]]\nid = \"storm\"\nname = \"S\"\npile = 6\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{bad}"))]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("p.toml:8:12") && err.contains("`gold` is not a currency"), "{err}");
    assert!(err.contains("pile 6: the money deck is cut into 5 piles"), "{err}");
}

/// A deck card without a script is drawn, leaves the game, and the refill
/// goes on; two caravans' draws in one refill both happen.
#[test]
fn a_deck_card_leaves_the_game_when_drawn() {
    let s = corpus("caravan_event", "everyone_draws.toml");
    let rs = s.ruleset().unwrap();
    let mut game = s.setup(Arc::clone(&rs)).unwrap();
    let before = game.deck_size();
    game.apply_text("take florin6").unwrap();
    // The caravan, three draws and florin3 left the deck.
    assert_eq!(game.deck_size(), before - 5);
    assert_eq!(game.census(), game.census_expected());
    for seed in 0..4 {
        let mut game = Game::new(Arc::clone(&rs), 2 + seed as usize, seed).unwrap();
        play_random(&mut game, seed);
    }
}

/// The balance bot learns on a ruleset with jokers and plays them: its
/// games end, and the learned model's money weight is a number.
#[test]
fn the_balance_bot_learns_on_a_ruleset_with_a_joker() {
    use engine_game::Game as _;
    use engine_game::Rules as _;
    let s = corpus("joker", "joker_completes_exactly.toml");
    let rs = s.ruleset().unwrap();
    let schedule = engine_play::value::Schedule { games: 60, rounds: 1, ..Default::default() };
    let model = engine_game::models::learn::<Game>(&rs, vec![2], schedule, None).unwrap();
    assert!(model.weight("money").is_finite());
    let models = engine_game::Models::default();
    models.get_or_learn(Game::ID, rs.fingerprint(), || Ok(model)).unwrap();
    let bots = vec!["balance".to_owned(), "greedy".to_owned(), "random".to_owned()];
    let mut jokers_paid = 0;
    for i in 0..4 {
        let (_, game) = play_game::<Game>(&rs, &bots, 9, i, true, &models).unwrap_or_else(|e| panic!("{e}"));
        assert!(game.is_over() && !game.stalled());
        let saved = alhambra::saved::SavedGame::of(&game, "j", 9, bots.clone());
        jokers_paid += saved.actions.iter().filter(|a| a.contains("pay") && a.contains("joker")).count();
    }
    assert!(jokers_paid > 0, "some bot paid with a joker");
}

/// A thief without the `move` the corpus's wants (the lead's): taken, its
/// `extra_take` lets its taker take florin9 past the limit of 5 (refused
/// without it), and after that card the take ends; a card that is not past
/// the limit does not use the extra take up.
#[test]
fn extra_take_lets_a_thief_take_one_card_past_the_limit() {
    let card = "[[money_card]]\nid = \"thief\"\nname = \"Thief\"\nvalue = 0\ncopies = 4\nscript = \"t.rhai\"\n";
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{card}")),
        ("cards/t.rhai", "fn on_taken(ctx) { #{ extra_take: 1, ignore_limit: true } }\n"),
    ]);
    let ruleset = root.path().join("cards/p.toml");
    let scenario = |display: &str| {
        let text = format!(
            "ruleset = {:?}\nmoney_display = [{display}]\ndeck = [\"denar1\", \"dirham1\", \"ducat1\"]\n\
             [[players]]\n[[players]]\n[[players]]\n",
            ruleset.to_str().unwrap()
        );
        let s = Scenario::parse(Source::Disk(root.path().join("s.toml")), text).unwrap();
        s.setup(s.ruleset().unwrap()).unwrap()
    };
    let rs = load(&root, "cards/p.toml").unwrap();
    let hand = |g: &Game| g.player(0).hand().iter().map(|&m| rs.money_id(m)).collect::<Vec<_>>();
    let mut game = scenario("\"denar2\", \"ducat3\", \"thief\", \"florin9\"");
    game.apply_text("take denar2 ducat3 thief florin9").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(hand(&game), ["denar2", "ducat3", "thief", "florin9"]);
    assert_eq!(game.pending().map(|d| d.seat()), Some(1), "past the limit, the take ends");
    // Without the thief, florin9 after 5 is refused.
    let mut game = scenario("\"denar2\", \"ducat3\", \"dirham2\", \"florin9\"");
    let err = game.apply_text("take denar2 ducat3 florin9").unwrap_err().to_string();
    assert!(err.contains("would make 14, more than 5"), "{err}");
    // The thief, then denar2 and ducat3 (within the limit): florin9 may still come.
    let mut game = scenario("\"thief\", \"denar2\", \"ducat3\", \"florin9\"");
    game.apply_text("take thief denar2 ducat3 florin9").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(hand(&game), ["thief", "denar2", "ducat3", "florin9"]);
    // A line that ends while an extra take is owed does not give it up: the next line takes it.
    let mut game = scenario("\"thief\", \"florin9\", \"denar2\", \"ducat3\"");
    game.apply_text("take thief").unwrap();
    game.apply_text("take florin9").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(hand(&game), ["thief", "florin9"]);
    assert_eq!(game.pending().map(|d| d.seat()), Some(1));
    assert!(
        check_refuses("fn on_taken(ctx) { #{ extra_take: 1, ignore_limt: true } }\n")
            .contains("did you mean `ignore_limit`?")
    );
}

/// What `check` says of a thief whose script is `text`.
fn check_refuses(text: &str) -> String {
    let card = "[[money_card]]\nid = \"thief\"\nname = \"Thief\"\nscript = \"t.rhai\"\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{card}")), ("cards/t.rhai", text)]);
    load(&root, "cards/p.toml").unwrap_err()
}
