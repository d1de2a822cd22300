//! A ruleset's own actions (`[[action]]`) and the choices their scripts ask,
//! for any game that gives its scripts a `ctx` map and applies effect maps
//! itself: the verb, when it is offered, what it does and what it asks are
//! TOML and a Rhai script, with no Rust per action.
//!
//! An action's script may define `legal(ctx)` (the argument lists the actor
//! may give now; without it the action is offered once, with none),
//! `on_action(ctx)` (its effects) and `on_choice(ctx)` (the effects of the
//! answer to a choice `on_action` asked with `#{ choose: [..], prompt: ".." }`).
//!
//! Besides the members the game gives, `ctx` holds `action` (the entry's id,
//! in every hook), `args` (in `on_action`: the arguments, a number where the
//! notation wrote one, else the word), `choice` (in `on_choice`: the option
//! chosen) and `seat`: the game's to give in `offers` and `act` (the actor),
//! set by [`Verbs::chosen`] to the seat that answers.

use std::sync::{Arc, Mutex, PoisonError};

use rhai::{Array, Dynamic, ImmutableString, Map};

use engine_rules::actions::{ActionEntry, Vocabulary, check, match_verb};
use engine_rules::chain::relocate;
use engine_rules::doc::TomlDoc;
use engine_rules::error::{LoadError, Pos, ScriptError};

use crate::words::{Words, is_option_name};
use crate::{EffectSpec, HookSpec, Limits, MAX_EFFECTS, ScriptHost, too_many_effects};

/// The hooks an action's script may define.
pub const HOOKS: &[HookSpec] = &[
    HookSpec {
        name: "legal",
        arity: 1,
        range: None,
        doc: "legal(ctx) returns the argument lists the actor may give now: a list, one entry per way to act \
              (`()` for none, a word, a number or a card map with an `id`, or a list of up to two); an empty list: \
              the action is not offered",
        effects: false,
        results: &[],
    },
    HookSpec {
        name: "on_action",
        arity: 1,
        range: None,
        doc: "on_action(ctx) returns its effects: (), a map or a list of maps, each naming one effect, or \
              `#{ choose: [\"option\", …], prompt: \"…\" }` to ask the actor (answered in `on_choice`)",
        effects: true,
        results: &["choose", "prompt"],
    },
    HookSpec {
        name: "on_choice",
        arity: 1,
        range: None,
        doc: "on_choice(ctx) returns the effects of the option chosen (`ctx.choice`): (), a map or a list of maps, \
              each naming one effect, or another `#{ choose: [..], prompt: \"…\" }`",
        effects: true,
        results: &["choose", "prompt"],
    },
];

const LEGAL: usize = 0;
const ON_ACTION: usize = 1;
const ON_CHOICE: usize = 2;

/// The `ctx` members this module fills, whatever the game gives.
const ADDED: [&str; 4] = ["action", "args", "choice", "seat"];

/// The most actions a ruleset may add: an action's index is a `u8`.
pub const MAX_ACTIONS: usize = 255;

/// The most argument lists one `legal` call may offer: a list longer than
/// this is a runaway loop, and every entry costs the game a legal action.
pub const MAX_OFFERS: usize = 1000;

/// An offered action or an answer to a choice, small and `Copy` (a game's
/// action type embeds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verb {
    /// Action `action` (its index among the entries) with its first `n`
    /// arguments, interned in the [`Verbs`]' [`Words`] (the others 0).
    Act {
        /// The entry's index.
        action: u8,
        /// The arguments' words; those past `n` are 0, so that equal actions compare equal.
        args: [u16; 2],
        /// How many arguments it has (0 to 2).
        n: u8,
    },
    /// The answer to a pending [`Choice`]: the option's word.
    Choose(u16),
}

/// A choice an action's script asked, pending until its seat answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The index of the action whose `on_choice` hears the answer.
    pub action: u8,
    /// The seat that answers.
    pub seat: usize,
    /// The options' words, each once.
    pub options: Vec<u16>,
    /// What the script asked (empty when it gave no prompt).
    pub prompt: String,
}

impl Choice {
    /// The answers to this choice, one per option, in the script's order.
    pub fn answers(&self) -> impl Iterator<Item = Verb> + '_ {
        self.options.iter().map(|&o| Verb::Choose(o))
    }
}

/// What a script asked for, in order.
#[derive(Clone, Debug)]
pub enum Effect {
    /// An effect map naming one of the game's effects (checked: exactly one
    /// effect name, and only that effect's keys and values).
    Map(Map),
    /// A choice to ask the actor: the game makes it a [`Choice`] and, once it
    /// is answered, calls [`Verbs::chosen`].
    Choose {
        /// The options' words, each once.
        options: Vec<u16>,
        /// What to ask (empty when not given).
        prompt: String,
    },
}

/// A ruleset's own actions, their scripts compiled once, and the words
/// their arguments and options are interned in.
pub struct Verbs {
    entries: Vec<ActionEntry>,
    /// Each entry's verb, as words, for [`match_verb`].
    verbs: Vec<Vec<String>>,
    /// Each entry's id as scripts read it in `ctx.action` (cheap to clone).
    ids: Vec<ImmutableString>,
    host: ScriptHost,
    words: Words,
    effects: &'static [EffectSpec],
}

impl std::fmt::Debug for Verbs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verbs").field("entries", &self.entries).finish_non_exhaustive()
    }
}

impl Verbs {
    /// Loads and checks the actions: each entry against `vocab`
    /// ([`engine_rules::actions::check`]), its id, and its script (read
    /// relative to `doc`'s file, inside the file's rules tree), compiled once
    /// and checked against the hooks, the `ctx` members and the effects; every
    /// problem is located at `action.<i>.<key>` in `doc` or in the script.
    ///
    /// `members` are the `ctx` members the game gives; the module adds
    /// `action`, `args`, `choice` and `seat` (see the module's doc), each given
    /// only to the hooks that read it. `effects` are the effects the game
    /// applies: a map a hook writes is checked against them at load, and one
    /// it builds at run time when the script runs.
    pub fn load(
        entries: &[ActionEntry],
        doc: &TomlDoc,
        vocab: &Vocabulary,
        members: &'static [&'static str],
        effects: &'static [EffectSpec],
    ) -> Result<Verbs, Vec<LoadError>> {
        if entries.len() > MAX_ACTIONS {
            let message = format!("{} actions; a ruleset adds at most {MAX_ACTIONS}", entries.len());
            return Err(vec![doc.error(&format!("action.{MAX_ACTIONS}"), message)]);
        }
        let all = with_members(members, &ADDED);
        let mut host = ScriptHost::new(HOOKS, &[], all, Limits::default(), |_| {});
        host.set_owner_noun("action");
        host.set_effects(effects);
        host.set_map_keys(map_keys(effects));
        // A member read where it is never given is refused at load: `ctx.choice` in `legal` is always `()`.
        let given = |extra: &[&'static str]| Some(with_members(members, extra));
        host.set_hook_members(vec![
            given(&["action", "seat"]),
            given(&["action", "args", "seat"]),
            given(&["action", "choice", "seat"]),
        ]);
        let root = doc.source.tree_root();
        let mut errors = Vec::new();
        for (i, a) in entries.iter().enumerate() {
            let at = |key: &str| format!("action.{i}.{key}");
            if !is_option_name(&a.id) {
                let message = format!("action id `{}`: write 1 to 40 letters, digits or `_`", a.id);
                errors.push(doc.error(&at("id"), message));
            } else if entries[..i].iter().any(|o| o.id == a.id) {
                errors.push(doc.error(&at("id"), format!("two actions have the id `{}`", a.id)));
            }
            if let Err((key, message)) = check(a, &entries[..i], vocab) {
                errors.push(doc.error(&at(key), message));
            } else if a.words().first().is_some_and(|w| w == "choose") {
                // `choose x` answers a choice; an action read the same way could not be told from it.
                let message =
                    format!("`verb = \"{}\"`: `choose` answers a script's choice; choose another verb", a.verb);
                errors.push(doc.error(&at("verb"), message));
            }
            let source = doc.source.join(&a.script);
            let source = match source.check_inside(root.as_deref(), "rhai") {
                Ok(()) => Some(source),
                Err(e) => {
                    errors.push(relocate(e, doc, &at("script")));
                    None
                }
            };
            // Every entry is an owner, so that owner `i` is action `i` even past an error.
            let found = host.add_owner(&a.id, source.as_ref());
            // A script that cannot be read has no line of its own: point at the key that names it.
            errors.extend(found.into_iter().map(|e| match &source {
                Some(s) if e.pos.line == 0 && e.file == s.to_string() => relocate(e, doc, &at("script")),
                _ => e,
            }));
            if !a.args.is_empty() && source.is_some() && !host.listens(LEGAL, i) {
                let message = "the engine lists no candidates of an argument kind: the script's `legal(ctx)` lists the \
                               arguments; write it, or leave `args` out";
                errors.push(doc.error(&at("args"), message));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Verbs {
            entries: entries.to_vec(),
            verbs: entries.iter().map(ActionEntry::words).collect(),
            ids: entries.iter().map(|a| a.id.as_str().into()).collect(),
            host,
            words: Words::default(),
            effects,
        })
    }

    /// True when the ruleset adds no action.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in the order of the file (an action's index).
    pub fn entries(&self) -> &[ActionEntry] {
        &self.entries
    }

    /// The script host, for what a game does with every host (prints in a
    /// traced scenario, a `bench` profile).
    pub fn host(&self) -> &ScriptHost {
        &self.host
    }

    /// The table the arguments and options are interned in.
    pub fn words(&self) -> &Words {
        &self.words
    }

    /// Appends to `out` the actions offered at `decision` (`turn`…) for this
    /// ctx: per action whose decision it is, each argument list its
    /// `legal(ctx)` returns (without `legal`: once, with none); an empty
    /// list: not offered. An action already in `out` is not added again.
    pub fn offers(&self, decision: &str, ctx: &Map, out: &mut Vec<Verb>) -> Result<(), ScriptError> {
        for (i, a) in self.entries.iter().enumerate() {
            if a.decision != decision {
                continue;
            }
            let action = i as u8;
            if !self.host.listens(LEGAL, i) {
                push_new(out, Verb::Act { action, args: [0; 2], n: 0 });
                continue;
            }
            let mut c = ctx.clone();
            c.insert("action".into(), self.ids[i].clone().into());
            let v = self.host.call(LEGAL, i, Dynamic::from_map(c))?.unwrap_or_default();
            let bad = |what: &str| self.host.bad_return(LEGAL, i, what);
            if let Some(list) = v.read_lock::<Array>()
                && list.len() > MAX_OFFERS
            {
                return Err(bad(&format!(
                    "returned {} argument lists; an action offers at most {MAX_OFFERS} at once \
                     (a loop that never stops?)",
                    list.len()
                )));
            }
            let lists = crate::results::listed_args(v, crate::results::card_map_id).map_err(|e| bad(&e))?;
            for list in lists {
                if !a.args.is_empty() && list.len() != a.args.len() {
                    return Err(bad(&format!(
                        "listed `{}`; this action takes {} argument(s) (`args = {:?}`)",
                        list.join(" "),
                        a.args.len(),
                        a.args
                    )));
                }
                let mut args = [0u16; 2];
                for (slot, text) in args.iter_mut().zip(&list) {
                    *slot = self.words.word(text).ok_or_else(|| bad("too many different arguments in this ruleset"))?;
                }
                push_new(out, Verb::Act { action, args, n: list.len() as u8 });
            }
        }
        Ok(())
    }

    /// The verb in the notation: `gamble`, `swap c3`, `choose two_cards`.
    pub fn text(&self, v: &Verb) -> String {
        match *v {
            Verb::Act { action, args, n } => {
                let verb = self.verbs.get(usize::from(action)).map_or_else(|| "?".to_owned(), |w| w.join(" "));
                args[..usize::from(n).min(2)].iter().fold(verb, |t, &w| format!("{t} {}", self.words.name(w)))
            }
            Verb::Choose(w) => format!("choose {}", self.words.name(w)),
        }
    }

    /// A line in the notation read back: one of these actions (its verb
    /// matched longest first, then up to two well-spelt arguments, interned)
    /// or `choose <option>`; `None` when it is neither (or the word table is full).
    ///
    /// The words are interned, so a line read before its game offered it
    /// (a saved game read whole) still reads; whether it is legal is the game's to say.
    pub fn parse(&self, line: &str) -> Option<Verb> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["choose", option] = words[..] {
            return is_option_name(option).then(|| self.words.word(option)).flatten().map(Verb::Choose);
        }
        let (action, used) = match_verb(&words, self.verbs.iter().map(Vec::as_slice))?;
        let rest = &words[used..];
        if rest.len() > 2 || !rest.iter().all(|w| is_option_name(w)) {
            return None;
        }
        let mut args = [0u16; 2];
        for (slot, w) in args.iter_mut().zip(rest) {
            *slot = self.words.word(w)?;
        }
        Some(Verb::Act { action: action as u8, args, n: rest.len() as u8 })
    }

    /// Runs the action's `on_action` with `ctx.action` (its id) and `ctx.args`
    /// (each a number when the notation wrote one as such, `3`, else the
    /// word): its effects in order, a `choose` map becoming [`Effect::Choose`].
    /// No `on_action`: no effects. A [`Verb::Choose`] is refused: it answers
    /// a choice ([`Verbs::chosen`]).
    pub fn act(&self, v: &Verb, ctx: Map) -> Result<Vec<Effect>, ScriptError> {
        let Verb::Act { action, args, n } = *v else {
            return Err(self.misuse(ON_ACTION, "`act` was given a `choose`; a choice is answered by `chosen`"));
        };
        let i = usize::from(action);
        if i >= self.entries.len() {
            return Err(self.misuse(ON_ACTION, &format!("there is no action {i}")));
        }
        if !self.host.listens(ON_ACTION, i) {
            return Ok(Vec::new());
        }
        let mut ctx = ctx;
        let values: Array = args[..usize::from(n).min(2)].iter().map(|&w| arg_value(&self.words.name(w))).collect();
        ctx.insert("action".into(), self.ids[i].clone().into());
        ctx.insert("args".into(), values.into());
        let v = self.host.call(ON_ACTION, i, Dynamic::from_map(ctx))?.unwrap_or_default();
        self.effects_of(ON_ACTION, i, v)
    }

    /// An effect of action `action`'s script that the game cannot carry out
    /// (`why`), located where the script wrote the map: in `on_choice` when
    /// `chosen`, else in `on_action`.
    pub fn refused(&self, action: u8, chosen: bool, map: &Map, why: &str) -> ScriptError {
        let hook = if chosen { ON_CHOICE } else { ON_ACTION };
        self.host.bad_map(hook, usize::from(action), map, why)
    }

    /// Runs `on_choice` of `choice.action` with `ctx.choice` (the option's
    /// name), `ctx.action` and `ctx.seat` (the seat that answers): its effects,
    /// as [`Verbs::act`]'s. An answer that is not one of the options is refused.
    pub fn chosen(&self, choice: &Choice, answer: u16, ctx: Map) -> Result<Vec<Effect>, ScriptError> {
        let i = usize::from(choice.action);
        if i >= self.entries.len() {
            return Err(self.misuse(ON_CHOICE, &format!("there is no action {i}")));
        }
        if !choice.options.contains(&answer) {
            let what = format!("`{}` is not one of the options offered", self.words.name(answer));
            return Err(self.host.bad_return(ON_CHOICE, i, &what));
        }
        let mut ctx = ctx;
        ctx.insert("action".into(), self.ids[i].clone().into());
        ctx.insert("choice".into(), Dynamic::from(ImmutableString::from(&*self.words.name(answer))));
        ctx.insert("seat".into(), Dynamic::from_int(choice.seat as rhai::INT));
        let v = self.host.call(ON_CHOICE, i, Dynamic::from_map(ctx))?.unwrap_or_default();
        self.effects_of(ON_CHOICE, i, v)
    }

    /// The name of an interned word (`?` for a number never given out).
    pub fn word(&self, w: u16) -> Arc<str> {
        self.words.name(w)
    }

    /// Whether the action ends the turn (`ends_turn`, true when not given).
    pub fn ends_turn(&self, action: u8) -> bool {
        self.entries.get(usize::from(action)).and_then(|a| a.ends_turn).unwrap_or(true)
    }

    /// What a button says: the action's `name`, else its verb; an answer's option.
    pub fn label(&self, v: &Verb) -> String {
        match *v {
            Verb::Act { action, .. } => match self.entries.get(usize::from(action)) {
                Some(a) => a.name.clone().unwrap_or_else(|| a.verb.clone()),
                None => "?".to_owned(),
            },
            Verb::Choose(w) => self.words.name(w).to_string(),
        }
    }

    /// The effects a hook returned: `()` for none, a map, or a list of maps
    /// (a `()` in it is skipped: `if x { #{ … } }` yields one when `x` is false).
    fn effects_of(&self, hook: usize, owner: usize, v: Dynamic) -> Result<Vec<Effect>, ScriptError> {
        let bad = |what: &str| self.host.bad_return(hook, owner, what);
        let list = if v.is_unit() {
            return Ok(Vec::new());
        } else if v.is_map() {
            vec![v]
        } else if v.is_array() {
            let list = v.cast::<Array>();
            if list.len() > MAX_EFFECTS {
                return Err(bad(&too_many_effects(list.len())));
            }
            list
        } else {
            return Err(bad(&format!("returned a {}; return an effect map, a list of them, or ()", v.type_name())));
        };
        let mut out = Vec::with_capacity(list.len());
        for d in list.into_iter().filter(|d| !d.is_unit()) {
            let t = d.type_name();
            let map = d
                .try_cast::<Map>()
                .ok_or_else(|| bad(&format!("returned a list holding a {t}; each effect is a map")))?;
            out.push(self.effect(hook, owner, map)?);
        }
        Ok(out)
    }

    /// One effect map, checked as the load-time check reads a written one:
    /// a map the script built key by key is only seen here.
    fn effect(&self, hook: usize, owner: usize, map: Map) -> Result<Effect, ScriptError> {
        let bad = |what: &str| self.host.bad_map(hook, owner, &map, what);
        if let Some(options) = map.get("choose") {
            if let Some(k) = map.keys().find(|k| !matches!(k.as_str(), "choose" | "prompt")) {
                return Err(bad(&format!("a `choose` map holds `choose` and `prompt` only, not `{k}`")));
            }
            let options = self.words.options(options.clone()).map_err(|e| bad(&e))?;
            let prompt = match map.get("prompt") {
                None => String::new(),
                Some(p) if p.is_unit() => String::new(),
                Some(p) => p.clone().into_string().map_err(|t| bad(&format!("`prompt` is a {t}; write text")))?,
            };
            if !self.host.listens(ON_CHOICE, owner) {
                return Err(bad("asks a choice, but the script defines no `on_choice(ctx)` to hear the answer"));
            }
            return Ok(Effect::Choose { options, prompt });
        }
        let named: Vec<&EffectSpec> = self.effects.iter().filter(|e| map.contains_key(e.name)).collect();
        let effect = match named[..] {
            [one] => one,
            [] => {
                let keys: Vec<&str> = map.keys().map(|k| k.as_str()).collect();
                let all: Vec<&str> = self.effects.iter().map(|e| e.name).chain(["choose"]).collect();
                return Err(bad(&format!(
                    "returned a map naming no effect (keys: {}); a map names one of: {}",
                    keys.join(", "),
                    all.join(", ")
                )));
            }
            _ => {
                let names: Vec<&str> = named.iter().map(|e| e.name).collect();
                return Err(bad(&format!("one effect per map; this one names {}", names.join(" and "))));
            }
        };
        for (k, v) in &map {
            let k = k.as_str();
            if k != effect.name && !effect.keys.contains(&k) {
                let takes = if effect.keys.is_empty() { "no other key".to_owned() } else { effect.keys.join(", ") };
                return Err(bad(&format!("`{k}` is not a key of the `{}` effect (it takes {takes})", effect.name)));
            }
            let allowed = effect.values.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
            if let (Some(allowed), Some(text)) = (allowed, v.read_lock::<ImmutableString>())
                && !allowed.contains(&text.as_str())
                && !allowed.contains(&"*")
            {
                return Err(bad(&format!(
                    "`{k}: \"{}\"` is not a value `{}` takes (one of: {})",
                    text.as_str(),
                    effect.name,
                    allowed.join(", ")
                )));
            }
        }
        Ok(Effect::Map(map))
    }

    /// A caller's mistake, reported as a script error of no action's script
    /// (a `Result` the game already handles, rather than a panic mid-game).
    fn misuse(&self, hook: usize, what: &str) -> ScriptError {
        ScriptError {
            noun: "action",
            card: "?".into(),
            file: String::new(),
            hook: HOOKS[hook].name,
            pos: Pos::default(),
            message: what.to_owned(),
            snippet: None,
        }
    }
}

/// Appends `v` unless `out` has it: two lists naming the same arguments are one action.
fn push_new(out: &mut Vec<Verb>, v: Verb) {
    if !out.contains(&v) {
        out.push(v);
    }
}

/// An argument as `ctx.args` holds it: a number when the notation wrote one
/// as such (`3`, not `03`, so that the number reads back as the same text),
/// else the word.
fn arg_value(text: &str) -> Dynamic {
    match text.parse::<rhai::INT>() {
        Ok(n) if n.to_string() == text => Dynamic::from_int(n),
        _ => Dynamic::from(ImmutableString::from(text)),
    }
}

/// `members` and those of `extra` it lacks, as a list that lives as long as
/// the program: the script host keeps `'static` lists, and each distinct list
/// is made once, however many rulesets load.
fn with_members(members: &'static [&'static str], extra: &[&'static str]) -> &'static [&'static str] {
    let mut all = members.to_vec();
    all.extend(extra.iter().filter(|m| !members.contains(m)));
    interned(all)
}

/// The keys a map a hook writes may hold: every effect's name and keys, and a choice's.
fn map_keys(effects: &'static [EffectSpec]) -> &'static [&'static str] {
    let mut keys: Vec<&'static str> = Vec::new();
    for k in
        effects.iter().flat_map(|e| std::iter::once(e.name).chain(e.keys.iter().copied())).chain(["choose", "prompt"])
    {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    interned(keys)
}

/// One `'static` copy of each distinct list ever asked for.
fn interned(list: Vec<&'static str>) -> &'static [&'static str] {
    static LISTS: Mutex<Vec<&'static [&'static str]>> = Mutex::new(Vec::new());
    let mut lists = LISTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = lists.iter().find(|l| ***l == list[..]) {
        return found;
    }
    let made: &'static [&'static str] = Box::leak(list.into_boxed_slice());
    lists.push(made);
    made
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_rules::files::Source;
    use std::collections::HashMap;
    use std::path::PathBuf;

    const MEMBERS: &[&str] = &["hand", "seat", "points"];
    const EFFECTS: &[EffectSpec] = &[
        EffectSpec { name: "score", keys: &["seat", "card"], values: &[] },
        EffectSpec { name: "draw", keys: &["from"], values: &[("from", &["deck", "pile"])] },
    ];
    const VOCAB: Vocabulary = Vocabulary {
        decisions: &["turn", "reply"],
        arg_kinds: &["card"],
        builtin: &["play", "pass"],
        payments: &[],
        reads: &[],
    };

    /// A folder of its own under the system's temporary folder, removed when dropped.
    struct Dir(PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("engine-verbs-{}-{n}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Dir(dir)
        }

        /// Writes the ruleset and scripts, then loads the ruleset's actions.
        fn load(&self, toml: &str, scripts: &[(&str, &str)]) -> Result<Verbs, Vec<LoadError>> {
            for (name, text) in scripts {
                std::fs::write(self.0.join(name), text).unwrap();
            }
            std::fs::write(self.0.join("rules.toml"), toml).unwrap();
            let doc = TomlDoc::read(&Source::Disk(self.0.join("rules.toml"))).unwrap();
            let table: HashMap<String, Vec<ActionEntry>> = doc.deserialize().unwrap();
            Verbs::load(&table["action"], &doc, &VOCAB, MEMBERS, EFFECTS)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The line (from 1) of `text` holding `needle`.
    fn line_of(text: &str, needle: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no `{needle}`")) + 1
    }

    fn ctx() -> Map {
        let mut m = Map::new();
        m.insert("hand".into(), Dynamic::from_array(vec!["c3".into(), "c7".into()]));
        m.insert("seat".into(), Dynamic::from_int(1));
        m.insert("points".into(), Dynamic::from_int(5));
        m
    }

    fn one_action(script: &str) -> String {
        format!("[[action]]\nid = \"swap\"\nverb = \"swap\"\ndecision = \"turn\"\nscript = \"{script}\"\n")
    }

    const SWAP: &str = r#"
fn legal(ctx) { ctx.hand }
fn on_action(ctx) {
    [#{ score: 1, seat: ctx.seat, card: ctx.args[0] }, #{ choose: ["two_cards", "one_card"], prompt: "How many?" }]
}
fn on_choice(ctx) {
    if ctx.choice == "two_cards" { [#{ draw: 2, from: "deck" }, #{ score: ctx.seat }] } else { #{ draw: 1 } }
}
"#;

    const RULES: &str = r#"
[[action]]
id = "swap"
verb = "swap"
decision = "turn"
args = ["card"]
script = "swap.rhai"

[[action]]
id = "swap_back"
name = "Swap two back"
verb = "swap back"
decision = "turn"
script = "back.rhai"

[[action]]
id = "gamble"
verb = "gamble"
decision = "turn"
ends_turn = false
script = "gamble.rhai"

[[action]]
id = "object"
verb = "object"
decision = "reply"
script = "gamble.rhai"
"#;

    fn loaded(dir: &Dir) -> Verbs {
        let back =
            "fn legal(ctx) { [[\"c3\", 2], ()] }\nfn on_action(ctx) { #{ score: ctx.args[1], card: ctx.args[0] } }";
        let gamble = "fn on_action(ctx) { #{ draw: 1, from: \"pile\" } }";
        dir.load(RULES, &[("swap.rhai", SWAP), ("back.rhai", back), ("gamble.rhai", gamble)]).unwrap()
    }

    #[test]
    fn offers_read_back_from_their_text_and_act_returns_the_effects_in_order() {
        let dir = Dir::new("offers");
        let verbs = loaded(&dir);
        assert!(!verbs.is_empty());
        assert_eq!(verbs.entries().len(), 4);
        let mut offers = Vec::new();
        verbs.offers("turn", &ctx(), &mut offers).unwrap();
        let texts: Vec<String> = offers.iter().map(|v| verbs.text(v)).collect();
        assert_eq!(texts, ["swap c3", "swap c7", "swap back c3 2", "swap back", "gamble"]);
        for v in &offers {
            assert_eq!(verbs.parse(&verbs.text(v)), Some(*v), "{}", verbs.text(v));
        }
        // Asked again, nothing is added twice; another decision offers its own.
        verbs.offers("turn", &ctx(), &mut offers).unwrap();
        assert_eq!(offers.len(), 5);
        let mut replies = Vec::new();
        verbs.offers("reply", &ctx(), &mut replies).unwrap();
        assert_eq!(replies.iter().map(|v| verbs.text(v)).collect::<Vec<_>>(), ["object"]);
        assert_eq!(verbs.label(&offers[2]), "Swap two back");
        assert_eq!(verbs.label(&offers[4]), "gamble");
        assert!(verbs.ends_turn(0) && !verbs.ends_turn(2));
        assert_eq!(verbs.parse("swap  back   c3 2"), Some(offers[2]), "the longest verb wins");
        assert_eq!(verbs.parse("swap a b c"), None);
        assert_eq!(verbs.parse("fold"), None);
        assert_eq!(verbs.parse("swap c-3"), None);

        let effects = verbs.act(&offers[1], ctx()).unwrap();
        let [Effect::Map(score), Effect::Choose { options, prompt }] = &effects[..] else { panic!("{effects:?}") };
        assert_eq!(score["score"].as_int(), Ok(1));
        assert_eq!(score["seat"].as_int(), Ok(1), "ctx.seat is the game's");
        assert_eq!(score["card"].clone().into_string().unwrap(), "c7");
        assert_eq!(options.iter().map(|&w| verbs.word(w).to_string()).collect::<Vec<_>>(), ["two_cards", "one_card"]);
        assert_eq!(prompt, "How many?");
        assert_eq!(verbs.text(&Verb::Choose(options[0])), "choose two_cards");
        assert_eq!(verbs.parse("choose two_cards"), Some(Verb::Choose(options[0])));

        // A number the notation writes as one reaches the script as a number.
        let effects = verbs.act(&offers[2], ctx()).unwrap();
        let [Effect::Map(back)] = &effects[..] else { panic!("{effects:?}") };
        assert_eq!(back["score"].as_int(), Ok(2));
        assert_eq!(back["card"].clone().into_string().unwrap(), "c3");
        assert!(verbs.act(&offers[3], ctx()).is_err(), "ctx.args[0] of no argument is an error the script makes");
        assert!(verbs.act(&Verb::Choose(options[0]), ctx()).is_err(), "a choose is not an action");
    }

    #[test]
    fn chosen_passes_the_option_and_returns_its_effects() {
        let dir = Dir::new("chosen");
        let verbs = loaded(&dir);
        let swap = verbs.parse("swap c3").unwrap();
        let Effect::Choose { options, prompt } = verbs.act(&swap, ctx()).unwrap().remove(1) else { panic!() };
        let choice = Choice { action: 0, seat: 3, options, prompt };
        let answers: Vec<String> = choice.answers().map(|v| verbs.text(&v)).collect();
        assert_eq!(answers, ["choose two_cards", "choose one_card"]);
        let effects = verbs.chosen(&choice, choice.options[0], ctx()).unwrap();
        let [Effect::Map(draw), Effect::Map(score)] = &effects[..] else { panic!("{effects:?}") };
        assert_eq!(draw["draw"].as_int(), Ok(2));
        assert_eq!(score["score"].as_int(), Ok(3), "ctx.seat is the seat that answers");
        let effects = verbs.chosen(&choice, choice.options[1], ctx()).unwrap();
        assert!(matches!(&effects[..], [Effect::Map(m)] if m["draw"].as_int() == Ok(1)));
        let other = verbs.words().word("three_cards").unwrap();
        let e = verbs.chosen(&choice, other, ctx()).unwrap_err();
        assert!(e.message.contains("`three_cards` is not one of the options"), "{}", e.message);
    }

    /// Asserts that `errors` has one error, in `file`, at `line`, saying `what`.
    fn located(errors: &[LoadError], file: &str, line: usize, what: &str) {
        assert!(
            errors.iter().any(|e| e.file.ends_with(file) && e.pos.line == line && e.message.contains(what)),
            "wanted {file}:{line} `{what}` in {:#?}",
            errors.iter().map(|e| format!("{}:{}: {}", e.file, e.pos.line, e.message)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn load_errors_are_located_in_the_ruleset_or_the_script() {
        let dir = Dir::new("errors");
        let ok = "fn on_action(ctx) { () }";
        let rules = one_action("a.rhai").replace("\"swap\"\nd", "\"pass\"\nd");
        let e = dir.load(&rules, &[("a.rhai", ok)]).unwrap_err();
        located(&e, "rules.toml", line_of(&rules, "verb ="), "is a verb of the game already");

        let rules = one_action("a.rhai").replace("\"turn\"", "\"night\"");
        let e = dir.load(&rules, &[]).unwrap_err();
        located(&e, "rules.toml", line_of(&rules, "decision ="), "is offered at one of: turn, reply");

        let rules = one_action("a.rhai").replace("\"swap\"\nd", "\"choose\"\nd");
        let e = dir.load(&rules, &[]).unwrap_err();
        located(&e, "rules.toml", line_of(&rules, "verb ="), "`choose` answers a script's choice");

        let rules = one_action("missing.rhai");
        let e = dir.load(&rules, &[]).unwrap_err();
        located(&e, "rules.toml", line_of(&rules, "script ="), "cannot read file");

        let broken = "fn on_action(ctx) {\n    let x = ;\n}\n";
        let e = dir.load(&one_action("broken.rhai"), &[("broken.rhai", broken)]).unwrap_err();
        located(&e, "broken.rhai", 2, "script does not compile");

        let arity = "// two parameters\nfn on_action(ctx, more) { () }\n";
        let e = dir.load(&one_action("arity.rhai"), &[("arity.rhai", arity)]).unwrap_err();
        located(&e, "arity.rhai", 2, "takes 2 parameter(s), but the engine passes 1");

        let unread = "fn legal(ctx) {\n    [ctx.choice]\n}\n";
        let e = dir.load(&one_action("unread.rhai"), &[("unread.rhai", unread)]).unwrap_err();
        located(&e, "unread.rhai", 2, "`ctx.choice` is `()` in `legal`");

        let written = "fn on_action(ctx) {\n    #{ score: 1, colour: 2 }\n}\n";
        let e = dir.load(&one_action("written.rhai"), &[("written.rhai", written)]).unwrap_err();
        located(&e, "written.rhai", 2, "`colour` is not an effect or a result key");

        let rules = one_action("a.rhai").replace("decision", "args = [\"card\"]\ndecision");
        let e = dir.load(&rules, &[("a.rhai", ok)]).unwrap_err();
        located(&e, "rules.toml", line_of(&rules, "args ="), "`legal(ctx)` lists the arguments");

        let rules: String = (0..256).map(|i| one_action("a.rhai").replace("swap", &format!("s{i}"))).collect();
        let e = dir.load(&rules, &[]).unwrap_err();
        assert_eq!(e.len(), 1, "{e:#?}");
        located(&e, "rules.toml", line_of(&rules, "\"s255\"") - 1, "256 actions; a ruleset adds at most 255");
    }

    #[test]
    fn an_unknown_effect_at_run_time_names_the_script() {
        let dir = Dir::new("unknown");
        let script = "fn on_action(ctx) {\n    let m = #{};\n    m.explode = 1;\n    [#{ draw: 1 }, m]\n}\n";
        let verbs = dir.load(&one_action("boom.rhai"), &[("boom.rhai", script)]).unwrap();
        let e = verbs.act(&verbs.parse("swap").unwrap(), ctx()).unwrap_err();
        assert!(e.file.ends_with("boom.rhai"), "{e}");
        assert_eq!((e.card.as_ref(), e.hook), ("swap", "on_action"));
        assert!(e.message.contains("naming no effect (keys: explode)"), "{e}");
        assert!(e.to_string().contains("boom.rhai"), "{e}");
    }

    /// A hostile `legal` or `on_action` is a script error that says what was wrong, never a panic.
    #[test]
    fn hostile_scripts_are_refused_with_a_clear_error() {
        let dir = Dir::new("hostile");
        let cases = [
            ("fn legal(ctx) { let m = #{}; m.x = 1; m }", "returned a map; return a list of arguments"),
            ("fn legal(ctx) { [[\"c1\", \"c2\", \"c3\"]] }", "listed 3 arguments for one action"),
            // Ten thousand entries are past the sandbox's size; two thousand are past what an action offers.
            ("fn legal(ctx) { let a = []; a.pad(10000, \"c1\"); a }", "too large"),
            ("fn legal(ctx) { let a = []; a.pad(2000, ()); a }", "returned 2000 argument lists"),
            ("fn legal(ctx) { [true] }", "listed a bool"),
            ("fn legal(ctx) { [\"a b\"] }", "an argument is 1 to 40 letters"),
            ("fn legal(ctx) { loop {} }", "ran too long"),
        ];
        for (i, (script, what)) in cases.into_iter().enumerate() {
            let name = format!("legal{i}.rhai");
            let verbs = dir.load(&one_action(&name), &[(&name, script)]).unwrap();
            let e = verbs.offers("turn", &ctx(), &mut Vec::new()).unwrap_err();
            assert!(e.message.contains(what) && e.file.ends_with(&name), "{script}: {e}");
        }
        let cases = [
            ("fn on_action(ctx) { let a = []; a.pad(2000, #{ draw: 1 }); a }", "returned a list of 2000 effects"),
            ("fn on_action(ctx) { 7 }", "returned a i32; return an effect map"),
            ("fn on_action(ctx) { #{ choose: [] } }", "`choose` needs at least one option"),
            ("fn on_action(ctx) { #{ choose: [\"x\"] } }", "defines no `on_choice(ctx)`"),
            ("fn on_action(ctx) { let w = \"sky\"; #{ draw: 1, from: w } }", "`from: \"sky\"` is not a value"),
            ("fn on_action(ctx) { #{ draw: 1, score: 2 } }", "one effect per map; this one names score and draw"),
        ];
        for (i, (script, what)) in cases.into_iter().enumerate() {
            let name = format!("act{i}.rhai");
            let loaded = dir.load(&one_action(&name), &[(&name, script)]);
            let e = match loaded {
                Ok(verbs) => verbs.act(&verbs.parse("swap").unwrap(), ctx()).unwrap_err().to_string(),
                // Some are refused as soon as the script loads, which is sooner still.
                Err(e) => format!("{e:?}"),
            };
            assert!(e.contains(what), "{script}: {e}");
        }
    }
}
