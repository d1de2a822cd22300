//! For a game crate's `build.rs`: embeds the game's rule files
//! (`cards/<game>/` and `scripts/<game>/`, every `.toml` and `.rhai`) so its
//! built-in rulesets work from any directory. The generated file defines
//! `BUILTIN_FILES: &[(&str, &str)]` (repository path, text) for
//! `include!(concat!(env!("OUT_DIR"), "/builtin.rs"))`.
#![warn(missing_docs)]

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn collect(root: &Path, rel: &str, out: &mut Vec<(String, String)>) {
    let dir = root.join(rel);
    let Ok(entries) = fs::read_dir(&dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel_path = format!("{rel}/{name}");
        let path = entry.path();
        if path.is_dir() {
            collect(root, &rel_path, out);
        } else if name.ends_with(".toml") || name.ends_with(".rhai") {
            out.push((rel_path, path.canonicalize().expect("a listed file").display().to_string()));
        }
    }
}

/// Writes `$OUT_DIR/builtin.rs` with the files of `cards/<game>` and
/// `scripts/<game>` of the repository two levels above the calling crate.
pub fn embed(game: &str) {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("run from a build script");
    let root = Path::new(&manifest).join("../..");
    let mut files = Vec::new();
    for dir in [format!("cards/{game}"), format!("scripts/{game}")] {
        println!("cargo:rerun-if-changed=../../{dir}");
        collect(&root, &dir, &mut files);
    }
    let mut code = String::from("pub(crate) static BUILTIN_FILES: &[(&str, &str)] = &[\n");
    for (rel, abs) in files {
        writeln!(code, "    ({rel:?}, include_str!({abs:?})),").expect("writing to a string");
    }
    code.push_str("];\n");
    let out = env::var("OUT_DIR").expect("run from a build script");
    fs::write(Path::new(&out).join("builtin.rs"), code).expect("OUT_DIR is writable");
}
