//! `sanjuan serve`: a local web table. People on the same network and bots
//! play any ruleset the engine loads, in a browser.
//!
//! The server keeps every game; a browser holds one seat's secret token and
//! receives only that seat's view (the engine's player view), its legal
//! actions and its log. It waits for changes by long polling
//! (`/api/tables/{id}/state?since=N`), which needs nothing beyond HTTP. The
//! page is one embedded HTML file with its script and style: nothing is
//! fetched from elsewhere.
#![warn(missing_docs)]

pub mod table;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use table::{HUMAN, Refusal, Table};

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
}

impl Default for Config {
    fn default() -> Self {
        Config { host: "127.0.0.1".into(), port: 8080, rulesets: Vec::new(), max_tables: 64 }
    }
}

/// One table and the channel that tells waiting clients about its changes.
struct Cell {
    table: Mutex<Table>,
    changed: watch::Sender<u64>,
}

/// The server's tables.
pub struct Server {
    config: Config,
    tables: Mutex<HashMap<String, Arc<Cell>>>,
    /// Requests waiting for a change now.
    waiting: std::sync::atomic::AtomicUsize,
}

/// The most requests that wait for a change at once; beyond, a request is answered at once.
const MAX_WAITING: usize = 1024;

/// The page.
const PAGE: &str = include_str!("../assets/table.html");

/// The longest wait for a change before the client asks again.
const WAIT: Duration = Duration::from_secs(20);

/// The largest request body accepted.
const MAX_BODY: usize = 16 * 1024;

/// The largest saved game accepted (a long game is some tens of KiB).
const MAX_SAVED: usize = 1024 * 1024;

impl Server {
    /// A server with no tables yet.
    pub fn new(config: Config) -> Arc<Server> {
        Arc::new(Server { config, tables: Mutex::new(HashMap::new()), waiting: Default::default() })
    }

    fn cell(&self, id: &str) -> Result<Arc<Cell>, Refusal> {
        let tables = self.tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        tables.get(id).cloned().ok_or(Refusal { status: 404, message: format!("no table `{id}`") })
    }

    /// The rulesets a table may be made with: the built-in ones and the server's files.
    pub fn rulesets(&self) -> Vec<RulesetEntry> {
        let mut out = Vec::new();
        for (game, lib) in [("San Juan", &san_juan::files::BUILTINS), ("Alhambra", &alhambra::files::BUILTINS)] {
            out.extend(lib.ruleset_ids().into_iter().map(|id| RulesetEntry { id, game: game.into() }));
        }
        for spec in &self.config.rulesets {
            let game = if game_of(spec) == Some(Game::Alhambra) { "Alhambra" } else { "San Juan" };
            out.push(RulesetEntry { id: spec.clone(), game: game.into() });
        }
        out
    }

    /// Makes a table; returns its id and each person's seat and token.
    pub fn create(&self, request: &NewTable) -> Result<Created, Refusal> {
        let bad = |m: String| Refusal { status: 400, message: m };
        if !self.rulesets().iter().any(|r| r.id == request.ruleset) {
            return Err(bad(format!("unknown ruleset `{}`; GET /api/rulesets lists them", request.ruleset)));
        }
        if request.seats.is_empty() || request.seats.len() > 6 {
            return Err(bad("give 2 to 6 seats, each `human` or a bot".into()));
        }
        for s in &request.seats {
            if s != HUMAN {
                engine_play::bots::BotSpec::parse(s).map_err(bad)?;
            }
        }
        if !request.seats.iter().any(|s| s == HUMAN) {
            return Err(bad("a table needs at least one `human` seat".into()));
        }
        let seed = request.seed.unwrap_or_else(|| {
            use rand::Rng;
            rand::rng().next_u64() >> 11
        });
        let players = request.seats.len();
        let game: Box<dyn table::Seated> = match game_of(&request.ruleset) {
            Some(Game::Alhambra) => {
                let rs = alhambra::Ruleset::load(&request.ruleset).map_err(|e| bad(e.to_string()))?;
                let mut g = alhambra::Game::new(rs, players, seed).map_err(|e| bad(e.to_string()))?;
                g.log_events(true);
                g.record_actions(true);
                Box::new(g)
            }
            _ => {
                let rs = san_juan::Ruleset::load(&request.ruleset).map_err(|e| bad(e.to_string()))?;
                let mut g = san_juan::Game::new(rs, players, seed).map_err(|e| bad(e.to_string()))?;
                g.log_events(true);
                g.record_actions(true);
                Box::new(g)
            }
        };
        let id = table::token()[..12].to_owned();
        let mut t = Table::new(id.clone(), request.ruleset.clone(), seed, request.seats.clone(), game);
        t.play_bots()?;
        self.insert(t)
    }
}

impl Server {
    /// A table that continues a saved game (the file `play --save` or the page's
    /// download writes): its ruleset must be one this server offers; people's
    /// seats are those the file names `human` (or every seat, if it names none).
    pub fn resume(&self, request: &Resume) -> Result<Created, Refusal> {
        let bad = |m: String| Refusal { status: 400, message: m };
        let source = engine_rules::files::Source::Disk("uploaded game".into());
        let ruleset = request
            .saved
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| t.get("ruleset").and_then(|r| r.as_str().map(str::to_owned)))
            .ok_or_else(|| bad("not a saved game: it names no ruleset".into()))?;
        if !self.rulesets().iter().any(|r| r.id == ruleset) {
            return Err(bad(format!("the saved game is for `{ruleset}`, which this server does not offer")));
        }
        fn seats_of(named: &[String], players: usize) -> Vec<String> {
            let mut seats: Vec<String> = (0..players).map(|i| named.get(i).cloned().unwrap_or_default()).collect();
            for s in &mut seats {
                if engine_play::bots::BotSpec::parse(s).is_err() {
                    *s = HUMAN.to_owned();
                }
            }
            if !seats.iter().any(|s| s == HUMAN) {
                seats.iter_mut().for_each(|s| *s = HUMAN.to_owned());
            }
            seats
        }
        let (game, seed, seats): (Box<dyn table::Seated>, u64, Vec<String>) = match game_of(&ruleset) {
            Some(Game::Alhambra) => {
                let saved = engine_rules::saved::SavedGame::<alhambra::Game>::parse(&source, &request.saved)
                    .map_err(|e| bad(e.to_string()))?;
                let rs = alhambra::Ruleset::load(&ruleset).map_err(|e| bad(e.to_string()))?;
                let (g, _) = saved.replay_with(rs, &source, true).map_err(|e| bad(e.to_string()))?;
                (Box::new(g), saved.seed, seats_of(&saved.seats, saved.players))
            }
            _ => {
                let saved = engine_rules::saved::SavedGame::<san_juan::Game>::parse(&source, &request.saved)
                    .map_err(|e| bad(e.to_string()))?;
                let rs = san_juan::Ruleset::load(&ruleset).map_err(|e| bad(e.to_string()))?;
                let (g, _) = saved.replay_with(rs, &source, true).map_err(|e| bad(e.to_string()))?;
                (Box::new(g), saved.seed, seats_of(&saved.seats, saved.players))
            }
        };
        let id = table::token()[..12].to_owned();
        let mut t = Table::new(id.clone(), ruleset, seed, seats, game);
        t.play_bots()?;
        self.insert(t)
    }

    /// Keeps a new table, if there is room; returns the people's links.
    fn insert(&self, t: Table) -> Result<Created, Refusal> {
        let id = t.id.clone();
        let seats = t.tokens();
        let version = t.version;
        let mut tables = self.tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if tables.len() >= self.config.max_tables {
            return Err(Refusal { status: 503, message: format!("the server holds {} tables already", tables.len()) });
        }
        let (changed, _) = watch::channel(version);
        tables.insert(id.clone(), Arc::new(Cell { table: Mutex::new(t), changed }));
        Ok(Created {
            table: id.clone(),
            seats: seats
                .into_iter()
                .map(|(seat, token)| SeatLink { seat, url: format!("/play/{id}/{token}"), token })
                .collect(),
        })
    }
}

/// A saved game to continue at a new table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resume {
    /// The file's text.
    pub saved: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Game {
    SanJuan,
    Alhambra,
}

/// The game of a ruleset id or file.
fn game_of(spec: &str) -> Option<Game> {
    let lib = engine_rules::chain::game_of(spec, &[&san_juan::files::BUILTINS, &alhambra::files::BUILTINS]).ok()?;
    Some(if lib.game == alhambra::files::BUILTINS.game { Game::Alhambra } else { Game::SanJuan })
}

/// A ruleset a table can be made with.
#[derive(Serialize)]
pub struct RulesetEntry {
    /// Its id or file.
    pub id: String,
    /// The game's name.
    pub game: String,
}

/// A request for a table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// A ruleset from `/api/rulesets`.
    pub ruleset: String,
    /// Per seat: `human` or a bot (`balance`, `random`, `greedy`, `mcts:N`).
    pub seats: Vec<String>,
    /// The deal's seed; random if not given.
    pub seed: Option<u64>,
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
        (status, Json(serde_json::json!({ "error": self.message }))).into_response()
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    token: String,
    action: String,
    #[serde(default)]
    log: usize,
}

#[derive(Deserialize)]
struct TokenQuery {
    token: String,
}

/// The routes, for `serve` and for tests.
pub fn app(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/play/{table}/{token}", get(|| async { Html(PAGE) }))
        .route("/api/rulesets", get(|State(s): State<Arc<Server>>| async move { Json(s.rulesets()) }))
        .route(
            "/api/tables",
            post(|State(s): State<Arc<Server>>, Json(req): Json<NewTable>| async move {
                tokio::task::spawn_blocking(move || s.create(&req).map(Json))
                    .await
                    .unwrap_or_else(|e| Err(Refusal { status: 500, message: e.to_string() }))
            }),
        )
        .route(
            "/api/resume",
            post(|State(s): State<Arc<Server>>, Json(req): Json<Resume>| async move {
                tokio::task::spawn_blocking(move || s.resume(&req).map(Json))
                    .await
                    .unwrap_or_else(|e| Err(Refusal { status: 500, message: e.to_string() }))
            })
            // A saved game is larger than an action: a bound of its own.
            .layer(DefaultBodyLimit::max(MAX_SAVED)),
        )
        .route("/api/tables/{table}/state", get(state))
        .route("/api/tables/{table}/act", post(act))
        .route("/api/tables/{table}/save", get(save))
        .route("/api/tables/{table}/cards", get(cards))
        .route("/api/tables/{table}/undo", post(undo))
        .route("/api/tables/{table}/takeover", post(take_over))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
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
    let seat = cell.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner).seat_of(&q.token)?;
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
    let t = cell.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Json(t.state(seat, q.log)))
}

async fn act(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Json(req): Json<Act>,
) -> Result<Json<table::SeatState>, Refusal> {
    let Act { token, action, log } = req;
    change(s, id, token, log, move |t, seat| t.act(seat, &action)).await
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

/// Runs a change to a table off the async threads (bots may think for a
/// while), tells the waiting clients, and returns the asking seat's state.
async fn change(
    s: Arc<Server>,
    id: String,
    token: String,
    log: usize,
    work: impl FnOnce(&mut Table, usize) -> Result<(), Refusal> + Send + 'static,
) -> Result<Json<table::SeatState>, Refusal> {
    let cell = s.cell(&id)?;
    let result = tokio::task::spawn_blocking(move || {
        let mut t = cell.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let seat = t.seat_of(&token)?;
        work(&mut t, seat)?;
        cell.changed.send_replace(t.version);
        Ok::<_, Refusal>(t.state(seat, log))
    })
    .await
    .unwrap_or_else(|e| Err(Refusal { status: 500, message: e.to_string() }))?;
    Ok(Json(result))
}

async fn undo(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Json(req): Json<Undo>,
) -> Result<Json<table::SeatState>, Refusal> {
    change(s, id, req.token, req.log, |t, seat| t.undo(seat)).await
}

async fn take_over(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Json(req): Json<TakeOver>,
) -> Result<Json<table::SeatState>, Refusal> {
    let TakeOver { token, seat, bot, log } = req;
    change(s, id, token, log, move |t, _| t.take_over(seat, &bot)).await
}

async fn cards(State(s): State<Arc<Server>>, Path(id): Path<String>) -> Result<Json<serde_json::Value>, Refusal> {
    let cell = s.cell(&id)?;
    let t = cell.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Json(t.cards()))
}

async fn save(
    State(s): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Result<Response, Refusal> {
    let cell = s.cell(&id)?;
    let t = cell.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    t.seat_of(&q.token)?;
    let text = t.save();
    Ok((
        [
            (header::CONTENT_TYPE, "application/toml"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"game.toml\""),
        ],
        text,
    )
        .into_response())
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
    Ok((local, async move { axum::serve(listener, app(server)).await.map_err(|e| e.to_string()) }))
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
