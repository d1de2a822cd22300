//! What every game's view of a seat starts with, and the secret rule it keeps:
//! a hand is shown to its own seat and to an observer, never to another seat.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// The head of a seat's view in every game's JSON contract: `seat`, `hand`
/// (only for its own seat or an observer), `hand_size`, `buildings` (what
/// it holds, in the order got). A game's seat view flattens it first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatHead {
    /// Seat number.
    pub seat: usize,
    /// The hand's ids in the game's order; absent for a viewer at another seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Cards in hand (public).
    pub hand_size: usize,
    /// What the seat holds, in the order it got it.
    #[serde(rename = "buildings")]
    pub holdings: Vec<String>,
}

/// A card the deciding seat sees but cannot play now, and why in the game's
/// words: what a page shows on that card ("why not"). Only the seat that
/// decides is given these, so a reason may name its own hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WhyNot {
    /// The card (or slot) as legal answers name it (`ActionView::card`).
    pub card: String,
    /// Where it lies, as legal answers name zones (`hand`, `yard`, `display`…).
    pub zone: &'static str,
    /// Why it cannot be played now (the game's `why_illegal`).
    pub why: String,
}

impl SeatHead {
    /// `seat`'s head as `viewer` (`None`: an observer) may see it: `hand` (the
    /// ids in the game's order) is asked for only when the viewer may see it.
    pub fn new(seat: usize, viewer: Option<usize>, hand: impl FnOnce() -> Vec<String>, hand_size: usize) -> SeatHead {
        let hand = viewer.is_none_or(|v| v == seat).then(hand);
        SeatHead { seat, hand, hand_size, holdings: Vec::new() }
    }

    /// The same with what the seat holds.
    pub fn holding(mut self, holdings: Vec<String>) -> SeatHead {
        self.holdings = holdings;
        self
    }
}

/// Named numbers serialized as a JSON object in their order (a score's
/// breakdown, counts per holding).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_is_shown_to_its_seat_and_an_observer_only() {
        let head = |viewer| SeatHead::new(1, viewer, || vec!["b".into(), "a".into()], 2).holding(vec!["x".into()]);
        assert_eq!(head(Some(1)).hand, Some(vec!["b".to_owned(), "a".to_owned()]));
        assert_eq!(head(None).hand.map(|h| h.len()), Some(2));
        let other = head(Some(0));
        assert_eq!(other.hand, None);
        let json = serde_json::to_string(&other).unwrap();
        assert_eq!(json, r#"{"seat":1,"hand_size":2,"buildings":["x"]}"#);
    }
}
