//! Action text: a line of one or more actions answers one seat's decision,
//! and a line that runs past it says why.

use super::{Decision, Event, Game};
use crate::actions::{Action, Line, parse_line};
use crate::cards::CardIdx;
use crate::error::GameError;

impl Game {
    /// Applies a line of action text (one or more atomic actions).
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, stop } =
            parse_line(text, &self.rs.cards).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let mut events = Vec::new();
        let seat = self.pending.as_ref().map(Decision::seat);
        let start = self.pending.clone();
        let mut built = match &start {
            Some(Decision::Pay { card, .. }) => Some(*card),
            _ => None,
        };
        for a in &actions {
            if let Action::Build { card, .. } = a {
                built = Some(*card);
            }
            // A forced payment (every hand card, the last good that must pay) was
            // made automatically; accept it written out.
            // So was a script's discard of every hand card.
            let forced = match a {
                Action::Pay(_) | Action::Spend(_) | Action::SpendOf(..) => {
                    !matches!(self.pending, Some(Decision::Pay { .. }))
                }
                Action::Discard(_) => !matches!(self.pending, Some(Decision::Discard { .. })),
                _ => false,
            };
            if forced && let Some(i) = self.auto_paid.iter().position(|x| x == a) {
                self.auto_paid.swap_remove(i);
                continue;
            }
            // A line answers one seat's decision: what is left once it is over
            // would otherwise answer the next decision, maybe another seat's.
            if let Some(start) = &start
                && !self.continues(start)
            {
                let cards = &self.rs.cards;
                return Err(GameError::Illegal {
                    action: a.text(cards),
                    why: self.line_overrun(start, *a, built),
                    legal: self.legal.iter().map(|a| a.text(cards)).collect(),
                });
            }
            events.extend(self.apply(*a)?);
        }
        // `produce a` means "on a only": stop the same decision if it is still open.
        let last = actions.last().copied();
        if stop
            && last.is_some_and(|a| a.may_stop_after())
            && self.pending.as_ref().map(Decision::seat) == seat
            && self.legal_actions().contains(&Action::Pass)
            && self.same_kind_pending(last.unwrap())
        {
            events.extend(self.apply(Action::Pass)?);
        }
        Ok(events)
    }

    /// Applies the atomic actions of a line exactly as written: unlike
    /// [`Game::apply_text`], `produce a` does not end the decision. Saved games
    /// replay with this, since they hold one recorded action per line.
    pub fn apply_exact(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, .. } =
            parse_line(text, &self.rs.cards).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let mut events = Vec::new();
        for a in actions {
            events.extend(self.apply(a)?);
        }
        Ok(events)
    }

    fn same_kind_pending(&self, last: Action) -> bool {
        matches!(
            (self.pending.as_ref(), last),
            (Some(Decision::Produce { .. }), Action::Produce(_))
                | (Some(Decision::Sell { .. }), Action::Sell(_))
                | (Some(Decision::Tuck { .. }), Action::Tuck(_))
        )
    }

    /// True while the pending decision is still `start`'s seat answering it
    /// (paying for a building continues choosing it).
    fn continues(&self, start: &Decision) -> bool {
        match &self.pending {
            Some(now) => {
                now.seat() == start.seat()
                    && (now.name() == start.name()
                        || matches!((start, now), (Decision::Build { .. }, Decision::Pay { .. })))
            }
            None => false,
        }
    }

    /// Why a line's action `a` comes too late: `start`, the decision the line
    /// answered, is over (an allowance used up, a building paid in full).
    fn line_overrun(&self, start: &Decision, a: Action, built: Option<CardIdx>) -> String {
        let cards = &self.rs.cards;
        let seat = start.seat();
        let only = |left: i64, done: i64, noun: &str| {
            let more = if done > 0 { " more" } else { "" };
            match left {
                1 => format!("only 1{more} {noun}"),
                n => format!("only {n}{more} {noun}s"),
            }
        };
        let why = match start {
            Decision::Produce { left, done, .. } => {
                format!("seat {seat} may produce {}", only((*left).into(), (*done).into(), "good"))
            }
            Decision::Sell { left, done, .. } => {
                format!("seat {seat} may sell {}", only((*left).into(), (*done).into(), "good"))
            }
            Decision::Keep { left, .. } => format!("seat {seat} may keep {}", only(*left as i64, 0, "card")),
            Decision::Discard { left, .. } => format!("seat {seat} discards {}", only(*left as i64, 0, "card")),
            Decision::Tuck { left, slot, .. } => format!(
                "seat {seat} may put {} under its {}",
                only(*left as i64, 0, "card"),
                self.name_of(self.players[seat].city[*slot].card)
            ),
            Decision::Exchange { left, .. } => format!("seat {seat} may exchange {}", only(*left as i64, 0, "card")),
            Decision::Pay { .. } | Decision::Build { .. }
                if matches!(a, Action::Pay(_) | Action::Spend(_) | Action::SpendOf(..)) =>
            {
                let what = built.map_or("the building".to_owned(), |c| cards.id(c).to_owned());
                format!("seat {seat} has paid all that {what} costs")
            }
            Decision::Role { .. } => format!("seat {seat} chooses one role per turn"),
            _ => format!("seat {seat}'s {} is over", start.name()),
        };
        let next = match &self.pending {
            Some(d) => format!("; now seat {} must {}", d.seat(), self.task(d)),
            None => String::new(),
        };
        format!("{why}{next}")
    }
}
