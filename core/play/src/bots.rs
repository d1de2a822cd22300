//! Bots that need no knowledge of a game: they play any [`TurnGame`] through
//! the same decision interface as everyone else.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rng;
use crate::turns::{Determinize, TurnGame};

/// A player that picks one of the legal actions of a game.
pub trait Bot<G: TurnGame>: Send {
    /// Short name for reports (`random`, `greedy`, …).
    fn name(&self) -> &str;
    /// Chooses one of `legal` (never empty) for the pending decision of `game`.
    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action;
    /// [`Bot::choose`] with the values the bot chose by, to explain a move:
    /// the same choice from the same draws of its generator, and `None` for a
    /// bot that values nothing (random, rules of thumb). Only a front end that
    /// explains calls it; the bots' games call `choose`.
    fn choose_judged(&mut self, game: &G, legal: &[G::Action]) -> (G::Action, Option<Judgement>) {
        (self.choose(game, legal), None)
    }
}

/// A boxed bot is a bot: a game's rules of thumb chosen at run time can play
/// out a search's samples.
impl<G: TurnGame, B: Bot<G> + ?Sized> Bot<G> for Box<B> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action {
        (**self).choose(game, legal)
    }

    fn choose_judged(&mut self, game: &G, legal: &[G::Action]) -> (G::Action, Option<Judgement>) {
        (**self).choose_judged(game, legal)
    }
}

/// What the values of a [`Judgement`] measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The balance bot's learned worth of the position an answer leads to,
    /// in points of final margin (up to a constant shared by the answers).
    Margin,
    /// A search's mean reward of an answer's playouts: mostly a win share
    /// ([`crate::turns::shaped_rewards`]).
    WinShare,
}

/// The values a bot chose one decision by, one per legal answer in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// What the values are.
    pub measure: Measure,
    /// Per legal answer: its value, `None` for one the bot did not look at.
    pub values: Vec<Option<f64>>,
    /// Per legal answer, for a search that chooses the most visited: its visits.
    pub visits: Option<Vec<u32>>,
    /// How the values came about, in a few words (`each answer played out on the same 4 deals`).
    pub how: String,
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

/// Names of the bots every game offers ([`BotSpec::parse`]); `mcts:N` sets the iterations per move.
pub const BOT_NAMES: &[&str] = &[
    "balance",
    "balance+FEATURE=X",
    "balance~S",
    "random",
    "greedy",
    "mcts",
    "mcts:N",
    "mcts-balance:N",
    "paired-balance:N",
    "paired-balance:N@KIND",
];

/// A bot named on a command line or in a file, before it is built for a game
/// (the game brings its own rules of thumb and search).
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// The balance bot ([`crate::value::ValueBot`]) with the ruleset's learned
    /// model, its weights nudged as listed (`balance+built:well=0.5`: a bot
    /// that likes a well half a point more than it learned to), and `noise`
    /// points of normal noise on each action's value (`balance~0.5`: a bot
    /// that judges only about right; 0 for none).
    Balance {
        /// The weights moved.
        nudges: Vec<Nudge>,
        /// The standard deviation of the noise, in points.
        noise: f64,
    },
    /// [`RandomBot`].
    Random,
    /// The game's rules of thumb.
    Greedy,
    /// The game's tree search with this many iterations per move.
    Mcts(u32),
    /// A flat search (each move judged by its playouts alone) whose playouts
    /// are the balance bot's games: slower, and a reference for the balance bot.
    MctsBalance(u32),
    /// [`crate::paired::Paired`] with about this many balance-bot playouts per
    /// decision: every move on the same deals, so moves worth about the same
    /// are told apart by what they change rather than by the luck of a deal.
    PairedBalance(u32),
    /// A search over balance playouts (`mcts-balance`, `paired-balance`) at
    /// some kinds of decision only, the balance bot answering the rest
    /// (`paired-balance:400@build`): it shows which decisions a difference
    /// between the two comes from, at a fraction of a full search's time.
    Limited {
        /// The search.
        search: Box<BotSpec>,
        /// The kinds of decision it searches, as the game names them.
        kinds: Vec<String>,
    },
}

/// One weight of the balance bot's model moved: `feature` (a name the `learn`
/// command lists) is worth `by` more to the bot than it learned.
#[derive(Clone, Debug, PartialEq)]
pub struct Nudge {
    /// The feature's name.
    pub feature: String,
    /// What is added to its weight.
    pub by: f64,
}

impl BotSpec {
    /// `balance`, `balance+FEATURE=X[+FEATURE=X…]`, either with `~S` after it
    /// (noise), `random`, `greedy`, `mcts` ([`Mcts::DEFAULT_ITERATIONS`]),
    /// `mcts:N` (N from 1 to [`Mcts::MAX_ITERATIONS`]), `mcts-balance[:N]` or
    /// `paired-balance[:N]`, each of the last two optionally `@KIND[+KIND…]`;
    /// the error says what is wrong, quoting the name cut to [`QUOTED`] characters.
    ///
    /// A name longer than [`MAX_BOT_NAME`] bytes is refused before it is read,
    /// and the parse is not recursive beyond `SEARCH@KIND` over a plain name:
    /// a name from a file or a web request cannot exhaust the stack.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        let name = &*quoted(text);
        if text.len() > MAX_BOT_NAME {
            return Err(format!(
                "bot `{name}` is {} bytes long; a bot's name is at most {MAX_BOT_NAME} bytes (e.g. balance~0.5)",
                text.len()
            ));
        }
        if let Some((base, kinds)) = text.split_once('@') {
            let how = "write mcts-balance:N@KIND or paired-balance:N@KIND (e.g. paired-balance:400@build; \
                       several kinds: @role+build)";
            // `base` holds no `@`: this recursion is one level deep.
            let search = match BotSpec::parse(base)? {
                s @ (BotSpec::MctsBalance(_) | BotSpec::PairedBalance(_)) => s,
                _ => {
                    return Err(format!(
                        "`{name}`: @KIND limits a search over balance playouts to some decisions: {how}"
                    ));
                }
            };
            let kinds: Vec<String> = kinds.split('+').map(|k| k.trim().to_owned()).collect();
            if kinds.iter().any(|k| k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')) {
                return Err(format!("`{name}`: name a kind of decision after @: {how}"));
            }
            return Ok(BotSpec::Limited { search: Box::new(search), kinds });
        }
        if text.starts_with("balance")
            && let Some((base, noise)) = text.rsplit_once('~')
        {
            let how = "write balance~S, S the points of noise on each action's value, above 0 and at most \
                       100 (e.g. balance~0.5; after nudges: balance+built:well=0.5~0.5)";
            let noise = match noise.parse::<f64>() {
                Ok(s) if s > 0.0 && s <= 100.0 => s,
                _ => return Err(format!("`{name}`: {how}")),
            };
            // One `~` only: checked before `base` is read, so that `balance~1~1~…` is
            // one refusal and not one call per `~`.
            if base.contains('~') {
                return Err(format!("`{name}`: one ~S at most; {how}"));
            }
            return match BotSpec::parse(base) {
                Ok(BotSpec::Balance { nudges, .. }) => Ok(BotSpec::Balance { nudges, noise }),
                Ok(_) => Err(format!("`{name}`: {how}")),
                Err(e) => Err(e),
            };
        }
        if text.contains('~') {
            return Err(format!("`{name}`: noise (~S) blurs only the balance bot: write balance~S (e.g. balance~0.5)"));
        }
        if let Some(nudges) = text.strip_prefix("balance+") {
            let nudges = nudges.split('+').map(|n| Nudge::parse(name, n)).collect::<Result<_, _>>()?;
            return Ok(BotSpec::Balance { nudges, noise: 0.0 });
        }
        match text.split_once(':') {
            None if text == "balance" => Ok(BotSpec::Balance { nudges: Vec::new(), noise: 0.0 }),
            None if text == "random" => Ok(BotSpec::Random),
            None if text == "greedy" => Ok(BotSpec::Greedy),
            None if text == "mcts" => Ok(BotSpec::Mcts(Mcts::DEFAULT_ITERATIONS)),
            None if text == "mcts-balance" => Ok(BotSpec::MctsBalance(Mcts::DEFAULT_ITERATIONS)),
            None if text == "paired-balance" => Ok(BotSpec::PairedBalance(Mcts::DEFAULT_ITERATIONS)),
            Some((search @ ("mcts" | "mcts-balance" | "paired-balance"), n)) => match n.parse::<u32>() {
                Ok(n) if (1..=Mcts::MAX_ITERATIONS).contains(&n) => Ok(match search {
                    "mcts" => BotSpec::Mcts(n),
                    "mcts-balance" => BotSpec::MctsBalance(n),
                    _ => BotSpec::PairedBalance(n),
                }),
                _ => Err(format!(
                    "`{name}`: write {search}:N with N the {}, from 1 to {}",
                    if search == "paired-balance" { "playouts per decision" } else { "iterations per move" },
                    Mcts::MAX_ITERATIONS
                )),
            },
            _ => Err(format!("unknown bot `{name}`; bots: {}", BOT_NAMES.join(", "))),
        }
    }
}

/// The longest bot name [`BotSpec::parse`] reads (a name with several nudges
/// is some 100 bytes).
pub const MAX_BOT_NAME: usize = 400;

/// The most characters of a bot name an error message quotes.
pub const QUOTED: usize = 80;

/// `text` cut to [`QUOTED`] characters with `…` where it was cut, control
/// characters escaped: for quoting a name in a message.
fn quoted(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().count() <= QUOTED && !text.chars().any(char::is_control) {
        return text.into();
    }
    let mut out: String = text.chars().take(QUOTED).collect::<String>().escape_debug().to_string();
    if text.chars().nth(QUOTED).is_some() {
        out.push('…');
    }
    out.into()
}

impl BotSpec {
    /// The iterations (or playouts) per decision of a search, `None` for a bot that does not search.
    pub fn search_iterations(&self) -> Option<u32> {
        match self {
            BotSpec::Mcts(n) | BotSpec::MctsBalance(n) | BotSpec::PairedBalance(n) => Some(*n),
            BotSpec::Limited { search, .. } => search.search_iterations(),
            BotSpec::Balance { .. } | BotSpec::Random | BotSpec::Greedy => None,
        }
    }

    /// Whether the bot plays by the balance model: the balance bot, or a search whose playouts it plays.
    pub fn uses_model(&self) -> bool {
        match self {
            BotSpec::Balance { .. } | BotSpec::MctsBalance(_) | BotSpec::PairedBalance(_) => true,
            BotSpec::Limited { search, .. } => search.uses_model(),
            BotSpec::Random | BotSpec::Greedy | BotSpec::Mcts(_) => false,
        }
    }
}

impl Nudge {
    /// `FEATURE=X` of the bot `name`, X a number (negative: liked less).
    fn parse(name: &str, text: &str) -> Result<Nudge, String> {
        let how = "write balance+FEATURE=X, FEATURE a name the `learn` command lists and X the \
                   points added to its weight (e.g. balance+built:well=0.5; several joined by +)";
        let Some((feature, by)) = text.split_once('=') else { return Err(format!("`{name}`: {how}")) };
        match by.parse::<f64>() {
            Ok(by) if by.is_finite() && !feature.is_empty() => Ok(Nudge { feature: feature.to_owned(), by }),
            _ => Err(format!("`{name}`: `{text}` is not FEATURE=X; {how}")),
        }
    }
}

/// The first of the `legal` actions that `score` rates highest (rules of thumb pick by it).
pub fn best_by<A: Copy>(legal: &[A], score: impl Fn(&A) -> f64) -> A {
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

/// Plays a game to its end with one bot per seat.
pub fn play_out<G: TurnGame>(game: &mut G, bots: &mut [Box<dyn Bot<G>>]) -> Result<(), G::Error> {
    while let Some(seat) = game.to_move() {
        let action = bots[seat].choose(game, game.legal());
        game.play(action)?;
    }
    Ok(())
}

/// A search over one decision's legal moves, with `playout` playing the games out.
pub trait Search<G: Determinize>: Send {
    /// The move it picks for the seat to move in `root`.
    fn search(&mut self, root: &G, legal: &[G::Action], playout: &mut dyn Bot<G>) -> G::Action;
    /// [`Search::search`] with the values it picked by ([`Bot::choose_judged`]).
    fn search_judged(
        &mut self,
        root: &G,
        legal: &[G::Action],
        playout: &mut dyn Bot<G>,
    ) -> (G::Action, Option<Judgement>) {
        (self.search(root, legal, playout), None)
    }
}

impl<G: Determinize> Search<G> for Mcts {
    fn search(&mut self, root: &G, legal: &[G::Action], playout: &mut dyn Bot<G>) -> G::Action {
        Mcts::search(self, root, legal, playout)
    }

    fn search_judged(
        &mut self,
        root: &G,
        legal: &[G::Action],
        playout: &mut dyn Bot<G>,
    ) -> (G::Action, Option<Judgement>) {
        Mcts::search_judged(self, root, legal, playout)
    }
}

/// A search as a bot ([`Mcts`] unless named): searching on the decisions
/// `searched` says shape the game, the `playout` bot (the game's rules of
/// thumb, or the balance bot) on the rest and in every sampled game's playout.
pub struct SearchBot<G, P, S = Mcts, F = fn(&G) -> bool> {
    search: S,
    playout: P,
    searched: F,
    game: std::marker::PhantomData<fn(&G)>,
}

impl<G: Determinize, P: Bot<G>, S: Search<G>, F: Fn(&G) -> bool + Send> SearchBot<G, P, S, F> {
    /// `search` where `searched` holds, `playout` answering elsewhere.
    pub fn new(search: S, playout: P, searched: F) -> Self {
        SearchBot { search, playout, searched, game: std::marker::PhantomData }
    }
}

impl<G: Determinize, P: Bot<G>, S: Search<G> + Send, F: Fn(&G) -> bool + Send> Bot<G> for SearchBot<G, P, S, F> {
    fn name(&self) -> &str {
        "search"
    }

    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action {
        if !(self.searched)(game) {
            return self.playout.choose(game, legal);
        }
        self.search.search(game, legal, &mut self.playout)
    }

    fn choose_judged(&mut self, game: &G, legal: &[G::Action]) -> (G::Action, Option<Judgement>) {
        if !(self.searched)(game) {
            return self.playout.choose_judged(game, legal);
        }
        self.search.search_judged(game, legal, &mut self.playout)
    }
}

/// Information-set Monte Carlo tree search (single observer): each iteration
/// deals what this seat cannot see at random ([`Determinize::determinize`]),
/// walks a tree of actions shared by all deals (UCB1 with availability counts),
/// and plays the rest of the game with a game's own playout bot (by default
/// one move in 10 random). The move most visited wins.
///
/// By default the tree grows as deep as the iterations take it. A game whose
/// moves are judged only over many turns may cap it ([`Mcts::with_depth`]):
/// a node below the root is first tried with a random move, so with few
/// iterations a deep tree plays mostly random moves on the way down, and its
/// playouts say more about those than about the root's moves.
#[derive(Clone, Debug)]
pub struct Mcts {
    rng: ChaCha8Rng,
    iterations: u32,
    exploration: f64,
    /// One playout move in this many is random; 0: none.
    random_one_in: u32,
    /// The most decisions an iteration walks in the tree.
    depth: u32,
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

impl Mcts {
    /// Iterations per move when none are given.
    pub const DEFAULT_ITERATIONS: u32 = 100;
    /// The most iterations `mcts:N` accepts: beyond it one move takes minutes, a game days.
    pub const MAX_ITERATIONS: u32 = 1_000_000;

    /// A search bot doing `iterations` determinized playouts per move.
    pub fn new(seed: u64, iterations: u32) -> Self {
        Mcts { rng: ChaCha8Rng::seed_from_u64(seed), iterations, exploration: 0.7, random_one_in: 10, depth: u32::MAX }
    }

    /// One playout move in `one_in` is random instead of the playout bot's
    /// (10 unless set); 0: the playout bot plays every move.
    pub fn with_random_moves(mut self, one_in: u32) -> Self {
        self.random_one_in = one_in;
        self
    }

    /// At most `depth` decisions (at least 1) per iteration are walked in the
    /// tree, the rest played out. 1: each move of the root is judged by
    /// playouts alone (flat Monte Carlo, UCB1 sharing out the iterations).
    pub fn with_depth(mut self, depth: u32) -> Self {
        self.depth = depth.max(1);
        self
    }

    /// Searches `root` for the seat to move and returns the most visited legal action.
    /// `playout` plays for every seat after the tree (see [`Mcts::with_random_moves`]).
    pub fn search<G: Determinize>(&mut self, root: &G, legal: &[G::Action], playout: &mut dyn Bot<G>) -> G::Action {
        let Some(me) = root.to_move() else { return legal[0] };
        let tree = self.grow(root, me, playout);
        Self::most_visited(&tree, legal)
    }

    /// [`Mcts::search`] with each legal action's visits and mean reward at the root.
    pub fn search_judged<G: Determinize>(
        &mut self,
        root: &G,
        legal: &[G::Action],
        playout: &mut dyn Bot<G>,
    ) -> (G::Action, Option<Judgement>) {
        let Some(me) = root.to_move() else { return (legal[0], None) };
        let tree = self.grow(root, me, playout);
        let chosen = Self::most_visited(&tree, legal);
        let child = |a: &G::Action| tree[0].children.iter().map(|&c| &tree[c]).find(|n| n.action == Some(*a));
        let visits: Vec<u32> = legal.iter().map(|a| child(a).map_or(0, |n| n.visits)).collect();
        let values =
            legal.iter().map(|a| child(a).filter(|n| n.visits > 0).map(|n| n.reward / f64::from(n.visits))).collect();
        let how = format!(
            "{} playouts shared out among the answers; value: the mean reward of an answer's playouts, \
             the most visited answer chosen",
            self.iterations
        );
        (chosen, Some(Judgement { measure: Measure::WinShare, values, visits: Some(visits), how }))
    }

    /// The search tree of `iterations` iterations from `root` for `me`.
    fn grow<G: Determinize>(&mut self, root: &G, me: usize, playout: &mut dyn Bot<G>) -> Vec<Node<G::Action>> {
        let mut tree: Vec<Node<G::Action>> =
            vec![Node { action: None, seat: me, children: Vec::new(), visits: 0, available: 0, reward: 0.0 }];
        for _ in 0..self.iterations {
            self.iterate(root, me, &mut tree, playout);
        }
        tree
    }

    /// The legal action the root's most visited child plays (the first legal one if none).
    fn most_visited<A: Copy + PartialEq>(tree: &[Node<A>], legal: &[A]) -> A {
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
            if path.len() > self.depth as usize {
                break;
            }
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
            let a = if self.random_one_in > 0 && rng::below(&mut self.rng, self.random_one_in as usize) == 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_or_repeated_noise_name_is_one_short_refusal_not_a_stack_overflow() {
        // Issue 49: `balance` and 20,000 `~1` recursed once per `~` and overflowed the stack.
        let long = format!("balance{}", "~1".repeat(20_000));
        // On a small stack, as a web server's worker has: the old parse overflowed it.
        let err = std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(move || BotSpec::parse(&long).unwrap_err())
            .unwrap()
            .join()
            .expect("no stack overflow");
        assert!(err.contains("40007 bytes long") && err.contains("at most 400 bytes"), "{err}");
        assert!(err.len() < 300, "the name is quoted cut short: {err}");
        assert!(err.contains("balance~1~1") && err.contains('…'), "{err}");
        // Short enough to be read: still refused at once, one ~ at most.
        let err = BotSpec::parse(&format!("balance{}", "~1".repeat(100))).unwrap_err();
        assert!(err.contains("one ~S at most") && err.len() < 400, "{err}");
        assert_eq!(BotSpec::parse("balance~0.5"), Ok(BotSpec::Balance { nudges: Vec::new(), noise: 0.5 }));
        let nudged = BotSpec::parse("balance+built:well=0.5~0.25").unwrap();
        assert!(matches!(nudged, BotSpec::Balance { ref nudges, noise } if nudges.len() == 1 && noise == 0.25));
        assert!(BotSpec::parse("x\ny").unwrap_err().contains("`x\\ny`"), "control characters escaped");
    }

    #[test]
    fn a_search_over_balance_playouts_can_be_limited_to_kinds_of_decision() {
        let limited = |search, kinds: &[&str]| {
            Ok(BotSpec::Limited { search: Box::new(search), kinds: kinds.iter().map(|k| (*k).to_owned()).collect() })
        };
        assert_eq!(BotSpec::parse("paired-balance:400@build"), limited(BotSpec::PairedBalance(400), &["build"]));
        assert_eq!(BotSpec::parse("mcts-balance:50@role+build"), limited(BotSpec::MctsBalance(50), &["role", "build"]));
        assert_eq!(
            BotSpec::parse("paired-balance@turn"),
            limited(BotSpec::PairedBalance(Mcts::DEFAULT_ITERATIONS), &["turn"])
        );
        // It searches as often as its search, and plays by the model.
        let spec = BotSpec::parse("paired-balance:400@build").unwrap();
        assert_eq!((spec.search_iterations(), spec.uses_model()), (Some(400), true));
        for bad in ["balance@build", "random@build", "greedy@role", "mcts:50@role", "balance~0.5@build"] {
            let err = BotSpec::parse(bad).unwrap_err();
            assert!(err.contains("@KIND limits a search over balance playouts"), "{bad}: {err}");
        }
        for bad in
            ["paired-balance:10@", "paired-balance:10@build+", "paired-balance:10@bu ild", "paired-balance:10@a,b"]
        {
            let err = BotSpec::parse(bad).unwrap_err();
            assert!(err.contains("name a kind of decision after @"), "{bad}: {err}");
        }
        // The search's own errors come first.
        assert!(BotSpec::parse("paired-balance:0@build").unwrap_err().contains("playouts per decision"));
    }

    #[test]
    fn bot_names_parse() {
        let balance = |nudges, noise| Ok(BotSpec::Balance { nudges, noise });
        assert_eq!(BotSpec::parse("balance"), balance(Vec::new(), 0.0));
        let nudge = |f: &str, by: f64| Nudge { feature: f.to_owned(), by };
        assert_eq!(
            BotSpec::parse("balance+built:well=0.5+lead:garden=-1"),
            balance(vec![nudge("built:well", 0.5), nudge("lead:garden", -1.0)], 0.0)
        );
        assert_eq!(BotSpec::parse("balance~0.5"), balance(Vec::new(), 0.5));
        assert_eq!(BotSpec::parse("balance+built:well=-1~2"), balance(vec![nudge("built:well", -1.0)], 2.0));
        for bad in ["balance~", "balance~0", "balance~-1", "balance~x", "balance~101", "balance~1~1", "balance~nan"] {
            let err = BotSpec::parse(bad).unwrap_err();
            assert!(err.contains("write balance~S"), "{bad}: {err}");
        }
        assert!(BotSpec::parse("balance+built:well~1").unwrap_err().contains("write balance+FEATURE=X"));
        assert!(BotSpec::parse("balancer~1").unwrap_err().contains("unknown bot `balancer`"));
        for bad in ["balance+", "balance+built:well", "balance+built:well=x", "balance+=1", "balance+a=inf"] {
            let err = BotSpec::parse(bad).unwrap_err();
            assert!(err.contains("write balance+FEATURE=X"), "{bad}: {err}");
        }
        assert_eq!(BotSpec::parse("random"), Ok(BotSpec::Random));
        assert_eq!(BotSpec::parse("greedy"), Ok(BotSpec::Greedy));
        assert_eq!(BotSpec::parse("mcts"), Ok(BotSpec::Mcts(Mcts::DEFAULT_ITERATIONS)));
        assert_eq!(BotSpec::parse("mcts:1"), Ok(BotSpec::Mcts(1)));
        assert_eq!(BotSpec::parse("mcts:1000000"), Ok(BotSpec::Mcts(1_000_000)));
        let range = |n: &str| format!("`{n}`: write mcts:N with N the iterations per move, from 1 to 1000000");
        for n in ["mcts:0", "mcts:1000001", "mcts:", "mcts:x", "mcts:-3"] {
            assert_eq!(BotSpec::parse(n), Err(range(n)));
        }
        assert_eq!(BotSpec::parse("mcts-balance"), Ok(BotSpec::MctsBalance(Mcts::DEFAULT_ITERATIONS)));
        assert_eq!(BotSpec::parse("mcts-balance:40"), Ok(BotSpec::MctsBalance(40)));
        assert_eq!(BotSpec::parse("paired-balance:400"), Ok(BotSpec::PairedBalance(400)));
        assert_eq!(BotSpec::parse("paired-balance"), Ok(BotSpec::PairedBalance(Mcts::DEFAULT_ITERATIONS)));
        assert_eq!(
            BotSpec::parse("paired-balance:0"),
            Err("`paired-balance:0`: write paired-balance:N with N the playouts per decision, from 1 to 1000000"
                .to_owned())
        );
        for n in ["greedy~1", "mcts:50~0.5", "random~2"] {
            assert_eq!(
                BotSpec::parse(n),
                Err(format!("`{n}`: noise (~S) blurs only the balance bot: write balance~S (e.g. balance~0.5)"))
            );
        }
        assert_eq!(
            BotSpec::parse("mcts-balance:0"),
            Err("`mcts-balance:0`: write mcts-balance:N with N the iterations per move, from 1 to 1000000".to_owned())
        );
        for n in ["", "Random", "greedy:2", "mcts 5", "alpha", "balance:3"] {
            assert_eq!(
                BotSpec::parse(n),
                Err(format!(
                    "unknown bot `{n}`; bots: balance, balance+FEATURE=X, balance~S, random, greedy, mcts, mcts:N, \
                     mcts-balance:N, paired-balance:N, paired-balance:N@KIND"
                ))
            );
        }
    }
}
