//! What a ruleset's own actions read and do in High-Low at play: the `ctx`
//! their scripts are given, and their effects carried out (the words are
//! `ruleset.rs`'). The actions themselves, their choices and their notation
//! are the engine's (`engine_script::verbs`).

use rhai::{Dynamic, Map};

use crate::actions::card_id;
use crate::game::Game;

impl Game {
    /// The `ctx` of `seat`'s scripts.
    pub(crate) fn ctx(&self, seat: usize) -> Map {
        let ids = |cards: &[u8]| cards.iter().map(|&c| Dynamic::from(card_id(c))).collect::<rhai::Array>();
        let mut ctx = Map::new();
        ctx.insert("seat".into(), Dynamic::from(seat as i32));
        ctx.insert("hand".into(), ids(&self.hands[seat]).into());
        ctx.insert("score".into(), Dynamic::from(self.scores[seat]));
        ctx.insert("scores".into(), self.scores.iter().map(|&s| Dynamic::from(s)).collect::<rhai::Array>().into());
        ctx.insert("pile_top".into(), self.pile_top().map_or(Dynamic::UNIT, |c| Dynamic::from(card_id(c))));
        ctx.insert("deck_size".into(), Dynamic::from(self.deck.len() as i32));
        ctx.insert("round".into(), Dynamic::from(self.round() as i32));
        ctx
    }

    /// Applies one effect map of `seat`'s script, or says why it cannot be done.
    pub(crate) fn effect(&mut self, seat: usize, map: &Map) -> Result<(), String> {
        let int = |key: &str| map.get(key).and_then(|v| v.as_int().ok()).ok_or(format!("`{key}` takes a number"));
        let text = |key: &str| map.get(key).and_then(|v| v.clone().into_string().ok()).unwrap_or_default();
        if map.contains_key("score") {
            let n = int("score")?;
            let points = self.scores[seat].checked_add(n).filter(|p| p.abs() <= crate::ruleset::MAX_POINTS);
            self.scores[seat] =
                points.ok_or(format!("`score: {n}` takes the points past {}", crate::ruleset::MAX_POINTS))?;
            self.scripted[seat] += n;
            self.event(|| {
                format!("seat {seat} {} {} points by its action", if n < 0 { "loses" } else { "gains" }, n.abs())
            });
        } else if map.contains_key("draw") {
            let n = usize::try_from(int("draw")?).map_err(|_| "`draw` takes a number from 0".to_owned())?;
            let n = n.min(self.deck.len());
            for _ in 0..n {
                let card = self.deck.pop().expect("the deck has n cards");
                self.hands[seat].push(card);
            }
            self.hands[seat].sort_unstable();
            self.event(|| format!("seat {seat} draws {n} cards"));
        } else {
            let (what, from, to) = (text("move"), text("from"), text("to"));
            let card = self.take(seat, &from, &what)?;
            match to.as_str() {
                "hand" => {
                    self.hands[seat].push(card);
                    self.hands[seat].sort_unstable();
                }
                "pile" => self.pile.push(card),
                _ => self.deck.push(card),
            }
            // The pile is face up; a card from a hand or the deck stays unnamed.
            let named = if from == "pile" { card_id(card) } else { "a card".to_owned() };
            self.event(|| format!("seat {seat} moves {named} from the {from} to the {to}"));
        }
        Ok(())
    }

    /// The card `what` (an id, or `top`) taken out of zone `from`.
    fn take(&mut self, seat: usize, from: &str, what: &str) -> Result<u8, String> {
        let zone = match from {
            "hand" => &mut self.hands[seat],
            "pile" => &mut self.pile,
            _ => &mut self.deck,
        };
        let at = match what {
            "top" => zone.len().checked_sub(1),
            id => zone.iter().rposition(|&c| card_id(c) == id),
        };
        at.map(|i| zone.remove(i)).ok_or_else(|| format!("no `{what}` in the {from} to move"))
    }
}
