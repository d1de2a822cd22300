//! What a saved game's entries share across games: the format version, the
//! players bound, and the re-deal entry an undo writes. The file itself and
//! replaying it are `engine-game`'s.

/// The format written today: one recorded atomic action per entry.
pub const SAVED_GAME_VERSION: u32 = 2;

/// The most players a saved game may name, checked before anything is set up
/// for them (every game's rulesets allow fewer; the ruleset's own range is checked when the game starts).
pub const MAX_SAVED_PLAYERS: usize = 64;

/// A new deal of everything one seat has not seen, from a fresh seed. An undo
/// records one, so that taking back a draw cannot show what the face-down
/// cards were; a saved game keeps it as an entry (`redeal 0 1234`) and replays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redeal {
    /// The number of recorded actions before it.
    pub at: usize,
    /// The seat whose unseen cards were dealt again.
    pub seat: usize,
    /// The seed they were dealt from.
    pub seed: u64,
}

impl Redeal {
    /// The saved entry.
    pub fn text(&self) -> String {
        format!("redeal {} {}", self.seat, self.seed)
    }

    /// Reads a saved entry `redeal <seat> <seed>`; `None` for any other entry.
    pub fn parse(text: &str) -> Option<(usize, u64)> {
        let mut words = text.split_whitespace();
        if words.next() != Some("redeal") {
            return None;
        }
        let seat = words.next()?.parse().ok()?;
        let seed = words.next()?.parse().ok()?;
        words.next().is_none().then_some((seat, seed))
    }

    /// The saved entries: `actions` (the recorded actions' texts) with the
    /// re-deals `redeals` (in order) in their places.
    pub fn interleave(actions: impl IntoIterator<Item = String>, redeals: &[Redeal]) -> Vec<String> {
        let mut out = Vec::new();
        let mut next = redeals.iter().peekable();
        for (i, a) in actions.into_iter().enumerate() {
            while let Some(r) = next.next_if(|r| r.at <= i) {
                out.push(r.text());
            }
            out.push(a);
        }
        out.extend(next.map(Redeal::text));
        out
    }
}
