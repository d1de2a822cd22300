//! `sanjuan serve`: a local web table. People on the same network and bots
//! play any ruleset the engine loads, in a browser.
//!
//! The server keeps every game; a browser holds one seat's secret token and
//! receives only that seat's view (the engine's player view), its legal
//! actions and its log. It waits for changes by long polling
//! (`/api/tables/{id}/state?since=N`), which needs nothing beyond HTTP. The
//! page is embedded: its HTML, its style and its scripts (a shared core and
//! one renderer per game) are served from `/assets/`; nothing is fetched
//! from elsewhere.
#![warn(missing_docs)]

pub mod seal;
pub mod table;

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use engine_game::{AnyGame, AnyRules, Models, Registry};
use table::{Choice, HUMAN, Refusal, Table, refuse};

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (`127.0.0.1` unless told otherwise).
    pub host: String,
    /// The port (0: any free one).
    pub port: u16,
    /// Ruleset files (or ids) offered besides the built-in ones.
    pub rulesets: Vec<String>,
    /// The most tables at once.
    pub max_tables: usize,
    /// A table nobody has asked about for this long is freed.
    pub idle: Duration,
    /// A finished table nobody has asked about for this long is freed.
    pub finished: Duration,
    /// Another person's seat may be handed to a bot once it has been deciding this long.
    pub takeover_after: Duration,
    /// Tables one client (address) may make or resume per minute.
    pub tables_per_minute: usize,
    /// Tables one client (address) may hold at once.
    pub tables_per_address: usize,
    /// Moves, undos and takeovers one seat may make in a second (and undos in ten seconds).
    pub moves_per_second: usize,
    /// When the server holds its most tables, the table nobody has moved at
    /// for longest gives way to a new one once it has been quiet this long.
    pub reclaim: Duration,
    /// The key that seals downloads of games in progress (random unless given: see `serve --key-file`).
    pub key: [u8; 32],
    /// The games the server offers.
    pub registry: Arc<Registry>,
    /// The balance bot's models: the command line fills them from its disk
    /// cache (and learns the missing ones after the server starts); a ruleset
    /// whose model is missing learns it at its first table.
    pub models: Arc<Models>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8080,
            rulesets: Vec::new(),
            max_tables: 64,
            idle: Duration::from_secs(6 * 3600),
            finished: Duration::from_secs(30 * 60),
            takeover_after: Duration::from_secs(120),
            tables_per_minute: 20,
            tables_per_address: 8,
            moves_per_second: table::MOVES_PER_SECOND,
            reclaim: Duration::from_secs(10 * 60),
            key: seal::fresh_key(),
            registry: Arc::new(games::registry()),
            models: Arc::new(Models::new()),
        }
    }
}

/// One table and the channel that tells waiting clients about its changes.
/// The table's lock is asynchronous: a request waiting for it holds no thread.
pub struct Cell {
    table: Arc<tokio::sync::Mutex<Table>>,
    changed: watch::Sender<u64>,
    /// The address that made it (a client holds only so many tables).
    maker: Option<IpAddr>,
}

/// The server's tables.
pub struct Server {
    config: Config,
    tables: Mutex<HashMap<String, Arc<Cell>>>,
    /// Requests waiting for a change now.
    waiting: std::sync::atomic::AtomicUsize,
    /// Loaded rulesets by game and content fingerprint: a ruleset (its cards
    /// and compiled scripts) is loaded once per server, not per table.
    rules: Mutex<HashMap<(String, String), Arc<dyn AnyRules>>>,
    /// The balance bot's models, learned once per game and content for every table.
    models: Arc<Models>,
    /// Every table held, by its game's uid (a game made here, or the one table
    /// continuing an uploaded download of it): an upload of a game held here
    /// joins its table instead of copying it.
    games: Mutex<HashMap<String, String>>,
    /// Games that ended here (the latest [`ENDED_KEPT`]): a download of one is not played again.
    ended: Mutex<(HashSet<String>, VecDeque<String>)>,
    /// Bot thoughts at once, across tables, and the workers running now.
    bots: Arc<Gate>,
    /// Per client address: when it made tables in the last minute.
    made: Mutex<HashMap<Option<IpAddr>, Vec<Instant>>>,
}

/// The most requests that wait for a change at once; beyond, a request is answered at once.
const MAX_WAITING: usize = 1024;

/// Ended games remembered (their uids, some 40 bytes each).
const ENDED_KEPT: usize = 100_000;

/// At most one bot thought per core at once, whatever the number of tables:
/// a server's pages stay quick however many bots think.
struct Gate {
    busy: Mutex<usize>,
    free: Condvar,
    most: usize,
    /// Bot workers running now (one per table at most).
    workers: std::sync::atomic::AtomicUsize,
}

/// A bot's turn to think; the next waiting one goes when it drops.
struct Pass<'a>(&'a Gate);

impl Gate {
    fn new() -> Gate {
        let most = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        Gate { busy: Mutex::new(0), free: Condvar::new(), most, workers: Default::default() }
    }

    /// Waits (on a blocking thread) until a bot may think.
    fn enter(&self) -> Pass<'_> {
        let mut busy = locked(&self.busy);
        while *busy >= self.most {
            busy = self.free.wait(busy).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *busy += 1;
        Pass(self)
    }
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        *locked(&self.0.busy) -= 1;
        self.0.free.notify_one();
    }
}

/// The page.
const PAGE: &str = include_str!("../assets/table.html");

/// The page's own files, served at `/assets/<name>` (no build step: plain files).
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
    ("core.js", "text/javascript; charset=utf-8", include_str!("../assets/core.js")),
];

include!(concat!(env!("OUT_DIR"), "/boards.rs"));

/// One of the page's files; `boards.js` is every game's own board (`assets/boards/*.js`) in one.
async fn asset(Path(name): Path<String>) -> Result<Response, Refusal> {
    const JS: &str = "text/javascript; charset=utf-8";
    if name == "boards.js" {
        let all: String = BOARDS.iter().map(|(file, text)| format!("// {file}\n{text}\n")).collect();
        return Ok(([(header::CONTENT_TYPE, JS)], all).into_response());
    }
    let (_, kind, text) =
        ASSETS.iter().find(|(n, _, _)| *n == name).ok_or_else(|| refuse(404, format!("no asset `{name}`")))?;
    Ok(([(header::CONTENT_TYPE, *kind)], *text).into_response())
}

/// The longest wait for a change before the client asks again.
const WAIT: Duration = Duration::from_secs(20);

/// The largest request body accepted.
const MAX_BODY: usize = 16 * 1024;

/// The largest saved game accepted (a long game is some tens of KiB).
const MAX_SAVED: usize = 1024 * 1024;

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Server {
    /// A server with no tables yet.
    pub fn new(config: Config) -> Arc<Server> {
        let models = Arc::clone(&config.models);
        Arc::new(Server {
            config,
            tables: Mutex::new(HashMap::new()),
            waiting: Default::default(),
            rules: Mutex::new(HashMap::new()),
            models,
            games: Mutex::new(HashMap::new()),
            ended: Mutex::new((HashSet::new(), VecDeque::new())),
            bots: Arc::new(Gate::new()),
            made: Mutex::new(HashMap::new()),
        })
    }

    fn cell(&self, id: &str) -> Result<Arc<Cell>, Refusal> {
        locked(&self.tables).get(id).cloned().ok_or_else(|| {
            refuse(404, "There is no such table here: it may have ended and been cleared, or the server was restarted.")
        })
    }

    /// Bot workers moving now, across tables (each table has one at most).
    pub fn bot_workers(&self) -> usize {
        self.bots.workers.load(std::sync::atomic::Ordering::Acquire)
    }

    /// The number of tables held now.
    pub fn table_count(&self) -> usize {
        locked(&self.tables).len()
    }

    /// The rulesets a table may be made with: every game's built-in ones (the
    /// default game's default first) and the server's files.
    pub fn rulesets(&self) -> Vec<RulesetEntry> {
        let registry = &self.config.registry;
        let mut out = Vec::new();
        for kind in registry.kinds() {
            let mut ids = kind.builtins().ruleset_ids();
            ids.sort_by_key(|id| id != kind.default_ruleset());
            out.extend(ids.into_iter().map(|id| {
                let about = about(kind.builtins().ruleset(&id));
                RulesetEntry { id, game: kind.title().into(), about }
            }));
        }
        for spec in &self.config.rulesets {
            let game = registry.of_ruleset(spec).unwrap_or(registry.default_kind()).title();
            let about = about(Some(engine_rules::Source::Disk(spec.into())));
            out.push(RulesetEntry { id: spec.clone(), game: game.into(), about });
        }
        out
    }

    /// The loaded ruleset `spec`: the one of the same content loaded before, if
    /// any, else loaded now and kept.
    fn rules(&self, spec: &str) -> Result<Arc<dyn AnyRules>, Refusal> {
        let rs = self.config.registry.load(spec).map_err(|e| refuse(400, e))?;
        let mut rules = locked(&self.rules);
        let key = (rs.game_id().to_owned(), rs.fingerprint().to_owned());
        Ok(Arc::clone(rules.entry(key).or_insert(rs)))
    }

    /// A saved game replayed on its ruleset, logging and recording.
    fn replayed(&self, ruleset: &str, text: &str) -> Result<Replayed, Refusal> {
        let bad = |m: String| refuse(400, m);
        let registry = &self.config.registry;
        let kind = registry.of_ruleset(ruleset).map_err(bad)?;
        let source = engine_rules::files::Source::Disk("uploaded game".into());
        let saved = kind.read_saved(&source, text).map_err(bad)?;
        let rules = self.rules(ruleset)?;
        let (game, _) = kind.replay(&saved, &rules, &source, true).map_err(bad)?;
        Ok((game, saved.seed, saved.seats))
    }

    /// A client may make a table now: at most `tables_per_minute` a minute from one address.
    fn admit(&self, client: Option<IpAddr>) -> Result<(), Refusal> {
        let now = Instant::now();
        let mut made = locked(&self.made);
        made.retain(|_, times| {
            times.retain(|t| now.duration_since(*t) < Duration::from_secs(60));
            !times.is_empty()
        });
        let times = made.entry(client).or_default();
        if times.len() >= self.config.tables_per_minute {
            return Err(refuse(
                429,
                format!(
                    "{} tables were made from your address in the last minute: wait a minute, then try again.",
                    times.len()
                ),
            )
            .retry_after(60));
        }
        let held = locked(&self.tables).values().filter(|c| c.maker == client).count();
        if held >= self.config.tables_per_address {
            return Err(refuse(
                429,
                format!(
                    "You have {held} tables open here, the most one address may hold: finish or leave one \
                     (a table nobody moves at for {} minutes is freed), then try again.",
                    self.config.idle.as_secs() / 60
                ),
            )
            .retry_after(60));
        }
        times.push(now);
        Ok(())
    }

    /// Makes a table; returns its id and each person's seat and token. The
    /// bots' first moves are made afterwards ([`Server::bots_move`]).
    pub fn create(&self, request: &NewTable, client: Option<IpAddr>) -> Result<(Created, Arc<Cell>), Refusal> {
        let bad = |m: String| refuse(400, m);
        if !self.rulesets().iter().any(|r| r.id == request.ruleset) {
            return Err(bad(format!("unknown ruleset `{}`; GET /api/rulesets lists them", request.ruleset)));
        }
        if request.seats.len() < 2 || request.seats.len() > 6 {
            return Err(bad("give 2 to 6 seats, each `human` or a bot".into()));
        }
        let rules = self.rules(&request.ruleset)?;
        for s in request.seats.iter().filter(|s| *s != HUMAN) {
            table::check_bot(s)?;
            // A nudged balance bot's features are this ruleset's: refused now, not at its first move.
            rules.check_bot(s).map_err(bad)?;
        }
        if !request.seats.iter().any(|s| s == HUMAN) {
            return Err(bad("a table needs at least one `human` seat".into()));
        }
        self.room()?;
        self.admit(client)?;
        let seed = request.seed.unwrap_or_else(|| rand::Rng::next_u64(&mut rand::rng()) >> 11);
        let players = request.seats.len();
        let mut game = rules.start(players, seed).map_err(|e| refuse(400, e))?;
        game.log_events(true);
        game.record_actions(true);
        let id = table::token()[..12].to_owned();
        let mut t =
            Table::new(id, request.ruleset.clone(), seed, request.seats.clone(), game, Arc::clone(&self.models));
        t.explain = request.explain;
        let made = self.insert(t, client)?;
        // The model is learned meanwhile (the person's first moves need none), not at the bot's first move.
        if request.seats.iter().any(|s| table::uses_model(s))
            && self.models.readiness(rules.game_id(), rules.fingerprint()) == engine_game::models::Readiness::Missing
        {
            let models = Arc::clone(&self.models);
            std::thread::spawn(move || models.of(rules.as_ref()));
        }
        Ok(made)
    }

    /// Makes room for one more table: when the server holds its most, the
    /// table nobody has moved at for longest gives way if it has been quiet for
    /// `reclaim`; otherwise the refusal says how long to wait. Nobody can keep
    /// a new visitor out for longer than `reclaim` without playing at every
    /// table they hold (and one address holds only `tables_per_address`).
    fn room(&self) -> Result<(), Refusal> {
        let mut tables = locked(&self.tables);
        let n = tables.len();
        if n < self.config.max_tables {
            return Ok(());
        }
        let mut quietest: Option<(String, Duration)> = None;
        for (id, cell) in tables.iter() {
            let Ok(t) = cell.table.try_lock() else { continue };
            let quiet = t.active.elapsed();
            if quietest.as_ref().is_none_or(|(_, q)| quiet > *q) {
                quietest = Some((id.clone(), quiet));
            }
        }
        let reclaim = self.config.reclaim;
        match quietest {
            Some((id, quiet)) if quiet >= reclaim => {
                if let Some(cell) = tables.remove(&id) {
                    self.forget(&cell);
                }
                Ok(())
            }
            quietest => {
                let wait = reclaim.saturating_sub(quietest.map_or(Duration::ZERO, |(_, q)| q)).as_secs() + 1;
                Err(refuse(
                    503,
                    format!(
                        "The server is full ({n} tables, its most: serve --max-tables); a table nobody has moved at \
                         for {} minutes gives way to a new one: try again in {wait} s.",
                        reclaim.as_secs().div_ceil(60)
                    ),
                )
                .retry_after(wait))
            }
        }
    }

    /// A table freed: its game is no longer held here (an ended one is remembered as ended).
    fn forget(&self, cell: &Cell) {
        let Ok(t) = cell.table.try_lock() else { return };
        let mut games = locked(&self.games);
        if games.get(&t.uid) == Some(&t.id) {
            games.remove(&t.uid);
        }
        if t.over() {
            let (set, order) = &mut *locked(&self.ended);
            if set.insert(t.uid.clone()) {
                order.push_back(t.uid.clone());
            }
            while order.len() > ENDED_KEPT {
                order.pop_front().map(|uid| set.remove(&uid));
            }
        }
    }

    /// Frees tables nobody moved at for a while: finished ones after
    /// `finished`, others after `idle` (looking at a table does not keep it).
    /// Returns how many were freed.
    pub fn sweep(&self) -> usize {
        let mut tables = locked(&self.tables);
        let before = tables.len();
        let mut freed = Vec::new();
        tables.retain(|_, cell| {
            // A table in use (locked) now is not idle.
            let Ok(t) = cell.table.try_lock() else { return true };
            let quiet = t.active.elapsed();
            let keep = !(quiet >= self.config.idle || (t.over() && quiet >= self.config.finished));
            if !keep {
                freed.push(Arc::clone(cell));
            }
            keep
        });
        for cell in &freed {
            self.forget(cell);
        }
        before - tables.len()
    }
}

/// A replayed game, its seed and who sat where.
type Replayed = (Box<dyn AnyGame>, u64, Vec<String>);

impl Server {
    /// A table that continues a saved game. A sealed download (a game in
    /// progress, [`seal`]) gives links only to the seats its downloader held;
    /// the others' seats are claimed by each person uploading their own
    /// download of the same game, which joins the table made by the first.
    /// A plain file (a finished game, `play --save`) gives every person's seat.
    pub fn resume(&self, request: &Resume, client: Option<IpAddr>) -> Result<(Created, Option<Arc<Cell>>), Refusal> {
        let bad = |m: String| refuse(400, m);
        let doc = request
            .saved
            .parse::<toml::Table>()
            .map_err(|e| bad(format!("not a saved game: the file is not TOML ({})", e.message().trim_end())))?;
        let (text, holders, uid) = if doc.contains_key("sealed") {
            let opened = seal::open(&self.config.key, &doc).map_err(bad)?;
            (opened.saved, Some(opened.holders), Some(opened.uid))
        } else {
            (request.saved.clone(), None, None)
        };
        let doc =
            text.parse::<toml::Table>().map_err(|e| bad(format!("not a saved game: {}", e.message().trim_end())))?;
        let ruleset = doc
            .get("ruleset")
            .and_then(|r| r.as_str().map(str::to_owned))
            .ok_or_else(|| bad("not a saved game: it names no ruleset (`ruleset = \"second-edition\"`)".into()))?;
        if !self.rulesets().iter().any(|r| r.id == ruleset) {
            return Err(bad(format!("the saved game is for `{ruleset}`, which this server does not offer")));
        }
        if let Some(uid) = &uid {
            if locked(&self.ended).0.contains(uid) {
                return Err(refuse(
                    409,
                    "This game has ended at this server, and a game is played once: the download at its end \
                     has all of it.",
                ));
            }
            // The table holding this game now (the one it was played at, or the one continuing it).
            let held = locked(&self.games).get(uid).cloned();
            if let Some(cell) = held.and_then(|id| self.cell(&id).ok()) {
                return self.join(&cell, holders.as_deref().unwrap_or_default());
            }
        }
        self.room()?;
        self.admit(client)?;
        let (game, seed, named) = self.replayed(&ruleset, &text)?;
        let players = game.seats();
        let mut seats: Vec<String> = (0..players).map(|i| named.get(i).cloned().unwrap_or_default()).collect();
        let rules = game.rules();
        for s in &mut seats {
            if table::check_bot(s).is_err() || rules.check_bot(s).is_err() {
                *s = HUMAN.to_owned();
            }
        }
        if !seats.iter().any(|s| s == HUMAN) {
            seats.iter_mut().for_each(|s| *s = HUMAN.to_owned());
        }
        let id = table::token()[..12].to_owned();
        let mut t = Table::new(id, ruleset, seed, seats, game, Arc::clone(&self.models));
        if let Some(holders) = &holders {
            for (seat, claimed) in t.claimed.iter_mut().enumerate() {
                *claimed = holders.contains(&seat);
            }
        }
        if let Some(uid) = uid {
            // A copy of a sealed game: nobody moves until everyone is back, and
            // then what none of them has seen is dealt again (`Table::start`).
            t.uid = uid;
            t.started = false;
            t.start()?;
        }
        let (created, cell) = self.insert(t, client)?;
        Ok((created, Some(cell)))
    }

    /// A person continues a game held here with their own download: they get
    /// their seats' links at its table (a lost link is found again this way).
    /// A copy waiting for its people begins once the last one is back; the
    /// cell is returned then, for its bots to move.
    fn join(&self, cell: &Arc<Cell>, holders: &[usize]) -> Result<(Created, Option<Arc<Cell>>), Refusal> {
        let mut t = cell.table.blocking_lock();
        if let Some(seat) = holders.iter().find(|&&s| t.seats.get(s).is_none_or(|s| s != HUMAN)) {
            return Err(refuse(409, format!("Seat {seat} of this game is played by a bot now.")));
        }
        for &seat in holders {
            t.claimed[seat] = true;
        }
        t.active = Instant::now();
        let began = t.start()?;
        let version = t.version;
        cell.changed.send_replace(version);
        Ok((links(&t, holders), began.then(|| Arc::clone(cell))))
    }

    /// Keeps a new table; returns the links of its people's claimed seats.
    fn insert(&self, mut t: Table, maker: Option<IpAddr>) -> Result<(Created, Arc<Cell>), Refusal> {
        t.moves_per_second = self.config.moves_per_second;
        let (id, uid) = (t.id.clone(), t.uid.clone());
        let claimed: Vec<usize> = (0..t.seats.len()).filter(|&s| t.claimed[s]).collect();
        let created = links(&t, &claimed);
        let (changed, _) = watch::channel(t.version);
        let cell = Arc::new(Cell { table: Arc::new(tokio::sync::Mutex::new(t)), changed, maker });
        let mut tables = locked(&self.tables);
        if tables.len() >= self.config.max_tables {
            return Err(refuse(
                503,
                format!("the server holds {} tables already: try again in a minute", tables.len()),
            )
            .retry_after(60));
        }
        tables.insert(id.clone(), Arc::clone(&cell));
        locked(&self.games).insert(uid, id);
        Ok((created, cell))
    }

    /// The sealed download of a game in progress for the seats `holders`, or
    /// the whole game once it is over.
    fn download(&self, t: &Table, holders: &[usize]) -> String {
        if t.over() { t.save() } else { seal::close(&self.config.key, t, holders) }
    }

    /// What `seat` would be sent if everything it has not seen were dealt
    /// again from `seed`: equal to what it is sent when nothing leaks (for tests).
    pub async fn state_dealt_again(
        &self,
        id: &str,
        seat: usize,
        log: usize,
        seed: u64,
    ) -> Result<serde_json::Value, Refusal> {
        let cell = self.cell(id)?;
        let t = cell.table.lock().await;
        serde_json::to_value(t.state_dealt_again(seat, log, seed)).map_err(|e| refuse(500, e.to_string()))
    }
}

/// The links of these seats of a table.
fn links(t: &Table, seats: &[usize]) -> Created {
    let id = &t.id;
    Created {
        table: id.clone(),
        seats: t
            .tokens()
            .into_iter()
            .filter(|(seat, _)| seats.contains(seat))
            .map(|(seat, token)| SeatLink { seat, url: format!("/play/{id}/{token}"), token })
            .collect(),
    }
}

/// Bots answer until a person must decide or the game ends. Each bot thinks
/// on a copy of the game, without the table's lock, so that everyone else's
/// requests are answered meanwhile; a move is played only if the table did
/// not change while the bot thought. One worker per table (`bots_running`),
/// and thoughts wait their turn at the server's `gate`: a thought made stale
/// by a change while it waited is dropped before it begins.
fn bots_move(cell: &Cell, gate: &Gate) {
    for _ in 0..100_000 {
        let job = {
            let mut t = cell.table.blocking_lock();
            match t.bot_job() {
                Some(job) => job,
                None => {
                    t.bots_running = false;
                    cell.changed.send_replace(t.version);
                    return;
                }
            }
        };
        let pass = gate.enter();
        if cell.table.blocking_lock().version != job.version {
            continue;
        }
        let choice = job.choose();
        drop(pass);
        let mut t = cell.table.blocking_lock();
        t.bot_played(job.version, choice);
        cell.changed.send_replace(t.version);
    }
    let mut t = cell.table.blocking_lock();
    t.bots_running = false;
    t.broken.get_or_insert_with(|| "the bots did not stop".to_owned());
    cell.changed.send_replace(t.version);
}

/// Runs its closure when dropped.
struct Finally<F: FnMut()>(F);

impl<F: FnMut()> Drop for Finally<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

/// Lets the bots answer and waits until they have: starts the table's bot
/// worker ([`bots_move`], off the async threads) unless one is at work, in
/// which case it waits for that one.
async fn bots_answer(cell: Arc<Cell>, gate: Arc<Gate>) {
    let mut rx = cell.changed.subscribe();
    let start = {
        let mut t = cell.table.lock().await;
        !std::mem::replace(&mut t.bots_running, true)
    };
    if start {
        let worker = Arc::clone(&cell);
        let done = tokio::task::spawn_blocking(move || {
            use std::sync::atomic::Ordering::AcqRel;
            gate.workers.fetch_add(1, AcqRel);
            let workers = Arc::clone(&gate);
            // Counted down however the worker ends (a bot may panic).
            let _count = Finally(move || {
                workers.workers.fetch_sub(1, AcqRel);
            });
            bots_move(&worker, &gate)
        })
        .await;
        if let Err(e) = done {
            // A bot that panicked: the table says so, and its next change may start a worker again.
            let mut t = cell.table.lock().await;
            t.bots_running = false;
            t.thinking = None;
            t.broken.get_or_insert_with(|| format!("a bot failed: {e}"));
            cell.changed.send_replace(t.version + 1);
            t.version += 1;
        }
        return;
    }
    loop {
        if !cell.table.lock().await.bots_running {
            return;
        }
        if rx.changed().await.is_err() {
            return;
        }
    }
}

/// A saved game to continue at a new table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resume {
    /// The file's text.
    pub saved: String,
}

/// A ruleset's `name: description` as its file writes them (read, not loaded:
/// listing the rulesets stays cheap); empty when the file says neither.
fn about(source: Option<engine_rules::Source>) -> String {
    let table = source.and_then(|s| s.read().ok()).and_then(|text| text.parse::<toml::Table>().ok());
    let field = |k: &str| table.as_ref().and_then(|t| t.get(k)).and_then(|v| v.as_str()).map(str::to_owned);
    match (field("name"), field("description")) {
        (Some(n), Some(d)) => format!("{n}: {d}"),
        (n, d) => n.or(d).unwrap_or_default(),
    }
}

/// A ruleset a table can be made with.
#[derive(Serialize)]
pub struct RulesetEntry {
    /// Its id or file.
    pub id: String,
    /// The game's name.
    pub game: String,
    /// Its name and description, as its file gives them.
    pub about: String,
}

/// A request for a table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// A ruleset from `/api/rulesets`.
    pub ruleset: String,
    /// Per seat: `human` or a bot (`balance`, `balance+FEATURE=X`, `balance~S`, `random`, `greedy`, `mcts:N`, `mcts-balance:N`, `paired-balance:N`, `paired-balance:N@KIND`).
    pub seats: Vec<String>,
    /// The deal's seed; random if not given.
    pub seed: Option<u64>,
    /// Show why each bot moved while the game goes on (`/why`): its options
    /// name the cards in its hand, so everyone at the table sees the bots'
    /// hands. Without it, explanations are shown once the game is over.
    #[serde(default)]
    pub explain: bool,
}

/// A made table: its id and the people's links.
#[derive(Serialize)]
pub struct Created {
    /// The table's id.
    pub table: String,
    /// One per person's seat.
    pub seats: Vec<SeatLink>,
}

/// A person's seat and the link that plays it.
#[derive(Serialize)]
pub struct SeatLink {
    /// The seat.
    pub seat: usize,
    /// The secret.
    pub token: String,
    /// The page that plays it (share it with that person only).
    pub url: String,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        let mut response = (status, Json(serde_json::json!({ "error": self.message }))).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A JSON body whose refusal is ours: `{"error"}` with 400 (413 for a body too large).
struct Body<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = Refusal;

    async fn from_request(req: Request, state: &S) -> Result<Self, Refusal> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(e) => Err(json_refusal(&e)),
        }
    }
}

fn json_refusal(e: &JsonRejection) -> Refusal {
    let status = if e.status() == StatusCode::PAYLOAD_TOO_LARGE { 413 } else { 400 };
    refuse(status, format!("a malformed request: {}", e.body_text()))
}

/// Query parameters whose refusal is ours (400, `{"error"}`).
struct Query<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refusal> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Query(q.0))
            .map_err(|e: QueryRejection| refuse(400, format!("a malformed request: {}", e.body_text())))
    }
}

/// The client's address, when the server knows it (it does when it listens itself).
struct Client(Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Refusal> {
        Ok(Client(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())))
    }
}

#[derive(Deserialize)]
struct StateQuery {
    token: String,
    since: Option<u64>,
    /// Log lines the client already has (it is sent the rest).
    #[serde(default)]
    log: usize,
}

/// A person's answer: the legal answer's `id` at the table's `version` (what
/// the page sends), or its notation exactly as `legal` gives it (`action`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    token: String,
    #[serde(default)]
    choice: Option<usize>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    log: usize,
}

#[derive(Deserialize)]
struct TokenQuery {
    token: String,
}

/// Which log line's bot move to explain, for whom.
#[derive(Deserialize)]
struct WhyQuery {
    token: String,
    /// The line's number in the seat's log (`why` in the seat's state lists them).
    line: usize,
}

/// The routes, for `serve` and for tests.
pub fn app(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/play/{table}/{token}", get(|| async { Html(PAGE) }))
        .route("/assets/{name}", get(asset))
        .route("/api/rulesets", get(|State(s): State<Arc<Server>>| async move { Json(s.rulesets()) }))
        .route("/api/tables", post(create))
        .route(
            "/api/resume",
            post(resume)
                // A saved game is larger than an action: a bound of its own.
                .layer(DefaultBodyLimit::max(MAX_SAVED)),
        )
        .route("/api/tables/{table}/state", get(state))
        .route("/api/tables/{table}/act", post(act))
        .route("/api/tables/{table}/save", get(save))
        .route("/api/tables/{table}/cards", get(cards))
        .route("/api/tables/{table}/record", get(record))
        .route("/api/tables/{table}/scenario", get(scenario))
        .route("/api/tables/{table}/why", get(why))
        .route("/api/tables/{table}/undo", post(undo))
        .route("/api/tables/{table}/takeover", post(take_over))
        .route("/api/tables/{table}/name", post(name))
        .fallback(|| async { refuse(404, "no such page or API route") })
        .method_not_allowed_fallback(|| async { refuse(405, "that method is not allowed here") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

async fn create(
    State(s): State<Arc<Server>>,
    Client(client): Client,
    Body(req): Body<NewTable>,
) -> Result<Json<Created>, Refusal> {
    let gate = Arc::clone(&s.bots);
    open_table(gate, move || s.create(&req, client).map(|(created, cell)| (created, Some(cell)))).await
}

async fn resume(
    State(s): State<Arc<Server>>,
    Client(client): Client,
    Body(req): Body<Resume>,
) -> Result<Json<Created>, Refusal> {
    let gate = Arc::clone(&s.bots);
    open_table(gate, move || s.resume(&req, client)).await
}

/// Makes (or resumes, or joins) a table off the async threads (a ruleset
/// loads, a saved game replays). A new table opens at once: its bots, and a
/// balance model to learn, move afterwards.
async fn open_table(
    gate: Arc<Gate>,
    work: impl FnOnce() -> Result<(Created, Option<Arc<Cell>>), Refusal> + Send + 'static,
) -> Result<Json<Created>, Refusal> {
    let (created, cell) =
        tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| Err(refuse(500, e.to_string())))?;
    if let Some(cell) = cell {
        tokio::spawn(bots_answer(cell, gate));
    }
    Ok(Json(created))
}

/// One request waiting for a change; too many at once and the rest are answered at once.
struct Waiting<'a> {
    server: &'a Server,
    allowed: bool,
}

impl<'a> Waiting<'a> {
    fn enter(server: &'a Server) -> Self {
        let before = server.waiting.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        Waiting { server, allowed: before < MAX_WAITING }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.server.waiting.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

async fn state(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(q): Query<StateQuery>,
) -> Result<Json<table::SeatState>, Refusal> {
    let cell = s.cell(&id)?;
    let seat = {
        let t = cell.table.lock().await;
        t.seat_of(&q.token)?
    };
    if let Some(since) = q.since {
        // Counted while waiting, also when the client goes away mid-wait (the guard drops).
        let guard = Waiting::enter(&s);
        if guard.allowed {
            let mut rx = cell.changed.subscribe();
            if *rx.borrow() <= since {
                let _ = tokio::time::timeout(WAIT, rx.wait_for(|v| *v > since)).await;
            }
        }
    }
    let t = cell.table.lock().await;
    Ok(Json(t.state(seat, q.log)))
}

async fn act(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Body(req): Body<Act>,
) -> Result<Json<table::SeatState>, Refusal> {
    let choice = match (req.choice, req.version, req.action) {
        (Some(id), Some(version), None) => Choice::Id { id, version },
        (None, None, Some(text)) => Choice::Text(text),
        (Some(_), None, None) => {
            return Err(refuse(400, "send `version` with `choice`: the table's version the answer was offered at"));
        }
        _ => return Err(refuse(400, "send either `choice` and `version` (a legal answer's id) or `action`")),
    };
    change(s, id, req.token, req.log, move |t, seat| t.act(seat, choice)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Undo {
    token: String,
    #[serde(default)]
    log: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeOver {
    token: String,
    seat: usize,
    bot: String,
    #[serde(default)]
    log: usize,
}

/// Runs a change to a table off the async threads (an undo replays the
/// game), tells the waiting clients, lets the bots answer, and returns the
/// asking seat's state.
async fn change(
    s: Arc<Server>,
    id: String,
    token: String,
    log: usize,
    work: impl FnOnce(&mut Table, usize) -> Result<(), Refusal> + Send + 'static,
) -> Result<Json<table::SeatState>, Refusal> {
    let cell = s.cell(&id)?;
    let guard = Arc::clone(&cell.table).lock_owned().await;
    let changed = cell.changed.clone();
    let seat = tokio::task::spawn_blocking(move || {
        let mut t = guard;
        let seat = t.seat_of(&token)?;
        work(&mut t, seat)?;
        changed.send_replace(t.version);
        Ok::<_, Refusal>(seat)
    })
    .await
    .unwrap_or_else(|e| Err(refuse(500, e.to_string())))?;
    bots_answer(Arc::clone(&cell), Arc::clone(&s.bots)).await;
    let t = cell.table.lock().await;
    Ok(Json(t.state(seat, log)))
}

async fn undo(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Body(req): Body<Undo>,
) -> Result<Json<table::SeatState>, Refusal> {
    change(s, id, req.token, req.log, |t, seat| t.undo(seat)).await
}

/// A person's name for their own seat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Name {
    token: String,
    name: String,
    #[serde(default)]
    log: usize,
}

async fn name(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Body(req): Body<Name>,
) -> Result<Json<table::SeatState>, Refusal> {
    let Name { token, name, log } = req;
    change(s, id, token, log, move |t, seat| t.set_name(seat, &name)).await
}

async fn take_over(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Body(req): Body<TakeOver>,
) -> Result<Json<table::SeatState>, Refusal> {
    let TakeOver { token, seat, bot, log } = req;
    let idle = s.config.takeover_after;
    change(s, id, token, log, move |t, asker| t.take_over(asker, seat, &bot, idle)).await
}

/// Why a bot moved so, the move whose first line is `line` of the seat's log:
/// only while [`Table::explaining`] (an `explain` table, or the game over).
/// A finished game's moves are explained when first asked, off the async
/// threads (the game is replayed once, each bot choosing again as it did).
async fn why(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(q): Query<WhyQuery>,
) -> Result<Json<engine_game::Explanation>, Refusal> {
    let cell = s.cell(&id)?;
    let (seat, job) = {
        let t = cell.table.lock().await;
        let seat = t.seat_of(&q.token)?;
        if let Some(why) = t.why(seat, q.line)? {
            return Ok(Json(why));
        }
        (seat, t.why_job())
    };
    if let Some(job) = job {
        let at = job.at();
        // A replay whose bots choose again: it waits its turn with the bots' thoughts.
        let gate = Arc::clone(&s.bots);
        let done = tokio::task::spawn_blocking(move || {
            let _pass = gate.enter();
            job.run()
        })
        .await
        .map_err(|e| refuse(500, e.to_string()))?;
        cell.table.lock().await.explained(at, done);
    }
    let t = cell.table.lock().await;
    t.why(seat, q.line)?.map(Json).ok_or_else(|| refuse(500, "this bot move could not be explained"))
}

async fn cards(State(s): State<Arc<Server>>, Path(id): Path<String>) -> Result<Json<serde_json::Value>, Refusal> {
    let cell = s.cell(&id)?;
    let t = cell.table.lock().await;
    Ok(Json(t.cards()))
}

/// A finished game's record (one JSON line of `simulate --json-lines`'s kind),
/// for `sanjuan report` to read beside bot games; asked with any seat's token.
async fn record(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Result<Response, Refusal> {
    let cell = s.cell(&id)?;
    let t = cell.table.lock().await;
    t.seat_of(&q.token)?;
    let line = t.record_line().ok_or_else(|| refuse(409, "the game is not over: its record comes at the end"))?;
    Ok(attachment("application/x-ndjson", "game.jsonl", line + "\n"))
}

/// This moment as a scenario file (a table with one person on their turn, or
/// a finished game); mid-game, the table deals again what the person has not seen.
async fn scenario(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Result<Response, Refusal> {
    let cell = s.cell(&id)?;
    let mut t = cell.table.lock().await;
    let seat = t.seat_of(&q.token)?;
    let text = t.scenario(seat)?;
    cell.changed.send_replace(t.version);
    Ok(attachment("application/toml", "moment.toml", text))
}

/// A download: its content type, file name and text.
fn attachment(content_type: &str, name: &str, text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
        ],
        text,
    )
        .into_response()
}

/// The download: sealed while the game goes on (for the seats whose tokens
/// are given, `a.b` on a hot-seat page), the whole game once it is over.
async fn save(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Result<Response, Refusal> {
    let cell = s.cell(&id)?;
    let t = cell.table.lock().await;
    let mut holders = Vec::new();
    for token in q.token.split('.') {
        holders.push(t.seat_of(token)?);
    }
    let text = s.download(&t, &holders);
    Ok(attachment("application/toml", if t.over() { "game.toml" } else { "game-sealed.toml" }, text))
}

/// Binds first (so the caller can print the real address, port 0 included), then serves.
pub async fn bind(
    server: Arc<Server>,
) -> Result<(SocketAddr, impl std::future::Future<Output = Result<(), String>>), String> {
    let addr: SocketAddr = format!("{}:{}", server.config.host, server.config.port)
        .parse()
        .map_err(|e| format!("--host {}: {e}", server.config.host))?;
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("{addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    // Idle and finished tables are freed now and then.
    let sweeper = Arc::downgrade(&server);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(30)).await;
            let Some(s) = sweeper.upgrade() else { return };
            s.sweep();
        }
    });
    let service = app(server).into_make_service_with_connect_info::<SocketAddr>();
    Ok((local, async move { axum::serve(listener, service).await.map_err(|e| e.to_string()) }))
}

/// Runs the server on its own runtime until the process ends; `ready` is told
/// the address once it listens.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let (addr, serving) = bind(Server::new(config)).await?;
        ready(addr);
        serving.await
    })
}
