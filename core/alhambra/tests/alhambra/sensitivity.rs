//! The balance bot's sensitivity in Alhambra: changes whose direction is known
//! move what the default bot does that way. Each ruleset is learned afresh
//! (its own content, its own model), then 2-player games between balance bots
//! are counted; each claim is that two 95% intervals do not overlap.
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

/// The base ruleset's building types and scorings written out, with `edit`
/// applied to each type (its id, prices, points per rank per scoring) and
/// `extra` types appended: `[[building]]` and `[[scoring]]` are replaced whole
/// along `extends`, so a changed column means writing all of them.
fn variant(name: &str, rules: &str, edit: impl Fn(&str, &mut Vec<u8>, &mut [i32]), extra: &[Extra]) -> Arc<Ruleset> {
    let base = Ruleset::load("alhambra").unwrap();
    let mut toml =
        format!("id = \"{name}\"\nname = \"{name}\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n{rules}\n");
    // points[type][scoring * ranks + rank], padded with zeros.
    let ranks = base.scorings.iter().map(|s| s.ranks.len()).max().unwrap();
    let mut columns: Vec<(String, Vec<u8>, Vec<i32>)> = Vec::new();
    for (t, ty) in base.types.iter().enumerate() {
        let mut prices = ty.prices.clone();
        let mut points: Vec<i32> = base
            .scorings
            .iter()
            .flat_map(|s| (0..ranks).map(move |r| s.ranks.get(r).map_or(0, |row| row[t])))
            .collect();
        edit(&ty.id, &mut prices, &mut points);
        columns.push((ty.id.clone(), prices, points));
    }
    for e in extra {
        let points =
            base.scorings.iter().flat_map(|s| (0..ranks).map(move |r| if r < s.ranks.len() { e.points } else { 0 }));
        columns.push((e.id.to_owned(), e.prices.to_vec(), points.collect()));
    }
    for (id, prices, _) in &columns {
        let prices: Vec<String> = prices.iter().map(u8::to_string).collect();
        toml += &format!("[[building]]\nid = \"{id}\"\nname = \"{id}\"\nprices = [{}]\n", prices.join(", "));
    }
    for (s, scoring) in base.scorings.iter().enumerate() {
        let rows: Vec<String> = (0..scoring.ranks.len())
            .map(|r| {
                let row: Vec<String> = columns.iter().map(|(_, _, p)| p[s * ranks + r].to_string()).collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        toml += &format!("[[scoring]]\nname = \"{}\"\nranks = [{}]\n", scoring.name, rows.join(", "));
        if let Some(card) = &scoring.card {
            toml += &format!("card = \"{card}\"\npile = {}\n", scoring.pile.unwrap_or(1));
        }
    }
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join(format!("{name}.toml"));
    std::fs::write(&file, toml).unwrap();
    Ruleset::load(file.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A building type added by a variant: its prices and its points at every rank of every scoring.
struct Extra {
    id: &'static str,
    prices: &'static [u8],
    points: i32,
}

/// The rounds whose buys are counted.
const EARLY: u32 = 10;

fn unchanged(_: &str, _: &mut Vec<u8>, _: &mut [i32]) {}

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
        let schedule = engine_play::value::Schedule { games: 150, rounds: 2, ..Default::default() };
        let model = engine_game::models::learn::<Game>(rs, vec![2], schedule).unwrap();
        models.get_or_learn(Game::ID, rs.fingerprint(), || Ok(model)).unwrap();
    }
    let bots = vec!["balance".to_owned(); 2];
    let mut shares = vec![Vec::new(); types.len()];
    let mut rounds = Vec::new();
    for i in 0..games() {
        let r = play_one::<Game>(rs, &bots, 17, i, &models).unwrap_or_else(|e| panic!("game {i}: {e}"));
        // The neutral collector's buildings are drawn, not bought: only the players' count.
        let bought: Vec<&str> =
            r.buildings.iter().take(2).flatten().filter(|b| b.round <= EARLY).map(|b| b.id.as_str()).collect();
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
    let triple = variant(
        "triple-chambers",
        "",
        |id, _, points| {
            if id == "chambers" {
                points.iter_mut().for_each(|p| *p *= 3)
            }
        },
        &[],
    );
    let tripled = study(&triple, &["chambers"]);
    let (a, b) = (&base.share[0], &tripled.share[0]);
    eprintln!("chambers' share of buys: {:.3} → {:.3}", a.value, b.value);
    assert!(
        below(a, b),
        "tripled points: chambers {:.3} ({:.3}–{:.3}) → {:.3} ({:.3}–{:.3})",
        a.value,
        a.lo,
        a.hi,
        b.value,
        b.lo,
        b.hi
    );
}

#[test]
fn a_cheaper_type_is_bought_more() {
    let base = study(&Ruleset::load("alhambra").unwrap(), &["tower"]);
    let cheap = variant(
        "cheap-tower",
        "",
        |id, prices, _| {
            if id == "tower" {
                prices.iter_mut().for_each(|p| *p -= 4)
            }
        },
        &[],
    );
    let cheaper = study(&cheap, &["tower"]);
    let (a, b) = (&base.share[0], &cheaper.share[0]);
    eprintln!("towers' share of buys: {:.3} → {:.3}", a.value, b.value);
    assert!(
        below(a, b),
        "towers 4 cheaper: {:.3} ({:.3}–{:.3}) → {:.3} ({:.3}–{:.3})",
        a.value,
        a.lo,
        a.hi,
        b.value,
        b.lo,
        b.hi
    );
}

#[test]
fn a_higher_take_limit_makes_games_shorter() {
    let base = study(&Ruleset::load("alhambra").unwrap(), &[]);
    let generous = study(&variant("take-9", "[rules]\ntake_limit = 9\n", unchanged, &[]), &[]);
    let (a, b) = (&base.rounds, &generous.rounds);
    eprintln!("rounds per game: take limit 5 {:.1}, 9 {:.1}", a.value, b.value);
    assert!(
        below(b, a),
        "rounds: limit 5 {:.1} ({:.1}–{:.1}), limit 9 {:.1} ({:.1}–{:.1})",
        a.value,
        a.lo,
        a.hi,
        b.value,
        b.lo,
        b.hi
    );
}

#[test]
fn a_cheap_type_with_many_points_is_bought_far_more_than_a_dear_one_with_none() {
    let rs = variant(
        "plaza-folly",
        "",
        unchanged,
        &[
            Extra { id: "plaza", prices: &[2, 3, 3, 4, 4, 5], points: 12 },
            Extra { id: "folly", prices: &[10, 11, 11, 12, 12, 13], points: 0 },
        ],
    );
    let s = study(&rs, &["plaza", "folly"]);
    let (plaza, folly) = (&s.share[0], &s.share[1]);
    eprintln!("share of buys: plaza {:.3}, folly {:.3}", plaza.value, folly.value);
    assert!(
        folly.hi * 3.0 < plaza.lo,
        "plaza {:.3} ({:.3}–{:.3}), folly {:.3} ({:.3}–{:.3})",
        plaza.value,
        plaza.lo,
        plaza.hi,
        folly.value,
        folly.lo,
        folly.hi
    );
}
