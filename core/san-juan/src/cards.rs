//! Card types: what a card set TOML file says about each building.

use rhai::ImmutableString;
use serde::Deserialize;

use std::sync::Arc;

use crate::doc::TomlDoc;
use crate::error::LoadError;
use crate::files::Source;

/// Index of a card type in a ruleset's card table.
pub type CardIdx = u16;

/// What kind of building a card is; the rules treat the two differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Holds one good; a player may own several of the same.
    Production,
    /// A player may own only one of each (when the ruleset says so).
    City,
}

impl Kind {
    /// The lowercase name used in TOML and scripts.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Production => "production",
            Kind::City => "city",
        }
    }
}

/// One building type as the ruleset resolved it.
#[derive(Clone, Debug)]
pub struct CardDef {
    /// snake_case id used in scenarios, actions and scripts.
    pub id: ImmutableString,
    /// Display name.
    pub name: String,
    /// What the card does, in one line (shown by `play`, `cards` and `scenario`).
    pub text: String,
    /// Production or city building.
    pub kind: Kind,
    /// The good a production building makes (index into the ruleset's goods).
    pub good: Option<usize>,
    /// The good's name as written in the card file.
    pub good_name: Option<String>,
    /// Building cost in cards.
    pub cost: i32,
    /// Printed victory points.
    pub vp: i32,
    /// Copies in the deck (or on the table, for public cards).
    pub copies: u32,
    /// Free-form tags scripts can ask about (`monument`, …).
    pub tags: Vec<ImmutableString>,
    /// The Rhai script with this card's hooks, if any.
    pub script: Option<Source>,
    /// Hook call order among cards (lower first); the rulebook fixes some orders.
    pub order: i32,
    /// A city building that carries a good like a production building does.
    pub holds_good: bool,
    /// Sale price of a good on this building, whatever the trading tile says.
    pub fixed_price: Option<i32>,
    /// Victory points per card placed under this building.
    pub under_vp: i32,
    /// Lies face up beside the roles instead of in the deck; anyone may build it.
    pub public: bool,
    /// False for a public card nobody may build: only an effect (`move`) takes it into a city.
    pub buildable: bool,
    /// The file that defined the card (for error messages).
    pub defined_in: Source,
}

/// All card types of a ruleset, indexed by [`CardIdx`].
#[derive(Clone, Debug, Default)]
pub struct CardTable {
    /// Card types in definition order.
    pub cards: Vec<CardDef>,
    // Fx, not SipHash: scripts answer with card ids (the card a gold mine lets keep).
    by_id: rustc_hash::FxHashMap<String, CardIdx>,
    /// Each card's id as game records hold it (shared, not copied per record).
    record_ids: Vec<Arc<str>>,
    /// The option names scripts' choices offered (`sell`, `draw`); shared by every game of the ruleset.
    words: engine_script::words::Words,
    /// The ruleset's own actions' verbs, by action (the notation reads and writes them).
    pub verbs: Vec<Vec<String>>,
}

/// Most distinct option names a ruleset's choices may use.
pub use engine_script::words::MAX_WORDS;

impl CardTable {
    /// Builds the table and its id index.
    pub fn new(cards: Vec<CardDef>) -> Self {
        let by_id = cards.iter().enumerate().map(|(i, c)| (c.id.to_string(), i as CardIdx)).collect();
        let record_ids = cards.iter().map(|c| Arc::from(c.id.as_str())).collect();
        CardTable { cards, by_id, record_ids, words: Default::default(), verbs: Vec::new() }
    }

    /// A card's id, shared (for game records).
    pub fn record_id(&self, idx: CardIdx) -> Arc<str> {
        Arc::clone(&self.record_ids[idx as usize])
    }

    /// The number of an option name, interning it on first use; `None` past [`MAX_WORDS`].
    pub fn word(&self, name: &str) -> Option<u16> {
        self.words.word(name)
    }

    /// The number of an option name offered before, if any.
    pub fn find_word(&self, name: &str) -> Option<u16> {
        self.words.find(name)
    }

    /// The option names' table.
    pub fn words(&self) -> &engine_script::words::Words {
        &self.words
    }

    /// The option name with this number.
    pub fn word_name(&self, w: u16) -> Arc<str> {
        self.words.name(w)
    }

    /// The card with this id.
    pub fn idx(&self, id: &str) -> Option<CardIdx> {
        self.by_id.get(id).copied()
    }

    /// The card type at an index.
    pub fn get(&self, idx: CardIdx) -> &CardDef {
        &self.cards[idx as usize]
    }

    /// The id of a card type.
    pub fn id(&self, idx: CardIdx) -> &str {
        self.cards[idx as usize].id.as_str()
    }

    /// Looks a card up by id, with a "did you mean" hint on failure.
    pub fn lookup(&self, id: &str) -> Result<CardIdx, String> {
        self.idx(id).ok_or_else(|| {
            let hint = self.closest(id).map(|c| format!("; did you mean `{c}`?")).unwrap_or_default();
            format!("unknown card `{id}`{hint}")
        })
    }

    /// The known id closest to a misspelt one.
    pub fn closest(&self, id: &str) -> Option<&str> {
        crate::error::closest(id, self.cards.iter().map(|c| c.id.as_str()))
    }

    /// Number of card types.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// True when the table has no cards.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// One `[[card]]` table of a card set file: a building.
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = card_ranges)]
pub(crate) struct CardSpec {
    /// snake_case id, unique over the ruleset's sets; used in scenarios, actions and scripts.
    pub id: String,
    /// Display name.
    pub name: String,
    /// What the card does, in one line.
    #[serde(default)]
    pub text: String,
    /// `production` (makes goods, may repeat in a city) or `city`.
    pub kind: Kind,
    /// The good a production building makes: one of `[rules] goods`.
    pub good: Option<String>,
    /// Building cost in cards.
    pub cost: i32,
    /// Printed victory points.
    pub vp: i32,
    /// Copies in the deck (for a `public` card: on the table).
    pub copies: u32,
    /// Labels scripts can ask about (`card.has_tag("monument")`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The card's Rhai script, relative to `script_dir`.
    pub script: Option<String>,
    /// Hook call order among cards, lower first.
    #[serde(default)]
    pub order: i32,
    /// A city building that carries a good like a production building.
    #[serde(default)]
    pub holds_good: bool,
    /// A good on this building sells for this many cards, whatever the trading tile says.
    pub fixed_price: Option<i32>,
    /// Victory points per card under this building.
    #[serde(default)]
    pub under_vp: i32,
    /// Lies face up beside the roles instead of in the deck; anyone may build it.
    #[serde(default)]
    pub public: bool,
    /// `false`: a public card nobody may build; only a script's `move` takes it into a city.
    #[serde(default = "yes")]
    pub buildable: bool,
}

fn yes() -> bool {
    true
}

/// Writes [`CARD_RANGES`] into the JSON Schema of a card or a card patch.
pub(crate) fn card_ranges(schema: &mut schemars::Schema) {
    engine_rules::schema::write_ranges(schema, CARD_RANGES.iter().map(|&(k, lo, hi)| (k, (lo, hi))));
}

/// A card set file: buildings with their scripts (docs/rulesets.md).
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CardSetFile {
    /// Directory of this set's scripts, relative to the file.
    pub script_dir: String,
    /// The cards, one table each.
    #[serde(rename = "card", default)]
    pub cards: Vec<CardSpec>,
    /// More copies of cards another set defines (`sugar_mill = 1`).
    #[serde(default)]
    pub add_copies: std::collections::BTreeMap<String, u32>,
}

/// What a card set file holds.
#[derive(Debug, Default)]
pub(crate) struct CardSet {
    pub cards: Vec<SourcedCard>,
    /// (card id, extra copies, the file).
    pub add_copies: Vec<(String, u32, Arc<TomlDoc>)>,
}

/// A card read from a file, with where it came from.
#[derive(Clone, Debug)]
pub(crate) struct SourcedCard {
    pub spec: CardSpec,
    pub doc: Arc<TomlDoc>,
    /// Its index among the file's `[[card]]` tables (its path is `card.<index>`).
    pub index: usize,
    pub script_dir: Source,
}

impl SourcedCard {
    /// The path of one of this card's fields in its file.
    pub fn path(&self, field: &str) -> String {
        format!("card.{}.{field}", self.index)
    }
}

/// Reads a card set file.
pub(crate) fn read_card_set(file: &Source) -> Result<CardSet, LoadError> {
    let doc = Arc::new(TomlDoc::read(file)?);
    let set: CardSetFile =
        doc.deserialize().map_err(|e| e.help("every field a card takes is in docs/rulesets.md (card set files)"))?;
    let script_dir = file.join(&format!("{}/_", set.script_dir));
    let add_copies = set.add_copies.iter().map(|(id, &n)| (id.clone(), n, Arc::clone(&doc))).collect();
    let cards = set
        .cards
        .into_iter()
        .enumerate()
        .map(|(index, spec)| SourcedCard { spec, doc: Arc::clone(&doc), index, script_dir: script_dir.clone() })
        .collect();
    Ok(CardSet { cards, add_copies })
}

/// Words of the action notation, which a card id may not be (`build pass` would be ambiguous).
pub const RESERVED_IDS: &[&str] = &[
    "role",
    "build",
    "over",
    "pay",
    "spend",
    "produce",
    "sell",
    "keep",
    "discard",
    "tuck",
    "pass",
    "plain",
    "choose",
    "undo",
    "quit",
    "help",
    "cathedral_spot",
];

/// Why `id` cannot be a card id, if it cannot: ids are written in actions and scenarios.
pub fn invalid_id(id: &str) -> Option<String> {
    let ok_chars = id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if id.is_empty() {
        Some("a card id may not be empty".into())
    } else if id.len() > 48 {
        Some(format!("card id `{id}` is longer than 48 characters"))
    } else if !ok_chars || !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        Some(format!("card id `{id}` must be snake_case: a lowercase letter, then lowercase letters, digits or `_`"))
    } else if RESERVED_IDS.contains(&id) {
        Some(format!("card id `{id}` is a word of the action notation"))
    } else {
        None
    }
}

/// The allowed range of each numeric card field, for card set files and patches alike.
pub const CARD_RANGES: &[(&str, i64, i64)] = &[
    ("cost", 0, 20),
    ("vp", -20, 50),
    ("copies", 0, 200),
    ("order", -1000, 1000),
    ("fixed_price", 0, 20),
    ("under_vp", 0, 10),
];

/// An error when a numeric card field is out of its range.
pub(crate) fn check_card_number(doc: &TomlDoc, path: &str, field: &str, value: i64, errors: &mut Vec<LoadError>) {
    let Some(&(_, lo, hi)) = CARD_RANGES.iter().find(|(f, ..)| *f == field) else { return };
    if value < lo || value > hi {
        errors.push(
            doc.error(path, format!("`{field}` is {value}; it must be between {lo} and {hi}"))
                .help(format!("write a {field} from {lo} to {hi}")),
        );
    }
}
