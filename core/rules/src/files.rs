//! Where rule files come from: the copies built into the binary, or the disk.
//!
//! A path written inside a TOML file is relative to that file and keeps its
//! origin, so a built-in ruleset only ever reads built-in files and a
//! designer's copy on disk reads the disk.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use crate::error::LoadError;

/// The rule files a game crate carries inside the binary (its `build.rs`
/// embeds them), so its built-in rulesets work from any directory.
#[derive(Debug)]
pub struct Builtins {
    /// The game these files belong to, as a ruleset's `game` key names it.
    pub game: &'static str,
    /// The folder of the built-in rulesets, e.g. `cards/<game>/rulesets`.
    pub rulesets: &'static str,
    /// Every embedded file: its path in the repository and its text.
    pub files: &'static [(&'static str, &'static str)],
}

impl Builtins {
    /// The built-in ruleset with this id (`<rulesets>/<id>.toml`).
    pub fn ruleset(&'static self, id: &str) -> Option<Source> {
        let path = format!("{}/{id}.toml", self.rulesets);
        self.files.iter().any(|(p, _)| *p == path).then_some(Source::Builtin(self, path))
    }

    /// Ids of all built-in rulesets (not the examples in subfolders).
    pub fn ruleset_ids(&self) -> Vec<String> {
        self.files
            .iter()
            .filter_map(|(p, _)| p.strip_prefix(self.rulesets)?.strip_prefix('/'))
            .filter(|p| !p.contains('/'))
            .filter_map(|p| p.strip_suffix(".toml"))
            .map(str::to_owned)
            .collect()
    }

    fn text(&self, path: &str) -> Option<&'static str> {
        self.files.iter().find(|(q, _)| *q == path).map(|(_, text)| *text)
    }
}

// Libraries are static and unique per game: the game names them.
impl PartialEq for Builtins {
    fn eq(&self, other: &Self) -> bool {
        self.game == other.game
    }
}

impl Eq for Builtins {}

impl std::hash::Hash for Builtins {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.game.hash(state);
    }
}

/// A rule file: built into the binary or on disk.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A file embedded at build time in a game's [`Builtins`], by its repository path.
    Builtin(&'static Builtins, String),
    /// A file on disk.
    Disk(PathBuf),
}

impl Source {
    /// A path written inside this file, resolved against this file's directory.
    pub fn join(&self, relative: &str) -> Source {
        match self {
            Source::Builtin(lib, p) => {
                let parent = Path::new(p).parent().unwrap_or(Path::new(""));
                Source::Builtin(lib, normalize(&parent.join(relative)).to_string_lossy().replace('\\', "/"))
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
            Source::Builtin(lib, p) => {
                lib.text(p).map(str::to_owned).ok_or_else(|| LoadError::missing(self, "no such built-in file"))
            }
            Source::Disk(p) => {
                // A symbolic link may not lead out of the tree its own folder belongs to.
                if std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
                    && let (Some(root), Ok(real)) = (self.tree_root(), std::fs::canonicalize(p))
                    && !in_a_tree(&real, &root)
                {
                    return Err(outside(self, &root));
                }
                read_bounded(p).map_err(|e| LoadError::missing(self, &e.to_string()))
            }
        }
    }

    /// The root of the rules tree this file belongs to: the nearest folder above
    /// it that holds a `cards` folder, else the file's own folder. A ruleset reads
    /// only files inside its tree or inside the current directory, which is a
    /// tree too (`None` for built-in files, which cannot leave theirs).
    ///
    /// The folder is found from the path as written (its folders resolved, not
    /// the file itself), so a symbolic link that leads out of the folder is refused.
    pub fn tree_root(&self) -> Option<PathBuf> {
        let Source::Disk(p) = self else { return None };
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let dir = std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
        let root = dir.ancestors().find(|a| a.join("cards").is_dir()).map(Path::to_path_buf);
        Some(root.unwrap_or(dir))
    }

    /// An error unless this file lies inside `root` (symbolic links and `..` resolved)
    /// and has the extension `ext`: rule files name only rule files of their own tree.
    pub fn check_inside(&self, root: Option<&Path>, ext: &str) -> Result<(), LoadError> {
        let path = match self {
            Source::Builtin(_, p) => Path::new(p.as_str()),
            Source::Disk(p) => p.as_path(),
        };
        if path.extension().and_then(|e| e.to_str()) != Some(ext) {
            return Err(LoadError::at(self, Default::default(), format!("`{self}` is not a .{ext} file"))
                .help(format!("a rule file names only .{ext} files here")));
        }
        let Source::Disk(p) = self else { return Ok(()) };
        // A file that does not exist is reported when it is read.
        let Ok(real) = std::fs::canonicalize(p) else { return Ok(()) };
        if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) {
            return Err(not_regular(self));
        }
        let Some(root) = root else { return Ok(()) };
        if in_a_tree(&real, root) {
            return Ok(());
        }
        Err(outside(self, root))
    }

    /// The file name without directories or extension (`forge` for `scripts/forge.rhai`).
    pub fn stem(&self) -> String {
        let p = match self {
            Source::Builtin(_, p) => Path::new(p.as_str()),
            Source::Disk(p) => p.as_path(),
        };
        p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

/// Whether a file (its real path) lies in the rules tree `root` or under the
/// current directory: a designer who runs a command from their own folder (a
/// ruleset beside a `scenarios/` folder) needs no marker, while a file shared
/// with them still cannot name `/etc/passwd` or `../../secret`.
fn in_a_tree(real: &Path, root: &Path) -> bool {
    real.starts_with(root)
        || std::env::current_dir().and_then(std::fs::canonicalize).is_ok_and(|here| real.starts_with(here))
}

/// The refusal of a path outside the rules tree `root` and the current directory.
fn outside(source: &Source, root: &Path) -> LoadError {
    let here = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_else(|_| "?".into());
    let err = LoadError::at(
        source,
        Default::default(),
        format!("`{source}` lies outside the rules tree {} and outside the current directory {here}", root.display()),
    );
    if root.join("cards").is_dir() {
        return err.help(
            "a ruleset reads only files under the folder that holds its `cards/` folder or the current directory; \
             copy the file into the tree, or run the command from a folder that holds both files",
        );
    }
    // No folder above held `cards/`: the tree is the naming file's own folder.
    err.help(format!(
        "run the command from a folder that holds both files (`cd` into your project's folder), or move the \
         file into {}",
        root.display()
    ))
}

/// The refusal of a path that is not a regular file.
fn not_regular(source: &Source) -> LoadError {
    LoadError::at(source, Default::default(), format!("`{source}` is not a regular file (a folder, device or pipe)"))
        .help("a rule file names only regular files of its rules tree")
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Builtin(_, p) => write!(f, "{p}"),
            Source::Disk(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The largest rule, scenario or saved-game file read (the biggest shipped is a few KiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a text file, refusing one larger than [`MAX_FILE_BYTES`]: a device such as
/// `/dev/zero` given as a file would otherwise be read until memory runs out.
/// A device, a pipe or a folder is refused before it is opened (a pipe would block).
fn read_bounded(path: &Path) -> std::io::Result<String> {
    read_text(path, MAX_FILE_BYTES, "a rule, scenario or saved-game file")
}

/// The one reader of a text file the user names: a regular file only (a pipe,
/// a device or a folder is refused, without blocking on a pipe that appears
/// between the check and the open), at most `max` bytes (`what` says what the
/// file is, for the message).
pub fn read_text(path: &Path, max: u64, what: &str) -> std::io::Result<String> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!("larger than {}, too big for {what}", size_words(max))));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// `max` bytes in words: `16 MiB`, `64 KiB`.
fn size_words(max: u64) -> String {
    match max {
        m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("{} MiB", m >> 20),
        m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("{} KiB", m >> 10),
        m => format!("{m} bytes"),
    }
}

/// Opens `path` for reading if it is a regular file: checked before the open
/// (a pipe is never opened) and on the open file (it may have been swapped);
/// the open does not wait for a pipe's writer.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let regular = |m: std::fs::Metadata| {
        if m.is_file() {
            Ok(())
        } else {
            Err(std::io::Error::other("not a regular file (a folder, device or pipe); give a file"))
        }
    };
    regular(std::fs::metadata(path)?)?;
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a pipe swapped in after the check is not waited on (and is refused below).
        open.custom_flags(libc::O_NONBLOCK);
    }
    let file = open.open(path)?;
    regular(file.metadata()?)?;
    Ok(file)
}

/// A new, empty temporary file beside `target` (same folder, so a rename
/// replaces the target in one step), named `.NAME.<random>.tmp` with a name
/// nobody can predict, created exclusively (`O_EXCL`: an existing file or a
/// symbolic link of that name is an error, never followed or overwritten).
/// The caller renames it into place or removes it.
pub fn temp_beside(target: &Path) -> std::io::Result<(std::fs::File, PathBuf)> {
    use std::hash::{BuildHasher, Hasher};
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let name = target
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"))?
        .to_string_lossy()
        .into_owned();
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tries = 0;
    loop {
        // `RandomState` is keyed from the operating system's randomness.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        h.write_u32(std::process::id());
        h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        let temp = dir.join(format!(".{name}.{:016x}.tmp", h.finish()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Writes `contents` to `target` whole or not at all: into a [`temp_beside`]
/// file, synced, then renamed over the target; on any failure the temporary
/// file is removed and the target is as it was. A target that is a symbolic
/// link is replaced by the file, not followed.
pub fn write_atomic(target: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let (mut file, temp) = temp_beside(target)?;
    let written = file.write_all(contents).and_then(|()| file.sync_all()).and_then(|()| {
        drop(file);
        std::fs::rename(&temp, target)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// Resolves `.` and `..` without touching the disk. A `..` that climbs above
/// the start is kept, and a second one is kept too (`../../x` stays as it is).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_never_follows_a_planted_link_and_leaves_nothing_when_it_fails() {
        let dir = std::env::temp_dir().join(format!("engine-rules-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("t")).unwrap();
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        // The old fixed temporary name, planted as a link to a file outside.
        let target = dir.join("t/a.snap");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, dir.join("t/a.snap.tmp")).unwrap();
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "two");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        // Two temporary names are never the same.
        let (_, a) = temp_beside(&target).unwrap();
        let (_, b) = temp_beside(&target).unwrap();
        assert_ne!(a, b);
        std::fs::remove_file(a).unwrap();
        std::fs::remove_file(b).unwrap();
        // A rename that fails (onto a folder that is not empty) leaves no temporary file.
        let folder = dir.join("t/folder");
        std::fs::create_dir_all(folder.join("inside")).unwrap();
        assert!(write_atomic(&folder, b"x").is_err());
        let mut left: Vec<String> = std::fs::read_dir(dir.join("t"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into())
            .collect();
        left.sort();
        assert_eq!(left, ["a.snap", "a.snap.tmp", "folder"]);
        // Reads: a pipe, a device and a file over the bound are refused at once.
        assert!(read_text(Path::new("/dev/zero"), 10, "x").unwrap_err().to_string().contains("not a regular file"));
        std::fs::write(dir.join("big"), vec![b'a'; 11]).unwrap();
        let e = read_text(&dir.join("big"), 10, "a test file").unwrap_err().to_string();
        assert!(e.contains("larger than 10 bytes, too big for a test file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    static LIB: Builtins = Builtins {
        game: "test",
        rulesets: "cards/g/rulesets",
        files: &[("cards/g/rulesets/r.toml", "sets = [\"../set.toml\"]"), ("cards/g/set.toml", "[[card]]")],
    };

    #[test]
    fn builtin_paths_resolve_relative_to_their_file() {
        let ruleset = LIB.ruleset("r").expect("built in");
        assert_eq!(ruleset.join("../set.toml"), Source::Builtin(&LIB, "cards/g/set.toml".into()));
        assert_eq!(ruleset.join("../set.toml").read().unwrap(), "[[card]]");
        assert_eq!(LIB.ruleset_ids(), ["r"]);
        assert!(LIB.ruleset("set").is_none() && ruleset.join("x.toml").read().is_err());
    }

    #[test]
    fn a_second_parent_step_climbs_again_instead_of_cancelling_the_first() {
        assert_eq!(normalize(Path::new("../../x.toml")), PathBuf::from("../../x.toml"));
        assert_eq!(normalize(Path::new("a/../../x.toml")), PathBuf::from("../x.toml"));
        assert_eq!(normalize(Path::new("a/b/../../c/./x.toml")), PathBuf::from("c/x.toml"));
        let disk = Source::Disk("rules/cards/g/rulesets/r.toml".into());
        assert_eq!(disk.join("../../../../other.toml"), Source::Disk("other.toml".into()));
    }
}
