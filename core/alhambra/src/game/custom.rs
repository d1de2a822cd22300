//! The ruleset's own actions (`[[action]]`) at play: which are legal now and
//! what one does.
//!
//! An action whose file names `args` kinds is offered with every combination
//! of candidates of those kinds (display slots, hand cards, display cards,
//! the actor's buildings) that its script's `allowed(ctx)` accepts (all,
//! without one); a script's `legal(ctx)` instead lists the arguments itself.
//! `on_action(ctx)` returns its effects; then the turn ends (or, with
//! `ends_turn = false`, the seat acts again: once per turn for each such action).

use engine_script::results::as_bool;
use rhai::{Array, Dynamic, Map};

use super::asks::Step;
use super::scripts::{Heard, Listener, int, s};
use super::{Decision, Game};
use crate::actions::{Act, Action, WordId};
use crate::error::GameError;
use crate::hooks::Hook;
use crate::ruleset::ArgKind;

impl Game {
    /// The card-like listener that runs action `def`'s script for `seat`.
    fn action_listener(&self, def: usize, seat: usize) -> Listener {
        Listener { owner: self.rs.hooks.action_owner(def), seat, card: Heard::Action(def as u8), owned: 0, kind: None }
    }

    /// Adds the ruleset's own actions the seat to decide may take now to `out`.
    #[inline(never)]
    pub(super) fn custom_legal(&self, out: &mut Vec<Action>) -> Result<(), GameError> {
        let Some(Decision::Turn { seat }) = self.pending else { return Ok(()) };
        let rs = &self.rs;
        for (d, def) in rs.actions.iter().enumerate() {
            if !def.ends_turn && self.acted & (1 << d) != 0 {
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
        if !ends_turn {
            self.acted |= 1 << d;
        }
        let l = self.action_listener(d, seat);
        if self.listens(Hook::Action, &l) {
            let args = self.args_value(d, &a.arg_texts(&self.rs));
            let v = self.call_listener(Hook::Action, &l, seat, &Dynamic::UNIT, &[("args", args)])?;
            self.apply_effects(Hook::Action, &l, v)?;
        }
        self.then(Step::Acted { seat, ends_turn })
    }
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
