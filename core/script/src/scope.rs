//! Scoped events: one event heard by the actor's owners (`own`), everyone
//! else's (`other`) and all of them (`any`), each scope a hook of its own
//! (`on_x`, `on_other_x`, `on_any_x`). A game names its events; the order the
//! table hears them in, and which hook a seat hears, are worked out here.

/// Whose event a listener hears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The actor's own.
    Own,
    /// Another seat's.
    Other,
    /// Anyone's, the actor's included.
    Any,
}

/// An event's three hooks (indices into a game's hook table); `None`: the
/// event has no hook of that scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoped<H> {
    /// Heard by the actor's owners.
    pub own: Option<H>,
    /// Heard by every other seat's owners.
    pub other: Option<H>,
    /// Heard by every seat's owners.
    pub any: Option<H>,
}

impl<H: Copy> Scoped<H> {
    /// All three scopes.
    pub const fn all(own: H, other: H, any: H) -> Self {
        Scoped { own: Some(own), other: Some(other), any: Some(any) }
    }

    /// The hooks of every scope, for a quick "does anyone listen" test.
    pub fn hooks(&self) -> impl Iterator<Item = H> + Clone {
        [self.own, self.other, self.any].into_iter().flatten()
    }

    /// The hooks `seat` hears of an event by `actor`: its scope's (`own` or
    /// `other`), then `any`.
    pub fn heard_by(&self, seat: usize, actor: usize) -> impl Iterator<Item = H> {
        let mine = if seat == actor { self.own } else { self.other };
        [mine, self.any].into_iter().flatten()
    }
}

/// The seats that hear an event by `actor` at a table of `n`, in the order
/// they hear it: the actor first, then clockwise.
pub fn hearing_order(actor: usize, n: usize) -> impl Iterator<Item = usize> {
    (0..n).map(move |k| (actor + k) % n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_actor_hears_its_own_and_any_the_others_other_and_any() {
        let s = Scoped::all(1, 2, 3);
        assert_eq!(s.heard_by(2, 2).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(s.heard_by(0, 2).collect::<Vec<_>>(), [2, 3]);
        let table_only = Scoped { own: None, other: None, any: Some(7) };
        assert_eq!(table_only.heard_by(0, 0).collect::<Vec<_>>(), [7]);
        assert_eq!(hearing_order(2, 4).collect::<Vec<_>>(), [2, 3, 0, 1]);
    }
}
