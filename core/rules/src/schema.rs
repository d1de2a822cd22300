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

        /// One file's `[rules]` table: only the keys it sets.
        #[derive(Clone, Debug, Default, ::serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct RulesPatch {
            $( $field: Option<$ty>, )*
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
