//! Why the game refused something. Rule-file problems are the engine's located load errors.

use std::fmt;

/// Why the game refused an action or a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game cannot be set up (the player count).
    Setup(String),
    /// Text that is no action.
    Parse {
        /// The text.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// A well-formed action that is not legal now.
    Illegal {
        /// The action, as text.
        action: String,
        /// The legal actions, as text.
        legal: Vec<String>,
    },
    /// No one is to move: the game is over.
    Over,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Setup(m) => write!(f, "{m}"),
            GameError::Parse { text, why } => write!(f, "cannot read `{text}`: {why}"),
            GameError::Illegal { action, legal } => write!(f, "`{action}` is not legal; legal: {}", legal.join(", ")),
            GameError::Over => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for GameError {}
