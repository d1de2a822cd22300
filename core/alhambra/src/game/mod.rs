//! The game state and the state machine that drives it.
//!
//! `Game::pending()` says who must decide what; `Game::apply()` validates an
//! action and advances to the next real decision. Decisions with only one
//! legal answer are answered automatically, so a pending decision is always a
//! real choice.
//!
//! A turn: take money (one card at a time: `take`, then more cards while their
//! values total at most the take limit, or `done`) or buy a building from the
//! display (`buy`, then `pay` one money card of the slot's currency at a time
//! until the price is reached; no change). Paying the price exactly gives
//! another action in the same turn. With two players each bought building is
//! then kept or donated to the neutral collector (its own yes/no decision,
//! after the payment, so that the payment reads the same with any count).
//! After the turn the building display is refilled left to right, then the
//! money display; a scoring card drawn is scored at once.
//!
//! This file holds the state; each concept has its own file: decisions
//! (`decision`), setup, read-only accessors and the census, legal actions and
//! applying them (`legal`), action text (`notation`), why an action is illegal
//! (`why`), a turn's consequences (`turn`: refills, scorings, the game end),
//! events, and what search bots and undo need (`search`).

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use crate::actions::Action;
use crate::ruleset::{BuildingIdx, Money, Ruleset};
use engine_game::score::Score;

mod accessors;
mod asks;
mod custom;
mod decision;
mod events;
mod legal;
mod money;
mod moves;
mod notation;
mod player;
mod reads;
mod scripts;
mod search;
mod setup;
#[cfg(test)]
mod tests;
mod turn;
mod why;

pub use decision::{ASIDE, Decision};
pub use events::Event;
use events::list_or_nothing;
pub(crate) use events::n_cards;
pub use player::{Held, Player};

/// A card of the money deck: money, or a scoring card (index into [`Ruleset::scorings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Draw {
    /// A money card.
    Money(Money),
    /// A scoring card.
    Scoring(u8),
    /// A deck card (index into [`Ruleset::deck_cards`]): drawn, it acts and leaves the game.
    Deck(u8),
}

/// A game of Alhambra.
#[derive(Clone)]
pub struct Game {
    pub(crate) rs: Arc<Ruleset>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) players: Vec<Player>,
    /// The neutral collector (two players).
    pub(crate) neutral: Option<Player>,
    /// Money deck with the scoring cards; the top card is the last element.
    pub(crate) deck: Vec<Draw>,
    pub(crate) discard: Vec<Money>,
    pub(crate) money_display: Vec<Money>,
    /// Building deck; the top card is the last element.
    pub(crate) building_deck: Vec<BuildingIdx>,
    /// One entry per yard slot, left to right.
    pub(crate) building_display: Vec<Option<BuildingIdx>>,
    /// Per scoring card: where in the deck (indices from the bottom) it may lie,
    /// which is all a player knows of it (its pile).
    pub(crate) scoring_range: Vec<(usize, usize)>,
    /// Scorings done, in order (indices into the ruleset's scorings).
    pub(crate) scored: Vec<u8>,
    /// The turn each of `scored` happened in (same order; 0: before the first turn, a scenario's setup).
    pub(crate) scored_turns: Vec<u32>,
    /// Buildings left on the display at the end that nobody got (a tie).
    pub(crate) unclaimed: Vec<BuildingIdx>,
    /// Buildings a scenario set aside, out of the game.
    pub(crate) set_aside: Vec<BuildingIdx>,
    /// Deck cards drawn: out of the game.
    pub(crate) drawn_out: Vec<u8>,
    /// Cards the seat taking money may still take past the take limit (a card's `extra_take`), and whether of any value.
    pub(crate) extra_takes: u8,
    pub(crate) extra_any_value: bool,
    /// The cards paid so far for the building being bought (the `paid` event names them).
    pub(crate) paid_cards: u8,
    /// While the displays are refilled after a turn: whose turn it was (`ctx.table.to_move` then).
    pub(crate) refilling_for: Option<usize>,
    /// Points per seat, then the neutral collector: shared by a game and its
    /// copies until one of them scores (the bot copies the game at every judgement).
    pub(crate) earned: Arc<Vec<Score>>,
    pub(crate) start_player: usize,
    pub(crate) turns: u32,
    pub(crate) pending: Option<Decision>,
    pub(crate) legal: Vec<Action>,
    /// A copy played only to judge positions for this seat (the balance bot's
    /// look at an answer): another seat's answers are never asked for, so the
    /// ruleset's own actions are not worked out for them where they cannot
    /// decide whether an answer is played alone (see [`Game::compute_scripted_legal`]).
    pub(crate) judging: Option<u8>,
    /// Actions answered automatically since the last one given to `apply`.
    pub(crate) auto: Vec<Action>,
    pub(crate) over: bool,
    pub(crate) stalled: bool,
    /// Why the game stopped part way through an action (a script failed).
    pub(crate) broken: Option<String>,
    /// The event log, the recorded actions and re-deals, the count of actions.
    pub(crate) journal: engine_game::Journal<Action, Event>,
    /// Actions a card's script granted the player to move, beyond its turn's.
    pub(crate) extra_actions: u8,
    /// The modifiers of the seat to decide (`None`: no card modifies anything).
    pub(crate) mods: Option<Box<scripts::Mods>>,
    /// Money cards a script put out of the game.
    pub(crate) out: Vec<Money>,
    /// The choice being asked (the pending decision is `Choose` or `Discard`).
    pub(crate) asking: Option<Box<asks::Ask>>,
    /// Work waiting for a choice to be answered, front first (see `asks`).
    pub(crate) waiting: std::collections::VecDeque<asks::Work>,
    /// Some work waits or was kept (`fresh` or `waiting` holds some): one test per decision when not.
    pub(crate) queued: bool,
    /// Work of the running action kept since one of its hooks asked a choice, in order.
    pub(crate) fresh: Vec<asks::Work>,
    /// The game's end has come (its leftover buildings and final scoring): every hand is shown.
    pub(crate) ending: bool,
    /// The building card being drawn for the display while `on_building_drawn` runs.
    pub(crate) drawn: Option<BuildingIdx>,
    /// `on_building_drawn` is running (its card may be gone already).
    pub(crate) drawing: bool,
    /// A bit per action of the ruleset's own used this turn (those that do not end it are offered once).
    pub(crate) acted: u64,
    /// The money display's cards a hook's moves took, with where each lay (for `in_place_of`).
    pub(crate) vacated: Vec<(Money, usize)>,
    /// The history of the building a move took from a collector, until it is placed.
    pub(crate) history: Option<(u32, bool)>,
    /// Where the last money card taken from the display by a move lay.
    pub(crate) last_display_index: usize,
    /// While a seat acts out of turn (through its purchase): whose turn ended, and how far left the seat sits.
    pub(crate) out_of_turn: Option<(u8, u8)>,
    /// The payment rule of the purchase being paid, when an action of the ruleset's own bought.
    pub(crate) pay_rule: Option<crate::ruleset::Payment>,
    /// Each seat's reserve (buildings set aside face up to buy later): empty,
    /// without a seat's entry, until a `move` puts one there.
    pub(crate) reserves: Vec<Vec<BuildingIdx>>,
    /// The purchase paid in any one currency (`Decision::PayAny`), while it is paid.
    pub(crate) purchase: Option<custom::Purchase>,
    /// The turn in which something was last drawn (the displays refilled,
    /// a scoring), the turn in which a building was last drawn (one was
    /// bought or moved off the display: the game's end came nearer), and the
    /// most turns between two such: the balance bot's guard against a game
    /// that stands still ([`engine_play::value::Features::progress`]).
    pub(crate) moved_on: u32,
    pub(crate) nearer: u32,
    pub(crate) longest: u32,
}

impl Game {
    /// `self` made the very same game as `from`, in its own buffers (the
    /// balance bot's spare copy, refilled for every answer it judges by
    /// playing: a fresh copy allocated and freed its dozens of lists each time).
    pub(crate) fn refill_from(&mut self, from: &Game) {
        // Every field named: one added to `Game` must be copied here too.
        let Game {
            rs,
            rng,
            players,
            neutral,
            deck,
            discard,
            money_display,
            building_deck,
            building_display,
            scoring_range,
            scored,
            scored_turns,
            unclaimed,
            set_aside,
            drawn_out,
            extra_takes,
            extra_any_value,
            paid_cards,
            refilling_for,
            earned,
            start_player,
            turns,
            pending,
            legal,
            judging,
            auto,
            over,
            stalled,
            broken,
            journal,
            extra_actions,
            mods,
            out,
            asking,
            waiting,
            queued,
            fresh,
            ending,
            drawn,
            drawing,
            acted,
            vacated,
            history,
            last_display_index,
            out_of_turn,
            pay_rule,
            reserves,
            purchase,
            moved_on,
            nearer,
            longest,
        } = from;
        if !Arc::ptr_eq(&self.rs, rs) {
            self.rs.clone_from(rs);
        }
        self.players.truncate(players.len());
        let kept = self.players.len();
        for (mine, theirs) in self.players.iter_mut().zip(players) {
            mine.refill_from(theirs);
        }
        self.players.extend_from_slice(&players[kept..]);
        match (&mut self.neutral, neutral) {
            (Some(mine), Some(theirs)) => mine.refill_from(theirs),
            (mine, theirs) => mine.clone_from(theirs),
        }
        self.rng.clone_from(rng);
        self.deck.clone_from(deck);
        self.discard.clone_from(discard);
        self.money_display.clone_from(money_display);
        self.building_deck.clone_from(building_deck);
        self.building_display.clone_from(building_display);
        self.scoring_range.clone_from(scoring_range);
        self.scored.clone_from(scored);
        self.scored_turns.clone_from(scored_turns);
        self.unclaimed.clone_from(unclaimed);
        self.set_aside.clone_from(set_aside);
        self.drawn_out.clone_from(drawn_out);
        self.extra_takes = *extra_takes;
        self.extra_any_value = *extra_any_value;
        self.paid_cards = *paid_cards;
        self.refilling_for = *refilling_for;
        self.earned.clone_from(earned);
        self.start_player = *start_player;
        self.turns = *turns;
        self.pending = *pending;
        self.legal.clone_from(legal);
        self.judging = *judging;
        self.auto.clone_from(auto);
        self.over = *over;
        self.stalled = *stalled;
        self.broken.clone_from(broken);
        self.journal.clone_from(journal);
        self.extra_actions = *extra_actions;
        self.mods.clone_from(mods);
        self.out.clone_from(out);
        self.asking.clone_from(asking);
        self.waiting.clone_from(waiting);
        self.queued = *queued;
        self.fresh.clone_from(fresh);
        self.ending = *ending;
        self.drawn = *drawn;
        self.drawing = *drawing;
        self.acted = *acted;
        self.vacated.clone_from(vacated);
        self.history = *history;
        self.last_display_index = *last_display_index;
        self.out_of_turn = *out_of_turn;
        self.pay_rule = *pay_rule;
        self.reserves.clone_from(reserves);
        self.purchase = *purchase;
        self.moved_on = *moved_on;
        self.nearer = *nearer;
        self.longest = *longest;
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("ruleset", &self.rs.id)
            .field("turns", &self.turns)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}
