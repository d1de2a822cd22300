//! Runs the built `sanjuan` binary from the repository root.

use std::io::Read;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// Where the tests' runs keep the balance bot's models (not the user's cache).
pub fn cache() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("balance-cache")
}

/// Runs `sanjuan args…`; returns (success, stdout, stderr).
pub fn sanjuan(args: &[&str]) -> (bool, String, String) {
    let out = command().args(args).output().expect("run sanjuan");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Runs `sanjuan args…` with `stdin` as its input; returns (success, stdout, stderr).
pub fn sanjuan_with_input(args: &[&str], stdin: &str) -> (bool, String, String) {
    use std::io::Write;
    let mut child = command()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sanjuan");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    // Written from a thread: the program may stop reading (game over) or fill its output pipe first.
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()).ok());
    let out = child.wait_with_output().expect("wait for sanjuan");
    writer.join().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// The built program as a user's shell runs it: from the repository root,
/// with the tests' model cache and `CI` unset (under CI, `sanjuan test` would
/// refuse to record snapshots).
pub fn command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sanjuan"));
    cmd.env("SANJUAN_CACHE", cache()).env_remove("CI").current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd
}

/// Waits for `child` (spawned with piped stdout and stderr), draining both
/// pipes while it runs (a chatty child would block on a full one), and kills
/// it after `deadline`: (exit code, or `None` when killed; stdout; stderr).
pub fn wait_with_deadline(child: &mut Child, deadline: Duration) -> (Option<i32>, String, String) {
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).ok();
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let err = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait for sanjuan") {
            break status.code();
        }
        if start.elapsed() > deadline {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (code, out.join().unwrap_or_default(), err.join().unwrap_or_default())
}

/// A tune search of `ruleset` that ends in a moment (random bots, no model to
/// learn): the command and its values, to which a test adds its own (`--state FILE`).
pub fn quick_tune(ruleset: &str) -> Vec<&str> {
    vec![
        "tune",
        "--ruleset",
        ruleset,
        "--players",
        "2",
        "--param",
        "card.palace.cost=5..6",
        "--target",
        "seat_advantage=-60..60",
        "--bot",
        "random",
        "--games-budget",
        "8",
        "--first-games",
        "2",
        "--quiet",
    ]
}

/// The port a `sanjuan serve` child printed on its first line, and the rest of its output.
pub fn served_port(child: &mut std::process::Child) -> (u16, std::io::BufReader<std::process::ChildStdout>) {
    use std::io::BufRead;
    let mut out = std::io::BufReader::new(child.stdout.take().expect("a piped stdout"));
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port = line.split("http://").nth(1).and_then(|r| r.split('/').next()).and_then(|a| a.rsplit(':').next());
    let port = port.and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("no address in `{line}`"));
    (port, out)
}
