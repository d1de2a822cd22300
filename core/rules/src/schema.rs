//! Rule numbers declared once: the [`rules!`](crate::rules) macro turns a list
//! of keys with their types, ranges and docs into a game's `Rules` struct, one
//! file's partial table, the merge along `extends`, and the list the range
//! checks and the documentation test read. [`field_names`] lists any file
//! format's keys from its `Deserialize` impl, for the tests that check the
//! documentation names every key.

use std::collections::BTreeMap;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The numbers in a rule value, each with its path, for the range checks.
pub trait Numbers {
    /// Appends (path, value) for every number in `self`, under `path`.
    fn numbers(&self, path: String, out: &mut Vec<(String, i64)>);
}

macro_rules! scalar_numbers {
    ($($t:ty),*) => {$(
        impl Numbers for $t {
            fn numbers(&self, path: String, out: &mut Vec<(String, i64)>) {
                out.push((path, i64::try_from(*self).unwrap_or(i64::MAX)));
            }
        }
    )*};
}
scalar_numbers!(i32, u32, usize);

impl Numbers for bool {
    fn numbers(&self, _: String, _: &mut Vec<(String, i64)>) {}
}

impl Numbers for String {
    fn numbers(&self, _: String, _: &mut Vec<(String, i64)>) {}
}

impl<T: Numbers> Numbers for Vec<T> {
    fn numbers(&self, path: String, out: &mut Vec<(String, i64)>) {
        for (i, v) in self.iter().enumerate() {
            v.numbers(format!("{path}.{i}"), out);
        }
    }
}

impl<T: Numbers> Numbers for BTreeMap<String, T> {
    fn numbers(&self, path: String, out: &mut Vec<(String, i64)>) {
        for (k, v) in self {
            v.numbers(format!("{path}.{k}"), out);
        }
    }
}

/// Declares every rule number of a game once: its type, its allowed range and what it
/// means. From this list come [`Rules`] (all keys, after `extends`), one file's
/// partial `[rules]` table, the merge, and the range checks.
#[macro_export]
macro_rules! rules {
    ($( $(#[doc = $doc:literal])* $field:ident : $ty:ty => $range:expr ),* $(,)?) => {
        /// The rule numbers of a ruleset. Every key is required once `extends`
        /// is followed: the numbers live in the ruleset files, not in Rust.
        #[derive(Clone, Debug, ::serde::Deserialize, ::serde::Serialize, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub struct Rules {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        /// The `[rules]` table: the rule numbers this file sets (the others
        /// come from the file it extends).
        #[derive(Clone, Debug, Default, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[schemars(transform = rule_ranges)]
        pub(crate) struct RulesPatch {
            $( $(#[doc = $doc])* $field: Option<$ty>, )*
        }

        /// Writes each key's range into the `[rules]` table's JSON Schema.
        fn rule_ranges(schema: &mut ::schemars::Schema) {
            $crate::schema::write_ranges(schema, RULE_KEYS.iter().filter_map(|&(k, r)| Some((k, r?))));
        }

        /// Every rule key with the range its numbers must lie in (`None`: not a number).
        pub static RULE_KEYS: &[(&str, Option<(i64, i64)>)] = &[ $( (stringify!($field), $range), )* ];

        impl RulesPatch {
            /// The numbers this table sets, as (path under `rules.`, value, range).
            fn numbers(&self) -> Vec<(String, i64, (i64, i64))> {
                let mut out = Vec::new();
                $(
                    if let (Some(v), Some(range)) = (&self.$field, $range) {
                        let mut found = Vec::new();
                        $crate::schema::Numbers::numbers(v, stringify!($field).to_owned(), &mut found);
                        out.extend(found.into_iter().map(|(p, n)| (p, n, range)));
                    }
                )*
                out
            }

            /// The rules of a chain of tables, parent first; or the keys nobody set.
            fn merge(chain: &[&RulesPatch]) -> Result<Rules, Vec<&'static str>> {
                $( let mut $field: Option<$ty> = None; )*
                for patch in chain {
                    $( if let Some(v) = &patch.$field { $field = Some(v.clone()); } )*
                }
                let mut missing = Vec::new();
                $( if $field.is_none() { missing.push(stringify!($field)); } )*
                if !missing.is_empty() {
                    return Err(missing);
                }
                Ok(Rules { $( $field: $field.unwrap_or_else(|| unreachable!()), )* })
            }
        }
    };
}

/// Writes the range of each key given into the JSON Schema of a table (a
/// `[rules]` table, a card): every integer under the key's property (in lists and maps
/// too, as the range checks read them) gets `minimum` and `maximum`, so an
/// editor flags a number `check` would refuse.
pub fn write_ranges<'a>(schema: &mut schemars::Schema, ranges: impl IntoIterator<Item = (&'a str, (i64, i64))>) {
    let Some(props) = schema.get_mut("properties").and_then(serde_json::Value::as_object_mut) else { return };
    for (key, (lo, hi)) in ranges {
        if let Some(prop) = props.get_mut(key) {
            bound_integers(prop, lo, hi);
        }
    }
}

/// Sets `minimum` and `maximum` on every integer schema in `value`.
fn bound_integers(value: &mut serde_json::Value, lo: i64, hi: i64) {
    let serde_json::Value::Object(map) = value else { return };
    let is_integer =
        |t: &serde_json::Value| t == "integer" || t.as_array().is_some_and(|a| a.iter().any(|t| t == "integer"));
    if map.get("type").is_some_and(is_integer) {
        map.insert("minimum".into(), lo.into());
        map.insert("maximum".into(), hi.into());
    }
    for (k, sub) in map.iter_mut() {
        match k.as_str() {
            "items" | "additionalProperties" => bound_integers(sub, lo, hi),
            "anyOf" | "oneOf" | "allOf" => {
                sub.as_array_mut().into_iter().flatten().for_each(|s| bound_integers(s, lo, hi))
            }
            _ => {}
        }
    }
}

/// The field names of a struct as its serde `Deserialize` impl knows them
/// (renames applied), without a hand-written list. Nested structs are not
/// followed: ask for each one.
pub fn field_names<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields = None;
    // The recorder always fails; the names are recorded before it does.
    let _ = T::deserialize(FieldRecorder(&mut fields));
    fields.unwrap_or_default()
}

/// A deserializer that records the fields of the struct asked for, then fails.
struct FieldRecorder<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> Deserializer<'de> for FieldRecorder<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(fields);
        Err(de::Error::custom("field names recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}
