//! Game-independent rule files: where they come from ([`files`]), TOML with
//! the span of every key ([`doc`]), rustc-style diagnostics ([`error`]), the
//! `extends` chain and the `game` key ([`chain`]), rule keys declared
//! once with their ranges ([`schema`]), and integers named by key path
//! ([`keys`]). No game's rules live here.
#![warn(missing_docs)]

pub mod actions;
pub mod chain;
pub mod diff;
pub mod doc;
pub mod error;
pub mod files;
pub mod keys;
pub mod profile;
pub mod saved;
pub mod schema;

pub use error::{LoadError, LoadErrors, Pos, ScriptError, Snippet};
pub use files::{Builtins, Source};
