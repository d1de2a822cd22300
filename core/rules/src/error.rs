//! Typed errors. Each names the file, the line and what to do about it, and
//! shows the source line with a caret under the problem, as rustc does.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

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
        let offset = floor_char_boundary(text, offset);
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Pos { line, col }
    }

    /// The byte offset of this position in `text`, if it is inside it.
    pub fn offset_in(self, text: &str) -> Option<usize> {
        if self.line == 0 {
            return None;
        }
        let start = if self.line == 1 { 0 } else { text.match_indices('\n').nth(self.line - 2).map(|(i, _)| i + 1)? };
        let line = text[start..].split('\n').next().unwrap_or("");
        let col = line.char_indices().nth(self.col.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
        Some(start + col)
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    o
}

/// A file's text and a byte span in it: what the caret points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// The whole file (shared; errors are rare, files are small).
    pub text: Arc<str>,
    /// The bytes the problem is about.
    pub span: Range<usize>,
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
    /// The source the position points into, for the caret.
    pub snippet: Option<Snippet>,
}

impl LoadError {
    /// An error at a position in a file (no source line shown).
    pub fn at(file: &dyn fmt::Display, pos: Pos, message: impl Into<String>) -> Self {
        LoadError { file: file.to_string(), pos, message: message.into(), help: None, snippet: None }
    }

    /// An error about the bytes `span` of `text`, the contents of `file`.
    pub fn spanned(file: &dyn fmt::Display, text: &Arc<str>, span: Range<usize>, message: impl Into<String>) -> Self {
        let start = floor_char_boundary(text, span.start);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let pos = Pos { line: line_of(text, start), col: text[line_start..start].chars().count() + 1 };
        let end = floor_char_boundary(text, span.end.max(start));
        LoadError {
            file: file.to_string(),
            pos,
            message: message.into(),
            help: None,
            snippet: Some(Snippet { text: Arc::clone(text), span: start..end }),
        }
    }

    /// An error at a line and column of `text` (script positions), shown with a caret.
    pub fn at_pos(file: &dyn fmt::Display, text: &Arc<str>, pos: Pos, message: impl Into<String>) -> Self {
        match pos.offset_in(text) {
            Some(o) => {
                let end = text[o..].find(char::is_whitespace).map_or(text.len(), |e| o + e.max(1));
                LoadError::spanned(file, text, o..end, message)
            }
            None => LoadError::at(file, pos, message),
        }
    }

    /// A file that could not be read.
    pub fn missing(file: &dyn fmt::Display, why: &str) -> Self {
        LoadError::at(file, Pos::default(), format!("cannot read file: {why}"))
            .help("check the path; paths inside a TOML file are relative to that file")
    }

    /// A TOML syntax or shape error, at the span toml reports, with a
    /// "did you mean" when a key or variant name is mistyped.
    pub fn toml(file: &dyn fmt::Display, text: &Arc<str>, err: &toml::de::Error) -> Self {
        let mut message = err.message().trim().to_owned();
        let hint = did_you_mean_in(&message);
        // With a suggestion, the full list of expected names is noise.
        if hint.as_deref().is_some_and(|h| h.starts_with("did you mean"))
            && let Some(cut) = message.find(", expected")
        {
            message.truncate(cut);
        }
        let mut e = match err.span() {
            Some(span) => LoadError::spanned(file, text, span, message),
            None => LoadError::at(file, Pos::default(), message),
        };
        e.help = hint;
        e
    }

    /// Adds a hint (kept after a more precise one already found).
    pub fn help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        self.help = Some(match self.help.take() {
            Some(first) => format!("{first}\n{help}"),
            None => help,
        });
        self
    }
}

/// "did you mean `x`?" for a serde message naming an unknown field or variant
/// and the expected ones (`unknown field `hand_limt`, expected one of …`).
fn did_you_mean_in(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field ").or_else(|| message.strip_prefix("unknown variant "))?;
    let mut quoted = rest.split('`').skip(1).step_by(2);
    let given = quoted.next()?;
    let expected: Vec<&str> = quoted.collect();
    match closest(given, expected.iter().copied()) {
        Some(best) => Some(format!("did you mean `{best}`?")),
        None if !expected.is_empty() => Some(format!("expected one of: {}", expected.join(", "))),
        None => None,
    }
}

/// The candidate closest to a mistyped name, if one is close enough to be meant.
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (given.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(given, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// The most characters of a source line a diagnostic shows: a longer line is
/// cut to a window around the column, with `...` where it was cut.
pub const SNIPPET_WIDTH: usize = 120;

/// The characters of a long line shown before the column.
const SNIPPET_BEFORE: usize = 40;

/// `text` cut to at most `max` characters, with `...` where it was cut.
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((cut, _)) => format!("{}...", &text[..cut]).into(),
    }
}

/// The lines a span covers, as a small file that still reports the true line
/// and column numbers: rendering costs the size of the excerpt, not of the file
/// (`check` renders every problem of a file, and there may be thousands). A line
/// longer than [`SNIPPET_WIDTH`] is cut to a window around the span.
struct Excerpt<'a> {
    name: &'a str,
    shown: String,
    /// The span in `shown`.
    span: Range<usize>,
    /// The number of the first shown line.
    line: usize,
    /// Where each shown line starts in `shown`.
    starts: Vec<usize>,
    /// The column of `shown`'s first character.
    first_col: usize,
}

/// The most bytes of a span spread over several lines shown whole.
const EXCERPT_BYTES: usize = 4096;

impl<'a> Excerpt<'a> {
    fn of(name: &'a str, text: &Arc<str>, span: Range<usize>) -> Excerpt<'a> {
        let start = floor_char_boundary(text, span.start);
        let mut end = floor_char_boundary(text, span.end.max(start));
        let line = line_of(text, start);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let first_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let last_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let first = &text[line_start..first_end];
        let long = first.chars().nth(SNIPPET_WIDTH).is_some();
        if !long && last_end - line_start <= EXCERPT_BYTES {
            let shown = text[line_start..last_end].to_owned();
            let starts = std::iter::once(0).chain(shown.match_indices('\n').map(|(i, _)| i + 1)).collect();
            let span = start - line_start..end - line_start;
            return Excerpt { name, shown, span, line, starts, first_col: 1 };
        }
        // One line, cut to a window around the column.
        end = end.min(first_end);
        let col = text[line_start..start].chars().count();
        let from_char = if long { col.saturating_sub(SNIPPET_BEFORE) } else { 0 };
        let byte_of = |c: usize| first.char_indices().nth(c).map_or(first.len(), |(i, _)| i);
        let (from, to) = (byte_of(from_char), byte_of(from_char + SNIPPET_WIDTH));
        let prefix = if from > 0 { "..." } else { "" };
        let suffix = if to < first.len() { "..." } else { "" };
        let shown = format!("{prefix}{}{suffix}", &first[from..to]);
        let at = prefix.len() + (start - line_start - from);
        let span = at..(at + end.saturating_sub(start).min(to.saturating_sub(start - line_start))).max(at);
        let first_col = (from_char + 1).saturating_sub(prefix.len());
        Excerpt { name, shown, span, line, starts: vec![0], first_col }
    }
}

impl<'a> codespan_reporting::files::Files<'a> for Excerpt<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.shown)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.starts.partition_point(|&s| s <= byte_index).saturating_sub(1))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.line + line_index)
    }

    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let start = self.starts.get(line_index).copied().unwrap_or(0);
        let upto = floor_char_boundary(&self.shown, byte_index.max(start));
        let base = if line_index == 0 { self.first_col } else { 1 };
        Ok(base + self.shown[start..upto].chars().count())
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let start = *self
            .starts
            .get(line_index)
            .ok_or(codespan_reporting::files::Error::LineTooLarge { given: line_index, max: self.starts.len() - 1 })?;
        let end = self.starts.get(line_index + 1).copied().unwrap_or(self.shown.len());
        Ok(start..end)
    }
}

/// The line number of a byte offset, from the line starts of `text` (kept for
/// the last text asked about: a file with thousands of problems is indexed once).
fn line_of(text: &Arc<str>, offset: usize) -> usize {
    use std::cell::RefCell;
    /// A text and where its lines start.
    type Indexed = Option<(Arc<str>, Arc<[usize]>)>;
    thread_local! {
        static LINES: RefCell<Indexed> = const { RefCell::new(None) };
    }
    let starts = LINES.with(|cell| {
        let mut cache = cell.borrow_mut();
        match &*cache {
            Some((t, starts)) if Arc::ptr_eq(t, text) => Arc::clone(starts),
            _ => {
                let starts: Arc<[usize]> =
                    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
                *cache = Some((Arc::clone(text), Arc::clone(&starts)));
                starts
            }
        }
    });
    starts.partition_point(|&s| s <= offset)
}

/// Renders one diagnostic in the style of rustc: the message, the file and
/// position, the source line with a caret, and the hint.
fn render(
    f: &mut fmt::Formatter<'_>,
    file: &str,
    pos: Pos,
    snippet: Option<&Snippet>,
    message: &str,
    help: Option<&str>,
) -> fmt::Result {
    use codespan_reporting::diagnostic::{Diagnostic, Label};
    use codespan_reporting::term::{self, Chars, Config};
    if let Some(s) = snippet {
        let notes: Vec<String> = help.into_iter().flat_map(|h| h.lines()).map(|h| format!("help: {h}")).collect();
        let config = Config { chars: Chars::ascii(), ..Config::default() };
        // Only the lines of the span (a window of a long line) are handed to the renderer.
        let excerpt = Excerpt::of(file, &s.text, s.span.clone());
        let label = Label::primary((), excerpt.span.clone());
        let diagnostic = Diagnostic::error().with_message(message).with_labels(vec![label]).with_notes(notes);
        let emitted = term::emit_into_string(&config, &excerpt, &diagnostic);
        if let Ok(out) = emitted {
            return f.write_str(out.trim_end());
        }
    }
    write!(f, "error: {message}\n  --> {file}")?;
    if pos.line > 0 {
        write!(f, ":{}:{}", pos.line, pos.col)?;
    }
    for help in help.into_iter().flat_map(str::lines) {
        write!(f, "\n  = help: {help}")?;
    }
    Ok(())
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        render(f, &self.file, self.pos, self.snippet.as_ref(), &self.message, self.help.as_deref())
    }
}

/// Several load problems at once (`check` reports them all).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f, "\n")?;
            }
            write!(f, "{e}")?;
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
pub struct ScriptError {
    /// What the owner is (`card`, or `script` for a ruleset's own scripts).
    pub noun: &'static str,
    /// The card (or other owner) whose script failed.
    pub card: std::sync::Arc<str>,
    /// The script file.
    pub file: String,
    /// The hook being run.
    pub hook: &'static str,
    /// Where in the script, if Rhai knows.
    pub pos: Pos,
    /// What went wrong, with a hint.
    pub message: String,
    /// The script's text around the position, for the caret (boxed: errors travel in `Result`s).
    pub snippet: Option<Box<Snippet>>,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = format!("{} `{}`, hook `{}`: {}", self.noun, self.card, self.hook, self.message);
        render(f, &self.file, self.pos, self.snippet.as_deref(), &message, None)
    }
}

impl From<ScriptError> for LoadError {
    /// The script error as a load error, located in the script.
    fn from(e: ScriptError) -> Self {
        LoadError {
            file: e.file,
            pos: e.pos,
            message: format!("{} `{}`, hook `{}`: {}", e.noun, e.card, e.hook, e.message),
            help: None,
            snippet: e.snippet.map(|b| *b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::Source;

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_column() {
        let line = format!("actions = [{}\"bad\"]", "\"role builder\", ".repeat(100_000));
        let text: Arc<str> = format!("ruleset = \"x\"\n{line}\n").into();
        let at = text.find("\"bad\"").unwrap();
        let e = LoadError::spanned(&Source::Disk("g.toml".into()), &text, at..at + 5, "no such action");
        let shown = e.to_string();
        assert!(shown.len() < 600, "{} bytes: {shown}", shown.len());
        let col = text[..at].rsplit('\n').next().unwrap().chars().count() + 1;
        assert!(shown.contains(&format!("g.toml:2:{col}")), "{shown}");
        assert!(shown.contains("| ...") && shown.contains("role builder") && shown.contains("\"bad\""), "{shown}");
        // A short line is shown whole, as before.
        let text: Arc<str> = "a = 1\nb = \"x\"\n".into();
        let e = LoadError::spanned(&Source::Disk("s.toml".into()), &text, 10..13, "bad b");
        assert!(e.to_string().contains("2 | b = \"x\""), "{e}");
    }

    #[test]
    fn clip_cuts_long_text_with_an_ellipsis() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("abcdef", 3), "abc...");
    }
}

/// Why a game refused an action or a setup, or cannot go on: one type for
/// every game, so front ends tell a refusal (try again) from a failure alike.
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
    /// The game cannot be set up as asked (player count, a scenario's position).
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

impl GameError {
    /// True when the action was refused (not legal, or not understood) and nothing
    /// changed: a person may simply try again.
    pub fn refused(&self) -> bool {
        matches!(self, GameError::Illegal { .. } | GameError::Parse { .. })
    }
}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(Box::new(e))
    }
}
