//! Runs the built `sanjuan` binary from the repository root.

use std::process::Command;

/// Where the tests' runs keep the balance bot's models (not the user's cache).
pub fn cache() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("balance-cache")
}

/// Runs `sanjuan args…`; returns (success, stdout, stderr).
pub fn sanjuan(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sanjuan"))
        .env("SANJUAN_CACHE", cache())
        // As a user's shell runs it: under CI, `sanjuan test` would refuse to record snapshots.
        .env_remove("CI")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run sanjuan");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Runs `sanjuan args…` with `stdin` as its input; returns (success, stdout, stderr).
pub fn sanjuan_with_input(args: &[&str], stdin: &str) -> (bool, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sanjuan"))
        .env("SANJUAN_CACHE", cache())
        // As a user's shell runs it: under CI, `sanjuan test` would refuse to record snapshots.
        .env_remove("CI")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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
