//! The decision interface: what bots, simulations and searches need from a
//! turn-based card game. Each game crate implements it for its state and
//! reuses the random bot, `play_out` and the tree search as they are.

/// A game as seen by code that plays it: who must decide, the legal answers,
/// applying one, and how it turned out.
pub trait TurnGame: Clone {
    /// One answer to a decision.
    type Action: Copy + PartialEq + std::fmt::Debug;
    /// Why an action or a script failed.
    type Error: std::fmt::Display;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// The seat that must decide now; `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// The legal answers (never empty while someone is to move).
    fn legal(&self) -> &[Self::Action];
    /// Applies a legal answer.
    fn play(&mut self, action: Self::Action) -> Result<(), Self::Error>;
    /// Once over: each seat's reward in 0..=1 (a win share, possibly shaded by the margin).
    fn rewards(&self) -> Option<Vec<f64>>;
}

/// Rewards shaped for a search: mostly the win share (`winners` split one win),
/// a fifth the margin over the best other seat, squashed so that a margin of
/// about `scale` points counts most. A search then also prefers winning (or
/// losing) by more (or less).
pub fn shaped_rewards(totals: &[i32], winners: &[usize], scale: f64) -> Vec<f64> {
    let share = 1.0 / winners.len() as f64;
    (0..totals.len())
        .map(|seat| {
            let best_other = totals.iter().enumerate().filter(|(s, _)| *s != seat).map(|(_, x)| *x).max();
            let margin = f64::from(totals[seat] - best_other.unwrap_or(0));
            let win = if winners.contains(&seat) { share } else { 0.0 };
            0.8 * win + 0.2 * (0.5 + 0.5 * (margin / scale).tanh())
        })
        .collect()
}

/// A set of seats (a game has at most 64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats(u64);

impl Seats {
    /// Only `seat`.
    pub fn one(seat: usize) -> Seats {
        Seats::default().with(seat)
    }

    /// These seats (any beyond 63 are left out).
    pub fn of(seats: &[usize]) -> Seats {
        seats.iter().fold(Seats::default(), |s, &seat| s.with(seat))
    }

    /// This set and `seat`.
    pub fn with(self, seat: usize) -> Seats {
        if seat < 64 { Seats(self.0 | 1 << seat) } else { self }
    }

    /// `seat` is in the set.
    #[inline]
    pub fn contains(self, seat: usize) -> bool {
        seat < 64 && self.0 >> seat & 1 == 1
    }

    /// The seats, ascending.
    pub fn list(self) -> Vec<usize> {
        (0..64).filter(|&s| self.contains(s)).collect()
    }
}

/// A game with hidden information that a search can sample.
pub trait Determinize: TurnGame {
    /// A game consistent with everything the seats `seen_by` can see between
    /// them (each one's own hand, what each has looked at), the rest dealt
    /// again from `seed`: what a search samples (one seat), and what a game
    /// continued by several people deals again so that none of them learns
    /// anything from an earlier copy of it.
    fn determinize_for(&self, seen_by: Seats, seed: u64) -> Self;

    /// A game consistent with everything `seat` can see, the rest dealt again from `seed`.
    fn determinize(&self, seat: usize, seed: u64) -> Self {
        self.determinize_for(Seats::one(seat), seed)
    }
}

/// One legal answer as a front end shows it: which card (or role, or slot) in
/// which zone its button belongs to, and its words. A front end applies the
/// answer by its `id` (its place in the legal list), never by reading text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ActionView {
    /// Its index in the legal list.
    pub id: usize,
    /// What it does (`build`, `pay`, `role`, `take`, `pass`…): a game's own
    /// word, or the notation's first word for a game that names none.
    pub verb: std::borrow::Cow<'static, str>,
    /// The card (or role, or slot) it is about, by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// Where that card is, as the game names its places (`hand`, `offered`, `public`, `yard`, `display`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<&'static str>,
    /// A second card: the one this action builds over, when a card allows that.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// Words for a person, with the cards' names rather than their ids.
    pub label: String,
    /// The action in the game's notation.
    pub text: String,
}
