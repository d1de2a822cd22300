//! "Why did the bot do that?": one bot decision explained, for a person
//! play-testing against bots. The bot chooses as it always does
//! ([`engine_play::Bot::choose_judged`]: the same choice from the same
//! draws), and tells the values it chose by; the explanation keeps the
//! chosen answer and the best others, in words, and for the balance bot the
//! features that made the chosen answer better than the runner-up.
//!
//! An explanation names the answers a bot had, and so the cards in its
//! hand: a front end shows it only to whoever may see that hand.

use serde::Serialize;

use engine_play::bots::{BotSpec, Judgement, Measure};
use engine_play::value::{Driver, drivers};

use crate::{Game, Models};

/// The most other answers an explanation lists beside the chosen one.
pub const OTHERS: usize = 3;

/// The most features an explanation names as what drove the choice.
pub const DRIVERS: usize = 5;

/// One bot decision explained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The bot, as named at the table (`balance`, `mcts:200`).
    pub bot: String,
    /// The seat it played.
    pub seat: usize,
    /// What its values are (`points of final margin`, `win share`); `None` when it gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
    /// How it chose, in a sentence.
    pub how: String,
    /// The legal answers it had.
    pub answers: usize,
    /// The chosen answer and the best others (up to [`OTHERS`]), best first.
    pub options: Vec<Considered>,
    /// The answer the drivers compare the chosen one with (the runner-up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// The chosen answer's lead over it, in the bot's values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lead: Option<f64>,
    /// The balance bot's features that made the chosen answer better than the
    /// runner-up, the largest part first (empty for other bots).
    pub drivers: Vec<Driver>,
}

/// One answer a bot considered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Considered {
    /// Its words, with the cards' names.
    pub label: String,
    /// The answer in the game's notation.
    pub text: String,
    /// The bot's value for it, `None` when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// A tree search's visits to it (it chooses the most visited).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u32>,
    /// The bot chose it.
    pub chosen: bool,
}

/// The legal answer a bot named `bot` (seeded) chooses in `game`, by its
/// number in the legal list, with why: the same answer [`crate::run::bot_choice`]
/// gives for the same bot and seed.
pub fn explained_choice<G: Game>(
    game: &G,
    bot: &str,
    seed: u64,
    models: &Models,
) -> Result<(usize, Explanation), String> {
    let seat = game.to_move().ok_or("the game is over: no bot is to move")?;
    let mut player = crate::bots::make::<G>(game.rules(), bot, seed, models)?;
    let legal = game.legal();
    let (action, judgement) = player.choose_judged(game, legal);
    let chosen = legal.iter().position(|a| *a == action).ok_or("the bot chose no legal answer")?;
    let views = game.legal_views();
    let words = |i: usize| {
        views.get(i).map_or_else(
            || (game.action_text(&legal[i]), game.action_text(&legal[i])),
            |v| (v.label.clone(), v.text.clone()),
        )
    };
    let considered = |i: usize, value: Option<f64>, visits: Option<u32>| {
        let (label, text) = words(i);
        Considered { label, text, value, visits, chosen: i == chosen }
    };
    let mut explanation = Explanation {
        bot: bot.to_owned(),
        seat,
        unit: None,
        how: String::new(),
        answers: legal.len(),
        options: Vec::new(),
        against: None,
        lead: None,
        drivers: Vec::new(),
    };
    let Some(judgement) = judgement else {
        explanation.how = unvalued(bot, legal.len());
        explanation.options.push(considered(chosen, None, None));
        return Ok((chosen, explanation));
    };
    let order = ranked(&judgement, chosen);
    explanation.unit = Some(match judgement.measure {
        Measure::Margin => "points of final margin",
        Measure::WinShare => "win share",
    });
    explanation.how = judgement.how.clone();
    for &i in order.iter().take(OTHERS + 1) {
        explanation.options.push(considered(i, judgement.values[i], judgement.visits.as_ref().map(|v| v[i])));
    }
    // The runner-up (the best other by the bot's ranking): what the chosen answer had to beat.
    let runner_up = order.get(1).copied().filter(|&i| judgement.values[i].is_some());
    if let (Measure::Margin, Some(other)) = (judgement.measure, runner_up) {
        explanation.against = Some(words(other).0);
        explanation.lead = judgement.values[chosen].zip(judgement.values[other]).map(|(c, o)| c - o);
        let model = model_of::<G>(game, bot, models)?;
        // By the estimate the bot chose by, which sees what its seat sees.
        explanation.drivers = drivers(game, legal[chosen], legal[other], &model, DRIVERS);
    }
    Ok((chosen, explanation))
}

/// The answers' numbers in the order the bot ranks them: the chosen first,
/// then by visits for a search that counts them, else by value (none last).
fn ranked(judgement: &Judgement, chosen: usize) -> Vec<usize> {
    let key = |i: usize| {
        let visits = judgement.visits.as_ref().map_or(0, |v| v[i]);
        (i != chosen, std::cmp::Reverse(visits), judgement.values[i].map(|v| -v))
    };
    let mut order: Vec<usize> = (0..judgement.values.len()).collect();
    order.sort_by(|&x, &y| {
        let (kx, ky) = (key(x), key(y));
        kx.0.cmp(&ky.0).then(kx.1.cmp(&ky.1)).then(match (kx.2, ky.2) {
            (Some(a), Some(b)) => a.total_cmp(&b),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        })
    });
    order
}

/// Why a bot gave no values, in a sentence.
fn unvalued(bot: &str, answers: usize) -> String {
    if answers == 1 {
        return "it had one legal answer".to_owned();
    }
    match BotSpec::parse(bot) {
        Ok(BotSpec::Random) => "it picks at random among the legal answers: no values".to_owned(),
        Ok(BotSpec::Greedy) => "it plays by the game's rules of thumb, which give no values".to_owned(),
        Ok(BotSpec::Mcts(_)) => {
            "its search leaves this kind of decision to the game's rules of thumb, which give no values".to_owned()
        }
        _ => "it gave no values for this decision".to_owned(),
    }
}

/// The balance model `bot` valued with: its nudged weights for a nudged balance bot.
fn model_of<G: Game>(
    game: &G,
    bot: &str,
    models: &Models,
) -> Result<std::sync::Arc<engine_play::value::ValueModel>, String> {
    let model = models.balance::<G>(game.rules())?;
    Ok(match BotSpec::parse(bot)? {
        BotSpec::Balance { nudges, .. } if !nudges.is_empty() => std::sync::Arc::new(model.nudged(&nudges)?),
        _ => model,
    })
}

impl Explanation {
    /// The explanation as a few lines for a terminal: the bot, its options
    /// with their values (the chosen marked), and what drove the choice.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let unit = self.unit.map_or(String::new(), |u| format!(" (values: {u})"));
        out.push(format!("why seat {} ({}) chose so{unit}: {}", self.seat, self.bot, self.how));
        let width = self.options.iter().map(|o| o.label.chars().count()).max().unwrap_or(0);
        let best = self.options.iter().find(|o| o.chosen).and_then(|o| o.value);
        for o in &self.options {
            let mark = if o.chosen { "▸" } else { " " };
            let mut line = format!("  {mark} {:<width$}", o.label);
            if let Some(v) = o.value {
                // No `-0.000`.
                let v = if v.abs() < 5e-4 { 0.0 } else { v };
                line.push_str(&format!("  {v:>8.3}"));
                if let (false, Some(b)) = (o.chosen, best) {
                    line.push_str(&format!("  ({:+.3})", v - b));
                }
            }
            if let Some(n) = o.visits {
                line.push_str(&format!("  {n} visits"));
            }
            out.push(line.trim_end().to_owned());
        }
        if self.answers > self.options.len() {
            let more = self.answers - self.options.len();
            out.push(format!("    … {more} more answer{}", if more == 1 { "" } else { "s" }));
        }
        if let Some(against) = &self.against {
            let lead = self.lead.map_or(String::new(), |l| format!(" ({:+.3})", l));
            if self.drivers.is_empty() {
                out.push(format!("  over {against}{lead}: no feature's weight tells them apart"));
            } else {
                let parts: Vec<String> = self
                    .drivers
                    .iter()
                    .map(|d| format!("{} {:+.2} ({} vs {})", d.feature, d.effect, short(d.chosen), short(d.other)))
                    .collect();
                out.push(format!("  over {against}{lead}, driven by: {}", parts.join(", ")));
            }
        }
        out
    }
}

/// A feature's value, short: whole numbers without decimals.
fn short(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e9 { format!("{x:.0}") } else { format!("{x:.2}") }
}
