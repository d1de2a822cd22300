//! `sanjuan schema`: the JSON Schemas of the games' files, for TOML editors
//! (a file's first line `#:schema ./schemas/san-juan-ruleset.json`). The
//! schemas are the games' own (`Kind::schemas`); this only prints or writes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use engine_game::Kind;
use engine_game::schema::{FileSchema, KINDS, file_name};

use crate::CmdResult;
use crate::games::registry;
use crate::output::write_file;

/// `sanjuan schema`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The game (its id); without it, --out writes every game's schemas and
    /// the default game's is printed.
    #[arg(long)]
    game: Option<String>,
    /// Which file's schema: a ruleset, a card set or a scenario (default: ruleset;
    /// with --out, only this kind is written).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(KINDS))]
    kind: Option<String>,
    /// Write the schemas into this folder as GAME-KIND.json (the folder is made
    /// if its parent exists) instead of printing one.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Prints one schema, or writes the asked ones into `--out`.
pub fn run(args: Args) -> CmdResult {
    let games: Vec<&'static dyn Kind> = match &args.game {
        Some(id) => vec![registry().by_id(id).ok_or_else(|| {
            let ids: Vec<&str> = registry().kinds().iter().map(|k| k.id()).collect();
            format!("--game {id}: no such game; the games are {}", ids.join(", "))
        })?],
        None if args.out.is_some() => registry().kinds().to_vec(),
        None => vec![registry().default_kind()],
    };
    let Some(dir) = &args.out else {
        let kind = args.kind.as_deref().unwrap_or("ruleset");
        let (_, schema) = one(games[0], kind)?;
        println!("{}", text(&schema)?);
        return Ok(ExitCode::SUCCESS);
    };
    let mut chosen = Vec::new();
    for game in &games {
        match &args.kind {
            // A kind asked of every game: the games that have such files.
            Some(kind) if args.game.is_none() => {
                chosen.extend(game.schemas().into_iter().filter(|(k, _)| k == kind).map(|s| (*game, s)))
            }
            Some(kind) => chosen.push((*game, one(*game, kind)?)),
            None => chosen.extend(game.schemas().into_iter().map(|s| (*game, s))),
        }
    }
    folder(dir)?;
    for (game, (kind, schema)) in chosen {
        let path = dir.join(file_name(game.id(), kind));
        write_file(&path, text(&schema)? + "\n")?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `game`'s schema of `kind`, or why it has none.
fn one(game: &dyn Kind, kind: &str) -> Result<FileSchema, String> {
    let all = game.schemas();
    let kinds: Vec<&str> = all.iter().map(|(k, _)| *k).collect();
    let list = kinds.join(", ");
    all.into_iter()
        .find(|(k, _)| *k == kind)
        .ok_or_else(|| format!("{} has no {kind} files; its schemas: {list}", game.title()))
}

fn text(schema: &serde_json::Value) -> Result<String, String> {
    serde_json::to_string_pretty(schema).map_err(|e| format!("cannot write a schema as JSON: {e}"))
}

/// Checks that `dir` is a folder to write into, making it when only it is missing.
fn folder(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => {
            return Err(format!("--out {shown} is not a folder: give the folder to write the schemas into"));
        }
        Err(_) if std::fs::symlink_metadata(dir).is_ok() => {
            return Err(format!("--out {shown} is a symbolic link to nothing: give an existing folder or a new name"));
        }
        Err(_) => {}
    }
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if parent.exists() && !parent.is_dir() {
        return Err(format!("--out {shown}: {} is not a folder", parent.display()));
    }
    if !parent.is_dir() {
        return Err(format!(
            "--out {shown}: the folder {} does not exist; make it first, or give a folder inside an existing one",
            parent.display()
        ));
    }
    std::fs::create_dir(dir).map_err(|e| format!("--out {shown}: cannot make the folder: {e}"))
}
