//! What a player (or an omniscient observer) sees, as JSON.
//!
//! The keys are part of the command-line contract (docs/json.md): `players`
//! with `seat`, `hand`, `buildings`, `goods`, `under`, `score`; `deck_size`,
//! `discard_size`, `pending` and, once the game is over, `winner`.

use serde_json::{Map, Value, json};

use crate::error::GameError;
use crate::game::Game;
use crate::score::Score;

impl Score {
    /// `{"total": 42, "breakdown": {"buildings": 30, …}}`.
    pub fn to_json(&self) -> Value {
        let breakdown: Map<String, Value> = self.breakdown.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        json!({ "total": self.total, "breakdown": breakdown })
    }
}

impl Game {
    /// The state as JSON. `viewer: Some(seat)` hides other hands, the deck order
    /// (only sizes are shown), and others' cards under buildings and scores;
    /// `None` shows everything.
    pub fn to_json(&self, viewer: Option<usize>) -> Result<Value, GameError> {
        let cards = &self.rs.cards;
        let ids = |v: &[u16]| -> Vec<&str> { v.iter().map(|&c| cards.id(c)).collect() };
        let mut players = Vec::new();
        for (seat, p) in self.players.iter().enumerate() {
            let mut o = Map::new();
            o.insert("seat".into(), json!(seat));
            if viewer.is_none_or(|v| v == seat) {
                let mut hand = ids(&p.hand);
                hand.sort_unstable();
                o.insert("hand".into(), json!(hand));
            }
            o.insert("hand_size".into(), json!(p.hand.len()));
            o.insert("buildings".into(), json!(p.city.iter().map(|s| cards.id(s.card)).collect::<Vec<_>>()));
            let goods: Vec<&str> = p.city.iter().filter(|s| s.good.is_some()).map(|s| cards.id(s.card)).collect();
            o.insert("goods".into(), json!(goods));
            // Cards under a chapel, bank or harbor are face down and their number
            // need not be told (EN2 chapel note): a player's view shows neither
            // the others' counts nor the scores that would reveal them.
            let sees_all = viewer.is_none_or(|v| v == seat);
            let mut under = Map::new();
            for s in p.city.iter().filter(|_| sees_all) {
                if let Some(from) = s.under_from {
                    let n = under.get(cards.id(from)).and_then(Value::as_u64).unwrap_or(0);
                    under.insert(cards.id(from).into(), json!(n + s.under.len() as u64));
                }
            }
            if sees_all {
                o.insert("under".into(), Value::Object(under));
            }
            let covered: Vec<&str> = p.city.iter().flat_map(|s| s.covered.iter()).map(|&c| cards.id(c)).collect();
            if !covered.is_empty() {
                o.insert("covered".into(), json!(covered));
            }
            if sees_all {
                o.insert("score".into(), self.score(seat)?.to_json());
            }
            players.push(Value::Object(o));
        }
        let mut out = Map::new();
        out.insert("ruleset".into(), json!(self.rs.id));
        out.insert("round".into(), json!(self.round));
        out.insert("governor".into(), json!(self.governor));
        out.insert("players".into(), Value::Array(players));
        out.insert("deck_size".into(), json!(self.deck.len()));
        out.insert("discard_size".into(), json!(self.discard.len()));
        if !self.public.is_empty() {
            out.insert("public".into(), json!(ids(&self.public)));
        }
        if let Some(ph) = self.phase {
            out.insert("phase".into(), json!(ph.role.name()));
        }
        if let Some(tile) = self.trading_tile() {
            out.insert("trading_tile".into(), json!(tile));
        }
        let pending = match &self.pending {
            Some(d) => {
                let mut o = Map::new();
                o.insert("seat".into(), json!(d.seat()));
                o.insert("decision".into(), json!(d.name()));
                if viewer.is_none_or(|v| v == d.seat()) && !self.limbo.is_empty() {
                    o.insert("offered".into(), json!(ids(&self.limbo)));
                }
                let legal: Vec<String> = self.legal_actions().iter().map(|a| a.text(cards)).collect();
                o.insert("legal".into(), json!(legal));
                Value::Object(o)
            }
            None => Value::Null,
        };
        out.insert("pending".into(), pending);
        if self.over {
            let winners = self.winners()?;
            out.insert("winner".into(), if winners.len() == 1 { json!(winners[0]) } else { Value::Null });
            out.insert("winners".into(), json!(winners));
        }
        Ok(Value::Object(out))
    }

    /// Every player's score as the `players` array of `sanjuan score --json`.
    pub fn scores_json(&self) -> Result<Value, GameError> {
        let players: Vec<Value> =
            self.scores()?.iter().enumerate().map(|(seat, s)| json!({ "seat": seat, "score": s.to_json() })).collect();
        Ok(json!({ "players": players }))
    }
}
