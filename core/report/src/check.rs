//! A check of the records' bots against a reference search (`report
//! --check-bot`): the cards whose built share under the records' bots differs
//! from a sample of the same ruleset played by a stronger player by more than
//! a few points, where the bots' judgement (not the card) may be what the
//! balance numbers show. The check itself is a comparison of two record
//! sets (`two::check_bot`); here are what it finds and its words.

use crate::stats::{ALPHA, Diff};

/// The smallest difference of built shares the check warns about: 5
/// percentage points (a designer acts on a card's share, and a card of a
/// built-in ruleset is held to 5 points of the reference).
pub const CHECK_EFFECT: f64 = 0.05;

/// The records' bots against a reference over a sample of games.
#[derive(Clone, Debug, PartialEq)]
pub struct BotCheck {
    /// The reference's bot name (`paired-balance:100@build`).
    pub reference: String,
    /// The games the reference played.
    pub games: u64,
    /// Who played the records: "the default bot" (every seat `balance`), a bot's name, or "the records' bots".
    pub played_by: String,
    /// Per card that differs (a Holm-corrected p below [`ALPHA`], at least
    /// [`CHECK_EFFECT`] apart, and a 95% interval without 0): its id and its
    /// built share, records (`a`) against the sample (`b`); largest difference first.
    pub misjudged: Vec<(String, Diff)>,
}

impl BotCheck {
    /// The check's lines for a report: a warning per card that differs, or that none does.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Built share under {} against {} over {} games (named: {:.0} points or more apart, Holm-corrected \
             p < {ALPHA}, a 95% interval without 0):",
            self.played_by,
            self.reference,
            self.games,
            100.0 * CHECK_EFFECT
        )];
        if self.misjudged.is_empty() {
            lines.push(format!(
                "  no card differs: the built shares under {} agree with {}'s",
                self.played_by, self.reference
            ));
        }
        for (id, d) in &self.misjudged {
            lines.push(format!(
                "  {} may misjudge {id}: built {:.1}% vs {:.1}% under {} ({:+.1} points, 95% CI {:+.1} to {:+.1})",
                self.played_by,
                100.0 * d.a,
                100.0 * d.b,
                self.reference,
                -100.0 * d.diff,
                -100.0 * d.hi,
                -100.0 * d.lo
            ));
        }
        lines
    }
}
