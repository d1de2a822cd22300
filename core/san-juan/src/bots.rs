//! San Juan's bots: the greedy rules of thumb (what the tree search searches,
//! roles and buildings, is the game's `engine_game::Game::searched` in
//! `interface.rs`). The random bot and the search itself are the engine's.

use engine_game::Game as _;
use engine_play::bots::best_by;
pub use engine_play::bots::{BOT_NAMES, Bot, BotSpec, RandomBot, play_out};

use crate::actions::{Action, Role};
use crate::cards::{CardIdx, Kind};
use crate::game::{Decision, Game};

/// Plays by rules of thumb: values cards by points, cost and whether they do
/// something, keeps goods flowing, and picks the role whose privilege pays most.
/// It reads only what its seat may see.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// How much the bot wants to own a card (also: how loath it is to pay with it).
    fn card_value(game: &Game, seat: usize, card: CardIdx) -> f64 {
        let def = game.rules().cards.get(card);
        let p = game.player(seat);
        let production = p.city.iter().filter(|s| game.rules().cards.get(s.card).kind == Kind::Production).count();
        let mut v = f64::from(def.vp) + 0.4 * f64::from(def.cost);
        if def.kind == Kind::Production && production < 4 {
            v += 2.0;
        }
        if def.script.is_some() && def.kind == Kind::City {
            // Effects pay off over the rounds still to come; scoring cards at the end.
            v += if def.cost >= 6 { 3.0 } else { (8.0 - f64::from(game.round())).max(0.0) * 0.4 };
        }
        v
    }

    fn role_value(game: &Game, seat: usize, role: Role) -> f64 {
        let p = game.player(seat);
        let cards = &game.rules().cards;
        let empty = p.city.iter().filter(|s| s.good.is_none() && cards.get(s.card).kind == Kind::Production).count();
        let goods = p.goods();
        match role {
            Role::Builder => {
                let budget = p.hand.len() as i32; // after the card itself, plus the privilege
                let cost_now = game.build_costs_now(seat);
                p.hand
                    .iter()
                    .filter(|&&c| cost_now(c).is_ok_and(|cost| cost - 1 < budget))
                    .map(|&c| 2.0 + Self::card_value(game, seat, c))
                    .fold(0.0, f64::max)
            }
            Role::Producer => 1.6 * empty.min(3) as f64,
            Role::Trader => 2.0 * goods.min(3) as f64,
            Role::Councillor => 2.5 - 0.2 * p.hand.len() as f64,
            Role::Prospector => 1.5,
        }
    }
}

impl Bot<Game> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &Game, legal: &[Action]) -> Action {
        let Some(d) = game.pending() else { return legal[0] };
        let seat = d.seat();
        let value = |c: CardIdx| Self::card_value(game, seat, c);
        let hand = game.player(seat).hand.len();
        best_by(legal, |a| match *a {
            Action::Role { role, boost } => Self::role_value(game, seat, role) + if boost { 0.1 } else { 0.0 },
            Action::Build { card, over } => {
                let cost = f64::from(game.rules().cards.get(card).cost);
                let lost = over.map_or(0.0, &value);
                value(card) - lost - 0.2 * cost
            }
            Action::Pay(c) | Action::Discard(c) => -value(c),
            Action::Spend(_) => 0.5,
            // Another seat's good costs the builder nothing of its own, but feeds that seat.
            Action::SpendOf(..) => 0.4,
            Action::Produce(b) | Action::Sell(b) => {
                let good = game.rules().cards.get(b).good.unwrap_or(0) as f64;
                10.0 + good + f64::from(game.price_of(seat, b))
            }
            Action::Keep(c) => value(c),
            Action::Tuck(c) => {
                if hand > 4 {
                    5.0 - value(c)
                } else {
                    -10.0
                }
            }
            // A script's options mean nothing to these rules of thumb: the first one.
            Action::Choose(_) => 0.0,
            // A ruleset's own action: better than stopping, worth less than a good sold.
            Action::Act(_) => 1.0,
            Action::Pick(c) | Action::Give(c) => -value(c),
            Action::Pass => match d {
                Decision::Tuck { .. } => 0.0,
                Decision::Exchange { .. } => -2.5,
                _ => -1.0,
            },
        })
    }
}
