//! The step machine: [`Game::advance`] runs queued [`Step`]s and effects until
//! a decision with a real choice is pending; rounds, round-start offers, hand
//! limits and role choices queue the steps.

use super::effects::Grants;
use super::{Decision, DiscardReason, Game, NOBODY, Phase};
use crate::actions::Role;
use crate::error::GameError;
use crate::hooks::{self, EventFacts, Hook};
use std::sync::Arc;

use engine_script::{has_hook, hook_bit};

const TURN_START: [Hook; 3] = [Hook::TurnStart, Hook::OtherTurnStart, Hook::AnyTurnStart];
const TURN_END: [Hook; 3] = [Hook::TurnEnd, Hook::OtherTurnEnd, Hook::AnyTurnEnd];

/// Work still to do, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A round-start offer of one building (chapel, bank, office building).
    Offer { seat: usize, slot: usize },
    /// Check one player's hand limit.
    HandLimit { seat: usize },
    /// Setup variant: discard back to the start hand.
    SetupDiscard { seat: usize },
    /// A player chooses a role.
    ChooseRole { seat: usize },
    /// Things that happen once when a phase starts.
    PhaseStart,
    /// One player's turn in the current phase.
    Turn { seat: usize },
    /// A building reveals cards in the prospector phase.
    Reveal { seat: usize, slot: usize },
    /// Things that happen once when a phase ends.
    PhaseEnd,
    /// The end of a round: its hooks.
    RoundEnd,
    /// The governor passes left; a new round begins.
    NewRound,
    /// The start of one player's turn: `on_turn_start` and its other scopes.
    TurnStart { seat: usize },
    /// The end of one player's turn: `on_turn_end` and its other scopes.
    TurnEnd { seat: usize },
    /// The game is over (after the effects of its end).
    Over,
    /// Whether the game ends, after the effects of a builder phase's end that move a building into a city.
    EndCheck,
    /// A seller sells on after one of the ruleset's own actions (and its effects).
    Selling { seat: usize, left: i32, done: i32 },
}

/// The queue of steps, kept as a stack whose top is the front of the
/// queue: a phase queues its steps at the front one by one (a push) and the
/// machine takes them from the front (a pop), both cheaper than a ring
/// buffer's. Queuing at the back (a round's steps, rarely more than a
/// dozen) shifts the few steps there are.
#[derive(Debug, Default)]
pub(crate) struct Steps(Vec<Step>);

impl Clone for Steps {
    fn clone(&self) -> Self {
        Steps(self.0.clone())
    }

    /// Reuses this queue's buffer.
    fn clone_from(&mut self, other: &Self) {
        self.0.clone_from(&other.0);
    }
}

impl Steps {
    /// Queues `step` to run next.
    pub(crate) fn push_front(&mut self, step: Step) {
        self.0.push(step);
    }

    /// Queues `step` to run after every queued step.
    pub(crate) fn push_back(&mut self, step: Step) {
        self.0.insert(0, step);
    }

    /// Queues `steps`, in order, to run next.
    pub(crate) fn push_front_all(&mut self, steps: impl DoubleEndedIterator<Item = Step>) {
        self.0.extend(steps.rev());
    }

    /// Queues `steps`, in order, after every queued step.
    pub(crate) fn push_back_all(&mut self, steps: impl DoubleEndedIterator<Item = Step>) {
        if self.0.is_empty() {
            self.0.extend(steps.rev()); // the usual case (a new round): nothing to shift
        } else {
            self.0.splice(0..0, steps.rev());
        }
    }

    /// Takes the next step.
    pub(crate) fn pop_front(&mut self) -> Option<Step> {
        self.0.pop()
    }

    /// Drops every queued step.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// Keeps the steps `f` keeps (changing them as it goes), in order.
    pub(crate) fn retain_mut(&mut self, f: impl FnMut(&mut Step) -> bool) {
        self.0.retain_mut(f);
    }
}

impl Game {
    /// Runs steps until a decision with a real choice is pending or the game ends.
    #[inline]
    pub(crate) fn advance(&mut self) -> Result<(), GameError> {
        loop {
            // What happened is heard first, before the next decision, effect or step.
            if !self.over
                && let Some(heard) = self.heard.pop_front()
            {
                self.hear(heard)?;
                continue;
            }
            if self.pending.is_some() {
                let mut legal = std::mem::take(&mut self.legal);
                self.compute_legal(&mut legal);
                match legal.as_slice() {
                    [only] => {
                        let only = *only;
                        self.legal = legal;
                        self.apply_legal(only)?;
                        continue;
                    }
                    [] => {
                        self.legal = legal;
                        self.pending = None;
                        self.run = 0;
                        continue;
                    }
                    _ => {
                        self.legal = legal;
                        return Ok(());
                    }
                }
            }
            self.legal.clear();
            if self.over {
                return Ok(());
            }
            if let Some(effect) = self.effects.pop_front() {
                self.run_effect(effect)?;
            } else {
                let step = match self.steps.pop_front() {
                    Some(s) => s,
                    None => Step::RoundEnd,
                };
                self.chain = super::Chain::default();
                self.run_step(step)?;
            }
            if self.pending.is_some() {
                self.pending_chain = self.chain;
            }
        }
    }

    fn run_step(&mut self, step: Step) -> Result<(), GameError> {
        match step {
            Step::Offer { seat, slot } => self.round_start_offer(seat, slot),
            Step::HandLimit { seat } => self.hand_limit(seat),
            Step::SetupDiscard { seat } => {
                let keep = self.rs.rules.start_hand;
                let left = self.players[seat].hand.len().saturating_sub(keep);
                if left > 0 {
                    self.pending = Some(Decision::Discard { seat, left, reason: DiscardReason::Setup });
                }
                Ok(())
            }
            Step::ChooseRole { seat } => {
                let boost = self.privilege_factor(seat)?;
                let limited = self.boost_limited();
                let boost = if limited && self.players[seat].boost_used { 1 } else { boost };
                self.pending = Some(Decision::Role { seat, boost, optional_boost: limited && boost > 1 });
                Ok(())
            }
            Step::PhaseStart => self.phase_start(),
            Step::Turn { seat } => self.turn(seat),
            Step::Reveal { seat, slot } => self.reveal(seat, slot),
            Step::PhaseEnd => self.phase_end(),
            Step::TurnStart { seat } => self.turn_event(TURN_START, "turn_start", seat),
            Step::TurnEnd { seat } => self.turn_event(TURN_END, "turn_end", seat),
            Step::Over => {
                self.over = true;
                Ok(())
            }
            Step::EndCheck => self.end_check(),
            Step::Selling { seat, left, done } => self.sell_on(seat, left, done),
            Step::RoundEnd => {
                let (governor, round) = (self.governor, self.round);
                let told = |_: &mut Game| EventFacts { round, ..EventFacts::new("round_end", governor) };
                self.everyone_hooks(Hook::RoundEnd, governor, governor, told)?;
                // The round's effects (a choice, a discard) and events come before the next round.
                if !self.effects.is_empty() || !self.heard.is_empty() {
                    self.steps.push_front(Step::NewRound);
                    return Ok(());
                }
                self.new_round()
            }
            Step::NewRound => self.new_round(),
        }
    }

    fn new_round(&mut self) -> Result<(), GameError> {
        if self.round >= self.rs.rules.max_rounds {
            self.over = true;
            self.stalled = true;
            self.steps.clear();
            self.event(None, |g| format!("no game end after {} rounds: the game is scored as it stands", g.round));
            return Ok(());
        }
        self.governor = (self.governor + 1) % self.players.len();
        self.round += 1;
        Arc::make_mut(&mut self.earlier_rounds).push(self.chosen_by);
        self.chosen_by = [NOBODY; 5];
        self.event(None, |g| format!("round {} begins; governor is seat {}", g.round, g.governor));
        self.start_round(false);
        self.hear_new_round()
    }

    /// Everyone hears that a round began (`on_new_round`): before the round-start
    /// offers, as its effects run before the queued steps.
    pub(crate) fn hear_new_round(&mut self) -> Result<(), GameError> {
        let (governor, round) = (self.governor, self.round);
        let told = |_: &mut Game| EventFacts { round, ..EventFacts::new("new_round", governor) };
        self.everyone_hooks(Hook::NewRound, governor, governor, told)
    }

    /// A player's turn starts or ends: its buildings hear it (`own`), then the
    /// others' from its left (`other`, `any`).
    fn turn_event(&mut self, hooks: [Hook; 3], name: &'static str, seat: usize) -> Result<(), GameError> {
        let role = self.phase.map(|ph| ph.role.name());
        let event = |_: &mut Game| EventFacts { role, ..EventFacts::new(name, seat) };
        self.event_hooks(hooks.map(Some), seat, None, |_| {}, event)
    }

    /// Queues a round: offers and hand limits (not in the first round), then role choices.
    pub(crate) fn start_round(&mut self, first: bool) {
        let n = self.players.len();
        for p in &mut self.players {
            p.boost_used = false;
        }
        // The round's steps go behind whatever is queued, all at once.
        let mut offers: smallvec::SmallVec<[_; 4]> = smallvec::SmallVec::new();
        if !first && has_hook(self.hook_union, Hook::RoundStart as usize) {
            for k in 0..n {
                let seat = (self.governor + k) % n;
                for slot in self.listeners(Hook::RoundStart, seat) {
                    let card = self.players[seat].city[slot].card;
                    offers.push((self.rs.cards.get(card).order, k, slot, seat));
                }
            }
            offers.sort();
        }
        let governor = self.governor;
        let roles = self.rs.round_roles.get(n).copied().unwrap_or_else(|| self.rs.rules.roles_per_round(n));
        let roles = roles.min(Role::ALL.len());
        let limits = if first { 0 } else { n };
        // Queued last first, as each goes in front of the one after it.
        let mut round = Steps::default();
        let steps = if self.steps.0.is_empty() { &mut self.steps } else { &mut round };
        steps.push_front(Step::RoundEnd);
        steps.push_front_all((0..roles).map(|k| Step::ChooseRole { seat: (governor + k) % n }));
        steps.push_front_all((0..limits).map(|k| Step::HandLimit { seat: (governor + k) % n }));
        steps.push_front_all(offers.into_iter().map(|(_, _, slot, seat)| Step::Offer { seat, slot }));
        if !round.0.is_empty() {
            self.steps.push_back_all(round.0.iter().rev().copied());
        }
    }

    /// True when a privilege boost works only once per round at this player count.
    pub(crate) fn boost_limited(&self) -> bool {
        self.rs.rules.privilege_boost_once_per_round.contains(&self.players.len())
    }

    fn round_start_offer(&mut self, seat: usize, slot: usize) -> Result<(), GameError> {
        let ctx = self.ctx(seat, slot);
        let (tuck, exchange) = self.call_map(Hook::RoundStart, ctx, &["tuck", "exchange"], |map| {
            Ok((hooks::map_int(map, "tuck")?, hooks::map_int(map, "exchange")?))
        })?;
        if self.players[seat].hand.is_empty() {
            return Ok(());
        }
        if self.logging() && (tuck > 0 || exchange > 0) {
            let hand = self.players[seat].hand.len() as i32;
            let (n, what, end) = if tuck > 0 { (tuck, "put", " under it") } else { (exchange, "exchange", "") };
            let amount = match n {
                1 => "1 hand card".to_owned(),
                n if n >= hand && n > 2 => "any number of hand cards".to_owned(),
                n => format!("up to {n} hand cards"),
            };
            let card = self.players[seat].city[slot].card;
            self.event_from(seat, card, |g| format!("seat {seat}: {} lets it {what} {amount}{end}", g.name_of(card)));
        }
        if tuck > 0 {
            self.pending = Some(Decision::Tuck { seat, slot, left: tuck as usize, done: 0 });
        } else if exchange > 0 {
            self.pending = Some(Decision::Exchange { seat, left: exchange as usize, done: 0 });
        }
        Ok(())
    }

    /// The hand limit of `seat` now.
    #[inline]
    pub fn hand_limit_of(&self, seat: usize) -> Result<i32, GameError> {
        let others = self.others_sum(Hook::OtherHandLimit, seat, |_| {})?;
        Ok(self.own_hand_limit(seat)?.saturating_add(others))
    }

    /// The hand limit `seat`'s own buildings and the ruleset allow.
    fn own_hand_limit(&self, seat: usize) -> Result<i32, GameError> {
        self.max_hook(Hook::HandLimit, seat, self.rs.rules.hand_limit)
    }

    fn hand_limit(&mut self, seat: usize) -> Result<(), GameError> {
        self.players[seat].gained = 0;
        let limit = self.hand_limit_of(seat)?.max(0) as usize;
        let hand = self.players[seat].hand.len();
        if hand > limit {
            if self.logging() {
                let raised = limit as i32 > self.rs.rules.hand_limit;
                let cause = if raised { self.hook_source(Hook::HandLimit, seat, limit as i32) } else { None };
                let by = cause.map(|c| format!(" ({} allows {limit})", self.name_of(c))).unwrap_or_default();
                let text =
                    format!("seat {seat} has {hand} cards, more than the hand limit{by}: discards {}", hand - limit);
                self.log_event(Some(seat), cause, None, |_| (text, None));
            }
            self.pending = Some(Decision::Discard { seat, left: hand - limit, reason: DiscardReason::HandLimit });
        }
        Ok(())
    }

    pub(super) fn choose_role(&mut self, seat: usize, role: Role, factor: i32) -> Result<(), GameError> {
        self.chosen_by[role as usize] = seat as u8;
        self.players[seat].roles_chosen |= role.bit();
        for p in &mut self.players {
            p.grants = Grants::default();
        }
        if factor > 1 && self.boost_limited() {
            self.players[seat].boost_used = true;
        }
        if factor > 1 && self.logging() {
            let cause = self.hook_source(Hook::Privilege, seat, factor);
            let by = match factor {
                2 => "doubles".to_owned(),
                3 => "triples".to_owned(),
                n => format!("multiplies by {n}"),
            };
            let who = cause.map_or("a building".to_owned(), |c| self.name_of(c));
            self.log_event(Some(seat), cause, None, |_| {
                (format!("seat {seat}: {who} {by} the {role} privilege"), None)
            });
        }
        self.phase = Some(Phase { role, chooser: seat, factor });
        self.phase_sold = 0;
        let n = self.players.len();
        // In front of the queue, in order: phase start, one turn per seat from the chooser, phase end.
        self.steps.push_front(Step::PhaseEnd);
        // A turn's start and end are steps only when some building may hear them.
        let anyone = |hooks: [Hook; 3]| self.hook_union & (hook_bit(hooks[1] as usize) | hook_bit(hooks[2] as usize));
        let (starts, ends) = (anyone(TURN_START), anyone(TURN_END));
        let own = hook_bit(Hook::TurnStart as usize) | hook_bit(Hook::TurnEnd as usize);
        if starts | ends | (self.hook_union & own) == 0 {
            self.steps.push_front_all((0..n).map(|k| Step::Turn { seat: (seat + k) % n }));
        } else {
            let mut phase: smallvec::SmallVec<[Step; 16]> = smallvec::SmallVec::new();
            for k in 0..n {
                let turn = (seat + k) % n;
                if starts != 0 || self.hook_mask[turn] & hook_bit(Hook::TurnStart as usize) != 0 {
                    phase.push(Step::TurnStart { seat: turn });
                }
                phase.push(Step::Turn { seat: turn });
                if ends != 0 || self.hook_mask[turn] & hook_bit(Hook::TurnEnd as usize) != 0 {
                    phase.push(Step::TurnEnd { seat: turn });
                }
            }
            self.steps.push_front_all(phase.into_iter());
        }
        self.steps.push_front(Step::PhaseStart);
        // Whoever listens to a role being chosen, before the phase starts.
        let event = |_: &mut Game| crate::hooks::EventFacts {
            role: Some(role.name()),
            ..crate::hooks::EventFacts::new("role", seat)
        };
        let hooks = [Some(Hook::Role), Some(Hook::OtherRole), Some(Hook::AnyRole)];
        self.event_hooks(hooks, seat, None, |_| {}, event)
    }

    /// The extra privilege amount for `seat` in the current phase: `base × factor` for the chooser.
    pub(crate) fn privilege(&self, seat: usize, base: i32) -> i32 {
        match self.phase {
            Some(ph) if ph.chooser == seat => base.saturating_mul(ph.factor),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Step, Steps};
    use std::collections::VecDeque;

    /// The stack gives the steps in the order a queue would, whatever the mix
    /// of pushes at either end, pops and removals.
    #[test]
    fn steps_come_out_in_queue_order() {
        let mut state = 7u64;
        let mut next = move |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let (mut steps, mut queue) = (Steps::default(), VecDeque::new());
        let mut popped = 0;
        for i in 0..2000 {
            let step = Step::Turn { seat: i };
            match next(6) {
                0 | 1 => {
                    steps.push_front(step);
                    queue.push_front(step);
                }
                2 => {
                    steps.push_back(step);
                    queue.push_back(step);
                }
                4 => {
                    let batch = [step, Step::HandLimit { seat: i }, Step::RoundEnd];
                    if i % 2 == 0 {
                        steps.push_back_all(batch.into_iter());
                        queue.extend(batch);
                    } else {
                        steps.push_front_all(batch.into_iter());
                        for s in batch.into_iter().rev() {
                            queue.push_front(s);
                        }
                    }
                }
                3 => {
                    let (a, b) = (steps.pop_front(), queue.pop_front());
                    assert_eq!(a, b, "pop {i}");
                    popped += usize::from(a.is_some());
                }
                _ => {
                    let odd = |s: &mut Step| matches!(s, Step::Turn { seat } if *seat % 2 == 1);
                    steps.retain_mut(|s| !odd(s));
                    queue.retain_mut(|s| !odd(s));
                }
            }
        }
        let rest: Vec<Step> = std::iter::from_fn(|| steps.pop_front()).collect();
        assert_eq!(rest, Vec::from(queue));
        assert!(popped > 100, "the mix popped only {popped} steps");
    }
}
