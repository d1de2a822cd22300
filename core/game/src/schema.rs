//! JSON Schemas of a game's files, for TOML editors (Taplo, Even Better
//! TOML): completion, each key's doc line on hover, and inline errors. A
//! schema is generated from the very structs the files are read into (their
//! `schemars::JsonSchema` derive beside `serde::Deserialize`), so it refuses
//! the unknown keys `check` refuses and cannot drift from it.

use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema, generate::SchemaSettings};
use serde_json::Value;

/// The kinds of file a game may have schemas for, in the order the command
/// line lists them: rulesets, card sets, scenarios.
pub const KINDS: &[&str] = &["ruleset", "cards", "scenario"];

/// One schema of a game: the kind of file it describes and the schema.
pub type FileSchema = (&'static str, Value);

/// The schema of a file read as `T`, titled `title` (the game's title and
/// the kind: `My Game ruleset`).
/// Draft 7, the version TOML editors read; TOML has no null, so an optional
/// key's schema is that of its value.
pub fn of<T: JsonSchema>(title: &str) -> Value {
    let schema = SchemaSettings::draft07()
        .with_transform(RecursiveTransform(for_toml))
        .into_generator()
        .into_root_schema_for::<T>();
    let Value::Object(body) = schema.to_value() else { unreachable!("a struct's schema is an object") };
    // What names the file first, for a person reading the schema.
    let mut head = serde_json::Map::new();
    head.insert("title".into(), title.into());
    for (k, v) in body {
        match k.as_str() {
            "$schema" => drop(head.shift_insert(0, k, v)),
            "title" => {}
            _ => drop(head.insert(k, v)),
        }
    }
    Value::Object(head)
}

/// The name a game's schema of `kind` is written under (`my-game-ruleset.json`),
/// for a file's `#:schema` line.
pub fn file_name(game: &str, kind: &str) -> String {
    format!("{game}-{kind}.json")
}

/// Fits a schema to TOML and to an editor's hover: drops `null` (TOML has
/// none: `"type": ["integer", "null"]` becomes `"type": "integer"`, an
/// `anyOf` loses its `{"type": "null"}` branch, one branch left being an
/// `allOf` of it since a `$ref` beside a description must be one in draft 7,
/// and a default of `null` goes); drops an integer's Rust `format` (`uint8`:
/// its range says it); joins a doc comment's wrapped lines into one.
fn for_toml(schema: &mut Schema) {
    let Some(map) = schema.as_object_mut() else { return };
    if let Some(Value::String(d)) = map.get_mut("description") {
        *d = d.split("\n\n").map(|p| p.replace('\n', " ")).collect::<Vec<_>>().join("\n\n");
    }
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
    }
    if map.get("type").is_some_and(|t| t == "integer") {
        map.remove("format");
    }
    if map.get("default").is_some_and(Value::is_null) {
        map.remove("default");
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.retain(|b| b.get("type").is_none_or(|t| t != "null"));
        if branches.len() == 1
            && let Some(one) = map.remove("anyOf")
        {
            map.insert("allOf".into(), one);
        }
    }
}
