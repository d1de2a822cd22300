//! Illegal actions say why and what is legal: not this seat's turn, a take
//! past the limit written on one line, a wrong action for the decision.

use std::path::PathBuf;

use alhambra::GameError;
use alhambra::files::Source;
use alhambra::scenario::Scenario;

fn position(text: &str) -> alhambra::Game {
    let s = Scenario::parse(Source::Disk(PathBuf::from("inline.toml")), text.to_owned()).unwrap();
    s.run().unwrap().game
}

const THREE: &str = r#"
building_display = ["pavilion2", "seraglio3", "garden10", "tower7"]
money_display = ["denar2", "dirham3", "ducat1", "florin6"]
[[players]]
hand = ["ducat5", "denar9"]
[[players]]
[[players]]
"#;

#[test]
fn not_your_turn_names_whose_turn_it_is() {
    let mut game = position(THREE);
    let a = game.legal_actions()[0];
    let e = game.apply_as(1, a).unwrap_err().to_string();
    assert!(e.contains("it is seat 0's turn, not seat 1's: seat 0 must take money or buy a building"), "{e}");
    assert!(e.contains("legal now: take denar2, take dirham3, take ducat1, take florin6, buy 1"), "{e}");
    game.apply_as(0, a).unwrap();
}

#[test]
fn a_line_that_takes_past_the_limit_says_so() {
    let mut game = position(THREE);
    let e = game.apply_text("take denar2 dirham3 ducat1").unwrap_err();
    let GameError::Illegal { why, .. } = &e else { panic!("{e}") };
    assert_eq!(
        why,
        "seat 0 has taken 5 this turn; ducat1 would make 6, more than 5, so seat 0's turn is over; now seat 1 must take money or buy a building"
    );
}

#[test]
fn wrong_decisions_and_unknown_cards() {
    let mut game = position(THREE);
    let e = game.apply_text("pay ducat5").unwrap_err().to_string();
    assert!(e.contains("seat 0 must take money or buy a building, not pay"), "{e}");
    let e = game.apply_text("take ducat9").unwrap_err().to_string();
    assert!(e.contains("there is no ducat9 on the money display (it shows denar2, dirham3, ducat1, florin6)"), "{e}");
    let e = game.apply_text("buy 5").unwrap_err().to_string();
    assert!(e.contains("`5` is not a display slot; slots are numbered 1 to 4"), "{e}");
    let e = game.apply_text("take euro5").unwrap_err().to_string();
    assert!(e.contains("unknown money card `euro5`"), "{e}");
    let e = game.apply_text("donate").unwrap_err().to_string();
    assert!(e.contains("only with two players is a bought building kept or donated"), "{e}");
    let e = game.apply_text("done").unwrap_err().to_string();
    assert!(e.contains("has taken nothing"), "{e}");
    let e = game.apply_text("pass").unwrap_err().to_string();
    assert!(e.contains("`pass` is only for when neither is possible"), "{e}");
}

/// With nothing to take and nothing affordable, `pass` is the only answer: it
/// is made automatically, and the turn passes on (the display is refilled).
#[test]
fn nothing_to_take_or_buy_passes() {
    let game = position(
        r#"
money_display = []
building_display = ["pavilion8", "seraglio9", "garden10", "tower7"]
[[players]]
hand = ["ducat5"]
[[players]]
"#,
    );
    assert_eq!(game.pending().unwrap().seat(), 1);
    assert_eq!(game.money_display().len(), 4);
    assert_eq!(game.turns(), 2);
}
