//! Where rule files come from: the copies built into the binary, or the disk.
//!
//! TODO(engine-rules): replace with the shared crate's `Source` and `Library`.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use crate::error::LoadError;

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The folder of the built-in rulesets.
const RULESETS: &str = "cards/alhambra";

/// A rule file: built into the binary or on disk.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A file embedded at build time from the repository's `cards/alhambra` and `scripts/alhambra`.
    Builtin(String),
    /// A file on disk.
    Disk(PathBuf),
}

impl Source {
    /// The built-in ruleset with this id (`cards/alhambra/<id>.toml`).
    pub fn builtin_ruleset(id: &str) -> Option<Source> {
        let path = format!("{RULESETS}/{id}.toml");
        BUILTIN_FILES.iter().any(|(p, _)| *p == path).then_some(Source::Builtin(path))
    }

    /// Ids of all built-in rulesets.
    pub fn builtin_ruleset_ids() -> Vec<String> {
        BUILTIN_FILES
            .iter()
            .filter_map(|(p, _)| p.strip_prefix(RULESETS)?.strip_prefix('/'))
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
            Source::Disk(p) => Source::Disk(normalize(&p.parent().unwrap_or(Path::new("")).join(relative))),
        }
    }

    /// The file's text.
    pub fn read(&self) -> Result<String, LoadError> {
        match self {
            Source::Builtin(p) => BUILTIN_FILES
                .iter()
                .find(|(q, _)| q == p)
                .map(|(_, text)| (*text).to_owned())
                .ok_or_else(|| LoadError::new(self, None, "cannot read file: no such built-in file".into())),
            Source::Disk(p) => {
                std::fs::read_to_string(p).map_err(|e| LoadError::new(self, None, format!("cannot read file: {e}")))
            }
        }
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

/// Resolves `.` and `..` without touching the disk.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                let climbs = matches!(out.components().next_back(), None | Some(Component::ParentDir));
                if climbs || !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}
