//! Bots: players driven by code through the same `pending`/`apply` API as
//! everyone else. The random bot, `play_out` and the tree search work on any
//! [`TurnGame`]; the greedy rules are San Juan's.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::actions::{Action, Role};
use crate::cards::{CardIdx, Kind};
use crate::game::{Decision, Game};
use crate::rng;
use crate::turns::{Determinize, TurnGame};

/// A player that picks one of the legal actions of a game (San Juan by default).
pub trait Bot<G: TurnGame = Game>: Send {
    /// Short name for reports (`random`, `greedy`, …).
    fn name(&self) -> &str;
    /// Chooses one of `legal` (never empty) for the pending decision of `game`.
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action;
}

/// Picks uniformly among the legal actions, from its own seeded stream.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: TurnGame> Bot<G> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _game: &G, legal: &[G::Action]) -> G::Action {
        legal[rng::below(&mut self.rng, legal.len())]
    }
}

/// Plays a game to its end with one bot per seat.
pub fn play_out<G: TurnGame>(game: &mut G, bots: &mut [Box<dyn Bot<G>>]) -> Result<(), G::Error> {
    while let Some(seat) = game.to_move() {
        let action = bots[seat].choose(game, game.legal());
        game.play(action)?;
    }
    Ok(())
}

/// Names accepted by [`make`]; `mcts:N` sets the iterations per move.
pub const BOT_NAMES: &[&str] = &["random", "greedy", "mcts", "mcts:N"];

/// A bot by name, seeded.
pub fn make(name: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match name.split_once(':') {
        None if name == "random" => Ok(Box::new(RandomBot::new(seed))),
        None if name == "greedy" => Ok(Box::new(GreedyBot)),
        None if name == "mcts" => Ok(Box::new(MctsBot::new(seed, MctsBot::DEFAULT_ITERATIONS))),
        Some(("mcts", n)) => match n.parse::<u32>() {
            Ok(n) if (1..=MctsBot::MAX_ITERATIONS).contains(&n) => Ok(Box::new(MctsBot::new(seed, n))),
            _ => Err(format!(
                "`{name}`: write mcts:N with N the iterations per move, from 1 to {}",
                MctsBot::MAX_ITERATIONS
            )),
        },
        _ => Err(format!("unknown bot `{name}`; bots: {}", BOT_NAMES.join(", "))),
    }
}

/// Plays by rules of thumb: values cards by points, cost and whether they do
/// something, keeps goods flowing, and picks the role whose privilege pays most.
/// It reads only what its seat may see.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// How much the bot wants to own a card (also: how loath it is to pay with it).
    fn card_value(game: &Game, seat: usize, card: CardIdx) -> f64 {
        let def = game.ruleset().cards.get(card);
        let p = game.player(seat);
        let production = p.city.iter().filter(|s| game.ruleset().cards.get(s.card).kind == Kind::Production).count();
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
        let cards = &game.ruleset().cards;
        let empty = p.city.iter().filter(|s| s.good.is_none() && cards.get(s.card).kind == Kind::Production).count();
        let goods = p.goods();
        match role {
            Role::Builder => {
                let budget = p.hand.len() as i32; // after the card itself, plus the privilege
                p.hand
                    .iter()
                    .filter(|&&c| game.build_cost_now(seat, c).is_ok_and(|cost| cost - 1 < budget))
                    .map(|&c| 2.0 + Self::card_value(game, seat, c))
                    .fold(0.0, f64::max)
            }
            Role::Producer => 1.6 * empty.min(3) as f64,
            Role::Trader => 2.0 * goods.min(3) as f64,
            Role::Councillor => 2.5 - 0.2 * p.hand.len() as f64,
            Role::Prospector => 1.5,
        }
    }

    fn best_by<F: Fn(&Action) -> f64>(legal: &[Action], score: F) -> Action {
        let mut best = legal[0];
        let mut best_score = f64::NEG_INFINITY;
        for a in legal {
            let s = score(a);
            if s > best_score {
                best = *a;
                best_score = s;
            }
        }
        best
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &Game, legal: &[Action]) -> Action {
        let Some(d) = game.pending() else { return legal[0] };
        let seat = d.seat();
        let value = |c: CardIdx| Self::card_value(game, seat, c);
        let hand = game.player(seat).hand.len();
        Self::best_by(legal, |a| match *a {
            Action::Role { role, boost } => Self::role_value(game, seat, role) + if boost { 0.1 } else { 0.0 },
            Action::Build { card, over } => {
                let cost = f64::from(game.ruleset().cards.get(card).cost);
                let lost = over.map_or(0.0, &value);
                value(card) - lost - 0.2 * cost
            }
            Action::Pay(c) | Action::Discard(c) => -value(c),
            Action::Spend(_) => 0.5,
            Action::Produce(b) | Action::Sell(b) => {
                let good = game.ruleset().cards.get(b).good.unwrap_or(0) as f64;
                10.0 + good + f64::from(game.price_of(b))
            }
            Action::Keep(c) => value(c),
            Action::Tuck(c) => {
                if hand > 4 {
                    5.0 - value(c)
                } else {
                    -10.0
                }
            }
            Action::Pass => match d {
                Decision::Tuck { .. } => 0.0,
                Decision::Exchange { .. } => -2.5,
                _ => -1.0,
            },
        })
    }
}

/// Information-set Monte Carlo tree search (single observer): each iteration
/// deals the cards this seat cannot see at random ([`Game::determinize`]),
/// walks a tree of actions shared by all deals (UCB1 with availability counts),
/// and plays the rest of the game with greedy moves (10% random). The move most
/// visited wins. It searches role and build decisions; payments, goods and
/// card choices follow the greedy bot's rules.
#[derive(Clone, Debug)]
pub struct MctsBot {
    rng: ChaCha8Rng,
    iterations: u32,
    exploration: f64,
}

#[derive(Clone, Debug)]
struct Node<A> {
    action: Option<A>,
    /// The seat that chose `action`.
    seat: usize,
    children: Vec<usize>,
    visits: u32,
    available: u32,
    reward: f64,
}

impl MctsBot {
    /// Iterations per move when none are given.
    pub const DEFAULT_ITERATIONS: u32 = 100;
    /// The most iterations `mcts:N` accepts: beyond it one move takes minutes, a game days.
    pub const MAX_ITERATIONS: u32 = 1_000_000;

    /// A search bot doing `iterations` determinized playouts per move.
    pub fn new(seed: u64, iterations: u32) -> Self {
        MctsBot { rng: ChaCha8Rng::seed_from_u64(seed), iterations, exploration: 0.7 }
    }

    /// Searches `root` for the seat to move and returns the most visited legal action.
    /// `playout` plays for every seat after the tree (10% of its moves are random).
    pub fn search<G: Determinize>(&mut self, root: &G, legal: &[G::Action], playout: &mut dyn Bot<G>) -> G::Action {
        let Some(me) = root.to_move() else { return legal[0] };
        let mut tree: Vec<Node<G::Action>> =
            vec![Node { action: None, seat: me, children: Vec::new(), visits: 0, available: 0, reward: 0.0 }];
        for _ in 0..self.iterations {
            self.iterate(root, me, &mut tree, playout);
        }
        tree[0]
            .children
            .iter()
            .filter_map(|&c| tree[c].action.filter(|a| legal.contains(a)).map(|a| (tree[c].visits, a)))
            .max_by_key(|(v, _)| *v)
            .map_or(legal[0], |(_, a)| a)
    }

    fn iterate<G: Determinize>(
        &mut self,
        root: &G,
        me: usize,
        tree: &mut Vec<Node<G::Action>>,
        playout: &mut dyn Bot<G>,
    ) {
        let seed = self.rng.next_u64();
        let mut game = root.determinize(me, seed);
        let mut node = 0;
        let mut path = vec![0];
        // Selection and expansion.
        while let Some(seat) = game.to_move() {
            let legal = game.legal();
            let mut untried: smallvec::SmallVec<[G::Action; 16]> = smallvec::SmallVec::new();
            for a in legal {
                match tree[node].children.iter().find(|&&c| tree[c].action == Some(*a)) {
                    Some(&c) => tree[c].available += 1,
                    None => untried.push(*a),
                }
            }
            if !untried.is_empty() {
                let a = untried[rng::below(&mut self.rng, untried.len())];
                let child = tree.len();
                tree.push(Node { action: Some(a), seat, children: Vec::new(), visits: 0, available: 1, reward: 0.0 });
                tree[node].children.push(child);
                path.push(child);
                if game.play(a).is_err() {
                    return;
                }
                break;
            }
            let c = self.exploration;
            let ucb = |n: &Node<G::Action>| {
                n.reward / f64::from(n.visits.max(1))
                    + c * (f64::from(n.available.max(1)).ln() / f64::from(n.visits.max(1))).sqrt()
            };
            let best = tree[node]
                .children
                .iter()
                .copied()
                .filter(|&ch| tree[ch].action.is_some_and(|a| legal.contains(&a)))
                .max_by(|&x, &y| ucb(&tree[x]).total_cmp(&ucb(&tree[y])))
                .expect("a legal child");
            node = best;
            path.push(node);
            if game.play(tree[node].action.expect("action")).is_err() {
                return;
            }
        }
        // Playout.
        while game.to_move().is_some() {
            let legal = game.legal();
            let a = if rng::below(&mut self.rng, 10) == 0 {
                legal[rng::below(&mut self.rng, legal.len())]
            } else {
                playout.choose(&game, legal)
            };
            if game.play(a).is_err() {
                return;
            }
        }
        let Some(rewards) = game.rewards() else { return };
        for &n in &path {
            tree[n].visits += 1;
            tree[n].reward += rewards[tree[n].seat];
        }
    }
}

impl Bot for MctsBot {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, game: &Game, legal: &[Action]) -> Action {
        // Search the decisions that shape a game (roles, buildings); the rest the greedy rules handle.
        if !matches!(game.pending(), Some(Decision::Role { .. } | Decision::Build { .. })) {
            return GreedyBot.choose(game, legal);
        }
        self.search(game, legal, &mut GreedyBot)
    }
}
