//! Typed errors: the engine's load and script errors, and what can go wrong
//! while a San Juan game is played.

pub use engine_rules::error::*;

/// An action that cannot be applied, or a game that cannot go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The action is not legal now.
    #[error("illegal action `{action}`: {why}; legal now: {}", legal.join(", "))]
    Illegal {
        /// The action as text.
        action: String,
        /// Why it is refused.
        why: String,
        /// The legal actions at this point.
        legal: Vec<String>,
    },
    /// The action text does not parse.
    #[error("cannot read action `{text}`: {why}")]
    Parse {
        /// The text given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The game cannot be set up as asked (player count, bots).
    #[error("{0}")]
    Setup(String),
    /// The game has ended; no action is pending.
    #[error("the game is over; no action is pending")]
    Over,
    /// A script failed; the game stops here (boxed: the error carries the script's text).
    #[error(transparent)]
    Script(Box<ScriptError>),
    /// An earlier script error left this game unusable.
    #[error("this game stopped after a script error: {0}")]
    Broken(String),
}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(Box::new(e))
    }
}
