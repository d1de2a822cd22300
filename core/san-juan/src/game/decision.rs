//! What a seat must decide: the pending [`Decision`] and its parts.

use super::effects::PickFrom;
use crate::cards::CardIdx;
use crate::hooks::Tag;

/// Why a player discards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardReason {
    /// Hand limit at round start.
    HandLimit,
    /// Councillor phase with cards taken into the hand first (archive).
    Council,
    /// Setup variant: back down to the start hand.
    Setup,
    /// A building's `discard` effect.
    Building(CardIdx),
}

pub use crate::hooks::BuildFrom;

/// A building the player may build now, with its cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOption {
    /// The card to build (from where [`crate::Game`]'s `build_from` says: not
    /// kept here, so that an option stays 32 bytes).
    pub card: CardIdx,
    /// The slot it would cover.
    pub over: Option<usize>,
    /// Cards to pay after all discounts.
    pub cost: i32,
    /// Goods that may pay part of the cost.
    pub goods_as_cards: i32,
    /// Goods that must pay part of the cost (a payment rule's `min_goods`).
    pub min_goods: i32,
    /// Other seats whose goods may pay, a bit each (`on_build_options`' `goods_of`).
    pub goods_of: u16,
}

/// The buildings a player may build in one turn. A `Vec`, not inline: a
/// decision is moved several times per action, and copying inline options
/// cost more than the allocation (callgrind, 500 games: 810M -> 784M).
pub type BuildOptions = Vec<BuildOption>;

/// What the player at `seat` must decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Choose a role.
    Role {
        /// Who chooses.
        seat: usize,
        /// The privilege factor a boost would give (1 = none).
        boost: i32,
        /// The boost is once per round, so declining it is a real choice.
        optional_boost: bool,
    },
    /// Build one building, or pass.
    Build {
        /// Who builds.
        seat: usize,
        /// What can be built and for how much.
        options: BuildOptions,
    },
    /// Pay the rest of a building cost.
    Pay {
        /// Who pays.
        seat: usize,
        /// The building being built.
        card: CardIdx,
        /// The slot being covered.
        over: Option<usize>,
        /// Cards still to pay.
        remaining: i32,
        /// Goods that may still pay.
        goods_left: i32,
        /// Goods that must still pay (a payment rule's `min_goods`).
        goods_needed: i32,
        /// Other seats whose goods may pay, a bit each.
        goods_of: u16,
        /// Cards paid so far.
        paid: i32,
    },
    /// Produce goods, one at a time.
    Produce {
        /// Who produces.
        seat: usize,
        /// Goods still allowed.
        left: i32,
        /// Goods produced so far.
        done: i32,
    },
    /// Sell goods, one at a time.
    Sell {
        /// Who sells.
        seat: usize,
        /// Sales still allowed.
        left: i32,
        /// Goods sold so far.
        done: i32,
    },
    /// Keep cards from those drawn (councillor), one at a time.
    Keep {
        /// Who keeps.
        seat: usize,
        /// Cards still to keep.
        left: usize,
        /// The keeper may stop (`pass`) and discard the rest (an optional `reveal`).
        may_stop: bool,
        /// The building that revealed the cards (`reveal`); `None`: the councillor's.
        by: Option<CardIdx>,
    },
    /// Discard hand cards, one at a time.
    Discard {
        /// Who discards.
        seat: usize,
        /// Cards still to discard.
        left: usize,
        /// Why.
        reason: DiscardReason,
    },
    /// Keep one of the revealed cards that may be kept, or pass.
    Reveal {
        /// Who reveals.
        seat: usize,
        /// The building that revealed them.
        slot: usize,
        /// Cards that may be kept.
        keepable: Vec<CardIdx>,
    },
    /// Put hand cards under a building (chapel, bank), or stop.
    Tuck {
        /// Whose building.
        seat: usize,
        /// The building.
        slot: usize,
        /// Cards still allowed.
        left: usize,
        /// Cards tucked so far.
        done: usize,
    },
    /// Discard up to `left` hand cards, then draw as many (office building).
    Exchange {
        /// Who exchanges.
        seat: usize,
        /// Cards still allowed.
        left: usize,
        /// Cards discarded so far.
        done: usize,
    },
    /// Choose one of a script's named options (`choose`).
    Choose {
        /// Who chooses.
        seat: usize,
        /// The seat of the building that asks (small: a decision is moved often).
        owner: u16,
        /// The building that asks.
        slot: u16,
        /// The options (see [`crate::cards::CardTable::word_name`]).
        options: Box<[u16]>,
        /// What the script carries to `on_choice` (boxed: a decision is moved often).
        tag: Box<Tag>,
    },
    /// Choose cards for a script (`choose_cards`), one at a time.
    Pick {
        /// Who chooses.
        seat: usize,
        /// Whose cards are chosen from (the chooser's own unless the script says `of`).
        of: u16,
        /// The seat of the building that asks.
        owner: u16,
        /// The building that asks.
        slot: u16,
        /// Where the cards come from.
        from: PickFrom,
        /// Cards still to choose.
        left: usize,
        /// Cards chosen so far.
        picked: Box<[CardIdx]>,
        /// What else the script asked (boxed: a decision is moved often).
        rules: Box<PickRules>,
    },
    /// Give hand cards of one's choice to another seat, one at a time.
    Give {
        /// Who gives.
        seat: usize,
        /// Who receives.
        to: usize,
        /// Cards still to give.
        left: usize,
        /// The building whose effect it is.
        cause: CardIdx,
    },
    /// Discard up to `left` of the cards looked at, or stop; the rest go back on top.
    Look {
        /// Who looks.
        seat: usize,
        /// The building that looks.
        slot: usize,
        /// Cards still allowed.
        left: usize,
    },
}

impl Decision {
    /// The seat that must act.
    pub fn seat(&self) -> usize {
        match *self {
            Decision::Role { seat, .. }
            | Decision::Build { seat, .. }
            | Decision::Pay { seat, .. }
            | Decision::Produce { seat, .. }
            | Decision::Sell { seat, .. }
            | Decision::Keep { seat, .. }
            | Decision::Discard { seat, .. }
            | Decision::Reveal { seat, .. }
            | Decision::Tuck { seat, .. }
            | Decision::Exchange { seat, .. }
            | Decision::Choose { seat, .. }
            | Decision::Pick { seat, .. }
            | Decision::Give { seat, .. }
            | Decision::Look { seat, .. } => seat,
        }
    }

    /// The decision's name in JSON and the terminal.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Role { .. } => "role",
            Decision::Build { .. } => "build",
            Decision::Pay { .. } => "pay",
            Decision::Produce { .. } => "produce",
            Decision::Sell { .. } => "sell",
            Decision::Keep { .. } => "keep",
            Decision::Discard { .. } => "discard",
            Decision::Reveal { .. } => "reveal",
            Decision::Tuck { .. } => "tuck",
            Decision::Exchange { .. } => "exchange",
            Decision::Choose { .. } => "choose",
            Decision::Pick { .. } => "choose_cards",
            Decision::Give { .. } => "give",
            Decision::Look { .. } => "look",
        }
    }
}

/// The rarely used parts of a `choose_cards` decision.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PickRules {
    /// The card types that may be chosen (a script's `only`), else any.
    pub only: Option<Box<[CardIdx]>>,
    /// The chooser may stop before choosing all (`pass`).
    pub optional: bool,
    /// What the script carries to `on_choice`.
    pub tag: Tag,
}
