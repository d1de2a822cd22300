//! Why an action is illegal, in the words a player would use.

use super::{Decision, Game, list_or_nothing};
use crate::actions::Action;
use crate::error::GameError;
use crate::ruleset::{BuildingIdx, Money};

impl Game {
    pub(super) fn illegal(&self, action: Action, why: String) -> GameError {
        GameError::Illegal {
            action: action.text(&self.rs),
            why,
            legal: self.legal.iter().map(|a| a.text(&self.rs)).collect(),
        }
    }

    /// Why `seat` may not act now (`None`: it is its decision).
    pub fn not_your_turn(&self, seat: usize) -> Option<String> {
        match &self.pending {
            None => Some("the game is over; no decision is pending".into()),
            Some(d) if d.seat() != seat => Some(format!(
                "it is seat {}'s turn, not seat {seat}'s: seat {} must {}",
                d.seat(),
                d.seat(),
                self.task(d)
            )),
            Some(_) => None,
        }
    }

    /// What the seat of decision `d` must do, in words: `take money or buy a building`.
    pub fn task(&self, d: &Decision) -> String {
        let rs = &self.rs;
        match *d {
            Decision::Turn { .. } => "take money or buy a building".into(),
            Decision::Take { taken, .. } => {
                format!("take more money (up to {} in all) or say done", self.take_limit().max(taken))
            }
            Decision::Pay { slot, paid, .. } => {
                let (b, price) = self.slot_building(slot);
                format!(
                    "pay {} more {} for {} in slot {}",
                    price.saturating_sub(paid),
                    rs.currency_name(rs.yard[slot as usize]),
                    rs.building(b).id,
                    slot + 1
                )
            }
            Decision::Donate { slot, .. } => {
                let (b, _) = self.slot_building(slot);
                format!("keep {} or donate it to {}", rs.building(b).id, rs.two_players.neutral)
            }
            Decision::OutOfTurn { ended, .. } => {
                let verbs: Vec<String> = rs
                    .actions
                    .iter()
                    .filter(|a| a.at == crate::ruleset::ActionAt::OtherTurnEnd)
                    .map(|a| a.verb.join(" "))
                    .collect();
                format!("seat {ended}'s turn ended: {} out of turn, or pass", verbs.join(" or "))
            }
            Decision::PayAny { paid, .. } => {
                let p = self.purchase.expect("a purchase in any one currency");
                let currency = p.currency.map_or("any one currency".to_owned(), |c| rs.currency_name(c).to_string());
                let from = match p.source {
                    super::custom::Source::Slot(k) => format!("in slot {}", k + 1),
                    super::custom::Source::Reserve(_) => "from the reserve".into(),
                };
                format!(
                    "pay {} more in {currency} for {} {from}",
                    p.price.saturating_sub(paid),
                    rs.building(p.building).id
                )
            }
            Decision::Choose { .. } | Decision::Discard { .. } => self.ask_task(),
        }
    }

    /// The building in a display slot that a pending purchase refers to, and its price.
    #[inline]
    pub(crate) fn slot_building(&self, slot: u8) -> (BuildingIdx, u32) {
        if slot == super::ASIDE {
            return self.purchase_building();
        }
        let b = self.building_display[slot as usize].expect("a building in the slot being bought");
        (b, self.price_at(slot))
    }

    /// [`Game::slot_building`] of the purchase in any one currency: out of the base game's way.
    #[cold]
    #[inline(never)]
    fn purchase_building(&self) -> (BuildingIdx, u32) {
        let p = self.purchase.expect("a purchase in any one currency");
        (p.building, p.price)
    }

    /// Why `action` is not a legal answer to the pending decision, in words;
    /// `None` if it is legal.
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.legal.contains(&action) {
            return None;
        }
        let Some(d) = self.pending else {
            return Some("the game is over; no decision is pending".into());
        };
        let rs = &self.rs;
        let seat = d.seat();
        let id = |m: Money| rs.money_id(m);
        let limit = self.take_limit();
        let not_shown = |m: Money| {
            let shown: Vec<String> = self.money_display.iter().map(|&m| id(m)).collect();
            format!("there is no {} on the money display (it shows {})", id(m), list_or_nothing(&shown))
        };
        let why = match (d, action) {
            (Decision::Turn { .. }, Action::Take(m)) => not_shown(m),
            (Decision::Take { taken, .. }, Action::Take(m)) => {
                if !self.money_display.contains(&m) {
                    not_shown(m)
                } else {
                    format!(
                        "seat {seat} has taken {taken} this turn; {} would make {}, more than {limit} (one card may be worth more, several cards together at most {limit})",
                        id(m),
                        taken + u32::from(m.value)
                    )
                }
            }
            (Decision::Turn { .. }, Action::Buy(slot)) => match self.building_display.get(slot as usize) {
                None => format!("there is no slot {}; slots are 1 to {}", slot + 1, self.building_display.len()),
                Some(None) => format!("slot {} of the building display is empty", slot + 1),
                Some(Some(b)) if self.holds_odd_money(seat) => {
                    let c = rs.yard[slot as usize];
                    let most = self.most_payable(seat, slot).unwrap_or(0);
                    format!(
                        "{} in slot {} costs {} {}; seat {seat} can pay at most {most} with the cards it holds \
                         (its money cards' scripts say when they may be paid and what they are worth)",
                        rs.building(*b).id,
                        slot + 1,
                        self.price_at(slot),
                        rs.currency_name(c),
                    )
                }
                Some(Some(b)) => {
                    let c = rs.yard[slot as usize];
                    let def = rs.building(*b);
                    format!(
                        "{} in slot {} costs {} {}; seat {seat} has {} {} (other currencies do not count)",
                        def.id,
                        slot + 1,
                        self.price_at(slot),
                        rs.currency_name(c),
                        self.money_for(seat, slot),
                        rs.currency_name(c)
                    )
                }
            },
            (Decision::Pay { slot, paid, .. }, Action::Pay(m)) => {
                let c = rs.yard[slot as usize];
                let (b, price) = self.slot_building(slot);
                let held = self.players[seat].hand().contains(&m);
                if held && self.pays(slot, m.currency) && self.pay_rule == Some(crate::ruleset::Payment::Exact) {
                    format!(
                        "this purchase is paid exactly: after {} ({paid} of {price} paid so far), no cards left make up the rest exactly",
                        id(m)
                    )
                } else if held && self.pays(slot, m.currency) {
                    format!(
                        "{} may not be paid now: its `can_pay` refuses it ({paid} of {price} paid so far; {})",
                        id(m),
                        rs.money_cards
                            .iter()
                            .find(|c| c.id == rs.money_str(m))
                            .map_or("see its script".into(), |c| format!("{}: see its script", c.name))
                    )
                } else if !self.pays(slot, m.currency) {
                    format!(
                        "{} is {}, but {} in slot {} is paid in {}",
                        id(m),
                        rs.currency_name(m.currency),
                        rs.building(b).id,
                        slot + 1,
                        rs.currency_name(c)
                    )
                } else {
                    format!("seat {seat} has no {} in hand", id(m))
                }
            }
            (Decision::PayAny { paid, .. }, Action::Pay(m)) => {
                let p = self.purchase.expect("a purchase in any one currency");
                if !self.players[seat].hand().contains(&m) {
                    format!("seat {seat} has no {} in hand", id(m))
                } else if let Some(c) = p.currency {
                    format!(
                        "this purchase is paid in one currency, {} (its first card's): {} does not pay in it",
                        rs.currency_name(c),
                        id(m)
                    )
                } else {
                    format!(
                        "{} cannot start the payment: its currency's cards in hand do not reach the price ({} of {} paid so far)",
                        id(m),
                        paid,
                        p.price
                    )
                }
            }
            (Decision::Choose { .. }, Action::Choose(p)) => {
                format!("{} is not among the answers offered; seat {seat} must {}", self.pick_name(p), self.task(&d))
            }
            (Decision::Discard { .. }, Action::Discard(m)) => format!("seat {seat} has no {} in hand", id(m)),
            (Decision::Turn { .. }, Action::Act(a)) => {
                let verb = rs.actions[a.def as usize].verb.join(" ");
                let offered: Vec<String> = self
                    .legal
                    .iter()
                    .filter(|x| matches!(x, Action::Act(b) if b.def == a.def))
                    .map(|x| x.text(rs))
                    .collect();
                if offered.is_empty() {
                    // Worded as a line naming arguments never offered is refused when read.
                    let args = a.arg_texts(rs).join(" ");
                    format!(
                        "`{args}` is not what `{verb}` takes now: seat {seat} may not {verb} now (nothing is offered)"
                    )
                } else {
                    format!("`{}` is not among the ways to {verb} now: {}", action.text(rs), offered.join(", "))
                }
            }
            (Decision::Turn { .. }, Action::Done) => {
                format!("seat {seat} has taken nothing to be done with; it must {}", self.task(&d))
            }
            (Decision::Turn { .. }, Action::Pass) => {
                format!("seat {seat} can take money or buy; `pass` is only for when neither is possible")
            }
            (_, Action::Keep | Action::Donate) if self.neutral.is_none() => {
                "only with two players is a bought building kept or donated".into()
            }
            (_, a) => {
                let verb = match a {
                    Action::Take(_) => "take money",
                    Action::Done => "stop taking money",
                    Action::Buy(_) => "buy",
                    Action::Pay(_) => "pay",
                    Action::Keep => "keep a building",
                    Action::Donate => "donate a building",
                    Action::Pass => "pass",
                    Action::Choose(_) => "answer a choice",
                    Action::Discard(_) => "discard",
                    Action::Act(_) => "act",
                };
                format!("seat {seat} must {}, not {verb}", self.task(&d))
            }
        };
        Some(why)
    }
}
