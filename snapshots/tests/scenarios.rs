//! Runs every scenario of every game as its own test, named after the file
//! (`cargo test -p sanjuan-snapshots -- palace_34_to_42` runs one), through the
//! same loop as `sanjuan test` (`sanjuan_snapshots::suite`). Scenarios live in
//! `snapshots/<game>/`, their snapshots in `snapshots/<game>/snapshots/`; a
//! changed one is reviewed with `sanjuan test snapshots/<game> --review`.

use std::path::Path;
use std::sync::Arc;

use libtest_mimic::Arguments;

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registry = Arc::new(games::registry());
    let mut all = Vec::new();
    for kind in registry.kinds() {
        let dir = root.join(kind.id());
        if !dir.is_dir() {
            continue;
        }
        match sanjuan_snapshots::trials(&registry, &dir) {
            Ok(t) => all.extend(t),
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    libtest_mimic::run(&args, all).exit_code()
}
