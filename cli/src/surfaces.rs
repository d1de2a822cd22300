//! Every input this program takes, in one list: each command-line value, each
//! kind of file it reads, standard input, and each HTTP request of `serve`.
//!
//! The list is checked both ways. A unit test compares its command-line
//! entries with the command tree (every value argument of every subcommand
//! must have an entry, and every entry must be an argument), and a test of the
//! web crate compares its HTTP entries with the server's routes; the
//! hostile-input test (`cli/tests/cli/hostile.rs`) generates inputs for every
//! entry and fails on an entry it has no generator for. A parser or reader
//! added without an entry here fails a test.
//!
//! The rules every surface keeps: a bad input is refused with a message that
//! names the file and line (or the argument, or the request) and the fix;
//! every file read is a regular file read with a size bound (`engine_rules::
//! files::read_text`; a device only where the user names one for stdin), and
//! every file written goes through one atomic writer (`crate::output`).

/// How an input reaches the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A command-line value: `simulate --games`, `replay <file>`.
    Arg,
    /// A kind of file read (named on the command line, by another file, or found in a cache).
    File,
    /// Standard input.
    Stdin,
    /// An HTTP request to `sanjuan serve` (method and route).
    Http,
}

/// One input surface.
#[derive(Clone, Copy, Debug)]
pub struct Surface {
    /// Its name: `simulate --games`, `replay <file>`, `file: tune state`, `stdin: play`, `POST /api/tables`.
    pub name: &'static str,
    /// How it arrives.
    pub via: Via,
}

const fn arg(name: &'static str) -> Surface {
    Surface { name, via: Via::Arg }
}

const fn file(name: &'static str) -> Surface {
    Surface { name, via: Via::File }
}

/// Every input surface.
pub const SURFACES: &[Surface] = &[
    // ----- command-line values (the unit test below keeps this part equal to the command tree)
    arg("simulate --games"),
    arg("simulate --players"),
    arg("simulate --seed"),
    arg("simulate --seed-start"),
    arg("simulate --shard"),
    arg("simulate --ruleset"),
    arg("simulate --bots"),
    arg("simulate --jobs"),
    arg("simulate --json-lines"),
    arg("simulate --save-games"),
    arg("tune --ruleset"),
    arg("tune --players"),
    arg("tune --param"),
    arg("tune --target"),
    arg("tune --games-budget"),
    arg("tune --first-games"),
    arg("tune --max-candidates"),
    arg("tune --bot"),
    arg("tune --seed"),
    arg("tune --out"),
    arg("tune --state"),
    arg("tune --resume"),
    arg("tune --shard"),
    arg("tune --jobs"),
    arg("serve --port"),
    arg("serve --host"),
    arg("serve --ruleset"),
    arg("serve --max-tables"),
    arg("serve --idle-minutes"),
    arg("serve --tables-per-minute"),
    arg("serve --tables-per-address"),
    arg("serve --reclaim-minutes"),
    arg("serve --moves-per-second"),
    arg("serve --takeover-after"),
    arg("serve --key-file"),
    arg("learn --ruleset"),
    arg("learn --output"),
    arg("schema --game"),
    arg("schema --kind"),
    arg("schema --out"),
    arg("bench --games"),
    arg("bench --mcts-moves"),
    arg("bench --seed"),
    arg("bench --ruleset"),
    arg("bench --bot"),
    arg("bench --players"),
    arg("play --players"),
    arg("play --seat"),
    arg("play --seed"),
    arg("play --ruleset"),
    arg("play --bots"),
    arg("play --save"),
    arg("play --resume"),
    arg("replay <file>"),
    arg("scenario <file>"),
    arg("score <file>"),
    arg("cards --ruleset"),
    arg("cards --diff"),
    arg("check --ruleset"),
    arg("check <path>"),
    arg("check --games"),
    arg("report <files>"),
    arg("report --html"),
    arg("report --compare"),
    arg("report --ruleset-a"),
    arg("report --ruleset-b"),
    arg("report --check-bot"),
    arg("report --check-with"),
    arg("report --ruleset"),
    arg("report --jobs"),
    arg("merge <files>"),
    arg("merge --output"),
    arg("test <path>"),
    arg("test --filter"),
    arg("test --ruleset-a"),
    arg("test --ruleset-b"),
    // ----- kinds of file read
    file("file: ruleset (San Juan)"),
    file("file: ruleset (Alhambra)"),
    file("file: card set"),
    file("file: script"),
    file("file: ruleset scripts (San Juan)"),
    file("file: scenario (San Juan)"),
    file("file: scenario (Alhambra)"),
    file("file: saved game"),
    file("file: JSON-lines records"),
    file("file: tune state"),
    file("file: snapshot (.snap)"),
    file("file: test folder"),
    file("file: model cache"),
    file("file: key file"),
    // ----- standard input
    // The action notation (`build library spend sugar_mill@1 pay well`) has no
    // entry of its own: it arrives in a scenario's and a saved game's actions, a
    // `play` line and an `act` request, whose generators write its words (`@` seats too).
    Surface { name: "stdin: play", via: Via::Stdin },
    Surface { name: "stdin: test --review", via: Via::Stdin },
    // ----- HTTP requests of `serve` (a test of the web crate keeps these equal to its routes)
    Surface { name: "POST /api/tables", via: Via::Http },
    Surface { name: "POST /api/resume", via: Via::Http },
    Surface { name: "POST /api/tables/{table}/act", via: Via::Http },
    Surface { name: "POST /api/tables/{table}/undo", via: Via::Http },
    Surface { name: "POST /api/tables/{table}/takeover", via: Via::Http },
    Surface { name: "POST /api/tables/{table}/name", via: Via::Http },
    Surface { name: "GET /api/tables/{table}/state", via: Via::Http },
    Surface { name: "GET /api/tables/{table}/save", via: Via::Http },
    Surface { name: "GET /api/tables/{table}/cards", via: Via::Http },
    Surface { name: "GET /api/tables/{table}/record", via: Via::Http },
    Surface { name: "GET /api/tables/{table}/scenario", via: Via::Http },
    Surface { name: "GET /api/tables/{table}/why", via: Via::Http },
    Surface { name: "GET /api/rulesets", via: Via::Http },
    Surface { name: "GET /assets/{name}", via: Via::Http },
    Surface { name: "GET /play/{table}/{token}", via: Via::Http },
    Surface { name: "GET /", via: Via::Http },
];

/// The command-line value arguments of the command tree, named as [`SURFACES`]
/// names them (`simulate --games`, `replay <file>`).
pub fn value_arguments(root: &clap::Command) -> Vec<String> {
    let mut out = Vec::new();
    for sub in root.get_subcommands() {
        for a in sub.get_arguments() {
            if !a.get_action().takes_values() {
                continue;
            }
            let name = match a.get_long() {
                Some(long) => format!("{} --{long}", sub.get_name()),
                None => format!("{} <{}>", sub.get_name(), a.get_id()),
            };
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_argument_of_the_command_tree_is_a_listed_surface_and_back() {
        use clap::CommandFactory;
        let tree = value_arguments(&crate::Cli::command());
        let listed: Vec<&str> = SURFACES.iter().filter(|s| s.via == Via::Arg).map(|s| s.name).collect();
        let missing: Vec<&String> = tree.iter().filter(|t| !listed.contains(&t.as_str())).collect();
        assert!(missing.is_empty(), "value arguments with no entry in surfaces::SURFACES: {missing:?}");
        let stale: Vec<&&str> = listed.iter().filter(|l| !tree.iter().any(|t| t == *l)).collect();
        assert!(stale.is_empty(), "entries of surfaces::SURFACES that are no argument: {stale:?}");
        // The server's routes, read from its source (the web crate cannot see this list).
        let web = include_str!("../../web/src/lib.rs");
        let mut routes = Vec::new();
        for piece in web.split(".route(").skip(1) {
            let piece = piece.trim_start();
            let Some(rest) = piece.strip_prefix('"') else { continue };
            let Some((path, after)) = rest.split_once('"') else { continue };
            let after = after.trim_start_matches([',', ' ', '\n']);
            let method = if after.starts_with("post(") { "POST" } else { "GET" };
            routes.push(format!("{method} {path}"));
        }
        assert!(routes.len() >= 10, "the routes were not found in web/src/lib.rs: {routes:?}");
        let http: Vec<&str> = SURFACES.iter().filter(|s| s.via == Via::Http).map(|s| s.name).collect();
        let unlisted: Vec<&String> = routes.iter().filter(|r| !http.contains(&r.as_str())).collect();
        assert!(unlisted.is_empty(), "routes of `serve` with no entry in surfaces::SURFACES: {unlisted:?}");
        let gone: Vec<&&str> = http.iter().filter(|h| !routes.iter().any(|r| r == *h)).collect();
        assert!(gone.is_empty(), "entries of surfaces::SURFACES that are no route: {gone:?}");
        let mut names: Vec<&str> = SURFACES.iter().map(|s| s.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a surface is listed twice");
    }
}
