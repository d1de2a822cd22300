//! The ruleset's scripts, run through the engine's sandboxed script host:
//! `on_score` (one scoring's points for one building type) and `on_neutral`
//! (how many building cards the neutral collector draws).
//!
//! A scoring depends only on the counts of one type and the scoring, so its
//! points are remembered per (scoring, type, counts): the script runs once
//! for each distinct position, not once per game.

use std::collections::HashMap;
use std::sync::RwLock;

use engine_script::results::as_int_in;
use engine_script::{HookSpec, Limits, ScriptHost};
use rhai::{Array, Dynamic, Map};

use crate::error::{GameError, LoadError};
use crate::files::Source;
use crate::ruleset::MAX_PLAYERS;

/// Most collectors: the players and, with two, the neutral collector.
pub const MAX_COLLECTORS: usize = MAX_PLAYERS + 1;

const SCORE: usize = 0;
const NEUTRAL: usize = 1;

/// The hooks the game calls, each of one owner (the scoring script, the neutral collector's).
pub static HOOKS: &[HookSpec] = &[
    HookSpec {
        name: "on_score",
        arity: 1,
        range: None,
        effects: false,
        results: &[],
        doc: "called for each building type at each scoring with ctx.counts (buildings of the type per collector), \
              ctx.ranks (points per rank for the type) and ctx.needs_building; returns the points per collector, an array",
    },
    HookSpec {
        name: "on_neutral",
        arity: 1,
        range: Some((0, 1000)),
        effects: false,
        results: &[],
        doc: "called when the neutral collector draws, with ctx.deck (building cards left), ctx.cards and ctx.share \
              (from two_players.neutral_draws); returns how many cards it draws",
    },
];

/// The documentation page of these hooks, named in script errors' hints.
pub const DOCS_PAGE: &str = "docs/alhambra.md";

/// Context properties that are plain numbers: a hook reading only these is remembered by their values.
pub static SCALARS: &[&str] = &["deck", "cards", "share"];
/// The other context properties.
pub static CTX_MORE: &[&str] = &["counts", "ranks", "needs_building"];

/// Remembered points stop growing here; further positions are simply computed.
const MEMO_CAPACITY: usize = 1 << 16;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ScoreKey {
    scoring: u8,
    kind: u8,
    collectors: u8,
    counts: [u8; MAX_COLLECTORS],
}

/// A quick hash for the memo's small keys (bots look points up many times a
/// turn; the keys are not chosen by anyone who could make them collide).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Memo = HashMap<ScoreKey, [i32; MAX_COLLECTORS], std::hash::BuildHasherDefault<KeyHasher>>;

/// The compiled scripts of a ruleset.
pub struct Hooks {
    host: ScriptHost,
    memo: RwLock<Memo>,
}

struct NeutralCtx {
    deck: i32,
    cards: i32,
    share: i32,
}

impl Hooks {
    /// Times the scripts' calls into `profile` while it is on (see [`ScriptHost::set_profile`]).
    pub fn set_profile(&self, profile: std::sync::Arc<engine_script::profile::Profile>) -> bool {
        self.host.set_profile(profile)
    }

    /// Compiles the scoring script and the neutral collector's script.
    pub fn load(score: &Source, neutral: &Source) -> Result<Hooks, Vec<LoadError>> {
        let mut host = ScriptHost::new(HOOKS, SCALARS, CTX_MORE, Limits::default(), |_| {});
        host.set_docs_page(DOCS_PAGE);
        host.set_owner_noun("script");
        let mut errors = host.add_owner("scoring", Some(score));
        errors.extend(host.add_owner("neutral collector", Some(neutral)));
        if errors.is_empty() {
            for (owner, hook, source) in [(SCORE, SCORE, score), (NEUTRAL, NEUTRAL, neutral)] {
                if !host.listens(hook, owner) {
                    errors.push(
                        LoadError::at(
                            source,
                            Default::default(),
                            format!("the script defines no `{}`", HOOKS[hook].name),
                        )
                        .help(format!("write `fn {}(ctx) {{ … }}`: {}", HOOKS[hook].name, HOOKS[hook].doc)),
                    );
                }
            }
        }
        if errors.is_empty() { Ok(Hooks { host, memo: RwLock::default() }) } else { Err(errors) }
    }

    /// The points of scoring `scoring` for building type `kind`: `counts` per
    /// collector, `ranks` the points per rank for the type.
    pub fn points(
        &self,
        scoring: usize,
        kind: usize,
        counts: &[u8],
        ranks: &[i32],
        needs_building: bool,
    ) -> Result<[i32; MAX_COLLECTORS], GameError> {
        let mut key = ScoreKey {
            scoring: scoring as u8,
            kind: kind as u8,
            collectors: counts.len() as u8,
            counts: [0; MAX_COLLECTORS],
        };
        key.counts[..counts.len()].copy_from_slice(counts);
        // A poisoned lock only means another thread panicked mid-insert; the map is still sound.
        if let Some(p) = self.memo.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(*p);
        }
        let mut ctx = Map::new();
        ctx.insert("counts".into(), Dynamic::from_array(counts.iter().map(|&c| Dynamic::from(i32::from(c))).collect()));
        ctx.insert("ranks".into(), Dynamic::from_array(ranks.iter().map(|&r| Dynamic::from(r)).collect()));
        ctx.insert("needs_building".into(), Dynamic::from(needs_building));
        let value = self.host.call(SCORE, SCORE, Dynamic::from_map(ctx))?.unwrap_or(Dynamic::UNIT);
        let bad = |what: String| GameError::from(self.host.bad_return(SCORE, SCORE, &what));
        let type_name = value.type_name();
        let array: Array =
            value.try_cast::<Array>().ok_or_else(|| bad(format!("returned a {type_name}, expected an array")))?;
        if array.len() != counts.len() {
            return Err(bad(format!("returned {} points for {} collectors", array.len(), counts.len())));
        }
        let mut points = [0i32; MAX_COLLECTORS];
        for (i, v) in array.into_iter().enumerate() {
            points[i] = as_int_in(v, Some((0, 100_000))).map_err(|e| bad(format!("entry {i} {e}")))?;
        }
        let mut memo = self.memo.write().unwrap_or_else(|e| e.into_inner());
        if memo.len() < MEMO_CAPACITY {
            memo.insert(key, points);
        }
        Ok(points)
    }

    /// How many building cards the neutral collector draws from a deck of `deck`.
    pub fn neutral_draws(&self, deck: u32, cards: u32, share: u32) -> Result<u32, GameError> {
        let clamp = |n: u32| n.min(i32::MAX as u32) as i32;
        let ctx = NeutralCtx { deck: clamp(deck), cards: clamp(cards), share: clamp(share) };
        let scalar = |c: &NeutralCtx, i: usize| [c.deck, c.cards, c.share][i];
        let wrap = |c: NeutralCtx| {
            let mut m = Map::new();
            m.insert("deck".into(), Dynamic::from(c.deck));
            m.insert("cards".into(), Dynamic::from(c.cards));
            m.insert("share".into(), Dynamic::from(c.share));
            Dynamic::from_map(m)
        };
        let value = self.host.call_memo(NEUTRAL, NEUTRAL, ctx, scalar, wrap)?.unwrap_or(Dynamic::UNIT);
        let n = as_int_in(value, HOOKS[NEUTRAL].range).map_err(|e| self.host.bad_return(NEUTRAL, NEUTRAL, &e))?;
        Ok(n as u32)
    }
}
