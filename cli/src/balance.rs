//! The balance bot's learned model on disk: a cache keyed by the ruleset's
//! content fingerprint, so a study learns each ruleset once, and
//! `sanjuan learn`, which shows what the bot learned. A command keeps one
//! [`Models`] for its run; the disk cache fills it before the games start.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use engine_play::value::{StartedFrom, ValueModel};

use engine_game::{AnyRules, Models};

use crate::CmdResult;

/// Where models are kept: `$SANJUAN_CACHE`, else `$XDG_CACHE_HOME/sanjuan`, else `~/.cache/sanjuan`.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("SANJUAN_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("sanjuan")))
        .or_else(|| var("HOME").map(|d| d.join(".cache/sanjuan")))
}

/// The cache file of a model for this content.
fn cache_file(game: &str, fingerprint: &str) -> Option<PathBuf> {
    Some(cache_dir()?.join(format!("balance-{game}-{fingerprint}.json")))
}

/// Reads a model file.
pub fn read_model(path: &std::path::Path) -> Result<ValueModel, String> {
    // Bounded, and only a regular file (a pipe in the cache would block).
    let text = engine_rules::Source::Disk(path.to_path_buf()).read().map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a balance model: {e}", path.display()))
}

/// Writes a model file (creating its folder).
pub fn write_model(path: &std::path::Path, model: &ValueModel) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot write {}: its folder {}: {e}", path.display(), dir.display()))?;
    }
    let text = serde_json::to_string_pretty(model).map_err(|e| e.to_string())?;
    // Written aside and renamed: a study's other processes never read half a file.
    crate::output::write_file(path, text + "\n")
}

/// Gives `models` the ruleset's balance model from the disk cache, if the cache
/// holds one for this content (a file that does not fit is passed over), and
/// first its base's ([`AnyRules::base`]); whether the model is there now.
pub fn from_cache(rs: &dyn AnyRules, models: &Models) -> bool {
    if models.get(rs.game_id(), rs.fingerprint()).is_some() {
        return true;
    }
    let start = match rs.base() {
        Ok(Some(base)) if from_cache(base.as_ref(), models) => models.get(base.game_id(), base.fingerprint()),
        Ok(None) => None,
        _ => return false,
    };
    cached(rs, start.as_deref()).and_then(|m| models.give(rs, m)).is_ok()
}

/// The model the disk cache holds for `rs`, if it fits the content and was
/// learned from `start` (the base's model) as `rs` would learn it now.
fn cached(rs: &dyn AnyRules, start: Option<&ValueModel>) -> Result<ValueModel, String> {
    let path = cache_file(rs.game_id(), rs.fingerprint()).ok_or("no cache folder")?;
    if !path.exists() {
        return Err("not cached".into());
    }
    let model = read_model(&path)?;
    let wanted = start.map(StartedFrom::of);
    if model.start != wanted {
        let from = |s: &Option<StartedFrom>| {
            s.as_ref().map_or("the rules of thumb".to_owned(), |s| format!("{}'s model ({})", s.ruleset, s.fingerprint))
        };
        return Err(format!(
            "{}: the model there was learned from {}, this ruleset learns from {}",
            path.display(),
            from(&model.start),
            from(&wanted)
        ));
    }
    Ok(model)
}

/// Writes the ruleset's model to the disk cache unless the cache holds it already.
pub fn store(rs: &dyn AnyRules, model: &ValueModel) {
    if let Some(path) = cache_file(rs.game_id(), rs.fingerprint())
        && !path.exists()
        && let Err(e) = write_model(&path, model)
    {
        eprintln!("note: the model is not cached: {e}");
    }
}

/// Makes the ruleset's balance model ready in `models`: from the disk cache when
/// it holds one for this content, else learned now (and cached), its base's
/// first ([`AnyRules::base`]: a change of a built-in ruleset starts from that
/// one's model). Says so on stderr unless `quiet`.
pub fn prepare(rs: &dyn AnyRules, models: &Models, quiet: bool) -> Result<Arc<ValueModel>, String> {
    if let Some(model) = models.get(rs.game_id(), rs.fingerprint()) {
        return Ok(model);
    }
    let start = rs.base()?.map(|base| prepare(base.as_ref(), models, quiet)).transpose()?;
    match cached(rs, start.as_deref()).and_then(|m| models.give(rs, m)) {
        Ok(()) => return models.of(rs),
        Err(e) if !quiet && cache_file(rs.game_id(), rs.fingerprint()).is_some_and(|p| p.exists()) => {
            eprintln!("note: {e}; learning again")
        }
        Err(_) => {}
    }
    let clock = Instant::now();
    let model = models.of(rs)?;
    if !quiet {
        eprintln!(
            "learned the balance bot's values for {} by self-play in {:.1} s ({}, {} thread{})",
            rs.id(),
            clock.elapsed().as_secs_f64(),
            how_learned(&model, start.as_deref()),
            rayon::current_num_threads(),
            if rayon::current_num_threads() == 1 { "" } else { "s" }
        );
    }
    if let Some(path) = cache_file(rs.game_id(), rs.fingerprint())
        && let Err(e) = write_model(&path, &model)
        && !quiet
    {
        eprintln!("note: the model is not cached: {e}");
    }
    Ok(model)
}

/// How a model was learned, in words: its games, and the model it started from.
fn how_learned(model: &ValueModel, start: Option<&ValueModel>) -> String {
    let games = format!("{} games × {} round{}", model.games, model.rounds, if model.rounds == 1 { "" } else { "s" });
    match start {
        None => format!("{games} from the rules of thumb up"),
        Some(s) => {
            let kept = model.features.iter().filter(|f| s.features.contains(f)).count();
            let from = match model.by_start {
                true => format!("played by {}'s model, starting from its weights", s.ruleset),
                false => format!("starting from {}'s model", s.ruleset),
            };
            format!(
                "{games}, {from}: {kept} of its {} features kept, {} new",
                s.features.len(),
                model.features.len() - kept
            )
        }
    }
}

/// Whether the bot `name` plays by the balance model: the balance bot, nudged
/// or blurred, or a search whose playouts it plays.
pub fn uses_model(name: &str) -> bool {
    engine_play::bots::BotSpec::parse(name).is_ok_and(|b| b.uses_model())
}

/// [`prepare`] if one of these seats plays by the balance model ([`uses_model`]):
/// otherwise each game's first use would learn it afresh, and not cache it.
pub fn prepare_for(rs: &dyn AnyRules, models: &Models, seats: &[String], quiet: bool) -> Result<(), String> {
    if seats.iter().any(|b| uses_model(b)) {
        prepare(rs, models, quiet)?;
    }
    Ok(())
}

/// Arguments of `sanjuan learn`.
#[derive(clap::Args)]
pub struct Args {
    /// Ruleset id or path.
    #[arg(long, default_value = crate::games::default_ruleset())]
    ruleset: String,
    /// Also write the model to this file (JSON; the cache's format).
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Learns (or reads from the cache) the balance bot's model and prints its weights.
pub fn run(args: Args) -> CmdResult {
    let rs = crate::games::load(&args.ruleset)?;
    let models = Models::new();
    let model = prepare(rs.as_ref(), &models, false)?;
    let start = model.start.as_ref().and_then(|s| models.get(rs.game_id(), &s.fingerprint));
    println!(
        "{} | ruleset {} | balance bot: what each feature adds to a seat's expected final margin over the mean other player, in points (learned by self-play: {})",
        rs.title(),
        model.ruleset,
        how_learned(&model, start.as_deref())
    );
    for (name, w) in model.features.iter().zip(&model.weights) {
        println!("{name:<44} {w:>+9.3}");
    }
    if let Some(path) = &args.output {
        write_model(path, &model)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cached model must play exactly as the one learned: weights whose
    /// decimal form a fast parser rounds wrongly once made a study with a warm
    /// cache play other games than the same study with a cold one.
    #[test]
    fn a_model_file_reads_back_bit_for_bit() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut weights: Vec<f64> =
            vec![0.1 + 0.2, 1.0 / 3.0, -2.2250738585072014e-308, 5e-324, 1.7976931348623157e308];
        for _ in 0..5000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Finite values of every magnitude a regression can produce.
            let w = f64::from_bits(rng);
            weights.push(if w.is_finite() { w } else { (rng >> 11) as f64 * 1e-9 });
        }
        let model = ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "g".to_owned(),
            ruleset: "r".to_owned(),
            fingerprint: "f".to_owned(),
            games: 1,
            rounds: 1,
            seed: 1,
            features: (0..weights.len()).map(|i| format!("x{i}")).collect(),
            weights,
            by_start: false,
            memos: Default::default(),
        };
        let dir = std::env::temp_dir().join(format!("sanjuan-model-roundtrip-{}", std::process::id()));
        let path = dir.join("m.json");
        write_model(&path, &model).unwrap();
        let back = read_model(&path).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        let bits = |m: &ValueModel| m.weights.iter().map(|w| w.to_bits()).collect::<Vec<_>>();
        let wrong = bits(&model).iter().zip(bits(&back)).filter(|(a, b)| **a != *b).count();
        assert_eq!(wrong, 0, "{wrong} of {} weights changed on the way through the file", model.weights.len());
    }

    #[test]
    fn learn_says_who_played_the_first_round_and_the_file_keeps_it() {
        let base = ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "g".to_owned(),
            ruleset: "base".to_owned(),
            fingerprint: "b".to_owned(),
            games: 1500,
            rounds: 3,
            seed: 1,
            features: vec!["bias".to_owned(), "money".to_owned()],
            weights: vec![0.0, 0.5],
            by_start: false,
            memos: Default::default(),
        };
        let mut design = ValueModel {
            ruleset: "design".to_owned(),
            fingerprint: "d".to_owned(),
            rounds: 1,
            start: Some(engine_play::value::StartedFrom::of(&base)),
            features: vec!["bias".to_owned(), "money".to_owned(), "thief".to_owned()],
            weights: vec![0.0, 0.4, 1.0],
            by_start: true,
            ..base.clone()
        };
        assert_eq!(how_learned(&base, None), "1500 games × 3 rounds from the rules of thumb up");
        assert_eq!(
            how_learned(&design, Some(&base)),
            "1500 games × 1 round, played by base's model, starting from its weights: 2 of its 2 features kept, 1 new"
        );
        let dir = std::env::temp_dir().join(format!("sanjuan-model-by-start-{}", std::process::id()));
        let path = dir.join("m.json");
        write_model(&path, &design).unwrap();
        let back = read_model(&path).unwrap();
        assert_eq!(back, design);
        design.by_start = false;
        assert_eq!(
            how_learned(&design, Some(&base)),
            "1500 games × 1 round, starting from base's model: 2 of its 2 features kept, 1 new"
        );
        write_model(&path, &design).unwrap();
        assert!(!std::fs::read_to_string(&path).unwrap().contains("by_start"), "the flag is written only when set");
        assert_eq!(read_model(&path).unwrap(), design);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn every_bot_that_plays_by_the_model_gets_it_from_the_cache() {
        // Each of these once learned the model afresh in every run (and every
        // shard of a search), uncached, since only the plain name was looked for.
        for bot in [
            "balance",
            "balance~0.5",
            "balance+built:well=0.5",
            "balance+built:well=1~2",
            "mcts-balance:40",
            "paired-balance:9",
        ] {
            assert!(uses_model(bot), "{bot}");
        }
        for bot in ["random", "greedy", "mcts", "mcts:200", "balancer", "balance~0"] {
            assert!(!uses_model(bot), "{bot}");
        }
    }
}
