//! Unit tests of the game: setup, scorings, the view's next scoring,
//! determinize.

use super::*;
use crate::turns::Determinize as _;

fn rs() -> Arc<Ruleset> {
    Ruleset::load("alhambra").unwrap()
}

/// Top-first positions of the scoring cards in the money deck.
fn scoring_positions(g: &Game) -> Vec<(u8, usize)> {
    g.deck
        .iter()
        .rev()
        .enumerate()
        .filter_map(|(i, d)| if let Draw::Scoring(s) = d { Some((*s, i)) } else { None })
        .collect()
}

#[test]
fn each_scoring_card_lies_in_its_pile() {
    let rs = rs();
    for players in 2..=6 {
        for seed in 0..200 {
            let g = Game::new(Arc::clone(&rs), players, seed).unwrap();
            // Before the first turn nothing was drawn from the piles.
            let money = g.deck.len() - 2;
            let size = |k: usize| money / 5 + usize::from(k < money % 5);
            let start = |k: usize| (0..k).map(size).sum::<usize>();
            let pos = scoring_positions(&g);
            assert_eq!(pos.len(), 2);
            // A in pile 2; B in pile 4, one further down for A above it.
            let (a, b) = (pos[0], pos[1]);
            assert_eq!((a.0, b.0), (0, 1));
            assert!((start(1)..=start(1) + size(1)).contains(&a.1), "{players} players, seed {seed}: A at {}", a.1);
            assert!((start(3) + 1..=start(3) + size(3) + 1).contains(&b.1), "seed {seed}: B at {}", b.1);
            // Their known ranges hold them.
            for (s, top) in pos {
                let bottom = g.deck.len() - 1 - top;
                let (lo, hi) = g.scoring_range[s as usize];
                assert!((lo..hi).contains(&bottom));
            }
        }
    }
}

#[test]
fn the_view_tells_how_close_the_next_scoring_is() {
    let rs = rs();
    for seed in 0..20 {
        let mut g = Game::new(Arc::clone(&rs), 3, seed).unwrap();
        let mut bot = engine_play::bots::RandomBot::new(seed);
        let mut seen = Vec::new();
        let dealt = g.deck.len();
        while !g.is_over() {
            let next = g.view(Some(0)).next_scoring.expect("a scoring is to come until the end");
            if !seen.contains(&next.name) {
                seen.push(next.name.clone());
            }
            let index = rs.scorings.iter().position(|s| s.name == next.name).unwrap() as u8;
            match scoring_positions(&g).iter().find(|(s, _)| *s == index) {
                // The card's true place (cards above it) lies in the window a pile wide.
                Some(&(_, above)) => {
                    let (min, max) = (next.draws_min.unwrap(), next.draws_max.unwrap());
                    assert!((min..=max).contains(&above), "seed {seed}: {above} outside {min}..={max}");
                    assert!(max - min <= dealt / 5 + 1, "a pile, not the deck: {min}..={max}");
                }
                None => assert!(next.card.is_none() && next.draws_min.is_none(), "seed {seed}: {next:?}"),
            }
            let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
            g.apply(a).unwrap();
        }
        assert_eq!(seen, ["A", "B", "C"], "seed {seed}");
        assert_eq!(g.view(None).next_scoring, None);
    }
}

#[test]
fn buildings_remember_their_turn() {
    let rs = rs();
    let mut g = Game::new(Arc::clone(&rs), 2, 5).unwrap();
    let n = g.neutral.as_ref().unwrap();
    assert!(!n.buildings.is_empty() && n.history.iter().all(|h| h.turn == 0), "the start draws: {:?}", n.history);
    let mut bot = engine_play::bots::RandomBot::new(1);
    while !g.is_over() {
        let turn = g.turns;
        let before: Vec<usize> = g.players.iter().chain(&g.neutral).map(|p| p.buildings.len()).collect();
        let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
        g.apply(a).unwrap();
        for (c, p) in g.players.iter().chain(&g.neutral).enumerate() {
            assert_eq!(p.history.len(), p.buildings.len());
            assert!(p.history[before[c]..].iter().all(|h| h.turn == turn), "collector {c} in turn {turn}");
        }
    }
}

#[test]
fn starting_capital_is_20_to_28_and_the_start_player_has_fewest_cards() {
    let rs = rs();
    for seed in 0..300 {
        let g = Game::new(Arc::clone(&rs), 5, seed).unwrap();
        for p in &g.players {
            assert!((20..=28).contains(&p.money()), "seed {seed}: {}", p.money());
        }
        let key = |p: &Player| (p.hand().len(), p.money());
        let best = g.players.iter().map(key).min().unwrap();
        assert_eq!(key(&g.players[g.start_player]), best);
        assert_eq!(g.pending, Some(Decision::Turn { seat: g.start_player }));
        assert_eq!(g.money_display.len(), 4);
    }
}

#[test]
fn determinize_keeps_what_the_seat_sees() {
    let rs = rs();
    let mut g = Game::new(Arc::clone(&rs), 4, 9).unwrap();
    let mut bot = engine_play::bots::RandomBot::new(3);
    for _ in 0..40 {
        let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
        g.apply(a).unwrap();
    }
    for seed in 0..50 {
        let seat = g.pending.unwrap().seat();
        let d = g.determinize(seat, seed);
        assert_eq!(d.census(), g.census_expected());
        assert_eq!(d.players[seat].hand(), g.players[seat].hand());
        for s in 0..4 {
            assert_eq!(d.players[s].hand().len(), g.players[s].hand().len());
            assert_eq!(d.players[s].buildings, g.players[s].buildings);
        }
        assert_eq!(d.money_display, g.money_display);
        assert_eq!(d.building_display, g.building_display);
        assert_eq!(d.discard, g.discard);
        assert_eq!(d.deck.len(), g.deck.len());
        assert_eq!(d.legal, g.legal);
        for (s, top) in scoring_positions(&d) {
            let bottom = d.deck.len() - 1 - top;
            let (lo, hi) = d.scoring_range[s as usize];
            assert!((lo..hi).contains(&bottom));
        }
    }
    let others_differ = (0..20).any(|seed| {
        let d = g.determinize(0, seed);
        (1..4).any(|s| d.players[s].hand() != g.players[s].hand())
    });
    assert!(others_differ, "the other hands are dealt again");
    let pair = engine_play::Seats::of(&[0, 2]);
    let mut moved = (false, false);
    for seed in 0..20 {
        let d = g.determinize_for(pair, seed);
        assert_eq!(d.census(), g.census_expected());
        assert_eq!((d.players[0].hand(), d.players[2].hand()), (g.players[0].hand(), g.players[2].hand()));
        moved.0 |= d.players[1].hand() != g.players[1].hand() || d.players[3].hand() != g.players[3].hand();
        moved.1 |= d.deck != g.deck;
    }
    assert_eq!(moved, (true, true), "what neither seat 0 nor seat 2 has seen is dealt again");
}

#[test]
fn a_hands_value_per_currency_is_kept_with_the_hand() {
    // Taking, paying, a search's redeal: after each, the kept sums are the hand's.
    let counted = |p: &Player| {
        let mut sums = [0u32; crate::ruleset::SUMS];
        for m in p.hand() {
            sums[m.currency as usize] += u32::from(m.value);
        }
        sums
    };
    let rs = rs();
    for (players, seed) in [(2, 1), (3, 2), (4, 3)] {
        let mut g = Game::new(Arc::clone(&rs), players, seed).unwrap();
        let mut bot = engine_play::bots::RandomBot::new(seed);
        let mut paid = 0;
        while g.pending.is_some() {
            let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
            paid += usize::from(matches!(a, crate::actions::Action::Pay(_)));
            g.apply(a).unwrap();
            for p in g.players.iter().chain(&g.neutral) {
                assert_eq!(p.sums(), counted(p));
            }
            let d = g.determinize(0, seed);
            for p in &d.players {
                assert_eq!(p.sums(), counted(p));
            }
        }
        assert!(paid > 10, "{players} players: {paid} payments");
    }
}

/// A bonus card (corpus `bonus_card`) counts as one building of its type
/// while its owner holds one: it starts counting when a garden comes, stops
/// when the last garden goes and counts again with the next one; the bonus
/// type itself never counts.
#[test]
fn a_bonus_card_counts_only_beside_a_building_of_its_type() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/alhambra/bonus_card/ruleset.toml");
    let rs = Ruleset::load(path).unwrap();
    let id = |s: &str| rs.buildings.iter().position(|b| b.id.starts_with(s)).unwrap() as BuildingIdx;
    let (bonus, garden, tower) = (id("garden_bonus"), id("garden"), id("tower"));
    let (g, b) = (rs.buildings[garden as usize].kind as usize, rs.buildings[bonus as usize].kind as usize);
    let mut p = Player::default();
    p.add_building_at(&rs, bonus, 1);
    assert_eq!((p.counts[g], p.counts[b]), (0, 0), "a bonus alone counts for nothing");
    p.add_building_at(&rs, garden, 2);
    assert_eq!(p.counts[g], 2, "with a garden: 2");
    p.add_building_at(&rs, tower, 3);
    assert_eq!(p.counts[g], 2, "another type changes nothing");
    let at = p.buildings.iter().position(|&x| x == garden).unwrap();
    p.remove_building_at(&rs, at);
    assert_eq!(p.counts[g], 0, "the garden gone, the bonus stays and counts for nothing");
    p.add_building_at(&rs, garden, 4);
    p.add_building_at(&rs, garden, 5);
    assert_eq!((p.counts[g], p.counts[b]), (3, 0), "two gardens and the bonus");
    assert_eq!(rs.counted_type(rs.buildings[bonus as usize].kind, &p.counts), Some(g));
    assert_eq!(rs.counted_type(rs.buildings[bonus as usize].kind, &[0; crate::ruleset::MAX_TYPES]), None);
}

/// Two positions whose table rows are equal have equal tables, key for key:
/// the row (what a remembered answer is looked up by) misses nothing of the
/// table a script is given. Played over random games of the built-in rules
/// and a design with reserves, at 2 to 5 players (the neutral collector, the
/// hands shown at the end, the scorings done), for the whole table and for
/// each key alone.
#[test]
fn a_row_tells_apart_every_table_the_scripts_see() {
    use std::collections::HashMap;
    let reserve = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/alhambra/reserve/ruleset.toml");
    use crate::hooks::TableReads;
    // Every key alone, every collector key alone, every displayed building's
    // key alone and none (only whether a slot is full), and each with only
    // one seat made (at 0 and 1).
    let whole = TableReads::WHOLE;
    let masks: Vec<TableReads> = std::iter::once(whole)
        .chain((0..crate::hooks::TABLE_SHAPE.len()).map(|k| TableReads { keys: 1 << k, ..whole }))
        .chain((0..crate::hooks::COLLECTOR_SHAPE.len()).map(|k| TableReads { collector: 1 << k, ..whole }))
        .chain((0..crate::hooks::DISPLAYED_SHAPE.len()).map(|k| TableReads { displayed: 1 << k, ..whole }))
        .chain([TableReads { displayed: 0, ..whole }, TableReads { displayed: 0b11, ..whole }])
        // Every list only counted; each key of a card in a hand alone.
        .chain([TableReads { counted: u32::MAX, ..whole }])
        .chain((0..crate::hooks::HAND_SHAPE.len()).map(|k| TableReads { hand: 1 << k, ..whole }))
        // Each key of an owned building alone, and none.
        .chain((0..crate::hooks::OWNED_SHAPE.len()).map(|k| TableReads { owned: 1 << k, ..whole }))
        .chain([TableReads { owned: 0, ..whole }])
        .flat_map(|r| [r, TableReads { own: Some(0), ..r }, TableReads { own: Some(1), ..r }])
        .collect();
    for rs in [rs(), Ruleset::load(reserve).unwrap()] {
        let mut seen: Vec<HashMap<engine_script::reads::ReadRow, String>> = vec![HashMap::new(); masks.len()];
        let mut told_apart = vec![0usize; masks.len()];
        for seed in 0..12 {
            let players = 2 + seed as usize % 4;
            let mut g = Game::new(Arc::clone(&rs), players, seed).unwrap();
            let mut bot = engine_play::bots::RandomBot::new(seed);
            loop {
                for (i, reads) in masks.iter().enumerate() {
                    let reads = TableReads { own: reads.own.map(|s| s % players), ..*reads };
                    let mut row = engine_script::reads::ReadRow::new();
                    g.table_row(&reads, &mut row);
                    let table = format!("{:?}", g.table_map(&reads));
                    let before = seen[i].insert(row, table.clone());
                    assert!(
                        before.as_ref().is_none_or(|b| *b == table),
                        "{}: {reads:?}: one row, two tables:\n{before:?}\n{table}",
                        rs.id
                    );
                    told_apart[i] += usize::from(before.is_none());
                }
                if g.is_over() {
                    break;
                }
                let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
                g.apply(a).unwrap();
            }
        }
        // Each key's rows tell positions apart (a row that wrote nothing would tell none).
        for (i, n) in told_apart.iter().enumerate() {
            let keys = masks[i].keys;
            let constant = ["types", "currencies", "rules"].iter().any(|k| keys == super::reads::bits_of(k));
            assert!(constant || *n > 1, "{}: mask {:?} told no positions apart", rs.id, masks[i]);
        }
    }
}

/// Each named place of a card's `ctx` is the key it names, and the places of
/// the members and of `ctx`'s reads agree ([`super::scripts::CARD_CTX_MEMBERS`]).
#[test]
fn a_card_ctx_member_is_found_at_its_place() {
    use super::scripts::{CARD_CTX_MEMBERS, CTX_KEYS, place};
    use crate::hooks::CTX_MORE;
    for (at, key) in [
        (place::ACTION, "action"),
        (place::ACTOR, "actor"),
        (place::ARGS, "args"),
        (place::CARD, "card"),
        (place::CHOSEN, "chosen"),
        (place::COUNTER, "counter"),
        (place::EVENT, "event"),
        (place::HAND, "hand"),
        (place::OWNED, "owned"),
        (place::PLAYER_COUNTERS, "player_counters"),
        (place::PLAYERS, "players"),
        (place::SEAT, "seat"),
        (place::TABLE, "table"),
        (place::TURN, "turn"),
    ] {
        assert_eq!(CTX_KEYS[at], key);
        assert_eq!(CTX_MORE[CARD_CTX_MEMBERS[at]], key);
    }
    assert_eq!(CTX_MORE[CARD_CTX_MEMBERS[place::PLAYER_COUNTER]], "player_counter");
    assert!(CTX_KEYS.is_sorted());
}

/// A `legal` answer read without its text ([`Game::listed_words`]) offers
/// what the general path offers, at every decision of random games of the
/// designs with display slots and reserves as arguments, and of a design
/// whose `legal` lists slots past the display, empty ones, a slot as text,
/// a building not in the reserve and an unknown id (the general path's
/// answers and errors).
#[test]
fn a_legal_answer_read_in_place_offers_what_the_general_path_offers() {
    let corpus = |d: &str| format!("{}/../../corpus/alhambra/{d}/ruleset.toml", env!("CARGO_MANIFEST_DIR"));
    let odd = concat!(
        "[[action]]\nid = \"grab\"\nverb = \"grab\"\ndecision = \"turn\"\nargs = [\"slot\"]\npayment = \"price\"\nscript = \"g.rhai\"\n",
        "[[action]]\nid = \"fetch\"\nverb = \"fetch\"\ndecision = \"turn\"\nargs = [\"reserve\"]\nscript = \"g.rhai\"\n",
    );
    let script = "fn legal(ctx) { if ctx.action == \"grab\" { if ctx.turn % 5 == 4 { [0] } \
                  else if ctx.turn % 2 == 0 { [1, 2, 3, 4, 7] } else { [\"2\", 1] } } \
                  else if ctx.turn % 2 == 0 { [\"tower11\"] } else { [\"nothing\"] } }\n\
                  fn on_action(ctx) { () }\n";
    let dir = std::env::temp_dir().join(format!("alhambra-listed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("r.toml"),
        format!("id = \"odd\"\ngame = \"alhambra\"\nname = \"Odd\"\nextends = \"alhambra\"\n{odd}"),
    )
    .unwrap();
    std::fs::write(dir.join("g.rhai"), script).unwrap();
    let rulesets = [
        Ruleset::load(&corpus("reserve")).unwrap(),
        Ruleset::load(&corpus("vizier")).unwrap(),
        Ruleset::load(dir.join("r.toml").to_str().unwrap()).unwrap(),
    ];
    let (mut compared, mut errors, mut offered) = (0, 0, 0);
    for rs in rulesets {
        for seed in 0..6 {
            let mut g = Game::new(Arc::clone(&rs), 2 + seed as usize % 3, seed).unwrap();
            let mut bot = engine_play::bots::RandomBot::new(seed);
            while !g.is_over() {
                let mut fast = Vec::new();
                let fast = g.custom_legal(&mut fast).map(|()| fast).map_err(|e| e.to_string());
                let general = g.custom_legal_general().map_err(|e| e.to_string());
                assert_eq!(fast, general, "{}: seed {seed}, turn {}", rs.id, g.turns);
                compared += 1;
                errors += usize::from(fast.is_err());
                offered += fast.as_ref().map_or(0, Vec::len);
                if g.legal_actions().is_empty() {
                    break;
                }
                let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
                if g.apply(a).is_err() {
                    // The decision whose `legal` failed: both paths report it alike.
                    let mut fast = Vec::new();
                    let fast = g.custom_legal(&mut fast).map(|()| fast).map_err(|e| e.to_string());
                    assert_eq!(fast, g.custom_legal_general().map_err(|e| e.to_string()), "{}: seed {seed}", rs.id);
                    errors += usize::from(fast.is_err());
                    break;
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(compared > 500 && errors > 0 && offered > 500, "{compared} decisions, {errors} errors, {offered} offered");
}
