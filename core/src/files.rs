//! Where rule files come from: the copies built into the binary, or the disk.
//!
//! A path written inside a TOML file is relative to that file and keeps its
//! origin, so a built-in ruleset only ever reads built-in files and a
//! designer's copy on disk reads the disk.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use crate::error::LoadError;

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// A rule file: built into the binary or on disk.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A file embedded at build time from the repository's `cards/` and `scripts/`.
    Builtin(String),
    /// A file on disk.
    Disk(PathBuf),
}

impl Source {
    /// The built-in ruleset with this id (`cards/rulesets/<id>.toml`).
    pub fn builtin_ruleset(id: &str) -> Option<Source> {
        let path = format!("cards/rulesets/{id}.toml");
        BUILTIN_FILES.iter().any(|(p, _)| *p == path).then_some(Source::Builtin(path))
    }

    /// Ids of all built-in rulesets (not the examples).
    pub fn builtin_ruleset_ids() -> Vec<String> {
        BUILTIN_FILES
            .iter()
            .filter_map(|(p, _)| p.strip_prefix("cards/rulesets/"))
            .filter(|p| !p.contains('/'))
            .filter_map(|p| p.strip_suffix(".toml"))
            .map(str::to_owned)
            .collect()
    }

    /// A path written inside this file, resolved against this file's directory.
    pub fn join(&self, relative: &str) -> Source {
        match self {
            Source::Builtin(p) => {
                let parent = Path::new(p).parent().unwrap_or(Path::new(""));
                Source::Builtin(normalize(&parent.join(relative)).to_string_lossy().replace('\\', "/"))
            }
            Source::Disk(p) => {
                let parent = p.parent().unwrap_or(Path::new(""));
                Source::Disk(normalize(&parent.join(relative)))
            }
        }
    }

    /// The file's text.
    pub fn read(&self) -> Result<String, LoadError> {
        match self {
            Source::Builtin(p) => BUILTIN_FILES
                .iter()
                .find(|(q, _)| q == p)
                .map(|(_, text)| (*text).to_owned())
                .ok_or_else(|| LoadError::missing(self, "no such built-in file")),
            Source::Disk(p) => read_bounded(p).map_err(|e| LoadError::missing(self, &e.to_string())),
        }
    }

    /// The file name without directories or extension (`smithy` for `scripts/smithy.rhai`).
    pub fn stem(&self) -> String {
        let p = match self {
            Source::Builtin(p) => Path::new(p.as_str()),
            Source::Disk(p) => p.as_path(),
        };
        p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Builtin(p) => write!(f, "{p}"),
            Source::Disk(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The largest rule, scenario or saved-game file read (the biggest shipped is a few KiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a text file, refusing one larger than [`MAX_FILE_BYTES`]: a device such as
/// `/dev/zero` given as a file would otherwise be read until memory runs out.
fn read_bounded(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, too big for a rule, scenario or saved-game file",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(text)
}

/// Resolves `.` and `..` without touching the disk.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_paths_resolve_relative_to_their_file() {
        let ruleset = Source::builtin_ruleset("second-edition").expect("built in");
        assert_eq!(ruleset.join("../base.toml"), Source::Builtin("cards/base.toml".into()));
        assert!(ruleset.join("../base.toml").read().unwrap().contains("indigo_plant"));
    }
}
