//! `sanjuan serve`: the web table (the `sanjuan-web` crate) with its limits
//! from the command line, and the key that seals downloads of games in progress.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use engine_game::models::Readiness;
use engine_game::{AnyRules, Models};

use crate::CmdResult;

/// `sanjuan serve`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// The port (0: any free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; the default serves this computer only
    /// (`0.0.0.0`: everyone on the network who has a seat's link).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A ruleset file (or id) to offer besides the built-in ones; repeat for more.
    #[arg(long = "ruleset", value_name = "RULESET")]
    rulesets: Vec<String>,
    /// The most tables held at once; beyond, a new table is refused until one is freed.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_tables: u32,
    /// Minutes after which a table nobody moves at is freed (a finished one after 30); looking does not count.
    #[arg(long, default_value_t = 360, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    idle_minutes: u32,
    /// Tables one address may make or resume per minute.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    tables_per_minute: u32,
    /// Tables one address may hold at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    tables_per_address: u32,
    /// When the server holds its most tables, the table nobody has moved at for
    /// this many minutes gives way to a new visitor's (0: at once).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    reclaim_minutes: u32,
    /// Moves, undos and takeovers one seat may make in a second (and undos in ten seconds).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    moves_per_second: u32,
    /// Seconds another person's seat must have been deciding before anyone at the table may hand it to a bot.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(0..=86_400))]
    takeover_after: u32,
    /// A file with the key that seals downloads of games in progress (64 hex
    /// digits; made when missing). Without it the key is new at every start,
    /// so a sealed download continues only at this run of the server.
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// Learn no balance model at start: a ruleset whose model is not in the
    /// cache learns it at its first table with a balance bot.
    #[arg(long)]
    no_learn: bool,
}

/// Checks every ruleset file loads, fills the balance models from the disk
/// cache, then serves until stopped, learning the missing models meanwhile.
pub fn run(args: Args) -> CmdResult {
    for spec in &args.rulesets {
        crate::games::load(spec)?;
    }
    let models = Arc::new(Models::new());
    let missing = cached_models(&offered(&args.rulesets)?, &models);
    let learn = if args.no_learn { Vec::new() } else { missing };
    let key = match &args.key_file {
        Some(path) => key_from(path)?,
        None => sanjuan_web::seal::fresh_key(),
    };
    let config = sanjuan_web::Config {
        host: args.host,
        port: args.port,
        rulesets: args.rulesets,
        max_tables: args.max_tables as usize,
        idle: Duration::from_secs(u64::from(args.idle_minutes) * 60),
        tables_per_minute: args.tables_per_minute as usize,
        tables_per_address: args.tables_per_address as usize,
        reclaim: Duration::from_secs(u64::from(args.reclaim_minutes) * 60),
        moves_per_second: args.moves_per_second as usize,
        takeover_after: Duration::from_secs(args.takeover_after.into()),
        key,
        registry: std::sync::Arc::new(crate::games::registry().clone()),
        models: Arc::clone(&models),
        ..sanjuan_web::Config::default()
    };
    sanjuan_web::run(config, move |addr| {
        println!(
            "sanjuan serve: open http://{addr}/ to make a table; each person's seat has its own link. Ctrl-C stops."
        );
        if !learn.is_empty() {
            // After the server listens: tables open meanwhile, and say how far the learning is.
            std::thread::spawn(move || learn_all(&learn, &models));
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Every ruleset the server offers: each game's default ruleset first (what a
/// table is most often made with, so learned first), then the other built-in
/// ones, then the files given.
fn offered(files: &[String]) -> Result<Vec<Arc<dyn AnyRules>>, String> {
    let registry = crate::games::registry();
    let mut specs: Vec<String> = registry.kinds().iter().map(|k| k.default_ruleset().to_owned()).collect();
    for kind in registry.kinds() {
        let ids = kind.builtins().ruleset_ids().into_iter().filter(|id| id != kind.default_ruleset());
        specs.extend(ids);
    }
    specs.extend(files.iter().cloned());
    specs.iter().map(|spec| crate::games::load(spec)).collect()
}

/// Gives `models` every model of these rulesets the disk cache holds; returns
/// the rulesets whose model it does not hold (each content once).
fn cached_models(rulesets: &[Arc<dyn AnyRules>], models: &Models) -> Vec<Arc<dyn AnyRules>> {
    let mut missing: Vec<Arc<dyn AnyRules>> = Vec::new();
    for rs in rulesets {
        let known = |r: &Arc<dyn AnyRules>| r.game_id() == rs.game_id() && r.fingerprint() == rs.fingerprint();
        if !crate::balance::from_cache(rs.as_ref(), models) && !missing.iter().any(known) {
            missing.push(Arc::clone(rs));
        }
    }
    missing
}

/// Learns each ruleset's model in turn (written to the disk cache), saying how far it is.
fn learn_all(rulesets: &[Arc<dyn AnyRules>], models: &Arc<Models>) {
    for rs in rulesets {
        let (game, fingerprint) = (rs.game_id(), rs.fingerprint().to_owned());
        eprintln!("sanjuan serve: learning the balance bot's model for {} (once; then it is cached)", rs.id());
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let watch = {
            let models = Arc::clone(models);
            let id = rs.id().to_owned();
            std::thread::spawn(move || {
                let mut told = 0;
                // Until the learning ends (the sender goes): a line at every tenth.
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    done_rx.recv_timeout(Duration::from_millis(500))
                {
                    if let Readiness::Learning { done, all } = models.readiness(game, &fingerprint)
                        && all > 0
                        && done * 10 / all > told
                    {
                        told = done * 10 / all;
                        eprintln!("sanjuan serve: {id}: {}% learned ({done} of {all} self-play games)", told * 10);
                    }
                }
            })
        };
        let learned = crate::balance::prepare(rs.as_ref(), models, false);
        drop(done_tx);
        watch.join().ok();
        match learned {
            // A table may have learned it first (then `prepare` found it ready): cached all the same.
            Ok(model) => crate::balance::store(rs.as_ref(), &model),
            Err(e) => eprintln!("sanjuan serve: the balance bot's model for {} was not learned: {e}", rs.id()),
        }
    }
}

/// The key in `path`, or a new one written there (readable by its owner only).
fn key_from(path: &Path) -> Result<[u8; 32], String> {
    // A key is one line: read bounded, and only from a regular file (a pipe would block).
    match engine_rules::files::read_text(path, 4096, "a key file") {
        Ok(text) => sanjuan_web::seal::parse_key(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = sanjuan_web::seal::fresh_key();
            write_private(path, &(sanjuan_web::seal::key_text(&key) + "\n"))
                .map_err(|e| format!("{}: cannot write the new key: {e}", path.display()))?;
            eprintln!("sanjuan serve: a new key for sealed downloads is in {}", path.display());
            Ok(key)
        }
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Writes a new file that only its owner may read, beside-and-rename so it is
/// never half written: the temporary file is made as every one is
/// (`engine_rules::files::temp_beside`: an unpredictable name, created
/// exclusively) and made private before the key is written into it.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let (mut file, aside) = engine_rules::files::temp_beside(path)?;
    let written = (|| {
        #[cfg(unix)]
        file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&aside, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&aside);
    }
    written
}
