//! Scores every game keeps alike: a seat's total with the parts it came from
//! (in the order they were added), a tie-break, the winners, and how the JSON
//! contract and the `score` command show them.

use serde::Serialize;

pub use crate::view::Ordered;

/// A seat's points with where they came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Total points.
    pub total: i32,
    /// Points by source, in the order they were added (a game names its sources).
    pub breakdown: Vec<(String, i32)>,
    /// What decides a tie on points (higher wins); 0 in a game without one.
    pub tie_break: i32,
}

impl Score {
    /// Adds `points` to the total and to the part named `key`.
    pub fn add(&mut self, key: &str, points: i32) {
        self.total = self.total.saturating_add(points);
        match self.breakdown.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = v.saturating_add(points),
            None => self.breakdown.push((key.to_owned(), points)),
        }
    }

    /// Points from one source (0 if none).
    pub fn get(&self, key: &str) -> i32 {
        self.breakdown.iter().find(|(k, _)| k == key).map_or(0, |(_, v)| *v)
    }

    /// The score as the JSON contract shows it.
    pub fn view(&self) -> ScoreView {
        ScoreView { total: self.total, breakdown: Ordered(self.breakdown.clone()) }
    }

    /// `12 (buildings 9, bonus 3)`: the total and its parts, as `score` prints them.
    pub fn line(&self) -> String {
        let parts: Vec<String> = self.breakdown.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!("{} ({})", self.total, parts.join(", "))
    }
}

/// The winning seats: most points, then the higher tie-break; still tied means shared.
pub fn winners_of(scores: &[Score]) -> Vec<usize> {
    let best = scores.iter().map(|s| (s.total, s.tie_break)).max().unwrap_or_default();
    (0..scores.len()).filter(|&i| (scores[i].total, scores[i].tie_break) == best).collect()
}

/// `seat 0: 12 (buildings 9, …)`, a line per seat.
pub fn lines(scores: &[Score]) -> Vec<String> {
    scores.iter().enumerate().map(|(seat, s)| format!("seat {seat}: {}", s.line())).collect()
}

/// `{"total": 42, "breakdown": {"buildings": 30, …}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreView {
    /// Total points.
    pub total: i32,
    /// Points by source, in the order they were added.
    pub breakdown: Ordered<i32>,
}

/// A seat and its score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatScore {
    /// Seat number.
    pub seat: usize,
    /// Its score.
    pub score: ScoreView,
}

/// Every seat's score, as `score --json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoresView {
    /// One entry per seat.
    pub players: Vec<SeatScore>,
}

impl ScoresView {
    /// The view of these scores, seat by seat.
    pub fn of(scores: &[Score]) -> ScoresView {
        ScoresView { players: scores.iter().enumerate().map(|(seat, s)| SeatScore { seat, score: s.view() }).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_on_points_go_to_the_tie_break_and_stay_shared_when_equal() {
        let s = |total, tie_break| Score { total, tie_break, ..Score::default() };
        assert_eq!(winners_of(&[s(10, 1), s(10, 3), s(9, 9)]), [1]);
        assert_eq!(winners_of(&[s(10, 2), s(10, 2), s(9, 9)]), [0, 1]);
    }

    #[test]
    fn parts_add_up_in_the_order_they_came() {
        let mut score = Score::default();
        score.add("buildings", 9);
        score.add("bonus", 3);
        score.add("buildings", 1);
        assert_eq!((score.total, score.get("buildings"), score.get("none")), (13, 10, 0));
        assert_eq!(score.line(), "13 (buildings 10, bonus 3)");
        let json = serde_json::to_string(&score.view()).unwrap();
        assert_eq!(json, r#"{"total":13,"breakdown":{"buildings":10,"bonus":3}}"#);
    }
}
