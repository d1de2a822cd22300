//! The words of an effect map a script may write: every effect with its keys
//! and values, and the result keys hooks answer with. Data only: `check`, the
//! docs tests and the effects' reader all take them from here.

/// Every effect: its name (the map key that holds its amount), its other
/// keys, and what it does. `check` and the docs read this table.
pub static EFFECTS: &[(&str, &[&str], &str)] = &[
    ("draw", &["seat"], "#{ draw: n }: the owner draws n cards; `seat: s` makes seat s draw"),
    (
        "discard",
        &["seat"],
        "#{ discard: n }: the owner (or `seat`) discards n hand cards of their choice; #{ discard: [ids] }: \
         exactly these cards of the hand",
    ),
    (
        "take_random",
        &["from", "to"],
        "#{ take_random: k, from: s }: the owner (or seat `to`) takes k random hand cards of seat s",
    ),
    (
        "give",
        &["to", "from"],
        "#{ give: n, to: s }: the owner (or seat `from`) gives n hand cards of its choice to seat s",
    ),
    (
        "add_good",
        &["seat"],
        "#{ add_good: \"self\" }: a good from the draw pile goes on this building (\"target\": the building \
         just built; a card id: the owner's, or with `seat: s` seat s's, first building of that type without a good)",
    ),
    (
        "remove_building",
        &["seat"],
        "#{ remove_building: \"self\" }: this building (or \"target\", or the owner's, or with `seat: s` seat s's, \
         first building of that id) goes to the discard pile with its good and the cards under and beneath it",
    ),
    (
        "remove_good",
        &["seat"],
        "#{ remove_good: \"self\" }: the good on this building (or as add_good, `seat` too) is discarded",
    ),
    (
        "move",
        &["from_building", "to_building", "from_seat", "to_seat", "from", "to", "seat"],
        "#{ move: \"good\", from_building: \"self\", to_building: \"coffee_roaster\" }: the good on one building \
         goes onto another that carries goods and has none (each building \"self\", \"target\" or an id: the first \
         of that id with a good, or without one, of the owner or of `from_seat` / `to_seat`); nothing happens when \
         there is no good to move or no room for it. #{ move: \"hero\", from: \"hand\", to: \"reserve\" }: one card \
         (an id or a Card) goes from a zone of the owner's (or `seat`'s), \"hand\", \"reserve\" or \"public\" (the \
         cards beside the roles), to its \"hand\", \"reserve\", \"city\" (a building, working at once, not built: \
         nothing is paid and no build is heard) or \"discard\"; nothing happens when the card is not there, or a \
         city would own a unique city building twice",
    ),
    ("tuck", &[], "#{ tuck: n }: the owner may put up to n hand cards under this building"),
    (
        "reveal",
        &["keep", "optional"],
        "#{ reveal: n, keep: k }: the top n cards are turned face up; the owner keeps k of them, the rest are \
         discarded; with `optional: true` it keeps up to k, or none (`pass`)",
    ),
    (
        "look",
        &["may_discard"],
        "#{ look: n, may_discard: k }: the owner looks at the top n cards, may discard up to k of them and \
         puts the rest back in the same order",
    ),
    (
        "counter",
        &["min", "max", "on", "seat"],
        "#{ counter: d, max: m }: adds d to this building's counter (kept in min..=max); `on` names another \
         building (\"target\", or the first of an id of the owner or of `seat`)",
    ),
    (
        "player_counter",
        &["add", "min", "max", "seat"],
        "#{ player_counter: \"name\", add: d }: adds d to the owner's (or `seat`'s) counter of that name",
    ),
    (
        "grant",
        &["n"],
        "#{ grant: \"sell\", n: 1 }: for the rest of this phase the owner may sell (\"produce\": produce) n more \
         goods, or pays n less for buildings (\"discount\")",
    ),
    (
        "choose",
        &["seat", "tag"],
        "#{ choose: [\"sell\", \"draw\"] }: the owner (or `seat`) chooses one option; on_choice gets it as \
         ctx.choice (and `tag`, a number or string, as ctx.tag)",
    ),
    (
        "choose_cards",
        &["from", "seat", "of", "only", "optional", "tag"],
        "#{ choose_cards: k, from: \"hand\" }: the owner (or `seat`) chooses k cards from its \"hand\", or from \
         the \"buildings\", \"goods\" (buildings with a good) or \"empty\" (production buildings without one) \
         of its own or of seat `of`, only among the card ids in `only` if given; with `optional: true` it may stop early (`pass`); on_choice \
         gets them as ctx.chosen",
    ),
];

/// The string values some effect keys must take, for `check`.
const VALUES: &[(&str, &str, &[&str])] = &[
    ("choose_cards", "from", &["hand", "buildings", "goods", "empty"]),
    ("grant", "grant", &["sell", "produce", "discount"]),
    ("move", "move", &["good", "*"]),
    ("move", "from", &["hand", "reserve", "public"]),
    ("move", "to", &["hand", "reserve", "city", "discard"]),
];

/// Every effect as the script host checks a map written in a hook: its keys and values.
pub fn effect_specs() -> &'static [engine_script::EffectSpec] {
    static SPECS: std::sync::OnceLock<Vec<engine_script::EffectSpec>> = std::sync::OnceLock::new();
    SPECS.get_or_init(|| {
        EFFECTS
            .iter()
            .map(|&(name, keys, _)| {
                let values: Vec<(&'static str, &'static [&'static str])> =
                    VALUES.iter().filter(|(e, _, _)| *e == name).map(|&(_, k, v)| (k, v)).collect();
                engine_script::EffectSpec { name, keys, values: Vec::leak(values) }
            })
            .collect()
    })
}

/// The keys of the maps the older hooks return; with the effects, all a map in a hook may hold.
const RESULT_KEYS: &[&str] = &[
    "exchange",
    "overbuild",
    "overbuild_except",
    "goods_as_cards",
    "keep",
    "from_hand",
    "tuck_sold",
    "min_goods",
    "refuse",
    "goods_of",
    "cancel",
    "build_from",
];

/// Every key a map written in a hook may use, for `check`.
pub fn map_keys() -> &'static [&'static str] {
    static KEYS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys: Vec<&'static str> =
            EFFECTS.iter().flat_map(|(n, more, _)| std::iter::once(*n).chain(more.iter().copied())).collect();
        keys.extend(RESULT_KEYS);
        keys.sort_unstable();
        keys.dedup();
        keys
    })
}
