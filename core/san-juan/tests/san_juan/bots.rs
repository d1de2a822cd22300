//! Bots only ever play legal moves (`Game::apply` checks every one) and finish
//! their games; the greedy bot is clearly better than random.

use engine_game::run::play_one;
use san_juan::Game;
use san_juan::Ruleset;

fn play(ruleset: &str, bots: &[&str], games: u64) -> Vec<san_juan::sim::GameRecord> {
    let rs = Ruleset::load(ruleset).unwrap();
    let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    (0..games)
        .map(|i| {
            play_one::<Game>(&rs, &bots, 11, i, &engine_game::Models::default())
                .unwrap_or_else(|e| panic!("game {i}: {e}"))
        })
        .collect()
}

/// `paired-balance:N@build` searches the build decisions and answers every
/// other one as the balance bot does.
#[test]
fn a_search_limited_to_build_decisions_plays_the_balance_bot_elsewhere() {
    use engine_game::Game as _;
    use engine_play::turns::TurnGame;

    let rs = Ruleset::load("second-edition").unwrap();
    let models = engine_game::Models::new();
    // A plain model given, not learned: the test is about who answers which decision.
    let model = crate::common::model(&rs, |f| match f {
        "score" => 1.0,
        "hand" => 0.3,
        _ => 0.0,
    });
    models.get_or_learn(Game::ID, &rs.fingerprint, || Ok((*model).clone())).unwrap();
    let make = |name: &str, seed| engine_game::bots::make::<Game>(&rs, name, seed, &models).unwrap();
    let (mut searched, mut differed) = (0, 0);
    for seed in 0..4 {
        let mut game = Game::start(&rs, 2, seed).unwrap();
        let mut limited = make("paired-balance:12@build", seed);
        let mut balance = make("balance", seed);
        while let Some(seat) = TurnGame::to_move(&game) {
            let legal = TurnGame::legal(&game).to_vec();
            let action = if seat == 0 {
                let mine = limited.choose(&game, &legal);
                let plain = balance.choose(&game, &legal);
                if game.decision_kind() == Some("build") {
                    searched += 1;
                    differed += usize::from(mine != plain);
                } else {
                    assert_eq!(mine, plain, "seed {seed}: {:?}", game.pending());
                }
                mine
            } else {
                balance.choose(&game, &legal)
            };
            TurnGame::play(&mut game, action).unwrap();
        }
    }
    // The build decisions were its own: some answered otherwise than the balance bot.
    assert!(searched > 20 && differed > 0, "{searched} build decisions, {differed} answered otherwise");
    // A kind the game does not have is refused, naming the ones it has.
    let err = engine_game::bots::make::<Game>(&rs, "paired-balance:12@buy", 1, &models).err().unwrap();
    assert!(err.contains("no kind of decision `buy`") && err.contains("role (choosing a role)"), "{err}");
}

#[test]
fn greedy_plays_legal_moves_in_every_ruleset_and_player_count() {
    for ruleset in ["second-edition", "second-edition-expansion", "first-edition"] {
        for bots in [&["greedy", "greedy"][..], &["greedy", "random", "greedy"], &["greedy"; 4]] {
            for r in play(ruleset, bots, 60) {
                assert_eq!(r.scores.len(), bots.len());
                assert!(!r.winners.is_empty());
            }
        }
    }
}

#[test]
fn mcts_plays_legal_moves() {
    for r in play("second-edition-expansion", &["mcts:4", "greedy", "random"], 4) {
        assert!(r.rounds > 3);
    }
}

#[test]
fn greedy_beats_random() {
    let records = play("second-edition", &["greedy", "random"], 200);
    let wins: f64 = records.iter().filter(|r| r.winners == [0]).count() as f64;
    assert!(wins / 200.0 > 0.9, "greedy won {wins} of 200");
}

/// The balance bot, deciding whether to build the building that ends the
/// game, builds it when that wins and not when that loses. The model is
/// written by hand (a point is a point, a card in hand 0.3), so only the
/// end of the game decides: any of these builds is worth its cards otherwise.
mod end_of_game {
    use std::sync::Arc;

    use engine_game::Game as _;
    use engine_play::bots::Bot;
    use engine_play::turns::TurnGame;
    use engine_play::value::{ValueBot, ValueModel};
    use san_juan::{Action, Game};

    use crate::common;

    fn model(game: &Game) -> Arc<ValueModel> {
        common::model(game.rules(), |f| match f {
            "score" => 1.0,
            "hand" => 0.3,
            _ => 0.0,
        })
    }

    /// Seat 0 has 11 buildings (13 points) and a well (1 point) and a statue
    /// (3) to build as the builder;
    /// seat 1 has `other` buildings and no cards.
    fn choice(other: &str) -> Action {
        let (game, legal) = position(other);
        ValueBot::new(model(&game), 1).choose(&game, &legal)
    }

    /// The builder's decision of [`choice`] and its legal answers.
    fn position(other: &str) -> (Game, Vec<Action>) {
        let text = format!(
            "[[players]]\n\
             buildings = [\"indigo_plant\", \"smithy\", \"gold_mine\", \"archive\", \"poor_house\", \"black_market\", \
             \"trading_post\", \"market_stand\", \"sugar_mill\", \"tower\", \"aqueduct\"]\n\
             hand = [\"well\", \"crane\", \"chapel\", \"statue\"]\n\
             [[players]]\n\
             buildings = [{other}]\n"
        );
        let mut game = common::setup(&text);
        game.apply_text("role builder").unwrap();
        let legal = game.legal().to_vec();
        assert!(legal.contains(&Action::Pass), "{legal:?}");
        (game, legal)
    }

    #[test]
    fn a_blurred_bot_is_seeded_and_blurs_by_its_noise() {
        let (game, legal) = position("\"indigo_plant\"");
        let model = model(&game);
        let plain = ValueBot::new(Arc::clone(&model), 1).choose(&game, &legal);
        let pick =
            |noise: f64, seed: u64| ValueBot::new(Arc::clone(&model), seed).with_noise(noise).choose(&game, &legal);
        // Noise far below the gaps between the actions' values changes nothing.
        assert!((0..50).all(|seed| pick(1e-6, seed) == plain));
        // Noise far above them makes every action about as likely.
        let mut seen: Vec<Action> = (0..300).map(|seed| pick(1000.0, seed)).collect();
        seen.sort_by_key(|a| format!("{a:?}"));
        seen.dedup();
        assert!(seen.len() >= legal.len().min(4), "{seen:?} of {legal:?}");
        // A seed replays its choice.
        assert!((0..20).all(|seed| pick(3.0, seed) == pick(3.0, seed)));
    }

    #[test]
    fn it_ends_the_game_when_ahead() {
        assert!(matches!(choice("\"indigo_plant\""), Action::Build { .. }), "with up to 16 points against 1");
    }

    #[test]
    fn it_does_not_end_the_game_when_behind() {
        let other = "\"indigo_plant\", \"hero\", \"victory_column\", \"statue\", \"library\", \"carpenter\"";
        assert_eq!(choice(other), Action::Pass, "with at most 16 points against 18");
    }
}

/// The balance bot's sensitivity: changes whose direction is known move the
/// numbers that way. Every ruleset here has its own model, learned from
/// second-edition's as every change of a built-in ruleset is; then 4-player
/// games between balance bots are counted;
/// each claim is that two 95% Wilson intervals do not overlap.
///
/// CI plays 1,000 games per ruleset; the full size (4,000) is
/// `SENSITIVITY=full cargo test --release -p san-juan sensitivity -- --nocapture`.
mod sensitivity {
    use std::sync::Arc;

    use engine_game::run::play_one;
    use engine_report::Rate;
    use san_juan::Ruleset;

    const SEATS: usize = 4;

    fn games() -> u64 {
        if std::env::var("SENSITIVITY").is_ok_and(|v| v == "full") { 4000 } else { 1000 }
    }

    /// A ruleset extending the 2nd edition with `body` (patches, extra sets), in its own folder.
    fn variant(name: &str, body: &str, extra: Option<&str>) -> (tempfile::TempDir, Arc<Ruleset>) {
        let dir = tempfile::tempdir().unwrap();
        let mut text = format!("id = \"{name}\"\nname = \"{name}\"\nextends = \"second-edition\"\n");
        if let Some(cards) = extra {
            std::fs::write(dir.path().join("extra.toml"), cards).unwrap();
            text.push_str("extra_sets = [\"extra.toml\"]\n");
        }
        text.push_str(body);
        std::fs::write(
            dir.path().join("well3.rhai"),
            "fn on_produced(ctx) { if ctx.produced >= 2 { 3 } else { 0 } }\n",
        )
        .unwrap();
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        let rs = Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
        (dir, rs)
    }

    /// (built share, builders' win share) of `card` over balance-bot games.
    fn study(rs: &Arc<Ruleset>, card: &str) -> (Rate, Rate) {
        let bots = vec!["balance".to_owned(); SEATS];
        let models = engine_game::Models::new();
        let (mut built, mut builders, mut builder_wins) = (0.0, 0u64, 0.0);
        for i in 0..games() {
            let r = play_one::<san_juan::Game>(rs, &bots, 3, i, &models).unwrap_or_else(|e| panic!("game {i}: {e}"));
            for (seat, city) in r.buildings.iter().enumerate() {
                if city.iter().any(|b| &*b.id == card) {
                    built += 1.0;
                    builders += 1;
                    if r.winners.contains(&seat) {
                        builder_wins += 1.0 / r.winners.len() as f64;
                    }
                }
            }
        }
        (Rate::wilson(built, games() * SEATS as u64), Rate::wilson(builder_wins, builders))
    }

    fn below(a: &Rate, b: &Rate) -> bool {
        a.hi < b.lo
    }

    #[test]
    fn a_dearer_library_is_built_less_at_every_step() {
        let shares: Vec<(i32, Rate)> = [4, 6, 8]
            .into_iter()
            .map(|cost| {
                let (_dir, rs) =
                    variant(&format!("library-{cost}"), &format!("[cards.library]\ncost = {cost}\n"), None);
                (cost, study(&rs, "library").0)
            })
            .collect();
        for pair in shares.windows(2) {
            let ((a, ra), (b, rb)) = (&pair[0], &pair[1]);
            assert!(
                below(rb, ra),
                "library at cost {b} ({:.3}) is not built less than at {a} ({:.3})",
                rb.value,
                ra.value
            );
        }
    }

    #[test]
    fn more_printed_points_make_a_building_built_more_and_its_builders_win_more() {
        let (_d1, plain) = variant("hero-5", "", None);
        let (_d2, rich) = variant("hero-9", "[cards.hero]\nvp = 9\n", None);
        let (built_a, wins_a) = study(&plain, "hero");
        let (built_b, wins_b) = study(&rich, "hero");
        assert!(below(&built_a, &built_b), "built {:.3} → {:.3}", built_a.value, built_b.value);
        assert!(below(&wins_a, &wins_b), "builders' wins {:.3} → {:.3}", wins_a.value, wins_b.value);
    }

    #[test]
    fn a_cheap_building_with_many_points_is_built_far_more_than_a_dear_one_with_none() {
        let cards = "script_dir = \".\"\n\n[[card]]\nid = \"plaza\"\nname = \"Plaza\"\nkind = \"city\"\ncost = 1\nvp = 4\ncopies = 3\n\n\
                     [[card]]\nid = \"folly\"\nname = \"Folly\"\nkind = \"city\"\ncost = 6\nvp = 0\ncopies = 3\n";
        let (_dir, rs) = variant("plaza-folly", "", Some(cards));
        let (plaza, _) = study(&rs, "plaza");
        let (folly, _) = study(&rs, "folly");
        assert!(folly.hi * 3.0 < plaza.lo, "plaza {:.3}, folly {:.3}", plaza.value, folly.value);
    }

    #[test]
    fn a_building_without_its_effect_is_built_less() {
        let (_d1, with) = variant("library-effect", "", None);
        let (_d2, without) = variant("library-plain", "[cards.library]\nscript = \"\"\n", None);
        let (a, _) = study(&with, "library");
        let (b, _) = study(&without, "library");
        assert!(below(&b, &a), "library built {:.3} with its effect, {:.3} without", a.value, b.value);
    }

    #[test]
    fn a_well_that_draws_three_is_built_more_than_one_that_draws_one() {
        let (_d1, one) = variant("well-1", "", None);
        let (_d2, three) = variant("well-3", "[cards.well]\nscript = \"well3.rhai\"\n", None);
        let (a, _) = study(&one, "well");
        let (b, _) = study(&three, "well");
        eprintln!("well built: draws 1 {:.3}, draws 3 {:.3}", a.value, b.value);
        assert!(below(&a, &b), "well built {:.3} drawing 1, {:.3} drawing 3", a.value, b.value);
    }

    /// Mean rounds of 2-player games between `bot`s.
    fn rounds(rs: &Arc<Ruleset>, bot: &str) -> engine_report::Mean {
        let bots = vec![bot.to_owned(); 2];
        let models = engine_game::Models::new();
        let rounds: Vec<f64> = (0..games())
            .map(|i| {
                let r =
                    play_one::<san_juan::Game>(rs, &bots, 9, i, &models).unwrap_or_else(|e| panic!("game {i}: {e}"));
                f64::from(r.rounds)
            })
            .collect();
        engine_report::Mean::of(&rounds)
    }

    /// Every trading tile's prices one higher: more cards per sale, so the
    /// cities fill and 2-player games end sooner. The greedy bot's do (13.30
    /// → 12.07 rounds over 4,000 games, seed 9) and so do a search's
    /// (`paired-balance:100`, −0.5); the balance bot's get longer (13.24 ±
    /// 0.03 → 13.46 ± 0.04): its model answers richer trades with more
    /// production and fewer violets. A known blind spot, kept here to check a fix:
    /// `cargo test --release -p san-juan --test san_juan dearer_trading -- --ignored --nocapture`.
    #[test]
    #[ignore = "a known blind spot of the balance bot: its 2-player games get longer"]
    fn dearer_trading_tiles_make_two_player_games_shorter() {
        let tiles = "[rules]\ntrading_tiles = [[2, 2, 2, 3, 3], [2, 2, 3, 3, 3], [2, 2, 3, 3, 4], [2, 3, 3, 3, 4], [2, 3, 3, 4, 4]]\n";
        let (_d1, plain) = variant("tiles", "", None);
        let (_d2, dearer) = variant("tiles-plus-1", tiles, None);
        for bot in ["greedy", "balance"] {
            let (a, b) = (rounds(&plain, bot), rounds(&dearer, bot));
            eprintln!(
                "{bot}: {:.2} ({:.2}–{:.2}) → {:.2} ({:.2}–{:.2}) rounds",
                a.value, a.lo, a.hi, b.value, b.lo, b.hi
            );
            assert!(b.hi < a.lo, "{bot}: tiles +1 gives {:.2} rounds against {:.2}", b.value, a.value);
        }
    }
}
