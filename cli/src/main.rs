//! The `sanjuan` binary: the command line over the games of the `games` registry.

/// mimalloc instead of the system allocator: a game makes and drops small
/// vectors and script values at every step, and glibc's `malloc`/`free` were
/// 5–7% of a game's instructions (ARCHITECTURE.md, Speed). Only the
/// binary chooses; the libraries allocate through whatever it picks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    sanjuan_cli::run(games::registry())
}
