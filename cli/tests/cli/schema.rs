//! `sanjuan schema`: the JSON Schemas of every game's files, printed or
//! written into a folder; the copies in docs/schemas/ kept current; and a
//! hostile `--out` (a file, a missing folder, symbolic links) refused
//! clearly, never followed out of the folder.

use crate::common;

use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sanjuan-schema-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `sanjuan args…`: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::command().args(args).output().expect("run sanjuan");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Refused: exit code 1 (not a panic's 101), with `needle` in the error.
#[track_caller]
fn refused(args: &[&str], needle: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(1), "{args:?}: exit code; stdout: {out}\nstderr: {err}");
    assert!(err.contains(needle), "{args:?}: `{needle}` not in the error: {err}");
}

/// Every file `sanjuan schema --out` writes: San Juan's three, Alhambra's two.
const FILES: [&str; 5] = [
    "alhambra-ruleset.json",
    "alhambra-scenario.json",
    "san-juan-cards.json",
    "san-juan-ruleset.json",
    "san-juan-scenario.json",
];

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn schema_prints_one_schema_and_writes_every_game_s_into_a_folder() {
    let (code, out, err) = run(&["schema"]);
    assert_eq!(code, Some(0), "{err}");
    let ruleset: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(ruleset["title"], "San Juan ruleset");
    assert_eq!(ruleset["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(ruleset["additionalProperties"], false, "unknown keys are refused, as by check");
    let rules = &ruleset["definitions"]["RulesPatch"]["properties"]["hand_limit"];
    assert_eq!((rules["minimum"].as_i64(), rules["maximum"].as_i64()), (Some(1), Some(200)), "{rules}");
    assert!(rules["description"].as_str().unwrap().starts_with("Hand limit"), "{rules}");

    let (code, out, err) = run(&["schema", "--game", "alhambra", "--kind", "scenario"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("\"title\": \"Alhambra scenario\"") && out.contains("\"neutral_score\""), "{out}");

    let dir = temp_dir("out");
    let (code, out, err) = run(&["schema", "--out", s(&dir)]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(listing(&dir), FILES);
    assert_eq!(out.lines().count(), 5, "one line per file written: {out}");
    assert!(out.contains(&format!("wrote {}", dir.join("san-juan-cards.json").display())), "{out}");
    let (_, printed, _) = run(&["schema", "--kind", "cards"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("san-juan-cards.json")).unwrap(),
        printed,
        "the file is what is printed"
    );

    // One game, or one kind of every game that has it; a folder made when only it is missing.
    let one = dir.join("one");
    assert_eq!(run(&["schema", "--game", "alhambra", "--out", s(&one)]).0, Some(0));
    assert_eq!(listing(&one), ["alhambra-ruleset.json", "alhambra-scenario.json"]);
    let scenarios = dir.join("scenarios");
    assert_eq!(run(&["schema", "--kind", "scenario", "--out", s(&scenarios)]).0, Some(0));
    assert_eq!(listing(&scenarios), ["alhambra-scenario.json", "san-juan-scenario.json"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn schema_refuses_a_game_or_a_kind_it_does_not_have() {
    refused(&["schema", "--game", "chess"], "--game chess: no such game; the games are san-juan, alhambra");
    refused(
        &["schema", "--game", "alhambra", "--kind", "cards"],
        "Alhambra has no cards files; its schemas: ruleset, scenario",
    );
    let (code, _, err) = run(&["schema", "--kind", "deck"]);
    assert_eq!(code, Some(2), "clap's usage error: {err}");
    assert!(err.contains("[possible values: ruleset, cards, scenario]"), "{err}");
}

/// docs/schemas/ holds what `sanjuan schema --out docs/schemas` writes, so a
/// file in the repository (or a designer's copy) can point at it; a change to
/// a file format without regenerating it fails here.
#[test]
fn the_schemas_in_docs_are_current() {
    let dir = temp_dir("docs");
    assert_eq!(run(&["schema", "--out", s(&dir)]).0, Some(0));
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/schemas");
    let stale: Vec<&str> = FILES
        .iter()
        .copied()
        .filter(|f| std::fs::read_to_string(docs.join(f)).ok() != std::fs::read_to_string(dir.join(f)).ok())
        .collect();
    assert!(
        stale.is_empty(),
        "docs/schemas/ is stale ({}); regenerate it: cargo run -p sanjuan-cli -- schema --out docs/schemas",
        stale.join(", ")
    );
    assert_eq!(listing(&docs), FILES, "docs/schemas/ holds exactly the schemas");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn schema_out_must_be_a_folder_and_symbolic_links_are_not_followed_out() {
    let dir = temp_dir("hostile");
    let file = dir.join("a-file");
    std::fs::write(&file, "keep").unwrap();
    refused(&["schema", "--out", s(&file)], "is not a folder");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    refused(&["schema", "--out", s(&dir.join("no/such/folder"))], "does not exist; make it first");
    refused(&["schema", "--out", s(&file.join("inside"))], &format!("{} is not a folder", file.display()));
    assert!(!dir.join("no").exists(), "nothing made");
    refused(&["schema", "--out", "/dev/null"], "is not a folder");

    // A link to nothing is refused; a link to a folder is that folder.
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(dir.join("gone"), &dangling).unwrap();
    refused(&["schema", "--out", s(&dangling)], "is a symbolic link to nothing");
    assert!(!dir.join("gone").exists());
    let real = dir.join("real");
    std::fs::create_dir(&real).unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    assert_eq!(run(&["schema", "--out", s(&link)]).0, Some(0));
    assert_eq!(listing(&real), FILES);

    // A schema's name linked to a file elsewhere: the link is replaced, the file it named is untouched.
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "not yours").unwrap();
    let target = real.join("san-juan-ruleset.json");
    std::fs::remove_file(&target).unwrap();
    std::os::unix::fs::symlink(&outside, &target).unwrap();
    assert_eq!(run(&["schema", "--out", s(&real)]).0, Some(0));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "not yours");
    assert!(!std::fs::symlink_metadata(&target).unwrap().file_type().is_symlink());
    // A schema's name taken by a folder: an error naming it, no panic.
    std::fs::remove_file(&target).unwrap();
    std::fs::create_dir(&target).unwrap();
    refused(&["schema", "--out", s(&real)], "san-juan-ruleset.json: it is a folder");
    std::fs::remove_dir_all(&dir).ok();
}

/// docs/rulesets.md's example, run as written in an empty folder: the
/// command prints what the page shows, and the page's ruleset with its
/// `#:schema` line is one `check` loads and the schema accepts.
#[test]
fn the_docs_example_writes_what_the_page_shows_and_its_ruleset_checks() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rulesets.md")).unwrap();
    let section = page.split("## Completion and inline errors in your editor").nth(1).expect("the page's section");
    let console = section.split("```console\n").nth(1).and_then(|b| b.split("```").next()).expect("its command");
    let (command, shown) = console.split_once('\n').expect("a command line, then the output");
    assert_eq!(command, "$ sanjuan schema --out schemas");
    let dir = temp_dir("page");
    let out = common::command().current_dir(&dir).args(["schema", "--out", "schemas"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);

    let ruleset = section.split("```toml\n").nth(1).and_then(|b| b.split("```").next()).expect("its ruleset");
    assert!(ruleset.starts_with("#:schema ./schemas/san-juan-ruleset.json\n"), "{ruleset}");
    std::fs::write(dir.join("dearer-library.toml"), ruleset).unwrap();
    let out = common::command().current_dir(&dir).args(["check", "dearer-library.toml"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}
