//! The log text of an answered decision.

use super::effects::PickFrom;
use super::{Decision, DiscardReason, Game, n_cards};
use crate::actions::Action;
use crate::cards::CardIdx;

impl Game {
    /// Logs an answered decision. A hand card paid, discarded, kept from the
    /// councillor's draw or put under a building is named to its owner only.
    pub(super) fn log_action(&mut self, d: &Decision, action: Action) {
        let seat = d.seat();
        let id = |g: &Game, c: CardIdx| g.rs.cards.id(c).to_owned();
        match (d, action) {
            (Decision::Role { boost, .. }, Action::Role { role, boost: used }) => {
                let plain = if !used && *boost > 1 { " without the privilege boost" } else { "" };
                self.event(Some(seat), |_| format!("seat {seat} chooses the {role}{plain}"));
            }
            (_, Action::Build { card, over }) => self.event(Some(seat), |g| match over {
                Some(o) => format!("seat {seat} builds {} over {}", id(g, card), id(g, o)),
                None => format!("seat {seat} builds {}", id(g, card)),
            }),
            (_, Action::Pay(c)) => self.secret_event(seat, None, |g| {
                (format!("seat {seat} pays with {}", id(g, c)), format!("seat {seat} pays with 1 card"))
            }),
            (_, Action::Spend(b)) => {
                let cause = self.goods_payer(seat);
                self.log_event(Some(seat), cause, None, |g| {
                    (format!("seat {seat} pays with the good on {}", id(g, b)), None)
                });
            }
            (_, Action::SpendOf(b, whose)) => {
                let whose = usize::from(whose);
                self.event(Some(seat), |g| format!("seat {seat} pays with the good on seat {whose}'s {}", id(g, b)));
            }
            (_, Action::Produce(b)) => self.event(Some(seat), |g| format!("seat {seat} produces on {}", id(g, b))),
            (_, Action::Sell(b)) => self.event(Some(seat), |g| {
                format!("seat {seat} sells the good on {} for {}", id(g, b), n_cards(g.price_of(seat, b)))
            }),
            (Decision::Reveal { slot, .. }, Action::Keep(c)) => {
                let cause = self.players[seat].city[*slot].card;
                self.event_from(seat, cause, |g| format!("seat {seat} keeps the revealed {}", id(g, c)));
            }
            (_, Action::Keep(c)) => self.secret_event(seat, None, |g| {
                (format!("seat {seat} keeps {}", id(g, c)), format!("seat {seat} keeps 1 card"))
            }),
            (Decision::Exchange { .. }, Action::Discard(c)) => self.secret_event(seat, None, |g| {
                (format!("seat {seat} exchanges {}", id(g, c)), format!("seat {seat} exchanges 1 card"))
            }),
            (Decision::Look { slot, .. }, Action::Discard(c)) => {
                let by = self.players[seat].city[*slot].card;
                self.secret_event(seat, Some(by), |g| {
                    let public = format!("seat {seat} discards 1 of the cards its {} looked at", g.name_of(by));
                    (format!("seat {seat} discards {} of the cards its {} looked at", id(g, c), g.name_of(by)), public)
                });
            }
            (Decision::Choose { owner, slot, .. }, Action::Choose(w)) => {
                let by = self.card_at(*owner, *slot);
                let word = self.rs.cards.word_name(w);
                self.event_from(seat, by, |g| format!("seat {seat} chooses {word} ({})", g.name_of(by)));
            }
            (Decision::Pick { owner, slot, from, .. }, Action::Pick(c)) => {
                let by = self.card_at(*owner, *slot);
                if *from == PickFrom::Hand {
                    self.secret_event(seat, Some(by), |g| {
                        (
                            format!("seat {seat} chooses {} for the {}", id(g, c), g.name_of(by)),
                            format!("seat {seat} chooses 1 hand card for the {}", g.name_of(by)),
                        )
                    });
                } else {
                    self.event_from(seat, by, |g| {
                        format!("seat {seat} chooses {} for the {}", id(g, c), g.name_of(by))
                    });
                }
            }
            (Decision::Give { to, cause, .. }, Action::Give(c)) => {
                let (to, by) = (*to, *cause);
                self.secret_event(seat, Some(by), |g| {
                    (
                        format!("seat {seat} gives {} to seat {to} ({})", id(g, c), g.name_of(by)),
                        format!("seat {seat} gives 1 card to seat {to} ({})", g.name_of(by)),
                    )
                });
            }
            (Decision::Discard { reason, .. }, Action::Discard(c)) => {
                let named;
                let why = match reason {
                    DiscardReason::HandLimit => " (hand limit)",
                    DiscardReason::Council | DiscardReason::Setup => "",
                    DiscardReason::Building(b) => {
                        named = format!(" ({})", self.name_of(*b));
                        named.as_str()
                    }
                };
                self.secret_event(seat, None, |g| {
                    (format!("seat {seat} discards {}{why}", id(g, c)), format!("seat {seat} discards 1 card{why}"))
                });
            }
            (Decision::Tuck { slot, .. }, Action::Tuck(c)) => {
                let under = self.players[seat].city[*slot].card;
                self.secret_event(seat, Some(under), |g| {
                    let b = g.name_of(under);
                    (
                        format!("seat {seat} puts {} under its {b}", id(g, c)),
                        format!("seat {seat} puts 1 card under its {b}"),
                    )
                });
            }
            // Not building is told by the builder step itself.
            (Decision::Build { .. }, Action::Pass) => {}
            (_, Action::Pass) => self.event(Some(seat), |_| format!("seat {seat} passes")),
            (_, a) => {
                let text = a.text(&self.rs.cards);
                self.event(Some(seat), |_| format!("seat {seat}: {text}"));
            }
        }
    }
}
