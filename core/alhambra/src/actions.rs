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

/// The number of a word in [`Ruleset::words`], kept as two bytes so that an
/// [`Action`] stays four bytes: the base game copies and compares actions at
/// every decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WordId([u8; 2]);

impl WordId {
    /// The word with this number.
    pub fn of(w: u16) -> WordId {
        WordId(w.to_le_bytes())
    }

    /// Its number.
    pub fn get(self) -> u16 {
        u16::from_le_bytes(self.0)
    }
}

/// An action of the ruleset's own (`[[action]]`) with its arguments: their
/// texts joined by spaces, as one word of [`Ruleset::words`] (`""`: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Act {
    /// The action's index in [`Ruleset::actions`].
    pub def: u8,
    /// The arguments, as one word.
    pub args: WordId,
}

impl Act {
    /// The arguments' texts.
    pub fn arg_texts(&self, rs: &Ruleset) -> Vec<String> {
        rs.words.name(self.args.get()).split_whitespace().map(str::to_owned).collect()
    }
}

/// What a `choose` answer names: one of the options a script offered, or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// An option name (its number in [`Ruleset::words`]).
    Word(WordId),
    /// A money card.
    Money(Money),
    /// A building card.
    Building(BuildingIdx),
}

/// One atomic answer to the pending decision.
#[derive(Clone, Copy, Debug, Eq)]
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
    /// An action of the ruleset's own.
    Act(Act),
}

impl PartialEq for Action {
    /// One comparison of four bytes: legal answers are compared at every decision.
    #[inline]
    fn eq(&self, other: &Action) -> bool {
        self.key() == other.key()
    }
}

impl std::hash::Hash for Action {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Action {
    /// The action as one number: a tag per variant (and per kind of choice), then its payload.
    #[inline]
    fn key(&self) -> u32 {
        let money = |m: &Money| (u32::from(m.currency) << 8) | u32::from(m.value);
        let (tag, payload) = match self {
            Action::Take(m) => (0, money(m)),
            Action::Done => (1, 0),
            Action::Buy(slot) => (2, u32::from(*slot)),
            Action::Pay(m) => (3, money(m)),
            Action::Keep => (4, 0),
            Action::Donate => (5, 0),
            Action::Pass => (6, 0),
            Action::Choose(Pick::Word(w)) => (7, u32::from(w.get())),
            Action::Choose(Pick::Money(m)) => (8, money(m)),
            Action::Choose(Pick::Building(b)) => (9, u32::from(*b)),
            Action::Discard(m) => (10, money(m)),
            Action::Act(a) => (11, (u32::from(a.def) << 16) | u32::from(a.args.get())),
        };
        (tag << 24) | payload
    }

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
            Action::Choose(Pick::Word(w)) => format!("choose {}", rs.words.name(w.get())),
            Action::Choose(Pick::Money(m)) => format!("choose {}", rs.money_id(*m)),
            Action::Choose(Pick::Building(b)) => format!("choose {}", rs.building(*b).id),
            Action::Discard(m) => format!("discard {}", rs.money_id(*m)),
            Action::Act(a) => {
                let mut words = rs.actions[a.def as usize].verb.clone();
                words.extend(a.arg_texts(rs));
                words.join(" ")
            }
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
    rs.words.find(w).map(|w| Pick::Word(WordId::of(w))).ok_or_else(|| {
        format!(
            "`{w}` is neither a card nor an option a choice has offered; write `choose` and one of the answers listed"
        )
    })
}

/// Whether a line no game has offered yet may still be one: `choose` or an
/// action of the ruleset's own with well-spelt answers (what a script will
/// offer is not known before the game runs; its spelling is).
pub fn may_be_offered(text: &str, rs: &Ruleset) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let word_ok = |w: &&str| engine_script::words::is_option_name(w);
    if words.first() == Some(&"choose") {
        return words.len() > 1 && words[1..].iter().all(word_ok);
    }
    match engine_rules::actions::match_verb(&words, rs.actions.iter().map(|a| a.verb.as_slice())) {
        Some((_, used)) => words.len() - used <= 2 && words[used..].iter().all(word_ok),
        None => false,
    }
}

/// The money cards after a purchase's `pay`, and its `keep` or `donate` last.
fn payment_tail(words: &[&str], rs: &Ruleset, usage: &str) -> Result<Vec<Action>, String> {
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        match *w {
            "keep" | "donate" if i + 1 == words.len() => {
                out.push(if *w == "keep" { Action::Keep } else { Action::Donate })
            }
            "keep" | "donate" | "pay" => return Err(format!("unexpected `{w}`; write `{usage}`")),
            _ => out.push(Action::Pay(rs.lookup_money(w)?)),
        }
    }
    Ok(out)
}

/// Reads a line of action text.
pub fn parse_line(text: &str, rs: &Ruleset) -> Result<Line, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Err(format!("empty action; {USAGE}"));
    };
    if let Some((def, used)) = engine_rules::actions::match_verb(&words, rs.actions.iter().map(|a| a.verb.as_slice())) {
        let verb = rs.actions[def].verb.join(" ");
        // An action that buys may be followed by its payment, as a buy is: `vizier 3 pay ducat4`.
        let buys = rs.actions[def].payment.is_some();
        let end = words[used..].iter().position(|w| buys && *w == "pay").map_or(words.len(), |i| used + i);
        let args = &words[used..end];
        if args.len() > 2 {
            return Err(format!("`{verb}` takes at most two arguments"));
        }
        let joined = args.join(" ");
        let w = rs.words.find(&joined).ok_or_else(|| {
            format!("`{joined}` is not what `{verb}` takes now; write `{verb}` and one of the answers listed")
        })?;
        let mut actions = vec![Action::Act(Act { def: def as u8, args: WordId::of(w) })];
        if end < words.len() {
            actions.extend(payment_tail(&words[end + 1..], rs, &format!("{verb} <slot> pay <money>… [keep|donate]"))?);
        }
        return Ok(Line { actions, stop: false });
    }
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
            let usage = "buy <slot> pay <money>… [keep|donate]";
            match tail {
                [] => {}
                ["pay", cards @ ..] | cards @ ["keep" | "donate"] => actions.extend(payment_tail(cards, rs, usage)?),
                [w, ..] => return Err(format!("unexpected `{w}`; write `{usage}`")),
            }
        }
        _ if rs.actions.is_empty() => return Err(format!("unknown action `{verb}`; {USAGE}")),
        _ => {
            let own: Vec<String> = rs.actions.iter().map(|a| format!("{} …", a.verb.join(" "))).collect();
            return Err(format!("unknown action `{verb}`; {USAGE}; this ruleset's own: {}", own.join(", ")));
        }
    }
    Ok(Line { actions, stop })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every decision copies and compares its legal actions: the base game's
    /// instruction budget counts on four bytes, whatever the vocabulary adds.
    #[test]
    fn an_action_stays_four_bytes() {
        assert_eq!(std::mem::size_of::<Action>(), 4);
    }
}
