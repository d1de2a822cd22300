//! `sanjuan play`: a game of any registered game in the terminal against
//! bots; `sanjuan replay`.
//!
//! The loop is the same for every game: numbered choices, undo that cannot
//! peek, save and resume, bots' moves. What the screen shows (only what the
//! person's seat may see) and the short forms a person may type are the game's
//! ([`engine_game::Game::screen`], [`engine_game::Game::resolve`]).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use engine_game::any::{Played, Refusal};
use engine_game::{AnyGame, AnyRules, Kind, Line, Models, Style as LineStyle};
use engine_rules::Source;

use crate::CmdResult;

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
    #[arg(long, default_value = crate::games::default_ruleset())]
    pub(crate) ruleset: String,
    /// The opponents' bot: balance, balance+FEATURE=X, balance~S, random, greedy, mcts, mcts:N, mcts-balance:N, paired-balance:N or paired-balance:N@KIND [default: random, or the saved seats with --resume].
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
    /// After each bot's move, print why: its best options with its values for them (the
    /// balance bot's points of final margin, a search's win shares) and, for the balance bot,
    /// the features that drove the choice. It shows the bots' options, and so their hands.
    #[arg(long)]
    pub(crate) explain: bool,
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

/// Runs an interactive game on stdin/stdout.
pub fn run(args: Args) -> CmdResult {
    let mut s = match &args.resume {
        Some(file) => Session::resume(file, &args)?,
        None => Session::new(&args)?,
    };
    s.intro();
    let stdin = std::io::stdin();
    let echoed = stdin.is_terminal();
    let mut lines = crate::output::bounded_lines(stdin.lock());
    let mut show = Show::Table;
    while let Some(seat) = s.game.to_move() {
        if seat != s.human {
            s.bot_move(seat)?;
            show = Show::Table;
            continue;
        }
        match show {
            Show::Table => s.print(&s.game.screen(s.human, &s.seats, true)),
            Show::Choices => s.print(&s.game.screen(s.human, &s.seats, false)),
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
    if s.game.over() {
        let end = s.game.end_text(s.human, &s.seats)?;
        s.print(&end);
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

    fn line(&self, line: &Line) -> String {
        match line.style {
            LineStyle::Bold if self.color => format!("\x1b[1m{}\x1b[0m", line.text),
            LineStyle::Dim if self.color => format!("\x1b[2m{}\x1b[0m", line.text),
            _ => line.text.clone(),
        }
    }
}

/// One game at the terminal: the game, who plays each seat, and what undo goes back to.
struct Session {
    rules: Arc<dyn AnyRules>,
    /// The ruleset as the saved file names it.
    ruleset: String,
    seed: u64,
    human: usize,
    /// Per seat: `human` or a bot name.
    seats: Vec<String>,
    game: Box<dyn AnyGame>,
    /// The balance bot's model, when a seat is one (read from the disk cache or learned).
    models: Models,
    /// Saved entries before each of the human's decisions: undo goes back to the last.
    marks: Vec<usize>,
    save: Option<PathBuf>,
    style: Style,
    /// After each bot's move, print why it chose it (`--explain`).
    explain: bool,
}

impl Session {
    fn new(args: &Args) -> Result<Session, String> {
        let rules = crate::games::load(&args.ruleset)?;
        let (seed, seats) = args.table(|b| rules.check_bot(b))?;
        let models = Models::new();
        crate::balance::prepare_for(rules.as_ref(), &models, &seats, false)?;
        let mut game = rules.start(args.players, seed)?;
        game.log_events(true);
        game.record_actions(true);
        Ok(Session {
            rules,
            ruleset: ruleset_for_save(&args.ruleset),
            seed,
            human: args.seat,
            seats,
            game,
            models,
            marks: Vec::new(),
            save: args.save.clone(),
            style: Style::detect(),
            explain: args.explain,
        })
    }

    /// Replays a saved game; the human's earlier decisions become undo points.
    fn resume(file: &Path, args: &Args) -> Result<Session, String> {
        let kind: &dyn Kind = crate::games::registry().of_file(file)?;
        let source = Source::Disk(file.to_path_buf());
        let text = source.read().map_err(|e| e.to_string())?;
        let saved = kind.read_saved(&source, &text)?;
        let rules = kind.load(&saved.ruleset, Some(&source)).map_err(engine_game::any::words)?;
        let human = saved.seats.iter().position(|s| s == "human").unwrap_or(args.seat);
        if human >= saved.players {
            return Err(format!("--seat {human} is not a seat of the saved {}-player game", saved.players));
        }
        let seats = resumed_seats(&saved.seats, saved.players, human, args.bots.as_deref());
        for b in seats.iter().filter(|b| *b != "human") {
            rules.check_bot(b).map_err(|e| format!("{}: seat bot {e}", file.display()))?;
        }
        let models = Models::new();
        crate::balance::prepare_for(rules.as_ref(), &models, &seats, false)?;
        let mut game = rules.start(saved.players, saved.seed)?;
        game.record_actions(true);
        let mut marks = Vec::new();
        for (i, a) in saved.actions.iter().enumerate() {
            if game.to_move() == Some(human) && game.undo_point() {
                marks.push(game.saved_len());
            }
            game.play_saved(saved.version, a).map_err(|e| {
                format!(
                    "{}: action {} `{}`: {}; the saved game does not fit its ruleset (was the ruleset changed?)",
                    file.display(),
                    i + 1,
                    engine_rules::error::clip(a, 80),
                    engine_rules::error::clip(&e, 400)
                )
            })?;
        }
        game.log_events(true);
        // A relative ruleset path is relative to the saved file; saving elsewhere needs it absolute.
        let ruleset = resumed_ruleset(file, &saved.ruleset);
        Ok(Session {
            rules,
            ruleset,
            seed: saved.seed,
            human,
            seats,
            game,
            models,
            marks,
            save: args.save.clone().or_else(|| Some(file.to_path_buf())),
            style: Style::detect(),
            explain: args.explain,
        })
    }

    fn print(&self, lines: &[Line]) {
        for line in lines {
            println!("{}", self.style.line(line));
        }
    }

    fn intro(&self) {
        let n = self.game.seats();
        println!(
            "{}",
            self.style.line(&Line::bold(format!("{} — {} ({n} players)", self.game.title(), self.rules.name())))
        );
        let bots: Vec<String> =
            (0..n).filter(|&s| s != self.human).map(|s| format!("seat {s} {}", self.seats[s])).collect();
        println!("You are seat {}; {}.", self.human, bots.join(", "));
        let ruleset = if self.ruleset == crate::games::default_ruleset() {
            String::new()
        } else {
            format!(" --ruleset {}", self.ruleset)
        };
        // The opponents too, unless the default: the same deal against other bots plays differently.
        let bots = match self.seats.iter().enumerate().find(|&(s, _)| s != self.human) {
            Some((_, bot)) if bot != "random" => format!(" --bots {bot}"),
            _ => String::new(),
        };
        println!(
            "Seed {}. The same deal and opponents again: sanjuan play --seed {} --players {n} --seat {}{ruleset}{bots}",
            self.seed, self.seed, self.human
        );
        for line in self.game.intro() {
            println!("{line}");
        }
        if self.game.saved_len() == 0 {
            println!("Type the number of a choice, or ? for help.");
        } else {
            println!("Resumed after {} recorded actions.", self.game.saved_len());
        }
    }

    /// Prints what the human's seat may read of what happened.
    fn log(&self, played: &Played) {
        for line in played.seats.get(self.human).into_iter().flatten() {
            println!("  {}", self.style.line(&Line::dim(line.text.clone())));
        }
    }

    /// A bot answers; its seed follows from the position so that undo and the same answer replay the same game.
    fn bot_move(&mut self, seat: usize) -> Result<(), String> {
        let ply = self.game.saved_len() as u64;
        let seed = self.seed ^ (ply << 8 | seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // Explained, the bot chooses the same answer: only what is printed differs.
        let (choice, why) = match self.explain {
            true => self.game.bot_explained_choice(&self.seats[seat], seed, &self.models).map(|(c, w)| (c, Some(w)))?,
            false => (self.game.bot_choice(&self.seats[seat], seed, &self.models)?, None),
        };
        match self.game.play(choice) {
            Ok(played) => {
                self.log(&played);
                for line in why.iter().flat_map(|w| w.lines()) {
                    println!("    {}", self.style.line(&Line::dim(line)));
                }
                Ok(())
            }
            Err(e) => {
                // Keep what was played so far: the error can be replayed and reported.
                self.save()?;
                Err(e)
            }
        }
    }

    /// Plays a line for the human: `Err` for a fatal error, `Ok(Err(why))` for a refused line.
    fn play_line(&mut self, text: &str) -> Result<Result<(), String>, String> {
        let before = self.game.saved_len();
        let undo_point = self.game.undo_point();
        match self.game.play_text(text) {
            Ok(played) => {
                if undo_point {
                    self.marks.push(before);
                }
                self.log(&played);
                Ok(Ok(()))
            }
            Err(Refusal::Refused(why)) => Ok(Err(why)),
            Err(Refusal::Failed(why)) => {
                self.save()?;
                Err(why)
            }
        }
    }

    /// Takes back the human's last decision and the bots' moves after it.
    fn undo(&mut self) -> Result<(), String> {
        if self.game.over() {
            return Err("the game is over: nothing can be taken back".into());
        }
        let Some(mark) = self.marks.pop() else {
            return Err("nothing to undo: you have made no decision yet".into());
        };
        let fresh = rand::Rng::next_u64(&mut rand::rng());
        self.game = self.game.undo_to(self.seed, mark, self.human, fresh).map_err(|e| format!("undo failed: {e}"))?;
        println!(
            "Took back your last decision and the moves after it; the cards you have not seen were shuffled again."
        );
        Ok(())
    }

    fn save(&self) -> Result<(), String> {
        let Some(path) = &self.save else { return Ok(()) };
        crate::output::write_file(path, self.game.save(&self.ruleset, self.seed, &self.seats))?;
        eprintln!("saved to {}; replay with: sanjuan replay {}", path.display(), path.display());
        Ok(())
    }

    /// The prompt, with the short forms that work now.
    fn prompt(&self) {
        let n = self.game.legal().len();
        let mut help = vec![format!("1-{n}")];
        help.extend(self.game.hints());
        if !self.marks.is_empty() {
            help.push("undo".into());
        }
        help.extend(["quit".into(), "?: help".into()]);
        print!("[{}] > ", help.join(" · "));
        std::io::stdout().flush().ok();
    }

    fn help(&self) {
        println!("Answer with:\n  3            the third choice\n{}", self.game.help());
        println!(
            "  undo         take back your last decision and the bots' moves after it
  show         print the table again
  quit         stop; with --save the game is saved and `--resume FILE` continues it"
        );
    }

    /// Reads what the human typed: the words every game shares, then the game's own.
    fn resolve(&self, input: &str) -> Input {
        let legal = self.game.legal();
        let lower = input.to_lowercase();
        match lower.as_str() {
            "" => return Input::Invalid(format!("type a choice (1 to {}) or ? for help", legal.len())),
            "q" | "quit" | "exit" => return Input::Quit,
            "?" | "h" | "help" => return Input::Help,
            "u" | "undo" => return Input::Undo,
            "show" | "state" => return Input::Show,
            _ => {}
        }
        if let Ok(n) = lower.parse::<usize>() {
            return match legal.get(n.wrapping_sub(1)) {
                Some(a) => Input::Line(a.text.clone()),
                None => Input::Invalid(format!("there is no choice {n}; choose 1 to {}", legal.len())),
            };
        }
        match self.game.resolve(input) {
            Ok(line) => Input::Line(line),
            Err(why) => Input::Invalid(why),
        }
    }
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
    let kind = crate::games::registry().of_file(file)?;
    let source = Source::Disk(file.to_path_buf());
    let text = source.read().map_err(|e| e.to_string())?;
    let saved = kind.read_saved(&source, &text)?;
    let rules = kind.load(&saved.ruleset, Some(&source)).map_err(engine_game::any::words)?;
    let (game, events) = kind.replay(&saved, &rules, &source, !json)?;
    if json {
        let state = game.view(None)?;
        println!("{}", serde_json::to_string_pretty(&state).expect("json"));
    } else {
        for e in &events {
            println!("  {}", e.text);
        }
        for line in game.table_text(None) {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
