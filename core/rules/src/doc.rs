//! A TOML file read with the position of every key and value, so that an
//! error found after parsing (a negative cost, an unknown card id) points at
//! the exact value in the exact file, not at the first text that looks alike.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use toml::de::{DeTable, DeValue};

use crate::error::LoadError;
use crate::files::Source;

/// A parsed TOML file: its source, text and a span per dotted path.
#[derive(Debug)]
pub struct TomlDoc {
    /// Where it came from.
    pub source: Source,
    /// Its text.
    pub text: Arc<str>,
    /// `path` → (key span, value span). Paths join keys with `.` and give array
    /// elements by index: `card.3.cost`, `rules.trading_tiles.2.4`, `cards.<id>.cost`.
    spans: HashMap<String, (Range<usize>, Range<usize>)>,
}

impl TomlDoc {
    /// Reads and indexes a file; a syntax error is reported with its position.
    pub fn read(source: &Source) -> Result<TomlDoc, LoadError> {
        let text = source.read()?;
        TomlDoc::parse(source.clone(), text)
    }

    /// Indexes TOML text; `source` names it in errors.
    pub fn parse(source: Source, text: String) -> Result<TomlDoc, LoadError> {
        let text: Arc<str> = text.into();
        let table = DeTable::parse(&text).map_err(|e| LoadError::toml(&source, &text, &e))?;
        let mut spans = HashMap::new();
        index_table(table.get_ref(), "", &mut spans);
        Ok(TomlDoc { source, text: Arc::clone(&text), spans })
    }

    /// The file deserialized as `T`; unknown keys and wrong types are located errors.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, LoadError> {
        toml::from_str(&self.text).map_err(|e| LoadError::toml(&self.source, &self.text, &e))
    }

    /// True when the file sets this path.
    pub fn has(&self, path: &str) -> bool {
        self.spans.contains_key(path)
    }

    /// The span of the value at `path`, or of the nearest enclosing path that exists.
    pub fn value_span(&self, path: &str) -> Range<usize> {
        self.nearest(path).map_or(0..0, |(_, v)| v.clone())
    }

    /// The span of the key at `path`, or of the nearest enclosing path that exists.
    pub fn key_span(&self, path: &str) -> Range<usize> {
        self.nearest(path).map_or(0..0, |(k, _)| k.clone())
    }

    fn nearest(&self, path: &str) -> Option<&(Range<usize>, Range<usize>)> {
        let mut p = path;
        loop {
            if let Some(s) = self.spans.get(p) {
                return Some(s);
            }
            p = &p[..p.rfind('.')?];
        }
    }

    /// An error about the value at `path`.
    pub fn error(&self, path: &str, message: impl Into<String>) -> LoadError {
        LoadError::spanned(&self.source, &self.text, self.value_span(path), message)
    }

    /// An error about the key at `path` (the table header for a table).
    pub fn key_error(&self, path: &str, message: impl Into<String>) -> LoadError {
        LoadError::spanned(&self.source, &self.text, self.key_span(path), message)
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") }
}

fn index_table(table: &DeTable<'_>, prefix: &str, out: &mut HashMap<String, (Range<usize>, Range<usize>)>) {
    for (key, value) in table {
        let path = join(prefix, key.get_ref());
        out.insert(path.clone(), (key.span(), value.span()));
        index_value(value.get_ref(), &path, key.span(), out);
    }
}

fn index_value(
    value: &DeValue<'_>,
    path: &str,
    key: Range<usize>,
    out: &mut HashMap<String, (Range<usize>, Range<usize>)>,
) {
    match value {
        DeValue::Table(t) => index_table(t, path, out),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let p = join(path, &i.to_string());
                // An element of an array of tables (`[[card]]`) has no key of its own: use its span.
                let k = if matches!(item.get_ref(), DeValue::Table(_)) { item.span() } else { key.clone() };
                out.insert(p.clone(), (k, item.span()));
                index_value(item.get_ref(), &p, item.span(), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_point_at_the_value_itself_not_at_a_lookalike() {
        let text = "# cost = 9 in a comment\n[[card]]\nid = \"a\"\ncost = 1\n\n[[card]]\nid = \"b\"\ncost = -2\n\n[cards.b]\ncost = 3\n";
        let doc = TomlDoc::parse(Source::Disk("x.toml".into()), text.into()).unwrap();
        assert_eq!(&doc.text[doc.value_span("card.1.cost")], "-2");
        assert_eq!(&doc.text[doc.value_span("cards.b.cost")], "3");
        assert_eq!(&doc.text[doc.key_span("card.0.cost")], "cost");
        // A path that is not set falls back to the nearest enclosing one.
        assert_eq!(&doc.text[doc.key_span("cards.b.vp")], "b");
        let e = doc.error("card.1.cost", "negative");
        assert_eq!((e.pos.line, e.pos.col), (8, 8));
        let shown = e.to_string();
        assert!(shown.contains("x.toml:8:8") && shown.contains("cost = -2") && shown.contains('^'), "{shown}");
    }
}
