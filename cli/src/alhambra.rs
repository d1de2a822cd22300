//! The Alhambra card game at the command line: the play screen, replay,
//! scenario, score, the card table and its diff. The commands that work the
//! same for every game (simulate, check, bench, report) are in their own files.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use alhambra::files::Source;
use alhambra::saved::SavedGame;
use alhambra::scenario::{Run, Scenario};
use alhambra::{Game, Ruleset, bots};

use crate::CmdResult;
use crate::play::{Args, resumed_ruleset, resumed_seats, ruleset_for_save};

fn load(spec: &str) -> Result<Arc<Ruleset>, String> {
    Ruleset::load(spec).map_err(|e| e.to_string())
}

/// "1 point", "9 points".
fn points(n: i32) -> String {
    if n == 1 { "1 point".into() } else { format!("{n} points") }
}

/// Prints the table as `viewer` sees it (`None`: everything).
pub fn print_state(game: &Game, viewer: Option<usize>) {
    let v = game.view(viewer);
    println!(
        "turn {}, money deck {}, building deck {}, discard {}, scorings done: {}",
        v.turn,
        v.deck_size,
        v.building_deck_size,
        v.discard.len(),
        if v.scored.is_empty() { "none".to_owned() } else { v.scored.join(", ") }
    );
    let slots: Vec<String> = v
        .building_display
        .iter()
        .map(|s| match (&s.building, s.price) {
            (Some(_), Some(p)) => format!("{}: {} {p} ({})", s.slot, s.kind.as_deref().unwrap_or("?"), s.currency),
            _ => format!("{}: empty ({})", s.slot, s.currency),
        })
        .collect();
    println!("buildings for sale: {}", slots.join(" | "));
    println!("money on display: {}", v.money_display.join(", "));
    let counts = |c: &std::collections::BTreeMap<String, u8>| -> String {
        if c.is_empty() {
            return "no buildings".into();
        }
        game.ruleset()
            .types
            .iter()
            .filter_map(|t| c.get(&t.id).map(|n| format!("{} {n}", t.id)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for p in &v.players {
        let hand = match &p.hand {
            Some(h) if h.is_empty() => "no money".to_owned(),
            Some(h) => format!("money {} (total {})", h.join(" "), game.player(p.seat).money()),
            None if p.hand_size == 1 => "1 money card".to_owned(),
            None => format!("{} money cards", p.hand_size),
        };
        println!("  seat {}: {}; {}; {hand}", p.seat, points(p.score.total), counts(&p.counts));
    }
    if let Some(n) = &v.neutral {
        println!("  {} (neutral): {}; {}", n.name, points(n.score.total), counts(&n.counts));
    }
    if !v.unclaimed.is_empty() {
        println!("unclaimed at the end: {}", v.unclaimed.join(", "));
    }
}

/// Prints who must decide what, with every legal action in the notation.
fn print_pending(game: &Game) {
    if let Some(d) = game.pending() {
        let rs = game.ruleset();
        let legal: Vec<String> = game.legal_actions().iter().map(|a| a.text(rs)).collect();
        println!("seat {} must {}: {}", d.seat(), game.task(d), legal.join(" | "));
    } else if game.is_over() {
        let winners: Vec<String> = game.winners().iter().map(|w| format!("seat {w}")).collect();
        println!(
            "game over: {} {}",
            winners.join(" and "),
            if winners.len() == 1 { "wins" } else { "share the victory" }
        );
    }
}

/// One game at the terminal against bots.
struct Session {
    ruleset: String,
    seed: u64,
    human: usize,
    seats: Vec<String>,
    game: Game,
    /// Recorded actions before each of the human's turns: undo goes back to the last.
    marks: Vec<usize>,
    save: Option<PathBuf>,
}

impl Session {
    fn new(args: &Args) -> Result<Session, String> {
        let rs = load(&args.ruleset)?;
        let (seed, seats) = args.table(|b| bots::BotSpec::parse(b).map(|_| ()))?;
        crate::balance::prepare_for::<crate::games::Alhambra>(&rs, &seats)?;
        let mut game = Game::new(rs, args.players, seed).map_err(|e| e.to_string())?;
        game.log_events(true);
        game.record_actions(true);
        Ok(Session {
            ruleset: ruleset_for_save(&args.ruleset),
            seed,
            human: args.seat,
            seats,
            game,
            marks: Vec::new(),
            save: args.save.clone(),
        })
    }

    fn resume(file: &Path, args: &Args) -> Result<Session, String> {
        let source = Source::Disk(file.to_path_buf());
        let text = source.read().map_err(|e| e.to_string())?;
        let saved = SavedGame::parse(&source, &text).map_err(|e| e.to_string())?;
        let (mut game, _) = saved.replay(&source, false).map_err(|e| e.to_string())?;
        let human = saved.seats.iter().position(|s| s == "human").unwrap_or(args.seat);
        if human >= saved.players {
            return Err(format!("--seat {human} is not a seat of the saved {}-player game", saved.players));
        }
        let seats = resumed_seats(&saved.seats, saved.players, human, args.bots.as_deref());
        for b in seats.iter().filter(|b| *b != "human") {
            bots::BotSpec::parse(b).map_err(|e| format!("{}: seat bot {e}", file.display()))?;
        }
        crate::balance::prepare_for::<crate::games::Alhambra>(game.ruleset(), &seats)?;
        game.log_events(true);
        let ruleset = resumed_ruleset(file, &saved.ruleset);
        Ok(Session {
            ruleset,
            seed: saved.seed,
            human,
            seats,
            game,
            marks: Vec::new(),
            save: args.save.clone().or_else(|| Some(file.to_path_buf())),
        })
    }

    /// Prints what happened (`apply` hands the events back; none are left in the game's log).
    fn events(events: &[alhambra::game::Event]) {
        for e in events {
            println!("  {}", e.text);
        }
    }

    fn bot_move(&mut self, seat: usize) -> Result<(), String> {
        let mut bot = bots::make(
            self.game.ruleset(),
            &self.seats[seat],
            self.seed ^ (self.game.actions_applied() << 8) ^ seat as u64,
        )?;
        let legal = self.game.legal_actions().to_vec();
        let action = bot.choose(&self.game, &legal);
        let text = action.text(self.game.ruleset());
        let events =
            self.game.apply(action).map_err(|e| format!("seat {seat} ({}) `{text}`: {e}", self.seats[seat]))?;
        Session::events(&events);
        Ok(())
    }

    fn choices(&self) {
        let Some(d) = self.game.pending() else { return };
        println!("{}:", self.game.task(d));
        let rs = self.game.ruleset();
        for (i, a) in self.game.legal_actions().iter().enumerate() {
            println!("  {:>2}  {}", i + 1, a.text(rs));
        }
        println!(
            "(a number, an action such as `take denar3 ducat2` or `buy 2 pay ducat5 ducat4`, undo, show, help, quit)"
        );
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.game.is_over() {
            return Err("the game is over: nothing can be taken back".into());
        }
        let Some(mark) = self.marks.pop() else { return Err("nothing to undo".into()) };
        let fresh = rand::Rng::next_u64(&mut rand::rng());
        let rs = Arc::clone(self.game.ruleset());
        self.game = engine_rules::saved::undo_to(&self.game, rs, self.seed, mark, self.human, fresh)
            .map_err(|e| format!("undo failed: {e}"))?;
        println!("Took back your last turn and the moves after it; the cards you have not seen were shuffled again.");
        Ok(())
    }

    fn play_line(&mut self, line: &str) -> Result<(), String> {
        let legal = self.game.legal_actions();
        let text = match line.parse::<usize>() {
            Ok(n) if (1..=legal.len()).contains(&n) => legal[n - 1].text(self.game.ruleset()),
            Ok(n) => return Err(format!("there is no choice {n}: choose 1 to {}", legal.len())),
            Err(_) => line.to_owned(),
        };
        let mark = self.game.saved_len();
        let turn_start = matches!(self.game.pending(), Some(alhambra::Decision::Turn { .. }));
        let events = self.game.apply_text(&text).map_err(|e| e.to_string())?;
        if turn_start {
            self.marks.push(mark);
        }
        Session::events(&events);
        Ok(())
    }

    fn save(&self) -> Result<(), String> {
        let Some(path) = &self.save else { return Ok(()) };
        let saved = SavedGame::of(&self.game, &self.ruleset, self.seed, self.seats.clone());
        crate::output::write_file(path, saved.to_toml())?;
        println!("saved to {}", path.display());
        Ok(())
    }
}

/// `play` for an Alhambra ruleset.
pub fn play(args: Args) -> CmdResult {
    let mut s = match &args.resume {
        Some(file) => Session::resume(file, &args)?,
        None => Session::new(&args)?,
    };
    let rs = Arc::clone(s.game.ruleset());
    println!("Alhambra — {} ({} players), seed {}", rs.name, s.game.num_players(), s.seed);
    println!("You are seat {}. Slots are numbered from 1; money is written currency and value (denar5).", s.human);
    println!("Seat {} took the first turn (fewest money cards, then the lowest total).", s.game.start_player());
    let stdin = std::io::stdin();
    let echoed = stdin.is_terminal();
    let mut lines = crate::output::bounded_lines(stdin.lock());
    let mut show = true;
    while let Some(seat) = s.game.pending().map(alhambra::Decision::seat) {
        if seat != s.human {
            s.bot_move(seat)?;
            show = true;
            continue;
        }
        if show {
            println!();
            print_state(&s.game, Some(s.human));
            s.choices();
            show = false;
        }
        print!("> ");
        std::io::stdout().flush().map_err(|e| e.to_string())?;
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
            println!("{line}");
        }
        match line.trim() {
            "quit" | "q" => break,
            "help" | "?" => println!(
                "Answer with the number of a choice or an action in the notation: take <money>… (done to stop), \
                 buy <slot> pay <money>…, keep or donate (two players). `undo` takes back your last turn."
            ),
            "show" => show = true,
            "undo" => match s.undo() {
                Ok(()) => show = true,
                Err(why) => println!("{why}"),
            },
            "" => show = true,
            line => match s.play_line(line) {
                Ok(()) => show = true,
                Err(why) => println!("{why}"),
            },
        }
    }
    s.save()?;
    if s.game.is_over() {
        println!();
        print_state(&s.game, None);
        let winners = s.game.winners();
        let names: Vec<String> =
            winners.iter().map(|w| if *w == s.human { "you".into() } else { format!("seat {w}") }).collect();
        println!(
            "game over: {} {}",
            names.join(" and "),
            if winners.len() == 1 { "wins" } else { "share the victory" }
        );
    } else if let Some(path) = &s.save {
        println!("game not finished; continue it with: sanjuan play --resume {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `replay` of an Alhambra saved game.
pub fn replay(file: &Path, json: bool) -> CmdResult {
    let source = Source::Disk(file.to_path_buf());
    let text = source.read().map_err(|e| e.to_string())?;
    let saved = SavedGame::parse(&source, &text).map_err(|e| e.to_string())?;
    let (game, events) =
        saved.replay(&source, !json).map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    if json {
        println!("{}", serde_json::to_string_pretty(&game.view(None)).expect("a view is plain data"));
    } else {
        for e in &events {
            println!("  {}", e.text);
        }
        print_state(&game, None);
        print_pending(&game);
    }
    Ok(ExitCode::SUCCESS)
}

/// Loads and plays a scenario.
pub fn run_scenario(file: &Path) -> Result<(Scenario, Run), String> {
    let scenario = Scenario::load(file).map_err(|e| e.to_string())?;
    let run = scenario.run().map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    Ok((scenario, run))
}

/// Plays a scenario's actions one by one, printing the events of each first.
/// An action that fails stops the trace; the run itself words the error.
fn trace_scenario(file: &Path) -> Result<(Scenario, Run), String> {
    let scenario = Scenario::load(file).map_err(|e| e.to_string())?;
    let rs = scenario.ruleset().map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    let mut game = scenario.setup(rs).map_err(|e| e.to_string())?;
    game.log_events(true);
    for (i, action) in scenario.file.actions.iter().enumerate() {
        println!("action {} `{action}`:", i + 1);
        match game.apply_text(action) {
            Ok(events) => Session::events(&events),
            Err(_) => return run_scenario(file),
        }
    }
    println!();
    Ok((scenario, Run { game, error: None }))
}

/// `scenario` for an Alhambra scenario file; `trace` prints each action's events first.
pub fn scenario(file: &Path, json: bool, check: bool, trace: bool) -> CmdResult {
    let (scenario, run) = if trace { trace_scenario(file)? } else { run_scenario(file)? };
    if json {
        println!("{}", serde_json::to_string_pretty(&run.game.view(None)).expect("a view is plain data"));
    } else {
        print_state(&run.game, None);
        print_pending(&run.game);
        if let Some((i, e)) = &run.error {
            println!("action {} failed as expected: {e}", i + 1);
        }
    }
    if check {
        if scenario.file.expect.is_none() {
            return Err(format!("{}: no [expect] table to check", file.display()));
        }
        let fails = scenario.check(&run);
        if !fails.is_empty() {
            for f in &fails {
                eprintln!("check failed: {f}");
            }
            return Ok(ExitCode::FAILURE);
        }
        eprintln!("check: ok");
    }
    Ok(ExitCode::SUCCESS)
}

/// `score` for an Alhambra scenario file.
pub fn score(file: &Path, json: bool) -> CmdResult {
    let (_, run) = run_scenario(file)?;
    let scores = run.game.scores();
    if json {
        let players: Vec<serde_json::Value> = scores
            .iter()
            .enumerate()
            .map(|(seat, s)| serde_json::json!({ "seat": seat, "score": alhambra::view::ScoreView::from(s) }))
            .collect();
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "players": players })).expect("json"));
    } else {
        for (seat, s) in scores.iter().enumerate() {
            let parts: Vec<String> = s.breakdown.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!("seat {seat}: {} ({})", s.total, parts.join(", "));
        }
        if let Some(n) = run.game.neutral_score() {
            println!("{}: {}", run.game.ruleset().two_players.neutral, n.total);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One scenario for `test` (under `ruleset` instead of the one it names, if given):
/// its `[expect]` failures and final state; `Err` when it does not load or run.
pub fn test_run(file: &Path, ruleset: Option<&str>) -> Result<crate::test::Ran, Vec<String>> {
    let mut scenario = Scenario::load(file).map_err(|e| vec![e.to_string()])?;
    if let Some(spec) = ruleset {
        scenario.file.ruleset = Some(spec.to_owned());
    }
    let run = scenario.run().map_err(|e| vec![e.to_string().trim_start_matches("error: ").to_owned()])?;
    Ok(crate::test::Ran {
        has_expect: scenario.file.expect.is_some(),
        fails: scenario.check(&run),
        state: serde_json::to_value(run.game.view(None)).expect("a view is plain data"),
        description: scenario.file.description.clone(),
    })
}

/// `cards` for an Alhambra ruleset: money, buildings by type, the yard and the scoring table.
pub fn cards(spec: &str) -> CmdResult {
    let rs = load(spec)?;
    println!("{} ({}): {} cards with 3 or more players", rs.name, rs.id, rs.total_cards(3));
    let currencies: Vec<&str> = rs.currencies.iter().map(|c| c.id.as_str()).collect();
    let values: Vec<String> = rs.values.iter().map(ToString::to_string).collect();
    println!(
        "money: {} currencies ({}), values {}, {} of each ({} cards; {} of each with 2 players)",
        rs.currencies.len(),
        currencies.join(", "),
        values.join(" "),
        rs.copies,
        rs.money_cards(3),
        rs.two_players.money_copies
    );
    let yard: Vec<String> =
        rs.yard.iter().enumerate().map(|(i, &c)| format!("slot {} {}", i + 1, rs.currencies[c as usize].id)).collect();
    println!("construction yard: {}", yard.join(", "));
    println!("{:<10} {:>6} {:>9}  prices", "type", "cards", "range");
    for t in &rs.types {
        let (lo, hi) = (t.prices.iter().min().copied().unwrap_or(0), t.prices.iter().max().copied().unwrap_or(0));
        let prices: Vec<String> = t.prices.iter().map(ToString::to_string).collect();
        println!("{:<10} {:>6} {:>9}  {}", t.id, t.prices.len(), format!("{lo}-{hi}"), prices.join(" "));
    }
    for s in &rs.scorings {
        let ranks: Vec<String> = s
            .ranks
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let per_type: Vec<String> = row.iter().map(ToString::to_string).collect();
                format!("rank {}: {}", r + 1, per_type.join(" "))
            })
            .collect();
        let when = s.card.as_deref().map_or("at the game end".to_owned(), |c| format!("when `{c}` is drawn"));
        println!("scoring {} ({when}): {}", s.name, ranks.join("; "));
    }
    Ok(ExitCode::SUCCESS)
}

/// `cards --diff` for two Alhambra rulesets: what differs, rule by rule,
/// building type by type and scoring by scoring.
pub fn diff(a: &str, b: &str) -> CmdResult {
    let (ra, rb) = (load(a)?, load(b)?);
    let lines = ra.diff(&rb);
    println!("{} -> {}: {} difference(s)", ra.id, rb.id, lines.len());
    for line in lines {
        println!("  {line}");
    }
    Ok(ExitCode::SUCCESS)
}
