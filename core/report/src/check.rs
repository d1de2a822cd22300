//! A check of the records' bots against a reference search (`report
//! --check-bot`): the cards whose built share under the records' bots differs
//! from a sample of the same ruleset played by a stronger player by more than
//! a few points, where the bots' judgement (not the card) may be what the
//! balance numbers show.

use engine_play::sim::GameRecord;

use crate::stats::{ALPHA, Diff};
use crate::two::compare;

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
    /// Per card that differs: its id and its built share, records (`a`) against the sample (`b`); largest difference first.
    pub misjudged: Vec<(String, Diff)>,
}

impl BotCheck {
    /// The check's lines for a report: a warning per card that differs, or that none does.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Built share under {} against {} over {} games (a difference of {:.0} points or more, \
             Holm-corrected p < {ALPHA}):",
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

/// Checks the built shares of `records` against `sample`, played by `reference`.
pub fn check_bot(records: &[GameRecord], sample: &[GameRecord], reference: &str) -> BotCheck {
    let c = compare(records, sample);
    let mut misjudged: Vec<(String, Diff)> = c
        .buildings
        .into_iter()
        .filter(|b| b.built.p_adj < ALPHA && b.built.diff.abs() >= CHECK_EFFECT)
        .map(|b| (b.id, b.built))
        .collect();
    misjudged.sort_by(|x, y| y.1.diff.abs().total_cmp(&x.1.diff.abs()).then_with(|| x.0.cmp(&y.0)));
    let mut names = records.iter().flat_map(|r| &r.bots);
    let first = names.next().map_or("", String::as_str);
    let played_by = match first {
        _ if names.any(|b| b != first) => "the records' bots".to_owned(),
        "balance" => "the default bot".to_owned(),
        bot => format!("`{bot}`"),
    };
    BotCheck { reference: reference.to_owned(), games: sample.len() as u64, played_by, misjudged }
}
