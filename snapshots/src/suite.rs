//! The snapshot loop over a folder of scenarios, whichever game each is for:
//! play a scenario through the registry, check its `[expect]`, and compare its
//! final state with the stored snapshot `DIR/snapshots/NAME.snap` — with the
//! event trace too when the stored snapshot holds one (or a new one is asked
//! to). `sanjuan test` and this repository's own snapshot tests both run it,
//! so a scenario is snapshot one way. Nothing here prints.

use std::path::{Path, PathBuf};

use engine_game::Registry;

use crate::file::{Stored, diff, yaml};

/// The folder, beside the scenarios, that holds their snapshots.
pub const SNAPSHOTS: &str = "snapshots";

/// The key under which a snapshot keeps the event trace, after the state.
const EVENTS: &str = "events";

/// What a run may write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Nothing (`CI` is set, or a review decides): a missing snapshot fails.
    Nothing,
    /// Snapshots not stored yet.
    New,
    /// New ones, and changed ones over the stored (`--accept`).
    All,
}

/// A scenario played: its problems and the snapshot it would store.
#[derive(Clone, Debug)]
pub struct Played {
    /// Failed `[expect]` checks.
    pub problems: Vec<String>,
    /// The snapshot of its outcome.
    pub now: Stored,
}

/// What happened to a scenario's snapshot.
#[derive(Clone, Debug)]
pub enum Snap {
    /// Stored and equal.
    Same,
    /// None was stored: recorded now, or not (under CI, or left to a review).
    New {
        /// Whether it was written.
        written: bool,
    },
    /// Stored and different.
    Changed {
        /// Whether the new one was written over it.
        accepted: bool,
        /// From the stored snapshot to now, a line diff.
        diff: String,
    },
}

/// A scenario's file name without `.toml`: its name in reports and its snapshot's.
pub fn stem(file: &Path) -> String {
    file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| file.display().to_string())
}

/// Where a scenario's snapshot is stored.
pub fn snapshot_path(file: &Path) -> PathBuf {
    file.parent().unwrap_or(Path::new(".")).join(SNAPSHOTS).join(format!("{}.snap", stem(file)))
}

/// The stored snapshot of a scenario, if there is one; `Err` when it does not read.
///
/// Read as every file is (`engine_rules::files::read_text`): a regular file
/// of at most 16 MiB; a pipe (which would block), a link to a device (which
/// would be read without end) or a huge file is refused with what to do.
pub fn stored(file: &Path) -> Result<Option<Stored>, String> {
    let path = snapshot_path(file);
    if std::fs::symlink_metadata(&path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Ok(None);
    }
    let max = engine_rules::files::MAX_FILE_BYTES;
    match engine_rules::files::read_text(&path, max, "a snapshot") {
        Ok(text) => Stored::parse(&text).map(Some).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) => Err(format!(
            "{}: {e}; a snapshot is a regular file `sanjuan test` wrote: remove it and run again to record it anew",
            path.display()
        )),
    }
}

/// Whether a snapshot keeps the event trace.
pub fn has_trace(stored: &Stored) -> bool {
    let key = format!("{EVENTS}:");
    stored.body.lines().any(|l| l == key)
}

/// Plays a scenario file (under `ruleset` instead of the one it names, if
/// given), keeping the event trace with `trace`; `Err`: why it did not run.
/// A panic in the engine fails this scenario, not the whole run.
pub fn play(registry: &Registry, file: &Path, ruleset: Option<&str>, trace: bool) -> Result<Played, Vec<String>> {
    let run = || -> Result<Played, Vec<String>> {
        let kind = match ruleset {
            Some(spec) => registry.of_ruleset(spec),
            None => registry.of_file(file),
        };
        let ran = kind.map_err(|e| vec![e])?.scenario(file, ruleset, trace)?;
        let state = ran.game.view(None).map_err(|e| vec![format!("the state: {e}")])?;
        let mut body = yaml(&state);
        if trace {
            let lines: Vec<&String> = ran.trace.iter().filter(|l| !l.is_empty()).collect();
            body.push_str(&yaml(&serde_json::json!({ EVENTS: lines })));
        }
        // A scenario without `[expect]` is a snapshot test: the snapshot is its assertion.
        let problems = ran.failures.unwrap_or_default();
        let input_file = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let now = Stored { source: "sanjuan test".into(), description: ran.description, input_file, body };
        Ok(Played { problems, now })
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Err(vec![format!("the engine panicked ({why}): a bug in sanjuan; please report it with this file")])
    })
}

/// Writes a scenario's snapshot (making the folder).
pub fn store(file: &Path, snapshot: &Stored) -> Result<(), String> {
    let path = snapshot_path(file);
    let dir = path.parent().expect("a snapshot path has a folder");
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // The one atomic write: a fresh temporary file of an unpredictable name beside the
    // snapshot (created exclusively: a link or a pipe planted there is never followed),
    // renamed into place, removed if anything fails.
    engine_rules::files::write_atomic(&path, snapshot.to_text().as_bytes())
        .map_err(|e| format!("cannot write {}: {e}; check that its folder is writable and has space", path.display()))
}

/// One scenario checked against its stored snapshot: the trace is compared
/// when the stored snapshot has one (or, for a new one, when `trace`), and
/// `write` says what may be stored. A scenario whose `[expect]` fails stores
/// nothing, whatever `write` says: a snapshot is recorded as reviewed, and an
/// outcome its own checks refuse is not one anybody reviewed. `Err`: why it
/// did not run.
pub fn check(registry: &Registry, file: &Path, write: Write, trace: bool) -> Result<(Played, Snap), Vec<String>> {
    let before = stored(file).map_err(|e| vec![e])?;
    let traced = before.as_ref().map_or(trace, has_trace);
    let played = play(registry, file, None, traced)?;
    let write = if played.problems.is_empty() { write } else { Write::Nothing };
    let snap = match before {
        None => {
            let written = write != Write::Nothing;
            if written {
                store(file, &played.now).map_err(|e| vec![e])?;
            }
            Snap::New { written }
        }
        Some(old) if old.same_state(&played.now) => Snap::Same,
        Some(old) => {
            let accepted = write == Write::All;
            if accepted {
                store(file, &played.now).map_err(|e| vec![e])?;
            }
            Snap::Changed { accepted, diff: diff(&old.body, &played.now.body, 3) }
        }
    };
    Ok((played, snap))
}

/// The scenario files a path names: every `*.toml` of a folder (not its
/// subfolders) or the one file, sorted; only those whose name contains `filter`.
pub fn select(path: &Path, filter: Option<&str>) -> Result<Vec<PathBuf>, String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}; give a folder of scenario *.toml files or one such file", path.display()))?;
    let mut files = if meta.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut files = Vec::new();
        for entry in entries {
            let file = entry.map_err(|e| format!("{}: {e}", path.display()))?.path();
            if file.extension().is_some_and(|x| x == "toml") && file.is_file() {
                files.push(file);
            }
        }
        if files.is_empty() {
            return Err(format!("{}: no *.toml scenario files in this folder", path.display()));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    if let Some(f) = filter {
        files.retain(|file| stem(file).contains(f));
        if files.is_empty() {
            return Err(format!("no scenario file name in {} contains `{f}`; check --filter", path.display()));
        }
    }
    files.sort();
    Ok(files)
}

/// The stored snapshots of a folder with no scenario file of their name.
pub fn stale(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join(SNAPSHOTS)) else { return Vec::new() };
    let mut stale: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "snap"))
        .filter(|p| p.file_stem().is_some_and(|s| !dir.join(Path::new(s).with_extension("toml")).is_file()))
        .collect();
    stale.sort();
    stale
}
