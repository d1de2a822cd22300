//! What a player (or an omniscient observer) sees: plain data that serializes
//! to the JSON of the command-line contract (docs/json.md). The `cli` crate
//! encodes it; this crate only builds it.
//!
//! The keys: `players` with `seat`, `hand`, `buildings`, `goods`, `under`,
//! `score`; `deck_size`, `discard_size`, `pending` and, once the game is over,
//! `winner`.

use serde::Serialize;

use crate::actions::Action;
use crate::cards::CardIdx;
use crate::error::GameError;
use crate::game::effects::PickFrom;
use crate::game::{Decision, DiscardReason, Game};
pub use engine_game::score::{Ordered, ScoreView};
use engine_game::view::SeatHead;

/// One player as a viewer sees them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// Seat, hand (sorted ids; only the viewer's own, or all for an observer),
    /// hand size, and the buildings in play in the order built.
    #[serde(flatten)]
    pub head: SeatHead,
    /// Buildings holding a good.
    pub goods: Vec<String>,
    /// Cards in the reserve (face up, out of the hand: everyone sees them), in the order reserved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reserve: Vec<String>,
    /// Cards under each building that keeps them; only for the viewer's own city.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub under: Option<Ordered<u64>>,
    /// Buildings covered by another.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covered: Vec<String>,
    /// Score now; only the viewer's own (the others' would reveal cards under buildings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreView>,
    /// In a seat's view, for every seat: the points anyone can count from what
    /// lies face up (buildings and their bonuses, no card under a building).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_score: Option<ScoreView>,
    /// Building counters that are not 0 (a script's `counter` effect), in city order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterView>,
    /// The player's named counters (a script's `player_counter` effect).
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub player_counters: Ordered<i32>,
}

/// A building's counter: `{"building": "granary", "value": 4}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterView {
    /// The building's id.
    pub building: String,
    /// Its counter.
    pub value: i32,
}

/// A role chosen this round: `{"role": "builder", "seat": 1}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoleView {
    /// The role.
    pub role: &'static str,
    /// The seat that chose it.
    pub seat: usize,
}

/// The pending decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingView {
    /// Who decides.
    pub seat: usize,
    /// What kind of decision.
    pub decision: &'static str,
    /// Cards offered to choose from (the deciding seat's view only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offered: Option<Vec<String>>,
    /// The building whose script asks (a choice, a card to give, cards looked at).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// Legal answers in the notation (empty in another seat's view: they would name its hand).
    pub legal: Vec<String>,
}

/// The state as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Ruleset id.
    pub ruleset: String,
    /// Round number.
    pub round: u32,
    /// The governor's seat.
    pub governor: usize,
    /// Every player.
    pub players: Vec<PlayerView>,
    /// Cards in the draw pile.
    pub deck_size: usize,
    /// Cards in the discard pile.
    pub discard_size: usize,
    /// Face-up cards beside the roles (the cathedral).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub public: Vec<String>,
    /// Roles chosen this round and by whom, in the order the roles lie on the table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<RoleView>,
    /// The role being played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<&'static str>,
    /// The trading tile's prices, once one is turned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trading_tile: Option<Vec<i32>>,
    /// The decision being waited for (`null` once the game is over).
    pub pending: Option<PendingView>,
    /// Once over: the single winner, or `null` on a shared win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Option<usize>>,
    /// Once over: every winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<usize>>,
}

impl Game {
    /// The state as a viewer sees it. `viewer: Some(seat)` hides other hands, the
    /// deck order (only sizes are shown), and others' cards under buildings and
    /// scores; `None` shows everything.
    pub fn view(&self, viewer: Option<usize>) -> Result<View, GameError> {
        let cards = &self.rs.cards;
        let ids = |v: &[u16]| -> Vec<String> { v.iter().map(|&c| cards.id(c).to_owned()).collect() };
        let mut players = Vec::new();
        for (seat, p) in self.players.iter().enumerate() {
            // Cards under a chapel, bank or harbor are face down and their number
            // need not be told (EN2 chapel note): a player's view shows neither
            // the others' counts nor the scores that would reveal them.
            let sees_all = viewer.is_none_or(|v| v == seat);
            let hand = || {
                let mut hand = ids(&p.hand);
                hand.sort_unstable();
                hand
            };
            let under = sees_all.then(|| {
                let mut under: Vec<(String, u64)> = Vec::new();
                for s in &p.city {
                    if let Some(from) = s.under_from {
                        let id = cards.id(from);
                        match under.iter_mut().find(|(k, _)| k == id) {
                            Some((_, n)) => *n += s.under.len() as u64,
                            None => under.push((id.to_owned(), s.under.len() as u64)),
                        }
                    }
                }
                Ordered(under)
            });
            players.push(PlayerView {
                head: SeatHead::new(seat, viewer, hand, p.hand.len())
                    .holding(p.city.iter().map(|s| cards.id(s.card).to_owned()).collect()),
                goods: p.city.iter().filter(|s| s.good.is_some()).map(|s| cards.id(s.card).to_owned()).collect(),
                reserve: ids(&p.reserve),
                under,
                covered: p.city.iter().flat_map(|s| s.covered_cards()).map(|c| cards.id(c).to_owned()).collect(),
                score: if sees_all { Some(self.score(seat)?.view()) } else { None },
                // An observer sees every `score` already: the public one is for seats.
                public_score: if viewer.is_some() { Some(self.public_score(seat)?.view()) } else { None },
                counters: p
                    .city
                    .iter()
                    .filter(|s| s.counter != 0)
                    .map(|s| CounterView { building: cards.id(s.card).to_owned(), value: s.counter })
                    .collect(),
                player_counters: Ordered(p.counters.iter().map(|(k, v)| (k.to_string(), *v)).collect()),
            });
        }
        let pending = self.pending.as_ref().map(|d| PendingView {
            seat: d.seat(),
            decision: d.name(),
            offered: (viewer.is_none_or(|v| v == d.seat()) && !self.limbo.is_empty()).then(|| ids(&self.limbo)),
            by: self.asked_by(d).map(|c| cards.id(c).to_owned()),
            // Another seat's answers would name its hand, or the cards it looks at.
            legal: if viewer.is_none_or(|v| v == d.seat()) {
                self.legal_actions().iter().map(|a| a.text(cards)).collect()
            } else {
                Vec::new()
            },
        });
        let winners = if self.over { Some(self.winners()?) } else { None };
        Ok(View {
            ruleset: self.rs.id.clone(),
            round: self.round,
            governor: self.governor,
            players,
            deck_size: self.deck.len(),
            discard_size: self.discard.len(),
            public: ids(&self.public),
            roles: self.roles_chosen_by().into_iter().map(|(r, seat)| RoleView { role: r.name(), seat }).collect(),
            phase: self.phase.map(|ph| ph.role.name()),
            trading_tile: self.trading_tile().map(<[i32]>::to_vec),
            pending,
            winner: winners.as_ref().map(|w| (w.len() == 1).then(|| w[0])),
            winners,
        })
    }

    /// The building whose script pends a decision, if a script does.
    fn asked_by(&self, d: &Decision) -> Option<u16> {
        let slot = |seat: usize, slot: usize| Some(self.players[seat].city[slot].card);
        match *d {
            Decision::Choose { owner, slot: s, .. } | Decision::Pick { owner, slot: s, .. } => {
                Some(self.card_at(owner, s))
            }
            Decision::Look { seat, slot: s, .. } => slot(seat, s),
            // The rules script asks as no building.
            Decision::Give { cause, .. } | Decision::Discard { reason: DiscardReason::Building(cause), .. } => {
                Some(cause).filter(|&c| usize::from(c) < self.rs.cards.len())
            }
            _ => None,
        }
    }
}

impl Game {
    /// At `seat`'s build decision, each card in its hand (and each public card)
    /// it cannot build now, with `why_illegal`'s reason; nothing otherwise.
    pub fn cannot_build(&self, seat: usize) -> Vec<engine_game::view::WhyNot> {
        let Some(d @ Decision::Build { .. }) = &self.pending else { return Vec::new() };
        if d.seat() != seat {
            return Vec::new();
        }
        let cards = &self.rs.cards;
        let buildable = |c: CardIdx| self.legal.iter().any(|a| matches!(a, Action::Build { card, .. } if *card == c));
        let mut out: Vec<engine_game::view::WhyNot> = Vec::new();
        let hand = self.players[seat].hand.iter().map(|&c| (c, "hand"));
        for (c, zone) in hand.chain(self.public.iter().map(|&c| (c, "public"))) {
            let id = cards.id(c);
            if buildable(c) || out.iter().any(|w| w.card == id && w.zone == zone) {
                continue;
            }
            if let Some(why) = self.why_illegal(Action::Build { card: c, over: None }) {
                out.push(engine_game::view::WhyNot { card: id.to_owned(), zone, why });
            }
        }
        out
    }

    /// The legal answers of the seat to move as a front end shows them: each
    /// with its card and the zone the card lies in, and words with names.
    pub fn legal_views(&self) -> Vec<engine_play::ActionView> {
        let Some(d) = &self.pending else { return Vec::new() };
        let cards = &self.rs.cards;
        let seat = d.seat();
        let p = &self.players[seat];
        let name = |c: CardIdx| cards.get(c).name.clone();
        let in_hand = |c: CardIdx| p.hand.contains(&c);
        self.legal
            .iter()
            .enumerate()
            .map(|(id, a)| {
                let (verb, card, zone, over, label): (&'static str, Option<CardIdx>, Option<&'static str>, _, String) =
                    match *a {
                        Action::Role { role, boost } => {
                            let word = role.name();
                            let label = if boost {
                                capitalised(word)
                            } else {
                                format!("{} (without the boost)", capitalised(word))
                            };
                            return engine_play::ActionView {
                                id,
                                verb: "role".into(),
                                card: Some(word.to_owned()),
                                zone: Some("roles"),
                                over: None,
                                label,
                                text: a.text(cards),
                            };
                        }
                        Action::Build { card, over } => {
                            let reserved = self.build_from(seat, card) == crate::game::BuildFrom::Reserve;
                            let zone = if reserved {
                                "reserve"
                            } else if in_hand(card) {
                                "hand"
                            } else if self.public.contains(&card) {
                                "public"
                            } else {
                                "offered"
                            };
                            let label = match over {
                                Some(o) => format!("Build {} over {}", name(card), name(o)),
                                None => format!("Build {}", name(card)),
                            };
                            ("build", Some(card), Some(zone), over.map(|o| cards.id(o).to_owned()), label)
                        }
                        Action::Pay(c) => ("pay", Some(c), Some("hand"), None, format!("Pay with {}", name(c))),
                        Action::Spend(c) => {
                            ("spend", Some(c), Some("city"), None, format!("Pay with the good on {}", name(c)))
                        }
                        // Not the seat's own city: no zone of its board holds the card.
                        Action::SpendOf(c, whose) => {
                            ("spend", Some(c), None, None, format!("Pay with the good on seat {whose}'s {}", name(c)))
                        }
                        Action::Produce(c) => {
                            ("produce", Some(c), Some("city"), None, format!("Produce on {}", name(c)))
                        }
                        Action::Sell(c) => {
                            ("sell", Some(c), Some("city"), None, format!("Sell the good on {}", name(c)))
                        }
                        Action::Keep(c) => ("keep", Some(c), Some("offered"), None, format!("Keep {}", name(c))),
                        Action::Discard(c) => {
                            let zone =
                                if !in_hand(c) || matches!(d, Decision::Look { .. }) { "offered" } else { "hand" };
                            ("discard", Some(c), Some(zone), None, format!("Discard {}", name(c)))
                        }
                        Action::Tuck(c) => ("tuck", Some(c), Some("hand"), None, format!("Put {} under", name(c))),
                        Action::Choose(w) => {
                            ("choose", None, None, None, capitalised(&cards.word_name(w).replace('_', " ")))
                        }
                        Action::Pick(c) => {
                            let zone = match d {
                                Decision::Pick { from: PickFrom::Hand, .. } => "hand",
                                _ => "city",
                            };
                            ("pick", Some(c), Some(zone), None, format!("Choose {}", name(c)))
                        }
                        Action::Give(c) => ("give", Some(c), Some("hand"), None, format!("Give {}", name(c))),
                        Action::Pass => ("pass", None, None, None, pass_label(d).to_owned()),
                        // The ruleset's own action: its name and arguments (a building of the actor's, by id).
                        Action::Act(act) => {
                            let def = &self.rs.actions[usize::from(act.def)];
                            let args = act.arg_texts(cards);
                            let card = args.first().and_then(|a| cards.idx(a));
                            let label = match card {
                                Some(c) => format!("{} {}", capitalised(&def.name), name(c)),
                                None if args.is_empty() => capitalised(&def.name),
                                None => format!("{} {}", capitalised(&def.name), args.join(" ")),
                            };
                            let zone = card.map(|c| if in_hand(c) { "hand" } else { "city" });
                            ("act", card, zone, None, label)
                        }
                    };
                engine_play::ActionView {
                    id,
                    verb: verb.into(),
                    card: card.map(|c| cards.id(c).to_owned()),
                    zone,
                    over,
                    label,
                    text: a.text(cards),
                }
            })
            .collect()
    }
}

impl Game {
    /// Each role with what it does in words (see [`role_texts`]).
    pub fn role_texts(&self) -> Vec<(&'static str, String)> {
        role_texts(&self.rs)
    }
}

/// Each role in the order the roles lie on the table, with what it does in
/// words from the ruleset's numbers (a house rule's discount reads right).
pub fn role_texts(rs: &crate::Ruleset) -> Vec<(&'static str, String)> {
    let r = &rs.rules;
    let n = |k: i32, noun: &str| format!("{k} {noun}{}", if k == 1 { "" } else { "s" });
    crate::Role::ALL
        .iter()
        .map(|&role| {
            let text = match role {
                crate::Role::Builder => {
                    format!("everyone may build 1 building; the chooser pays {} less", n(r.builder_discount, "card"))
                }
                crate::Role::Producer => {
                    format!("everyone produces {}; the chooser {} more", n(r.produce, "good"), r.producer_privilege)
                }
                crate::Role::Trader => {
                    format!("everyone sells {}; the chooser {} more", n(r.sell, "good"), r.trader_privilege)
                }
                crate::Role::Councillor => format!(
                    "everyone draws {} and keeps {}; the chooser draws {} more",
                    r.council_draw, r.council_keep, r.council_privilege
                ),
                crate::Role::Prospector => {
                    format!("the chooser draws {}", n(r.prospector_privilege, "card"))
                }
            };
            (role.name(), text)
        })
        .collect()
}

/// What "pass" means in each decision, for a button.
fn pass_label(d: &Decision) -> &'static str {
    match d {
        Decision::Build { .. } => "Build nothing",
        Decision::Produce { .. } => "Produce no more",
        Decision::Sell { .. } => "Sell no more",
        Decision::Reveal { .. } | Decision::Look { .. } => "Keep none",
        Decision::Tuck { .. } => "Put no more under",
        Decision::Exchange { .. } => "Exchange no more",
        _ => "Pass",
    }
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
