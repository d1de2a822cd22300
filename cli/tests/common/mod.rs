//! Runs the built `sanjuan` binary from the repository root.

use std::process::Command;

/// Runs `sanjuan args…`; returns (success, stdout, stderr).
pub fn sanjuan(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sanjuan"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run sanjuan");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}
