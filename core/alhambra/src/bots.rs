//! Alhambra's bots: the greedy rules of thumb (the tree search's settings and
//! the decisions it searches are the game's `engine_game::Game` answers in
//! `interface.rs`). The random bot and the search itself are the engine's.

use engine_game::Game as _;
use engine_play::bots::best_by;
pub use engine_play::bots::{BOT_NAMES, Bot, BotSpec, RandomBot, play_out};

use crate::actions::Action;
use crate::game::{Decision, Game};
use crate::ruleset::{BuildingIdx, MAX_TYPES, Money, PayMask};

/// Plays by rules of thumb: buys the building that gains it the most points
/// in the coming scorings (majorities), preferring an exact payment (another
/// action) and a small overpayment; else takes the money of the highest total.
/// It reads only what its seat may see.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// Points `seat` gains, against the average other collector, in the next
    /// scoring and the final one if it gets one more building of type `t`.
    fn majority_gain(game: &Game, seat: usize, t: usize, to_neutral: bool) -> f64 {
        let rs = game.rules();
        let mut counts: Vec<[u8; MAX_TYPES]> =
            (0..game.num_players()).map(|s| game.player(s).counts).chain(game.neutral().map(|n| n.counts)).collect();
        // The next scoring and the final one.
        let done = game.scored().len();
        let last = rs.scorings.len() - 1;
        let tables: Vec<usize> = if done < last { vec![done, last] } else { vec![last] };
        let who = if to_neutral { counts.len() - 1 } else { seat };
        // A bonus card raises the type it counts as, or nothing yet.
        let Some(t) = rs.counted_type(t as u8, &counts[who]) else { return 0.0 };
        let value = |counts: &[[u8; MAX_TYPES]]| -> Vec<f64> {
            let mut out = vec![0.0; counts.len()];
            for &k in &tables {
                let p = rs.type_points(k, t, counts).unwrap_or_default();
                for (c, v) in out.iter_mut().enumerate() {
                    *v += f64::from(p[c]);
                }
            }
            out
        };
        let before = value(&counts);
        counts[who][t] += 1;
        let after = value(&counts);
        let others: Vec<usize> = (0..counts.len()).filter(|&c| c != seat).collect();
        let others_gain = others.iter().map(|&c| after[c] - before[c]).sum::<f64>() / others.len().max(1) as f64;
        after[seat] - before[seat] - others_gain
    }

    /// The cards of `hand` in `currency` that pay at least `owed` with the
    /// least overpayment (then the fewest cards), and that overpayment.
    fn best_payment(hand: &[Money], pays: crate::ruleset::PayMask, owed: u32) -> Option<(Vec<Money>, u32)> {
        let mut cards: Vec<Money> = hand.iter().copied().filter(|m| pays & (1 << m.currency) != 0).collect();
        cards.sort_unstable_by_key(|m| std::cmp::Reverse(m.value));
        let total: u32 = cards.iter().map(|m| u32::from(m.value)).sum();
        if total < owed {
            return None;
        }
        // Hands are small; above 16 cards of one currency, pay the largest first.
        if cards.len() > 16 {
            let mut paid = 0;
            let mut out = Vec::new();
            for m in cards {
                if paid >= owed {
                    break;
                }
                paid += u32::from(m.value);
                out.push(m);
            }
            return Some((out, paid - owed));
        }
        let mut best: Option<(u32, u32, u32)> = None; // (overpay, cards, mask)
        for mask in 1u32..(1 << cards.len()) {
            let sum: u32 = (0..cards.len()).filter(|i| mask & (1 << i) != 0).map(|i| u32::from(cards[i].value)).sum();
            if sum < owed {
                continue;
            }
            let key = (sum - owed, mask.count_ones(), mask);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
        let (over, _, mask) = best?;
        Some(((0..cards.len()).filter(|i| mask & (1 << i) != 0).map(|i| cards[i]).collect(), over))
    }

    /// The most money a take starting with `first` can bring (the rest of the
    /// display within the take limit).
    fn take_total(game: &Game, first: Money, already: u32) -> u32 {
        let limit = game.rules().rules.take_limit;
        let taken = already + u32::from(first.value);
        if taken > limit {
            return taken;
        }
        let mut rest: Vec<u32> = game.money_display().iter().map(|m| u32::from(m.value)).collect();
        if let Some(i) = rest.iter().position(|&v| v == u32::from(first.value)) {
            rest.swap_remove(i);
        }
        let mut best = 0;
        for mask in 0u32..(1 << rest.len()) {
            let s: u32 = (0..rest.len()).filter(|i| mask & (1 << i) != 0).map(|i| rest[i]).sum();
            if taken + s <= limit {
                best = best.max(s);
            }
        }
        taken + best
    }

    /// How much the bot likes buying the building in `slot`.
    /// Where `seat` stands once `action` is played ([`GreedyBot::standing`]):
    /// a script's questions that follow for the seat answered the same way,
    /// and another action of the same turn worth a good take (3 points).
    fn after(game: &Game, seat: usize, action: Action) -> f64 {
        let mut next = game.clone();
        if next.apply(action).is_err() {
            return f64::NEG_INFINITY;
        }
        for _ in 0..8 {
            let Some(&d) = next.pending() else { break };
            if d.seat() != seat || !matches!(d, Decision::Choose { .. } | Decision::Discard { .. }) {
                break;
            }
            let legal = next.legal_actions().to_vec();
            let best = best_by(&legal, |a| {
                let mut n = next.clone();
                if n.apply(*a).is_err() { f64::NEG_INFINITY } else { Self::standing(&n, seat) }
            });
            if next.apply(best).is_err() {
                return f64::NEG_INFINITY;
            }
        }
        let again = matches!(game.pending(), Some(Decision::Turn { .. }))
            && matches!(next.pending(), Some(&Decision::Turn { seat: s }) if s == seat);
        Self::standing(&next, seat) + if again { 3.0 } else { 0.0 }
    }

    /// Where `seat` stands: its points, then half a point per building (what
    /// scores at the coming scorings) and a tenth of a point per unit of money.
    fn standing(game: &Game, seat: usize) -> f64 {
        let p = game.player(seat);
        f64::from(game.scores()[seat].total) + 0.5 * p.buildings.len() as f64 + 0.1 * f64::from(p.money())
    }

    fn buy_value(game: &Game, seat: usize, slot: u8) -> f64 {
        let Some(b) = game.building_display()[slot as usize] else { return f64::NEG_INFINITY };
        Self::purchase_value(game, seat, b, game.price_at(slot), &[game.pays_mask(slot)])
    }

    /// How much the bot likes buying building `b` at `price`, paid with the
    /// money one of `masks` lets pay (the cheapest way): what it gains at the
    /// scorings, an exact payment's extra action, less the price.
    fn purchase_value(game: &Game, seat: usize, b: BuildingIdx, price: u32, masks: &[PayMask]) -> f64 {
        let def = game.rules().building(b);
        let hand = game.player(seat).hand();
        let plans = masks.iter().filter_map(|&m| Self::best_payment(hand, m, price));
        let Some((_, over)) = plans.min_by_key(|(_, over)| *over) else {
            return f64::NEG_INFINITY;
        };
        let gain = Self::majority_gain(game, seat, def.kind as usize, false);
        let pay = if over == 0 { 4.0 } else { -0.6 * f64::from(over) };
        gain + pay - 0.15 * f64::from(price) + 2.0
    }
}

impl Bot<Game> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &Game, legal: &[Action]) -> Action {
        let Some(&d) = game.pending() else { return legal[0] };
        let seat = d.seat();
        match d {
            Decision::Pay { slot, paid, .. } => {
                let owed = game.price_at(slot).saturating_sub(paid);
                let plan = Self::best_payment(game.player(seat).hand(), game.pays_mask(slot), owed);
                // A card whose script refuses it now (a joker before a first card) waits for its turn in the plan.
                let first = plan.and_then(|(cards, _)| cards.into_iter().map(Action::Pay).find(|a| legal.contains(a)));
                first.unwrap_or(legal[0])
            }
            // In any one currency: the plan that overpays least over the currencies still open.
            Decision::PayAny { paid, .. } => {
                let Some((_, price, fixed)) = game.purchase() else { return legal[0] };
                let owed = price.saturating_sub(paid);
                let plans = (0..game.rules().currencies.len() as u8)
                    .filter(|&c| fixed.is_none_or(|x| x == c))
                    .filter_map(|c| Self::best_payment(game.player(seat).hand(), game.currency_mask(c), owed));
                let plan = plans.min_by_key(|(_, over)| *over);
                let first = plan.and_then(|(cards, _)| cards.into_iter().map(Action::Pay).find(|a| legal.contains(a)));
                first.unwrap_or(legal[0])
            }
            Decision::Donate { slot, .. } => {
                let rs = game.rules();
                let (b, _) = game.slot_building(slot);
                let t = rs.building(b).kind as usize;
                let keep = Self::majority_gain(game, seat, t, false);
                let donate = Self::majority_gain(game, seat, t, true);
                if donate > keep { Action::Donate } else { Action::Keep }
            }
            Decision::Take { taken, .. } => best_by(legal, |a| match *a {
                Action::Take(m) => f64::from(Self::take_total(game, m, taken)),
                _ => f64::from(taken),
            }),
            Decision::Turn { .. } => best_by(legal, |a| match *a {
                Action::Take(m) => 0.8 * f64::from(Self::take_total(game, m, 0)),
                Action::Buy(slot) => Self::buy_value(game, seat, slot),
                // An action of the ruleset's own: a purchase as a buy is judged, anything
                // else by what it gains, by the same measure as a script's question.
                Action::Act(act) => match game.action_buys(seat, act) {
                    Some((b, price, masks)) => Self::purchase_value(game, seat, b, price, &masks),
                    None => Self::after(game, seat, *a) - Self::standing(game, seat),
                },
                _ => 0.0,
            }),
            // Out of turn: an action of the ruleset's own if it gains something, else pass.
            Decision::OutOfTurn { .. } => best_by(legal, |a| match *a {
                Action::Act(_) => Self::after(game, seat, *a) - Self::standing(game, seat),
                _ => 0.0,
            }),
            // A script's question: the answer after which the seat stands best (points, then money).
            Decision::Choose { .. } | Decision::Discard { .. } => best_by(legal, |a| Self::after(game, seat, *a)),
        }
    }
}
