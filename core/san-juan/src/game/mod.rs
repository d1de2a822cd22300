//! The game state and the state machine that drives it.
//!
//! `Game::pending()` says who must decide what; `Game::apply()` validates an
//! action and advances until the next real decision. Work still to do in the
//! round sits in a queue of [`Step`]s; a step either runs by itself or sets a
//! pending [`Decision`]. Decisions with only one legal answer are answered
//! automatically, so a pending decision is always a real choice.
//!
//! This file holds the state; each concept has its own file: decisions
//! (`decision`), the event log (`events`) and its text for answered decisions
//! (`log`), setup, read-only accessors, action text (`notation`), legal actions
//! and applying them (`legal`), why an action is illegal (`why`), the step
//! machine (`step`), hook dispatch (`dispatch`), cards moving (`draw`), and
//! what search bots and undo need (`search`).

use engine_script::HookMask;
use std::collections::VecDeque;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use crate::actions::{Action, Role};
use crate::cards::CardIdx;
use crate::ruleset::Ruleset;
use effects::{Grants, Queued};

mod accessors;
mod custom;
mod decision;
mod dispatch;
mod draw;
pub mod effects;
mod events;
mod legal;
mod log;
mod notation;
mod reads;
mod search;
mod setup;
mod step;
mod why;

pub use decision::{BuildFrom, BuildOption, BuildOptions, Decision, DiscardReason, PickRules};
pub use dispatch::MAX_EVENT_DEPTH;
pub(crate) use dispatch::{
    COUNTER_CHANGED, Chain, DISCARDED, DREW, GOOD_PLACED, GOOD_REMOVED, Listeners, SCRIPT_SLOT, TUCKED, script_slot,
};
pub use events::{Event, Visibility};
pub(crate) use events::{count, n_cards};
pub(crate) use step::Step;

/// One building in a player's city: the top card and what lies on or under it.
#[derive(Debug, PartialEq, Eq)]
pub struct Slot {
    /// The building in play.
    pub card: CardIdx,
    /// Buildings covered by it (crane), out of play, first covered first; each keeps its history.
    pub covered: Vec<Covered>,
    /// The good on it: a face-down card.
    pub good: Option<CardIdx>,
    /// Cards under it (chapel, bank, harbor); they stay when it is covered.
    pub under: Vec<CardIdx>,
    /// The building that collected `under` (scores `under_vp` each).
    pub under_from: Option<CardIdx>,
    /// False during the builder phase in which it was built.
    pub active: bool,
    /// How often its offer was taken (a bank's once per game).
    pub uses: u32,
    /// The round in which the top card was built (0: at setup or placed by a scenario).
    pub built_round: u32,
    /// The building's counter, changed by its script's `counter` effect.
    pub counter: i32,
}

impl Clone for Slot {
    fn clone(&self) -> Self {
        let mut slot = Slot::new(self.card, self.active);
        slot.clone_from(self);
        slot
    }

    /// In place, in its own buffers: the balance bot's spare copy of a game
    /// copies every city for each decision it prices (a derived `clone_from`
    /// made and dropped each slot, a third of that copy's cost).
    fn clone_from(&mut self, from: &Self) {
        // Every field named, so that a new one cannot be forgotten.
        let Slot { card, covered, good, under, under_from, active, uses, built_round, counter } = from;
        self.card = *card;
        self.covered.clone_from(covered);
        self.good = *good;
        self.under.clone_from(under);
        self.under_from = *under_from;
        self.active = *active;
        self.uses = *uses;
        self.built_round = *built_round;
        self.counter = *counter;
    }
}

/// A building covered by another (crane): the card, with the round it was
/// built and the counter it had kept, which stay with it (the building on top
/// starts afresh).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Covered {
    /// The covered building.
    pub card: CardIdx,
    /// The round it had been built in (0: at setup or placed by a scenario).
    pub built_round: u32,
    /// Its counter when it was covered.
    pub counter: i32,
}

impl Slot {
    /// The buildings covered by this one, first covered first.
    pub fn covered_cards(&self) -> impl Iterator<Item = CardIdx> + '_ {
        self.covered.iter().map(|c| c.card)
    }

    /// A freshly built (or scenario-placed) building.
    pub fn new(card: CardIdx, active: bool) -> Self {
        Slot {
            card,
            covered: Vec::new(),
            good: None,
            under: Vec::new(),
            under_from: None,
            active,
            uses: 0,
            built_round: 0,
            counter: 0,
        }
    }
}

/// Goods on the buildings of a city (one that is, or one that might be).
pub(crate) fn goods_on(city: &[Slot]) -> usize {
    city.iter().filter(|s| s.good.is_some()).count()
}

/// One seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Cards in hand.
    pub hand: Vec<CardIdx>,
    /// Cards set aside face up to build later (a `move` to `"reserve"`): public, not in the hand.
    pub reserve: Vec<CardIdx>,
    /// Buildings in play, in the order built.
    pub city: Vec<Slot>,
    /// A once-per-round privilege boost was used this round.
    pub boost_used: bool,
    /// The roles chosen this game, a bit per role.
    pub roles_chosen: u8,
    /// Named counters, changed by the `player_counter` effect.
    pub counters: Arc<Vec<(Arc<str>, i32)>>,
    /// One-off grants for the current phase.
    pub grants: Grants,
    /// Cards that came into the hand since its last hand-limit check (a building
    /// may draw right after it): the invariant checks read it.
    pub(crate) gained: u32,
}

impl Player {
    /// Made a copy of `from` in its own buffers (hand, city).
    fn refill_from(&mut self, from: &Player) {
        // Every field named, so that a new one cannot be forgotten.
        let Player { hand, reserve, city, boost_used, roles_chosen, counters, grants, gained } = from;
        self.hand.clone_from(hand);
        self.reserve.clone_from(reserve);
        self.city.clone_from(city);
        self.boost_used = *boost_used;
        self.roles_chosen = *roles_chosen;
        self.counters.clone_from(counters);
        self.grants = *grants;
        self.gained = *gained;
    }

    /// Goods on this player's buildings.
    pub fn goods(&self) -> usize {
        goods_on(&self.city)
    }

    /// True if a building of this type is in play.
    pub fn owns(&self, card: CardIdx) -> bool {
        self.city.iter().any(|s| s.card == card)
    }
}

/// The phase being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    /// Its role.
    pub role: Role,
    /// Who chose it.
    pub chooser: usize,
    /// The privilege factor (2 with a library).
    pub factor: i32,
}

/// No seat: a role nobody chose this round.
pub(crate) const NOBODY: u8 = u8::MAX;

/// A game of San Juan.
#[derive(Clone)]
pub struct Game {
    pub(crate) rs: Arc<Ruleset>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) players: Vec<Player>,
    /// Draw pile; the top card is the last element.
    pub(crate) deck: Vec<CardIdx>,
    pub(crate) discard: Vec<CardIdx>,
    /// Public cards anyone may build (the cathedral).
    pub(crate) public: Vec<CardIdx>,
    /// Cards drawn or revealed and not yet placed (councillor, gold mine, sold goods).
    pub(crate) limbo: Vec<CardIdx>,
    /// Trading tiles, top first.
    pub(crate) tiles: VecDeque<usize>,
    pub(crate) tile: Option<usize>,
    pub(crate) governor: usize,
    pub(crate) round: u32,
    /// Per role (in `Role::ALL` order): the seat that chose it this round, or `NOBODY`.
    pub(crate) chosen_by: [u8; 5],
    /// `chosen_by` of every earlier round, oldest first (shared: a copy of the game is cheap).
    pub(crate) earlier_rounds: Arc<Vec<[u8; 5]>>,
    pub(crate) phase: Option<Phase>,
    pub(crate) phase_sold: i32,
    pub(crate) steps: step::Steps,
    pub(crate) pending: Option<Decision>,
    /// The legal answers to `pending`, worked out once per decision.
    pub(crate) legal: Vec<Action>,
    /// Cards paid automatically since the last build (a forced payment), and
    /// hand cards a script's discard took (every one: forced).
    pub(crate) auto_paid: Vec<Action>,
    pub(crate) over: bool,
    pub(crate) stalled: bool,
    pub(crate) broken: Option<String>,
    /// Per seat, a bit per hook some building in the city listens to (a quick "nobody").
    pub(crate) hook_mask: Vec<HookMask>,
    /// Every seat's `hook_mask` together: a quick "nobody at all".
    pub(crate) hook_union: HookMask,
    /// Effects waiting to be applied, in order (they run before the next step).
    pub(crate) effects: VecDeque<Queued>,
    /// The event log, the recorded actions and re-deals, the count of actions.
    pub(crate) journal: engine_game::Journal<Action, Event>,
    /// The event the event hooks running now hear (`ctx.event`).
    pub(crate) event_now: Option<Arc<crate::hooks::EventFacts>>,
    /// The goods of the turn being played: the buildings that produced, or were
    /// sold from, with the price (0 when producing).
    pub(crate) turn_goods: Vec<(CardIdx, i32)>,
    /// Events waiting for their listeners (drew, discarded, a good placed…),
    /// heard before anything else runs; only queued when some building listens.
    pub(crate) heard: VecDeque<dispatch::Heard>,
    /// The chain of events the work running now belongs to (0: the game's own steps).
    pub(crate) chain: dispatch::Chain,
    /// `chain` when the pending decision was asked for: answering it goes on with that chain.
    pub(crate) pending_chain: dispatch::Chain,
    /// Goods an action's effect put on a building this phase (seat, slot): not for sale until the phase ends.
    pub(crate) unsellable: Vec<(usize, usize)>,
    /// The ruleset's own actions offered at the pending sell decision (a trading house's `buy`).
    pub(crate) sell_acts: Box<[crate::actions::Act]>,
    /// Cards moved so far by the decision answered one card at a time (a discard,
    /// a payment, a keep): one event tells them all when it ends.
    pub(crate) run: i32,
    /// A builder decision's list of options, empty, kept for the next builder turn
    /// (a random game's builder turns allocated one each).
    pub(crate) spare_options: BuildOptions,
}

impl Game {
    /// Made a copy of `from` in its own buffers (players, piles, queues): the
    /// balance bot refills its spare copy so for every decision a scoring
    /// script counts in, without allocating.
    pub fn refill_from(&mut self, from: &Game) {
        // Every field named, so that a new one cannot be forgotten.
        let Game {
            rs,
            rng,
            players,
            deck,
            discard,
            public,
            limbo,
            tiles,
            tile,
            governor,
            round,
            chosen_by,
            earlier_rounds,
            phase,
            phase_sold,
            steps,
            pending,
            legal,
            auto_paid,
            over,
            stalled,
            broken,
            hook_mask,
            hook_union,
            effects,
            journal,
            event_now,
            turn_goods,
            heard,
            chain,
            pending_chain,
            unsellable,
            sell_acts,
            run,
            spare_options: _,
        } = from;
        // The same ruleset (nearly always): touching its shared count would
        // pass that count's cache line between the cores of a parallel run.
        if !Arc::ptr_eq(&self.rs, rs) {
            self.rs.clone_from(rs);
        }
        self.rng.clone_from(rng);
        self.players.truncate(players.len());
        let kept = self.players.len();
        for (mine, theirs) in self.players.iter_mut().zip(players) {
            mine.refill_from(theirs);
        }
        self.players.extend_from_slice(&players[kept..]);
        self.deck.clone_from(deck);
        self.discard.clone_from(discard);
        self.public.clone_from(public);
        self.limbo.clone_from(limbo);
        self.tiles.clone_from(tiles);
        self.tile = *tile;
        self.governor = *governor;
        self.round = *round;
        self.chosen_by = *chosen_by;
        self.earlier_rounds.clone_from(earlier_rounds);
        self.phase = *phase;
        self.phase_sold = *phase_sold;
        self.steps.clone_from(steps);
        self.pending.clone_from(pending);
        self.legal.clone_from(legal);
        self.auto_paid.clone_from(auto_paid);
        self.over = *over;
        self.stalled = *stalled;
        self.broken.clone_from(broken);
        self.hook_mask.clone_from(hook_mask);
        self.hook_union = *hook_union;
        self.effects.clone_from(effects);
        self.journal.clone_from(journal);
        self.event_now.clone_from(event_now);
        self.turn_goods.clone_from(turn_goods);
        self.heard.clone_from(heard);
        self.chain = *chain;
        self.pending_chain = *pending_chain;
        self.unsellable.clone_from(unsellable);
        self.sell_acts.clone_from(sell_acts);
        self.run = *run;
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("ruleset", &self.rs.id)
            .field("round", &self.round)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}
