//! The ruleset's own actions (`[[action]]`) at play: which are offered at a
//! decision, and what one does.
//!
//! An action is offered at its decision (the trader's `sell`) to the seat
//! deciding, when it owns the `owners_of` card (working). Its script's
//! `legal(ctx)` lists the arguments it may be given now; without one, the
//! engine lists every combination of the candidates of its `args` kinds (the
//! actor's buildings, its hand cards) that `allowed(ctx)` accepts (all, without
//! one). `on_action(ctx)` returns its effects; a `uses = "sell"` action costs
//! one of the seller's sales, and the seller goes on selling once its effects
//! (a discard to choose) are done. A good an action's effect puts on a
//! building cannot be sold in the same phase.

use std::sync::Arc;

use rhai::{Array, Dynamic, ImmutableString};

use super::effects::Origin;
use super::{Decision, Game, Step, script_slot};
use crate::actions::{Act, Action};
use crate::error::GameError;
use crate::hooks::{Ctx, Hook};
use crate::ruleset::{ActionAt, ArgKind};

impl Game {
    /// The sell decision for `seat` with `left` sales: with the ruleset's own
    /// actions it may take there (none, without any: nothing is worked out).
    #[inline(always)]
    pub(crate) fn ask_sell(&mut self, seat: usize, left: i32, done: i32) -> Result<(), GameError> {
        if !self.rs.actions.is_empty() {
            let host = &self.rs.scripts;
            self.sell_acts = host.timed_work(engine_rules::profile::OFFERING, || self.offered(seat, ActionAt::Sell))?;
        }
        self.pending = Some(Decision::Sell { seat, left, done });
        Ok(())
    }

    /// The ruleset's own actions offered at the pending sell decision.
    pub fn sell_acts(&self) -> &[Act] {
        &self.sell_acts
    }

    /// The ruleset's own actions offered to `seat` at decision `at`, each with its arguments.
    #[inline(never)]
    fn offered(&self, seat: usize, at: ActionAt) -> Result<Box<[Act]>, GameError> {
        let rs = &self.rs;
        let mut out: Vec<Act> = Vec::new();
        for (d, def) in rs.actions.iter().enumerate().filter(|(_, def)| def.decision == at) {
            if let Some(c) = def.owners_of
                && !self.players[seat].city.iter().any(|s| s.card == c && s.active)
            {
                continue;
            }
            let owner = usize::from(rs.action_owner(d));
            let scripts = &rs.scripts;
            let lists: Vec<Vec<String>> = if scripts.listens(Hook::Legal as usize, owner) {
                let v = self.call_action(Hook::Legal, seat, d, None)?;
                listed_args(v).map_err(|e| scripts.bad_return(Hook::Legal as usize, owner, &e))?
            } else {
                let all = engine_rules::actions::combinations(&def.args, |kind| self.candidates_of(kind, seat));
                let mut kept = Vec::with_capacity(all.len());
                for args in all {
                    if scripts.listens(Hook::Allowed as usize, owner) {
                        let v = self.call_action(Hook::Allowed, seat, d, Some(&args))?;
                        let ok = crate::hooks::as_bool(v)
                            .map_err(|e| scripts.bad_return(Hook::Allowed as usize, owner, &e))?;
                        if !ok {
                            continue;
                        }
                    }
                    kept.push(args);
                }
                kept
            };
            for args in lists {
                let w = if args.is_empty() {
                    Act::NO_ARGS
                } else {
                    rs.cards.word(&args.join(" ")).ok_or_else(|| {
                        scripts.bad_return(Hook::Legal as usize, owner, "too many different arguments in this ruleset")
                    })?
                };
                let act = Act { def: d as u8, args: w };
                if !out.contains(&act) {
                    out.push(act);
                }
            }
        }
        Ok(out.into())
    }

    /// The candidates of an argument kind, as the notation writes them, each once.
    fn candidates_of(&self, kind: ArgKind, seat: usize) -> Vec<String> {
        let cards = &self.rs.cards;
        let p = &self.players[seat];
        let ids: Vec<u16> = match kind {
            ArgKind::Building => p.city.iter().map(|s| s.card).collect(),
            ArgKind::Hand => p.hand.clone(),
        };
        let mut seen = engine_play::seen::Seen::default();
        ids.into_iter().filter(|&c| seen.insert(usize::from(c))).map(|c| cards.id(c).to_owned()).collect()
    }

    /// Calls hook `hook` of action `def`'s script for `seat` (`ctx.action`, and `ctx.args` when given).
    fn call_action(&self, hook: Hook, seat: usize, def: usize, args: Option<&[String]>) -> Result<Dynamic, GameError> {
        let owner = self.rs.action_owner(def);
        let ctx: Ctx = self.ctx_of(seat, &self.players[seat].city, owner);
        let mut sctx = self.script_ctx(hook, ctx, None);
        let values: Array = args.unwrap_or_default().iter().map(|t| arg_value(t)).collect();
        sctx.act = Some(Arc::new((ImmutableString::from(self.rs.actions[def].id.as_str()), values)));
        let v = self.rs.scripts.call(hook as usize, usize::from(owner), Dynamic::from(sctx))?;
        Ok(v.unwrap_or(Dynamic::UNIT))
    }

    /// Takes one of the ruleset's own actions at `seat`'s sell decision: a
    /// sale is used, its `on_action` effects run, then the seller sells on.
    #[cold]
    #[inline(never)]
    pub(crate) fn act_at_sale(&mut self, seat: usize, left: i32, done: i32, a: Act) -> Result<(), GameError> {
        let d = usize::from(a.def);
        let text = Action::Act(a).text(&self.rs.cards);
        self.event(Some(seat), |_| format!("seat {seat}: {text}"));
        let left = if self.rs.actions[d].uses_sale { left - 1 } else { left };
        self.steps.push_front(Step::Selling { seat, left, done });
        let owner = self.rs.action_owner(d);
        if !self.rs.scripts.listens(Hook::Action as usize, usize::from(owner)) {
            return Ok(());
        }
        let args = a.arg_texts(&self.rs.cards);
        let value = self.call_action(Hook::Action, seat, d, Some(&args))?;
        self.take_effects(Hook::Action, value, Origin { seat, slot: script_slot(owner), target: None }, false)
    }

    /// The seller goes on after an action: sells again, or its selling ends.
    #[inline(never)]
    pub(crate) fn sell_on(&mut self, seat: usize, left: i32, done: i32) -> Result<(), GameError> {
        if left > 0 {
            return self.ask_sell(seat, left, done);
        }
        self.finish_selling::<true>(seat, done)
    }
}

/// An argument as a script reads it in `ctx.args`: a number, or the word as written (a card id).
fn arg_value(text: &str) -> Dynamic {
    text.parse::<i32>().map_or_else(|_| Dynamic::from(ImmutableString::from(text)), Dynamic::from_int)
}

/// The argument lists a `legal` hook returned: a card as its id.
fn listed_args(v: Dynamic) -> Result<Vec<Vec<String>>, String> {
    engine_script::results::listed_args(v, |v| v.read_lock::<crate::hooks::Card>().map(|c| Ok(c.id())))
}

#[cfg(test)]
mod tests {
    /// The ruleset's own actions cost the game's hot types nothing: an action,
    /// a build option, a decision and a step keep their sizes.
    #[test]
    fn an_action_and_a_decision_keep_their_sizes() {
        assert!(std::mem::size_of::<crate::actions::Action>() <= 6);
        assert_eq!(std::mem::size_of::<crate::game::BuildOption>(), 32);
        assert!(std::mem::size_of::<crate::game::Decision>() <= 48, "{}", std::mem::size_of::<crate::game::Decision>());
        assert!(std::mem::size_of::<super::Step>() <= 24);
    }
}
