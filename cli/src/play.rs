//! `sanjuan play`: a game in the terminal against bots; `sanjuan replay`.
//!
//! The screen shows what the human's seat may see: its hand with each card's
//! cost, points and text, the other cities, the roles still open with what they
//! do, and the legal answers as numbered choices. The log shows every event as
//! that seat sees it (others' hidden cards only counted).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use san_juan::bots;
use san_juan::cards::CardIdx;
use san_juan::files::Source;
use san_juan::game::{Decision, DiscardReason, Event};
use san_juan::saved::SavedGame;
use san_juan::{Action, Game, GameError, Role, Ruleset};

use crate::games::Which;
use crate::{CmdResult, load_ruleset};

/// Arguments of `sanjuan play`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of players.
    #[arg(long, default_value_t = 3, value_parser = crate::limits::players())]
    pub(crate) players: usize,
    /// Your seat (0 = first).
    #[arg(long, default_value_t = 0)]
    pub(crate) seat: usize,
    /// Game seed; random when not given. It is printed at the start, so the same deal can be played again.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Ruleset id or path.
    #[arg(long, default_value = san_juan::DEFAULT_RULESET)]
    pub(crate) ruleset: String,
    /// The opponents' bot: random, greedy, mcts or mcts:N [default: random, or the saved seats with --resume].
    #[arg(long)]
    pub(crate) bots: Option<String>,
    /// Write the game (seed and every action) to this file when it ends or you quit;
    /// `sanjuan replay FILE` plays it again, `sanjuan play --resume FILE` continues it.
    #[arg(long)]
    pub(crate) save: Option<PathBuf>,
    /// Continue a game saved with --save: replay it, then play on. Its ruleset, players, seed
    /// and seats are used, and --save defaults to the same file.
    #[arg(long, conflicts_with_all = ["seed", "ruleset", "players"])]
    pub(crate) resume: Option<PathBuf>,
}

impl Args {
    /// The seed (random unless given) and who plays each seat, after checking
    /// the seat and the bot name (a misspelt bot fails now, not at its first move).
    pub(crate) fn table(&self, check_bot: impl Fn(&str) -> Result<(), String>) -> Result<(u64, Vec<String>), String> {
        if self.seat >= self.players {
            return Err(format!(
                "--seat {} is not a seat of a {}-player game; seats are 0 to {}",
                self.seat,
                self.players,
                self.players.saturating_sub(1)
            ));
        }
        let bot = self.bots.clone().unwrap_or_else(|| "random".into());
        check_bot(&bot)?;
        let seed = self.seed.unwrap_or_else(|| u64::from(rand::random::<u32>()));
        let seats = (0..self.players).map(|s| if s == self.seat { "human".into() } else { bot.clone() }).collect();
        Ok((seed, seats))
    }
}

/// Prints the state as seen by `viewer` (or everything).
pub fn print_state(game: &Game, viewer: Option<usize>) {
    let cards = &game.ruleset().cards;
    println!(
        "round {}, governor seat {}, deck {}, discard {}",
        game.round(),
        game.governor(),
        game.deck_size(),
        game.discard_size()
    );
    if let Some(tile) = game.trading_tile_text() {
        println!("trading tile: {tile}");
    }
    for seat in 0..game.num_players() {
        let p = game.player(seat);
        // Others' cards under chapel/bank/harbor, and so their scores, are hidden.
        let sees_all = viewer.is_none_or(|v| v == seat);
        let city: Vec<String> = p.city.iter().map(|s| building_label(cards, s, sees_all, false)).collect();
        let score = match game.score(seat) {
            Ok(s) if sees_all => format!(" ({} VP)", s.total),
            _ => String::new(),
        };
        println!("seat {seat}: {} buildings{score}: {}{}", p.city.len(), city.join(" "), player_counters(p));
        if viewer.is_none_or(|v| v == seat) {
            let mut hand: Vec<&str> = p.hand.iter().map(|&c| cards.id(c)).collect();
            hand.sort_unstable();
            println!("        hand ({}): {}", hand.len(), hand.join(" "));
        } else {
            println!("        hand: {} cards", p.hand.len());
        }
    }
    if let Some(d) = game.pending() {
        let legal: Vec<String> = game.legal_actions().iter().map(|a| a.text(cards)).collect();
        println!("seat {} decides: {} -> {}", d.seat(), d.name(), legal.join(" | "));
        if !game.limbo().is_empty() && viewer.is_none_or(|v| v == d.seat()) {
            let offered: Vec<&str> = game.limbo().iter().map(|&c| cards.id(c)).collect();
            println!("offered: {}", offered.join(" "));
        }
    }
}

/// Runs an interactive game on stdin/stdout.
pub fn run(args: Args) -> CmdResult {
    let which = match &args.resume {
        Some(file) => Which::of_file(file)?,
        None => Which::of_ruleset(&args.ruleset)?,
    };
    match which {
        Which::SanJuan => run_san_juan(args),
        Which::Alhambra => crate::alhambra::play(args),
    }
}

fn run_san_juan(args: Args) -> CmdResult {
    let mut s = match &args.resume {
        Some(file) => Session::resume(file, &args)?,
        None => Session::new(&args)?,
    };
    s.intro();
    let stdin = std::io::stdin();
    let echoed = stdin.is_terminal();
    let mut lines = crate::output::bounded_lines(stdin.lock());
    let mut show = Show::Table;
    while let Some(seat) = s.game.pending().map(Decision::seat) {
        if seat != s.human {
            s.bot_move(seat)?;
            show = Show::Table;
            continue;
        }
        match show {
            Show::Table => s.screen(),
            Show::Choices => {
                s.hand();
                s.choices();
            }
            Show::Nothing => {}
        }
        s.prompt();
        let line = match lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) => {
                s.save()?;
                return Err(format!("reading the standard input: {e}; type one action per line"));
            }
            None => {
                println!();
                break;
            }
        };
        if !echoed {
            // Typed input is echoed by the terminal; piped input is not: keep the transcript readable.
            println!("{line}");
        }
        show = Show::Nothing;
        match s.resolve(line.trim()) {
            Input::Quit => break,
            Input::Help => s.help(),
            Input::Show => show = Show::Table,
            Input::Undo => match s.undo() {
                Ok(()) => show = Show::Table,
                Err(why) => println!("{why}"),
            },
            // Bots that move next set the whole table to be shown again.
            Input::Line(text) => match s.play_line(&text)? {
                Ok(()) => show = Show::Choices,
                Err(why) => println!("{why}"),
            },
            Input::Invalid(why) => println!("{why}"),
        }
    }
    s.save()?;
    if s.game.is_over() {
        s.end()?;
    } else if let Some(path) = &s.save {
        println!("game not finished; continue it with: sanjuan play --resume {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// What to print before the next prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Show {
    /// The whole table: something moved that the human has not seen on it.
    Table,
    /// The hand and the choices: the human's own decision goes on (paying, producing).
    Choices,
    /// Only the prompt again (after help or a refused line).
    Nothing,
}

/// What a line typed at the prompt asks for.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    /// Actions in the notation, for the pending decision.
    Line(String),
    /// Take back the last decision.
    Undo,
    /// Stop (the game is saved).
    Quit,
    /// Explain the input.
    Help,
    /// Print the screen again.
    Show,
    /// Not understood, and why.
    Invalid(String),
}

/// Bold text on a terminal; plain text in a pipe or with `NO_COLOR` set.
struct Style {
    color: bool,
}

impl Style {
    fn detect() -> Style {
        Style { color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() }
    }

    fn bold(&self, text: &str) -> String {
        if self.color { format!("\x1b[1m{text}\x1b[0m") } else { text.to_owned() }
    }

    fn dim(&self, text: &str) -> String {
        if self.color { format!("\x1b[2m{text}\x1b[0m") } else { text.to_owned() }
    }
}

/// One game at the terminal: the game, who plays each seat, and what undo goes back to.
struct Session {
    rs: Arc<Ruleset>,
    /// The ruleset as the saved file names it.
    ruleset: String,
    seed: u64,
    human: usize,
    /// Per seat: `human` or a bot name.
    seats: Vec<String>,
    game: Game,
    /// Recorded actions before each of the human's decisions: undo goes back to the last.
    marks: Vec<usize>,
    save: Option<PathBuf>,
    style: Style,
}

impl Session {
    fn new(args: &Args) -> Result<Session, String> {
        let rs = load_ruleset(&args.ruleset)?;
        let (seed, seats) = args.table(|b| bots::BotSpec::parse(b).map(|_| ()))?;
        crate::balance::prepare_for::<crate::games::SanJuan>(&rs, &seats)?;
        let mut game = Game::new(Arc::clone(&rs), args.players, seed).map_err(|e| e.to_string())?;
        game.log_events(true);
        game.record_actions(true);
        Ok(Session {
            rs,
            ruleset: ruleset_for_save(&args.ruleset),
            seed,
            human: args.seat,
            seats,
            game,
            marks: Vec::new(),
            save: args.save.clone(),
            style: Style::detect(),
        })
    }

    /// Replays a saved game; the human's earlier decisions become undo points.
    fn resume(file: &Path, args: &Args) -> Result<Session, String> {
        let source = Source::Disk(file.to_path_buf());
        let text = source.read().map_err(|e| e.to_string())?;
        let saved = SavedGame::parse(&source, &text).map_err(|e| e.to_string())?;
        let rs = Ruleset::load_relative(&saved.ruleset, &source)
            .map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
        let human = saved.seats.iter().position(|s| s == "human").unwrap_or(args.seat);
        if human >= saved.players {
            return Err(format!("--seat {human} is not a seat of the saved {}-player game", saved.players));
        }
        let seats = resumed_seats(&saved.seats, saved.players, human, args.bots.as_deref());
        for b in seats.iter().filter(|b| *b != "human") {
            bots::BotSpec::parse(b).map_err(|e| format!("{}: seat bot {e}", file.display()))?;
        }
        crate::balance::prepare_for::<crate::games::SanJuan>(&rs, &seats)?;
        let mut game = Game::new(Arc::clone(&rs), saved.players, saved.seed).map_err(|e| e.to_string())?;
        game.record_actions(true);
        let mut marks = Vec::new();
        for (i, a) in saved.actions.iter().enumerate() {
            // Each of the human's decisions is an undo point; paying continues choosing what to build.
            if let Some(d) = game.pending()
                && d.seat() == human
                && !matches!(d, Decision::Pay { .. })
            {
                marks.push(game.saved_len());
            }
            let applied = match engine_rules::saved::Redeal::parse(a) {
                Some((seat, seed)) => game.redeal(seat, seed).map(|()| Vec::new()),
                None if saved.version == 1 => game.apply_text(a),
                None => game.apply_exact(a),
            };
            applied.map_err(|e| {
                format!(
                    "{}: action {} `{}`: {}; the saved game does not fit its ruleset (was the ruleset changed?)",
                    file.display(),
                    i + 1,
                    engine_rules::error::clip(a, 80),
                    engine_rules::error::clip(&e.to_string(), 400)
                )
            })?;
        }
        game.log_events(true);
        // A relative ruleset path is relative to the saved file; saving elsewhere needs it absolute.
        let ruleset = resumed_ruleset(file, &saved.ruleset);
        Ok(Session {
            rs,
            ruleset,
            seed: saved.seed,
            human,
            seats,
            game,
            marks,
            save: args.save.clone().or_else(|| Some(file.to_path_buf())),
            style: Style::detect(),
        })
    }

    fn intro(&self) {
        let n = self.game.num_players();
        println!("{}", self.style.bold(&format!("San Juan — {} ({} players)", self.rs.name, n)));
        let bots: Vec<String> =
            (0..n).filter(|&s| s != self.human).map(|s| format!("seat {s} {}", self.seats[s])).collect();
        println!("You are seat {}; {}.", self.human, bots.join(", "));
        let ruleset = if self.ruleset == san_juan::DEFAULT_RULESET {
            String::new()
        } else {
            format!(" --ruleset {}", self.ruleset)
        };
        println!(
            "Seed {}. The same deal again: sanjuan play --seed {} --players {n} --seat {}{ruleset}",
            self.seed, self.seed, self.human
        );
        if self.game.recorded().is_empty() {
            println!("Type the number of a choice, or ? for help.");
        } else {
            println!("Resumed after {} recorded actions.", self.game.recorded().len());
        }
    }

    fn cards(&self) -> &san_juan::cards::CardTable {
        &self.rs.cards
    }

    fn id(&self, c: CardIdx) -> &str {
        self.cards().id(c)
    }

    fn name(&self, c: CardIdx) -> String {
        self.cards().get(c).name.to_lowercase()
    }

    /// Prints the events `seat` may see.
    fn log(&self, events: &[Event]) {
        for e in events.iter().filter_map(|e| e.seen_by(self.human)) {
            println!("  {}", self.style.dim(&e.text));
        }
    }

    /// A bot answers; its seed follows from the position so that undo and the same answer replay the same game.
    fn bot_move(&mut self, seat: usize) -> Result<(), String> {
        let ply = self.game.recorded().len() as u64;
        let seed = self.seed ^ (ply << 8 | seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut bot = bots::make(self.game.ruleset(), &self.seats[seat], seed)?;
        let action = bot.choose(&self.game, self.game.legal_actions());
        match self.game.apply(action) {
            Ok(events) => {
                self.log(&events);
                Ok(())
            }
            Err(e) => {
                // Keep what was played so far: the error can be replayed and reported.
                self.save()?;
                Err(e.to_string())
            }
        }
    }

    /// Plays a line for the human: `Err` for a fatal error, `Ok(Err(why))` for a refused line.
    fn play_line(&mut self, text: &str) -> Result<Result<(), String>, String> {
        let before = self.game.saved_len();
        // On a copy: a line refused halfway leaves the game as it was.
        let mut trial = self.game.clone();
        match trial.apply_text(text) {
            Ok(events) => {
                self.marks.push(before);
                self.game = trial;
                self.log(&events);
                Ok(Ok(()))
            }
            Err(e @ (GameError::Illegal { .. } | GameError::Parse { .. })) => Ok(Err(e.to_string())),
            Err(e) => {
                self.game = trial;
                self.save()?;
                Err(e.to_string())
            }
        }
    }

    /// Takes back the human's last decision and the bots' moves after it.
    fn undo(&mut self) -> Result<(), String> {
        if self.game.is_over() {
            return Err("the game is over: nothing can be taken back".into());
        }
        let Some(mark) = self.marks.pop() else {
            return Err("nothing to undo: you have made no decision yet".into());
        };
        let fresh = rand::Rng::next_u64(&mut rand::rng());
        self.game = engine_rules::saved::undo_to(&self.game, Arc::clone(&self.rs), self.seed, mark, self.human, fresh)
            .map_err(|e| format!("undo failed: {e}"))?;
        println!(
            "Took back your last decision and the moves after it; the cards you have not seen were shuffled again."
        );
        Ok(())
    }

    fn save(&self) -> Result<(), String> {
        let Some(path) = &self.save else { return Ok(()) };
        let saved = SavedGame::of(&self.game, &self.ruleset, self.seed, self.seats.clone());
        crate::output::write_file(path, saved.to_toml())?;
        eprintln!("saved to {}; replay with: sanjuan replay {}", path.display(), path.display());
        Ok(())
    }

    // ----- the screen ----------------------------------------------------------

    /// The position as the human sees it, then the choices.
    fn screen(&self) {
        let g = &self.game;
        let phase = match g.phase() {
            Some(ph) => format!("{} phase, chosen by seat {}", ph.role, ph.chooser),
            None => "choosing roles".into(),
        };
        println!();
        println!(
            "{}",
            self.style.bold(&format!("== round {} · governor seat {} · {phase} ==", g.round(), g.governor()))
        );
        let mut table = format!("deck {} · discard {}", g.deck_size(), g.discard_size());
        if let Some(tile) = g.trading_tile_text() {
            table.push_str(&format!(" · trading tile: {tile}"));
        }
        for &c in g.public_cards() {
            table.push_str(&format!(" · on the table: {} ({})", self.id(c), self.cards().get(c).text));
        }
        println!("{table}");
        for seat in 0..g.num_players() {
            self.city_line(seat);
        }
        let left: Vec<&str> = Role::ALL.into_iter().filter(|r| !g.roles_taken().contains(r)).map(Role::name).collect();
        if !matches!(g.pending(), Some(Decision::Role { .. })) && g.phase().is_some() {
            println!("roles left this round: {}", if left.is_empty() { "none".into() } else { left.join(", ") });
        }
        self.hand();
        self.choices();
    }

    fn city_line(&self, seat: usize) {
        let g = &self.game;
        let p = g.player(seat);
        let mine = seat == self.human;
        let city: Vec<String> = p.city.iter().map(|s| building_label(self.cards(), s, mine, true)).collect();
        let who = if mine { "you".to_owned() } else { self.seats[seat].clone() };
        let score = match g.score(seat) {
            Ok(s) if mine => format!(" · {} VP", s.total),
            _ => String::new(),
        };
        println!(
            "seat {seat} ({who}){score} · hand {} · {}: {}{}",
            p.hand.len(),
            count(p.city.len() as i32, "building"),
            city.join(" "),
            player_counters(p)
        );
    }

    fn card_line(&self, c: CardIdx) -> String {
        let def = self.cards().get(c);
        format!("{:<16} cost {} · {} VP · {}", def.id, def.cost, def.vp, def.text)
    }

    fn hand(&self) {
        let mut hand = self.game.player(self.human).hand.clone();
        hand.sort_by_key(|&c| (self.cards().get(c).cost, self.id(c).to_owned()));
        println!("your hand ({}):", hand.len());
        for c in hand {
            println!("    {}", self.card_line(c));
        }
    }

    /// What the pending decision asks, and the legal answers as numbered choices.
    fn choices(&self) {
        let g = &self.game;
        let Some(d) = g.pending() else { return };
        let heading = match d {
            Decision::Role { .. } => "Choose a role (everyone takes its action; you also get its privilege):".into(),
            Decision::Build { .. } => "Build one building, or pass:".into(),
            Decision::Pay { card, remaining, .. } => {
                format!("Pay for the {}: {} left to pay:", self.id(*card), count(*remaining, "card"))
            }
            Decision::Produce { left, .. } => format!("Produce: {} left, or stop:", count(*left, "good")),
            Decision::Sell { left, .. } => format!("Sell: {} left, or stop:", count(*left, "good")),
            Decision::Keep { left, .. } => format!("Keep {} of the cards you drew:", count(*left as i32, "card")),
            Decision::Discard { left, reason, .. } => {
                let why = match reason {
                    DiscardReason::HandLimit => " (hand limit)",
                    DiscardReason::Council => " (your archive: from the whole hand)",
                    DiscardReason::Setup => " (back to the starting hand)",
                    DiscardReason::Building(b) => &format!(" ({})", self.name(*b)),
                };
                format!("Discard {}{why}:", count(*left as i32, "card"))
            }
            Decision::Reveal { slot, .. } => {
                let by = self.name(g.player(self.human).city[*slot].card);
                let shown: Vec<&str> = g.limbo().iter().map(|&c| self.id(c)).collect();
                format!("Your {by} revealed {}. Keep one, or pass:", shown.join(", "))
            }
            Decision::Tuck { slot, .. } => {
                let card = g.player(self.human).city[*slot].card;
                let vp = self.cards().get(card).under_vp;
                format!("Put hand cards face down under your {} ({vp} VP each at the end), or stop:", self.name(card))
            }
            Decision::Exchange { .. } => "Exchange hand cards (discard now, draw as many after), or stop:".into(),
            Decision::Choose { owner, slot, .. } => {
                let by = g.card_at(*owner, *slot);
                format!("The {} asks you to choose ({}):", self.name(by), self.cards().get(by).text)
            }
            Decision::Pick { owner, slot, from, left, .. } => {
                let by = g.card_at(*owner, *slot);
                format!("Choose {} from your {} for the {}:", count(*left as i32, "card"), from.name(), self.name(by))
            }
            Decision::Give { to, left, cause, .. } => {
                format!("Give {} to seat {to} ({}):", count(*left as i32, "card"), self.name(*cause))
            }
            Decision::Look { slot, .. } => {
                let by = self.name(g.player(self.human).city[*slot].card);
                let shown: Vec<&str> = g.limbo().iter().map(|&c| self.id(c)).collect();
                format!("Your {by} shows you the top of the draw pile: {}. Discard one, or pass:", shown.join(", "))
            }
        };
        println!("{}", self.style.bold(&heading));
        for (i, a) in g.legal_actions().iter().enumerate() {
            println!("  {:>2}  {}", i + 1, self.describe(d, a));
        }
        if let Decision::Build { options, .. } = d {
            let mut blocked: Vec<CardIdx> = Vec::new();
            for &c in g.player(self.human).hand.iter().chain(g.public_cards()) {
                if !options.iter().any(|o| o.card == c) && !blocked.contains(&c) {
                    blocked.push(c);
                }
            }
            for c in blocked {
                let why = g.why_illegal(Action::Build { card: c, over: None }).unwrap_or_default();
                println!("      {}", self.style.dim(&format!("cannot build {}: {why}", self.id(c))));
            }
        }
    }

    /// One legal action in words.
    fn describe(&self, d: &Decision, a: &Action) -> String {
        let g = &self.game;
        let rules = &self.rs.rules;
        match (d, a) {
            (Decision::Role { boost, .. }, Action::Role { role, boost: used }) => {
                let factor = if *used { *boost } else { 1 };
                let boosted = if factor > 1 { format!(" (×{factor})") } else { String::new() };
                let privilege = |n: i32| n * factor;
                let what = match role {
                    Role::Builder => format!(
                        "everyone may build 1 building; privilege{boosted}: pay {} less",
                        count(privilege(rules.builder_discount), "card")
                    ),
                    Role::Producer => format!(
                        "everyone produces {}; privilege{boosted}: {} more",
                        count(rules.produce, "good"),
                        privilege(rules.producer_privilege)
                    ),
                    Role::Trader => format!(
                        "everyone sells {}; privilege{boosted}: {} more",
                        count(rules.sell, "good"),
                        privilege(rules.trader_privilege)
                    ),
                    Role::Councillor => format!(
                        "everyone draws {} and keeps {}; privilege{boosted}: draw {} more",
                        rules.council_draw,
                        rules.council_keep,
                        privilege(rules.council_privilege)
                    ),
                    Role::Prospector => format!(
                        "no action; privilege{boosted}: draw {}",
                        count(privilege(rules.prospector_privilege), "card")
                    ),
                };
                let plain = if !*used && *boost > 1 { ", keeping your boost for later" } else { "" };
                format!("{:<11} {what}{plain}", role.name())
            }
            (Decision::Build { options, .. }, Action::Build { card, over }) => {
                let p = g.player(self.human);
                let opt = options.iter().find(|o| o.card == *card && o.over.map(|s| p.city[s].card) == *over);
                let over_text = over.map(|o| format!(" over {}", self.id(o))).unwrap_or_default();
                let cost = opt.map_or(String::new(), |o| {
                    let goods = if o.goods_as_cards > 0 && o.cost > 0 {
                        format!(" (goods may pay up to {})", o.goods_as_cards.min(o.cost))
                    } else {
                        String::new()
                    };
                    match o.cost {
                        0 => "free".to_owned(),
                        n => format!("pay {}{goods}", count(n, "card")),
                    }
                });
                format!("build {}{over_text}: {cost} — {}", self.id(*card), self.cards().get(*card).text)
            }
            (_, Action::Pay(c)) => format!("pay with {}", self.id(*c)),
            (_, Action::Spend(b)) => format!("pay with the good on {}", self.id(*b)),
            (_, Action::Produce(b)) => {
                let good = self.cards().get(*b).good_name.clone().unwrap_or_else(|| "a good".into());
                format!("produce {good} on {}", self.id(*b))
            }
            (_, Action::Sell(b)) => format!("sell the good on {} for {}", self.id(*b), count(g.price_of(*b), "card")),
            (_, Action::Keep(c)) => format!("keep {}", self.card_line(*c)),
            (Decision::Exchange { .. }, Action::Discard(c)) => format!("exchange {}", self.id(*c)),
            (_, Action::Discard(c)) => format!("discard {}", self.card_line(*c)),
            (Decision::Tuck { slot, .. }, Action::Tuck(c)) => {
                format!("put {} under your {}", self.id(*c), self.name(g.player(self.human).city[*slot].card))
            }
            (Decision::Build { .. }, Action::Pass) => "pass: build nothing".into(),
            (Decision::Produce { .. }, Action::Pass) => "stop producing".into(),
            (Decision::Sell { .. }, Action::Pass) => "stop selling".into(),
            (Decision::Reveal { .. }, Action::Pass) => "keep none".into(),
            (Decision::Exchange { .. }, Action::Pass) => "stop, and draw as many as you discarded".into(),
            (_, Action::Pass) => "stop".into(),
            (_, a) => a.text(self.cards()),
        }
    }

    /// The prompt, with the short forms that work now.
    fn prompt(&self) {
        let g = &self.game;
        let n = g.legal_actions().len();
        let mut help = vec![format!("1-{n}")];
        if matches!(g.pending(), Some(Decision::Role { .. })) {
            help.push("b p t c pr: a role".into());
        } else {
            help.push("a card's name or its start".into());
        }
        if g.legal_actions().contains(&Action::Pass) {
            help.push("x: pass".into());
        }
        if !self.marks.is_empty() {
            help.push("undo".into());
        }
        help.extend(["quit".into(), "?: help".into()]);
        print!("[{}] > ", help.join(" · "));
        std::io::stdout().flush().ok();
    }

    fn help(&self) {
        println!(
            "\
Answer with:
  3            the third choice
  b p t c pr   builder, producer, trader, councillor, prospector (when choosing a role)
  x or pass    pass, or stop (producing, selling, putting cards under a building)
  lib          the choice on the card whose name starts with `lib`, if only one does
  build library pay well statue
               the full notation: several steps at once (`sanjuan scenario` files use it)
  undo         take back your last decision and the bots' moves after it
  show         print the table again
  quit         stop; with --save the game is saved and `--resume FILE` continues it
Cards marked * carry a good; [n under] counts cards under your chapel, bank or harbor;
{{n}} is a building's counter (a script's)."
        );
    }

    /// Reads what the human typed.
    fn resolve(&self, input: &str) -> Input {
        let g = &self.game;
        let legal = g.legal_actions();
        let cards = self.cards();
        let lower = input.to_lowercase();
        let word = lower.as_str();
        let role_pending = matches!(g.pending(), Some(Decision::Role { .. }));
        match word {
            "" => return Input::Invalid(format!("type a choice (1 to {}) or ? for help", legal.len())),
            "q" | "quit" | "exit" => return Input::Quit,
            "?" | "h" | "help" => return Input::Help,
            "u" | "undo" => return Input::Undo,
            "show" | "state" => return Input::Show,
            "x" | "pass" => return Input::Line("pass".into()),
            _ => {}
        }
        if let Ok(n) = word.parse::<usize>() {
            return match legal.get(n.wrapping_sub(1)) {
                Some(a) => Input::Line(a.text(cards)),
                None => Input::Invalid(format!("there is no choice {n}; choose 1 to {}", legal.len())),
            };
        }
        if role_pending {
            let role = match word {
                "b" => Some(Role::Builder),
                "p" => Some(Role::Producer),
                "t" => Some(Role::Trader),
                "c" => Some(Role::Councillor),
                "pr" => Some(Role::Prospector),
                _ => {
                    let hits: Vec<Role> = Role::ALL.into_iter().filter(|r| r.name().starts_with(word)).collect();
                    if let [r] = hits[..] { Some(r) } else { None }
                }
            };
            if let Some(role) = role {
                return Input::Line(format!("role {role}"));
            }
        }
        // A script's option by its name alone: `sell` answers the bazaar's `choose sell`.
        let option = format!("choose {word}");
        if legal.iter().any(|a| a.text(cards) == option) {
            return Input::Line(option);
        }
        let verbs = ["role", "build", "pay", "spend", "produce", "sell", "keep", "discard", "tuck", "give", "choose"];
        if word.split_whitespace().next().is_some_and(|v| verbs.contains(&v)) {
            return Input::Line(word.to_owned());
        }
        // A card's id or name, or their start, picks the one choice on that card.
        let card_of = |a: &Action| match *a {
            Action::Build { card, .. }
            | Action::Pay(card)
            | Action::Spend(card)
            | Action::Produce(card)
            | Action::Sell(card)
            | Action::Keep(card)
            | Action::Discard(card)
            | Action::Tuck(card)
            | Action::Pick(card)
            | Action::Give(card) => Some(card),
            Action::Role { .. } | Action::Choose(_) | Action::Pass => None,
        };
        let matches = |c: CardIdx, exact: bool| {
            let (id, name) = (cards.id(c), cards.get(c).name.to_lowercase());
            if exact { id == word || name == word } else { id.starts_with(word) || name.starts_with(word) }
        };
        for exact in [true, false] {
            let hits: Vec<(usize, &Action)> =
                legal.iter().enumerate().filter(|(_, a)| card_of(a).is_some_and(|c| matches(c, exact))).collect();
            match hits.as_slice() {
                [] => continue,
                [(_, a)] => return Input::Line(a.text(cards)),
                many => {
                    let list: Vec<String> = many.iter().map(|(i, a)| format!("{} {}", i + 1, a.text(cards))).collect();
                    return Input::Invalid(format!("`{input}` could be: {}; type the number", list.join(", ")));
                }
            }
        }
        Input::Invalid(format!(
            "`{input}` is none of the choices; type a number from 1 to {}, or ? for help",
            legal.len()
        ))
    }

    /// The final table, everything face up, and the scores with where they came from.
    fn end(&self) -> Result<(), String> {
        let g = &self.game;
        println!();
        println!("{}", self.style.bold("== game over =="));
        print_state(g, None);
        let scores = g.scores().map_err(|e| e.to_string())?;
        println!("{}", self.style.bold("final scores:"));
        for (seat, s) in scores.iter().enumerate() {
            let who = if seat == self.human { "you".to_owned() } else { self.seats[seat].clone() };
            let parts: Vec<String> = s.breakdown.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!(
                "  seat {seat} ({who}): {} VP ({}; tie-break: {} cards in hand and goods)",
                s.total,
                parts.join(", "),
                s.tie_break
            );
        }
        let winners = g.winners().map_err(|e| e.to_string())?;
        let names: Vec<String> = winners.iter().map(|w| format!("seat {w}")).collect();
        let you = if winners.contains(&self.human) { " — you win!" } else { "" };
        println!("winner: {}{you}", names.join(" and "));
        Ok(())
    }
}

/// "1 card", "2 goods".
fn count(n: i32, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The ruleset as a saved file should name it: a built-in id as it is, a path
/// made absolute (a saved file resolves relative paths against its own folder).
pub fn ruleset_for_save(spec: &str) -> String {
    if !spec.ends_with(".toml") && !spec.contains('/') {
        return spec.to_owned(); // an id
    }
    std::fs::canonicalize(spec).map_or_else(|_| spec.to_owned(), |p| p.display().to_string())
}

/// Who plays each seat of a resumed game: the human, then `--bots` if given,
/// else the bot the file names, else random.
pub fn resumed_seats(saved: &[String], players: usize, human: usize, bots: Option<&str>) -> Vec<String> {
    (0..players)
        .map(|s| match (bots, saved.get(s)) {
            _ if s == human => "human".to_owned(),
            (Some(b), _) => b.to_owned(),
            (None, Some(b)) if b != "human" => b.clone(),
            _ => "random".to_owned(),
        })
        .collect()
}

/// The ruleset a resumed game saves under: a relative path in the file is
/// relative to the file, and saving elsewhere needs it absolute.
pub fn resumed_ruleset(file: &Path, ruleset: &str) -> String {
    match file.parent() {
        Some(dir) if ruleset.ends_with(".toml") || ruleset.contains('/') => {
            ruleset_for_save(&dir.join(ruleset).display().to_string())
        }
        _ => ruleset.to_owned(),
    }
}

/// Replays a saved game and shows what happened.
pub fn replay(file: &Path, json: bool) -> CmdResult {
    if Which::of_file(file)? == Which::Alhambra {
        return crate::alhambra::replay(file, json);
    }
    let source = Source::Disk(file.to_path_buf());
    let text = source.read().map_err(|e| e.to_string())?;
    let saved = SavedGame::parse(&source, &text).map_err(|e| e.to_string())?;
    let (game, events) =
        saved.replay(&source, !json).map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    if json {
        let state = serde_json::to_value(game.view(None).map_err(|e| e.to_string())?).expect("a view is plain data");
        println!("{}", serde_json::to_string_pretty(&state).expect("json"));
    } else {
        for e in &events {
            println!("  {}", e.text);
        }
        print_state(&game, None);
    }
    Ok(ExitCode::SUCCESS)
}

/// A building in a city line: `statue(over chapel)*[3 under]{4}`: what it
/// covers, a good, the cards under it (for their owner only: face down), its counter.
fn building_label(
    cards: &san_juan::cards::CardTable,
    s: &san_juan::game::Slot,
    sees_under: bool,
    covered: bool,
) -> String {
    let mut t = cards.id(s.card).to_owned();
    if let Some(&c) = s.covered.last().filter(|_| covered) {
        t.push_str(&format!("(over {})", cards.id(c)));
    }
    if s.good.is_some() {
        t.push('*');
    }
    if sees_under && !s.under.is_empty() {
        t.push_str(&format!("[{} under]", s.under.len()));
    }
    if s.counter != 0 {
        t.push_str(&format!("{{{}}}", s.counter));
    }
    t
}

/// A player's named counters, ` · counters: toll 2, sales 3`, or nothing.
fn player_counters(p: &san_juan::game::Player) -> String {
    if p.counters.is_empty() {
        return String::new();
    }
    let list: Vec<String> = p.counters.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!(" · counters: {}", list.join(", "))
}
