//! Snapshot files without a Rust toolchain: a scenario's final state rendered
//! as insta renders a YAML snapshot, stored in insta's `.snap` file format (a
//! `---` header with `source`, `description` and `input_file`, then the body),
//! read back, and compared with a line diff. `sanjuan test` uses this for a
//! designer's own folder; a test checks that [`yaml`] gives exactly the bodies
//! of this crate's accepted insta snapshots, so both are one format.

use std::fmt::Write as _;

/// A stored snapshot: its header fields and the rendered state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// What wrote it (`source:` in the header).
    pub source: String,
    /// The scenario's description.
    pub description: String,
    /// The scenario file, as the header names it.
    pub input_file: String,
    /// The state as YAML, ending in one newline.
    pub body: String,
}

impl Stored {
    /// The file's text, in insta's `.snap` layout.
    pub fn to_text(&self) -> String {
        let mut out = String::from("---\n");
        for (key, value) in
            [("source", &self.source), ("description", &self.description), ("input_file", &self.input_file)]
        {
            if !value.is_empty() {
                let _ = writeln!(out, "{key}: {}", scalar(value));
            }
        }
        out.push_str("---\n");
        out.push_str(&self.body);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }

    /// Reads a `.snap` file's text; `Err` says what is wrong with it.
    pub fn parse(text: &str) -> Result<Stored, String> {
        let rest = text.strip_prefix("---\n").ok_or("not a snapshot file: it must start with a `---` line")?;
        let end = rest.find("\n---\n").map(|i| (i + 1, i + 5)).or_else(|| rest.starts_with("---\n").then_some((0, 4)));
        let (header_end, body_start) = end.ok_or("not a snapshot file: no `---` line after the header")?;
        let mut stored = Stored {
            source: String::new(),
            description: String::new(),
            input_file: String::new(),
            body: String::new(),
        };
        for line in rest[..header_end].lines() {
            let Some((key, value)) = line.split_once(": ") else { continue };
            let value = unquote(value.trim())?;
            match key {
                "source" => stored.source = value,
                "description" => stored.description = value,
                "input_file" => stored.input_file = value,
                _ => {} // insta's other keys (expression, assertion_line…) are not needed here
            }
        }
        stored.body = rest[body_start..].to_owned();
        Ok(stored)
    }

    /// Whether two snapshots hold the same state (the header does not count, nor trailing blank lines).
    pub fn same_state(&self, other: &Stored) -> bool {
        self.body.trim_end() == other.body.trim_end()
    }
}

/// A readable line diff from `old` to `new`: `-` lines gone, `+` lines new,
/// with `context` unchanged lines around each change and `@@ line N` headers.
pub fn diff(old: &str, new: &str, context: usize) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut out = String::new();
    for group in diff.grouped_ops(context) {
        let first = group.first().map(|op| op.old_range().start + 1).unwrap_or(1);
        let _ = writeln!(out, "@@ line {first}");
        for op in &group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                let _ = writeln!(out, "{sign} {}", change.value().trim_end_matches('\n'));
            }
        }
    }
    out
}

/// A JSON value as YAML, exactly as insta writes a YAML snapshot's body.
pub fn yaml(value: &serde_json::Value) -> String {
    let mut out = String::new();
    node(&mut out, value, -1);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn indent(out: &mut String, level: isize) {
    for _ in 0..level.max(0) {
        out.push_str("  ");
    }
}

fn node(out: &mut String, value: &serde_json::Value, level: isize) {
    use serde_json::Value;
    match value {
        Value::Null => out.push('~'),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&scalar(s)),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Array(items) => {
            let level = level + 1;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                    indent(out, level);
                }
                out.push('-');
                value_after(out, item, level, true);
            }
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            let level = level + 1;
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                    indent(out, level);
                }
                out.push_str(&scalar(key));
                out.push(':');
                value_after(out, item, level, false);
            }
        }
    }
}

/// A value after `-` (inline) or `key:`; nested collections after a key start on a new line.
fn value_after(out: &mut String, value: &serde_json::Value, level: isize, inline: bool) {
    use serde_json::Value;
    let nested = match value {
        Value::Array(v) => !v.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => false,
    };
    if nested && !inline {
        out.push('\n');
        indent(out, level + 1);
    } else {
        out.push(' ');
    }
    node(out, value, level);
}

/// A string as a YAML scalar, quoted where YAML would read it otherwise (insta's rule).
fn scalar(s: &str) -> String {
    if need_quotes(s) { serde_json::to_string(s).expect("a string serializes") } else { s.to_owned() }
}

fn unquote(value: &str) -> Result<String, String> {
    if value.starts_with('"') {
        serde_json::from_str(value).map_err(|e| format!("a quoted header value that does not read: {e}"))
    } else {
        Ok(value.to_owned())
    }
}

fn need_quotes(s: &str) -> bool {
    s.is_empty()
        || s.starts_with(' ')
        || s.ends_with(' ')
        || s.starts_with(['&', '*', '?', '|', '-', '<', '>', '=', '!', '%', '@', '.'])
        || s.contains(|c: char| {
            matches!(c, ':' | '{' | '}' | '[' | ']' | ',' | '#' | '`' | '"' | '\'' | '\\' | '\0'..='\x06' | '\t' | '\n' | '\r' | '\x0e'..='\x1a' | '\x1c'..='\x1f')
        })
        || [
            "yes", "Yes", "YES", "no", "No", "NO", "True", "TRUE", "true", "False", "FALSE", "false", "on", "On", "ON",
            "off", "Off", "OFF", "null", "Null", "NULL", "~",
        ]
        .contains(&s)
        || s.starts_with("0x")
        || s.parse::<i64>().is_ok()
        || s.parse::<f64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_snapshot_reads_back_equal() {
        let state = serde_json::json!({"a": [1, {"b": "x: y", "c": []}], "d": {}, "e": null, "f": "true"});
        let stored = Stored {
            source: "sanjuan test".into(),
            description: "A \"quoted\" line, with: colons\nand a newline".into(),
            input_file: "palace.toml".into(),
            body: yaml(&state),
        };
        let back = Stored::parse(&stored.to_text()).unwrap();
        assert_eq!(back, stored);
        assert!(back.same_state(&stored));
        assert_eq!(stored.body, "a:\n  - 1\n  - b: \"x: y\"\n    c: []\nd: {}\ne: ~\nf: \"true\"\n");
    }

    /// `yaml` renders a state exactly as insta renders a YAML snapshot, so a
    /// `.snap` file of ours is one `cargo insta` reads as its own: checked on the
    /// final state of every scenario of every game in this repository.
    #[test]
    fn yaml_is_instas_rendering_for_every_scenario() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let registry = games::registry();
        let mut compared = 0;
        for kind in registry.kinds() {
            let Ok(files) = crate::suite::select(&root.join(kind.id()), None) else { continue };
            for file in files {
                let ran = kind.scenario(&file, None, false).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
                let state = ran.game.view(None).unwrap();
                let insta =
                    insta::_macro_support::serialize_value(&state, insta::_macro_support::SerializationFormat::Yaml);
                assert_eq!(yaml(&state).trim_end(), insta.trim_end(), "{}", file.display());
                compared += 1;
            }
        }
        assert!(compared > 200, "{compared}");
    }

    #[test]
    fn the_diff_names_what_moved() {
        let d = diff("a: 1\nb: 2\nc: 3\n", "a: 1\nb: 5\nc: 3\n", 1);
        assert_eq!(d, "@@ line 1\n  a: 1\n- b: 2\n+ b: 5\n  c: 3\n");
    }
}
