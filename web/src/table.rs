//! A table: one game of any registered kind, its seats (people with a secret token,
//! or bots), and what each seat has been told. Every answer the server gives
//! a seat is built from the engine's view for that seat, so what a seat may
//! not see never leaves the server.

use std::time::Instant;

use std::sync::Arc;

pub use engine_game::LogLine;
use engine_game::models::Readiness;
use engine_game::view::WhyNot;
use engine_game::{AnyGame, Explanation, Models};
use engine_play::ActionView;
use rand::Rng;
use serde::Serialize;

/// A person's seat: `human`; anything else names a bot.
pub const HUMAN: &str = "human";

/// The longest name a person may give their seat, in characters.
pub const NAME_CHARS: usize = 24;

/// The most log lines kept per seat.
const LOG_LINES: usize = 400;

/// The most bot moves a table keeps for explaining (a game has some hundreds).
const BOT_MOVES: usize = 4_000;

/// Refused requests a seat may send in one second before it is told to wait.
const REFUSALS_PER_SECOND: usize = 20;

/// Moves, undos and takeovers a seat may make in one second unless the server
/// says otherwise: a person clicks a few times a second at most; a script that
/// plays and takes back in a loop (each undo replays the game, each move wakes
/// the bots) is slowed down. Undos: as many in ten seconds.
pub const MOVES_PER_SECOND: usize = 8;

/// The most iterations per move an `mcts:N` bot may think at a table: a bot
/// thinks on a copy of the game, but a server has few cores to share.
pub const MAX_TABLE_MCTS: u32 = 2_000;

/// Whether the bot `name` plays by the balance model (which is learned once per ruleset).
pub fn uses_model(name: &str) -> bool {
    name != HUMAN && engine_play::bots::BotSpec::parse(name).is_ok_and(|b| b.uses_model())
}

/// Checks a bot name for a seat at a table: one the engine knows, and a search no deeper than [`MAX_TABLE_MCTS`].
pub fn check_bot(name: &str) -> Result<(), Refusal> {
    match engine_play::bots::BotSpec::parse(name).map_err(|e| refuse(400, e))?.search_iterations() {
        Some(n) if n > MAX_TABLE_MCTS => Err(refuse(
            400,
            format!(
                "`{name}` thinks too long for a table: at most {MAX_TABLE_MCTS} iterations (the command line has no such bound)"
            ),
        )),
        _ => Ok(()),
    }
}

/// One table.
pub struct Table {
    /// Its id, in links.
    pub id: String,
    /// The game's own id, kept in its sealed downloads (a resumed copy is found by it).
    pub uid: String,
    /// The ruleset as given (an id or a file the server was started with).
    pub ruleset: String,
    /// The deal's seed.
    pub seed: u64,
    /// Per seat: `human` or a bot name.
    pub seats: Vec<String>,
    /// Per seat: the secret that lets a person act for it (people's seats only).
    tokens: Vec<Option<String>>,
    /// Per seat: the name its person gave it, if they did (people's seats only).
    pub names: Vec<Option<String>>,
    /// Per seat: its link was handed out (a resumed table hands each person's seat to its uploader).
    pub claimed: Vec<bool>,
    /// Play has begun. A table continued from a sealed copy waits until every
    /// person's seat is taken up (or handed to a bot); then what none of the
    /// people there has seen is dealt again, so that a copy tells nothing of
    /// the game it was copied from. A table made here starts at once.
    pub started: bool,
    /// Moves, undos and takeovers a seat may make in a second (and undos in ten seconds).
    pub moves_per_second: usize,
    /// A bot worker is moving for this table now (one at a time: a stale thought is dropped, not joined by another).
    pub bots_running: bool,
    game: Box<dyn AnyGame>,
    /// The server's balance models, for a balance bot's moves.
    models: Arc<Models>,
    logs: Vec<Vec<LogLine>>,
    /// Per seat: lines dropped from the front of its log (the oldest beyond `LOG_LINES`).
    dropped: Vec<usize>,
    /// Bumped at every change; clients wait for it.
    pub version: u64,
    recent: Vec<Vec<Instant>>,
    /// Per seat: its recent moves, undos and takeovers, and its recent undos.
    changes: Vec<Vec<Instant>>,
    undos: Vec<Vec<Instant>>,
    /// Saved entries before each of the people's decisions: the undo points.
    marks: Vec<usize>,
    /// The bot seat thinking now, if one is.
    pub thinking: Option<usize>,
    /// Why the bots stopped, if a bot failed (the table can go no further).
    pub broken: Option<String>,
    /// Since when the seat to move has been to move (a seat idle long enough may be handed to a bot).
    pub waiting_since: Instant,
    /// The last move, undo, takeover or join (idle tables are freed; looking, polling included, does not count).
    pub active: Instant,
    /// Explanations of the bots' moves are shown while the game goes on (the
    /// table was made so): they name a bot's options, and so its hand.
    /// Otherwise they are shown once the game is over, when all is public.
    pub explain: bool,
    /// The bots' moves, for explaining them: oldest first.
    moves: Vec<BotMove>,
}

/// One bot move as a table keeps it: enough to explain it now or later.
#[derive(Clone, Debug)]
struct BotMove {
    /// Saved entries before it: the game it answered is the first `entries` replayed.
    entries: usize,
    /// The bot and its seed for the move.
    bot: String,
    seed: u64,
    /// Per seat: the number of the move's first line in that seat's log, if it was told any.
    lines: Vec<Option<usize>>,
    /// Why it moved so: worked out as it moved at an explaining table, else once asked after the end.
    why: Option<Explanation>,
}

/// What a seat is sent: everything it may know, nothing else.
#[derive(Serialize)]
pub struct SeatState {
    /// The game id.
    pub game: &'static str,
    /// The game's display name.
    pub title: &'static str,
    /// The ruleset's id.
    pub ruleset: String,
    /// This seat.
    pub seat: usize,
    /// Who sits where (`human`, bot names).
    pub seats: Vec<String>,
    /// Per seat: the name its person typed (`null`: none; bots have their bot names in `seats`).
    pub names: Vec<Option<String>>,
    /// The table's version (for waiting on the next change).
    pub version: u64,
    /// The engine's view for this seat.
    pub view: serde_json::Value,
    /// The seat that must decide.
    pub to_move: Option<usize>,
    /// The bot seat thinking now, if one is.
    pub thinking: Option<usize>,
    /// Seconds the seat to move has been deciding.
    pub waiting_for: u64,
    /// This seat's legal answers (empty when it is not this seat's turn): send one's `id` to play it.
    pub legal: Vec<ActionView>,
    /// The cards this seat sees but cannot play now, each with why (empty when it is not this seat's turn).
    pub why_not: Vec<WhyNot>,
    /// While a bot here waits for the balance model to be learned: how far that is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learning: Option<Learning>,
    /// What this seat was told, oldest first: the lines from `log_start` on.
    pub log: Vec<LogLine>,
    /// The number of the first line in `log` (lines are numbered from 0 for the whole game).
    pub log_start: usize,
    /// The game has ended.
    pub over: bool,
    /// Once over: everyone's final score and its breakdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_scores: Option<serde_json::Value>,
    /// The lines of this seat's log that a bot's move starts and that can be
    /// explained now (`/why?line=N`): at a table made with `explain`, or once
    /// the game is over; empty (and left out) otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<usize>,
    /// A bot failed and the game can go no further.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broken: Option<String>,
    /// A continued game waits for these people's seats: each person uploads
    /// their own download (or a person here hands the seat to a bot).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waiting_for_people: Vec<usize>,
}

/// How far the balance model a bot at the table plays by is learned: self-play
/// games played and in all (0 of 0: its learning is about to start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Learning {
    /// Games played.
    pub done: u64,
    /// Games to play in all.
    pub all: u64,
}

/// A name a person typed for their seat, checked: at most [`NAME_CHARS`]
/// characters, no control or invisible formatting characters (which could
/// break a line or turn text around); `None` for an empty name (back to "seat N").
pub fn check_name(name: &str) -> Result<Option<String>, Refusal> {
    let name = name.trim();
    if name.chars().count() > NAME_CHARS {
        return Err(refuse(400, format!("A name can be at most {NAME_CHARS} characters long.")));
    }
    let invisible = |c: char| {
        c.is_control()
            || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
    };
    if name.chars().any(invisible) {
        return Err(refuse(400, "A name can hold letters, digits, spaces and punctuation, but no control characters."));
    }
    Ok((!name.is_empty()).then(|| name.to_owned()))
}

/// Why a request was refused: the HTTP status and the message.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// HTTP status code.
    pub status: u16,
    /// What to tell the client.
    pub message: String,
    /// Seconds after which asking again may succeed (sent as `Retry-After`).
    pub retry_after: Option<u64>,
}

/// A refusal with this status and message.
pub fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal { status, message: message.into(), retry_after: None }
}

impl Refusal {
    /// The same refusal, saying when to ask again.
    pub fn retry_after(self, seconds: u64) -> Refusal {
        Refusal { retry_after: Some(seconds), ..self }
    }
}

/// An unguessable token: 128 bits from the operating system's generator.
pub fn token() -> String {
    let mut rng = rand::rng();
    format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64())
}

/// A bot's move to make: a copy of the game to think on, and the table's version it was taken at.
pub struct BotJob {
    /// The game as it was.
    pub game: Box<dyn AnyGame>,
    /// The table's version then: the move is played only if nothing changed meanwhile.
    pub version: u64,
    /// The bot's name.
    pub bot: String,
    /// Its seed for this move.
    pub seed: u64,
    /// The models a balance bot plays by.
    pub models: Arc<Models>,
    /// Explain the move as it is made (a table made with `explain`).
    pub explain: bool,
}

/// A bot's answer: the number of the legal answer it chose, and why when asked.
pub type BotAnswer = Result<(usize, Option<Explanation>), String>;

impl BotJob {
    /// The number of the legal answer the bot chooses, explained at a table that explains.
    pub fn choose(&self) -> BotAnswer {
        match self.explain {
            // The same answer as unexplained: only the explanation is more.
            true => self.game.bot_explained_choice(&self.bot, self.seed, &self.models).map(|(c, w)| (c, Some(w))),
            false => self.game.bot_choice(&self.bot, self.seed, &self.models).map(|c| (c, None)),
        }
    }
}

/// The bots' moves of a finished game still to explain, with the game from
/// its start: worked out away from the table's lock ([`WhyJob::run`]).
pub struct WhyJob {
    /// The game as it was dealt.
    start: Box<dyn AnyGame>,
    /// Its saved entries and their format.
    entries: Vec<String>,
    version: u32,
    /// Per move still to explain: its index among the table's moves, entries before it, bot, seed.
    todo: Vec<(usize, usize, String, u64)>,
    models: Arc<Models>,
    /// The table's version the job was taken at.
    at: u64,
}

impl WhyJob {
    /// The table's version it was taken at (for [`Table::explained`]).
    pub fn at(&self) -> u64 {
        self.at
    }

    /// Replays the game once, explaining each move at its place: the bot
    /// chooses there as it did (the same game and seed), and tells why.
    pub fn run(self) -> Vec<(usize, Result<Explanation, String>)> {
        let mut game = self.start;
        let mut done = Vec::new();
        let mut played = 0;
        for (index, entries, bot, seed) in self.todo {
            while played < entries {
                let Some(entry) = self.entries.get(played) else { break };
                if let Err(e) = game.play_saved(self.version, entry) {
                    done.push((index, Err(format!("the game did not replay: {e}"))));
                    return done;
                }
                played += 1;
            }
            done.push((index, game.bot_explained_choice(&bot, seed, &self.models).map(|(_, w)| w)));
        }
        done
    }
}

impl Table {
    /// A table for `game` with these seats; people's seats get tokens. A balance
    /// bot plays by `models` (the server's).
    pub fn new(
        id: String,
        ruleset: String,
        seed: u64,
        seats: Vec<String>,
        game: Box<dyn AnyGame>,
        models: Arc<Models>,
    ) -> Table {
        let n = seats.len();
        let tokens = seats.iter().map(|s| (s == HUMAN).then(token)).collect();
        let now = Instant::now();
        Table {
            id,
            uid: token(),
            ruleset,
            seed,
            seats,
            tokens,
            names: vec![None; n],
            claimed: vec![true; n],
            started: true,
            bots_running: false,
            moves_per_second: MOVES_PER_SECOND,
            game,
            models,
            logs: vec![Vec::new(); n],
            dropped: vec![0; n],
            version: 0,
            recent: vec![Vec::new(); n],
            changes: vec![Vec::new(); n],
            undos: vec![Vec::new(); n],
            marks: Vec::new(),
            thinking: None,
            broken: None,
            waiting_since: now,
            active: now,
            explain: false,
            moves: Vec::new(),
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
            .ok_or_else(|| {
                refuse(
                    403,
                    "This link is not a seat at this table: check that it was copied whole, or ask for a new one.",
                )
            })
    }

    /// What `seat` may know, its log from line `log_from` on (what the client
    /// has not got yet; lines the table no longer keeps are skipped).
    pub fn state(&self, seat: usize, log_from: usize) -> SeatState {
        self.state_of(&*self.game, seat, log_from)
    }

    /// [`Table::state`] with everything `seat` has not seen dealt again from
    /// `seed`: equal to the real state when the state leaks nothing (a test's check).
    pub fn state_dealt_again(&self, seat: usize, log_from: usize, seed: u64) -> SeatState {
        self.state_of(&*self.game.dealt_again(seat, seed), seat, log_from)
    }

    fn state_of(&self, game: &dyn AnyGame, seat: usize, log_from: usize) -> SeatState {
        let to_move = game.to_move();
        let log = &self.logs[seat];
        let skip = log_from.saturating_sub(self.dropped[seat]).min(log.len());
        SeatState {
            game: game.game_id(),
            title: game.title(),
            ruleset: game.rules().id().to_owned(),
            seat,
            seats: self.seats.clone(),
            names: self.names.clone(),
            version: self.version,
            view: game.view(Some(seat)).unwrap_or_else(|e| serde_json::json!({ "error": e })),
            to_move,
            thinking: self.thinking,
            waiting_for: self.waiting_since.elapsed().as_secs(),
            // A continued game waiting for its people offers nothing to play yet.
            legal: if to_move == Some(seat) && self.started { game.legal() } else { Vec::new() },
            why_not: if self.started { game.why_not(seat) } else { Vec::new() },
            learning: self.learning(),
            log: log[skip..].to_vec(),
            log_start: self.dropped[seat] + skip,
            over: game.over(),
            final_scores: game.final_scores(),
            why: self.why_lines(seat),
            broken: self.broken.clone(),
            waiting_for_people: self.waiting_for_people(),
        }
    }

    /// How far the balance model is learned, while a bot here will play by it and it is not ready.
    fn learning(&self) -> Option<Learning> {
        if self.game.over() || !self.seats.iter().any(|s| uses_model(s)) {
            return None;
        }
        let rules = self.game.rules();
        match self.models.readiness(rules.game_id(), rules.fingerprint()) {
            Readiness::Ready => None,
            Readiness::Learning { done, all } => Some(Learning { done, all }),
            Readiness::Missing => Some(Learning { done: 0, all: 0 }),
        }
    }

    /// A person names their seat (an empty name takes the name back); everyone's page shows it.
    pub fn set_name(&mut self, seat: usize, name: &str) -> Result<(), Refusal> {
        self.names[seat] = check_name(name)?;
        // Not `record`: a name is no move, and the seat to move has waited as long as before.
        self.version += 1;
        Ok(())
    }

    /// Explanations may be sent to people now: at a table made with
    /// `explain`, or once the game is over (everything is public then).
    pub fn explaining(&self) -> bool {
        self.explain || self.game.over()
    }

    /// The lines of `seat`'s log that start an explainable bot move (none unless [`Table::explaining`]).
    fn why_lines(&self, seat: usize) -> Vec<usize> {
        if !self.explaining() {
            return Vec::new();
        }
        let first = self.dropped[seat];
        self.moves.iter().filter_map(|m| m.lines.get(seat).copied().flatten()).filter(|&l| l >= first).collect()
    }

    /// Why the bot moved so whose move starts line `line` of `seat`'s log:
    /// `Ok(None)` when it is still to be worked out ([`Table::why_job`]).
    pub fn why(&self, seat: usize, line: usize) -> Result<Option<Explanation>, Refusal> {
        if !self.explaining() {
            return Err(refuse(
                403,
                "a bot's options name the cards in its hand: they are shown once the game is over, or at a table \
                 made with `explain` (the first page's \"show the bots' options\")",
            ));
        }
        let m = self.moves.iter().find(|m| m.lines.get(seat).copied().flatten() == Some(line));
        match m {
            Some(m) => Ok(m.why.clone()),
            None => Err(refuse(404, format!("line {line} of your log starts no bot's move that the table kept"))),
        }
    }

    /// The bots' moves still to explain once the game is over, as a job to run
    /// away from the table's lock; `None` when there are none (or the game goes on).
    pub fn why_job(&self) -> Option<WhyJob> {
        if !self.game.over() || self.moves.iter().all(|m| m.why.is_some()) {
            return None;
        }
        let saved: toml::Table = self.save().parse().ok()?;
        let version = saved.get("version").and_then(toml::Value::as_integer).and_then(|v| u32::try_from(v).ok())?;
        let entries: Vec<String> = saved
            .get("actions")
            .and_then(toml::Value::as_array)
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        let todo = (self.moves.iter().enumerate())
            .filter(|(_, m)| m.why.is_none())
            .map(|(i, m)| (i, m.entries, m.bot.clone(), m.seed))
            .collect();
        let start = self.game.rules().start(self.seats.len(), self.seed).ok()?;
        Some(WhyJob { start, entries, version, todo, models: Arc::clone(&self.models), at: self.version })
    }

    /// Keeps what a [`WhyJob`] worked out, unless the table changed meanwhile.
    pub fn explained(&mut self, at: u64, done: Vec<(usize, Result<Explanation, String>)>) {
        if at != self.version {
            return;
        }
        for (index, why) in done {
            if let (Some(m), Ok(why)) = (self.moves.get_mut(index), why) {
                m.why = Some(why);
            }
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
        self.waiting_since = Instant::now();
    }

    /// A person's answer for `seat` (its token checked by the caller): the legal
    /// answer numbered `choice` when the table is still at `version`, or the
    /// answer whose notation is exactly `text`. The bots move afterwards ([`Table::bot_job`]).
    pub fn act(&mut self, seat: usize, choice: Choice) -> Result<(), Refusal> {
        let now = Instant::now();
        let recent = &mut self.recent[seat];
        recent.retain(|t| now.duration_since(*t).as_secs_f64() < 1.0);
        if recent.len() >= REFUSALS_PER_SECOND {
            return Err(refuse(429, "Too many refused clicks at once: wait a second, then try again."));
        }
        let result = self.paced(seat, false, |t| t.try_act(seat, choice));
        if result.is_err() {
            self.recent[seat].push(now);
        }
        result
    }

    /// Runs a change `seat` asks for (a move, an undo, a takeover) unless the
    /// seat has made too many in the last second (or, for an undo, too many
    /// undos in ten seconds); counts it when it is made.
    fn paced(
        &mut self,
        seat: usize,
        undo: bool,
        change: impl FnOnce(&mut Table) -> Result<(), Refusal>,
    ) -> Result<(), Refusal> {
        let now = Instant::now();
        self.changes[seat].retain(|t| now.duration_since(*t).as_secs_f64() < 1.0);
        self.undos[seat].retain(|t| now.duration_since(*t).as_secs_f64() < 10.0);
        if self.changes[seat].len() >= self.moves_per_second {
            return Err(refuse(429, "That is faster than anyone clicks: wait a second, then go on."));
        }
        if undo && self.undos[seat].len() >= self.moves_per_second {
            return Err(refuse(429, "That is many undos at once: wait a few seconds before taking back more."));
        }
        change(self)?;
        self.changes[seat].push(now);
        if undo {
            self.undos[seat].push(now);
        }
        self.active = now;
        Ok(())
    }

    fn try_act(&mut self, seat: usize, choice: Choice) -> Result<(), Refusal> {
        if !self.started {
            return Err(self.not_started());
        }
        match self.game.to_move() {
            None => return Err(refuse(409, "The game is over: there are no more moves to make.")),
            Some(s) if s != seat => {
                return Err(refuse(409, format!("It is not your turn: seat {s} is deciding. Your turn will come.")));
            }
            _ => {}
        }
        let legal = self.game.legal();
        let id = match choice {
            Choice::Id { id, version } => {
                if version != self.version {
                    return Err(refuse(
                        409,
                        "Someone moved before your click arrived; here is the table as it is now.",
                    ));
                }
                legal.get(id).map(|a| a.id).ok_or_else(|| {
                    refuse(
                        422,
                        format!(
                            "That move is not one you can make now (answer {id}; the answers now are numbered 0 to {}).",
                            legal.len().saturating_sub(1)
                        ),
                    )
                })?
            }
            Choice::Text(text) => {
                if text.len() > 200 || text.trim().is_empty() {
                    return Err(refuse(400, "an action is one short line of the notation, e.g. `role builder`"));
                }
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                legal.iter().find(|a| a.text == text).map(|a| a.id).ok_or_else(|| {
                    let all: Vec<&str> = legal.iter().map(|a| a.text.as_str()).collect();
                    refuse(
                        422,
                        format!("illegal action `{text}`: not one of the legal answers now: {}", all.join(", ")),
                    )
                })?
            }
        };
        let before = self.game.saved_len();
        let lines = self.game.play(id).map_err(|e| refuse(422, e))?.seats;
        self.marks.push(before);
        self.record(lines);
        Ok(())
    }

    /// The people's seats nobody has taken up yet (a continued game waits for them).
    pub fn waiting_for_people(&self) -> Vec<usize> {
        (0..self.seats.len()).filter(|&s| self.seats[s] == HUMAN && !self.claimed[s]).collect()
    }

    fn not_started(&self) -> Refusal {
        let seats: Vec<String> = self.waiting_for_people().iter().map(|s| format!("seat {s}")).collect();
        refuse(
            409,
            format!(
                "This game goes on once everyone is back: waiting for {} (each person uploads their own \
                 download of the game, or a bot is given the seat).",
                seats.join(" and ")
            ),
        )
    }

    /// Begins play at a continued game once every person's seat is taken up
    /// (or given to a bot): what none of the people here has seen (the deck's
    /// order, the bots' hands) is dealt again from a fresh secret seed and
    /// recorded, so the copy's future is not the future of the game it was
    /// copied from. True when play began now. The seat to move keeps its
    /// cards too (a pending decision names them).
    pub fn start(&mut self) -> Result<bool, Refusal> {
        if self.started || !self.waiting_for_people().is_empty() {
            return Ok(false);
        }
        if let Some(mover) = self.game.to_move() {
            let mut keep: Vec<usize> = (0..self.seats.len()).filter(|&s| self.seats[s] == HUMAN).collect();
            if !keep.contains(&mover) {
                keep.push(mover);
                keep.sort_unstable();
            }
            let fresh = rand::rng().next_u64() >> 11;
            self.game.redeal(&keep, fresh).map_err(|e| refuse(500, e))?;
        }
        self.started = true;
        let line = LogLine::plain(
            "— everyone is back: the cards none of the people here had seen were shuffled again, and play goes on —"
                .to_owned(),
        );
        self.record(vec![vec![line]; self.seats.len()]);
        Ok(true)
    }

    /// The next bot move to think about, if a bot is to move; marks it thinking.
    pub fn bot_job(&mut self) -> Option<BotJob> {
        let seat = self.game.to_move().filter(|&s| self.started && self.seats[s] != HUMAN && self.broken.is_none());
        self.thinking = seat;
        let seat = seat?;
        let seed = self.bot_seed(seat);
        Some(BotJob {
            game: self.game.clone_box(),
            version: self.version,
            bot: self.seats[seat].clone(),
            seed,
            models: Arc::clone(&self.models),
            explain: self.explain,
        })
    }

    /// The seed of `seat`'s bot for a move at the table's version now.
    fn bot_seed(&self, seat: usize) -> u64 {
        self.seed ^ (self.version << 8 | seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Plays a bot's chosen answer if the table is still where the bot looked;
    /// false when it moved on meanwhile (the bot thinks again).
    pub fn bot_played(&mut self, version: u64, choice: BotAnswer) -> bool {
        if version != self.version {
            return false;
        }
        let seat = self.game.to_move();
        let entries = self.game.saved_len();
        let seed = self.bot_seed(seat.unwrap_or(0));
        match choice.and_then(|(id, why)| self.game.play(id).map(|p| (p.seats, why))) {
            Ok((lines, why)) => {
                // Whoever is to move now: a bot that will think next, or a person. A
                // state read before the next job is taken must not name the bot that moved.
                self.thinking = self.game.to_move().filter(|&s| self.seats[s] != HUMAN);
                let first = (lines.iter().enumerate())
                    .map(|(s, l)| (!l.is_empty()).then(|| self.dropped[s] + self.logs[s].len()))
                    .collect();
                if let Some(seat) = seat {
                    if self.moves.len() >= BOT_MOVES {
                        self.moves.remove(0);
                    }
                    let bot = self.seats[seat].clone();
                    self.moves.push(BotMove { entries, bot, seed, lines: first, why });
                }
                self.record(lines);
            }
            Err(e) => {
                self.broken = Some(format!("a bot failed: {e}"));
                self.thinking = None;
                self.version += 1;
            }
        }
        true
    }

    /// Bots answer until a person must decide or the game ends, here and now
    /// (for tables nobody waits on: tests, a resumed game's set-up).
    pub fn play_bots(&mut self) -> Result<(), Refusal> {
        let mut moves = 0u64;
        while let Some(job) = self.bot_job() {
            let choice = job.choose();
            self.bot_played(job.version, choice);
            moves += 1;
            if moves > 100_000 {
                return Err(refuse(500, "the bots did not stop"));
            }
        }
        match &self.broken {
            Some(e) => Err(refuse(500, e.clone())),
            None => Ok(()),
        }
    }

    /// Takes back the person's last decision and the bots' moves after it: only
    /// at a table with one person (where nobody else's moves are taken back), and
    /// only while the game goes on. What the person has not seen is dealt again,
    /// so taking back a draw shows nothing of the face-down cards.
    pub fn undo(&mut self, seat: usize) -> Result<(), Refusal> {
        self.paced(seat, true, |t| t.try_undo(seat))
    }

    fn try_undo(&mut self, seat: usize) -> Result<(), Refusal> {
        if self.seats.iter().filter(|s| *s == HUMAN).count() != 1 {
            return Err(refuse(409, "Undo works only at a table with one person: the others have seen your move."));
        }
        if self.game.over() {
            return Err(refuse(409, "The game is over: nothing can be taken back now."));
        }
        let Some(mark) = self.marks.pop() else {
            return Err(refuse(409, "There is nothing of yours to take back yet."));
        };
        let fresh = rand::rng().next_u64() >> 11;
        match self.game.undo_to(self.seed, mark, seat, fresh) {
            Ok(game) => {
                self.game = game;
                // The bots' moves taken back are no longer the game's.
                self.moves.retain(|m| m.entries < mark);
            }
            Err(e) => {
                self.marks.push(mark);
                return Err(refuse(500, e));
            }
        }
        let mut lines = vec![Vec::new(); self.seats.len()];
        lines[seat].push(LogLine::plain(
            "— your last decision was taken back; the cards you have not seen were shuffled again —".to_owned(),
        ));
        self.record(lines);
        Ok(())
    }

    /// A bot takes over a person's seat: one's own at any time; another
    /// person's only when that seat has been deciding for `idle` or longer
    /// (someone left), never while they play.
    pub fn take_over(
        &mut self,
        asker: usize,
        seat: usize,
        bot: &str,
        idle: std::time::Duration,
    ) -> Result<(), Refusal> {
        self.paced(asker, false, |t| t.try_take_over(asker, seat, bot, idle))
    }

    fn try_take_over(
        &mut self,
        asker: usize,
        seat: usize,
        bot: &str,
        idle: std::time::Duration,
    ) -> Result<(), Refusal> {
        if self.seats.get(seat).is_none_or(|s| s != HUMAN) {
            return Err(refuse(400, format!("Seat {seat} is not a person's seat at this table.")));
        }
        if bot == HUMAN {
            return Err(refuse(400, "Choose a bot to play the seat: balance, greedy, random or mcts."));
        }
        check_bot(bot)?;
        self.game.rules().check_bot(bot).map_err(|e| refuse(400, e))?;
        if self.game.over() {
            return Err(refuse(409, "The game is over: no seat is handed to a bot now."));
        }
        // A seat nobody has taken up at a continued game is nobody's: it may go to a bot at once.
        if seat != asker && self.claimed[seat] {
            let idle_for = self.waiting_since.elapsed();
            if self.game.to_move() != Some(seat) || idle_for < idle {
                let now = if self.game.to_move() == Some(seat) {
                    format!("it has been deciding for {} s", idle_for.as_secs())
                } else {
                    "it is not its turn".to_owned()
                };
                return Err(refuse(
                    409,
                    format!(
                        "Seat {seat} is not idle ({now}): another person's seat goes to a bot only once it has been \
                         deciding for {} s, so that nobody loses a seat while still playing.",
                        idle.as_secs(),
                    ),
                ));
            }
        }
        self.seats[seat] = bot.to_owned();
        self.tokens[seat] = None;
        self.names[seat] = None;
        let lines = vec![vec![LogLine::plain(format!("a {bot} bot takes over seat {seat}"))]; self.seats.len()];
        self.record(lines);
        self.start()?;
        Ok(())
    }

    /// The cards' public facts.
    pub fn cards(&self) -> serde_json::Value {
        self.game.rules().cards_json()
    }

    /// The game so far as a file `sanjuan replay` plays (seed and every action: everything).
    pub fn save(&self) -> String {
        self.game.save(&self.ruleset, self.seed, &self.seats)
    }

    /// The game has ended.
    pub fn over(&self) -> bool {
        self.game.over()
    }

    /// This moment as a scenario file (`sanjuan scenario` plays it): the game
    /// reached by play from its seed. It tells every hand and the deck's order,
    /// so it is written only once the game is over, or at a table with one
    /// person on their turn: then everything that person has not seen is
    /// dealt again at the table right after (recorded, as an undo's re-deal
    /// is), so the file tells nothing of this game's future.
    pub fn scenario(&mut self, seat: usize) -> Result<String, Refusal> {
        if self.game.over() {
            return self.scenario_text(seat);
        }
        let people = self.seats.iter().filter(|s| *s == HUMAN).count();
        if people != 1 || !self.started {
            return Err(refuse(
                409,
                "a moment's file tells every hand and the deck's order: it is saved at a table with one person, \
                 or once the game is over",
            ));
        }
        if self.game.to_move() != Some(seat) {
            return Err(refuse(409, "Save the moment on your turn (the bots are still moving)."));
        }
        let text = self.scenario_text(seat)?;
        let fresh = rand::rng().next_u64() >> 11;
        self.game.redeal(&[seat], fresh).map_err(|e| refuse(500, e))?;
        let mut lines = vec![Vec::new(); self.seats.len()];
        lines[seat].push(LogLine::plain(
            "— the moment was saved; the cards you have not seen were shuffled again, so the file tells nothing \
             of what comes —"
                .to_owned(),
        ));
        self.record(lines);
        Ok(text)
    }

    fn scenario_text(&self, seat: usize) -> Result<String, Refusal> {
        let saved: toml::Table = self.save().parse().map_err(|e: toml::de::Error| refuse(500, e.to_string()))?;
        let from = engine_game::saved::FromGame {
            players: self.seats.len(),
            seed: self.seed,
            actions: saved
                .get("actions")
                .and_then(toml::Value::as_array)
                .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
        };
        let moment = match self.game.to_move() {
            Some(m) => format!("seat {m} ({}) decides next", self.seats[m]),
            None => "the game is over".to_owned(),
        };
        let mut doc = toml::Table::new();
        doc.insert(
            "description".into(),
            format!("A moment of a game at a `sanjuan serve` table, saved by seat {seat}: {moment}.").into(),
        );
        doc.insert("ruleset".into(), self.ruleset.clone().into());
        doc.insert("actions".into(), toml::Value::Array(Vec::new()));
        doc.insert("from_game".into(), toml::Value::try_from(from).map_err(|e| refuse(500, e.to_string()))?);
        Ok(format!(
            "# Add actions to play from this moment, and an [expect] table for `sanjuan scenario FILE --check`\n\
             # (docs/scenarios.md). The position is reached by replaying [from_game] from its seed.\n{}",
            toml::to_string(&doc).map_err(|e| refuse(500, e.to_string()))?
        ))
    }

    /// Once over: the game's record as one JSON line, people's seats named `human`.
    pub fn record_line(&self) -> Option<String> {
        let record = self.game.record(self.seed, &self.seats)?;
        serde_json::to_string(&record).ok()
    }

    /// Entries a saved game of it holds.
    pub fn saved_len(&self) -> usize {
        self.game.saved_len()
    }
}

/// What a person's request to act names.
#[derive(Clone, Debug)]
pub enum Choice {
    /// A legal answer by its number, at the table's version the client saw.
    Id {
        /// The answer's `id`.
        id: usize,
        /// The table's version the answer was offered at.
        version: u64,
    },
    /// A legal answer by its notation, written exactly as `legal` gives it.
    Text(String),
}

/// Compares two secrets without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
