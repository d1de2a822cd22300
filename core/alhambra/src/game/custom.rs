//! The ruleset's own actions (`[[action]]`) at play: which are legal now and
//! what one does.
//!
//! An action whose file names `args` kinds is offered with every combination
//! of candidates of those kinds (display slots, hand cards, display cards,
//! the actor's buildings) that its script's `allowed(ctx)` accepts (all,
//! without one); a script's `legal(ctx)` instead lists the arguments itself.
//! `on_action(ctx)` returns its effects; then the turn ends (or, with
//! `ends_turn = false`, the seat acts again: once per turn for each such action).
//!
//! An action with `payment` buys the building in the display slot its first
//! argument names: it is offered only where the actor can pay (`exact`:
//! exactly the price, `price`: the price or more, in the slot's currency, by
//! the cards' face values), and after `on_action` the actor pays card by card
//! as after `buy`. An action at `other_turn_end` is offered when a turn ends,
//! before the refill, to each other seat from the left of the seat whose turn
//! ended that has one to take (or `pass`); its purchase gives no extra action.

use engine_script::results::as_bool;
use rhai::{Array, Dynamic, Map};

use super::asks::Step;
use super::scripts::{Heard, Listener, int, s};
use super::{Decision, Game};
use crate::actions::{Act, Action, WordId};
use crate::error::GameError;
use crate::hooks::Hook;
use crate::ruleset::{ActionAt, ArgKind, Payment};

impl Game {
    /// The card-like listener that runs action `def`'s script for `seat`.
    fn action_listener(&self, def: usize, seat: usize) -> Listener {
        Listener { owner: self.rs.hooks.action_owner(def), seat, card: Heard::Action(def as u8), owned: 0, kind: None }
    }

    /// Adds the ruleset's own actions the seat to decide may take now to `out`.
    #[inline(never)]
    pub(super) fn custom_legal(&self, out: &mut Vec<Action>) -> Result<(), GameError> {
        let (seat, at) = match self.pending {
            Some(Decision::Turn { seat }) => (seat, ActionAt::Turn),
            Some(Decision::OutOfTurn { seat, .. }) => (seat, ActionAt::OtherTurnEnd),
            Some(Decision::Pay { seat, slot, paid }) if self.pay_rule == Some(Payment::Exact) => {
                // Only the cards after which the price can still be met exactly.
                out.retain(|a| match *a {
                    Action::Pay(m) => self.exact_after(seat, slot, paid, Some(m)),
                    _ => true,
                });
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.offered(seat, at, out)
    }

    /// Adds to `out` the ruleset's own actions offered to `seat` at `at`.
    fn offered(&self, seat: usize, at: ActionAt, out: &mut Vec<Action>) -> Result<(), GameError> {
        let rs = &self.rs;
        for (d, def) in rs.actions.iter().enumerate() {
            if def.at != at || (!def.ends_turn && at == ActionAt::Turn && self.acted & (1 << d) != 0) {
                continue;
            }
            let l = self.action_listener(d, seat);
            let lists: Vec<Vec<String>> = if self.listens(Hook::Legal, &l) {
                let v = self.call_listener(Hook::Legal, &l, seat, &Dynamic::UNIT, &[])?;
                listed_args(v).map_err(|e| rs.hooks.bad_card_return(Hook::Legal, l.owner, &e))?
            } else {
                let mut all = vec![Vec::new()];
                for &kind in &def.args {
                    let options = self.candidates_of(kind, seat);
                    all = all
                        .into_iter()
                        .flat_map(|done| {
                            options.iter().map(move |o| {
                                let mut next = done.clone();
                                next.push(o.clone());
                                next
                            })
                        })
                        .collect();
                }
                let mut kept = Vec::with_capacity(all.len());
                for args in all {
                    if self.listens(Hook::Allowed, &l) {
                        let extra = [("args", self.args_value(d, &args))];
                        let v = self.call_listener(Hook::Allowed, &l, seat, &Dynamic::UNIT, &extra)?;
                        if !as_bool(v).map_err(|e| rs.hooks.bad_card_return(Hook::Allowed, l.owner, &e))? {
                            continue;
                        }
                    }
                    kept.push(args);
                }
                kept
            };
            for args in lists {
                if let Some(rule) = def.payment
                    && !self
                        .can_buy(seat, &args, rule)
                        .map_err(|e| rs.hooks.bad_card_return(Hook::Legal, l.owner, &e))?
                {
                    continue;
                }
                let w = rs.words.word(&args.join(" ")).ok_or_else(|| {
                    rs.hooks.bad_card_return(Hook::Legal, l.owner, "too many different arguments in this ruleset")
                })?;
                let act = Act { def: d as u8, args: WordId::of(w) };
                if !out.contains(&Action::Act(act)) {
                    out.push(Action::Act(act));
                }
            }
        }
        Ok(())
    }

    /// The candidates of an argument kind, as the notation writes them, each once.
    fn candidates_of(&self, kind: ArgKind, seat: usize) -> Vec<String> {
        let rs = &self.rs;
        let mut out: Vec<String> = match kind {
            ArgKind::Slot => (0..self.building_display.len())
                .filter(|&k| self.building_display[k].is_some())
                .map(|k| (k + 1).to_string())
                .collect(),
            ArgKind::Hand => self.players[seat].hand().iter().map(|&m| rs.money_id(m)).collect(),
            ArgKind::MoneyDisplay => self.money_display.iter().map(|&m| rs.money_id(m)).collect(),
            ArgKind::Building => self.players[seat].buildings.iter().map(|&b| rs.building(b).id.clone()).collect(),
        };
        let mut seen = std::collections::HashSet::new();
        out.retain(|t| seen.insert(t.clone()));
        out
    }

    /// `ctx.args`: a slot as its number, a money card as a map, anything else as written.
    fn args_value(&self, def: usize, args: &[String]) -> Dynamic {
        let rs = &self.rs;
        let kinds = &rs.actions[def].args;
        let values: Array = args
            .iter()
            .enumerate()
            .map(|(i, text)| match kinds.get(i) {
                Some(ArgKind::Hand | ArgKind::MoneyDisplay) => {
                    rs.lookup_money(text).map_or_else(|_| s(text), |m| self.money_map(m))
                }
                _ => text.parse::<i32>().map_or_else(|_| s(text), int),
            })
            .collect();
        Dynamic::from_array(values)
    }

    /// Applies one of the ruleset's own actions: its `on_action`, then the turn goes on.
    pub(super) fn act(&mut self, seat: usize, a: Act) -> Result<(), GameError> {
        let d = a.def as usize;
        let text = Action::Act(a).text(&self.rs);
        self.event(Some(seat), |_| format!("seat {seat}: {text}"));
        let ends_turn = self.rs.actions[d].ends_turn;
        if !ends_turn && self.out_of_turn.is_none() {
            self.acted |= 1 << d;
        }
        let next = match self.rs.actions[d].payment {
            Some(rule) => {
                let slot = bought_slot(&a.arg_texts(&self.rs)).expect("offered: a slot with a building");
                Step::ActPay { seat, slot, def: a.def, rule }
            }
            None if self.out_of_turn.is_some() => Step::OutOfTurnDone,
            None => Step::Acted { seat, ends_turn },
        };
        let l = self.action_listener(d, seat);
        if self.listens(Hook::Action, &l) {
            let args = self.args_value(d, &a.arg_texts(&self.rs));
            let v = self.call_listener(Hook::Action, &l, seat, &Dynamic::UNIT, &[("args", args)])?;
            self.apply_effects(Hook::Action, &l, v)?;
        }
        self.then(next)
    }

    /// After `on_action`: the payment for the building in `slot`, which the
    /// action's own effects may have taken away or made too dear (refused
    /// rather than asking for a payment nobody can make).
    pub(super) fn pay_by_action(&mut self, seat: usize, slot: u8, def: u8, rule: Payment) -> Result<(), GameError> {
        if !self.payable(seat, slot, rule) {
            let why = format!(
                "seat {seat} cannot pay for slot {} after `on_action` (it emptied the slot or changed what it \
                 holds): an action with `payment` buys what its slot holds after `on_action`; leave that slot alone there",
                slot + 1
            );
            let hooks = &self.rs.hooks;
            return Err(hooks.bad_card_return(Hook::Action, hooks.action_owner(usize::from(def)), &why));
        }
        self.pay_rule = Some(rule);
        self.paid_cards = 0;
        self.pending = Some(Decision::Pay { seat, slot, paid: 0 });
        Ok(())
    }

    /// Whether `seat` can pay for what `args` names by `rule`: the building
    /// in the slot of the first argument, in the slot's currency.
    fn can_buy(&self, seat: usize, args: &[String], rule: Payment) -> Result<bool, String> {
        let slot = bought_slot(args).ok_or_else(|| {
            format!(
                "listed `{}` for an action with `payment`; its first argument is a display slot (1 to {})",
                args.join(" "),
                self.building_display.len()
            )
        })?;
        Ok(self.payable(seat, slot, rule))
    }

    /// Whether slot `slot` holds a building `seat` can pay for by `rule`.
    fn payable(&self, seat: usize, slot: u8, rule: Payment) -> bool {
        if self.building_display.get(usize::from(slot)).is_none_or(Option::is_none) {
            return false;
        }
        match rule {
            Payment::Price => self.money_for(seat, slot) >= self.price_at(slot),
            Payment::Exact => self.exact_after(seat, slot, 0, None),
        }
    }

    /// Whether the cards of `seat`'s hand that pay for `slot` can make up the
    /// price exactly, `paid` of it paid and, if given, card `m` paid next.
    pub(super) fn exact_after(&self, seat: usize, slot: u8, paid: u32, m: Option<crate::ruleset::Money>) -> bool {
        let price = self.price_at(slot);
        let Some(mut left) = price.checked_sub(paid) else { return false };
        let mut values: Vec<u32> = Vec::new();
        let mut skipped = false;
        for &c in self.players[seat].hand() {
            if !self.pays(slot, c.currency) {
                continue;
            }
            if !skipped && Some(c) == m {
                skipped = true;
                continue;
            }
            values.push(u32::from(c.value));
        }
        if let Some(m) = m {
            match left.checked_sub(u32::from(m.value)) {
                Some(l) if skipped => left = l,
                _ => return false,
            }
        }
        // Sums reachable with the other cards, each used once.
        let mut reach = vec![false; left as usize + 1];
        reach[0] = true;
        for v in values {
            for t in (v as usize..=left as usize).rev() {
                reach[t] |= reach[t - v as usize];
            }
        }
        reach[left as usize]
    }

    /// A turn ended: the other seats are asked in turn, from the `k`-th to
    /// the left of `ended`, whether to act out of turn; then the refill.
    #[cold]
    #[inline(never)]
    pub(super) fn ask_out_of_turn(&mut self, ended: usize, k: usize) -> Result<(), GameError> {
        let n = self.players.len();
        for k in k..n {
            let seat = (ended + k) % n;
            self.pending = Some(Decision::OutOfTurn { seat, ended: ended as u8, k: k as u8 });
            self.refresh_mods()?;
            let mut acts = Vec::new();
            self.offered(seat, ActionAt::OtherTurnEnd, &mut acts)?;
            if !acts.is_empty() {
                return Ok(());
            }
        }
        self.pending = None;
        self.end_turn(ended)
    }

    /// The seat asked out of turn passes or has acted: the next seat is asked.
    pub(super) fn out_of_turn_done(&mut self) -> Result<(), GameError> {
        let (ended, k) = self.out_of_turn.take().expect("a seat acts out of turn");
        self.ask_out_of_turn(usize::from(ended), usize::from(k) + 1)
    }

    /// A purchase by an action of the ruleset's own is done: out of turn,
    /// the next seat is asked; in turn, it goes on as a buy does.
    #[cold]
    #[inline(never)]
    pub(super) fn bought_by_action(&mut self, seat: usize, exact: bool) -> Result<(), GameError> {
        self.pay_rule = None;
        if self.out_of_turn.is_some() {
            return self.out_of_turn_done();
        }
        self.bought(seat, exact)
    }
}

/// The display slot (from 0) an action's first argument names (written from 1).
fn bought_slot(args: &[String]) -> Option<u8> {
    let n: u8 = args.first()?.parse().ok()?;
    n.checked_sub(1)
}

/// The argument lists a `legal` hook returned: a list whose entries are `()`
/// (no argument), a value or a list of at most two values.
fn listed_args(v: Dynamic) -> Result<Vec<Vec<String>>, String> {
    let t = v.type_name();
    let list = v.try_cast::<Array>().ok_or_else(|| format!("returned a {t}; return a list of arguments"))?;
    let mut out = Vec::with_capacity(list.len());
    for entry in list {
        let args = if entry.is_unit() {
            Vec::new()
        } else if entry.is_array() {
            let inner = entry.cast::<Array>();
            if inner.len() > 2 {
                return Err(format!("listed {} arguments for one action; an action takes at most two", inner.len()));
            }
            inner.into_iter().map(arg_text).collect::<Result<_, _>>()?
        } else {
            vec![arg_text(entry)?]
        };
        out.push(args);
    }
    Ok(out)
}

/// One argument as the notation writes it: a number, a word, or a card map's id.
fn arg_text(v: Dynamic) -> Result<String, String> {
    let text = if v.is_int() {
        v.as_int().map(|n| n.to_string()).unwrap_or_default()
    } else if v.is_map() {
        let m = v.cast::<Map>();
        m.get("id").and_then(|id| id.clone().into_string().ok()).ok_or("listed a map without an `id`")?
    } else {
        let t = v.type_name();
        v.into_string().map_err(|_| format!("listed a {t}; an argument is a number, a word or a card"))?
    };
    if !engine_script::words::is_option_name(&text) && !text.parse::<i32>().is_ok_and(|n| n >= 0) {
        return Err(format!("listed `{text}`; an argument is 1 to 40 letters, digits or `_`"));
    }
    Ok(text)
}
