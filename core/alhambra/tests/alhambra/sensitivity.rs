//! The balance bot's sensitivity in Alhambra: changes whose direction is known
//! move what the default bot does that way. Each ruleset has its own model,
//! a change's learned from the base game's as every change of a built-in
//! ruleset is; then games between balance bots are counted (2 players, and
//! 2 and 4 for the scorings' tables); each claim is that two 95% intervals
//! do not overlap.
//!
//! CI plays a few hundred games on a short self-play (the scorings: the
//! full size, their pull is a few points of share); the full size (the
//! default bot's own schedule and 2,000 games per ruleset) is
//! `SENSITIVITY=full cargo test --release -p alhambra sensitivity -- --nocapture`,
//! and every type's scorings changed in turn, at 2, 3 and 4 players,
//! `SENSITIVITY=full cargo test --release -p alhambra scorings_of_every_type -- --ignored --nocapture`.

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

/// A model for `rs` learned by a short self-play from the base's (as a
/// designer's change learns, here as short as the change's): CI's stand-in
/// for the default bot's own.
fn short_models(rs: &Arc<Ruleset>) -> engine_game::Models {
    let models = engine_game::Models::default();
    let schedule = engine_play::value::Schedule { games: 150, rounds: 2, ..Default::default() };
    static BASE: std::sync::OnceLock<engine_play::value::ValueModel> = std::sync::OnceLock::new();
    let start = rs
        .base_rules()
        .unwrap()
        .map(|base| BASE.get_or_init(|| engine_game::models::learn::<Game>(&base, vec![2], schedule, None).unwrap()));
    let model = engine_game::models::learn::<Game>(rs, vec![2], schedule, start).unwrap();
    models.get_or_learn(Game::ID, rs.fingerprint(), || Ok(model)).unwrap();
    models
}

/// The default bot's own models, in one store, so the base's is learned once
/// (every change starts from it).
fn default_models() -> &'static engine_game::Models {
    static MODELS: std::sync::OnceLock<engine_game::Models> = std::sync::OnceLock::new();
    MODELS.get_or_init(engine_game::Models::default)
}

fn study(rs: &Arc<Ruleset>, types: &[&str]) -> Study {
    let short;
    let models = if full() {
        default_models()
    } else {
        short = short_models(rs);
        &short
    };
    let bots = vec!["balance".to_owned(); 2];
    let mut shares = vec![Vec::new(); types.len()];
    let mut rounds = Vec::new();
    for i in 0..games() {
        let r = play_one::<Game>(rs, &bots, 17, i, models).unwrap_or_else(|e| panic!("game {i}: {e}"));
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

/// A `[[building]]` patch of a base type whose points in scoring `name` are `ranks` (the others as printed).
fn scored_as(id: &str, name: &str, ranks: &[i32]) -> String {
    let base = Ruleset::load("alhambra").unwrap();
    let t = base.types.iter().position(|ty| ty.id == id).unwrap();
    let scoring = base.scorings.iter().position(|s| s.name == name).unwrap();
    let patch = patched(id, |p| p, |points| points);
    let printed: Vec<String> = base.scorings[scoring].ranks.iter().map(|row| row[t].to_string()).collect();
    let now: Vec<String> = ranks.iter().map(i32::to_string).collect();
    let (from, to) = (format!("{name} = [{}]", printed.join(", ")), format!("{name} = [{}]", now.join(", ")));
    assert!(patch.contains(&from));
    patch.replacen(&from, &to, 1)
}

/// Per game, the share of the players' buildings held when scoring `name`
/// happens that are of type `id` (the neutral collector's drawn ones left
/// out): what the balance bots bought of it while that scoring was to come.
fn share_before(rs: &Arc<Ruleset>, players: usize, name: &str, id: &str) -> Mean {
    use engine_play::TurnGame as _;
    // The default bot's own models in CI too: a short self-play's model missed
    // a scoring's pull at 2 players, and the full schedule costs seconds.
    let models = default_models();
    let t = rs.types.iter().position(|ty| ty.id == id).unwrap();
    let mut shares = Vec::new();
    // A scoring's pull on the early buys is a few points of share: the full size's games in CI too.
    for i in 0..2000 {
        let seed = engine_play::sim::game_seed(23, i);
        let mut game = Game::start(rs, players, seed).unwrap();
        let mut bots: Vec<_> = (0..players)
            .map(|s| engine_game::bots::make::<Game>(rs, "balance", seed ^ (s as u64 + 1), models).unwrap())
            .collect();
        while let Some(seat) = game.to_move() {
            let action = bots[seat].choose(&game, game.legal());
            game.play(action).unwrap();
            if game.scored().contains(&name) {
                let held = |f: &dyn Fn(&[u8]) -> u32| (0..players).map(|s| f(&game.player(s).counts)).sum::<u32>();
                let all = held(&|c| c.iter().map(|&n| u32::from(n)).sum());
                shares.push(f64::from(held(&|c| u32::from(c[t]))) / f64::from(all.max(1)));
                break;
            }
        }
    }
    Mean::of(&shares)
}

/// Scoring `name`'s points for type `id` set to `ranks`: its share of the
/// buys before the first scoring (A), as printed and as set. (By scoring B
/// most of a cheap type's supply has been bought whatever it is worth: only
/// the early buys show what the bots think of it.)
fn scoring_study(players: usize, id: &str, name: &str, ranks: &[i32]) -> (Mean, Mean) {
    let at = "A";
    // The base game's study, played once per player count and type for the claims that share it.
    static BASE: std::sync::Mutex<Vec<(usize, String, Mean)>> = std::sync::Mutex::new(Vec::new());
    let known = BASE.lock().unwrap().iter().find(|(n, t, _)| *n == players && t == id).map(|k| k.2);
    let base = known.unwrap_or_else(|| {
        let m = share_before(&Ruleset::load("alhambra").unwrap(), players, at, id);
        BASE.lock().unwrap().push((players, id.to_owned(), m));
        m
    });
    let label = format!("{id}-{name}-{}", ranks.iter().map(i32::to_string).collect::<Vec<_>>().join("-"));
    let changed = share_before(&variant(&label, &scored_as(id, name, ranks)), players, at, id);
    eprintln!(
        "{players} players, {id} worth {ranks:?} in {name}: share of buys before {at} {} → {}",
        show(&base),
        show(&changed)
    );
    (base, changed)
}

#[test]
fn a_type_worth_more_in_scoring_a_is_bought_more_before_it() {
    for players in [2, 4] {
        let (base, more) = scoring_study(players, "pavilion", "A", &[12]);
        assert!(below(&base, &more), "{players} players: pavilion {} → {}", show(&base), show(&more));
    }
}

#[test]
fn a_type_worth_nothing_in_scoring_a_is_bought_less_before_it() {
    for players in [2, 4] {
        let (base, less) = scoring_study(players, "tower", "A", &[0]);
        assert!(below(&less, &base), "{players} players: tower {} → {}", show(&base), show(&less));
    }
}

#[test]
fn a_type_worth_more_in_scoring_b_is_bought_more_early() {
    for players in [2, 4] {
        let (base, more) = scoring_study(players, "pavilion", "B", &[30, 15]);
        assert!(below(&base, &more), "{players} players: pavilion {} → {}", show(&base), show(&more));
    }
}

/// Every type's pull of scoring A and B on the early buys, at 2, 3 and 4
/// players, as a table (docs/bots.md):
/// `SENSITIVITY=full cargo test --release -p alhambra scorings_of_every_type -- --ignored --nocapture`.
#[test]
#[ignore = "an experiment: 72 changes of 2,000 games each"]
fn scorings_of_every_type_move_the_early_buys() {
    let base = Ruleset::load("alhambra").unwrap();
    println!(
        "| players | type | printed A, B | A first 12 | A first 50 | A 0 | B first 40 |\n|---|---|---|---|---|---|---|"
    );
    for players in [2, 3, 4] {
        for (t, ty) in base.types.iter().enumerate() {
            let (a, b) = (base.scorings[0].ranks[0][t], base.scorings[1].ranks[0][t]);
            let second = base.scorings[1].ranks[1][t];
            let mut from = None;
            let cells: Vec<String> = [("A", vec![12]), ("A", vec![50]), ("A", vec![0]), ("B", vec![40, second])]
                .into_iter()
                .map(|(name, ranks)| {
                    let (base, to) = scoring_study(players, &ty.id, name, &ranks);
                    let moved = if below(&base, &to) {
                        "↑"
                    } else if below(&to, &base) {
                        "↓"
                    } else {
                        "–"
                    };
                    from = Some(base.value);
                    format!("{:+.1} {moved}", 100.0 * (to.value - base.value))
                })
                .collect();
            let from = from.unwrap_or_default();
            println!("| {players} | {} ({:.1}%) | {a}, {b} | {} |", ty.id, 100.0 * from, cells.join(" | "));
        }
    }
}

fn show(m: &Mean) -> String {
    format!("{:.3} ({:.3}–{:.3})", m.value, m.lo, m.hi)
}
