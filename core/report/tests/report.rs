//! Balance reports over a small hand-written set of records whose numbers
//! were worked out by hand (the arithmetic is in the comments), plus a
//! comparison with known p-values, parsing and merging.

use engine_play::sim::{Built, GameRecord, RECORD_VERSION};
use engine_report::{self as report, ReportError, Shard};

/// A 2-player record. `holdings` lists (id, round) per seat.
fn game(
    index: u64,
    bots: [&str; 2],
    rounds: u32,
    scores: [i32; 2],
    winners: &[usize],
    holdings: [&[(&str, u32)]; 2],
) -> GameRecord {
    GameRecord {
        version: RECORD_VERSION,
        game: "test".into(),
        fingerprint: String::new(),
        ruleset: "rules-a".into(),
        run_seed: 7,
        index,
        seed: 1000 + index,
        bots: bots.iter().map(|b| (*b).to_owned()).collect(),
        rounds,
        scores: scores.to_vec(),
        winners: winners.to_vec(),
        buildings: holdings
            .iter()
            .map(|c| c.iter().map(|(id, round)| Built { id: (*id).into(), round: *round, kind: None }).collect())
            .collect(),
        actions: 100,
        stalled: false,
        score_by_round: Vec::new(),
    }
}

/// Six 2-player games; alpha and beta swap seats every game; game 2 is a tie.
///
/// | game | seats        | rounds | scores | winners | seat 0 builds       | seat 1 builds          |
/// |------|--------------|--------|--------|---------|---------------------|------------------------|
/// | 0    | alpha, beta  | 10     | 30 25  | 0       | forge 2, archway 5 | forge 3               |
/// | 1    | beta, alpha  | 12     | 20 28  | 1       | saw_mill 4        | archway 6, forge 8    |
/// | 2    | alpha, beta  | 11     | 22 22  | 0, 1    | forge 1            | dye_works 3         |
/// | 3    | beta, alpha  | 9      | 31 19  | 0       | archway 4, saw_mill 5  | -                      |
/// | 4    | alpha, beta  | 13     | 18 26  | 1       | -                   | archway 7, forge 2    |
/// | 5    | beta, alpha  | 12     | 24 27  | 1       | forge 5            | saw_mill 9 (stalled) |
///
/// Everyone starts with dye works (round 0), which does not count as built.
fn fixture() -> Vec<GameRecord> {
    let ip = ("dye_works", 0);
    let mut g = vec![
        game(0, ["alpha", "beta"], 10, [30, 25], &[0], [&[ip, ("forge", 2), ("archway", 5)], &[ip, ("forge", 3)]]),
        game(1, ["beta", "alpha"], 12, [20, 28], &[1], [&[ip, ("saw_mill", 4)], &[ip, ("archway", 6), ("forge", 8)]]),
        game(2, ["alpha", "beta"], 11, [22, 22], &[0, 1], [&[ip, ("forge", 1)], &[ip, ("dye_works", 3)]]),
        game(3, ["beta", "alpha"], 9, [31, 19], &[0], [&[ip, ("archway", 4), ("saw_mill", 5)], &[ip]]),
        game(4, ["alpha", "beta"], 13, [18, 26], &[1], [&[ip], &[ip, ("archway", 7), ("forge", 2)]]),
        game(5, ["beta", "alpha"], 12, [24, 27], &[1], [&[ip, ("forge", 5)], &[ip, ("saw_mill", 9)]]),
    ];
    g[5].stalled = true;
    g
}

fn close(actual: f64, expected: f64, tol: f64) {
    assert!((actual - expected).abs() <= tol, "{actual} is not {expected} ± {tol}");
}

/// To 3 decimals.
fn d3(actual: f64, expected: f64) {
    close(actual, expected, 0.0005);
}

/// The fixture with each card's type named, as the records of a game with
/// several cards per type do: forges, saw mills and dye works are
/// workshops, archways gates.
fn typed() -> Vec<GameRecord> {
    let mut records = fixture();
    for b in records.iter_mut().flat_map(|r| r.buildings.iter_mut().flatten()) {
        b.kind = Some(if &*b.id == "archway" { "gate" } else { "workshop" }.into());
    }
    records
}

#[test]
fn a_type_counts_every_card_of_it() {
    let r = report::report(&typed());
    let ids: Vec<&str> = r.types.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["gate", "workshop"]);
    let (gate, workshop) = (&r.types[0], &r.types[1]);
    // Workshops got in round 1 or later: every seat of every game but game 3's
    // seat 1 and game 4's seat 0 (dye works at setup do not count): 10 of 12;
    // rounds 2, 3, 4, 8, 1, 3, 5, 2, 5, 9.
    d3(workshop.built.hits, 10.0);
    d3(workshop.built.value, 10.0 / 12.0);
    d3(workshop.round.value, 4.2);
    // Its builders won games 0, 1, 3, 4 and 5 once each and shared game 2: 6 of 10; the other two lost.
    d3(workshop.builders.value, 0.6);
    d3(workshop.others.value, 0.0);
    // Gates are the archways: 4 of 12, each in a game its builder won.
    d3(gate.built.hits, 4.0);
    d3(gate.round.value, 5.5);
    d3(gate.builders.value, 1.0);
    let text = report::render_text(&r);
    assert!(text.contains("Building types") && text.contains("workshop"), "{text}");
    assert!(report::render_html(&r).contains("<h2>Building types</h2>"));
    // Records without types: no such table.
    let plain = report::report(&fixture());
    assert!(plain.types.is_empty());
    assert!(!report::render_text(&plain).contains("Building types"));
}

#[test]
fn a_comparison_of_typed_sets_compares_the_types() {
    let a = typed();
    let mut b = typed();
    // In B nobody builds an archway (round 0: dealt, not built).
    for x in b.iter_mut().flat_map(|r| r.buildings.iter_mut().flatten()).filter(|x| &*x.id == "archway") {
        x.round = 0;
    }
    let c = report::compare(&a, &b);
    let gate = c.types.iter().find(|d| d.id == "gate").unwrap();
    d3(gate.built.a, 4.0 / 12.0);
    d3(gate.built.b, 0.0);
    let workshop = c.types.iter().find(|d| d.id == "workshop").unwrap();
    d3(workshop.built.b - workshop.built.a, 0.0);
    let text = report::render_comparison_text(&c);
    assert!(text.contains("Building types"), "{text}");
    assert!(report::render_comparison_html(&c).contains("<h2>Building types</h2>"));
}

/// Records written before they carried types, against typed ones: every
/// type would read as never built in the old set (0% against 99%, flagged),
/// so the comparison leaves the types out and says which set lacks them.
#[test]
fn a_set_without_types_leaves_the_types_out_of_a_comparison() {
    for (a, b, unnamed) in [(fixture(), typed(), "A"), (typed(), fixture(), "B")] {
        let c = report::compare(&a, &b);
        assert_eq!(c.types_unnamed, Some(unnamed));
        assert!(c.types.is_empty());
        assert!(!report::render_comparison_text(&c).contains("Building types"));
        assert!(!c.buildings.is_empty(), "the cards are still compared");
    }
    assert_eq!(report::compare(&typed(), &typed()).types_unnamed, None);
    assert_eq!(report::compare(&fixture(), &fixture()).types_unnamed, None);
}

/// One set mixing records with and without types: counted over all, the
/// older records' holdings would lower every type's share; left out, with
/// the number of records that name none.
#[test]
fn a_set_mixing_records_with_and_without_types_leaves_the_types_out() {
    let mut mixed = typed();
    for b in mixed[..2].iter_mut().flat_map(|r| r.buildings.iter_mut().flatten()) {
        b.kind = None;
    }
    let r = report::report(&mixed);
    assert_eq!((r.types_unnamed, r.types.len()), (2, 0));
    assert!(!report::render_text(&r).contains("Building types"));
    assert_eq!(report::report(&typed()).types_unnamed, 0);
    assert_eq!(report::report(&fixture()).types_unnamed, 0, "no record names types: nothing to leave out");
    // Compared with a typed set, the mixed one is the set without types.
    assert_eq!(report::compare(&mixed, &typed()).types_unnamed, Some("A"));
}

#[test]
fn seats_win_rates_with_wilson_intervals_and_shared_wins() {
    let r = report::report(&fixture());
    assert_eq!((r.games, r.player_games), (6, 12));
    assert_eq!(r.seats.len(), 2);
    let s0 = &r.seats[0];
    assert_eq!((s0.label.as_str(), s0.games), ("seat 0", 6));
    // Seat 0 wins games 0 and 3 and half of game 2: 2.5 / 6.
    assert_eq!(s0.win_rate.hits, 2.5);
    d3(s0.win_rate.value, 0.417);
    // Wilson, z = 1.96, n = 6, p = 5/12: z²/n = 0.64027, centre = (p + 0.32013)/1.64027 = 0.44920,
    // half = 1.96/1.64027 · √(p(1−p)/6 + 3.8416/144) = 1.19492 · 0.25973 = 0.30973.
    d3(s0.win_rate.lo, 0.139);
    d3(s0.win_rate.hi, 0.759);
    // Seat 1: 3.5 / 6, the mirror image.
    let s1 = &r.seats[1];
    d3(s1.win_rate.value, 0.583);
    d3(s1.win_rate.lo, 0.241);
    d3(s1.win_rate.hi, 0.861);
    // Seat 0 scores 30 20 22 31 18 24: mean 145/6, squared deviations sum 140.833, sd √(140.833/5) = 5.307,
    // half-width 1.96 · 5.307 / √6 = 4.247.
    d3(s0.score.value, 24.167);
    d3(s0.score.sd, 5.307);
    d3(s0.score.lo, 19.920);
    d3(s0.score.hi, 28.413);
    // Seat 1 scores 25 28 22 19 26 27: mean 24.5, sd 3.391, half-width 2.713.
    d3(s1.score.value, 24.5);
    d3(s1.score.lo, 21.787);
    d3(s1.score.hi, 27.213);
}

#[test]
fn bots_count_player_games_whatever_the_seat() {
    let r = report::report(&fixture());
    let names: Vec<&str> = r.bots.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(names, ["alpha", "beta"]);
    // alpha: won games 0, 1 and 5, half of game 2: 3.5 / 6; scores 30 28 22 19 18 27, mean 24.
    let alpha = &r.bots[0];
    assert_eq!((alpha.games, alpha.win_rate.hits), (6, 3.5));
    d3(alpha.win_rate.lo, 0.241);
    d3(alpha.win_rate.hi, 0.861);
    d3(alpha.score.value, 24.0);
    d3(alpha.score.lo, 19.983);
    d3(alpha.score.hi, 28.017);
    let beta = &r.bots[1];
    assert_eq!((beta.games, beta.win_rate.hits), (6, 2.5));
    d3(beta.score.value, 148.0 / 6.0);
}

#[test]
fn buildings_built_share_builders_win_rate_and_round() {
    let r = report::report(&fixture());
    let ids: Vec<&str> = r.buildings.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["archway", "dye_works", "forge", "saw_mill"]);
    let get = |id: &str| r.buildings.iter().find(|b| b.id == id).unwrap();

    // Archway: built in 4 of 12 player-games (0/0, 1/1, 3/0, 4/1), each by the winner.
    let lib = get("archway");
    assert_eq!((lib.built.hits, lib.built.n), (4.0, 12));
    d3(lib.built.value, 0.333);
    d3(lib.built.lo, 0.138);
    d3(lib.built.hi, 0.609);
    assert_eq!((lib.builders.hits, lib.builders.n), (4.0, 4));
    d3(lib.builders.lo, 0.510);
    assert_eq!(lib.builders.hi, 1.0);
    // Others: 6 wins in all minus 4 = 2 of 8.
    assert_eq!((lib.others.hits, lib.others.n), (2.0, 8));
    // Pooled 6/12 = 0.5, se = √(0.25 · (1/4 + 1/8)) = 0.30619, z = 0.75 / 0.30619 = 2.4495, p = 0.0143.
    d3(lib.p, 0.014);
    // One test of four buildings: Holm multiplies the smallest p by 4, 0.0572, above 0.05.
    d3(lib.p_adj, 0.057);
    assert!(!lib.significant);
    // Rounds 5, 6, 4, 7.
    d3(lib.round.value, 5.5);

    // Forge: 6 of 12; builders' wins 1 + 0 + 1 + 0.5 + 1 + 0 = 3.5 of 6, others 2.5 of 6.
    let forge = get("forge");
    assert_eq!((forge.built.hits, forge.built.n), (6.0, 12));
    d3(forge.built.lo, 0.254);
    d3(forge.built.hi, 0.746);
    d3(forge.builders.value, 0.583);
    d3(forge.others.value, 0.417);
    // z = (7/12 − 5/12) / √(0.25 · 2/6) = 0.57735, p = 0.5637.
    d3(forge.p, 0.564);
    assert!(!forge.significant);
    // Rounds 2, 3, 8, 1, 2, 5.
    d3(forge.round.value, 3.5);

    // Saw mill: 3 of 12, builders win 2 of 3, others 4 of 9.
    let sugar = get("saw_mill");
    d3(sugar.built.value, 0.25);
    d3(sugar.builders.value, 0.667);
    d3(sugar.others.value, 0.444);
    d3(sugar.p, 0.505);
    d3(sugar.round.value, 6.0);

    // Dye works: the copies dealt at setup (round 0) do not count; one copy built in round 3 (game 2, a tie).
    let ip = get("dye_works");
    assert_eq!((ip.built.hits, ip.built.n), (1.0, 12));
    d3(ip.built.value, 0.083);
    assert_eq!((ip.builders.hits, ip.builders.n), (0.5, 1));
    // Builders 0.5 and others 5.5/11 = 0.5: no difference at all.
    assert_eq!(ip.p, 1.0);
    assert!(ip.round.sd.is_nan() && ip.round.value == 3.0);
}

#[test]
fn game_length_and_stalled_share() {
    let r = report::report(&fixture());
    let l = &r.length;
    // Rounds 10 12 11 9 13 12: mean 67/6, sd 1.472, half-width 1.178.
    d3(l.rounds.value, 11.167);
    d3(l.rounds.lo, 9.989);
    d3(l.rounds.hi, 12.344);
    assert_eq!((l.min, l.max), (9, 13));
    assert_eq!(
        l.histogram.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
        [(9, 1), (10, 1), (11, 1), (12, 2), (13, 1)]
    );
    assert_eq!((l.stalled.hits, l.stalled.n), (1.0, 6));
    d3(l.stalled.lo, 0.030);
    d3(l.stalled.hi, 0.564);
    assert_eq!(r.runs.len(), 1);
    assert_eq!((r.runs[0].run_seed, r.runs[0].games, r.runs[0].missing()), (7, 6, 0));
    // Sorted 9 10 11 12 12 13 (interpolated): q1 at 1.25 → 10.25, median at 2.5 → 11.5, q3 at 3.75 → 12.
    assert_eq!((l.quartiles.q1, l.quartiles.median, l.quartiles.q3), (10.25, 11.5, 12.0));
    assert!(report::render_text(&r).contains("sd 1.47, median 11.5, quartiles 10.2–12, min 9, max 13"));
}

/// 50 two-player games: seat 0 wins the first `seat0_wins`, alternately
/// scoring `score0` and `score0 + 10`; seat 0 builds a archway in the first
/// `archway_games` games.
fn generated(seat0_wins: u64, score0: i32, archway_games: u64) -> Vec<GameRecord> {
    (0..50)
        .map(|i| {
            let s0 = if i % 2 == 0 { score0 } else { score0 + 10 };
            let winner = if i < seat0_wins { 0 } else { 1 };
            let lib: &[(&str, u32)] = if i < archway_games { &[("archway", 4)] } else { &[] };
            game(i, ["random", "random"], 12, [s0, 25], &[winner], [lib, &[]])
        })
        .collect()
}

#[test]
fn comparison_with_known_p_values() {
    let a = generated(30, 20, 50);
    let b = generated(20, 22, 30);
    let c = report::compare(&a, &b);
    let seat0 = &c.seats[0];
    assert_eq!(seat0.label, "seat 0");
    // Win rate 0.6 → 0.4: pooled 0.5, se = √(0.25 · 2/50) = 0.1, z = −2, p = erfc(√2) = 0.0455.
    d3(seat0.win_rate.diff, -0.2);
    close(seat0.win_rate.p, 0.045_500_26, 1e-6);
    // Seat 1 moves the other way with the same p: Holm over the two seats doubles it.
    close(seat0.win_rate.p_adj, 0.091_000_52, 1e-6);
    assert!(!seat0.win_rate.significant);
    // The interval of B − A: se = √(0.6·0.4/50 + 0.4·0.6/50) = 0.09798, so −0.2 ± 0.19204.
    d3(seat0.win_rate.lo, -0.392);
    d3(seat0.win_rate.hi, -0.008);
    // Scores 20/30 → 22/32: means 25 → 27, both sd² = 25 · 50/49, se = √(50/49), z = 1.97990, p = 0.04771.
    d3(seat0.score.diff, 2.0);
    close(seat0.score.p, 0.047_714_88, 1e-6);
    // Seat 1's p is 1: Holm gives 2 · 0.0477 = 0.0954.
    close(seat0.score.p_adj, 0.095_429_76, 1e-6);
    assert!(!seat0.score.significant);
    // Seat 1 scores 25 in every game of both sets: no spread, no difference.
    assert_eq!((c.seats[1].score.diff, c.seats[1].score.p), (0.0, 1.0));
    // Archway built in 50 → 30 of 100 player-games: pooled 0.4, se = √(0.24 · 2/100), z = −2.8868, p = 0.00389.
    let lib = c.buildings.iter().find(|d| d.id == "archway").unwrap();
    d3(lib.built.diff, -0.2);
    close(lib.built.p, 0.003_892_42, 1e-6);
    // The only building: no correction; 20 points is above the 2-point threshold.
    assert_eq!(lib.built.p_adj, lib.built.p);
    assert!(lib.built.significant);
    // se = √(0.5·0.5/100 + 0.3·0.7/100) = 0.06782: −0.2 ± 0.13293.
    d3(lib.built.lo, -0.333);
    d3(lib.built.hi, -0.067);
    // Its builders win 30/50 → 20/30: pooled 50/80, se = √(0.234375 · (1/50 + 1/30)) = 0.1118, z = 0.5963, p = 0.551.
    d3(lib.builders.diff, 0.067);
    d3(lib.builders.p, 0.551);
    assert!(!lib.builders.significant);
    // Same bots, same length.
    assert_eq!(c.bots.len(), 1);
    assert_eq!((c.rounds.diff, c.rounds.p), (0.0, 1.0));

    let text = report::render_comparison_text(&c);
    assert!(text.contains("archway"), "{text}");
    assert!(text.contains("0.0910  ") && text.contains("0.00389  *"), "{text}");
    let html = report::render_comparison_html(&c);
    assert!(html.contains("<svg") && html.contains("A: rules-a"), "side-by-side legend missing");
}

#[test]
fn erfc_matches_reference_values() {
    // Abramowitz and Stegun, table 7.1: erfc(0.5) = 0.4795001222, erfc(1) = 0.1572992071, erfc(2) = 0.0046777350.
    close(report::erfc(0.0), 1.0, 2e-7);
    close(report::erfc(0.5), 0.479_500_122_2, 1e-7);
    close(report::erfc(1.0), 0.157_299_207_1, 1e-7);
    close(report::erfc(2.0), 0.004_677_735_0, 1e-9);
    close(report::erfc(-1.0), 1.842_700_792_9, 2e-7);
    // z = 1.96 is the two-sided 5% point.
    close(report::two_sided_p(1.96), 0.05, 1e-4);
}

#[test]
fn parse_names_the_line_and_skips_blank_lines() {
    let records = fixture();
    let mut text = String::new();
    for r in &records[..2] {
        text.push_str(&serde_json::to_string(r).unwrap());
        text.push('\n');
    }
    text.push('\n');
    assert_eq!(report::parse_json_lines(&text, "a.jsonl").unwrap(), records[..2]);
    text.push_str("{\"ruleset\": \"x\"}\n");
    let err = report::parse_json_lines(&text, "a.jsonl").unwrap_err();
    assert!(matches!(err, ReportError::Parse { line: 4, .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.starts_with("a.jsonl:4: not a game record: missing field"), "{message}");
}

#[test]
fn a_shard_read_line_by_line_is_the_shard_parsed_whole_and_shares_card_ids() {
    let records = fixture();
    let mut text = String::new();
    for r in &records[..3] {
        text.push_str(&serde_json::to_string(r).unwrap());
        text.push_str("\n\n");
    }
    let whole = Shard::parse(&text, "a.jsonl").unwrap();
    let mut reader = report::ShardReader::new("a.jsonl", Some(&["test"]));
    for line in text.lines() {
        reader.line(line).unwrap();
    }
    let read = reader.finish();
    assert_eq!(read, whole);
    assert_eq!(read.lines, [1, 3, 5]);
    // One copy of a card id for all the records that name it.
    let forge: Vec<&std::sync::Arc<str>> = read
        .records
        .iter()
        .flat_map(|r| r.buildings.iter().flatten())
        .filter(|b| &*b.id == "forge")
        .map(|b| &b.id)
        .collect();
    assert!(forge.len() >= 3 && forge.windows(2).all(|w| std::sync::Arc::ptr_eq(w[0], w[1])));
    // A record of another game is refused at its line.
    let mut other = records[0].clone();
    other.game = "chess".into();
    let mut reader = report::ShardReader::new("b.jsonl", Some(&["tafl"]));
    reader.line("").unwrap();
    let err = reader.line(&serde_json::to_string(&other).unwrap()).unwrap_err().to_string();
    assert!(err.starts_with("b.jsonl:2: not a valid game record: unknown game `chess` (games: tafl)"), "{err}");
}

#[test]
fn types_round_trip_share_one_copy_and_a_bad_one_is_named() {
    let records = typed();
    let text: String = records.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect();
    let read = Shard::parse(&text, "t.jsonl").unwrap();
    assert_eq!(read.records, records, "every holding's type comes back");
    let gates: Vec<&std::sync::Arc<str>> =
        read.records.iter().flat_map(|r| r.buildings.iter().flatten()).filter_map(|b| b.kind.as_ref()).collect();
    assert!(gates.windows(2).filter(|w| **w[0] == **w[1]).all(|w| std::sync::Arc::ptr_eq(w[0], w[1])));
    // A type must be a short printable line, like an id.
    let mut bad = records[0].clone();
    bad.buildings[0][1].kind = Some("gate\u{7}".into());
    let err = Shard::parse(&serde_json::to_string(&bad).unwrap(), "t.jsonl").unwrap_err().to_string();
    assert!(err.contains("t.jsonl:1") && err.contains("building type `gate"), "{err}");
}

#[test]
fn merge_sorts_shards_and_rejects_duplicates_and_mixed_rulesets() {
    let records = fixture();
    let shard = |name: &str, rs: &[GameRecord]| Shard { source: name.into(), records: rs.to_vec(), lines: Vec::new() };
    // Shards in any order, records in any order within a shard.
    let mut tail = records[3..].to_vec();
    tail.reverse();
    let merged = report::merge(vec![shard("b", &tail), shard("a", &records[..3])]).unwrap();
    assert_eq!(merged, records);

    let err = report::merge(vec![shard("a", &records[..4]), shard("b", &records[3..])]).unwrap_err();
    assert!(matches!(err, ReportError::Duplicate { run_seed: 7, index: 3, .. }), "{err:?}");
    // Each copy by file and line (record 4 of a, record 1 of b).
    assert!(err.to_string().contains("at a:4 and at b:1"), "{err}");

    let mut other = records[4..].to_vec();
    other[0].ruleset = "rules-b".into();
    let err = report::merge(vec![shard("a", &records[..4]), shard("b", &other)]).unwrap_err();
    assert!(matches!(err, ReportError::MixedRulesets { .. }), "{err:?}");
    assert!(err.to_string().contains("`rules-a` (a:1) and `rules-b` (b:1)"), "{err}");
}

#[test]
fn text_and_html_renderings() {
    let r = report::report(&fixture());
    let text = report::render_text(&r);
    for needle in ["ruleset rules-a", "6 games, 12 player-games", "seat 0", "alpha", "archway", "41.7", "13.9–75.9"] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    let html = report::render_html(&r);
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // Self-contained: inline CSS and SVG, nothing fetched, no scripts.
    assert!(html.contains("<style>") && html.matches("<svg").count() >= 5);
    for banned in ["<script", "http:", "https:", "src=", "href=", "<link"] {
        assert!(!html.contains(banned), "HTML contains {banned}");
    }
    // Whiskers for the intervals; no building flagged once the four tests are corrected.
    assert!(html.contains("class=\"whisker\""));
    assert!(html.contains("archway") && !html.contains("archway *"));
}

/// 50 2-player games: seat 0 builds an archway in the first `archway` games
/// and a forge in the first `forge`.
fn built(archway: u64, forge: u64) -> Vec<GameRecord> {
    (0..50)
        .map(|i| {
            let mut held: Vec<(&str, u32)> = Vec::new();
            if i < archway {
                held.push(("archway", 4));
            }
            if i < forge {
                held.push(("forge", 3));
            }
            game(i, ["balance", "balance"], 12, [20, 25], &[1], [&held, &[]])
        })
        .collect()
}

#[test]
fn a_card_built_far_more_or_less_than_under_the_reference_is_named() {
    // Archway: 40 of 100 player-games (40%) against 10 of 100 (10%): 30 points,
    // far past the check's 5 and its noise. Forge: 20 of 100 against 22: within it.
    let check = report::check_bot(&built(40, 20), &built(10, 22), "paired-balance:100@build");
    assert_eq!(check.games, 50);
    let named: Vec<&str> = check.misjudged.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(named, ["archway"]);
    let lines = check.lines();
    assert!(lines[0].contains("paired-balance:100@build over 50 games") && lines[0].contains("5 points"), "{lines:?}");
    assert!(
        lines[1].contains(
            "the default bot may misjudge archway: built 40.0% vs 10.0% under paired-balance:100@build (+30.0 points"
        ),
        "{lines:?}"
    );
    // Shown by both renderings, escaped in HTML.
    let mut r = report::report(&built(40, 20));
    r.check = Some(check);
    assert!(report::render_text(&r).contains("may misjudge archway: built 40.0% vs 10.0%"));
    let html = report::render_html(&r);
    assert!(
        html.contains("<h2>The bots against paired-balance:100@build</h2>") && html.contains("may misjudge archway")
    );
    // The same games: nothing to warn of, and the report says so.
    let same = report::check_bot(&built(40, 20), &built(40, 20), "greedy");
    assert!(same.misjudged.is_empty());
    assert!(
        same.lines()[1].contains("no card differs: the built shares under the default bot agree"),
        "{:?}",
        same.lines()
    );
    // Records of other bots are named as such.
    let mut mixed = built(40, 20);
    mixed[3].bots[1] = "greedy".into();
    assert!(report::check_bot(&mixed, &built(10, 20), "x").lines()[1].starts_with("  the records' bots may misjudge"));
    // A few games: 2 of 100 player-games against 3 of 12. The pooled test
    // calls that a difference, the interval shown holds 0: not named.
    let (records, few) = (built(2, 20), built(3, 20)[..6].to_vec());
    let d = report::compare(&records, &few).buildings.into_iter().find(|b| b.id == "archway").unwrap().built;
    assert!(d.p < 0.05 && d.lo < 0.0 && d.hi > 0.0, "{d:?}");
    assert!(report::check_bot(&records, &few, "greedy").misjudged.iter().all(|(id, _)| id != "archway"));
    // A card only the reference builds is named too (the records never saw it).
    let only = report::check_bot(&built(0, 20), &built(30, 20), "greedy");
    assert_eq!(only.misjudged.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["archway"]);
    assert!(only.lines()[1].contains("built 0.0% vs 30.0%"), "{:?}", only.lines());
}

#[test]
fn names_are_escaped_in_html() {
    let mut records = fixture();
    records[0].bots[0] = "<b>&evil</b>".into();
    let html = report::render_html(&report::report(&records));
    assert!(!html.contains("<b>&evil") && html.contains("&lt;b&gt;&amp;evil"));
}

/// A game of many short turns (a hundred or more "rounds") gets a histogram of
/// about twenty ranges, not one line per count, and no game is lost in the grouping.
#[test]
fn a_wide_length_histogram_is_grouped_into_ranges() {
    let records: Vec<GameRecord> =
        (0..61u64).map(|i| game(i, ["random", "random"], 100 + i as u32, [10, 5], &[0], [&[], &[]])).collect();
    let text = report::render_text(&report::report(&records));
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(" rounds ") && l.trim_start().starts_with('1')).collect();
    // 61 counts (100..=160) in ranges of ceil(61 / 20) = 4: 16 rows, the last 160 alone.
    assert_eq!(rows.len(), 16, "{text}");
    assert!(rows[0].contains("100-103 rounds") && rows[0].contains(" 4 "), "{}", rows[0]);
    assert!(rows[15].contains("160 rounds") && rows[15].contains(" 1 "), "{}", rows[15]);
    let total: u64 = rows.iter().map(|r| r.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, 61);
}

#[test]
fn holm_adjusts_step_down_and_keeps_the_order() {
    // p = 0.01, 0.04, 0.03, 0.5: sorted 0.01·4 = 0.04, 0.03·3 = 0.09, 0.04·2 = 0.08 → 0.09 (monotone), 0.5.
    let q = report::holm(&[0.01, 0.04, 0.03, 0.5]);
    for (got, want) in q.iter().zip([0.04, 0.09, 0.09, 0.5]) {
        close(*got, want, 1e-12);
    }
    assert!(report::holm(&[f64::NAN, 0.02])[0].is_nan());
    close(report::holm(&[f64::NAN, 0.02])[1], 0.02, 1e-12);
}

#[test]
fn a_tiny_difference_is_not_flagged_however_many_games() {
    // 50.0% against 50.5% over a million trials each: p ≈ 1e-12, but half a point is below the 2-point threshold.
    let a = report::Rate::wilson(500_000.0, 1_000_000);
    let b = report::Rate::wilson(505_000.0, 1_000_000);
    let d = report::Diff::rates(&a, &b);
    assert!(d.p < 1e-9, "{}", d.p);
    assert!(!d.significant);
}

#[test]
fn a_comparison_lists_what_changed_and_shows_those_buildings_first() {
    let a = generated(30, 20, 50);
    let b = generated(20, 22, 30);
    let mut c = report::compare(&a, &b);
    c.set_changes(vec!["card forge: cost 3 -> 4".into(), "card archway: vp 2 -> 3".into()]);
    assert_eq!(c.buildings[0].id, "archway", "a named building first");
    assert!(c.changed("archway") && !c.changed("arch"));
    let text = report::render_comparison_text(&c);
    assert!(text.contains("What differs from A to B") && text.contains("card archway: vp 2 -> 3"), "{text}");
    assert!(text.contains("archway (changed)"), "{text}");
    assert!(text.contains("-20.0 (-33.3 to -6.7)"), "{text}");
    let html = report::render_comparison_html(&c);
    assert!(html.contains("<code>card forge: cost 3 -&gt; 4</code>"));
    assert!(html.contains("B − A in percentage points") && html.contains("archway (changed) *"), "the B − A chart");
}

#[test]
fn the_run_summary_is_the_reports_own_seats_and_length() {
    let records = fixture();
    let (s, r) = (report::summary(&records), report::report(&records));
    assert_eq!(s.games, 6);
    assert_eq!(s.seats, r.seats);
    assert_eq!(s.length, r.length);
    assert_eq!((s.actions.n, s.actions.value), (6, 100.0));
    // Game by game, and with a seat some games lack (a 3-player game among 2-player ones).
    let mut mixed = records.clone();
    mixed.push(table(6, &["x", "x", "x"], &[10, 30, 20], &[1], &[]));
    let mut acc = report::SummaryAcc::default();
    for r in &mixed {
        acc.add(r);
    }
    let (s, r) = (acc.finish(), report::report(&mixed));
    assert_eq!((s.games, s.seats.len()), (7, 3));
    assert_eq!(s.seats[..2], r.seats[..2]);
    assert_eq!(s.length, r.length);
    // One game: its score's interval is NaN, which equals nothing.
    let (a, b) = (&s.seats[2], &r.seats[2]);
    assert_eq!((a.games, a.win_rate, a.score.value), (1, b.win_rate, 20.0));
    assert_eq!(b.score.value, 20.0);
}

/// A record of any player count: `rows` are the scores after each round
/// (empty: not tracked; otherwise the last row is the final score).
fn table(index: u64, bots: &[&str], scores: &[i32], winners: &[usize], rows: &[&[i32]]) -> GameRecord {
    let mut r = game(index, ["x", "x"], rows.len().max(4) as u32, [0, 0], winners, [&[], &[]]);
    r.bots = bots.iter().map(|b| (*b).to_owned()).collect();
    r.scores = scores.to_vec();
    r.buildings = vec![Vec::new(); scores.len()];
    r.score_by_round = rows.iter().map(|row| row.to_vec()).collect();
    r
}

/// Four 3-player games of one bot, margins 3, 0 (tie-break), 0 (shared), 8.
fn margins() -> Vec<GameRecord> {
    let b = ["x", "x", "x"];
    vec![
        table(0, &b, &[10, 7, 3], &[0], &[]),
        table(1, &b, &[8, 8, 1], &[1], &[]),
        table(2, &b, &[5, 9, 9], &[1, 2], &[]),
        table(3, &b, &[20, 11, 12], &[0], &[]),
    ]
}

#[test]
fn winning_margin_seat_advantage_and_skill_of_one_bot() {
    let r = report::report(&margins());
    assert_eq!(r.feel.len(), 1);
    let f = &r.feel[0];
    assert_eq!((f.players, f.games), (3, 4));
    let m = &f.margin;
    // (3 + 0 + 0 + 8) / 4; squared deviations 0.0625 + 7.5625 + 7.5625 + 27.5625 = 42.75, sd √(42.75/3).
    assert_eq!(m.points.value, 2.75);
    close(m.points.sd, 14.25f64.sqrt(), 1e-12);
    close(m.points.hi - m.points.value, 1.96 * 14.25f64.sqrt() / 2.0, 1e-12);
    // Sorted 0 0 3 8: q1 at 0.75 → 0, median at 1.5 → 1.5, q3 at 2.25 → 3 + 0.25·5.
    assert_eq!((m.quartiles.q1, m.quartiles.median, m.quartiles.q3), (0.0, 1.5, 4.25));
    assert_eq!(m.histogram.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(), [(0, 2), (3, 1), (8, 1)]);
    assert_eq!((m.shared.hits, m.shared.n, m.tie_break.hits, m.tie_break.n), (1.0, 4, 1.0, 4));
    // Seat 0 won games 0 and 3: 2/4 against an even 1/3, the Wilson interval of 2/4 shifted alike.
    let (adv, lo, hi) = f.seat_advantage();
    let w = report::Rate::wilson(2.0, 4);
    close(adv, 0.5 - 1.0 / 3.0, 1e-12);
    close(lo, w.lo - 1.0 / 3.0, 1e-12);
    close(hi, w.hi - 1.0 / 3.0, 1e-12);
    assert!(!f.mixed_bots);
    assert_eq!(f.skill, report::Skill::SameBot("x".into()));
    assert!(f.lead.is_none() && f.untracked == 4);
    let text = report::render_text(&r);
    for needle in [
        "Game feel, 3 players (4 games)",
        "winning margin: mean 2.75 points",
        "median 1.5, quartiles 0–4.2; shared wins 25.0%",
        "+16.7 percentage points",
        "skill or luck: not measured: every seat is the x bot",
        "lead changes: not in these records: run simulate with --track-scores",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn the_stronger_bot_ahead_of_the_weaker_counts_each_meeting_and_halves_a_tie() {
    let records = vec![
        // a beats both b seats.
        table(0, &["a", "b", "b"], &[10, 5, 3], &[0], &[]),
        // a loses to seat 1, ties seat 2 on points without either winning: one half.
        table(1, &["a", "b", "b"], &[4, 9, 4], &[1], &[]),
        // a shares the win with seat 0 (one half) and beats seat 2.
        table(2, &["b", "a", "b"], &[6, 6, 2], &[0, 1], &[]),
    ];
    let f = &report::report(&records).feel[0];
    // a: wins 1 + 0 + 0.5 over 3 player-games; b: 0 + 1 + 0.5 over 6: a is the stronger.
    let report::Skill::Pairs(pairs) = &f.skill else { panic!("{:?}", f.skill) };
    assert_eq!(pairs.len(), 1);
    let m = &pairs[0];
    assert_eq!((m.stronger.as_str(), m.weaker.as_str()), ("a", "b"));
    // 1 + 1 + 0 + 0.5 + 0.5 + 1 = 4 of 6 meetings.
    assert_eq!((m.ahead.hits, m.ahead.n), (4.0, 6));
    assert_eq!(m.ahead, report::Rate::wilson(4.0, 6));
    assert!(f.mixed_bots);
    let text = report::render_text(&report::report(&records));
    assert!(text.contains("a finishes ahead of b in 66.7% (95% CI"), "{text}");
    assert!(text.contains("the bots' strength as much as the seat's"), "{text}");
}

#[test]
fn lead_changes_count_a_new_sole_leader_and_not_a_tie() {
    // Leaders: seat 0, a tie, seat 1, seat 0, a three-way tie, seat 2: 0 → 1 → 0 → 2 is three changes.
    let rows = [vec![1, 0, 0], vec![1, 1, 0], vec![0, 2, 0], vec![3, 2, 0], vec![3, 3, 3], vec![3, 3, 4]];
    assert_eq!(report::lead_changes(&rows), 3);
    // Level all game long: none; seat 0 leads again after a tie: none.
    assert_eq!(report::lead_changes(&[vec![0, 0], vec![0, 0]]), 0);
    assert_eq!(report::lead_changes(&[vec![2, 1], vec![2, 2], vec![3, 2]]), 0);
    assert_eq!(report::lead_changes(&[vec![2, 1], vec![2, 3], vec![4, 3]]), 2);
}

/// Three 4-round games with scores by round and one without.
fn trajectories() -> Vec<GameRecord> {
    let b = ["x", "x", "x"];
    vec![
        // Leaders 0, 1, 1, 0: two changes; the winner (0) trailed 2 to 5 after round 2, not last.
        table(0, &b, &[9, 7, 2], &[0], &[&[1, 0, 0], &[2, 5, 1], &[4, 6, 2], &[9, 7, 2]]),
        // Tie, 2, 0, 2: two changes; the winner (2) led after round 2.
        table(1, &b, &[5, 1, 6], &[2], &[&[0, 0, 0], &[0, 0, 3], &[5, 0, 3], &[5, 1, 6]]),
        // Tie, 2, 0, 0: one change; the winner (0) was last after round 2.
        table(2, &b, &[7, 2, 4], &[0], &[&[1, 1, 1], &[0, 2, 4], &[6, 2, 4], &[7, 2, 4]]),
        table(3, &b, &[3, 2, 1], &[0], &[]),
    ]
}

#[test]
fn comebacks_and_lead_changes_over_the_tracked_games() {
    let r = report::report(&trajectories());
    let f = &r.feel[0];
    let lead = f.lead.as_ref().expect("three games carry their scores by round");
    assert_eq!(f.untracked, 1);
    // (2 + 2 + 1) / 3 changes per game.
    assert_eq!(lead.changes.n, 3);
    close(lead.changes.value, 5.0 / 3.0, 1e-12);
    assert_eq!(lead.histogram.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(), [(1, 1), (2, 2)]);
    assert_eq!(lead.comeback, report::Rate::wilson(2.0, 3));
    assert_eq!(lead.from_last, report::Rate::wilson(1.0, 3));
    let text = report::render_text(&r);
    assert!(text.contains("lead changes: 1.67 per game (95% CI 1.01–2.32), none in 0.0% of games"), "{text}");
    assert!(text.contains("behind after the half-way round in 66.7%"), "{text}");
    assert!(text.contains("(over the 3 games with scores by round)"), "{text}");
    let html = report::render_html(&r);
    assert!(html.contains("Games per winning margin") && html.contains("Games per number of lead changes"));
}

#[test]
fn card_impact_is_the_builders_win_share_minus_the_others() {
    let ip = ("dye_works", 0);
    let records = vec![
        game(0, ["x", "x"], 10, [9, 5], &[0], [&[("forge", 2)], &[ip]]),
        game(1, ["x", "x"], 10, [5, 9], &[1], [&[], &[("forge", 3)]]),
        game(2, ["x", "x"], 10, [9, 5], &[0], [&[], &[("saw_mill", 4)]]),
        game(3, ["x", "x"], 10, [5, 9], &[1], [&[ip], &[]]),
    ];
    let f = &report::report(&records).feel[0];
    // Dealt at setup only: no dye works row. Forge first: built by winners only.
    let ids: Vec<&str> = f.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["forge", "saw_mill"]);
    let forge = &f.cards[0];
    // Builders 2 of 2, others 2 of 6: +66.7 points, se √(0 + (1/3)(2/3)/6) = 0.192.
    assert_eq!((forge.builders.hits, forge.builders.n, forge.others.hits, forge.others.n), (2.0, 2, 2.0, 6));
    close(forge.impact.diff, 2.0 / 3.0, 1e-12);
    let se = ((1.0 / 3.0) * (2.0 / 3.0) / 6.0f64).sqrt();
    close(forge.impact.lo, 2.0 / 3.0 - 1.96 * se, 1e-12);
    // Wald's upper bound, 1.044, is kept at 100 points.
    assert!(2.0 / 3.0 + 1.96 * se > 1.0 && forge.impact.hi == 1.0);
    // The loser built the saw mill: 0 of 1 against 4 of 7.
    let mill = &f.cards[1];
    close(mill.impact.diff, -4.0 / 7.0, 1e-12);
    // Holm over the two cards: the larger p doubled at most, never below the raw one.
    assert!(forge.impact.p_adj >= forge.impact.p && mill.impact.p_adj >= mill.impact.p);
    let text = report::render_text(&report::report(&records));
    assert!(text.contains("Card impact (2 players)") && text.contains("+66.7 (+28.9 to +100.0)"), "{text}");
    assert!(text.contains("It is an association, not a cause"), "{text}");
}

#[test]
fn scores_by_round_read_back_and_old_records_still_read() {
    let records = trajectories();
    let line = serde_json::to_string(&records[0]).unwrap();
    assert!(line.ends_with(r#""score_by_round":[[1,0,0],[2,5,1],[4,6,2],[9,7,2]]}"#), "{line}");
    assert_eq!(report::parse_json_lines(&line, "a").unwrap(), vec![records[0].clone()]);
    // Untracked: no key at all, so a record keeps the bytes it had before the field.
    let old = serde_json::to_string(&records[3]).unwrap();
    assert!(!old.contains("score_by_round"));
    let read = report::parse_json_lines(&old, "a").unwrap();
    assert!(read[0].score_by_round.is_empty() && read[0] == records[3]);
    // A row per round ending on the final scores, or the record is refused.
    let mut short = records[0].clone();
    short.score_by_round.pop();
    let err = report::parse_json_lines(&serde_json::to_string(&short).unwrap(), "a").unwrap_err();
    assert!(err.to_string().contains("3 rows in `score_by_round` for a 4-round game"), "{err}");
    let mut wrong = records[0].clone();
    wrong.score_by_round[3][0] = 8;
    let err = report::parse_json_lines(&serde_json::to_string(&wrong).unwrap(), "a").unwrap_err();
    assert!(err.to_string().contains("last row of `score_by_round` is not the final `scores`"), "{err}");
}

#[test]
fn player_counts_are_reported_apart() {
    let mut records = margins();
    records.extend(generated(30, 20, 0).into_iter().map(|mut r| {
        r.index += 100;
        r
    }));
    let r = report::report(&records);
    assert_eq!(r.feel.iter().map(|f| (f.players, f.games)).collect::<Vec<_>>(), [(2, 50), (3, 4)]);
    // 2 players: seat 0 won 30 of 50, 10 points above an even half.
    close(r.feel[0].seat_advantage().0, 0.1, 1e-12);
    assert_eq!(r.feel[1].margin.points.value, 2.75);
}

#[test]
fn a_comparison_tells_when_a_building_is_got() {
    // A gets the archway in round 4 in half its games and round 6 in the other
    // half; B always in round 2. Means 5 → 2; A's sd² = 1 · 50/49 (n 50), B's 0.
    let at = |round_even: u32, round_odd: u32| -> Vec<GameRecord> {
        (0..50)
            .map(|i| {
                let r = if i % 2 == 0 { round_even } else { round_odd };
                game(i, ["random", "random"], 12, [20, 25], &[1], [&[("archway", r)], &[]])
            })
            .collect()
    };
    let c = report::compare(&at(4, 6), &at(2, 2));
    let lib = c.buildings.iter().find(|d| d.id == "archway").unwrap();
    assert_eq!((lib.round.a, lib.round.b), (5.0, 2.0));
    d3(lib.round.diff, -3.0);
    // se = √(50/49 / 50) = 0.14286: −3 ± 0.28 and far below 0.05.
    d3(lib.round.lo, -3.280);
    d3(lib.round.hi, -2.720);
    assert!(lib.round.p < 1e-9 && lib.round.significant);
    // Built in every game of both: the built share does not tell them apart.
    assert_eq!(lib.built.diff, 0.0);
    let text = report::render_comparison_text(&c);
    assert!(text.contains("mean round A") && text.contains("-3.00 (-3.28 to -2.72)"), "{text}");
}
