//! What a player (or an omniscient observer) sees: plain data that serializes
//! to the JSON of the command-line contract (docs/json.md). The `cli` crate
//! encodes it; this crate only builds it.
//!
//! The keys: `players` with `seat`, `hand`, `buildings`, `goods`, `under`,
//! `score`; `deck_size`, `discard_size`, `pending` and, once the game is over,
//! `winner`.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::error::GameError;
use crate::game::{Decision, DiscardReason, Game};
use crate::score::Score;

/// Named numbers serialized as a JSON object in their order (a score's
/// breakdown, the cards under each building).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T> Ordered<T> {
    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// `{"total": 42, "breakdown": {"buildings": 30, …}}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreView {
    /// Total victory points.
    pub total: i32,
    /// Points by source, in the order they were added.
    pub breakdown: Ordered<i32>,
}

impl Score {
    /// The score as the JSON contract shows it.
    pub fn view(&self) -> ScoreView {
        ScoreView { total: self.total, breakdown: Ordered(self.breakdown.clone()) }
    }
}

/// One player as a viewer sees them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// Seat number.
    pub seat: usize,
    /// Hand card ids, sorted; only the viewer's own (or all, for an observer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Cards in hand.
    pub hand_size: usize,
    /// Buildings in play, in the order built.
    pub buildings: Vec<String>,
    /// Buildings holding a good.
    pub goods: Vec<String>,
    /// Cards under each building that keeps them; only for the viewer's own city.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub under: Option<Ordered<u64>>,
    /// Buildings covered by another.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covered: Vec<String>,
    /// Score now; only the viewer's own (the others' would reveal cards under buildings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreView>,
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

/// Every player's score, as `score --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoresView {
    /// One entry per seat.
    pub players: Vec<SeatScore>,
}

/// A seat and its score.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatScore {
    /// Seat number.
    pub seat: usize,
    /// Its score.
    pub score: ScoreView,
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
            let hand = sees_all.then(|| {
                let mut hand = ids(&p.hand);
                hand.sort_unstable();
                hand
            });
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
                seat,
                hand,
                hand_size: p.hand.len(),
                buildings: p.city.iter().map(|s| cards.id(s.card).to_owned()).collect(),
                goods: p.city.iter().filter(|s| s.good.is_some()).map(|s| cards.id(s.card).to_owned()).collect(),
                under,
                covered: p.city.iter().flat_map(|s| s.covered.iter()).map(|&c| cards.id(c).to_owned()).collect(),
                score: if sees_all { Some(self.score(seat)?.view()) } else { None },
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
            Decision::Give { cause, .. } | Decision::Discard { reason: DiscardReason::Building(cause), .. } => {
                Some(cause)
            }
            _ => None,
        }
    }

    /// Every player's score.
    pub fn scores_view(&self) -> Result<ScoresView, GameError> {
        let players = self.scores()?.iter().enumerate().map(|(seat, s)| SeatScore { seat, score: s.view() }).collect();
        Ok(ScoresView { players })
    }
}
