//! Action text: a line of one or more actions.

use super::{Decision, Event, Game};
use crate::actions::{Action, Line, parse_line};
use crate::error::GameError;

impl Game {
    /// Applies a line of action text (one or more atomic actions of one seat).
    /// An action that was answered automatically (the only legal one) may be
    /// written out: it is skipped. `take denar3` takes only that card.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, stop } =
            parse_line(text, &self.rs).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let seat = self.pending.as_ref().map(Decision::seat);
        // The value taken in this turn so far, to explain a take past the limit.
        let mut taken = match self.pending {
            Some(Decision::Take { taken, .. }) => taken,
            _ => 0,
        };
        let mut events = Vec::new();
        for a in &actions {
            if !self.legal.contains(a)
                && let Some(i) = self.auto.iter().position(|x| x == a)
            {
                self.auto.drain(..=i);
                continue;
            }
            if let (Some(s), Some(now)) = (seat, self.pending)
                && now.seat() != s
            {
                let over = match a {
                    Action::Take(m) => {
                        let limit = self.rs.rules.take_limit;
                        let more = taken + u32::from(m.value);
                        format!(
                            "seat {s} has taken {taken} this turn; {} would make {more}, more than {limit}, so ",
                            self.rs.money_id(*m)
                        )
                    }
                    _ => String::new(),
                };
                let why = format!("{over}seat {s}'s turn is over; now seat {} must {}", now.seat(), self.task(&now));
                return Err(self.illegal(*a, why));
            }
            if let Action::Take(m) = a {
                taken += u32::from(m.value);
            }
            events.extend(self.apply(*a)?);
        }
        // A take a card's `extra_take` still owes cards to goes on: the line did not give them up.
        if stop
            && self.extra_takes == 0
            && matches!(self.pending, Some(Decision::Take { seat: s, .. }) if Some(s) == seat)
            && self.legal.contains(&Action::Done)
        {
            events.extend(self.apply(Action::Done)?);
        }
        Ok(events)
    }

    /// Applies the atomic actions of a line exactly as written (a `take` does
    /// not stop the taking). Saved games replay with this.
    pub fn apply_exact(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, .. } =
            parse_line(text, &self.rs).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let mut events = Vec::new();
        for a in actions {
            events.extend(self.apply(a)?);
        }
        Ok(events)
    }
}
