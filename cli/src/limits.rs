//! Bounds on command-line numbers, so that a typo is refused at once with a
//! message instead of running for days, exhausting memory or overflowing.

use clap::builder::{RangedU64ValueParser, TypedValueParser};
use engine_game::AnyRules;

/// The most games one `simulate` run plays: it keeps a few numbers of each game
/// for its summary (about 30 bytes; the records are written as it goes), so ten
/// million games hold some 300 MB; larger studies run as shards (`--shard`).
pub const MAX_GAMES: u64 = 10_000_000;

/// The most worker threads `--jobs` starts.
pub const MAX_JOBS: usize = 256;

/// `--games`: 1 to [`MAX_GAMES`].
pub fn games() -> impl TypedValueParser<Value = u64> {
    RangedU64ValueParser::<u64>::new().range(1..=MAX_GAMES)
}

/// `--jobs`: 1 to [`MAX_JOBS`].
pub fn jobs() -> impl TypedValueParser<Value = usize> {
    RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS as u64)
}

/// `--players`: what any ruleset may allow; the ruleset's own range is checked once it is loaded.
pub fn players() -> impl TypedValueParser<Value = usize> {
    RangedU64ValueParser::<usize>::new().range(1..=engine_rules::saved::MAX_SAVED_PLAYERS as u64)
}

/// Refuses a player count the ruleset does not allow.
pub fn check_players(rs: &dyn AnyRules, players: usize) -> Result<(), String> {
    let (min, max) = rs.players();
    if (min..=max).contains(&players) {
        Ok(())
    } else {
        let count = if players == 1 { "1 player".to_owned() } else { format!("{players} players") };
        Err(format!("{count}: ruleset `{}` is for {min} to {max} players; change --players or --bots", rs.id()))
    }
}

/// Refuses a run whose last game index would not fit in 64 bits.
pub fn check_game_range(seed_start: u64, games: u64) -> Result<(), String> {
    match seed_start.checked_add(games) {
        Some(_) => Ok(()),
        None => Err(format!(
            "--seed-start {seed_start} with --games {games} goes past the last game index ({}); \
             use a smaller --seed-start",
            u64::MAX
        )),
    }
}
