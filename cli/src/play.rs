//! `sanjuan play`: a game against bots, one line per action.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use sanjuan_core::bots::{self, Bot};
use sanjuan_core::saved::SavedGame;
use sanjuan_core::{Game, GameError};

use crate::{CmdResult, load_ruleset};

/// Arguments of `sanjuan play`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of players.
    #[arg(long, default_value_t = 3, value_parser = crate::limits::players())]
    players: usize,
    /// Your seat (0 = first).
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Ruleset id or path.
    #[arg(long, default_value = sanjuan_core::DEFAULT_RULESET)]
    ruleset: String,
    /// The opponents' bot: random, greedy, mcts or mcts:N.
    #[arg(long, default_value = "random")]
    bots: String,
    /// Write the game (seed and every action) to this file when it ends or you quit;
    /// `sanjuan replay FILE` plays it again.
    #[arg(long)]
    save: Option<std::path::PathBuf>,
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
    for seat in 0..game.num_players() {
        let p = game.player(seat);
        // Others' cards under chapel/bank/harbor, and so their scores, are hidden.
        let sees_all = viewer.is_none_or(|v| v == seat);
        let city: Vec<String> = p
            .city
            .iter()
            .map(|s| {
                let mut t = cards.id(s.card).to_owned();
                if s.good.is_some() {
                    t.push('*');
                }
                if sees_all && !s.under.is_empty() {
                    t.push_str(&format!("[{} under]", s.under.len()));
                }
                t
            })
            .collect();
        let score = match game.score(seat) {
            Ok(s) if sees_all => format!(" ({} VP)", s.total),
            _ => String::new(),
        };
        println!("seat {seat}: {} buildings{score}: {}", p.city.len(), city.join(" "));
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
    let rs = load_ruleset(&args.ruleset)?;
    let mut game = Game::new(rs, args.players, args.seed).map_err(|e| e.to_string())?;
    game.log_events(true);
    game.record_actions(true);
    if args.seat >= args.players {
        return Err(format!("--seat {} is not a seat of a {}-player game", args.seat, args.players));
    }
    let mut bots: Vec<Box<dyn Bot>> = (0..args.players)
        .map(|s| bots::make(&args.bots, args.seed.wrapping_add(s as u64)))
        .collect::<Result<_, _>>()?;
    println!(
        "You are seat {}. Type an action (e.g. `role builder`, `build well pay quarry`, `pass`), or `quit`.",
        args.seat
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(d) = game.pending() {
        let seat = d.seat();
        if seat != args.seat {
            let action = bots[seat].choose(&game, game.legal_actions());
            match game.apply(action) {
                Ok(events) => events.iter().for_each(|e| println!("  {}", e.text)),
                Err(e) => {
                    // Keep what was played so far: the error can be replayed and reported.
                    save(&args, &game)?;
                    return Err(e.to_string());
                }
            }
            continue;
        }
        print_state(&game, Some(args.seat));
        print!("> ");
        std::io::stdout().flush().ok();
        let Some(Ok(line)) = lines.next() else { break };
        let line = line.trim();
        if line == "quit" {
            break;
        }
        match game.apply_text(line) {
            Ok(events) => events.iter().for_each(|e| println!("  {}", e.text)),
            Err(e @ (GameError::Illegal { .. } | GameError::Parse { .. })) => println!("{e}"),
            Err(e) => {
                save(&args, &game)?;
                return Err(e.to_string());
            }
        }
    }
    save(&args, &game)?;
    if game.is_over() {
        print_state(&game, None);
        let winners = game.winners().map_err(|e| e.to_string())?;
        println!("game over; winner(s): seat {:?}", winners);
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the game so far to `--save`, if given.
fn save(args: &Args, game: &Game) -> Result<(), String> {
    let Some(path) = &args.save else { return Ok(()) };
    let seats =
        (0..args.players).map(|s| if s == args.seat { "human".to_owned() } else { args.bots.clone() }).collect();
    let saved = SavedGame::of(game, &ruleset_for_save(&args.ruleset), args.seed, seats);
    std::fs::write(path, saved.to_toml()).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("saved to {}; replay with: sanjuan replay {}", path.display(), path.display());
    Ok(())
}

/// The ruleset as a saved file should name it: a built-in id as it is, a path
/// made absolute (a saved file resolves relative paths against its own folder).
pub fn ruleset_for_save(spec: &str) -> String {
    if !spec.ends_with(".toml") && !spec.contains('/') {
        return spec.to_owned(); // an id
    }
    std::fs::canonicalize(spec).map_or_else(|_| spec.to_owned(), |p| p.display().to_string())
}

/// Replays a saved game and shows what happened.
pub fn replay(file: &std::path::Path, json: bool) -> CmdResult {
    let source = sanjuan_core::files::Source::Disk(file.to_path_buf());
    let text = source.read().map_err(|e| e.to_string())?;
    let saved = SavedGame::parse(&source, &text).map_err(|e| e.to_string())?;
    let (game, events) =
        saved.replay(&source, !json).map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    if json {
        let state = game.to_json(None).map_err(|e| e.to_string())?;
        println!("{}", serde_json::to_string_pretty(&state).expect("json"));
    } else {
        for e in &events {
            println!("  {}", e.text);
        }
        print_state(&game, None);
    }
    Ok(ExitCode::SUCCESS)
}
