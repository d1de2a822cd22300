//! Actions and their text notation.
//!
//! Every decision is answered by one atomic action: `take denar3`, `done`,
//! `buy 3`, `pay ducat5`, `keep`, `donate`, `pass`. For scenarios and the
//! terminal one line may hold several: `take denar3 ducat2` (exactly these
//! cards: the taking stops after them), `buy 3 pay ducat5 ducat4 keep`.
//! Display slots are numbered from 1, left to right. A script's choice is
//! answered with `choose <option or card>` (one card at a time) or `pass`,
//! and its `discard_money` with `discard <money>`.

use crate::ruleset::{BuildingIdx, Money, Ruleset};

/// What a `choose` answer names: one of the options a script offered, or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// An option name (its number in [`Ruleset::words`]).
    Word(u16),
    /// A money card.
    Money(Money),
    /// A building card.
    Building(BuildingIdx),
}

/// One atomic answer to the pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take this money card from the display.
    Take(Money),
    /// Stop taking money (the turn ends).
    Done,
    /// Buy the building in this display slot (from 0; written from 1).
    Buy(u8),
    /// Pay one money card towards the building being bought.
    Pay(Money),
    /// Two players: keep the bought building.
    Keep,
    /// Two players: give the bought building to the neutral collector.
    Donate,
    /// Neither take nor buy is possible: the turn ends; or an optional choice stops.
    Pass,
    /// Answer a script's choice with an option or one card.
    Choose(Pick),
    /// Discard this money card from the hand (a script's `discard_money`).
    Discard(Money),
}

impl Action {
    /// The action as text.
    pub fn text(&self, rs: &Ruleset) -> String {
        match self {
            Action::Take(m) => format!("take {}", rs.money_id(*m)),
            Action::Done => "done".into(),
            Action::Buy(slot) => format!("buy {}", slot + 1),
            Action::Pay(m) => format!("pay {}", rs.money_id(*m)),
            Action::Keep => "keep".into(),
            Action::Donate => "donate".into(),
            Action::Pass => "pass".into(),
            Action::Choose(Pick::Word(w)) => format!("choose {}", rs.words.name(*w)),
            Action::Choose(Pick::Money(m)) => format!("choose {}", rs.money_id(*m)),
            Action::Choose(Pick::Building(b)) => format!("choose {}", rs.building(*b).id),
            Action::Discard(m) => format!("discard {}", rs.money_id(*m)),
        }
    }
}

/// A line of action text: one or more atomic actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The atomic actions in order.
    pub actions: Vec<Action>,
    /// Stop the decision after these (`take denar3` means "only that card").
    pub stop: bool,
}

const USAGE: &str = "actions: take <money>…, done, buy <slot> [pay <money>…] [keep|donate], pay <money>…, keep, donate, \
                     pass, choose <option or card>…, discard <money>…";

/// What `choose <word>` names: a money card, a building card, or an option a script offered.
fn pick(w: &str, rs: &Ruleset) -> Result<Pick, String> {
    if let Ok(m) = rs.lookup_money(w) {
        return Ok(Pick::Money(m));
    }
    if let Ok(b) = rs.lookup_building(w) {
        return Ok(Pick::Building(b));
    }
    rs.words.find(w).map(Pick::Word).ok_or_else(|| {
        format!(
            "`{w}` is neither a card nor an option a choice has offered; write `choose` and one of the answers listed"
        )
    })
}

/// Reads a line of action text.
pub fn parse_line(text: &str, rs: &Ruleset) -> Result<Line, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Err(format!("empty action; {USAGE}"));
    };
    let money = |w: &str| rs.lookup_money(w);
    let mut actions = Vec::new();
    let mut stop = false;
    let slots = rs.building_display();
    match verb {
        "done" | "keep" | "donate" | "pass" if !rest.is_empty() => {
            return Err(format!("`{verb}` takes nothing after it"));
        }
        "done" => actions.push(Action::Done),
        "keep" => actions.push(Action::Keep),
        "donate" => actions.push(Action::Donate),
        "pass" => actions.push(Action::Pass),
        "choose" if rest.is_empty() => return Err("write `choose <option or card>…`, e.g. `choose denar3`".into()),
        "take" | "pay" | "discard" if rest.is_empty() => {
            return Err(format!("write `{verb} <money card>…`, e.g. `{verb} denar3`"));
        }
        "take" => {
            for w in rest {
                actions.push(Action::Take(money(w)?));
            }
            stop = true;
        }
        "pay" => {
            for w in rest {
                actions.push(Action::Pay(money(w)?));
            }
        }
        "discard" => {
            for w in rest {
                actions.push(Action::Discard(money(w)?));
            }
        }
        "choose" => {
            for w in rest {
                actions.push(Action::Choose(pick(w, rs)?));
            }
        }
        "buy" => {
            let Some((&slot, tail)) = rest.split_first() else {
                return Err(format!("write `buy <slot>` with a display slot from 1 to {slots}"));
            };
            let n = slot.parse::<usize>().ok().filter(|n| (1..=slots).contains(n)).ok_or_else(|| {
                format!("`{slot}` is not a display slot; slots are numbered 1 to {slots}, left to right")
            })?;
            actions.push(Action::Buy((n - 1) as u8));
            let mut paying = false;
            for (i, w) in tail.iter().enumerate() {
                match *w {
                    "pay" if !paying => paying = true,
                    "keep" | "donate" if i + 1 == tail.len() => {
                        actions.push(if *w == "keep" { Action::Keep } else { Action::Donate })
                    }
                    _ if paying => actions.push(Action::Pay(money(w)?)),
                    _ => return Err(format!("unexpected `{w}`; write `buy <slot> pay <money>… [keep|donate]`")),
                }
            }
        }
        _ => return Err(format!("unknown action `{verb}`; {USAGE}")),
    }
    Ok(Line { actions, stop })
}
