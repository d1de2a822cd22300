//! Actions and their text notation.
//!
//! Every decision is answered by one atomic action (`role builder`,
//! `build well`, `pay quarry`, `produce sugar_mill`, `pass`, …). For scenarios
//! and the terminal, one line may hold several: `build library pay well
//! smithy spend indigo_plant` or `produce sugar_mill tobacco_storage`.

use std::fmt;

use serde::Serialize;

use crate::cards::{CardIdx, CardTable};

/// The five roles. Their mechanics are Rust; their numbers are ruleset data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Role {
    Builder,
    Producer,
    Trader,
    Councillor,
    Prospector,
}

impl Role {
    /// All roles, in the order they lie on the table.
    pub const ALL: [Role; 5] = [Role::Builder, Role::Producer, Role::Trader, Role::Councillor, Role::Prospector];

    /// The lowercase name used in actions and scripts.
    pub fn name(self) -> &'static str {
        match self {
            Role::Builder => "builder",
            Role::Producer => "producer",
            Role::Trader => "trader",
            Role::Councillor => "councillor",
            Role::Prospector => "prospector",
        }
    }

    /// Reads a role name.
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == s)
    }

    /// Bit of this role in a set of roles.
    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// One atomic answer to the pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Choose a role; `boost: false` declines a once-per-round privilege boost (2-player library).
    Role {
        /// The role.
        role: Role,
        /// Use the privilege boost.
        boost: bool,
    },
    /// Build a card from the hand (or a public card), optionally over an own building.
    Build {
        /// The card to build.
        card: CardIdx,
        /// The own building to cover.
        over: Option<CardIdx>,
    },
    /// Pay one card of the building cost from the hand.
    Pay(CardIdx),
    /// Pay one card of the building cost with the good on this building.
    Spend(CardIdx),
    /// Pay one card of the building cost with the good on this building of
    /// another seat's (`spend sugar_mill@1`; an `on_build_options` `goods_of`).
    SpendOf(CardIdx, u8),
    /// Put a good on an empty building of this type.
    Produce(CardIdx),
    /// Sell the good on a building of this type.
    Sell(CardIdx),
    /// Keep one of the offered cards.
    Keep(CardIdx),
    /// Discard one hand card.
    Discard(CardIdx),
    /// Put one hand card under the building making the offer.
    Tuck(CardIdx),
    /// Choose one of a script's named options (the number of its name, see
    /// [`CardTable::word_name`]).
    Choose(u16),
    /// Choose one card for a script's `choose_cards`.
    Pick(CardIdx),
    /// Give one hand card (a script's `give`).
    Give(CardIdx),
    /// Decline, or stop (produce, sell, tuck fewer than allowed).
    Pass,
    /// One of the ruleset's own actions (`[[action]]`), with its arguments.
    Act(Act),
}

/// One of the ruleset's own actions with its arguments: small, so that an
/// [`Action`] stays four bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Act {
    /// The action, by its place in the ruleset's `[[action]]` list.
    pub def: u8,
    /// Its arguments as written (`coffee_roaster`), an option name of the card
    /// table ([`CardTable::word_name`]); [`Act::NO_ARGS`] for none.
    pub args: u16,
}

impl Act {
    /// No argument.
    pub const NO_ARGS: u16 = u16::MAX;

    /// The arguments as written, one word each.
    pub fn arg_texts(&self, cards: &CardTable) -> Vec<String> {
        if self.args == Act::NO_ARGS {
            return Vec::new();
        }
        cards.word_name(self.args).split_whitespace().map(str::to_owned).collect()
    }
}

impl Action {
    /// The action as text, with card ids from `cards`.
    pub fn text(&self, cards: &CardTable) -> String {
        let id = |c: &CardIdx| cards.id(*c).to_owned();
        match self {
            Action::Role { role, boost: true } => format!("role {}", role.name()),
            Action::Role { role, boost: false } => format!("role {} plain", role.name()),
            Action::Build { card, over: None } => format!("build {}", id(card)),
            Action::Build { card, over: Some(o) } => format!("build {} over {}", id(card), id(o)),
            Action::Pay(c) => format!("pay {}", id(c)),
            Action::Spend(c) => format!("spend {}", id(c)),
            Action::SpendOf(c, seat) => format!("spend {}@{seat}", id(c)),
            Action::Produce(c) => format!("produce {}", id(c)),
            Action::Sell(c) => format!("sell {}", id(c)),
            Action::Keep(c) => format!("keep {}", id(c)),
            Action::Discard(c) => format!("discard {}", id(c)),
            Action::Tuck(c) => format!("tuck {}", id(c)),
            Action::Choose(w) => format!("choose {}", cards.word_name(*w)),
            Action::Pick(c) => format!("choose {}", id(c)),
            Action::Give(c) => format!("give {}", id(c)),
            Action::Pass => "pass".to_owned(),
            Action::Act(a) => {
                let verb = cards.verbs.get(usize::from(a.def)).map_or("act".to_owned(), |v| v.join(" "));
                if a.args == Act::NO_ARGS { verb } else { format!("{verb} {}", cards.word_name(a.args)) }
            }
        }
    }

    /// True for the actions that continue a decision that may stop early.
    pub(crate) fn may_stop_after(&self) -> bool {
        matches!(self, Action::Produce(_) | Action::Sell(_) | Action::Tuck(_) | Action::Keep(_))
    }
}

/// A line of action text: one or more atomic actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The atomic actions in order.
    pub actions: Vec<Action>,
    /// Stop the decision after these (`produce a` means "only a").
    pub stop: bool,
}

/// Reads a line of action text.
pub fn parse_line(text: &str, cards: &CardTable) -> Result<Line, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Err("empty action; write e.g. `pass` or `role builder`".into());
    };
    let card = |w: &str| cards.lookup(w);
    let cards_of = |ws: &[&str]| ws.iter().map(|w| card(w)).collect::<Result<Vec<_>, _>>();
    // `spend b` is one's own good; `spend b@s` the good on seat s's b.
    let spend = |w: &str| -> Result<Action, String> {
        let Some((b, seat)) = w.split_once('@') else { return Ok(Action::Spend(card(w)?)) };
        let seat = seat.parse::<u8>().ok().filter(|&s| usize::from(s) < crate::limits::MAX_PLAYERS as usize);
        let seat = seat.ok_or_else(|| format!("`{w}`: after `@` write the seat whose good it is, a number from 0"))?;
        Ok(Action::SpendOf(card(b)?, seat))
    };
    let mut actions = Vec::new();
    let mut stop = false;
    // The ruleset's own verbs first: the longest that starts the line (`sell back` before `sell`).
    if let Some((def, n)) = engine_rules::actions::match_verb(&words, cards.verbs.iter().map(Vec::as_slice)) {
        let rest = &words[n..];
        if rest.len() > 2 {
            return Err(format!("`{}` takes at most two arguments", words[..n].join(" ")));
        }
        let args = if rest.is_empty() {
            Act::NO_ARGS
        } else {
            cards.word(&rest.join(" ")).ok_or("too many different arguments in this ruleset")?
        };
        return Ok(Line { actions: vec![Action::Act(Act { def: def as u8, args })], stop: false });
    }
    match verb {
        "pass" if rest.is_empty() => actions.push(Action::Pass),
        "role" => {
            let (name, plain) = match rest {
                [name] => (*name, false),
                [name, "plain"] => (*name, true),
                _ => return Err("write `role <role>` or `role <role> plain`".into()),
            };
            let role = Role::parse(name).ok_or_else(|| {
                format!("unknown role `{name}`; roles: builder, producer, trader, councillor, prospector")
            })?;
            actions.push(Action::Role { role, boost: !plain });
        }
        "build" => {
            let Some((&target, mut tail)) = rest.split_first() else {
                return Err("write `build <card> [over <building>] [pay <card>…] [spend <building>…]`".into());
            };
            let target = card(target)?;
            let mut over = None;
            if let ["over", b, more @ ..] = tail {
                over = Some(card(b)?);
                tail = more;
            }
            actions.push(Action::Build { card: target, over });
            let mut mode = "";
            for w in tail {
                match *w {
                    "pay" | "spend" => mode = w,
                    _ if mode == "pay" => actions.push(Action::Pay(card(w)?)),
                    _ if mode == "spend" => actions.push(spend(w)?),
                    _ => return Err(format!("unexpected `{w}`; after the card write `over`, `pay` or `spend`")),
                }
            }
        }
        // An option a script offered, else a card: the game maps one to the other if need be.
        "choose" if !rest.is_empty() => {
            for w in rest {
                match (cards.find_word(w), card(w)) {
                    (Some(word), _) => actions.push(Action::Choose(word)),
                    (None, Ok(c)) => actions.push(Action::Pick(c)),
                    (None, Err(_)) => {
                        return Err(format!(
                            "`{w}` is neither an option offered nor a card; write `choose <option>` or `choose <card>…`"
                        ));
                    }
                }
            }
        }
        "spend" if !rest.is_empty() => {
            for w in rest {
                actions.push(spend(w)?);
            }
        }
        "pay" | "spend" | "produce" | "sell" | "keep" | "discard" | "tuck" | "give" if !rest.is_empty() => {
            let make: fn(CardIdx) -> Action = match verb {
                "pay" => Action::Pay,
                "spend" => Action::Spend,
                "produce" => Action::Produce,
                "sell" => Action::Sell,
                "keep" => Action::Keep,
                "discard" => Action::Discard,
                "give" => Action::Give,
                _ => Action::Tuck,
            };
            actions.extend(cards_of(rest)?.into_iter().map(make));
            stop = matches!(verb, "produce" | "sell" | "tuck");
        }
        "pay" | "spend" | "produce" | "sell" | "keep" | "discard" | "tuck" | "give" | "choose" => {
            let what = match verb {
                "spend" | "produce" | "sell" => "building",
                "choose" => "option or card",
                _ => "card",
            };
            return Err(format!("`{verb}` needs a {what}: write `{verb} <{what}>`"));
        }
        _ => {
            let own: Vec<String> = cards.verbs.iter().map(|v| v.join(" ")).collect();
            let own = if own.is_empty() { String::new() } else { format!(", and this ruleset's {}", own.join(", ")) };
            return Err(format!(
                "unknown action `{verb}`; actions: role, build, pay, spend, produce, sell, keep, discard, tuck, give, choose, pass{own}"
            ));
        }
    }
    Ok(Line { actions, stop })
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
