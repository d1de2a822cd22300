//! The `sanjuan` binary: the command line over the games of the `games` registry.

fn main() -> std::process::ExitCode {
    sanjuan_cli::run(games::registry())
}
