//! Errors: rule and scenario files that do not fit (the engine's located
//! load errors), scripts that fail, and actions or setups the game refuses.

use std::fmt;

pub use engine_rules::error::{LoadError, LoadErrors, Pos, ScriptError};

/// Why the game refused something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game cannot be set up (player count, a scenario's position).
    Setup(String),
    /// Action text that does not parse.
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
        /// Why not.
        why: String,
        /// The legal actions, as text.
        legal: Vec<String>,
    },
    /// No decision is pending: the game is over.
    Over,
    /// An earlier action failed part way (a script error): the game cannot go on.
    Broken(String),
    /// A script failed or returned something unusable.
    Script(Box<ScriptError>),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Setup(m) => write!(f, "{m}"),
            GameError::Parse { text, why } => write!(f, "cannot read `{text}`: {why}"),
            GameError::Illegal { action, why, legal } => {
                write!(f, "`{action}` is not legal: {why}; legal: {}", legal.join(", "))
            }
            GameError::Over => write!(f, "the game is over"),
            GameError::Broken(why) => write!(f, "the game stopped after an error and cannot go on: {why}"),
            GameError::Script(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(Box::new(e))
    }
}
