//! Adding a game is a crate and one registry line: the toy game High-Low
//! (`core/toy`, which no front end names) is put in a registry beside the
//! built-in games, and then simulated, checked, replayed, reported, played at
//! the terminal, run as a scenario and snapshot-tested by the command line,
//! and played to its end at the web table, with no front-end code of its own.
//!
//! The test binary is its own `sanjuan`: run with `AS_SANJUAN` set, it is the
//! command line over the registry with the toy added; run by `cargo test`, it
//! runs its checks, spawning itself as that command line.

use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;

use engine_game::{Kind, KindOf, Registry};

/// The one line a new game needs.
static TOY: KindOf<toy::Game> = KindOf::new();

/// The built-in games and the toy.
fn registry() -> Registry {
    let mut kinds: Vec<&'static dyn Kind> = games::registry().kinds().to_vec();
    kinds.push(&TOY);
    Registry::new(kinds)
}

fn main() -> ExitCode {
    if std::env::var_os("AS_SANJUAN").is_some() {
        return sanjuan_cli::run(registry());
    }
    let checks: [(&str, fn()); 4] = [
        ("the command line runs every command on the toy game", command_line),
        ("a person plays the toy game at the terminal, saves, replays and resumes", terminal),
        ("the web table serves the toy game to its end", web_table),
        ("the shipped binary's registry does not have the toy", shipped_registry),
    ];
    for (name, check) in checks {
        check();
        println!("test {name} ... ok");
    }
    println!("test result: ok. {} passed", checks.len());
    ExitCode::SUCCESS
}

/// Runs this binary as `sanjuan args…` with `stdin`: (success, stdout, stderr).
fn sanjuan(args: &[&str], stdin: &str) -> (bool, String, String) {
    use std::io::Write;
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("registry-balance-cache");
    let mut child = Command::new(std::env::current_exe().expect("the test binary"))
        .env("AS_SANJUAN", "1")
        .env("SANJUAN_CACHE", cache)
        .env_remove("CI")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the test binary as sanjuan");
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()).ok());
    let out = child.wait_with_output().expect("wait for it");
    writer.join().expect("the writer");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn ok(args: &[&str]) -> String {
    let (ok, out, err) = sanjuan(args, "");
    assert!(ok, "sanjuan {}: failed\n{out}\n{err}", args.join(" "));
    out
}

fn command_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let records = dir.path().join("records.jsonl");
    let saved = dir.path().join("games");
    let cards = ok(&["cards", "--ruleset", "high-low"]);
    assert!(cards.starts_with("High-Low (high-low)"), "{cards}");
    let check = ok(&["check", "--ruleset", "high-low", "--games", "30"]);
    assert!(check.contains("ok: 30 random games (2 to 4 players)"), "{check}");

    // The default bot is the balance bot: the toy's model is learned and cached like any game's.
    let args = ["simulate", "--ruleset", "high-low", "--games", "200", "--players", "3", "--seed", "5", "--quiet"];
    let paths = [records.to_str().unwrap(), saved.to_str().unwrap()];
    let out = ok(&[&args[..], &["--json-lines", paths[0], "--save-games", paths[1]]].concat());
    assert!(out.starts_with("High-Low | ruleset high-low | 200 games, 3 players, seed 5 | bots balance"), "{out}");
    let lines = std::fs::read_to_string(&records).expect("the records");
    assert_eq!(lines.lines().count(), 200);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).expect("a record");
    assert_eq!(first["game"], "toy");

    let report = ok(&["report", paths[0]]);
    assert!(report.contains("High-Low") && report.contains("200 games"), "{report}");

    // A saved bot game replays to the record's scores.
    let game0 = saved.join(format!("game-{}.toml", first["index"]));
    let json = ok(&["replay", game0.to_str().unwrap(), "--json"]);
    let view: serde_json::Value = serde_json::from_str(&json).expect("the final view");
    let scores: Vec<i64> = view["players"].as_array().unwrap().iter().map(|p| p["score"].as_i64().unwrap()).collect();
    let recorded: Vec<i64> = first["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
    assert_eq!(scores, recorded, "{json}");
    let text = ok(&["replay", game0.to_str().unwrap()]);
    assert!(text.lines().count() > 5, "{text}");

    // The worked example as a scenario: checked, scored, and snapshot-tested from a designer's folder.
    let example = "cards/toy/scenarios/beat-the-top.toml";
    let (passed, _, err) = sanjuan(&["scenario", example, "--check"], "");
    assert!(passed && err.contains("check: ok"), "{err}");
    assert!(ok(&["score", example]).starts_with("seat 0: 6"));
    let folder = dir.path().join("scenarios");
    std::fs::create_dir(&folder).expect("a folder");
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(example)).expect("the example");
    std::fs::write(folder.join("beat.toml"), text).expect("a scenario");
    let run = ok(&["test", folder.to_str().unwrap()]);
    assert!(run.contains("PASS beat"), "{run}");
    assert!(folder.join("snapshots/beat.snap").is_file(), "{run}");

    // Its files' JSON Schemas, from the structs it reads them into.
    let schema = ok(&["schema", "--game", "toy", "--kind", "scenario"]);
    assert!(schema.contains("\"title\": \"High-Low scenario\"") && schema.contains("\"from_game\""), "{schema}");
    let schemas = dir.path().join("schemas");
    ok(&["schema", "--game", "toy", "--out", schemas.to_str().unwrap()]);
    let ruleset = std::fs::read_to_string(schemas.join("toy-ruleset.json")).expect("the ruleset's schema");
    assert!(ruleset.contains("\"rounds\"") && schemas.join("toy-scenario.json").is_file(), "{ruleset}");
}

fn terminal() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("game.toml");
    let path = file.to_str().unwrap();
    let args = ["play", "--ruleset", "high-low", "--players", "2", "--seed", "4", "--save", path];
    let (ok_, out, err) = sanjuan(&args, "1\n1\nquit\n");
    assert!(ok_, "{out}\n{err}");
    assert!(out.starts_with("High-Low — High-Low (2 players)"), "{out}");
    assert!(err.contains("saved to "), "{err}");
    let saved = std::fs::read_to_string(&file).expect("the saved game");
    assert!(saved.contains("\"human\""), "{saved}");
    // Played on to its end after a resume; the end names the winner, and the file replays.
    let answers = "1\n".repeat(200);
    let (ok_, end, err) = sanjuan(&["play", "--resume", path], &answers);
    assert!(ok_, "{end}\n{err}");
    assert!(end.contains("Resumed after "), "{end}");
    let json = ok(&["replay", path, "--json"]);
    let view: serde_json::Value = serde_json::from_str(&json).expect("the final view");
    assert!(view["to_move"].is_null(), "the game ended: {json}");
}

fn web_table() {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let config = sanjuan_web::Config { port: 0, registry: Arc::new(registry()), ..sanjuan_web::Config::default() };
        let server = sanjuan_web::Server::new(config);
        let call = |method: &str, uri: String, body: Option<String>| {
            let server = Arc::clone(&server);
            let req = Request::builder().method(method).uri(uri).header("content-type", "application/json");
            let req = req.body(body.map_or_else(Body::empty, Body::from)).expect("a request");
            async move {
                let res = sanjuan_web::app(server).oneshot(req).await.expect("a response");
                let status = res.status().as_u16();
                let bytes = res.into_body().collect().await.expect("the body").to_bytes();
                (status, serde_json::from_slice::<serde_json::Value>(&bytes).unwrap_or_default())
            }
        };
        let (status, rulesets) = call("GET", "/api/rulesets".into(), None).await;
        assert_eq!(status, 200);
        assert!(rulesets.as_array().unwrap().iter().any(|r| r["id"] == "high-low" && r["game"] == "High-Low"));
        let body = serde_json::json!({ "ruleset": "high-low", "seats": ["human", "greedy"], "seed": 9 }).to_string();
        let (status, made) = call("POST", "/api/tables".into(), Some(body)).await;
        assert_eq!(status, 200, "{made}");
        let id = made["table"].as_str().unwrap().to_owned();
        let token = made["seats"][0]["token"].as_str().unwrap().to_owned();
        for _ in 0..500 {
            let (status, s) = call("GET", format!("/api/tables/{id}/state?token={token}"), None).await;
            assert_eq!(status, 200, "{s}");
            assert_eq!(s["game"], "toy");
            // The other seat's hand never reaches this seat.
            assert!(s["view"]["players"][1]["hand"].is_null(), "{s}");
            if s["over"] == true {
                assert!(s["final_scores"]["winners"].is_array(), "{s}");
                let (status, record) = call("GET", format!("/api/tables/{id}/record?token={token}"), None).await;
                assert_eq!(status, 200, "{record}");
                return;
            }
            if s["to_move"] != 0 {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                continue;
            }
            let choice = serde_json::json!({ "token": token, "choice": 0, "version": s["version"] }).to_string();
            let (status, v) = call("POST", format!("/api/tables/{id}/act"), Some(choice)).await;
            assert!(status == 200 || status == 409, "{status} {v}");
        }
        panic!("the web game did not end");
    });
}

fn shipped_registry() {
    let ids: Vec<&str> = games::registry().kinds().iter().map(|k| k.id()).collect();
    assert!(!ids.contains(&"toy"), "{ids:?}");
    assert_eq!(registry().kinds().len(), ids.len() + 1);
}
