//! What a seat must decide: the pending [`Decision`].

/// The `slot` of a [`Decision::Donate`] (and of the purchase's steps) when
/// the building bought lies in no display slot: the purchase in any one
/// currency's ([`Decision::PayAny`]).
pub const ASIDE: u8 = u8::MAX;

/// What the player at `seat` must decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Take money or buy a building (or pass when neither is possible).
    Turn {
        /// Whose turn.
        seat: usize,
    },
    /// Take another money card, or stop.
    Take {
        /// Who takes.
        seat: usize,
        /// The value taken so far this action.
        taken: u32,
    },
    /// Pay one more money card for the building in `slot`.
    Pay {
        /// Who pays.
        seat: usize,
        /// The display slot (from 0).
        slot: u8,
        /// The value paid so far.
        paid: u32,
    },
    /// Two players: keep the building just bought, or donate it to the neutral collector.
    Donate {
        /// Who bought it.
        seat: usize,
        /// Its display slot (it stays there until the decision); [`ASIDE`]: the purchase in any one currency's.
        slot: u8,
        /// It was paid exactly: another action follows.
        exact: bool,
    },
    /// Act out of turn (an action of the ruleset's own offered at `other_turn_end`) or pass.
    OutOfTurn {
        /// Who is asked.
        seat: usize,
        /// Whose turn ended.
        ended: u8,
        /// How far left of `ended` the asked seat sits (1: the next seat).
        k: u8,
    },
    /// Pay one more money card for the building an action buys in any one
    /// currency (`payment = "any_one_currency"`): the game's `purchase` says which and for how much.
    PayAny {
        /// Who pays.
        seat: usize,
        /// The value paid so far.
        paid: u32,
    },
    /// Answer a choice a card's script asked (`choose`, `choose_cards`): what it offers is the game's `asking`.
    Choose {
        /// Who chooses.
        seat: usize,
    },
    /// Discard money cards of one's choice (a script's `discard_money`).
    Discard {
        /// Who discards.
        seat: usize,
    },
}

impl Decision {
    /// The seat that must act.
    pub fn seat(&self) -> usize {
        match *self {
            Decision::Turn { seat } | Decision::Take { seat, .. } | Decision::Pay { seat, .. } => seat,
            Decision::Donate { seat, .. } | Decision::Choose { seat } | Decision::Discard { seat } => seat,
            Decision::OutOfTurn { seat, .. } | Decision::PayAny { seat, .. } => seat,
        }
    }

    /// The decision's name in views and scenarios.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Turn { .. } => "turn",
            Decision::Take { .. } => "take",
            Decision::Pay { .. } | Decision::PayAny { .. } => "pay",
            Decision::Donate { .. } => "donate",
            Decision::Choose { .. } => "choose",
            Decision::Discard { .. } => "discard",
            Decision::OutOfTurn { .. } => "out_of_turn",
        }
    }
}
