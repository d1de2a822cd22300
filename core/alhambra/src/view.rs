//! What a player (or an omniscient observer) sees: plain `Serialize` structs
//! for the command line to print as JSON. The library encodes no JSON itself.
//!
//! Hidden from a seat: the other players' money (only its count), the order
//! of both decks and the position of the scoring cards (no one sees them:
//! views give only the decks' sizes).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::actions::{Action, Pick};
use crate::game::{Decision, Game};
use crate::ruleset::{BuildingIdx, Money};
pub use engine_game::score::ScoreView;
use engine_game::view::SeatHead;

/// A seat as seen by the viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Seat, money in hand (sorted; only for the viewer's own seat, or for an
    /// observer), its count (public), and the buildings in the order acquired.
    #[serde(flatten)]
    pub head: SeatHead,
    /// Buildings per type (types with none left out).
    pub counts: BTreeMap<String, u8>,
    /// Points so far (public: scorings are done in the open).
    pub score: ScoreView,
    /// Per building type: its counter (a script's `counter` effect; types at 0 left out).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, i32>,
    /// The named counters (a script's `player_counter` effect).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub player_counters: BTreeMap<String, i32>,
    /// Buildings set aside face up to buy later (a ruleset's `reserve` zone; public).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reserve: Vec<String>,
}

/// The neutral collector (two players).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NeutralView {
    /// Its name.
    pub name: String,
    /// Its buildings.
    pub buildings: Vec<String>,
    /// Buildings per type.
    pub counts: BTreeMap<String, u8>,
    /// Its points.
    pub score: ScoreView,
}

/// One slot of the building display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotView {
    /// The slot, from 1 (as `buy` names it).
    pub slot: usize,
    /// The currency it is paid in.
    pub currency: String,
    /// The building there (`garden10`), if any.
    pub building: Option<String>,
    /// Its type.
    pub kind: Option<String>,
    /// Its price: what the player to move pays, after their buildings' `on_price`.
    pub price: Option<u8>,
}

/// The next scoring and how close it is: public, because everyone saw the
/// money deck cut into piles and knows which pile holds each scoring card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NextScoringView {
    /// Its name (`A`, `B`, `C`).
    pub name: String,
    /// Its card in the money deck; `None`: it comes at the game end.
    pub card: Option<String>,
    /// With a card: the fewest money cards that will be drawn before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws_min: Option<usize>,
    /// With a card: the most money cards that will be drawn before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws_max: Option<usize>,
}

/// The decision waiting for an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingView {
    /// Who must answer.
    pub seat: usize,
    /// Its name (`turn`, `take`, `pay`, `donate`, `choose`, `discard`).
    pub decision: String,
    /// What to do, in words.
    pub task: String,
    /// The card whose script asks (`choose`, `discard`); `None` for the rules' own decisions and the rules script's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The legal answers in the action notation (only for the seat deciding, or an observer).
    pub legal: Vec<String>,
}

/// The state as one seat (or an observer) sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Ruleset id.
    pub ruleset: String,
    /// The viewer's seat; `None`: an observer who sees everything.
    pub viewer: Option<usize>,
    /// Turn number, from 1.
    pub turn: u32,
    /// The seat that took the first turn.
    pub start_player: usize,
    /// The seats.
    pub players: Vec<PlayerView>,
    /// The neutral collector (two players).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neutral: Option<NeutralView>,
    /// Money face up.
    pub money_display: Vec<String>,
    /// Buildings face up, one entry per slot.
    pub building_display: Vec<SlotView>,
    /// Cards in the money deck (scoring cards included).
    pub deck_size: usize,
    /// Cards in the building deck.
    pub building_deck_size: usize,
    /// The discard pile, bottom first (face up).
    pub discard: Vec<String>,
    /// Scorings done, in order.
    pub scored: Vec<String>,
    /// The next scoring, while one is to come.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_scoring: Option<NextScoringView>,
    /// Buildings nobody got at the end.
    pub unclaimed: Vec<String>,
    /// The pending decision; `None` once the game is over.
    pub pending: Option<PendingView>,
    /// Once over: the winning seats (a tie shares the victory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<usize>>,
}

impl Game {
    /// The state as `viewer` sees it (`None`: everything).
    pub fn view(&self, viewer: Option<usize>) -> View {
        let rs = &self.rs;
        let money = |ms: &[Money]| -> Vec<String> { ms.iter().map(|&m| rs.money_id(m)).collect() };
        let buildings = |bs: &[BuildingIdx]| -> Vec<String> { bs.iter().map(|&b| rs.building(b).id.clone()).collect() };
        let counts = |c: &[u8]| -> BTreeMap<String, u8> {
            rs.types.iter().zip(c).filter(|(_, n)| **n > 0).map(|(t, n)| (t.id.clone(), *n)).collect()
        };
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                let hand = || {
                    let mut h = p.hand().to_vec();
                    h.sort_unstable();
                    money(&h)
                };
                PlayerView {
                    head: SeatHead::new(seat, viewer, hand, p.hand().len()).holding(buildings(&p.buildings)),
                    counts: counts(&p.counts),
                    score: self.earned[seat].view(),
                    counters: rs
                        .types
                        .iter()
                        .zip(&p.counters)
                        .filter(|(_, n)| **n != 0)
                        .map(|(t, n)| (t.id.clone(), *n))
                        .collect(),
                    player_counters: p.player_counters.clone(),
                    reserve: buildings(self.reserve(seat)),
                }
            })
            .collect();
        let neutral = self.neutral.as_ref().map(|n| NeutralView {
            name: rs.two_players.neutral.clone(),
            buildings: buildings(&n.buildings),
            counts: counts(&n.counts),
            score: self.earned[self.players.len()].view(),
        });
        let building_display = self
            .building_display
            .iter()
            .enumerate()
            .map(|(slot, b)| SlotView {
                slot: slot + 1,
                currency: rs.currencies[rs.yard[slot] as usize].id.clone(),
                building: b.map(|b| rs.building(b).id.clone()),
                kind: b.map(|b| rs.types[rs.building(b).kind as usize].id.clone()),
                // A scripted discount changes what the player to move pays; the
                // printed price alone would show a price no one pays.
                price: b.map(|_| u8::try_from(self.price_at(slot as u8)).unwrap_or(u8::MAX)),
            })
            .collect();
        let pending = self.pending.as_ref().map(|d: &Decision| PendingView {
            seat: d.seat(),
            decision: d.name().to_owned(),
            task: self.task(d),
            by: self.asked_by(),
            // Another seat's answers would name its hidden money (what it can pay with).
            legal: if viewer.is_none_or(|v| v == d.seat()) {
                self.legal.iter().map(|a| a.text(rs)).collect()
            } else {
                Vec::new()
            },
        });
        View {
            ruleset: rs.id.clone(),
            viewer,
            turn: self.turns,
            start_player: self.start_player,
            players,
            neutral,
            money_display: money(&self.money_display),
            building_display,
            deck_size: self.deck.len(),
            building_deck_size: self.building_deck.len(),
            discard: money(&self.discard),
            scored: self.scored().iter().map(|s| (*s).to_owned()).collect(),
            next_scoring: if self.over { None } else { self.next_scoring() },
            unclaimed: buildings(&self.unclaimed),
            pending,
            winners: self.over.then(|| self.winners()),
        }
    }

    /// The first scoring not yet held, and where its card may lie in the money deck.
    fn next_scoring(&self) -> Option<NextScoringView> {
        let i = (0..self.rs.scorings.len()).find(|&i| !self.scored.contains(&(i as u8)))?;
        let s = &self.rs.scorings[i];
        let in_deck = s.card.is_some() && self.deck.contains(&crate::game::Draw::Scoring(i as u8));
        // Bottom indices [lo, hi): at index k, deck.len() - 1 - k cards lie above it.
        let (lo, hi) = self.scoring_range[i];
        let len = self.deck.len();
        let min = len.saturating_sub(hi);
        let max = len.saturating_sub(1 + lo).max(min);
        Some(NextScoringView {
            name: s.name.clone(),
            card: s.card.clone(),
            draws_min: in_deck.then_some(min),
            draws_max: in_deck.then_some(max),
        })
    }

    /// A money deck card's id: `denar5`, or a scoring card's (`scoring_a`).
    pub fn draw_id(&self, d: crate::game::Draw) -> String {
        match d {
            crate::game::Draw::Money(m) => self.rs.money_id(m),
            crate::game::Draw::Scoring(s) => self.rs.scorings[s as usize].card.clone().unwrap_or_default(),
            crate::game::Draw::Deck(d) => self.rs.deck_cards[d as usize].id.clone(),
        }
    }
}

impl Game {
    /// At `seat`'s turn, each building in the yard it cannot buy and each money
    /// card on the display it cannot take now, with `why_illegal`'s reason.
    pub fn cannot_play(&self, seat: usize) -> Vec<engine_game::view::WhyNot> {
        let Some(d) = self.pending else { return Vec::new() };
        if d.seat() != seat || !matches!(d, Decision::Turn { .. } | Decision::Take { .. }) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut why = |action: Action, card: String, zone: &'static str| {
            if let Some(why) = self.why_illegal(action)
                && !out.iter().any(|w: &engine_game::view::WhyNot| w.card == card && w.zone == zone)
            {
                out.push(engine_game::view::WhyNot { card, zone, why });
            }
        };
        if matches!(d, Decision::Turn { .. }) {
            for (slot, b) in self.building_display.iter().enumerate() {
                if b.is_some() {
                    why(Action::Buy(slot as u8), (slot + 1).to_string(), "yard");
                }
            }
        }
        for &m in &self.money_display {
            why(Action::Take(m), self.rs.money_id(m), "display");
        }
        out
    }

    /// The legal answers of the seat to move as a front end shows them: each
    /// with its money card or yard slot and where it lies, and words with names.
    pub fn legal_views(&self) -> Vec<engine_play::ActionView> {
        let rs = &self.rs;
        let money_name = |m: Money| rs.money_name(m);
        self.legal
            .iter()
            .enumerate()
            .map(|(id, a)| {
                let (verb, card, zone, label) = match *a {
                    Action::Take(m) => {
                        ("take", Some(rs.money_id(m)), Some("display"), format!("Take {}", money_name(m)))
                    }
                    Action::Pay(m) => {
                        ("pay", Some(rs.money_id(m)), Some("hand"), format!("Pay with {}", money_name(m)))
                    }
                    Action::Buy(slot) => {
                        let what = self.building_display[slot as usize].map_or_else(String::new, |b| {
                            let b = rs.building(b);
                            format!(" ({} for {})", rs.types[b.kind as usize].name, b.price)
                        });
                        ("buy", Some((slot + 1).to_string()), Some("yard"), format!("Buy from slot {}{what}", slot + 1))
                    }
                    Action::Done => ("done", None, None, "Take no more".to_owned()),
                    Action::Keep => ("keep", None, None, "Keep the building".to_owned()),
                    Action::Donate => ("donate", None, None, format!("Give it to {}", rs.two_players.neutral)),
                    Action::Pass => ("pass", None, None, "Pass".to_owned()),
                    Action::Choose(Pick::Word(w)) => {
                        let w = rs.words.name(w.get());
                        ("choose", Some(w.to_string()), None, format!("Choose {w}"))
                    }
                    Action::Choose(Pick::Money(m)) => {
                        ("choose", Some(rs.money_id(m)), self.ask_zone(), format!("Choose {}", money_name(m)))
                    }
                    Action::Choose(Pick::Building(b)) => {
                        let def = rs.building(b);
                        let label = format!("Choose the {} {}", rs.types[def.kind as usize].name, def.price);
                        ("choose", Some(def.id.clone()), None, label)
                    }
                    Action::Act(act) => {
                        let def = &rs.actions[act.def as usize];
                        let args = act.arg_texts(rs);
                        let label =
                            if args.is_empty() { def.name.clone() } else { format!("{} {}", def.name, args.join(" ")) };
                        ("act", args.first().cloned(), None, label)
                    }
                    Action::Discard(m) => {
                        ("discard", Some(rs.money_id(m)), Some("hand"), format!("Discard {}", money_name(m)))
                    }
                };
                engine_play::ActionView { id, verb: verb.into(), card, zone, over: None, label, text: a.text(rs) }
            })
            .collect()
    }
}
