//! What the balance bot reads of a ruleset that does not change during a
//! game, worked out once when it loads: the goods' mean prices, the deck's
//! mean points, and which scoring scripts answer from their owner's city
//! alone. Data, below the state and the bots that read it.

use crate::cards::{CardIdx, CardTable};
use crate::hooks::Hook;

use super::Rules;

/// The `ctx` facts a scoring script may read and still answer from its
/// owner's city alone (the seat and the number of players hold for a game).
const CITY_FACTS: &[&str] = &[
    "card",
    "seat",
    "players",
    "goods",
    "uses",
    "under",
    "subtotal",
    "actor",
    "counter",
    "count_kind",
    "count_tag",
    "count_types",
];

/// The bit of the owner's own city (`buildings`) among [`hooks::LISTED`].
const OWN_CITY_LIST: u64 = 1;

/// Per card, whether its scoring script (if it has one) answers from its
/// owner's city alone: a literal, or one that reads only [`CITY_FACTS`] and
/// the owner's own buildings (a palace, a guild hall, a city hall, a
/// triumphal arch). A ruleset's constant, worked out when it loads, with
/// what of a building those scripts read beyond its card and the cards under it.
pub(crate) fn scores_by_city(scripts: &engine_script::ScriptHost, cards: usize) -> (Vec<bool>, CityReads) {
    let hook = Hook::Score as usize;
    let city_facts = |reads: &[&str]| reads.iter().all(|r| CITY_FACTS.contains(r));
    let mut all = CityReads::default();
    let by_city = (0..cards)
        .map(|c| {
            if !scripts.listens(hook, c) || scripts.constant(hook, c).is_some() {
                return true;
            }
            let reads = match (scripts.memo_reads(hook, c), scripts.listed_reads(hook, c)) {
                (Some(reads), _) => reads,
                (None, Some((reads, bits))) if bits & !OWN_CITY_LIST == 0 => reads,
                _ => return false,
            };
            all.goods |= reads.contains(&"goods");
            all.uses |= reads.contains(&"uses");
            all.counter |= reads.contains(&"counter");
            city_facts(&reads)
        })
        .collect();
    (by_city, all)
}

/// What the scoring scripts that answer from the city read of a building
/// beyond its card and the cards under it: a kept score stands while these
/// are the same (goods come and go at every producer and trader).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CityReads {
    pub(crate) goods: bool,
    pub(crate) uses: bool,
    pub(crate) counter: bool,
}

/// The mean price of `building`'s good over the trading tiles.
fn mean_price(cards: &CardTable, rules: &Rules, building: CardIdx) -> f64 {
    let def = cards.get(building);
    if let Some(p) = def.fixed_price {
        return f64::from(p);
    }
    let tiles = &rules.trading_tiles;
    match def.good {
        Some(g) if !tiles.is_empty() => {
            tiles.iter().map(|t| f64::from(t.get(g).copied().unwrap_or(0))).sum::<f64>() / tiles.len() as f64
        }
        _ => 0.0,
    }
}

/// Per card, [`mean_price`] (a ruleset's constant, worked out when it loads:
/// the balance bot asks for it for every good of every seat in every role's worth).
pub(crate) fn mean_prices(cards: &CardTable, rules: &Rules) -> Vec<f64> {
    (0..cards.len()).map(|i| mean_price(cards, rules, i as CardIdx)).collect()
}

/// The mean printed points of the deck's cards (a ruleset's constant, worked out when it loads).
pub(crate) fn mean_vp(cards: &CardTable) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for c in cards.cards.iter().filter(|c| !c.public) {
        sum += f64::from(c.vp) * f64::from(c.copies);
        n += f64::from(c.copies);
    }
    if n > 0.0 { sum / n } else { 0.0 }
}

/// The mean over the production buildings of their good's mean price (a
/// ruleset's constant, worked out when it loads).
pub(crate) fn mean_good_price(cards: &CardTable, rules: &Rules) -> f64 {
    let prices: Vec<f64> = cards
        .cards
        .iter()
        .enumerate()
        .filter(|(_, c)| c.good.is_some())
        .map(|(i, _)| mean_price(cards, rules, i as CardIdx))
        .collect();
    if prices.is_empty() { 0.0 } else { prices.iter().sum::<f64>() / prices.len() as f64 }
}
