//! The bookkeeping every game keeps beside its state, once: the event log
//! (on or off), the recorded actions (on or off) with the re-deals among them,
//! and the count of actions applied. A game embeds a [`Journal`], hands it out
//! through [`crate::Game::journal`] and [`crate::Game::journal_mut`], and the
//! trait's saving and logging methods follow.

use engine_rules::saved::Redeal;

/// What a game notes beside its state: events for a log, actions for a saved
/// game, the re-deals an undo made, and how many actions were applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Journal<A, E> {
    /// Events since the last [`Journal::take_events`], while the log is on.
    log: Option<Vec<E>>,
    /// Every action given to the game, while recording (saved games, undo).
    record: Option<Vec<A>>,
    /// The re-deals among the recorded actions (undo), in order.
    redeals: Vec<Redeal>,
    /// Actions applied since the start, automatic ones included.
    applied: u64,
}

impl<A, E> Default for Journal<A, E> {
    fn default() -> Self {
        Journal { log: None, record: None, redeals: Vec::new(), applied: 0 }
    }
}

impl<A: Clone, E> Journal<A, E> {
    /// Turns the event log on (off by default, for speed); the events kept so far go.
    pub fn log_events(&mut self, on: bool) {
        self.log = on.then(Vec::new);
    }

    /// True while events are logged: work done only to describe an event checks this first.
    pub fn logging(&self) -> bool {
        self.log.is_some()
    }

    /// Logs the event `event` makes, if the log is on (it is not made otherwise).
    pub fn event(&mut self, event: impl FnOnce() -> E) {
        if let Some(log) = &mut self.log {
            log.push(event());
        }
    }

    /// The events since the last call.
    pub fn take_events(&mut self) -> Vec<E> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Turns recording of the actions given to the game on (off by default, for
    /// speed); what was recorded before, re-deals included, goes.
    pub fn record_actions(&mut self, on: bool) {
        self.record = on.then(Vec::new);
        self.redeals.clear();
    }

    /// Notes an action given to the game, if recording.
    pub fn record(&mut self, action: A) {
        if let Some(record) = &mut self.record {
            record.push(action);
        }
    }

    /// The actions recorded since recording was turned on.
    pub fn recorded(&self) -> &[A] {
        self.record.as_deref().unwrap_or_default()
    }

    /// The re-deals among the recorded actions.
    pub fn redeals(&self) -> &[Redeal] {
        &self.redeals
    }

    /// The saved entries: each recorded action as `text` words it, the re-deals in their places.
    pub fn saved_texts(&self, text: impl Fn(&A) -> String) -> Vec<String> {
        Redeal::interleave(self.recorded().iter().map(text), &self.redeals)
    }

    /// The number of entries a saved game holds: the recorded actions and the re-deals among them.
    pub fn saved_len(&self) -> usize {
        self.recorded().len() + self.redeals.len()
    }

    /// Counts one action applied.
    pub fn count_action(&mut self) {
        self.applied += 1;
    }

    /// Actions applied since the start.
    pub fn actions_applied(&self) -> u64 {
        self.applied
    }

    /// For a copy a search plays on: no log and no record (the re-deals and the count stay).
    pub fn detach(&mut self) {
        self.log = None;
        self.record = None;
    }

    /// For a game dealt again from `seed` for `seats` in place of `before` (an
    /// undo's re-deal): takes over `before`'s log and record and notes the re-deal.
    pub fn redealt(&mut self, before: &mut Journal<A, E>, seats: &[usize], seed: u64) {
        self.log = before.log.take();
        self.record = before.record.take();
        self.redeals = std::mem::take(&mut before.redeals);
        self.redeals.push(Redeal { at: self.recorded().len(), seats: seats.to_vec(), seed });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_records_and_interleaves_redeals() {
        let mut j: Journal<u8, String> = Journal::default();
        j.record(1);
        assert_eq!(j.saved_len(), 0, "off by default");
        j.record_actions(true);
        j.record(1);
        j.record(2);
        let mut after: Journal<u8, String> = Journal::default();
        after.redealt(&mut j, &[1], 7);
        after.record(3);
        assert_eq!(after.saved_len(), 4);
        let texts = after.saved_texts(|a| format!("a{a}"));
        assert_eq!(texts[0], "a1");
        assert_eq!(texts[1], "a2");
        assert_eq!(texts[3], "a3");
        assert!(Redeal::parse(&texts[2]).is_some());
    }

    #[test]
    fn events_are_made_only_while_logging() {
        let mut j: Journal<u8, String> = Journal::default();
        j.event(|| unreachable!("not logging"));
        j.log_events(true);
        j.event(|| "one".into());
        assert_eq!(j.take_events(), vec!["one".to_owned()]);
        assert!(j.take_events().is_empty());
        j.count_action();
        assert_eq!(j.actions_applied(), 1);
    }
}
