//! Choices a card's script asks (`choose`, `choose_cards`, `discard_money`)
//! and the work that waits for their answers.
//!
//! The game runs its steps as direct calls; only once a hook has asked a
//! choice does what comes next wait. From then on, until the running action
//! (or piece of waiting work) is done, every effect still to apply and every
//! step of the game still to run is kept, in order, in `fresh`; then `fresh`
//! (and the decision that was set meanwhile, if any) goes to the front of
//! `waiting`, and the first choice waiting is asked. Once it is answered,
//! the asking card's `on_choice` runs, then the work that waited, one piece
//! at a time, each piece again able to ask. A game nobody's script asks
//! anything of pays one length test per step.

use engine_script::results::as_int_in;
use rhai::{Array, Dynamic, ImmutableString, Map};

use super::scripts::{Heard, Listener, s};
use super::{Decision, Game};
use crate::actions::{Action, Pick, WordId};
use crate::error::GameError;
use crate::hooks::Hook;
use crate::ruleset::BuildingIdx;

/// Work that waits for a choice to be answered.
#[derive(Clone, Debug)]
pub(crate) enum Work {
    /// A choice to ask.
    Ask(Box<Ask>),
    /// Effects a card's hook returned after a choice, still to apply.
    Effects { hook: Hook, by: Listener, maps: Vec<Map> },
    /// A step of the game still to run.
    Step(Step),
    /// The decision the game had reached when a choice was asked.
    Decide(Decision),
}

/// The steps of a turn that can wait for a choice (each is what the game
/// does next after a moment whose hooks may ask).
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// The building just paid for goes to its buyer (after `on_paid`).
    Acquire { seat: usize, slot: u8, donate: bool, exact: bool },
    /// After `on_bought`: another action (paid exactly), or the action is done.
    Bought { seat: usize, exact: bool },
    /// After `on_turn_end`: the displays are refilled.
    EndTurn { seat: usize },
    /// The money display's refill goes on (after a scoring drawn in it).
    RefillMoney { seat: usize, shown: usize, laid: Vec<BuildingIdx> },
    /// Two players: the neutral collector's draws at scoring `k`.
    NeutralDraws { k: u8 },
    /// The displays are full again: `on_refilled`, then the next turn.
    Refilled { seat: usize, shown: usize, laid: Vec<BuildingIdx> },
    /// The next seat's turn begins (or the game stops, stalled).
    NextTurn { seat: usize },
    /// After an action of the ruleset's own: the turn ends, or the seat acts again.
    Acted { seat: usize, ends_turn: bool },
    /// After an action of the ruleset's own that buys: its payment for the building at `source`.
    ActPay { seat: usize, source: super::custom::Source, def: u8, rule: crate::ruleset::Payment },
    /// After an action out of turn (and its purchase): the next seat is asked.
    OutOfTurnDone,
    /// After the final scoring: `on_game_end`.
    GameEnd,
    /// The game is over.
    Over,
}

/// A choice a card's script asked.
#[derive(Clone, Debug)]
pub(crate) struct Ask {
    /// Who chooses.
    pub seat: usize,
    /// The card that asked: its `on_choice` hears the answer.
    pub by: Listener,
    /// What is offered.
    pub kind: AskKind,
    /// Answers still to give (cards are chosen one at a time).
    pub left: usize,
    /// The answers given so far.
    pub picked: Vec<Pick>,
    /// The chooser may stop early (`pass`).
    pub optional: bool,
    /// What the script carries to `on_choice` (`ctx.tag`).
    pub tag: Dynamic,
}

/// What a choice offers.
#[derive(Clone, Debug)]
pub(crate) enum AskKind {
    /// Named options (`choose`).
    Options(Vec<u16>),
    /// Cards of a zone (`choose_cards`), of seat `of`, only those ids if given.
    Cards { from: From, of: usize, only: Option<Vec<ImmutableString>> },
    /// Money cards of the chooser's hand to discard (`discard_money`): no `on_choice`.
    Discard,
}

/// Where a `choose_cards` takes its cards from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum From {
    /// The chooser's money cards.
    Hand,
    /// A collector's buildings.
    Buildings,
    /// The money display.
    MoneyDisplay,
    /// The building display.
    BuildingDisplay,
}

/// `then!(game, Step::X { .. }, game.x(..))`: runs the step now by a direct
/// call (the base game's path: no step is made), or keeps it for after the
/// choice a hook just asked.
macro_rules! then {
    ($game:expr, $step:expr, $now:expr) => {
        if $game.asked() {
            $game.fresh.push($crate::game::asks::Work::Step($step));
            Ok(())
        } else {
            $now
        }
    };
}
pub(crate) use then;

impl Game {
    /// Runs `step` now, or keeps it for after the choice a hook just asked.
    #[inline]
    pub(super) fn then(&mut self, step: Step) -> Result<(), GameError> {
        if self.fresh.is_empty() {
            self.run_step(step)
        } else {
            self.fresh.push(Work::Step(step));
            Ok(())
        }
    }

    /// True once a hook of the running action asked a choice: what follows waits.
    #[inline]
    pub(super) fn asked(&self) -> bool {
        !self.fresh.is_empty()
    }

    fn run_step(&mut self, step: Step) -> Result<(), GameError> {
        match step {
            Step::Acquire { seat, slot, donate, exact } => self.acquire(seat, slot, donate, exact),
            Step::Bought { seat, exact } => self.bought(seat, exact),
            Step::EndTurn { seat } => self.end_turn_now(seat),
            Step::RefillMoney { seat, shown, laid } => self.refill_money(seat, shown, laid),
            Step::NeutralDraws { k } => {
                let name = self.rs.scorings[k as usize].name.clone();
                self.neutral_draws(&name, self.turns)
            }
            Step::Refilled { seat, shown, laid } => self.refilled(seat, shown, &laid),
            Step::NextTurn { seat } => self.next_turn(seat),
            Step::Acted { seat, ends_turn: true } => self.action_done(seat),
            Step::Acted { seat, ends_turn: false } => {
                self.pending = Some(Decision::Turn { seat });
                Ok(())
            }
            Step::ActPay { seat, source, def, rule } => self.pay_by_action(seat, source, def, rule),
            Step::OutOfTurnDone => self.out_of_turn_done(),
            Step::GameEnd => self.game_end(),
            Step::Over => {
                self.over = true;
                self.pending = None;
                self.legal.clear();
                Ok(())
            }
        }
    }

    /// After an action or a piece of waiting work: what waits goes to the
    /// front, then waiting work runs until a decision is pending (a choice
    /// to ask, or the decision the game had reached) or nothing waits.
    #[inline(never)]
    pub(super) fn settle(&mut self) -> Result<(), GameError> {
        loop {
            if !self.fresh.is_empty() {
                if let Some(d) = self.pending.take() {
                    self.fresh.push(Work::Decide(d));
                }
                for w in std::mem::take(&mut self.fresh).into_iter().rev() {
                    self.waiting.push_front(w);
                }
            }
            self.queued = !self.waiting.is_empty();
            if self.pending.is_some() || self.over {
                return Ok(());
            }
            let Some(work) = self.waiting.pop_front() else { return Ok(()) };
            match work {
                Work::Ask(ask) => self.present(ask)?,
                Work::Decide(d) => self.pending = Some(d),
                Work::Effects { hook, by, maps } => self.apply_maps(hook, &by, maps)?,
                Work::Step(step) => self.run_step(step)?,
            }
        }
    }

    /// Asks a choice (it becomes the pending decision), or, when nothing is
    /// left to choose from, tells the asking card at once.
    fn present(&mut self, ask: Box<Ask>) -> Result<(), GameError> {
        let open = match &ask.kind {
            AskKind::Options(_) => true,
            AskKind::Discard => ask.left > 0 && !self.players[ask.seat].hand().is_empty(),
            AskKind::Cards { .. } => ask.left > 0 && !self.candidates(&ask).is_empty(),
        };
        if !open {
            return self.answered(*ask);
        }
        let seat = ask.seat;
        self.pending = Some(match ask.kind {
            AskKind::Discard => Decision::Discard { seat },
            _ => Decision::Choose { seat },
        });
        self.asking = Some(ask);
        Ok(())
    }

    /// Queues a choice a card's effect asked: it is asked once the running work is done.
    pub(super) fn ask(&mut self, ask: Ask) -> Result<(), GameError> {
        // Nothing to choose from asks nobody: the card hears so at once (when nothing waits before it).
        if let AskKind::Cards { .. } = ask.kind
            && !self.asked()
            && (ask.left == 0 || self.candidates(&ask).is_empty())
        {
            return self.answered(ask);
        }
        self.fresh.push(Work::Ask(Box::new(ask)));
        self.queued = true;
        Ok(())
    }

    /// The cards a `choose_cards` may still take, one entry per copy.
    pub(super) fn candidates(&self, ask: &Ask) -> Vec<Pick> {
        let AskKind::Cards { from, of, only } = &ask.kind else { return Vec::new() };
        let rs = &self.rs;
        let mut out: Vec<Pick> = match from {
            From::Hand => self.players[ask.seat].hand().iter().map(|&m| Pick::Money(m)).collect(),
            From::Buildings => {
                let p = if *of == self.players.len() { self.neutral.as_ref() } else { self.players.get(*of) };
                p.map_or_else(Vec::new, |p| p.buildings.iter().map(|&b| Pick::Building(b)).collect())
            }
            From::MoneyDisplay => self.money_display.iter().map(|&m| Pick::Money(m)).collect(),
            From::BuildingDisplay => self.building_display.iter().flatten().map(|&b| Pick::Building(b)).collect(),
        };
        if let Some(only) = only {
            out.retain(|p| {
                let id = match *p {
                    Pick::Money(m) => rs.money_id(m),
                    Pick::Building(b) => rs.building(b).id.clone(),
                    Pick::Word(_) => return false,
                };
                only.iter().any(|o| o.as_str() == id)
            });
        }
        for p in &ask.picked {
            if let Some(i) = out.iter().position(|x| x == p) {
                out.remove(i);
            }
        }
        out
    }

    /// The legal answers to the choice being asked.
    pub(super) fn ask_legal(&self, out: &mut Vec<Action>) {
        let Some(ask) = &self.asking else { return };
        match &ask.kind {
            AskKind::Options(options) => out.extend(options.iter().map(|&w| Action::Choose(Pick::Word(WordId::of(w))))),
            AskKind::Cards { .. } => {
                for p in self.candidates(ask) {
                    let a = Action::Choose(p);
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
                if ask.optional {
                    out.push(Action::Pass);
                }
            }
            AskKind::Discard => {
                for &m in self.players[ask.seat].hand() {
                    if !out.contains(&Action::Discard(m)) {
                        out.push(Action::Discard(m));
                    }
                }
            }
        }
    }

    /// Applies a legal answer to the choice being asked.
    pub(super) fn answer(&mut self, action: Action) -> Result<(), GameError> {
        let mut ask = self.asking.take().expect("a choice is being asked");
        let seat = ask.seat;
        match action {
            Action::Pass => return self.answered(*ask),
            Action::Choose(p) => {
                // A hand is secret: the others read only that a card of it was chosen.
                if let AskKind::Cards { from: From::Hand, .. } = ask.kind {
                    let public = || format!("seat {seat} chooses a card of its hand");
                    self.private_event(Some(seat), &[seat], public, |g| {
                        format!("seat {seat} chooses {}", g.pick_name(p))
                    });
                } else {
                    self.event(Some(seat), |g| format!("seat {seat} chooses {}", g.pick_name(p)));
                }
                ask.picked.push(p);
                ask.left -= 1;
                let more =
                    matches!(ask.kind, AskKind::Cards { .. }) && ask.left > 0 && !self.candidates(&ask).is_empty();
                if !more {
                    return self.answered(*ask);
                }
            }
            Action::Discard(m) => {
                let p = &mut self.players[seat];
                let i = p.hand().iter().position(|&x| x == m).expect("a legal discard");
                p.lose_money_at(i);
                self.discard.push(m);
                self.event(Some(seat), |g| format!("seat {seat} discards {}", g.rs.money_id(m)));
                ask.left -= 1;
                if ask.left == 0 || self.players[seat].hand().is_empty() {
                    return Ok(());
                }
            }
            a => unreachable!("legal answer {a:?} to a choice"),
        }
        self.pending = Some(match ask.kind {
            AskKind::Discard => Decision::Discard { seat },
            _ => Decision::Choose { seat },
        });
        self.asking = Some(ask);
        Ok(())
    }

    /// The choice is answered: the asking card's `on_choice` hears it
    /// (`ctx.choice`, `ctx.chosen`, `ctx.tag`, `ctx.actor` the chooser).
    fn answered(&mut self, ask: Ask) -> Result<(), GameError> {
        if matches!(ask.kind, AskKind::Discard) || !self.listens(Hook::Choice, &ask.by) {
            return Ok(());
        }
        let choice = match ask.picked.first() {
            Some(&Pick::Word(w)) if matches!(ask.kind, AskKind::Options(_)) => s(&self.rs.words.name(w.get())),
            _ => Dynamic::UNIT,
        };
        let chosen: Array = ask
            .picked
            .iter()
            .filter_map(|p| match *p {
                Pick::Money(m) => Some(self.money_map(m)),
                Pick::Building(b) => Some(self.building_map(b, None, None)),
                Pick::Word(_) => None,
            })
            .collect();
        let extra = [("choice", choice), ("chosen", Dynamic::from_array(chosen)), ("tag", ask.tag.clone())];
        let value = self.call_listener(Hook::Choice, &ask.by, ask.seat, &Dynamic::UNIT, &extra)?;
        self.apply_effects(Hook::Choice, &ask.by, value)
    }

    /// What the seat asked must do, in words: `choose 1 card of the hand, or pass (asked by incinerator5)`.
    pub(super) fn ask_task(&self) -> String {
        let Some(ask) = &self.asking else { return "answer".into() };
        let by = match ask.by.card {
            Heard::Rules => "the rules".to_owned(),
            _ => self.card_name(&ask.by),
        };
        let cards = |n: usize| if n == 1 { "1 card".to_owned() } else { format!("{n} cards") };
        let what = match &ask.kind {
            AskKind::Options(options) => {
                let names: Vec<String> = options.iter().map(|&w| self.rs.words.name(w).to_string()).collect();
                format!("choose {}", names.join(" or "))
            }
            AskKind::Cards { from, of, .. } => {
                let place = match from {
                    From::Hand => "of the hand".to_owned(),
                    From::Buildings if *of == ask.seat => "among their buildings".to_owned(),
                    From::Buildings if *of == self.players.len() => {
                        "among the neutral collector's buildings".to_owned()
                    }
                    From::Buildings => format!("among seat {of}'s buildings"),
                    From::MoneyDisplay => "of the money display".to_owned(),
                    From::BuildingDisplay => "of the building display".to_owned(),
                };
                let more = if ask.picked.is_empty() { "" } else { " more" };
                let or_pass = if ask.optional { ", or pass" } else { "" };
                format!("choose {}{more} {place}{or_pass}", cards(ask.left))
            }
            AskKind::Discard => format!("discard {} of money", cards(ask.left)),
        };
        format!("{what} (asked by {by})")
    }

    /// The card a listener stands for, as the log names it.
    pub(super) fn card_name(&self, l: &Listener) -> String {
        match l.card {
            Heard::Building(b, ..) => self.rs.building(b).id.clone(),
            Heard::Money(m) => self.rs.money_id(m),
            Heard::Rules => "rules".to_owned(),
            Heard::Action(a) => self.rs.actions[a as usize].id.clone(),
            Heard::Deck(d) => self.rs.deck_cards[d as usize].id.clone(),
        }
    }

    /// Where the money cards a choice offers lie, as the views name zones (`hand`, `display`).
    pub(crate) fn ask_zone(&self) -> Option<&'static str> {
        match self.asking.as_ref().map(|a| &a.kind) {
            Some(AskKind::Cards { from: From::Hand, .. }) => Some("hand"),
            Some(AskKind::Cards { from: From::MoneyDisplay, .. }) => Some("display"),
            _ => None,
        }
    }

    /// The card whose choice is being asked, if a card's (the JSON state's `pending.by`).
    pub fn asked_by(&self) -> Option<String> {
        self.asking.as_ref().filter(|a| !matches!(a.by.card, Heard::Rules)).map(|a| self.card_name(&a.by))
    }

    /// An answer as the log names it.
    pub(super) fn pick_name(&self, p: Pick) -> String {
        match p {
            Pick::Word(w) => self.rs.words.name(w.get()).to_string(),
            Pick::Money(m) => self.rs.money_id(m),
            Pick::Building(b) => self.rs.building(b).id.clone(),
        }
    }

    /// The choice a `choose`, `choose_cards` or `discard_money` effect map asks.
    pub(super) fn ask_of(&self, l: &Listener, map: &Map) -> Result<Ask, String> {
        let n = self.players.len();
        let seat_of = |key: &str, default: usize, hi: usize| -> Result<usize, String> {
            match map.get(key) {
                None => Ok(default),
                Some(v) => as_int_in(v.clone(), Some((0, hi as i64 - 1)))
                    .map(|s| s as usize)
                    .map_err(|e| format!("key `{key}` {e} (a seat, 0 to {})", hi - 1)),
            }
        };
        let seat = seat_of("seat", l.seat, n)?;
        let tag = map.get("tag").cloned().unwrap_or(Dynamic::UNIT);
        let optional = match map.get("optional") {
            None => false,
            Some(v) => v.as_bool().map_err(|t| format!("`optional` is a {t}; write true or false"))?,
        };
        let ask = |kind, left| Ask { seat, by: *l, kind, left, picked: Vec::new(), optional, tag: tag.clone() };
        if let Some(v) = map.get("choose") {
            let options = self.rs.words.options(v.clone())?;
            return Ok(ask(AskKind::Options(options), 1));
        }
        if let Some(v) = map.get("discard_money") {
            let k = as_int_in(v.clone(), Some((0, 20))).map_err(|e| format!("`discard_money` {e}"))?;
            return Ok(ask(AskKind::Discard, k as usize));
        }
        let k = as_int_in(map["choose_cards"].clone(), Some((0, 20))).map_err(|e| format!("`choose_cards` {e}"))?;
        let from = match map.get("from").map(|v| v.clone().into_immutable_string()) {
            None => From::Hand,
            Some(Ok(w)) => match w.as_str() {
                "hand" => From::Hand,
                "buildings" => From::Buildings,
                "money_display" => From::MoneyDisplay,
                "building_display" => From::BuildingDisplay,
                _ => {
                    return Err(format!(
                        "`from: \"{w}\"`: choose cards from \"hand\", \"buildings\", \"money_display\" or \"building_display\""
                    ));
                }
            },
            Some(Err(t)) => return Err(format!("`from` is a {t}; write \"hand\", \"buildings\", …")),
        };
        let collectors = n + usize::from(self.neutral.is_some());
        let of = seat_of("of", seat, collectors)?;
        if from == From::Hand && of != seat {
            return Err("`of`: a player chooses only from its own hand (another's is secret)".into());
        }
        let only = match map.get("only") {
            None => None,
            Some(v) => {
                let list =
                    v.clone().try_cast::<Array>().ok_or("`only` is a list of card ids (or cards, such as ctx.hand)")?;
                let mut ids = Vec::with_capacity(list.len());
                for item in list {
                    ids.push(card_id(item)?);
                }
                Some(ids)
            }
        };
        Ok(ask(AskKind::Cards { from, of, only }, k as usize))
    }

    /// True when the card `l` stands for has a script that defines `hook`.
    pub(super) fn listens(&self, hook: Hook, l: &Listener) -> bool {
        let hooks = &self.rs.hooks;
        match l.card {
            Heard::Building(..) => l.kind.is_some_and(|t| hooks.type_listens(hook, t)),
            Heard::Money(m) => hooks.currency_listens(hook, self.rs.kind(m).script),
            Heard::Rules => hooks.rules_listen(hook),
            Heard::Action(a) => hooks.action_listens(hook, a as usize),
            Heard::Deck(d) => hooks.deck_listens(hook, d as usize),
        }
    }
}

/// A card id from a string or a card map (`#{ id: … }`).
pub(super) fn card_id(v: Dynamic) -> Result<ImmutableString, String> {
    if v.is_map() {
        let m = v.cast::<Map>();
        return m
            .get("id")
            .and_then(|id| id.clone().into_immutable_string().ok())
            .ok_or_else(|| "a card map without an `id`".to_owned());
    }
    let t = v.type_name();
    v.into_immutable_string().map_err(|_| format!("a {t} where a card id (or a card) belongs"))
}
