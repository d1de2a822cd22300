//! Errors: a rule or scenario file that does not fit (file and key), and an
//! action or setup the game refuses.
//!
//! TODO(engine-rules): `LoadError` becomes the shared crate's (line, column, caret).

use std::fmt;

use crate::files::Source;

/// A problem in a rule, scenario or saved-game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub file: String,
    /// The line, from 1, when known.
    pub line: Option<usize>,
    /// The dotted key the problem is about (`yard.slots.1`), when known.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl LoadError {
    /// An error about `key` (if given) in `file`.
    pub fn new(file: &Source, key: Option<&str>, message: String) -> Self {
        LoadError { file: file.to_string(), line: None, key: key.map(str::to_owned), message, help: None }
    }

    /// A TOML syntax or shape error, with its line.
    pub fn toml(file: &Source, text: &str, e: &toml::de::Error) -> Self {
        let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        LoadError { file: file.to_string(), line, key: None, message: e.message().trim().to_owned(), help: None }
    }

    /// Adds what to do about it.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

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
    /// A script failed or returned something unusable.
    Script(String),
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
            GameError::Script(m) => write!(f, "script: {m}"),
        }
    }
}

impl std::error::Error for GameError {}
