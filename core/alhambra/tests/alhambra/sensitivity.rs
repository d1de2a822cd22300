//! The balance bot's sensitivity in Alhambra: changes whose direction is known
//! move what the default bot does that way. Each ruleset has its own model,
//! a change's learned from the base game's as every change of a built-in
//! ruleset is; then 2-player games between balance bots are counted; each
//! claim is that two 95% intervals do not overlap.
//!
//! CI plays a few hundred games on a short self-play; the full size (the
//! default bot's own schedule and 2,000 games per ruleset) is
//! `SENSITIVITY=full cargo test --release -p alhambra sensitivity -- --nocapture`.

use std::sync::Arc;

use alhambra::{Game, Ruleset};
use engine_game::Game as _;
use engine_game::Rules as _;
use engine_game::run::play_one;
use engine_report::Mean;

fn full() -> bool {
    std::env::var("SENSITIVITY").is_ok_and(|v| v == "full")
}

fn games() -> u64 {
    if full() { 2000 } else { 300 }
}

/// A ruleset extending the base game with `body`: `[rules]` keys, and
/// `[[building]]` patches (a known `id` replaces that type where it stands, a
/// new one is added with its `points` column).
fn variant(name: &str, body: &str) -> Arc<Ruleset> {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join(format!("{name}.toml"));
    let toml = format!("id = \"{name}\"\nname = \"{name}\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n{body}");
    std::fs::write(&file, toml).unwrap();
    Ruleset::load(file.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A `[[building]]` patch of a base type, its prices and its points (every rank of every scoring) mapped.
fn patched(id: &str, price: impl Fn(u8) -> u8, points: impl Fn(i32) -> i32) -> String {
    let base = Ruleset::load("alhambra").unwrap();
    let t = base.types.iter().position(|ty| ty.id == id).unwrap();
    let ty = &base.types[t];
    let prices: Vec<String> = ty.prices.iter().map(|&p| price(p).to_string()).collect();
    let columns: Vec<String> = base
        .scorings
        .iter()
        .map(|s| {
            let ranks: Vec<String> = s.ranks.iter().map(|row| points(row[t]).to_string()).collect();
            format!("{} = [{}]", s.name, ranks.join(", "))
        })
        .collect();
    let name = &ty.name;
    format!(
        "[[building]]\nid = \"{id}\"\nname = \"{name}\"\nprices = [{}]\npoints = {{ {} }}\n",
        prices.join(", "),
        columns.join(", ")
    )
}

/// A new type worth `points` at every rank of every scoring.
fn new_type(id: &str, prices: &str, points: i32) -> String {
    let p = points;
    format!(
        "[[building]]\nid = \"{id}\"\nname = \"{id}\"\nprices = [{prices}]\npoints = {{ A = [{p}], B = [{p}, {p}], C = [{p}, {p}, {p}] }}\n"
    )
}

/// The rounds whose buys are counted.
const EARLY: u32 = 10;

/// What the balance bots did over the games of one ruleset.
struct Study {
    /// Per game: the share of the buildings bought in the first ten rounds
    /// that are of each asked type. (By the end nearly every card has been
    /// bought by someone, so only *when* a type is bought shows what it is worth.)
    share: Vec<Mean>,
    /// Rounds per game.
    rounds: Mean,
}

fn study(rs: &Arc<Ruleset>, types: &[&str]) -> Study {
    let models = engine_game::Models::default();
    if !full() {
        // As a designer's change learns: from the base's model (here as short as the change's).
        let schedule = engine_play::value::Schedule { games: 150, rounds: 2, ..Default::default() };
        static BASE: std::sync::OnceLock<engine_play::value::ValueModel> = std::sync::OnceLock::new();
        let start = rs.base_rules().unwrap().map(|base| {
            BASE.get_or_init(|| engine_game::models::learn::<Game>(&base, vec![2], schedule, None).unwrap())
        });
        let model = engine_game::models::learn::<Game>(rs, vec![2], schedule, start).unwrap();
        models.get_or_learn(Game::ID, rs.fingerprint(), || Ok(model)).unwrap();
    }
    let bots = vec!["balance".to_owned(); 2];
    let mut shares = vec![Vec::new(); types.len()];
    let mut rounds = Vec::new();
    for i in 0..games() {
        let r = play_one::<Game>(rs, &bots, 17, i, &models).unwrap_or_else(|e| panic!("game {i}: {e}"));
        // The neutral collector's buildings are drawn, not bought: only the players' count.
        let bought: Vec<&str> =
            r.buildings.iter().take(2).flatten().filter(|b| b.round <= EARLY).map(|b| &*b.id).collect();
        for (k, t) in types.iter().enumerate() {
            let of_type = bought.iter().filter(|id| id.trim_end_matches(|c: char| c.is_ascii_digit()) == *t).count();
            shares[k].push(of_type as f64 / bought.len().max(1) as f64);
        }
        rounds.push(f64::from(r.rounds));
    }
    Study { share: shares.iter().map(|xs| Mean::of(xs)).collect(), rounds: Mean::of(&rounds) }
}

fn below(a: &Mean, b: &Mean) -> bool {
    a.hi < b.lo
}

#[test]
fn a_type_worth_three_times_its_points_is_bought_more() {
    let base = study(&Ruleset::load("alhambra").unwrap(), &["chambers"]);
    let tripled = study(&variant("triple-chambers", &patched("chambers", |p| p, |points| 3 * points)), &["chambers"]);
    let (a, b) = (&base.share[0], &tripled.share[0]);
    eprintln!("chambers' share of buys: {:.3} → {:.3}", a.value, b.value);
    assert!(below(a, b), "tripled points: chambers {}  → {}", show(a), show(b));
}

#[test]
fn a_cheaper_type_is_bought_more() {
    let base = study(&Ruleset::load("alhambra").unwrap(), &["tower"]);
    let cheaper = study(&variant("cheap-tower", &patched("tower", |p| p - 4, |points| points)), &["tower"]);
    let (a, b) = (&base.share[0], &cheaper.share[0]);
    eprintln!("towers' share of buys: {:.3} → {:.3}", a.value, b.value);
    assert!(below(a, b), "towers 4 cheaper: {} → {}", show(a), show(b));
}

#[test]
fn a_higher_take_limit_makes_games_shorter() {
    let base = study(&Ruleset::load("alhambra").unwrap(), &[]);
    let generous = study(&variant("take-9", "[rules]\ntake_limit = 9\n"), &[]);
    let (a, b) = (&base.rounds, &generous.rounds);
    eprintln!("rounds per game: take limit 5 {:.1}, 9 {:.1}", a.value, b.value);
    assert!(below(b, a), "rounds: limit 5 {}, limit 9 {}", show(a), show(b));
}

#[test]
fn a_cheap_type_with_many_points_is_bought_far_more_than_a_dear_one_with_none() {
    let body = new_type("plaza", "2, 3, 3, 4, 4, 5", 12) + new_type("folly", "10, 11, 11, 12, 12, 13", 0).as_str();
    let s = study(&variant("plaza-folly", &body), &["plaza", "folly"]);
    let (plaza, folly) = (&s.share[0], &s.share[1]);
    eprintln!("share of buys: plaza {:.3}, folly {:.3}", plaza.value, folly.value);
    assert!(folly.hi * 3.0 < plaza.lo, "plaza {}, folly {}", show(plaza), show(folly));
}

fn show(m: &Mean) -> String {
    format!("{:.3} ({:.3}–{:.3})", m.value, m.lo, m.hi)
}
