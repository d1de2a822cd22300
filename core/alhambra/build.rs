//! Embeds `cards/alhambra` and `scripts/alhambra` so the built-in ruleset works from any directory.
use std::{env, fmt::Write, fs, path::Path};

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
            out.push((rel_path, path.canonicalize().unwrap().display().to_string()));
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    println!("cargo:rerun-if-changed=../../cards/alhambra");
    println!("cargo:rerun-if-changed=../../scripts/alhambra");
    let mut files = Vec::new();
    collect(&root, "cards/alhambra", &mut files);
    collect(&root, "scripts/alhambra", &mut files);
    let mut code = String::from("pub(crate) static BUILTIN_FILES: &[(&str, &str)] = &[\n");
    for (rel, abs) in files {
        writeln!(code, "    ({rel:?}, include_str!({abs:?})),").unwrap();
    }
    code.push_str("];\n");
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("builtin.rs"), code).unwrap();
}
