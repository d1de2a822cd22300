//! Actions a ruleset adds to its game (`[[action]]`): a verb written in the
//! notation, the decision at which it is offered, the kinds of its arguments
//! and the script that says when it is legal and what it does. Every game
//! reads the same table and matches a line's verb the same way; each game
//! names the decisions and argument kinds it has.

use serde::{Deserialize, Serialize};

/// One `[[action]]` table of a ruleset file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionEntry {
    /// Its id: what `ctx.action` says, and how a file that extends this one patches it.
    pub id: String,
    /// Its name in the views' buttons (`Sell a building back`); the verb when not given.
    #[serde(default)]
    pub name: Option<String>,
    /// The word or words it is written with (`sell`, `buy reserved`): `sell garden10`.
    pub verb: String,
    /// The decision at which it is offered (`turn`: as the seat's action).
    pub decision: String,
    /// The kinds of its arguments when the engine lists them (`slot`, `hand`,
    /// `money_display`, `building`); without, the script's `legal(ctx)` lists them.
    #[serde(default)]
    pub args: Vec<String>,
    /// Whether the turn ends after it (true when not given); false: the seat acts again, once per turn.
    #[serde(default)]
    pub ends_turn: Option<bool>,
    /// How it is paid, when it buys what its first argument names (a game
    /// names its rules: `exact`, exactly the price; `price`, the price or more).
    #[serde(default)]
    pub payment: Option<String>,
    /// Its script (`legal`, `allowed`, `on_action`), relative to this file.
    pub script: String,
    /// What each use of it uses up of the decision it is offered at (`sell`: one of the seller's sales).
    #[serde(default)]
    pub uses: Option<String>,
    /// A card id: only the players who own that card are offered it.
    #[serde(default)]
    pub owners_of: Option<String>,
}

impl ActionEntry {
    /// The verb's words.
    pub fn words(&self) -> Vec<String> {
        self.verb.split_whitespace().map(str::to_owned).collect()
    }
}

/// What a game offers an action: the decisions it may be offered at, its
/// argument kinds, the notation's own verbs (which an action may not take)
/// and the payment rules an action may buy with.
#[derive(Clone, Copy, Debug)]
pub struct Vocabulary<'a> {
    /// Decisions (`turn`, `other_turn_end`).
    pub decisions: &'a [&'a str],
    /// Argument kinds (`slot`, `hand`).
    pub arg_kinds: &'a [&'a str],
    /// The notation's own verbs.
    pub builtin: &'a [&'a str],
    /// Payment rules (`exact`); none: an action of this game cannot buy.
    pub payments: &'a [&'a str],
    /// The optional keys it reads (`uses`, `owners_of`); the others are refused.
    pub reads: &'a [&'a str],
}

/// What is wrong with an entry, as (key, message): a verb of letters and
/// `_` that collides with no built-in verb or other action, a decision,
/// argument kinds and a payment rule the game has; the keys only some games
/// read (`uses`, `owners_of`) only where the game reads them.
pub fn check(entry: &ActionEntry, others: &[ActionEntry], game: &Vocabulary) -> Result<(), (&'static str, String)> {
    let Vocabulary { decisions, arg_kinds, builtin, payments, reads } = *game;
    for (key, set) in [("uses", entry.uses.is_some()), ("owners_of", entry.owners_of.is_some())] {
        if set && !reads.contains(&key) {
            return Err((
                key,
                format!(
                    "`{key}` is not a key this game's actions take (it reads: id, name, verb, decision, args, ends_turn, script)"
                ),
            ));
        }
    }
    let words = entry.words();
    let word_ok = |w: &String| (1..=20).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    if words.is_empty() || words.len() > 3 || !words.iter().all(word_ok) {
        return Err((
            "verb",
            format!("`verb = \"{}\"`: write one to three words of lower-case letters and `_`", entry.verb),
        ));
    }
    if words.len() == 1 && builtin.contains(&words[0].as_str()) {
        return Err((
            "verb",
            format!(
                "`{}` is a verb of the game already (verbs: {}); choose another, or two words (`{} back`)",
                words[0],
                builtin.join(", "),
                words[0]
            ),
        ));
    }
    if let Some(o) = others.iter().find(|o| o.id != entry.id && o.words() == words) {
        return Err((
            "verb",
            format!("action `{}` has the verb `{}` too; each action needs its own", o.id, entry.verb),
        ));
    }
    if !decisions.contains(&entry.decision.as_str()) {
        return Err((
            "decision",
            format!("`decision = \"{}\"`: an action is offered at one of: {}", entry.decision, decisions.join(", ")),
        ));
    }
    if entry.args.len() > 2 {
        return Err(("args", "an action takes at most two arguments".into()));
    }
    if let Some(a) = entry.args.iter().find(|a| !arg_kinds.contains(&a.as_str())) {
        return Err(("args", format!("`{a}` is not an argument kind; kinds: {}", arg_kinds.join(", "))));
    }
    match &entry.payment {
        Some(p) if payments.is_empty() => {
            Err(("payment", format!("`payment = \"{p}\"`: an action of this game buys nothing; leave `payment` out")))
        }
        Some(p) if !payments.contains(&p.as_str()) => {
            Err(("payment", format!("`payment = \"{p}\"`: an action is paid by one of: {}", payments.join(", "))))
        }
        _ => Ok(()),
    }
}

/// The action whose verb starts `words` (the longest such verb), with how many words it takes.
pub fn match_verb<'a>(words: &[&str], verbs: impl IntoIterator<Item = &'a [String]>) -> Option<(usize, usize)> {
    verbs
        .into_iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty() && v.len() <= words.len() && v.iter().zip(words).all(|(a, b)| a == b))
        .max_by_key(|(_, v)| v.len())
        .map(|(i, v)| (i, v.len()))
}

/// Every list of arguments an action's `args` kinds allow when the engine
/// lists them (no `legal` hook): each combination of one candidate per kind,
/// in order; `candidates` gives a kind's candidates as the notation writes
/// them (or as numbers standing for those words).
pub fn combinations<K: Copy, T: Clone>(kinds: &[K], candidates: impl Fn(K) -> Vec<T>) -> Vec<Vec<T>> {
    let lists: Vec<Vec<T>> = kinds.iter().map(|&k| candidates(k)).collect();
    let mut all = Vec::new();
    let _ = each_combination(&lists, |args| {
        all.push(args.to_vec());
        Ok::<(), std::convert::Infallible>(())
    });
    all
}

/// Calls `each` with every combination of one candidate per list of
/// `candidates`, in order (the first list varies slowest), without making
/// the lists: asked at every decision of a ruleset with an action of two
/// arguments (every pair of cards).
pub fn each_combination<T: Clone, E, C: AsRef<[T]>>(
    candidates: &[C],
    mut each: impl FnMut(&[T]) -> Result<(), E>,
) -> Result<(), E> {
    let list = |k: usize| candidates[k].as_ref();
    if candidates.iter().any(|c| c.as_ref().is_empty()) {
        return Ok(());
    }
    let mut at = vec![0usize; candidates.len()];
    let mut args: Vec<T> = candidates.iter().map(|c| c.as_ref()[0].clone()).collect();
    loop {
        each(&args)?;
        // The odometer: the last list turns fastest.
        let mut k = candidates.len();
        loop {
            if k == 0 {
                return Ok(());
            }
            k -= 1;
            at[k] += 1;
            if at[k] < list(k).len() {
                args[k] = list(k)[at[k]].clone();
                break;
            }
            at[k] = 0;
            args[k] = list(k)[0].clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, verb: &str) -> ActionEntry {
        ActionEntry {
            id: id.into(),
            name: None,
            verb: verb.into(),
            decision: "turn".into(),
            args: vec![],
            ends_turn: None,
            payment: None,
            script: "a.rhai".into(),
            uses: None,
            owners_of: None,
        }
    }

    #[test]
    fn a_verb_is_refused_where_it_would_be_read_as_another() {
        let game = Vocabulary {
            decisions: &["turn"],
            arg_kinds: &["slot"],
            builtin: &["take", "buy"],
            payments: &["exact"],
            reads: &[],
        };
        let ok = |e: &ActionEntry, others: &[ActionEntry]| check(e, others, &game);
        assert!(ok(&entry("sell", "sell"), &[]).is_ok());
        assert!(ok(&entry("buy2", "buy reserved"), &[]).is_ok(), "two words may start with a built-in verb");
        assert_eq!(ok(&entry("t", "take"), &[]).unwrap_err().0, "verb");
        assert_eq!(ok(&entry("x", "Sell!"), &[]).unwrap_err().0, "verb");
        assert_eq!(ok(&entry("a", "sell"), &[entry("b", "sell")]).unwrap_err().0, "verb");
        let mut e = entry("e", "swap");
        e.decision = "night".into();
        assert_eq!(ok(&e, &[]).unwrap_err().0, "decision");
        e.decision = "turn".into();
        e.args = vec!["slot".into(), "moon".into()];
        assert!(ok(&e, &[]).unwrap_err().1.contains("`moon` is not an argument kind"));
        e.args = vec!["slot".into()];
        e.payment = Some("exact".into());
        assert!(ok(&e, &[]).is_ok());
        e.payment = Some("cheap".into());
        assert_eq!(
            ok(&e, &[]).unwrap_err(),
            ("payment", "`payment = \"cheap\"`: an action is paid by one of: exact".into())
        );
        let unpaid = Vocabulary { payments: &[], ..game };
        assert!(check(&e, &[], &unpaid).unwrap_err().1.contains("buys nothing"));
        // A key only some games read is refused by the others.
        let mut e = entry("b", "bid");
        e.uses = Some("sell".into());
        assert_eq!(ok(&e, &[]).unwrap_err().0, "uses");
        assert!(check(&e, &[], &Vocabulary { reads: &["uses"], ..game }).is_ok());
    }

    #[test]
    fn the_longest_verb_that_starts_the_line_wins() {
        let verbs = [vec!["buy".to_owned()], vec!["buy".to_owned(), "reserved".to_owned()]];
        assert_eq!(match_verb(&["buy", "reserved", "pay"], verbs.iter().map(Vec::as_slice)), Some((1, 2)));
        assert_eq!(match_verb(&["buy", "3"], verbs.iter().map(Vec::as_slice)), Some((0, 1)));
        assert_eq!(match_verb(&["sell"], verbs.iter().map(Vec::as_slice)), None);
    }

    #[test]
    fn each_combination_walks_every_combination_the_first_list_slowest() {
        type Lists = Vec<Vec<u16>>;
        let cases: [(Lists, Lists); 5] = [
            (
                vec![vec![1, 2, 3], vec![7, 8]],
                vec![vec![1, 7], vec![1, 8], vec![2, 7], vec![2, 8], vec![3, 7], vec![3, 8]],
            ),
            (vec![vec![4]], vec![vec![4]]),
            (vec![], vec![vec![]]),
            (vec![vec![1, 2], vec![]], vec![]),
            (vec![vec![5, 6], vec![1], vec![2, 3]], vec![vec![5, 1, 2], vec![5, 1, 3], vec![6, 1, 2], vec![6, 1, 3]]),
        ];
        for (lists, expected) in cases {
            let mut seen: Vec<Vec<u16>> = Vec::new();
            each_combination(&lists, |a| {
                seen.push(a.to_vec());
                Ok::<(), ()>(())
            })
            .unwrap();
            assert_eq!(seen, expected, "{lists:?}");
        }
        let mut n = 0;
        assert_eq!(
            each_combination(&[vec![1u8, 2, 3]], |_| {
                n += 1;
                if n == 2 { Err("stop") } else { Ok(()) }
            }),
            Err("stop")
        );
    }

    #[test]
    fn combinations_take_one_candidate_per_kind_in_order() {
        let candidates = |k: u8| if k == 0 { vec!["1".to_owned(), "2".to_owned()] } else { vec!["denar3".to_owned()] };
        let all = combinations(&[0u8, 1], candidates);
        assert_eq!(all, [["1", "denar3"], ["2", "denar3"]]);
        assert_eq!(combinations::<u8, String>(&[], candidates), [Vec::<String>::new()], "no kinds: one empty list");
        assert!(combinations(&[1u8, 2], |k| if k == 2 { Vec::new() } else { candidates(k) }).is_empty());
    }
}
