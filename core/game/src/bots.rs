//! The standard bots, built once for every game: the balance bot (the learned
//! value model), the random bot, and the game's own rules of thumb and tree
//! search, which the game hands over ([`Game::greedy`], [`Game::search`]).

use std::sync::Arc;

use engine_play::bots::{Bot, BotSpec, RandomBot, SearchBot};
use engine_play::paired::Paired;
use engine_play::value::ValueBot;

use crate::{Game, Models};

/// Keeps the playout bot's draws apart from the search's own.
const PLAYOUT_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// A bot by name ([`BotSpec::parse`]: `balance`, `balance+FEATURE=X`, `balance~S`, `random`,
/// `greedy`, `mcts`, `mcts:N`, `mcts-balance:N`, `paired-balance:N`, either of the last two
/// limited to some kinds of decision, `@KIND`) for a ruleset of `G`, seeded; the balance bot's model comes from
/// `models` (learned there now if missing).
pub fn make<G: Game>(rs: &Arc<G::Rules>, name: &str, seed: u64, models: &Models) -> Result<Box<dyn Bot<G>>, String> {
    Ok(match BotSpec::parse(name)? {
        BotSpec::Balance { nudges, noise } => {
            let model = models.balance::<G>(rs)?;
            let model = if nudges.is_empty() { model } else { Arc::new(model.nudged(&nudges)?) };
            Box::new(ValueBot::new(model, seed).with_noise(noise))
        }
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => G::greedy(),
        BotSpec::Mcts(n) => G::search(seed, n),
        // Flat and without random playout moves: a deep tree with few iterations
        // starts its playouts after random moves, and lost to the balance bot it
        // played out with (docs/bots.md has the games).
        BotSpec::MctsBalance(n) => {
            let playout = ValueBot::new(models.balance::<G>(rs)?, seed ^ PLAYOUT_SEED);
            Box::new(SearchBot::new(G::mcts(seed, n).with_depth(1).with_random_moves(0), playout, G::searched))
        }
        BotSpec::PairedBalance(n) => {
            let playout = ValueBot::new(models.balance::<G>(rs)?, seed ^ PLAYOUT_SEED);
            Box::new(SearchBot::new(Paired::new(seed, n), playout, G::searched))
        }
        BotSpec::Limited { search, kinds } => {
            let kinds = decision_kinds::<G>(name, &kinds)?;
            let searched = move |g: &G| g.decision_kind().is_some_and(|k| kinds.contains(&k));
            let playout = ValueBot::new(models.balance::<G>(rs)?, seed ^ PLAYOUT_SEED);
            match *search {
                BotSpec::MctsBalance(n) => {
                    Box::new(SearchBot::new(G::mcts(seed, n).with_depth(1).with_random_moves(0), playout, searched))
                }
                BotSpec::PairedBalance(n) => Box::new(SearchBot::new(Paired::new(seed, n), playout, searched)),
                _ => return Err(format!("`{name}`: only mcts-balance and paired-balance can be limited to a kind")),
            }
        }
    })
}

/// The rules of thumb of a game that writes none: the answer that gains the
/// seat to move the most points at once (the first of equals), each tried on
/// a copy of the game. A game whose points come only at the end gains nothing
/// at once, and this plays its first answer: such a game writes its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct OnePly;

impl<G: Game> Bot<G> for OnePly {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action {
        let Some(seat) = game.to_move() else { return legal[0] };
        let points = |g: &G| g.scores().ok().and_then(|s| s.get(seat).map(|s| s.total)).unwrap_or(i32::MIN);
        let gain = |a: &G::Action| {
            let mut after = game.clone();
            after.play(*a).map_or(i32::MIN, |()| points(&after))
        };
        let mut best = (legal[0], i32::MIN);
        for a in legal {
            let g = gain(a);
            if g > best.1 {
                best = (*a, g);
            }
        }
        best.0
    }
}

/// The game's names for `kinds` (a bot `name`'s `@KIND+KIND`), or an error that lists the kinds there are.
pub fn decision_kinds<G: Game>(name: &str, kinds: &[String]) -> Result<Vec<&'static str>, String> {
    kinds
        .iter()
        .map(|k| {
            G::DECISION_KINDS.iter().find(|(n, _)| n == k).map(|(n, _)| *n).ok_or_else(|| {
                let there: Vec<String> = G::DECISION_KINDS.iter().map(|(n, what)| format!("{n} ({what})")).collect();
                match there.is_empty() {
                    true => format!("`{name}`: {} names no kinds of decision to limit a search to", G::TITLE),
                    false => format!(
                        "`{name}`: {} has no kind of decision `{k}`; a search can be limited to {}",
                        G::TITLE,
                        there.join(", ")
                    ),
                }
            })
        })
        .collect()
}
