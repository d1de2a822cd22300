//! A turn's consequences: a building acquired, the displays refilled, the
//! neutral player's draws, the scoring rounds and the end of the game.

use std::sync::Arc;

use super::asks::{Step, Work, then};
use super::scripts::{facts, int, s, turn_map};
use super::{Decision, Draw, Game, list_or_nothing, n_cards};
use crate::error::GameError;
use crate::hooks::{self, Hook, table_event};
use crate::rng;
use crate::ruleset::{BuildingIdx, MAX_TYPES};
use rhai::Dynamic;

impl Game {
    /// The bought building leaves its slot for the buyer (or the neutral
    /// collector); paid exactly, the same seat acts again, else the turn ends.
    pub(super) fn acquire(&mut self, seat: usize, slot: u8, donate: bool, exact: bool) -> Result<(), GameError> {
        let b = match slot {
            super::ASIDE => self.take_purchase(seat),
            k => self.building_display[k as usize].take().expect("a building in the slot"),
        };
        let rs = Arc::clone(&self.rs);
        match (&mut self.neutral, donate) {
            (Some(n), true) => n.add_building_at(&rs, b, self.turns),
            _ => self.players[seat].add_building_with(&rs, b, self.turns, exact),
        }
        self.event(Some(seat), |g| {
            let id = &g.rs.building(b).id;
            let paid = match (g.out_of_turn.is_some(), exact) {
                (true, _) => "out of turn",
                (false, true) => "paid exactly: another action",
                (false, false) => "overpaid: the turn ends",
            };
            if donate {
                format!("seat {seat} donates {id} to {} ({paid})", g.rs.two_players.neutral)
            } else {
                format!("seat {seat} places {id} ({paid})")
            }
        });
        self.event_hooks(hooks::BOUGHT, seat, &[], |g, keys| {
            let def = g.rs.building(b);
            let facts = std::cell::OnceCell::new();
            let facts = || facts.get_or_init(|| g.slot_facts(slot)).clone();
            facts!(keys;
                "seat" => int(seat),
                "building" => s(&def.id),
                "type" => s(&g.rs.types[def.kind as usize].id),
                "price" => int(def.price),
                "slot" => facts().0, // as players say it: `buy 1` is slot 1
                "currency" => facts().1,
                "exact" => Dynamic::from_bool(exact),
                "donated" => Dynamic::from_bool(donate && g.neutral.is_some()),
            )
        })?;
        then!(self, Step::Bought { seat, exact }, self.bought(seat, exact))
    }

    /// After `on_bought`: another action (paid exactly), or the action is done.
    #[inline(always)]
    pub(super) fn bought(&mut self, seat: usize, exact: bool) -> Result<(), GameError> {
        if self.pay_rule.is_some() {
            return self.bought_by_action(seat, exact);
        }
        if exact {
            self.pending = Some(Decision::Turn { seat });
            Ok(())
        } else {
            self.action_done(seat)
        }
    }

    /// After `on_turn_end`: the displays are refilled.
    #[inline(always)]
    pub(super) fn end_turn_now(&mut self, seat: usize) -> Result<(), GameError> {
        // An extra action granted as the turn ends would never end it.
        self.extra_actions = 0;
        if self.rs.out_of_turn {
            return self.ask_out_of_turn(seat, 1);
        }
        self.end_turn(seat)
    }

    /// After a turn: the building display is refilled left to right; if it
    /// cannot be filled the game ends. Else the money display is refilled, a
    /// scoring card drawn on the way is scored at once, and the next seat plays.
    ///
    /// The rules text refills both displays after a turn and ends the game when
    /// the buildings cannot be refilled; it does not say whether the money is
    /// refilled then. Here the game ends at once: no money is drawn, so a
    /// scoring card still in the deck is not scored (the money in hands decides
    /// the buildings left, not the display).
    #[inline(always)]
    pub(super) fn end_turn(&mut self, seat: usize) -> Result<(), GameError> {
        let listened = self.rs.hooks.any_listens([Hook::Refilled]);
        let drawn_heard = self.rs.hooks.any_listens([Hook::BuildingDrawn]);
        let mut laid = Vec::new();
        let mut full = true;
        for slot in 0..self.building_display.len() {
            if self.building_display[slot].is_none() {
                self.longest = self.longest.max(self.turns - self.nearer);
                (self.nearer, self.moved_on) = (self.turns, self.turns);
                let b = if drawn_heard { self.draw_building(seat, slot)? } else { self.building_deck.pop() };
                self.building_display[slot] = b;
                if listened && let Some(b) = b {
                    laid.push(b);
                }
                full &= b.is_some();
            }
        }
        if !full {
            return self.finish();
        }
        let shown = self.money_display.len();
        self.refill_money(seat, shown, laid)
    }

    /// A building card drawn for display slot `slot`, once `on_building_drawn`
    /// has heard it: a hook that moved it away (`move: "drawn"`) has the next one drawn.
    #[inline(never)]
    fn draw_building(&mut self, seat: usize, slot: usize) -> Result<Option<BuildingIdx>, GameError> {
        while let Some(b) = self.building_deck.pop() {
            self.drawn = Some(b);
            self.drawing = true;
            let heard = self.event_hooks(
                table_event(Hook::BuildingDrawn),
                seat,
                &[],
                |g, keys| facts!(keys; "building" => g.building_map(b, None, None), "slot" => int(slot + 1)),
            );
            let kept = self.drawn.take();
            self.drawing = false;
            heard?;
            if kept.is_some() {
                return Ok(kept);
            }
        }
        Ok(None)
    }

    /// The displays are full again: `on_refilled` hears what was laid out
    /// (the money display's cards from `shown` on), then the next turn.
    #[inline(always)]
    pub(super) fn refilled(&mut self, seat: usize, shown: usize, laid: &[BuildingIdx]) -> Result<(), GameError> {
        if self.rs.hooks.any_listens([Hook::Refilled]) {
            let money = self.money_display[shown.min(self.money_display.len())..].to_vec();
            self.event_hooks(table_event(Hook::Refilled), seat, &[], |g, keys| {
                let buildings = || laid.iter().map(|&b| s(&g.rs.building(b).id)).collect();
                facts!(keys; "buildings" => Dynamic::from_array(buildings()), "money" => g.money_ids(&money))
            })?;
        }
        then!(self, Step::NextTurn { seat }, self.next_turn(seat))
    }

    /// The next seat's turn begins, unless the game has run too long.
    #[inline(always)]
    pub(super) fn next_turn(&mut self, seat: usize) -> Result<(), GameError> {
        if self.turns >= self.rs.rules.max_turns {
            self.stalled = true;
            self.event(None, |g| format!("no game end after {} turns: the game is scored as it stands", g.turns));
            return self.finish();
        }
        self.turns += 1;
        self.acted = 0;
        let next = (seat + 1) % self.players.len();
        self.pending = Some(Decision::Turn { seat: next });
        let turn = self.turns;
        self.event_hooks(hooks::TURN_START, next, &[], |_, keys| turn_map(next, turn, keys))
    }

    /// Shuffles the discard pile into a new money deck when the deck is empty;
    /// false when both are.
    #[inline]
    pub(super) fn deck_ready(&mut self) -> bool {
        !self.deck.is_empty() || self.reshuffle()
    }

    /// The discard pile shuffled into a new money deck; false when it is empty too.
    #[inline(never)]
    fn reshuffle(&mut self) -> bool {
        if self.discard.is_empty() {
            return false;
        }
        self.deck.extend(self.discard.drain(..).map(Draw::Money));
        rng::shuffle(&mut self.rng, &mut self.deck);
        self.event(None, |_| "the discard pile is shuffled into a new money deck".into());
        true
    }

    /// Refills the money display; a scoring card drawn is scored, then the
    /// refill goes on (after the choices the scoring's hooks asked, if any).
    #[inline(always)]
    pub(crate) fn refill_money(&mut self, seat: usize, shown: usize, laid: Vec<BuildingIdx>) -> Result<(), GameError> {
        // A deck card drawn here hears the player whose turn ended as the one to move.
        self.refilling_for = Some(seat);
        while self.money_display.len() < self.rs.rules.money_display {
            if !self.deck_ready() {
                break;
            }
            self.moved_on = self.turns;
            match self.deck.pop() {
                Some(Draw::Money(m)) => self.money_display.push(m),
                Some(Draw::Scoring(k)) => {
                    self.score_round(k as usize)?;
                    if self.asked() {
                        // The scoring's hooks asked a choice: the rest of the refill waits for it.
                        self.fresh.push(Work::Step(Step::NeutralDraws { k }));
                        self.fresh.push(Work::Step(Step::RefillMoney { seat, shown, laid }));
                        return Ok(());
                    }
                    let name = self.rs.scorings[k as usize].name.clone();
                    self.neutral_draws(&name, self.turns)?;
                    if self.asked() {
                        self.fresh.push(Work::Step(Step::RefillMoney { seat, shown, laid }));
                        return Ok(());
                    }
                }
                Some(Draw::Deck(d)) => self.deck_card_drawn(d)?,
                None => break,
            }
        }
        self.refilling_for = None;
        then!(self, Step::Refilled { seat, shown, laid }, self.refilled(seat, shown, &laid))
    }

    /// Two players: the neutral collector's draws at `at` (`start` or a
    /// scoring's name), in `turn` (0 at the start).
    pub(super) fn neutral_draws(&mut self, at: &str, turn: u32) -> Result<(), GameError> {
        if self.neutral.is_none() {
            return Ok(());
        }
        let rs = Arc::clone(&self.rs);
        for d in rs.two_players.neutral_draws.iter().filter(|d| d.at == at) {
            let deck = self.building_deck.len();
            let n = rs.hooks.neutral_draws(deck as u32, d.cards, d.share)? as usize;
            let n = n.min(deck);
            for _ in 0..n {
                let b = self.building_deck.pop().expect("counted");
                self.neutral.as_mut().expect("two players").add_building_at(&rs, b, turn);
            }
            self.event(None, |g| format!("{} draws {} ({at})", g.rs.two_players.neutral, n_cards(n)));
            let actor = self.pending.map_or(0, |d| d.seat());
            self.event_hooks(table_event(Hook::NeutralDrew), actor, &[], |g, keys| {
                let held = &g.neutral.as_ref().expect("two players").buildings;
                let cards = || held[held.len() - n..].iter().map(|&b| s(&g.rs.building(b).id)).collect();
                facts!(keys; "cards" => Dynamic::from_array(cards()), "at" => s(at))
            })?;
        }
        Ok(())
    }

    /// Scores scoring `k` now: points per collector and type into their scores.
    pub(crate) fn score_round(&mut self, k: usize) -> Result<(), GameError> {
        let rs = Arc::clone(&self.rs);
        let counts: Vec<[u8; MAX_TYPES]> = self.players.iter().chain(&self.neutral).map(|p| p.counts).collect();
        let scoring = &rs.scorings[k];
        let points = rs.scoring_points(k, &counts)?;
        let mut totals: Vec<i32> = points.iter().map(|row| row.iter().sum()).collect();
        if rs.hooks.any_listens([Hook::Points]) {
            let seats = self.players.len();
            for (seat, total) in totals.iter_mut().enumerate().take(seats) {
                let bonus = self.card_points(seat, &scoring.name)?;
                if bonus != 0 {
                    *total += bonus;
                    self.event(Some(seat), |_| {
                        format!("seat {seat}: its cards add {bonus} to scoring {}", scoring.name)
                    });
                }
            }
        }
        for (c, &total) in totals.iter().enumerate() {
            Arc::make_mut(&mut self.earned)[c].add(&scoring.name, total);
        }
        self.scored.push(k as u8);
        self.scored_turns.push(self.turns);
        self.event(None, |g| {
            let who = |c: usize| {
                if c < g.players.len() { format!("seat {c}") } else { g.rs.two_players.neutral.clone() }
            };
            let mut parts = Vec::new();
            for (c, row) in points.iter().enumerate() {
                let by: Vec<String> = row
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| **p > 0)
                    .map(|(t, p)| format!("{} {p}", g.rs.types[t].id))
                    .collect();
                if !by.is_empty() {
                    parts.push(format!("{} {} ({})", who(c), row.iter().sum::<i32>(), by.join(", ")));
                }
            }
            format!("scoring {}: {}", scoring.name, list_or_nothing(&parts))
        });
        let actor = self.pending.map_or(0, |d| d.seat());
        self.event_hooks(table_event(Hook::Scored), actor, &[], |_, keys| {
            let points = || totals.iter().map(|&p| int(p)).collect();
            facts!(keys; "scoring" => s(&scoring.name), "points" => Dynamic::from_array(points()))
        })
    }

    /// The game end: the buildings left on the display go to whoever holds the
    /// most money of their slot's currency (a tie: nobody), then the final scoring.
    fn finish(&mut self) -> Result<(), GameError> {
        self.ending = true;
        let rs = Arc::clone(&self.rs);
        for slot in 0..self.building_display.len() {
            let Some(b) = self.building_display[slot].take() else { continue };
            let c = rs.yard[slot] as usize;
            let sums: Vec<u32> = self.players.iter().map(|p| rs.currency_total(&p.sums(), c as u8)).collect();
            let best = sums.iter().copied().max().unwrap_or(0);
            let holders: Vec<usize> = (0..sums.len()).filter(|&s| sums[s] == best).collect();
            if best > 0 && holders.len() == 1 {
                let s = holders[0];
                self.players[s].add_building_at(&rs, b, self.turns);
                self.event(Some(s), |g| {
                    format!("seat {s} gets {} (most {}: {best})", rs.building(b).id, g.rs.currency_name(c as u8))
                });
            } else {
                self.unclaimed.push(b);
                self.event(None, |g| {
                    format!("nobody gets {} (a tie for the most {})", rs.building(b).id, g.rs.currency_name(c as u8))
                });
            }
        }
        // A reserved building is in no Alhambra: it counts for nothing (it stays in its reserve).
        for seat in 0..self.reserves.len() {
            for &b in &self.reserves[seat].clone() {
                self.event(Some(seat), |g| format!("seat {seat}'s reserved {} is lost", g.rs.building(b).id));
            }
        }
        let last = rs.scorings.len() - 1;
        self.score_round(last)?;
        self.then(Step::GameEnd)
    }

    /// After the final scoring: `on_game_end`, then the game is over.
    pub(super) fn game_end(&mut self) -> Result<(), GameError> {
        self.event_hooks(table_event(Hook::GameEnd), 0, &[], |g, keys| {
            let scores = || g.earned[..g.players.len()].iter().map(|s| int(s.total)).collect();
            facts!(keys; "scores" => Dynamic::from_array(scores()))
        })?;
        self.then(Step::Over)
    }
}
