//! A ruleset file and the files it `extends`: naming a ruleset by id or path,
//! following the chain, and which game a ruleset is for.
//!
//! A game crate defines what a ruleset file holds ([`ChainFile`]); the chain,
//! the cycle check, the rules-tree check and the `game` key are the same for
//! every game.

use std::path::Path;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::doc::TomlDoc;
use crate::error::{LoadError, Pos, closest};
use crate::files::{Builtins, Source};

/// What the chain needs to know about one game's ruleset file.
pub trait ChainFile: DeserializeOwned {
    /// The parent ruleset (an id or a path), if any.
    fn extends(&self) -> Option<&str>;
    /// The game this file says it is for (`game = "…"`), if it says.
    fn game(&self) -> Option<&str>;
    /// A file that extends nothing must stand alone: the error if it does not.
    fn check_root(&self, doc: &TomlDoc) -> Result<(), LoadError>;
    /// The hint added to a shape error in this kind of file.
    const SHAPE_HELP: &'static str;
    /// A shape error as this kind of file words it (by default with [`ChainFile::SHAPE_HELP`]);
    /// a game may say what the file is instead (another kind of rule file given by mistake).
    fn shape_error(doc: &TomlDoc, e: LoadError) -> LoadError {
        let _ = doc;
        e.help(Self::SHAPE_HELP)
    }
}

/// One file of a ruleset's `extends` chain.
pub struct Link<F> {
    /// The file with its spans.
    pub doc: Arc<TomlDoc>,
    /// What it says.
    pub file: F,
}

/// Turns an id (`base`) or a path (`path/to/file.toml`) into a source. An id
/// named inside a disk file is first looked for beside it (an edited checkout
/// wins), then among `lib`'s built-in rulesets.
pub fn resolve_spec(spec: &str, from: Option<&Source>, lib: &'static Builtins) -> Result<Source, LoadError> {
    if spec.ends_with(".toml") || spec.contains('/') {
        return match from {
            Some(f) => named_path(f, spec),
            None => Ok(Source::Disk(spec.into())),
        };
    }
    if let Some(Source::Disk(f)) = from {
        let sibling = Source::Disk(f.clone()).join(&format!("{spec}.toml"));
        if let Source::Disk(p) = &sibling
            && p.exists()
        {
            return Ok(sibling);
        }
    }
    lib.ruleset(spec).ok_or_else(|| {
        let ids = lib.ruleset_ids();
        let near = closest(spec, ids.iter().map(String::as_str)).map(|c| format!("did you mean `{c}`? "));
        LoadError::at(&Source::Disk(spec.into()), Pos::default(), format!("unknown ruleset `{spec}`")).help(format!(
            "{}built-in rulesets: {}; or give a path to a .toml file",
            near.unwrap_or_default(),
            ids.join(", ")
        ))
    })
}

/// The longest ruleset id.
pub const MAX_ID_CHARS: usize = 64;

/// A ruleset id goes into every game record and report: it must be a short,
/// printable, one-line name.
pub fn check_ruleset_id(doc: &TomlDoc, id: &str) -> Result<(), LoadError> {
    let why = if id.trim().is_empty() {
        "the ruleset id is empty"
    } else if id.chars().any(char::is_control) {
        "the ruleset id holds a control character (a newline, a tab…)"
    } else if id.trim() != id {
        "the ruleset id starts or ends with a space"
    } else if id.chars().count() > MAX_ID_CHARS {
        "the ruleset id is longer than 64 characters"
    } else {
        return Ok(());
    };
    Err(doc.error("id", why).help("write a short one-line name for records and reports, e.g. `id = \"my-rules\"`"))
}

/// A ruleset path written inside `from` (a scenario, a saved game, a ruleset):
/// relative to it, and a relative path stays inside `from`'s rules tree (an
/// absolute one, as `play --save` writes, is taken as written). Either must be a
/// regular `.toml` file; the file is not read here.
pub fn named_path(from: &Source, spec: &str) -> Result<Source, LoadError> {
    let target = from.join(spec);
    let root = if std::path::Path::new(spec).is_absolute() { None } else { from.tree_root() };
    target.check_inside(root.as_deref(), "toml")?;
    Ok(target)
}

/// Moves an error about a file to the place in `doc` that named it.
pub fn relocate(e: LoadError, doc: &TomlDoc, path: &str) -> LoadError {
    let help = e.help.clone();
    let mut moved = doc.error(path, e.message);
    moved.help = help;
    moved
}

/// The ruleset file and its ancestors, nearest first; every file inside the
/// rules tree `root`, no cycles, and no `game` other than `lib`'s.
pub fn read_chain<F: ChainFile>(
    source: &Source,
    root: Option<&Path>,
    lib: &'static Builtins,
) -> Result<Vec<Link<F>>, LoadError> {
    let mut chain: Vec<Link<F>> = Vec::new();
    source.check_inside(root, "toml")?;
    let mut next = Some(source.clone());
    while let Some(src) = next.take() {
        if chain.iter().any(|l| l.doc.source == src) {
            let last = &chain[chain.len() - 1].doc;
            return Err(last
                .error("extends", "`extends` forms a cycle")
                .help("a ruleset may not extend itself, directly or through others"));
        }
        let doc = Arc::new(TomlDoc::read(&src)?);
        // The game first: another game's file does not fit this game's shape, and
        // saying so beats naming the first of its keys this game does not know.
        let wrong_game = |game: &str| {
            (game != lib.game).then(|| {
                doc.error("game", format!("this ruleset is for `{game}`, but it is being loaded as `{}`", lib.game))
                    .help("a ruleset extends only rulesets of its own game; check `game` and `extends`")
            })
        };
        let declared = doc.text.parse::<toml::Table>().ok().and_then(|t| t.get("game")?.as_str().map(str::to_owned));
        if let Some(e) = declared.as_deref().and_then(wrong_game) {
            return Err(e);
        }
        let file: F = doc.deserialize().map_err(|e| F::shape_error(&doc, e))?;
        if let Some(e) = file.game().and_then(wrong_game) {
            return Err(e);
        }
        if let Some(parent) = file.extends() {
            let p = resolve_spec(parent, Some(&src), lib)
                .and_then(|p| p.check_inside(root, "toml").map(|()| p))
                .map_err(|e| relocate(e, &doc, "extends"))?;
            next = Some(p);
        } else {
            file.check_root(&doc)?;
        }
        chain.push(Link { doc, file });
    }
    Ok(chain)
}

/// The id of the built-in ruleset a chain's first file is a change of: the
/// nearest built-in ruleset (of `lib`'s own, not an example) along its
/// `extends` chain. `None` when the first file is itself one. A file on disk
/// named as a built-in ruleset and holding its very text (a checkout's
/// `cards/…/second-edition.toml`) is that ruleset.
pub fn built_in_base<F>(chain: &[Link<F>], lib: &'static Builtins) -> Option<String> {
    let id_of = |link: &Link<F>| match &link.doc.source {
        Source::Builtin(_, path) => {
            let id = path.strip_prefix(lib.rulesets)?.strip_prefix('/')?.strip_suffix(".toml")?;
            (!id.contains('/')).then(|| id.to_owned())
        }
        Source::Disk(path) => {
            let id = path.file_name()?.to_str()?.strip_suffix(".toml")?;
            (*lib.ruleset(id)?.read().ok()? == *link.doc.text).then(|| id.to_owned())
        }
    };
    match chain.first().map(id_of) {
        Some(None) => chain[1..].iter().find_map(id_of),
        _ => None,
    }
}

/// The game a ruleset is for: the game whose built-in files hold an id, or for a
/// file the first `game` key along its `extends` chain. A file that names no
/// game anywhere belongs to the first game given (the engine's first game, whose
/// files predate the key). A chain that mixes games (a file for one game
/// extending a ruleset of another) is an error at the `extends` that crosses.
pub fn game_of(spec: &str, libs: &[&'static Builtins]) -> Result<&'static Builtins, LoadError> {
    let first = *libs.first().expect("at least one game");
    let unknown_id = |spec: &str| {
        let ids: Vec<String> = libs.iter().flat_map(|l| l.ruleset_ids()).collect();
        let near = closest(spec, ids.iter().map(String::as_str)).map(|c| format!("did you mean `{c}`? "));
        LoadError::at(&Source::Disk(spec.into()), Pos::default(), format!("unknown ruleset `{spec}`")).help(format!(
            "{}built-in rulesets: {}; or give a path to a .toml file",
            near.unwrap_or_default(),
            ids.join(", ")
        ))
    };
    if !(spec.ends_with(".toml") || spec.contains('/')) {
        return libs.iter().copied().find(|l| l.ruleset(spec).is_some()).ok_or_else(|| unknown_id(spec));
    }
    let crossing = |child: &TomlDoc, parent: &str, theirs: &str, ours: &str| {
        child
            .error("extends", format!("`{parent}` is a ruleset for `{theirs}`, but this one is for `{ours}`"))
            .help("a ruleset extends only rulesets of its own game; check `game` and `extends`")
    };
    // The game found so far, and the file that extends the one being read.
    let mut found: Option<&'static Builtins> = None;
    let mut child: Option<(TomlDoc, String)> = None;
    let mut source = Source::Disk(spec.into());
    // The same path rule as the loader's: nothing outside the rules tree is read.
    let root = source.tree_root();
    // A chain longer than this is a cycle; the loader reports it properly.
    for _ in 0..64 {
        if let Err(e) = source.check_inside(root.as_deref(), "toml") {
            return match &child {
                Some((c, _)) => Err(relocate(e, c, "extends")),
                None => Err(e),
            };
        }
        let doc = TomlDoc::read(&source)?;
        let table: toml::Table = match doc.text.parse() {
            Ok(t) => t,
            Err(_) => return Ok(found.unwrap_or(first)), // the game's own loader reports the syntax error
        };
        if let Some(game) = table.get("game").and_then(|g| g.as_str()) {
            let lib = libs.iter().copied().find(|l| l.game == game).ok_or_else(|| {
                let games: Vec<&str> = libs.iter().map(|l| l.game).collect();
                let near = closest(game, games.iter().copied()).map(|c| format!("did you mean `{c}`? "));
                doc.error("game", format!("unknown game `{game}`")).help(format!(
                    "{}games: {}",
                    near.unwrap_or_default(),
                    games.join(", ")
                ))
            })?;
            match (found, &child) {
                (Some(ours), Some((c, parent))) if ours != lib => return Err(crossing(c, parent, lib.game, ours.game)),
                (None, _) => found = Some(lib),
                _ => {}
            }
        }
        let Some(parent) = table.get("extends").and_then(|e| e.as_str()) else { return Ok(found.unwrap_or(first)) };
        let next = if parent.ends_with(".toml") || parent.contains('/') {
            source.join(parent)
        } else {
            let beside = source.join(&format!("{parent}.toml"));
            if matches!(&beside, Source::Disk(p) if p.exists()) {
                beside
            } else {
                // A built-in id: its game is that of the files that hold it.
                let Some(lib) = libs.iter().copied().find(|l| l.ruleset(parent).is_some()) else {
                    return Ok(found.unwrap_or(first)); // the loader reports the unknown id where it is written
                };
                return match found {
                    Some(ours) if ours != lib => Err(crossing(&doc, parent, lib.game, ours.game)),
                    _ => Ok(lib),
                };
            }
        };
        child = Some((doc, parent.to_owned()));
        source = next;
    }
    Ok(found.unwrap_or(first))
}
