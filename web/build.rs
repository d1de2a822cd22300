//! Embeds every board of `assets/boards/` (one `<game id>.js` each): a game
//! with a board of its own adds a file there, and no code.
use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-changed=assets/boards");
    let dir = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("assets/boards");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("web/assets/boards")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    files.sort();
    let mut code =
        String::from("/// Each game's own board script, by file name.\nconst BOARDS: &[(&str, &str)] = &[\n");
    for f in files {
        let name = f.file_name().expect("a file").to_string_lossy().into_owned();
        let _ = writeln!(code, "    ({name:?}, include_str!({:?})),", f.display().to_string());
    }
    code.push_str("];\n");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("run by cargo")).join("boards.rs");
    std::fs::write(out, code).expect("write boards.rs");
}
