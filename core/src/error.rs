//! Typed errors. Each names the file, the line and what to do about it.

use std::fmt;

use crate::files::Source;

/// A position in a file, 1-based.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1; 0 when unknown.
    pub line: usize,
    /// Column, from 1; 0 when unknown.
    pub col: usize,
}

impl Pos {
    /// The line and column of a byte offset in `text`.
    pub fn of_offset(text: &str, offset: usize) -> Pos {
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Pos { line, col }
    }

    /// The position of the first line that mentions `needle` as a TOML key or value.
    pub fn of_text(text: &str, needle: &str) -> Pos {
        text.find(needle).map(|o| Pos::of_offset(text, o)).unwrap_or_default()
    }
}

/// A problem in a rule file: TOML, a card table, a ruleset, a scenario or a script.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The file, as given or as resolved from the built-in tree.
    pub file: String,
    /// Where in the file, if known.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl LoadError {
    /// An error at a position in a file.
    pub fn at(file: &Source, pos: Pos, message: impl Into<String>) -> Self {
        LoadError { file: file.to_string(), pos, message: message.into(), help: None }
    }

    /// A file that could not be read.
    pub fn missing(file: &Source, why: &str) -> Self {
        LoadError::at(file, Pos::default(), format!("cannot read file: {why}"))
            .help("check the path; paths inside a TOML file are relative to that file")
    }

    /// A TOML syntax or shape error, with the position toml reports.
    pub fn toml(file: &Source, text: &str, err: &toml::de::Error) -> Self {
        let pos = err.span().map(|s| Pos::of_offset(text, s.start)).unwrap_or_default();
        let message = err.message().trim().to_owned();
        LoadError::at(file, pos, message)
    }

    /// Adds a hint.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.pos.line > 0 {
            write!(f, ":{}:{}", self.pos.line, self.pos.col)?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

/// Several load problems at once (`sanjuan check` reports them all).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {e}")?;
        }
        Ok(())
    }
}

impl From<LoadError> for LoadErrors {
    fn from(e: LoadError) -> Self {
        LoadErrors(vec![e])
    }
}

/// A script that failed while the game ran it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: card `{card}`, hook `{hook}`: {message}", pos.line, pos.col)]
pub struct ScriptError {
    /// The card whose script failed.
    pub card: String,
    /// The script file.
    pub file: String,
    /// The hook being run.
    pub hook: String,
    /// Where in the script, if Rhai knows.
    pub pos: Pos,
    /// What went wrong, with a hint.
    pub message: String,
}

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
    /// A script failed; the game stops here.
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// An earlier script error left this game unusable.
    #[error("this game stopped after a script error: {0}")]
    Broken(String),
}
