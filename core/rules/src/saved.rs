//! What a saved game's entries share across games: the format version, the
//! players bound, and the re-deal entry an undo writes. The file itself and
//! replaying it are `engine-game`'s.

/// The format written today: one recorded atomic action per entry.
pub const SAVED_GAME_VERSION: u32 = 2;

/// The most players a saved game may name, checked before anything is set up
/// for them (every game's rulesets allow fewer; the ruleset's own range is checked when the game starts).
pub const MAX_SAVED_PLAYERS: usize = 64;

/// A new deal of everything some seats have not seen, from a fresh seed. An
/// undo records one for its seat, so that taking back a draw cannot show what
/// the face-down cards were; a game continued from a copy records one for the
/// seats of the people at it (what none of them has seen is dealt again). A
/// saved game keeps it as an entry (`redeal 0 1234`, `redeal 0+2 1234`) and
/// replays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redeal {
    /// The number of recorded actions before it.
    pub at: usize,
    /// The seats whose cards (and what they saw) stay: ascending, no repeats.
    pub seats: Vec<usize>,
    /// The seed they were dealt from.
    pub seed: u64,
}

impl Redeal {
    /// The saved entry.
    pub fn text(&self) -> String {
        let seats: Vec<String> = self.seats.iter().map(usize::to_string).collect();
        format!("redeal {} {}", seats.join("+"), self.seed)
    }

    /// Reads a saved entry `redeal <seat>[+<seat>…] <seed>` (seats ascending,
    /// below [`MAX_SAVED_PLAYERS`]); `None` for any other entry.
    pub fn parse(text: &str) -> Option<(Vec<usize>, u64)> {
        let mut words = text.split_whitespace();
        if words.next() != Some("redeal") {
            return None;
        }
        let mut seats = Vec::new();
        for seat in words.next()?.split('+') {
            let seat: usize = seat.parse().ok()?;
            if seat >= MAX_SAVED_PLAYERS || seats.last().is_some_and(|&last| last >= seat) {
                return None;
            }
            seats.push(seat);
        }
        let seed = words.next()?.parse().ok()?;
        words.next().is_none().then_some((seats, seed))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redeal_entry_names_one_seat_or_several() {
        for seats in [vec![0], vec![0, 2], vec![1, 3, 5]] {
            let r = Redeal { at: 4, seats: seats.clone(), seed: 77 };
            assert_eq!(Redeal::parse(&r.text()), Some((seats, 77)));
        }
        assert_eq!(Redeal { at: 0, seats: vec![0, 2], seed: 9 }.text(), "redeal 0+2 9");
        assert_eq!(Redeal::parse("redeal 1 5"), Some((vec![1], 5)), "the one-seat entry of older files");
        for bad in
            ["redeal 2+0 5", "redeal 1+1 5", "redeal 64 5", "redeal + 5", "redeal 0+ 5", "redeal 0", "redeal 0 5 6"]
        {
            assert_eq!(Redeal::parse(bad), None, "{bad}");
        }
    }
}
