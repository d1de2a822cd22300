//! What a game says to a person, as data: log lines, styled screen lines, and
//! a played scenario. Front ends print or send them; no game prints.

use serde::Serialize;

/// One line of a seat's log: what happened, and the card whose effect caused it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// What happened, as that seat may read it.
    pub text: String,
    /// The id of the card that caused it, when a card's effect did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

impl LogLine {
    /// A line no card caused.
    pub fn plain(text: String) -> LogLine {
        LogLine { text, by: None }
    }
}

/// How a screen line wants to be shown; a pipe shows every line plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// As it is.
    Plain,
    /// A heading.
    Bold,
    /// A remark (why a card cannot be built).
    Dim,
}

/// One line of a screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its words.
    pub text: String,
    /// Its look.
    pub style: Style,
}

impl Line {
    /// A plain line.
    pub fn plain(text: impl Into<String>) -> Line {
        Line { text: text.into(), style: Style::Plain }
    }

    /// A heading.
    pub fn bold(text: impl Into<String>) -> Line {
        Line { text: text.into(), style: Style::Bold }
    }

    /// A remark.
    pub fn dim(text: impl Into<String>) -> Line {
        Line { text: text.into(), style: Style::Dim }
    }
}

/// A scenario file played: the game where it stopped and what its `[expect]` said.
pub struct Scenario<G> {
    /// The game after the scenario's actions.
    pub game: G,
    /// Its `[expect]` failures; `None` when it has no `[expect]`.
    pub failures: Option<Vec<String>>,
    /// Its `description`.
    pub description: String,
    /// Lines to show after the state (an action that failed as the scenario expected).
    pub notes: Vec<String>,
    /// With a trace: `action N \`…\`:` and that action's events, for each action.
    pub trace: Vec<String>,
}

/// A traced scenario's lines for what scripts printed while its position was
/// set up, before its first action (nothing when they printed nothing).
pub fn printed_at_setup(printed: Vec<String>, lines: &mut Vec<String>) {
    if !printed.is_empty() {
        lines.push("setting up:".into());
        lines.extend(printed.into_iter().map(|p| format!("  {p}")));
    }
}
