//! `sanjuan tune`: searches a ruleset's numbers for values that meet a target
//! in bot games. The search is `engine-tune`'s; here are the files (candidate
//! rulesets, the state, the tuned ruleset), the games in parallel and the
//! printing.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use engine_game::{AnyRules, Models};
use engine_tune::{Param, Reason, Settings, ShardPart, State, Tally, Target, Work};
use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::CmdResult;

/// The games a search may play when --games-budget is not given.
const DEFAULT_BUDGET: u64 = 20_000;

/// Arguments of `sanjuan tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Ruleset id or path: the numbers start from it, and the tuned ruleset extends it.
    #[arg(long)]
    ruleset: Option<String>,
    /// Players per game.
    #[arg(long, default_value_t = 4, value_parser = crate::limits::players())]
    players: usize,
    /// A number to tune and its integer range, PATH=LO..HI (repeat for several):
    /// `card.palace.cost=3..8`, `rules.hand_limit=5..9`, `building.tower.prices[0]=5..9`,
    /// `scoring.B.ranks[0][5]=10..16`. A wrong path is refused with the closest ones.
    #[arg(long = "param", value_name = "PATH=LO..HI", value_parser = Param::parse)]
    params: Vec<Param>,
    /// The goal: win_share(CARD)=25±2 (the win share of the players who built CARD, %),
    /// build_rate(CARD)=20±5, seat_advantage=0±2 (points), rounds=12..14.
    #[arg(long, value_parser = Target::parse)]
    target: Option<Target>,
    /// Most games in all, over every candidate (default 20,000; with --resume, a larger
    /// budget than the state's lets the search go on).
    #[arg(long, value_parser = crate::limits::games())]
    games_budget: Option<u64>,
    /// Games per candidate in the first rung (doubled each rung); by default a
    /// quarter of the budget spread over the candidates, at least 50.
    #[arg(long, value_parser = crate::limits::games())]
    first_games: Option<u64>,
    /// Most candidates: a larger grid of values is sampled (from the seed) down to this many.
    #[arg(long, default_value_t = engine_tune::MAX_CANDIDATES, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    max_candidates: usize,
    /// The bot of every seat (the balance bot, as `simulate`, by default).
    #[arg(long, default_value = "balance")]
    bot: String,
    /// Run seed: the same seed gives the same search, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the tuned ruleset here: a file that `extends` the input and sets only
    /// the tuned numbers (it must lie in the input's rules tree). Printed when not given.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the search's state here after each rung (JSON), for `--resume`.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Go on from a state file (the settings are the file's; --games-budget raises the
    /// budget). Several files: the parts of one rung written by `--shard` runs, merged.
    #[arg(long, value_name = "STATE")]
    resume: Vec<PathBuf>,
    /// Play only shard K of N (K from 0) of the next rung's games, write the part to
    /// --state and stop; resuming from all N parts merges them and decides the rung.
    #[arg(long, value_name = "K/N", value_parser = crate::simulate::parse_shard)]
    shard: Option<(u64, u64)>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::limits::jobs())]
    jobs: Option<usize>,
    /// No progress bar and no line per rung.
    #[arg(long)]
    quiet: bool,
}

/// Runs (or resumes) a search and prints and writes its result.
pub fn run(args: Args) -> CmdResult {
    if args.shard.is_some() && args.state.is_none() {
        return Err("--shard writes its part of the rung to a state file: add --state FILE".into());
    }
    if let Some(spec) = &args.ruleset {
        check_paths(&args, spec)?;
    }
    let mut state = if args.resume.is_empty() { new_state(&args)? } else { resumed(&args)? };
    if args.ruleset.is_none() {
        check_paths(&args, &state.settings.ruleset)?;
    }
    let state_file = args.state.clone().or_else(|| (args.resume.len() == 1).then(|| args.resume[0].clone()));
    if args.resume.len() > 1
        && let Some(path) = &state_file
    {
        // The shards' parts are merged and the rung decided: kept before anything else runs.
        save(path, &state)?;
    }
    // With --resume, what the state file says is checked against its ruleset, and an error names the file.
    let resumed = |e: String| if args.resume.is_empty() { e } else { format!("{}: {e}", resumed_names(&args)) };
    let base = crate::games::load(&state.settings.ruleset).map_err(|e| resumed(format!("settings.ruleset: {e}")))?;
    if base.fingerprint() != state.settings.fingerprint {
        return Err(resumed(format!(
            "ruleset `{}` is not what the search started from (its content changed: fingerprint {} now, {} then); \
             start a new search",
            engine_rules::error::clip(&state.settings.ruleset, 80),
            base.fingerprint(),
            engine_rules::error::clip(&state.settings.fingerprint, 80)
        )));
    }
    if !args.resume.is_empty() {
        // A state file's bot, players and paths are read as `--bot`, `--players` and `--param` are.
        base.check_bot(&state.settings.bot).map_err(|e| resumed(format!("settings.bot: {e}")))?;
        crate::limits::check_players(base.as_ref(), state.settings.players)
            .map_err(|e| resumed(format!("settings.players: {e}")))?;
        let known = base.tunables();
        if let Some(p) = state.settings.params.iter().find(|p| !known.iter().any(|(k, _)| *k == p.path)) {
            return Err(resumed(format!(
                "settings.params: ruleset `{}` has no number at `{}`",
                base.id(),
                engine_rules::error::clip(&p.path, 80)
            )));
        }
    }
    let files = Files::new(&state.settings.ruleset, base.as_ref(), args.out.as_deref())?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let mut run =
        Run { base: Arc::clone(&base), files, models: Models::new(), loaded: HashMap::new(), pool, quiet: args.quiet };
    let t = state.settings.target.clone();
    if !args.quiet {
        println!(
            "{} | ruleset {} | {} players, bots {} | target {} in {}..{}{} | {} candidate(s), budget {} games, seed {}",
            base.title(),
            base.id(),
            state.settings.players,
            state.settings.bot,
            t.measure(),
            t.lo,
            t.hi,
            t.unit(),
            state.candidates.len(),
            state.settings.budget,
            state.settings.seed
        );
    }
    let start = Instant::now();
    while let Some(work) = state.plan() {
        if let Some((k, n)) = args.shard {
            let part = run.shard(&state, &work, k, n)?;
            let rung = state.rung;
            state.part = Some(part);
            let path = state_file.as_ref().expect("--shard needs --state");
            save(path, &state)?;
            println!(
                "shard {k}/{n} of rung {rung}: played its part of {} games; wrote {}. When every shard has written \
                 its part, merge them and go on: sanjuan tune --resume PART0 … --resume PART{} [--shard K/{n} --state FILE]",
                work.iter().map(|w| w.to - w.from).sum::<u64>(),
                path.display(),
                n - 1
            );
            return Ok(ExitCode::SUCCESS);
        }
        let records = run.play(&state, &work, None)?;
        for (w, records) in work.iter().zip(records) {
            for r in &records {
                state.observe(w.candidate, r);
            }
        }
        state.finish_rung(&work);
        if let Some(path) = &state_file {
            save(path, &state)?;
        }
        if !args.quiet {
            print_rung(&state, &work);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    report(&state, &run.files, base.as_ref(), elapsed)
}

/// A new search from the arguments: every path checked against the ruleset.
fn new_state(args: &Args) -> Result<State, String> {
    let need = |what: &str| format!("{what} is needed to start a search (or --resume STATE to go on with one)");
    let spec = args.ruleset.clone().ok_or_else(|| need("--ruleset"))?;
    let target = args.target.clone().ok_or_else(|| need("--target"))?;
    if args.params.is_empty() {
        return Err(need("--param PATH=LO..HI"));
    }
    let rs = crate::games::load(&spec)?;
    crate::limits::check_players(rs.as_ref(), args.players)?;
    rs.check_bot(&args.bot)?;
    let known = rs.tunables();
    let files = Files::new(&spec, rs.as_ref(), args.out.as_deref())?;
    for p in &args.params {
        if !known.iter().any(|(k, _)| *k == p.path) {
            let near = engine_rules::keys::closest(&p.path, known.iter().map(|(k, _)| k.as_str()), 5);
            let hint = if near.is_empty() {
                let heads: std::collections::BTreeSet<String> = known.iter().map(|(k, _)| head(k)).collect();
                format!("the paths of this ruleset look like {}", heads.into_iter().collect::<Vec<_>>().join(", "))
            } else {
                format!("did you mean {}?", near.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))
            };
            return Err(format!(
                "--param `{}`: ruleset `{}` has no number at this path; {hint} (docs/tuning.md lists the paths)",
                p.path,
                rs.id()
            ));
        }
        if args.params.iter().filter(|q| q.path == p.path).count() > 1 {
            return Err(format!("--param `{}` is given twice; give each path once", p.path));
        }
        // Every value of the range must make a ruleset that loads: try both ends now.
        for v in [p.lo, p.hi] {
            let tables = rs.tuned_tables(&[(p.path.clone(), v)])?;
            files.load(&tables, "check").map_err(|e| {
                // The first line says what is wrong; the rest points into a scratch file.
                let why = e.lines().next().unwrap_or_default().trim_start_matches("error: ");
                format!("--param {}={}..{}: the value {v} does not make a valid ruleset: {why}", p.path, p.lo, p.hi)
            })?;
        }
    }
    if let Some(card) = target.card() {
        // A card the ruleset does not know would measure nothing, silently.
        // (Only what games hold: a tunable path's second part may be a rule, `rules.hand_limit`.)
        let pattern = card.trim_end_matches('*');
        let holdings = crate::games::holdings_ids(rs.as_ref());
        let known = if card.ends_with('*') {
            holdings.iter().any(|h| h.starts_with(pattern))
        } else {
            holdings.iter().any(|h| h == card)
        };
        if !known {
            return Err(format!(
                "--target {}: ruleset `{}` has no card `{card}`; name a card or card type its games build \
                 (`sanjuan cards --ruleset {}` lists them; CARD* names every id that starts so)",
                target.measure(),
                rs.id(),
                spec
            ));
        }
    }
    let candidates: u128 = args.params.iter().map(Param::len).product::<u128>().min(args.max_candidates as u128);
    let budget = args.games_budget.unwrap_or(DEFAULT_BUDGET);
    let first_games = args.first_games.unwrap_or_else(|| Settings::default_first_games(budget, candidates as usize));
    State::new(Settings {
        ruleset: spec,
        fingerprint: rs.fingerprint().to_owned(),
        players: args.players,
        bot: args.bot.clone(),
        params: args.params.clone(),
        target,
        budget,
        first_games,
        max_candidates: args.max_candidates,
        seed: args.seed,
    })
}

/// The first part of a path (`card`, `rules`, `building`), for a hint.
fn head(path: &str) -> String {
    let first = path.split(['.', '[']).next().unwrap_or(path);
    format!("`{first}.…`")
}

/// `path` made absolute and free of links, also when the file does not exist
/// yet (its folder resolved, its name kept).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// Refuses `--state` and `--out` that name the input ruleset, each other, or
/// (`--out`) a state being resumed: before anything is read or written, a
/// run would otherwise replace its own input (`--state` equal to `--ruleset`
/// overwrote the ruleset with JSON and still exited 0).
fn check_paths(args: &Args, ruleset: &str) -> Result<(), String> {
    let is_path = ruleset.ends_with(".toml") || ruleset.contains('/');
    let mut inputs: Vec<(String, PathBuf)> = Vec::new();
    if is_path {
        inputs.push((format!("the ruleset {ruleset}"), canonical(Path::new(ruleset))));
    }
    let out = args.out.as_deref().map(|o| ("--out", o));
    let state = args.state.as_deref().map(|s| ("--state", s));
    for (flag, path) in out.into_iter().chain(state) {
        let at = canonical(path);
        if let Some((what, _)) = inputs.iter().find(|(_, p)| *p == at) {
            return Err(format!(
                "{flag} {} is {what}: writing it would destroy an input of this run; name another file",
                path.display()
            ));
        }
        if flag == "--out" {
            for r in &args.resume {
                if canonical(r) == at {
                    return Err(format!(
                        "--out {} is the state file --resume reads: the tuned ruleset would replace it; name another file",
                        path.display()
                    ));
                }
            }
        }
        inputs.push((format!("{flag} {}", path.display()), at));
    }
    Ok(())
}

/// The state files of `--resume`, for messages.
fn resumed_names(args: &Args) -> String {
    let names: Vec<String> = args.resume.iter().map(|p| p.display().to_string()).collect();
    format!("--resume {}", names.join(", "))
}

/// The state of a resumed search: one file, or the merged parts of one rung.
fn resumed(args: &Args) -> Result<State, String> {
    if args.ruleset.is_some() || !args.params.is_empty() || args.target.is_some() {
        return Err(
            "--resume goes on with the settings of its state file: leave out --ruleset, --param and --target".into()
        );
    }
    let mut states = Vec::new();
    for path in &args.resume {
        let text = engine_rules::Source::Disk(path.clone()).read().map_err(|e| {
            let why = e.to_string();
            let why = why.lines().next().unwrap_or_default().trim_start_matches("error: ").to_owned();
            format!("--resume {}: {why}; give the file --state wrote", path.display())
        })?;
        let state: State = serde_json::from_str(&text).map_err(|e| {
            format!("--resume {}: not a state file of `sanjuan tune`: {e}; give the file --state wrote", path.display())
        })?;
        if state.version != engine_tune::STATE_VERSION {
            return Err(format!(
                "--resume {}: state format {} (this program reads {})",
                path.display(),
                state.version,
                engine_tune::STATE_VERSION
            ));
        }
        state.validate().map_err(|why| {
            format!(
                "--resume {}: {why}: no search writes such a state (was the file edited?); give the file --state \
                 wrote, or start a new search",
                path.display()
            )
        })?;
        states.push(state);
    }
    let mut state = if states.iter().any(|s| s.part.is_some()) {
        State::merge_shards(&states)?
    } else if states.len() == 1 {
        states.pop().expect("one")
    } else {
        return Err("several --resume files that are not shards' parts of one rung: give one state file".into());
    };
    // A larger budget lets a search that ran out go on.
    if let Some(budget) = args.games_budget.filter(|&b| b > state.settings.budget) {
        if state.outcome.as_ref().is_some_and(|o| o.reason == Reason::Budget) {
            state.outcome = None;
        }
        state.settings.budget = budget;
    }
    Ok(state)
}

/// Writes the state file.
fn save(path: &Path, state: &State) -> Result<(), String> {
    let text = serde_json::to_string_pretty(state).map_err(|e| e.to_string())?;
    crate::output::write_file(path, text + "\n")
}

/// Where candidate rulesets are written and what they extend.
struct Files {
    /// The folder candidate files are written in (and removed from once loaded).
    dir: PathBuf,
    /// Removed at the end: a folder this run made.
    own_dir: bool,
    /// `extends` of a file in `dir`.
    extends: String,
    /// The tuned ruleset's id.
    id: String,
    /// Its name.
    name: String,
    /// The output file and what it extends from its own folder.
    out: Option<(PathBuf, String)>,
}

impl Files {
    fn new(spec: &str, base: &dyn AnyRules, out: Option<&Path>) -> Result<Files, String> {
        let is_path = spec.ends_with(".toml") || spec.contains('/');
        let id: String = base.id().chars().take(engine_rules::chain::MAX_ID_CHARS - 6).collect::<String>() + "-tuned";
        let name = format!("{}, tuned", base.name());
        let folder = |p: &Path| match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !is_path {
            let dir = std::env::temp_dir().join(format!("sanjuan-tune-{}", std::process::id()));
            return Ok(Files {
                dir,
                own_dir: true,
                extends: spec.to_owned(),
                id,
                name,
                out: out.map(|o| (o.to_path_buf(), spec.to_owned())),
            });
        }
        let input = std::fs::canonicalize(spec).map_err(|e| format!("--ruleset {spec}: {e}"))?;
        let in_dir = folder(&input);
        let root = engine_rules::Source::Disk(input.clone()).tree_root().unwrap_or_else(|| in_dir.clone());
        let out = match out {
            None => None,
            Some(o) => {
                let dir = std::fs::canonicalize(folder(o))
                    .map_err(|e| format!("--out {}: its folder: {e}; make the folder first", o.display()))?;
                if !dir.starts_with(&root) {
                    return Err(format!(
                        "--out {}: the tuned ruleset extends {spec}, and a ruleset reads only files of its rules \
                         tree ({}): write --out under that folder",
                        o.display(),
                        root.display()
                    ));
                }
                Some((o.to_path_buf(), relative(&dir, &input)))
            }
        };
        Ok(Files { dir: in_dir.clone(), own_dir: false, extends: relative(&in_dir, &input), id, name, out })
    }

    /// The text of a ruleset file in a folder whose `extends` is `extends`,
    /// setting `tables`; `verdict` (a `# ` comment line or empty) says whether
    /// the goal was met.
    fn text(&self, extends: &str, tables: &toml::Table, about: &str, verdict: &str) -> String {
        let mut file = toml::Table::new();
        file.insert("id".into(), self.id.clone().into());
        file.insert("name".into(), self.name.clone().into());
        file.insert("description".into(), about.into());
        file.insert("extends".into(), extends.into());
        let head = toml::to_string(&file).unwrap_or_default();
        let body = toml::to_string(tables).unwrap_or_default();
        format!(
            "# Written by `sanjuan tune`: the input ruleset with only the tuned numbers set.\n{verdict}{head}\n{body}"
        )
    }

    /// Writes a candidate file, loads it and removes it.
    fn load(&self, tables: &toml::Table, tag: &str) -> Result<Arc<dyn AnyRules>, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("cannot write in {}: {e}", self.dir.display()))?;
        let path = self.dir.join(format!(".sanjuan-tune-{}-{tag}.toml", std::process::id()));
        crate::output::write_file(&path, self.text(&self.extends, tables, "a candidate of `sanjuan tune`", ""))?;
        let loaded = crate::games::load(&path.display().to_string());
        let _ = std::fs::remove_file(&path);
        loaded
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        if self.own_dir {
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

/// `to` written relative to the folder `from` (both absolute, canonical).
fn relative(from: &Path, to: &Path) -> String {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    out.to_string_lossy().replace('\\', "/")
}

/// What a run keeps between rungs.
struct Run {
    base: Arc<dyn AnyRules>,
    files: Files,
    models: Models,
    loaded: HashMap<usize, Arc<dyn AnyRules>>,
    pool: rayon::ThreadPool,
    quiet: bool,
}

impl Run {
    /// The candidates' rulesets, loaded once, with their balance models ready
    /// (from the disk cache, or learned in parallel).
    fn prepare(&mut self, state: &State, work: &[Work]) -> Result<(), String> {
        for w in work {
            if !self.loaded.contains_key(&w.candidate) {
                let values = state.values(w.candidate);
                let tables = self.base.tuned_tables(&values)?;
                let rs = self
                    .files
                    .load(&tables, &w.candidate.to_string())
                    .map_err(|e| format!("candidate {}: {e}", describe(&values)))?;
                self.loaded.insert(w.candidate, rs);
            }
        }
        if crate::balance::uses_model(&state.settings.bot) {
            let todo: Vec<Arc<dyn AnyRules>> = work.iter().map(|w| Arc::clone(&self.loaded[&w.candidate])).collect();
            let models = &self.models;
            let bar = if self.quiet || todo.len() < 2 { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
            bar.set_message(format!("learning the balance bot's values for {} candidate(s)", todo.len()));
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            let learned: Result<Vec<_>, String> = self
                .pool
                .install(|| todo.par_iter().map(|rs| crate::balance::prepare(rs.as_ref(), models, true)).collect());
            bar.finish_and_clear();
            learned?;
        }
        Ok(())
    }

    /// Plays each entry's games (only shard `k` of `n`'s slice when given), in parallel;
    /// the records per entry, in game order.
    fn play(
        &mut self,
        state: &State,
        work: &[Work],
        shard: Option<(u64, u64)>,
    ) -> Result<Vec<Vec<engine_play::sim::GameRecord>>, String> {
        self.prepare(state, work)?;
        let s = &state.settings;
        let bots = vec![s.bot.clone(); s.players];
        let ranges: Vec<(u64, u64)> =
            work.iter().map(|w| shard.map_or((w.from, w.to), |(k, n)| State::slice(w, k, n))).collect();
        let jobs: Vec<(usize, u64)> =
            ranges.iter().enumerate().flat_map(|(e, &(from, to))| (from..to).map(move |i| (e, i))).collect();
        let total = jobs.len() as u64;
        let bar = if self.quiet || total < 2000 {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(total).with_style(
                ProgressStyle::with_template(&format!(
                    "rung {} {{bar:40}} {{pos}}/{{len}} games, {{per_sec}}, ETA {{eta}}",
                    state.rung
                ))
                .expect("template"),
            )
        };
        let loaded = &self.loaded;
        let models = &self.models;
        let one = |&(e, i): &(usize, u64)| {
            let w = &work[e];
            loaded[&w.candidate]
                .play_one(&bots, s.seed, i, false, models)
                .map(|r| (e, r))
                .map_err(|err| format!("candidate {}, game {i}: {err}", describe(&state.values(w.candidate))))
        };
        let played: Result<Vec<_>, String> =
            self.pool.install(|| jobs.par_iter().progress_with(bar.clone()).map(one).collect());
        bar.finish_and_clear();
        let mut out = vec![Vec::new(); work.len()];
        for (e, r) in played? {
            out[e].push(r);
        }
        Ok(out)
    }

    /// Plays shard `k` of `n`'s slice of the rung and returns its part.
    fn shard(&mut self, state: &State, work: &[Work], k: u64, n: u64) -> Result<ShardPart, String> {
        let records = self.play(state, work, Some((k, n)))?;
        let tallies = records
            .iter()
            .map(|rs| {
                let mut t = Tally::default();
                rs.iter().for_each(|r| state.settings.target.observe(r, &mut t));
                t
            })
            .collect();
        Ok(ShardPart { rung: state.rung, k, n, work: work.to_vec(), tallies })
    }
}

/// `card.palace.cost = 4, rules.hand_limit = 7`.
fn describe(values: &[(String, i64)]) -> String {
    values.iter().map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ")
}

/// A measure's value and interval: `27.1% (24.0–30.4)`.
fn shown(state: &State, c: usize) -> String {
    let e = state.estimate(c);
    let unit = state.settings.target.unit();
    if e.lo.is_nan() {
        return format!("{:.1}{unit} (no interval yet)", e.value);
    }
    format!("{:.1}{unit} (95% CI {:.1}–{:.1})", e.value, e.lo, e.hi)
}

fn print_rung(state: &State, work: &[Work]) {
    let games: u64 = work.iter().map(|w| w.to - w.from).sum();
    let alive: Vec<usize> = (0..state.candidates.len()).filter(|&c| state.candidates[c].alive).collect();
    println!(
        "rung {}: {games} games on {} candidate(s); {} left in the race, {} games spent",
        state.rung - 1,
        work.len(),
        alive.len(),
        state.spent
    );
    for w in work {
        let c = &state.candidates[w.candidate];
        let mark = if c.alive { " " } else { "x" };
        println!(
            "  {mark} {:<40} {:>7} games  {}",
            describe(&state.values(w.candidate)),
            c.games,
            shown(state, w.candidate)
        );
    }
}

/// Prints the outcome and writes the tuned ruleset, which must load back.
fn report(state: &State, files: &Files, base: &dyn AnyRules, elapsed: f64) -> CmdResult {
    let outcome = state.outcome.as_ref().ok_or("the search has not ended")?;
    let t = &state.settings.target;
    let chosen = outcome.ranking[0];
    let verdict = match outcome.reason {
        Reason::Met => "meets the goal (its 95% interval lies inside it)".to_owned(),
        Reason::Unreachable => {
            "is the nearest, but no value in the ranges meets the goal: every interval misses it (jointly at 95%); \
             widen the ranges or tune another number"
                .to_owned()
        }
        Reason::Budget => "is the nearest when the budget was spent; its interval is not inside the goal yet: \
             raise --games-budget (with --resume STATE to go on)"
            .to_owned(),
    };
    println!("target {} in {}..{}{}: {} {verdict}", t.measure(), t.lo, t.hi, t.unit(), describe(&state.values(chosen)));
    println!("  {}  over {} games", shown(state, chosen), state.candidates[chosen].games);
    let best = &state.candidates[chosen];
    if let Some(caveat) = t.caveat(&best.tally, best.games, state.settings.players) {
        println!("  note: {caveat}");
    }
    let runners: Vec<usize> =
        outcome.ranking.iter().skip(1).copied().filter(|&c| state.candidates[c].games > 0).take(4).collect();
    if !runners.is_empty() {
        println!("runners-up:");
        for c in runners {
            println!(
                "  {:<40} {}  over {} games",
                describe(&state.values(c)),
                shown(state, c),
                state.candidates[c].games
            );
        }
    }
    // On a flat response one answer hides equally good neighbours: name them all.
    let inside = |c: usize| {
        let e = state.estimate(c);
        !e.lo.is_nan() && e.lo >= t.lo && e.hi <= t.hi
    };
    let meeting: Vec<usize> = outcome.ranking.iter().copied().filter(|&c| inside(c)).collect();
    if meeting.len() > 1 {
        println!("every value whose 95% interval lies inside the goal ({}):", meeting.len());
        for &c in &meeting {
            println!(
                "  {:<40} {}  over {} games",
                describe(&state.values(c)),
                shown(state, c),
                state.candidates[c].games
            );
        }
    }
    println!(
        "{} games spent of a budget of {} in {:.1} s ({} rung(s))",
        state.spent, state.settings.budget, elapsed, state.rung
    );
    let verdict = match outcome.reason {
        Reason::Met => format!(
            "# Goal met: {} in {}..{}{} at {}, over {} games.\n",
            t.measure(),
            t.lo,
            t.hi,
            t.unit(),
            shown(state, chosen),
            best.games
        ),
        Reason::Unreachable | Reason::Budget => format!(
            "# Goal NOT met: {} in {}..{}{}; these values are only the nearest found, at {}, over {} games ({}).\n",
            t.measure(),
            t.lo,
            t.hi,
            t.unit(),
            shown(state, chosen),
            best.games,
            if outcome.reason == Reason::Budget { "the budget ran out" } else { "no value in the ranges meets it" }
        ),
    };
    let tables = base.tuned_tables(&state.values(chosen))?;
    let about = format!(
        "{} tuned by `sanjuan tune` toward {} in {}..{}{}: {}",
        base.id(),
        t.measure(),
        t.lo,
        t.hi,
        t.unit(),
        shown(state, chosen)
    );
    match &files.out {
        Some((path, extends)) => {
            crate::output::write_file(path, files.text(extends, &tables, &about, &verdict))?;
            // The file must load back as the ruleset the search measured.
            let back = crate::games::load(&path.display().to_string())
                .map_err(|e| format!("the tuned ruleset {} does not load back: {e}", path.display()))?;
            let measured = files.load(&tables, "out")?;
            if back.fingerprint() != measured.fingerprint() {
                return Err(format!("the tuned ruleset {} loads as other content than was measured", path.display()));
            }
            println!("wrote {} (extends {extends})", path.display());
        }
        None => {
            // Its `extends` is written from the input's folder (or names a built-in id).
            eprintln!(
                "the tuned ruleset (not written: --out FILE writes it; as printed, it belongs beside the input):"
            );
            print!("{}", files.text(&files.extends, &tables, &about, &verdict));
        }
    }
    Ok(ExitCode::SUCCESS)
}
