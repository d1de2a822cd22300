//! A table: one game of either kind, its seats (people with a secret token,
//! or bots), and what each seat has been told. Every answer the server gives
//! a seat is built from the engine's view for that seat, so what a seat may
//! not see never leaves the server.

use std::sync::Arc;
use std::time::Instant;

use engine_play::sim::Simulate;
use engine_rules::saved::SavedGame;
use rand::Rng;
use serde::Serialize;

/// A game the server can seat people at: San Juan or Alhambra.
pub trait Seated: Send {
    /// The game's id (`san-juan`, `alhambra`).
    fn game(&self) -> &'static str;
    /// The ruleset's id.
    fn ruleset_id(&self) -> String;
    /// Seats at the table.
    fn players(&self) -> usize;
    /// The seat that must decide, if any.
    fn to_move(&self) -> Option<usize>;
    /// The game has ended.
    fn over(&self) -> bool;
    /// What `seat` may see, as the engine's player view (JSON).
    fn view(&self, seat: usize) -> serde_json::Value;
    /// The legal actions of the seat to move, in the notation.
    fn legal(&self) -> Vec<String>;
    /// Plays a line of notation for the seat to move; returns each seat's log lines.
    fn act(&mut self, text: &str) -> Result<Vec<Vec<LogLine>>, String>;
    /// A bot plays the seat to move.
    fn bot_move(&mut self, bot: &str, seed: u64) -> Result<Vec<Vec<LogLine>>, String>;
    /// The game as `sanjuan play --save` writes it (`sanjuan replay` plays it again).
    fn save(&self, ruleset: &str, seed: u64, seats: &[String]) -> String;
    /// What everyone may know of the cards (id, name, cost, points, text), for the page.
    fn cards(&self) -> serde_json::Value;
    /// Once over: every seat's final score with its breakdown (public then).
    fn final_scores(&self) -> Option<serde_json::Value>;
    /// Atomic actions recorded so far.
    fn recorded(&self) -> usize;
    /// The same game after only its first `n` recorded actions (an undo).
    fn first_actions(&self, seed: u64, seats: &[String], n: usize) -> Result<Box<dyn Seated>, String>;
}

/// One line of a seat's log: what happened, and the building whose effect caused it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// What happened, as that seat may read it.
    pub text: String,
    /// The card id of the building that caused it (a library doubling a privilege).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

impl LogLine {
    fn plain(text: String) -> LogLine {
        LogLine { text, by: None }
    }
}

/// The action a bot named `bot` (seeded) would take in `game`.
fn bot_action<G: Simulate>(game: &G, rs: &Arc<G::Rules>, bot: &str, seed: u64) -> Result<G::Action, String> {
    let mut bot = G::bot(rs, bot, seed).map_err(|e| e.to_string())?;
    Ok(bot.choose(game, engine_play::TurnGame::legal(game)))
}

/// A game replayed up to `n` of its recorded actions, logging and recording on.
fn replayed<G>(game: &G, rs: Arc<G::Rules>, seed: u64, seats: &[String], n: usize) -> Result<Box<dyn Seated>, String>
where
    G: engine_rules::saved::Replay + Seated + 'static,
{
    let mut saved = SavedGame::<G>::of(game, "this table", seed, seats.to_vec());
    saved.actions.truncate(n);
    let source = engine_rules::files::Source::Disk("undo.toml".into());
    let (replay, _) = saved.replay_with(rs, &source, true).map_err(|e| e.to_string())?;
    Ok(Box::new(replay))
}

impl Seated for san_juan::Game {
    fn game(&self) -> &'static str {
        san_juan::files::BUILTINS.game
    }

    fn ruleset_id(&self) -> String {
        self.ruleset().id.clone()
    }

    fn players(&self) -> usize {
        self.num_players()
    }

    fn to_move(&self) -> Option<usize> {
        self.pending().map(|d| d.seat())
    }

    fn over(&self) -> bool {
        self.is_over()
    }

    fn view(&self, seat: usize) -> serde_json::Value {
        match self.view(Some(seat)) {
            Ok(v) => serde_json::to_value(v).unwrap_or_default(),
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        }
    }

    fn legal(&self) -> Vec<String> {
        self.legal_actions().iter().map(|a| a.text(&self.ruleset().cards)).collect()
    }

    fn act(&mut self, text: &str) -> Result<Vec<Vec<LogLine>>, String> {
        let events = self.apply_text(text).map_err(|e| e.to_string())?;
        Ok(san_juan_logs(self, &events))
    }

    fn bot_move(&mut self, bot: &str, seed: u64) -> Result<Vec<Vec<LogLine>>, String> {
        let action = bot_action(self, self.ruleset(), bot, seed)?;
        let events = self.apply(action).map_err(|e| e.to_string())?;
        Ok(san_juan_logs(self, &events))
    }

    fn save(&self, ruleset: &str, seed: u64, seats: &[String]) -> String {
        SavedGame::<san_juan::Game>::of(self, ruleset, seed, seats.to_vec()).to_toml()
    }

    fn cards(&self) -> serde_json::Value {
        let cards: Vec<serde_json::Value> = self
            .ruleset()
            .cards
            .cards
            .iter()
            .map(|c| {
                serde_json::json!({
                    "id": c.id.as_str(), "name": c.name, "kind": c.kind.as_str(), "cost": c.cost, "vp": c.vp,
                    "text": c.text, "good": c.good_name, "good_index": c.good,
                })
            })
            .collect();
        let r = &self.ruleset().rules;
        // In the order the roles lie on the table.
        let roles: Vec<serde_json::Value> = [
            ("builder", format!("everyone may build 1 building; the chooser pays {} less", r.builder_discount)),
            ("producer", format!("everyone produces {} good(s); the chooser {} more", r.produce, r.producer_privilege)),
            ("trader", format!("everyone sells {} good(s); the chooser {} more", r.sell, r.trader_privilege)),
            (
                "councillor",
                format!(
                    "everyone draws {} and keeps {}; the chooser draws {} more",
                    r.council_draw, r.council_keep, r.council_privilege
                ),
            ),
            ("prospector", format!("the chooser draws {} card(s)", r.prospector_privilege)),
        ]
        .into_iter()
        .map(|(role, text)| serde_json::json!({ "role": role, "text": text }))
        .collect();
        serde_json::json!({ "cards": cards, "roles": roles })
    }

    fn final_scores(&self) -> Option<serde_json::Value> {
        self.is_over().then(|| self.scores_view().ok().and_then(|v| serde_json::to_value(v).ok())).flatten()
    }

    fn recorded(&self) -> usize {
        san_juan::Game::recorded(self).len()
    }

    fn first_actions(&self, seed: u64, seats: &[String], n: usize) -> Result<Box<dyn Seated>, String> {
        replayed(self, Arc::clone(self.ruleset()), seed, seats, n)
    }
}

/// Each seat's lines of San Juan events (hidden cards named to their owner
/// only), each with the building that caused it.
fn san_juan_logs(game: &san_juan::Game, events: &[san_juan::game::Event]) -> Vec<Vec<LogLine>> {
    let cards = &game.ruleset().cards;
    let line = |e: san_juan::game::Event| LogLine { by: e.cause.map(|c| cards.id(c).to_owned()), text: e.text };
    (0..game.num_players()).map(|seat| events.iter().filter_map(|e| e.seen_by(seat)).map(line).collect()).collect()
}

impl Seated for alhambra::Game {
    fn game(&self) -> &'static str {
        alhambra::files::BUILTINS.game
    }

    fn ruleset_id(&self) -> String {
        self.ruleset().id.clone()
    }

    fn players(&self) -> usize {
        self.num_players()
    }

    fn to_move(&self) -> Option<usize> {
        engine_play::TurnGame::to_move(self)
    }

    fn over(&self) -> bool {
        self.is_over()
    }

    fn view(&self, seat: usize) -> serde_json::Value {
        serde_json::to_value(self.view(Some(seat))).unwrap_or_default()
    }

    fn legal(&self) -> Vec<String> {
        self.legal_actions().iter().map(|a| a.text(self.ruleset())).collect()
    }

    fn act(&mut self, text: &str) -> Result<Vec<Vec<LogLine>>, String> {
        let events = self.apply_text(text).map_err(|e| e.to_string())?;
        Ok(alhambra_logs(self, &events))
    }

    fn bot_move(&mut self, bot: &str, seed: u64) -> Result<Vec<Vec<LogLine>>, String> {
        let action = bot_action(self, self.ruleset(), bot, seed)?;
        let events = self.apply(action).map_err(|e| e.to_string())?;
        Ok(alhambra_logs(self, &events))
    }

    fn save(&self, ruleset: &str, seed: u64, seats: &[String]) -> String {
        SavedGame::<alhambra::Game>::of(self, ruleset, seed, seats.to_vec()).to_toml()
    }

    fn cards(&self) -> serde_json::Value {
        let rs = self.ruleset();
        serde_json::json!({
            "currencies": rs.currencies.iter().map(|c| serde_json::json!({ "id": c.id, "name": c.name })).collect::<Vec<_>>(),
            "types": rs.types.iter().map(|t| serde_json::json!({ "id": t.id, "name": t.name })).collect::<Vec<_>>(),
            // Per scoring, per rank (1st first): points per type in `types` order.
            "scorings": rs.scorings.iter().map(|s| serde_json::json!({ "name": s.name, "ranks": s.ranks })).collect::<Vec<_>>(),
        })
    }

    fn final_scores(&self) -> Option<serde_json::Value> {
        self.is_over().then(|| {
            let scores: Vec<serde_json::Value> = self
                .scores()
                .iter()
                .enumerate()
                .map(|(seat, s)| serde_json::json!({ "seat": seat, "score": serde_json::to_value(s).unwrap_or_default() }))
                .collect();
            serde_json::json!({ "players": scores })
        })
    }

    fn recorded(&self) -> usize {
        alhambra::Game::recorded(self).len()
    }

    fn first_actions(&self, seed: u64, seats: &[String], n: usize) -> Result<Box<dyn Seated>, String> {
        replayed(self, Arc::clone(self.ruleset()), seed, seats, n)
    }
}

/// Alhambra's events name only public things (money taken from the display,
/// buildings bought), so every seat reads the same lines; no building causes them.
fn alhambra_logs(game: &alhambra::Game, events: &[alhambra::game::Event]) -> Vec<Vec<LogLine>> {
    vec![events.iter().map(|e| LogLine::plain(e.text.clone())).collect(); game.num_players()]
}

/// A person's seat: `human`; anything else names a bot.
pub const HUMAN: &str = "human";

/// The most log lines kept per seat.
const LOG_LINES: usize = 400;

/// Refused requests a seat may send in one second before it is told to wait.
const REFUSALS_PER_SECOND: usize = 20;

/// One table.
pub struct Table {
    /// Its id, in links.
    pub id: String,
    /// The ruleset as given (an id or a file the server was started with).
    pub ruleset: String,
    /// The deal's seed.
    pub seed: u64,
    /// Per seat: `human` or a bot name.
    pub seats: Vec<String>,
    /// Per seat: the secret that lets a person act for it (people's seats only).
    tokens: Vec<Option<String>>,
    game: Box<dyn Seated>,
    logs: Vec<Vec<LogLine>>,
    /// Per seat: lines dropped from the front of its log (the oldest beyond `LOG_LINES`).
    dropped: Vec<usize>,
    /// Bumped at every change; clients wait for it.
    pub version: u64,
    recent: Vec<Vec<Instant>>,
    /// Actions recorded before each of the people's decisions: the undo points.
    marks: Vec<usize>,
}

/// What a seat is sent: everything it may know, nothing else.
#[derive(Serialize)]
pub struct SeatState {
    /// The game id.
    pub game: &'static str,
    /// The ruleset's id.
    pub ruleset: String,
    /// This seat.
    pub seat: usize,
    /// Who sits where (`human`, bot names).
    pub seats: Vec<String>,
    /// The table's version (for waiting on the next change).
    pub version: u64,
    /// The engine's view for this seat.
    pub view: serde_json::Value,
    /// The seat that must decide.
    pub to_move: Option<usize>,
    /// This seat's legal actions (empty when it is not this seat's turn).
    pub legal: Vec<String>,
    /// What this seat was told, oldest first: the lines from `log_start` on.
    pub log: Vec<LogLine>,
    /// The number of the first line in `log` (lines are numbered from 0 for the whole game).
    pub log_start: usize,
    /// The game has ended.
    pub over: bool,
    /// Once over: everyone's final score and its breakdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_scores: Option<serde_json::Value>,
}

/// Why a request was refused: the HTTP status and the message.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// HTTP status code.
    pub status: u16,
    /// What to tell the client.
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal { status, message: message.into() }
}

/// An unguessable token: 128 bits from the operating system's generator.
pub fn token() -> String {
    let mut rng = rand::rng();
    format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64())
}

impl Table {
    /// A table for `game` with these seats; people's seats get tokens.
    pub fn new(id: String, ruleset: String, seed: u64, seats: Vec<String>, game: Box<dyn Seated>) -> Table {
        let n = seats.len();
        let tokens = seats.iter().map(|s| (s == HUMAN).then(token)).collect();
        Table {
            id,
            ruleset,
            seed,
            seats,
            tokens,
            game,
            logs: vec![Vec::new(); n],
            dropped: vec![0; n],
            version: 0,
            recent: vec![Vec::new(); n],
            marks: Vec::new(),
        }
    }

    /// The people's seats and their tokens.
    pub fn tokens(&self) -> Vec<(usize, String)> {
        self.tokens.iter().enumerate().filter_map(|(s, t)| t.clone().map(|t| (s, t))).collect()
    }

    /// The seat a token belongs to (compared in full, whatever its content).
    pub fn seat_of(&self, token: &str) -> Result<usize, Refusal> {
        self.tokens
            .iter()
            .position(|t| t.as_deref().is_some_and(|t| constant_time_eq(t.as_bytes(), token.as_bytes())))
            .ok_or_else(|| refuse(403, "this link does not belong to a seat at this table"))
    }

    /// What `seat` may know, its log from line `log_from` on (what the client
    /// has not got yet; lines the table no longer keeps are skipped).
    pub fn state(&self, seat: usize, log_from: usize) -> SeatState {
        let to_move = self.game.to_move();
        let log = &self.logs[seat];
        let skip = log_from.saturating_sub(self.dropped[seat]).min(log.len());
        SeatState {
            game: self.game.game(),
            ruleset: self.game.ruleset_id(),
            seat,
            seats: self.seats.clone(),
            version: self.version,
            view: self.game.view(seat),
            to_move,
            legal: if to_move == Some(seat) { self.game.legal() } else { Vec::new() },
            log: log[skip..].to_vec(),
            log_start: self.dropped[seat] + skip,
            over: self.game.over(),
            final_scores: self.game.final_scores(),
        }
    }

    fn record(&mut self, lines: Vec<Vec<LogLine>>) {
        for (seat, mut new) in lines.into_iter().enumerate() {
            let log = &mut self.logs[seat];
            log.append(&mut new);
            if log.len() > LOG_LINES {
                let extra = log.len() - LOG_LINES;
                log.drain(..extra);
                self.dropped[seat] += extra;
            }
        }
        self.version += 1;
    }

    /// A person's action for `seat` (its token checked by the caller); then the bots play until a person must decide.
    pub fn act(&mut self, seat: usize, action: &str) -> Result<(), Refusal> {
        let now = Instant::now();
        let recent = &mut self.recent[seat];
        recent.retain(|t| now.duration_since(*t).as_secs_f64() < 1.0);
        if recent.len() >= REFUSALS_PER_SECOND {
            return Err(refuse(429, "too many refused requests: wait a second"));
        }
        // A legal move moves the game on (which ends); only refusals can flood.
        let result = self.try_act(seat, action);
        if result.is_err() {
            self.recent[seat].push(now);
        }
        result
    }

    fn try_act(&mut self, seat: usize, action: &str) -> Result<(), Refusal> {
        match self.game.to_move() {
            None => return Err(refuse(409, "the game is over")),
            Some(s) if s != seat => return Err(refuse(409, format!("it is seat {s}'s turn, not seat {seat}'s"))),
            _ => {}
        }
        if action.len() > 200 || action.trim().is_empty() {
            return Err(refuse(400, "an action is one short line of the notation, e.g. `role builder`"));
        }
        let before = self.game.recorded();
        let lines = self.game.act(action).map_err(|e| refuse(422, e))?;
        self.marks.push(before);
        self.record(lines);
        self.play_bots()
    }

    /// Bots answer until a person must decide or the game ends.
    pub fn play_bots(&mut self) -> Result<(), Refusal> {
        let mut moves = 0u64;
        while let Some(seat) = self.game.to_move() {
            if self.seats[seat] == HUMAN {
                break;
            }
            let seed = self.seed ^ (self.version << 8 | seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let lines = self.game.bot_move(&self.seats[seat], seed).map_err(|e| refuse(500, e))?;
            self.record(lines);
            moves += 1;
            if moves > 100_000 {
                return Err(refuse(500, "the bots did not stop"));
            }
        }
        Ok(())
    }

    /// Takes back the person's last decision and the bots' moves after it: only
    /// at a table with one person (where nobody else's moves are taken back).
    pub fn undo(&mut self, seat: usize) -> Result<(), Refusal> {
        if self.seats.iter().filter(|s| *s == HUMAN).count() != 1 {
            return Err(refuse(409, "undo works at a table with one person only"));
        }
        let Some(mark) = self.marks.pop() else { return Err(refuse(409, "nothing to take back")) };
        match self.game.first_actions(self.seed, &self.seats, mark) {
            Ok(game) => self.game = game,
            Err(e) => {
                self.marks.push(mark);
                return Err(refuse(500, e));
            }
        }
        let mut lines = vec![Vec::new(); self.seats.len()];
        lines[seat].push(LogLine::plain("— your last decision was taken back —".to_owned()));
        self.record(lines);
        Ok(())
    }

    /// A bot takes over a person's seat (someone left): asked by anyone at the table (the caller checked the asker's token).
    pub fn take_over(&mut self, seat: usize, bot: &str) -> Result<(), Refusal> {
        if self.seats.get(seat).is_none_or(|s| s != HUMAN) {
            return Err(refuse(400, format!("seat {seat} is not a person's seat at this table")));
        }
        if bot == HUMAN {
            return Err(refuse(400, "name a bot: balance, greedy, random, mcts"));
        }
        engine_play::bots::BotSpec::parse(bot).map_err(|e| refuse(400, e))?;
        self.seats[seat] = bot.to_owned();
        self.tokens[seat] = None;
        let lines = vec![vec![LogLine::plain(format!("a {bot} bot takes over seat {seat}"))]; self.seats.len()];
        self.record(lines);
        self.play_bots()
    }

    /// The cards' public facts.
    pub fn cards(&self) -> serde_json::Value {
        self.game.cards()
    }

    /// The game so far as a file `sanjuan replay` plays.
    pub fn save(&self) -> String {
        self.game.save(&self.ruleset, self.seed, &self.seats)
    }
}

/// Compares two secrets without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
