//! The script host: compiles each card's Rhai script once, in a sandbox, and
//! dispatches hook calls only to the cards that define them.
//!
//! No game lives here: the hook list, the context type and the functions
//! scripts may call come from the game crate (the Rhai book's pattern:
//! compile once, register types, set sandbox limits).
#![warn(missing_docs)]

mod elements;
pub mod fast;
pub mod reads;
pub mod results;
pub mod scope;
pub mod verbs;
pub mod words;

use std::collections::HashMap;
use std::sync::RwLock;

use smallvec::SmallVec;

use rhai::packages::Package;
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, OptimizationLevel, Position, Scope};

pub use elements::ElementReads;
use engine_rules::error::{LoadError, Pos, ScriptError, closest};
use engine_rules::files::Source;

/// A set of hooks by index, one bit each (which hooks a card listens to): room
/// for 128, so that a game may grow its events without a new type.
pub type HookMask = u128;

/// The bit of hook `h` in a [`HookMask`].
#[inline]
pub const fn hook_bit(h: usize) -> HookMask {
    1 << h
}

/// True when `mask` holds hook `h`; cheaper than `mask & hook_bit(h)` for an `h`
/// known only at run time (a 128-bit shift by a variable is a dozen instructions).
#[inline]
pub const fn has_hook(mask: HookMask, h: usize) -> bool {
    let word = if h < 64 { mask as u64 } else { (mask >> 64) as u64 };
    (word >> (h & 63)) & 1 != 0
}

/// How many hooks a [`HookMask`] holds.
pub const MAX_HOOKS: usize = HookMask::BITS as usize;

/// The most effects one hook call may return at once (a card's few effects, or
/// one per seat or card; a list of ten thousand is a runaway loop, and applying
/// it took a game minutes). Both games refuse a longer list as a script error
/// naming the card.
pub const MAX_EFFECTS: usize = 1000;

/// The refusal of a hook's list of `n` effects, past [`MAX_EFFECTS`].
pub fn too_many_effects(n: usize) -> String {
    format!(
        "returned a list of {n} effects; a hook returns at most {MAX_EFFECTS} at once: build a shorter list \
         (a loop that pushes an effect each time round?)"
    )
}

/// What a map a script reads holds: a key, and the keys of what it holds
/// (of each element, for a list of maps; none: not checked further, as for a
/// map whose keys are data, like the counters' names).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// The key.
    pub key: &'static str,
    /// The keys of its value (or of each element of it).
    pub of: &'static [Shape],
}

impl Shape {
    /// A key whose value is not checked further.
    pub const fn leaf(key: &'static str) -> Shape {
        Shape { key, of: &[] }
    }

    /// The bit of `key` among `shapes` (its position), worked out at compile
    /// time: a game's key sets are masks of these. Fails to compile for a key not there.
    pub const fn bit(shapes: &[Shape], key: &str) -> u32 {
        let mut i = 0;
        while i < shapes.len() {
            let (a, b) = (shapes[i].key.as_bytes(), key.as_bytes());
            if a.len() == b.len() {
                let mut j = 0;
                while j < a.len() && a[j] == b[j] {
                    j += 1;
                }
                if j == a.len() {
                    return 1 << i;
                }
            }
            i += 1;
        }
        panic!("a key of the shape")
    }

    /// In debug builds, that every key of `map` is one `shape` names (and,
    /// when `exact`, that it holds all of them): the shape `check` reads
    /// cannot drift from the maps a game gives its scripts.
    pub fn debug_holds(shape: &[Shape], map: &rhai::Map, exact: bool) {
        debug_assert!(map.keys().all(|k| shape.iter().any(|s| s.key == k.as_str())), "{:?}", map.keys());
        debug_assert!(!exact || map.len() == shape.len(), "{:?}", map.keys());
    }
}

/// A hook the core raises: its function name, arity and what it means.
#[derive(Clone, Copy, Debug)]
pub struct HookSpec {
    /// The Rhai function name a script defines to listen.
    pub name: &'static str,
    /// Number of parameters the function must take.
    pub arity: usize,
    /// The range an integer result must lie in (`None`: the result is not a number).
    pub range: Option<(i64, i64)>,
    /// When it is called and what it returns (for `check` and the docs).
    pub doc: &'static str,
    /// Besides its own shape, the hook may return effects: a map or an array of maps.
    pub effects: bool,
    /// The keys of the result map the hook itself takes (`#{ draw: 1, keep: 1 }`); empty: none.
    pub results: &'static [&'static str],
}

/// An effect a script's map may name: its name (the key that holds its amount),
/// its other keys, and the string values some keys must take.
#[derive(Clone, Copy, Debug)]
pub struct EffectSpec {
    /// The effect's name.
    pub name: &'static str,
    /// Its other keys.
    pub keys: &'static [&'static str],
    /// Keys whose string value must be one of a list (`from: "hand"`); a
    /// list holding `"*"` names the values it means (for hints) and accepts any other.
    pub values: &'static [(&'static str, &'static [&'static str])],
}

/// Sandbox limits for every script call.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Maximum operations per call; bounds endless loops.
    pub operations: u64,
    /// Maximum function call depth.
    pub call_levels: usize,
    /// Maximum string, array and map sizes.
    pub size: usize,
    /// Wall-clock bound per call, checked every few thousand operations.
    pub millis: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { operations: 200_000, call_levels: 32, size: 10_000, millis: 2_000 }
    }
}

/// Functions a script may not call: they wait, or run text as code.
const FORBIDDEN_FNS: &[&str] = &["sleep", "eval"];

thread_local! {
    /// When the script call running on this thread must stop (the wall-clock bound).
    static DEADLINE: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
}

/// One compiled script.
pub struct Script {
    /// The compiled program.
    pub ast: AST,
    /// The program as written, not optimized: `check` reads where each map of
    /// a list is written, which the optimizer folds into one constant.
    pub written: AST,
    /// The file it came from.
    pub source: Source,
}

/// Compiled scripts and the hook → owner dispatch table.
pub struct ScriptHost {
    engine: Engine,
    hooks: &'static [HookSpec],
    scripts: Vec<Script>,
    by_source: HashMap<Source, usize>,
    /// `dispatch[hook][owner]`: the script that implements `hook` for `owner`.
    dispatch: Vec<Vec<Option<u32>>>,
    /// `constants[hook][owner]`: the value of a hook whose body is a literal
    /// (`fn on_hand_limit(ctx) { 12 }`), so calling it can be skipped.
    constants: Vec<Vec<Option<Dynamic>>>,
    /// Scalar properties of the context a hook's value may be remembered by.
    scalars: &'static [&'static str],
    /// The context's properties and methods beyond `scalars`, for `check`'s "no such property".
    ctx_members: &'static [&'static str],
    /// Members of `ctx_members` the game can key exactly by a number (a digest of
    /// what they depend on), so that a hook reading them may be remembered too.
    keyed: &'static [&'static str],
    /// `memo_props[hook][owner]`: the scalars a hook reads, when that is all it reads:
    /// its value is then a function of them and is remembered.
    memo_props: Vec<Vec<Option<SmallVec<[u8; MEMO_KEY]>>>>,
    /// Members of `ctx_members` the game can give exactly as a list of small
    /// numbers (the cards in play), for [`ScriptHost::call_listed`].
    list_members: &'static [&'static str],
    /// `listed[hook][owner]`: the scalars a hook reads, and a bit per
    /// `list_members` entry it reads, when that is all it reads: its value is
    /// then a function of them and those lists.
    listed: Vec<Vec<Option<Listed>>>,
    /// `member_reads[hook][owner]`: a bit per `ctx_members` entry the hook reads;
    /// `None` when it does more with `ctx` than read it (it may read anything).
    member_reads: Vec<Vec<Option<u64>>>,
    /// `hook_reads[hook]`: every owner's `member_reads` for the hook together.
    hook_reads: Vec<u64>,
    /// Remembered values, owned by this host (freed with it): a shard per
    /// thread, each bounded by [`MEMO_CAPACITY`].
    memo: Shards<rustc_hash::FxHashMap<MemoKey, Dynamic>>,
    /// Remembered values of hooks that read lists ([`ScriptHost::call_listed`]),
    /// a shard per thread, each started afresh when [`LIST_MEMO_CAPACITY`] is reached.
    list_memo: Shards<rustc_hash::FxHashMap<ListKey, Dynamic>>,
    /// Answers remembered by the content of what the hook read ([`ScriptHost::call_read`]).
    read_memo: reads::ReadMemo,
    /// Whether [`ScriptHost::call_read`] may answer from `read_memo`.
    remember_reads: std::sync::atomic::AtomicBool,
    limits: Limits,
    owners: Vec<std::sync::Arc<str>>,
    /// The documentation page that lists the hooks and `ctx`, named in hints.
    docs: &'static str,
    /// What scripts belong to, in errors (`card`).
    noun: &'static str,
    /// The keys a map written in a hook may hold (effects and result keys);
    /// empty: not checked.
    map_keys: &'static [&'static str],
    /// The effects a map may name, for checking each map's keys and values.
    effects: &'static [EffectSpec],
    /// Each key an event carries in `ctx.event`, with where to read it: the hint
    /// for a `ctx` property that is really an event's.
    event_hints: &'static [(&'static str, &'static str)],
    /// Each hook that hears an event, with the keys its `ctx.event` holds; a
    /// hook not listed hears none (`ctx.event` is `()`). Empty: not checked.
    event_keys: &'static [(&'static str, &'static [&'static str])],
    /// The keys of maps a `ctx` member holds (`ctx.table`), for `check`:
    /// each member with its shape. Empty: not checked.
    shapes: &'static [(&'static str, &'static [Shape])],
    /// Per hook, the `ctx` members it is given (`None`: every member); a
    /// member read in a hook that is not given it is always `()` there, so
    /// `check` refuses it. Empty: not checked.
    hook_members: Vec<Option<&'static [&'static str]>>,
    /// Where script calls are timed, once a caller hands one in (`bench`).
    profile: std::sync::OnceLock<std::sync::Arc<profile::Profile>>,
    /// The game's functions as the fast path calls it.
    natives: fast::Natives,
    /// `fast[hook][owner]`: the hook translated for the fast path, when it can be.
    fast: Vec<Vec<Option<std::sync::Arc<fast::Compiled>>>>,
    /// `read_stats[hook][owner]`: how often [`ScriptHost::call_read`] looked
    /// the hook's row up, and found it (see [`ScriptHost::remembers_reads_of`]).
    read_stats: Vec<Vec<reads::ReadStats>>,
    /// Run every hook in Rhai (a test compares the two paths).
    rhai_only: std::sync::atomic::AtomicBool,
    /// What scripts `print` and `debug` on the threads that listen (a traced scenario).
    printed: std::sync::Arc<Printed>,
}

/// The lines scripts print (`print`, `debug`), kept per listening thread only:
/// a traced scenario shows them, while a simulation's threads never listen and
/// pay one check per print.
#[derive(Default)]
struct Printed {
    /// How many threads listen: 0 skips the lock.
    listeners: std::sync::atomic::AtomicUsize,
    lines: std::sync::Mutex<HashMap<std::thread::ThreadId, Vec<String>>>,
}

impl Printed {
    fn push(&self, line: impl FnOnce() -> String) {
        if self.listeners.load(std::sync::atomic::Ordering::Relaxed) == 0 {
            return;
        }
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mine) = lines.get_mut(&std::thread::current().id()) {
            mine.push(line());
        }
    }
}

impl ScriptHost {
    /// A sandboxed engine for these hooks; `register` adds the game's types
    /// and functions (through a [`fast::Registrar`], so the fast path has them too).
    /// `scalars` names the context properties that are plain values (not lists):
    /// a hook that reads only those is remembered by their values.
    pub fn new(
        hooks: &'static [HookSpec],
        scalars: &'static [&'static str],
        ctx_members: &'static [&'static str],
        limits: Limits,
        register: impl FnOnce(&mut fast::Registrar),
    ) -> Self {
        let mut engine = Engine::new_raw();
        engine.register_global_module(rhai::packages::StandardPackage::new().as_shared_module());
        engine
            .set_strict_variables(true)
            .set_optimization_level(OptimizationLevel::Full)
            .set_max_operations(limits.operations)
            .set_max_call_levels(limits.call_levels)
            .set_max_expr_depths(64, 32)
            .set_max_string_size(limits.size)
            .set_max_array_size(limits.size)
            .set_max_map_size(limits.size);
        engine.disable_symbol("eval");
        // Found at load time too; this stops a call made through a function pointer.
        engine.register_fn("sleep", |_: rhai::INT| -> Result<(), Box<EvalAltResult>> {
            Err("scripts may not wait: `sleep` is not available".into())
        });
        let millis = limits.millis;
        engine.on_progress(move |ops| {
            if ops % 4096 != 0 {
                return None;
            }
            let late = DEADLINE.with(|d| d.get().is_some_and(|t| std::time::Instant::now() > t));
            late.then(|| Dynamic::from(format!("the script ran longer than {millis} ms")))
        });
        let printed = std::sync::Arc::new(Printed::default());
        let sink = std::sync::Arc::clone(&printed);
        engine.on_print(move |text| sink.push(|| format!("print: {text}")));
        let sink = std::sync::Arc::clone(&printed);
        engine.on_debug(move |text, source, at| {
            sink.push(|| match (source, at.line()) {
                (Some(file), Some(line)) => format!("debug: {text} ({file}:{line})"),
                (None, Some(line)) => format!("debug: {text} (line {line})"),
                _ => format!("debug: {text}"),
            })
        });
        let mut natives = fast::Natives::default();
        register(&mut fast::Registrar::new(&mut engine, &mut natives));
        ScriptHost {
            engine,
            hooks,
            scripts: Vec::new(),
            by_source: HashMap::new(),
            dispatch: vec![Vec::new(); hooks.len()],
            constants: vec![Vec::new(); hooks.len()],
            scalars,
            ctx_members,
            keyed: &[],
            limits,
            memo_props: vec![Vec::new(); hooks.len()],
            list_members: &[],
            listed: vec![Vec::new(); hooks.len()],
            member_reads: vec![Vec::new(); hooks.len()],
            hook_reads: vec![0; hooks.len()],
            memo: Shards::default(),
            list_memo: Shards::default(),
            read_memo: reads::ReadMemo::default(),
            remember_reads: std::sync::atomic::AtomicBool::new(true),
            owners: Vec::new(),
            docs: "docs/scripting.md",
            noun: "card",
            map_keys: &[],
            effects: &[],
            event_hints: &[],
            hook_members: Vec::new(),
            event_keys: &[],
            shapes: &[],
            profile: std::sync::OnceLock::new(),
            natives,
            fast: vec![Vec::new(); hooks.len()],
            read_stats: (0..hooks.len()).map(|_| Vec::new()).collect(),
            rhai_only: std::sync::atomic::AtomicBool::new(false),
            printed,
        }
    }

    /// Starts (`true`) or stops keeping what scripts `print` and `debug` on
    /// this thread; stopping drops what was kept. Elsewhere they print nothing.
    pub fn listen_to_prints(&self, on: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        let mut lines = self.printed.lines.lock().unwrap_or_else(|e| e.into_inner());
        let me = std::thread::current().id();
        match (on, lines.contains_key(&me)) {
            (true, false) => {
                lines.insert(me, Vec::new());
                self.printed.listeners.fetch_add(1, Relaxed);
            }
            (false, true) => {
                lines.remove(&me);
                self.printed.listeners.fetch_sub(1, Relaxed);
            }
            _ => {}
        }
    }

    /// What scripts printed on this thread since the last call (`print: …`,
    /// `debug: … (file:line)`), while [`ScriptHost::listen_to_prints`] is on.
    pub fn take_prints(&self) -> Vec<String> {
        if self.printed.listeners.load(std::sync::atomic::Ordering::Relaxed) == 0 {
            return Vec::new();
        }
        let mut lines = self.printed.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.get_mut(&std::thread::current().id()).map(std::mem::take).unwrap_or_default()
    }

    /// Runs every hook in Rhai (`true`) or lets the fast path answer the hooks
    /// it can (`false`, the default): what a test compares.
    pub fn set_rhai_only(&self, on: bool) {
        self.rhai_only.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// True when `owner`'s `hook` runs on the fast path (see [`fast`]).
    pub fn is_fast(&self, hook: usize, owner: usize) -> bool {
        self.fast[hook].get(owner).is_some_and(Option::is_some)
    }

    /// Members beyond the scalars (methods such as `ctx.count_kind(k)`) whose
    /// every answer the game can key exactly by one number: a hook that reads
    /// only scalars and these is remembered, its key asking the game's `scalar`
    /// for index `scalars.len() + k` for the k-th. Set before scripts are added.
    pub fn set_keyed_members(&mut self, keyed: &'static [&'static str]) {
        self.keyed = keyed;
    }

    /// Members beyond the scalars that the game can give exactly as a list of
    /// small numbers (the cards in play, in an order of its own): a hook that
    /// reads only scalars, keyed members and these is remembered by them
    /// ([`ScriptHost::call_listed`]). Set before scripts are added.
    pub fn set_list_members(&mut self, members: &'static [&'static str]) {
        self.list_members = members;
    }

    /// Which `ctx` members each hook is given, in hook order (`None`: all of
    /// them): a member of `ctx` that a hook is never given is refused where the
    /// script reads it, before a game runs. Set before [`ScriptHost::add_owner`].
    pub fn set_hook_members(&mut self, members: Vec<Option<&'static [&'static str]>>) {
        self.hook_members = members;
    }

    /// Names the documentation page the hints point to (`docs/scripting.md` by
    /// default): a game whose hooks are documented elsewhere sets its own.
    pub fn set_docs_page(&mut self, page: &'static str) {
        self.docs = page;
    }

    /// Names what a script belongs to in errors (`card` by default): a game
    /// whose scripts belong to the ruleset itself says `script`.
    pub fn set_owner_noun(&mut self, noun: &'static str) {
        self.noun = noun;
    }

    /// The keys a map literal inside a hook may use (effect names, their
    /// parameters and the hooks' result keys): `check` names any other, with
    /// "did you mean", before a game runs.
    pub fn set_map_keys(&mut self, keys: &'static [&'static str]) {
        self.map_keys = keys;
    }

    /// The effects a map in a hook may name: each map that names one is checked
    /// against its keys and values when the script loads.
    pub fn set_effects(&mut self, effects: &'static [EffectSpec]) {
        self.effects = effects;
    }

    /// What `ctx.event` holds: `hints` names, for each key some event carries,
    /// where to read it (answering `ctx.prices` with `ctx.event.prices`), and
    /// `by_hook` the keys each event hook's `ctx.event` holds, so that `check`
    /// refuses `ctx.event.x` where no event it hears carries `x`.
    pub fn set_events(
        &mut self,
        hints: &'static [(&'static str, &'static str)],
        by_hook: &'static [(&'static str, &'static [&'static str])],
    ) {
        self.event_hints = hints;
        self.event_keys = by_hook;
    }

    /// What the maps of `ctx` members hold (`ctx.table`'s keys, a seat's keys
    /// in `ctx.table.players[s]`…), so that `check` refuses a key no map has.
    pub fn set_shapes(&mut self, shapes: &'static [(&'static str, &'static [Shape])]) {
        self.shapes = shapes;
    }

    /// Times every script call into `profile` while it is on (the host is shared:
    /// a profile is handed in once). False when the host has one already.
    pub fn set_profile(&self, profile: std::sync::Arc<profile::Profile>) -> bool {
        self.profile.set(profile).is_ok()
    }

    /// The hooks this host dispatches.
    pub fn hooks(&self) -> &'static [HookSpec] {
        self.hooks
    }

    /// Registers an owner (a card) with an optional script; returns every problem found.
    pub fn add_owner(&mut self, owner: &str, source: Option<&Source>) -> Vec<LoadError> {
        let idx = self.owners.len();
        self.owners.push(owner.into());
        for table in &mut self.dispatch {
            table.push(None);
        }
        for table in &mut self.constants {
            table.push(None);
        }
        for table in &mut self.fast {
            table.push(None);
        }
        for table in &mut self.read_stats {
            table.push(reads::ReadStats::default());
        }
        for table in &mut self.memo_props {
            table.push(None);
        }
        for table in &mut self.listed {
            table.push(None);
        }
        for table in &mut self.member_reads {
            table.push(None);
        }
        let Some(source) = source else { return Vec::new() };
        let script = match self.by_source.get(source) {
            Some(&s) => s,
            None => match self.compile_both(source) {
                Ok(script) => {
                    self.scripts.push(script);
                    self.by_source.insert(source.clone(), self.scripts.len() - 1);
                    self.scripts.len() - 1
                }
                Err(errors) => return errors,
            },
        };
        let mut errors = Vec::new();
        let text: std::sync::Arc<str> = source.read().unwrap_or_default().into();
        let ast = &self.scripts[script].ast;
        for (name, at) in calls_to(ast, FORBIDDEN_FNS) {
            errors.push(LoadError::at_pos(source, &text, at, format!("scripts may not call `{name}`")).help(format!(
                "a hook must return at once: no waiting, no running text as code ({}, sandbox)",
                self.docs
            )));
        }
        // In the order written: the AST keeps its functions in a hash map, and
        // errors (and everything else) must come out the same on every run.
        let mut functions: Vec<_> = ast.iter_functions().map(|f| (fn_pos(ast, f.name), f)).collect();
        functions.sort_by_key(|(pos, f)| (pos.line, pos.col, f.name));
        for (pos, f) in functions {
            match self.hooks.iter().position(|h| h.name == f.name) {
                Some(h) => {
                    if f.params.len() != self.hooks[h].arity {
                        errors.push(
                            LoadError::at_pos(
                                source,
                                &text,
                                pos,
                                format!(
                                    "hook `{}` of {} `{owner}` takes {} parameter(s), but the engine passes {}",
                                    f.name,
                                    self.noun,
                                    f.params.len(),
                                    self.hooks[h].arity
                                ),
                            )
                            .help(format!("write `fn {}(ctx)`; {}", f.name, self.hooks[h].doc)),
                        );
                        continue;
                    }
                    errors.extend(self.check_uses(source, &text, &self.scripts[script].written, f.name));
                    let spec = &self.hooks[h];
                    let constant = literal_body(ast, f.name);
                    if let Some(v) = &constant {
                        errors.extend(check_literal(source, &text, pos, f.name, spec, v));
                    }
                    self.dispatch[h][idx] = Some(script as u32);
                    let ast = &self.scripts[script].ast;
                    self.fast[h][idx] =
                        fast::compile(ast, f.name, &self.natives, self.limits.size).map(std::sync::Arc::new);
                    self.constants[h][idx] = constant;
                    let members = self.ctx_members;
                    let reads = param_reads(ast, f.name);
                    self.member_reads[h][idx] = reads.as_ref().map(|reads| {
                        let bit = |r: &String| members.iter().position(|m| m == r).map_or(0, |i| 1u64 << i);
                        reads.iter().fold(0, |bits, r| bits | bit(r))
                    });
                    self.hook_reads[h] |= self.member_reads[h][idx].unwrap_or(u64::MAX);
                    let (scalars, keyed) = (self.scalars, self.keyed);
                    let key_index = |r: &String| {
                        scalars
                            .iter()
                            .position(|s| s == r)
                            .or_else(|| keyed.iter().position(|s| s == r).map(|k| scalars.len() + k))
                            .map(|i| i as u8)
                    };
                    self.memo_props[h][idx] = reads.as_ref().and_then(|reads| {
                        let props: Option<SmallVec<[u8; MEMO_KEY]>> = reads.iter().map(key_index).collect();
                        props.filter(|p| p.len() <= MEMO_KEY)
                    });
                    let lists = self.list_members;
                    self.listed[h][idx] = reads.filter(|_| self.memo_props[h][idx].is_none()).and_then(|reads| {
                        let (listed, rest): (Vec<&String>, Vec<&String>) =
                            reads.iter().partition(|r| lists.contains(&r.as_str()));
                        let props: Option<SmallVec<[u8; MEMO_KEY]>> = rest.into_iter().map(key_index).collect();
                        let bits = listed
                            .iter()
                            .fold(0u64, |b, r| b | lists.iter().position(|m| m == r).map_or(0, |i| 1 << i));
                        props.filter(|p| !listed.is_empty() && p.len() <= MEMO_KEY).map(|p| (p, bits))
                    });
                }
                None if f.name.starts_with("on_") => {
                    let near = closest(f.name, self.hooks.iter().map(|h| h.name))
                        .map(|n| format!("did you mean `{n}`? "))
                        .unwrap_or_default();
                    let all: Vec<_> = self.hooks.iter().map(|h| h.name).collect();
                    errors.push(
                        LoadError::at_pos(source, &text, pos, format!("`{}` is not a hook the engine calls", f.name))
                            .help(format!("{near}hooks: {}", all.join(", "))),
                    );
                }
                None => {} // a helper function; fine
            }
        }
        errors
    }

    /// What a hook's body reads of `ctx` and the keys of the maps it returns,
    /// each checked against what the engine gives and takes.
    fn check_uses(&self, source: &Source, text: &std::sync::Arc<str>, ast: &AST, name: &str) -> Vec<LoadError> {
        let mut errors = Vec::new();
        let members = || self.scalars.iter().chain(self.ctx_members).copied();
        let given =
            self.hooks.iter().position(|h| h.name == name).and_then(|h| self.hook_members.get(h).copied().flatten());
        for (prop, at) in member_uses(ast, name) {
            if let Some(given) = given
                && members().any(|m| m == prop)
                && !given.contains(&prop.as_str())
            {
                let message = format!("`ctx.{prop}` is `()` in `{name}`: this hook is not given it");
                errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                    "in `{name}`, ctx has: {} ({})",
                    given.join(", "),
                    self.docs
                )));
                continue;
            }
            if !members().any(|m| m == prop) {
                // A key of an event is read from `ctx.event`: say which event carries it.
                let near = match self.event_hints.iter().find(|(k, _)| *k == prop) {
                    Some((_, hint)) => format!("did you mean {hint}? "),
                    None => closest(&prop, members()).map(|c| format!("did you mean `{c}`? ")).unwrap_or_default(),
                };
                let all: Vec<&str> = members().collect();
                let message = format!("`ctx` has no property or method `{prop}`");
                errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                    "{near}ctx has: {} ({})",
                    all.join(", "),
                    self.docs
                )));
            }
        }
        if !self.event_keys.is_empty() {
            errors.extend(self.check_event_keys(source, text, ast, name));
        }
        for &(member, shape) in self.shapes {
            errors.extend(self.check_shape(source, text, ast, name, member, shape));
        }
        if self.map_keys.is_empty() {
            return errors;
        }
        let maps = maps_in(ast, name);
        if let Some(spec) = self.hooks.iter().find(|h| h.name == name) {
            for map in &maps {
                errors.extend(self.check_map(source, text, spec, &map.entries));
            }
        }
        for MapEntry { key: k, at, .. } in maps.into_iter().flat_map(|m| m.entries) {
            if !self.map_keys.contains(&k.as_str()) {
                let near = self.effect_hint(&k);
                let message = format!("`{k}` is not an effect or a result key");
                errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                    "{near}a map a hook returns may hold: {} ({})",
                    self.map_keys.join(", "),
                    self.docs
                )));
            }
        }
        errors
    }

    /// The hint for an unknown key of a returned map: "did you mean" when the
    /// nearest key is the same verb on the same thing misspelt, but when it is
    /// another verb on the same thing (`move_good` → `remove_good`, the
    /// opposite), the effects that act on that thing instead: spelling is not
    /// meaning.
    fn effect_hint(&self, key: &str) -> String {
        let Some(near) = closest(key, self.map_keys.iter().copied()) else { return String::new() };
        fn split(k: &str) -> (&str, &str) {
            k.split_once('_').unwrap_or(("", k))
        }
        let ((verb, thing), (near_verb, near_thing)) = (split(key), split(near));
        // A verb that is an effect of its own taking its thing as the value: `move_good` is `move: "good"`.
        let takes = |e: &EffectSpec| e.values.iter().any(|(k, v)| *k == e.name && v.contains(&thing));
        if self.effects.iter().any(|e| e.name == verb && takes(e)) {
            return format!("did you mean `{verb}: \"{thing}\"`? ");
        }
        let same_thing = |t: &str| t.trim_end_matches('s') == thing.trim_end_matches('s');
        if verb == near_verb || !same_thing(near_thing) || verb.is_empty() {
            return format!("did you mean `{near}`? ");
        }
        let on_it: Vec<&str> = self.effects.iter().map(|e| e.name).filter(|n| same_thing(split(n).1)).collect();
        format!("there is no `{key}`; the effects on {thing} are {} — see what each does; ", on_it.join(", "))
    }

    /// Each `ctx.event.x` in hook `name`: `x` must be a key of the event it hears.
    fn check_event_keys(&self, source: &Source, text: &std::sync::Arc<str>, ast: &AST, name: &str) -> Vec<LoadError> {
        let mut errors = Vec::new();
        let keys = self.event_keys.iter().find(|(h, _)| *h == name).map(|(_, k)| *k);
        for (key, at) in event_key_uses(ast, name) {
            let Some(keys) = keys else {
                let message = format!("`{name}` hears no event: `ctx.event` is `()` there");
                let hooks: Vec<&str> = self.event_keys.iter().map(|(h, _)| *h).collect();
                errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                    "`ctx.event.{key}` is read in the hooks that hear an event: {} ({})",
                    hooks.join(", "),
                    self.docs
                )));
                continue;
            };
            if keys.contains(&key.as_str()) {
                continue;
            }
            let near = match self.event_hints.iter().find(|(k, _)| *k == key) {
                Some((_, hint)) => format!("{hint}; "),
                None => {
                    closest(&key, keys.iter().copied()).map(|c| format!("did you mean `{c}`? ")).unwrap_or_default()
                }
            };
            let message = format!("the event `{name}` hears has no `{key}`");
            errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                "{near}in `{name}`, ctx.event has: {} ({})",
                keys.join(", "),
                self.docs
            )));
        }
        errors
    }

    /// Each key read through `ctx.<member>` (`ctx.table.players[0].hand`)
    /// against the map shapes it passes: a key none holds is refused where it
    /// is written, with the keys that map has.
    fn check_shape(
        &self,
        source: &Source,
        text: &std::sync::Arc<str>,
        ast: &AST,
        name: &str,
        member: &str,
        shape: &'static [Shape],
    ) -> Vec<LoadError> {
        let mut errors = Vec::new();
        for (root, held, path) in shaped_uses(ast, name, member, shape) {
            let (mut shapes, mut read) = (held, root);
            for (key, at, indexed) in path {
                if shapes.is_empty() {
                    break;
                }
                let Some(found) = shapes.iter().find(|s| s.key == key) else {
                    let keys: Vec<&str> = shapes.iter().map(|s| s.key).collect();
                    let near = closest(&key, keys.iter().copied())
                        .map(|c| format!("did you mean `{c}`? "))
                        .unwrap_or_default();
                    let message = format!("`{read}` has no `{key}`");
                    errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                        "{near}`{read}` holds: {} ({})",
                        keys.join(", "),
                        self.docs
                    )));
                    break;
                };
                read = format!("{read}.{key}{}", if indexed { "[…]" } else { "" });
                shapes = found.of;
            }
        }
        errors
    }

    /// One map written in hook `spec`: the hook's own result map, or one effect
    /// with only that effect's keys and allowed values.
    fn check_map(
        &self,
        source: &Source,
        text: &std::sync::Arc<str>,
        spec: &HookSpec,
        map: &[MapEntry],
    ) -> Vec<LoadError> {
        let mut errors = Vec::new();
        if !spec.results.is_empty() && map.iter().all(|e| spec.results.contains(&e.key.as_str())) {
            return errors;
        }
        let named: Vec<&EffectSpec> = self.effects.iter().filter(|f| map.iter().any(|e| e.key == f.name)).collect();
        let [effect] = named.as_slice() else {
            if named.len() > 1 {
                let names: Vec<&str> = named.iter().map(|f| f.name).collect();
                let at = map.first().map_or_else(Pos::default, |e| e.at);
                let message = format!("one effect per map; this one names {}", names.join(" and "));
                errors.push(LoadError::at_pos(source, text, at, message).help(format!(
                    "write a list of maps, one effect each: [#{{ {}: … }}, #{{ {}: … }}] ({})",
                    names[0], names[1], self.docs
                )));
            }
            return errors;
        };
        for e in map {
            if e.key != effect.name && !effect.keys.contains(&e.key.as_str()) {
                // A key the map-key check does not know is reported there, once.
                if !self.map_keys.contains(&e.key.as_str()) {
                    continue;
                }
                let takes = if effect.keys.is_empty() { "no other key".to_owned() } else { effect.keys.join(", ") };
                let near = closest(&e.key, effect.keys.iter().copied()).map(|c| format!("did you mean `{c}`? "));
                let message = format!("`{}` is not a key of the `{}` effect", e.key, effect.name);
                errors.push(LoadError::at_pos(source, text, e.at, message).help(format!(
                    "{}`{}` takes {takes} ({})",
                    near.unwrap_or_default(),
                    effect.name,
                    self.docs
                )));
            }
            let allowed = effect.values.iter().find(|(k, _)| *k == e.key).map(|(_, v)| *v);
            // `"*"` among the values: any other value is meant too (a card id beside `move: "good"`).
            if let (Some(allowed), Some(value)) = (allowed, &e.text)
                && !allowed.contains(&value.as_str())
                && !allowed.contains(&"*")
            {
                // A longer or shorter spelling of an allowed value (`empty_production`) is meant as it.
                let near = closest(value, allowed.iter().copied())
                    .or_else(|| allowed.iter().copied().find(|v| value.starts_with(v) || v.starts_with(value.as_str())))
                    .map(|c| format!("did you mean \"{c}\"? "));
                let message = format!("`{}: \"{value}\"` is not a value `{}` takes", e.key, effect.name);
                let values: Vec<String> = allowed.iter().map(|v| format!("\"{v}\"")).collect();
                errors.push(LoadError::at_pos(source, text, e.at, message).help(format!(
                    "{}`{}` is one of {} ({})",
                    near.unwrap_or_default(),
                    e.key,
                    values.join(", "),
                    self.docs
                )));
            }
        }
        errors
    }

    fn compile(&self, source: &Source) -> Result<Script, Vec<LoadError>> {
        let text: std::sync::Arc<str> = source.read().map_err(|e| vec![e])?.into();
        let mut ast = self.engine.compile(&*text).map_err(|e| {
            vec![
                LoadError::at_pos(
                    source,
                    &text,
                    pos(e.position()),
                    format!("script does not compile: {}", e.err_type()),
                )
                .help(parse_hint(e.err_type(), self.docs)),
            ]
        })?;
        ast.set_source(source.to_string());
        Ok(Script { written: ast.clone(), ast, source: source.clone() })
    }

    /// [`ScriptHost::compile`], and the program as written beside it for `check`.
    fn compile_both(&mut self, source: &Source) -> Result<Script, Vec<LoadError>> {
        let mut script = self.compile(source)?;
        self.engine.set_optimization_level(OptimizationLevel::None);
        let written = source.read().ok().and_then(|text| self.engine.compile(&*text).ok());
        self.engine.set_optimization_level(OptimizationLevel::Full);
        if let Some(written) = written {
            script.written = written;
        }
        Ok(script)
    }

    /// True when `owner` listens to `hook`.
    #[inline]
    pub fn listens(&self, hook: usize, owner: usize) -> bool {
        self.dispatch[hook].get(owner).is_some_and(Option::is_some)
    }

    /// A bit per hook `owner` listens to.
    pub fn owner_mask(&self, owner: usize) -> HookMask {
        self.dispatch
            .iter()
            .enumerate()
            .filter(|(_, d)| d.get(owner).is_some_and(Option::is_some))
            .fold(0, |m, (h, _)| m | hook_bit(h))
    }

    /// The script file of an owner, if it has one for `hook`.
    pub fn source_of(&self, hook: usize, owner: usize) -> Option<&Source> {
        self.dispatch[hook][owner].map(|s| &self.scripts[s as usize].source)
    }

    /// The keys `owner`'s `hook` reads of `ctx.<member>`, if that is all it does
    /// with the member (see [`member_keys`]); `None` also for a hook it does not define.
    pub fn member_keys(&self, hook: usize, owner: usize, member: &str) -> Option<Vec<String>> {
        let script = self.dispatch[hook].get(owner).copied().flatten()?;
        member_keys(&self.scripts[script as usize].ast, self.hooks[hook].name, member)
    }

    /// What `owner`'s `hook` reads of `ctx.<member>`, a map the game makes
    /// whole (an event): its keys, and of each key whose value it only reads
    /// keys of, those (`ctx.event.building.type`); `None` when it does more
    /// with the member than read its keys. A game writes a row of the member by
    /// it ([`reads::write_keys_read`]).
    pub fn keys_read(&self, hook: usize, owner: usize, member: &str) -> Option<reads::KeysRead> {
        let script = self.dispatch[hook].get(owner).copied().flatten()?;
        keys_read(&self.scripts[script as usize].ast, self.hooks[hook].name, member)
    }

    /// What `owner`'s `hook` reads of each element of `ctx.<member>.<key>`
    /// (the keys, and which it only counts), if that is all it does with
    /// them: read through chains, walks, locals and the script's own helpers
    /// (see the `elements` module). `list`: the value is a list (`seats`), not
    /// a map read as one element (`neutral`). With `below` (`["hand"]`), of
    /// the elements of the list each element holds (`ctx.table.seats[s].hand[i]`).
    pub fn element_reads(
        &self,
        hook: usize,
        owner: usize,
        member: &str,
        key: &str,
        list: bool,
        below: &[&str],
    ) -> Option<ElementReads> {
        let script = self.dispatch[hook].get(owner).copied().flatten()?;
        elements::element_reads(&self.scripts[script as usize].ast, self.hooks[hook].name, member, key, list, below)
    }

    /// True when `owner`'s `hook` reads `ctx.<member>.<list>` only at
    /// `ctx.<by>` (see [`indexed_by_only`]): the list's other items cannot
    /// matter to it.
    pub fn indexed_by_only(&self, hook: usize, owner: usize, member: &str, list: &str, by: &str) -> bool {
        let Some(script) = self.dispatch[hook].get(owner).copied().flatten() else { return false };
        indexed_by_only(&self.scripts[script as usize].ast, self.hooks[hook].name, member, list, by)
    }

    /// True when `owner`'s `hook` uses `ctx.<member>` only to count it
    /// (`ctx.hand.len()`, see [`counted_only`]): a list of that many `()` is
    /// the same to it, and so is any list of that length.
    pub fn counted_only(&self, hook: usize, owner: usize, member: &str) -> bool {
        let Some(script) = self.dispatch[hook].get(owner).copied().flatten() else { return false };
        counted_only(&self.scripts[script as usize].ast, self.hooks[hook].name, member)
    }

    /// The properties `owner`'s `hook` reads from its parameter, if that is all it does with it.
    pub fn reads(&self, hook: usize, owner: usize) -> Option<Vec<String>> {
        let script = self.dispatch[hook][owner]?;
        param_reads(&self.scripts[script as usize].ast, self.hooks[hook].name)
    }

    /// True when `owner`'s `hook` may read the context member `ctx_members[member]`
    /// (it reads it, or does more with `ctx` than read it), so a game builds the
    /// costly parts of a context only for the hooks that look at them.
    pub fn may_read(&self, hook: usize, owner: usize, member: usize) -> bool {
        self.member_reads[hook].get(owner).copied().flatten().is_none_or(|bits| bits & (1 << member) != 0)
    }

    /// A bit per `ctx` member `owner`'s `hook` may read (every bit when it
    /// does more with `ctx` than read it): [`ScriptHost::may_read`] of every
    /// member at once, for a game that writes a row of them.
    pub fn member_bits(&self, hook: usize, owner: usize) -> u64 {
        self.member_reads[hook].get(owner).copied().flatten().unwrap_or(u64::MAX)
    }

    /// True when `owner`'s `hook` does nothing with `ctx` but read its members
    /// (`ctx.table`, never `ctx` itself passed on or returned): a `ctx` whose
    /// members are deferred ([`ScriptHost::call_read_lazy`]) is safe to give it.
    pub fn reads_members_only(&self, hook: usize, owner: usize) -> bool {
        self.member_reads[hook].get(owner).copied().flatten().is_some()
    }

    /// True when some owner's `hook` may read the context member `ctx_members[member]`.
    pub fn hook_may_read(&self, hook: usize, member: usize) -> bool {
        self.hook_reads[hook] & (1 << member) != 0
    }

    /// The scalar (and keyed) properties `owner`'s `hook` reads, when those are all it reads.
    pub fn memo_reads(&self, hook: usize, owner: usize) -> Option<Vec<&'static str>> {
        let props = self.memo_props[hook].get(owner)?.as_ref()?;
        let name = |p: usize| self.scalars.get(p).copied().unwrap_or_else(|| self.keyed[p - self.scalars.len()]);
        Some(props.iter().map(|&p| name(usize::from(p))).collect())
    }

    /// The scalar (and keyed) properties and the list members (a bit each, in
    /// `list_members` order) `owner`'s `hook` reads, when those are all it
    /// reads and one of them is a list.
    pub fn listed_reads(&self, hook: usize, owner: usize) -> Option<(Vec<&'static str>, u64)> {
        let (props, bits) = self.listed[hook].get(owner)?.as_ref()?;
        let name = |p: usize| self.scalars.get(p).copied().unwrap_or_else(|| self.keyed[p - self.scalars.len()]);
        Some((props.iter().map(|&p| name(usize::from(p))).collect(), *bits))
    }

    /// The value of a hook whose body is a literal, if it is one.
    #[inline]
    pub fn constant(&self, hook: usize, owner: usize) -> Option<&Dynamic> {
        self.constants[hook][owner].as_ref()
    }

    /// Calls `hook` for `owner` with the context `ctx` (turned into the script's
    /// argument by `wrap`); `Ok(None)` when it does not listen. A literal-bodied
    /// hook returns its literal; a hook that reads only scalar properties
    /// (`scalar(ctx, i)` gives the i-th of `scalars`, or the key of a keyed
    /// member) is computed once for each combination of their values. A key
    /// the game cannot give now (`None`) means the hook is simply called.
    pub fn call_memo<T>(
        &self,
        hook: usize,
        owner: usize,
        ctx: T,
        scalar: impl Fn(&T, usize) -> Option<i32>,
        wrap: impl FnOnce(T) -> Dynamic,
    ) -> Result<Option<Dynamic>, ScriptError> {
        if !self.listens(hook, owner) {
            return Ok(None);
        }
        if let Some(v) = self.constant(hook, owner) {
            return Ok(Some(v.clone()));
        }
        match self.memo_key(hook, owner, |i| scalar(&ctx, i)) {
            Some(key) => self.counted(
                hook,
                owner,
                |run| remember(&self.memo, key, Full::Stop, run),
                || self.call(hook, owner, wrap(ctx)),
            ),
            None => self.call(hook, owner, wrap(ctx)),
        }
    }

    /// `memo`'s answer, counted in the profile as remembered when `run` did not run.
    fn counted<R>(
        &self,
        hook: usize,
        owner: usize,
        memo: impl FnOnce(&mut dyn FnMut() -> R) -> R,
        run: impl FnOnce() -> R,
    ) -> R {
        let mut run = Some(run);
        let out = memo(&mut || run.take().expect("a memo runs its call at most once")());
        if run.is_some() {
            self.count_remembered(hook, owner);
        }
        out
    }

    /// Counts an answer of `owner`'s `hook` that a game gave from a memory of
    /// its own (a profile's "remembered"), while a profile is on.
    #[inline]
    pub fn count_remembered(&self, hook: usize, owner: usize) {
        if let Some(p) = self.profile.get() {
            p.add_remembered_if_on(hook, owner);
        }
    }

    /// `f`'s answer, its time counted in the profile as the game's work
    /// `what` while a profile is on: work a ruleset's content makes the game
    /// do around its hooks (offering its own actions at every decision).
    #[inline]
    pub fn timed_work<R>(&self, what: &'static str, f: impl FnOnce() -> R) -> R {
        match self.profile.get().filter(|p| p.on()) {
            Some(p) => {
                let t = std::time::Instant::now();
                let out = f();
                p.add_work(what, t.elapsed().as_nanos() as u64);
                out
            }
            None => f(),
        }
    }

    /// [`ScriptHost::call_memo`], and a hook that reads lists the game keys
    /// (`set_list_members`) and scalars alone answered from what it answered
    /// before for the same lists: `list` writes the list members' content as
    /// the game keys it (the same content, the same numbers, whatever the
    /// game), given a bit per list member the hook reads (in
    /// `set_list_members` order).
    pub fn call_listed<T>(
        &self,
        hook: usize,
        owner: usize,
        ctx: T,
        scalar: impl Fn(&T, usize) -> Option<i32>,
        list: impl FnOnce(u64, &mut ListKeyBuf),
        wrap: impl FnOnce(T) -> Dynamic,
    ) -> Result<Option<Dynamic>, ScriptError> {
        if !self.listens(hook, owner) {
            return Ok(None);
        }
        if let Some(v) = self.constant(hook, owner) {
            return Ok(Some(v.clone()));
        }
        if let Some(key) = self.memo_key(hook, owner, |i| scalar(&ctx, i)) {
            let run = || self.call(hook, owner, wrap(ctx));
            return self.counted(hook, owner, |run| remember(&self.memo, key, Full::Stop, run), run);
        }
        match self.list_key(hook, owner, |i| scalar(&ctx, i), list) {
            Some(key) => {
                let run = || self.call(hook, owner, wrap(ctx));
                self.counted(hook, owner, |run| remember(&self.list_memo, key, Full::Clear, run), run)
            }
            None => self.call(hook, owner, wrap(ctx)),
        }
    }

    /// A profile's tallies in words: each hook with its owner, what it reads
    /// of `ctx` (a member the game declares a shape for, such as the table,
    /// by the keys read, and a collection's elements by theirs:
    /// `table.seats[].reserve`), and whether its answer can be remembered
    /// against that. Most expensive first.
    pub fn hook_rows(&self, tallies: Vec<((usize, usize), profile::HookTally)>) -> Vec<profile::HookRow> {
        let mut rows: Vec<profile::HookRow> = tallies
            .into_iter()
            .filter(|((h, o), _)| *h < self.hooks.len() && *o < self.owners.len())
            .map(|((hook, owner), tally)| {
                let reads = self.reads(hook, owner);
                let rememberable = reads.is_some();
                let mut described = Vec::new();
                for prop in reads.unwrap_or_default() {
                    let shape = self.shapes.iter().find(|(m, _)| *m == prop).map(|(_, s)| *s);
                    match (shape, self.member_keys(hook, owner, &prop)) {
                        (Some(shape), Some(keys)) if !keys.is_empty() => {
                            for key in keys {
                                let nested = shape.iter().any(|s| s.key == key && !s.of.is_empty());
                                match self.element_reads(hook, owner, &prop, &key, true, &[]).filter(|_| nested) {
                                    Some(inner) if !inner.keys.is_empty() => {
                                        // A list only counted changes only with its length: the profile says so.
                                        described.extend(inner.keys.iter().map(|k| match inner.counted.contains(k) {
                                            true => format!("{prop}.{key}[].{k}.len()"),
                                            false => format!("{prop}.{key}[].{k}"),
                                        }));
                                    }
                                    _ => described.push(format!("{prop}.{key}")),
                                }
                            }
                        }
                        _ => described.push(prop),
                    }
                }
                described.sort();
                described.dedup();
                profile::HookRow {
                    hook: self.hooks[hook].name.to_owned(),
                    owner: self.owners[owner].to_string(),
                    reads: described,
                    rememberable,
                    tally,
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.tally.all_nanos().cmp(&a.tally.all_nanos()).then_with(|| (&a.hook, &a.owner).cmp(&(&b.hook, &b.owner)))
        });
        rows
    }

    /// Calls `hook` for `owner`, or answers as it answered a call that read
    /// the same: `row` is the exact content of every `ctx` member the hook may
    /// read, as the game writes it (see [`reads`]); `ctx` makes the argument
    /// only when the script must run. Nothing is remembered while scripts'
    /// prints are kept (a traced scenario shows every print where it happens)
    /// or when the game turned remembering off ([`ScriptHost::set_remember_reads`]).
    pub fn call_read(
        &self,
        hook: usize,
        owner: usize,
        row: impl FnOnce() -> Option<reads::ReadRow>,
        ctx: impl FnOnce() -> Dynamic,
    ) -> Result<Option<Dynamic>, ScriptError> {
        // The `ctx` made for the hook is its cost too: a profile counts it with the run.
        self.recall_or(hook, owner, row, || self.call_made(hook, owner, ctx))
    }

    /// [`ScriptHost::call_read`] with a `ctx` whose costly members are made
    /// only if the hook reads them: `ctx(true)` puts [`fast::Deferred`]`(i)`
    /// where member `i` goes and `make(i)` makes it; `ctx(false)` is the whole
    /// `ctx`, for Rhai (when the hook has no fast path, or it gives up);
    /// `lent` gives members the caller holds or keeps ([`fast::Lent`]).
    pub fn call_read_lazy(
        &self,
        hook: usize,
        owner: usize,
        row: impl FnOnce() -> Option<reads::ReadRow>,
        ctx: &dyn Fn(bool) -> Dynamic,
        (make, lent): (&dyn Fn(u8) -> Dynamic, fast::Lent),
    ) -> Result<Option<Dynamic>, ScriptError> {
        self.recall_or(hook, owner, row, || self.call_lazy(hook, owner, ctx, (make, lent)))
    }

    /// The answer [`ScriptHost::call_read`] would give for `row` from memory
    /// alone, without running the hook: `None` when it would have to run (or
    /// remembering is off). A game asks it of a position it has not built (a
    /// bot's "what if"); not counted in the hook's lookups, which decide
    /// whether its rows pay.
    pub fn recall_read(&self, hook: usize, owner: usize, row: reads::ReadRow) -> Option<Dynamic> {
        if !self.remembers_reads_of(hook, owner) {
            return None;
        }
        let v = self.read_memo.recall(&reads::ReadKey::new(hook, owner, row))?;
        self.count_remembered(hook, owner);
        Some(v)
    }

    /// The answer remembered for the row `row` writes, else `call`'s (then
    /// remembered). The row is written only while the hook's rows pay; a
    /// profile counts the time they take, which a hook asked at every
    /// decision pays even when it never runs.
    fn recall_or(
        &self,
        hook: usize,
        owner: usize,
        row: impl FnOnce() -> Option<reads::ReadRow>,
        call: impl FnOnce() -> Result<Option<Dynamic>, ScriptError>,
    ) -> Result<Option<Dynamic>, ScriptError> {
        if !self.remembers_reads_of(hook, owner) {
            return call();
        }
        let mut timer = profile::RowTimer::start(self.profile.get().map(|p| p.as_ref()), hook, owner);
        let Some(row) = row() else {
            // No row (a value none stands for, or a call the game asks not to remember).
            timer.cancel();
            return call();
        };
        let key = reads::ReadKey::new(hook, owner, row);
        let found = self.read_memo.recall(&key);
        if let Some(stats) = self.read_stats[hook].get(owner) {
            stats.count(found.is_some());
        }
        if let Some(v) = found {
            self.count_remembered(hook, owner);
            return Ok(Some(v));
        }
        let v = timer.excludes(call)?;
        if let Some(v) = &v {
            self.read_memo.keep(key, v);
        }
        Ok(v)
    }

    /// True when [`ScriptHost::call_read`] may answer from memory now: the
    /// game has not turned it off and no thread keeps scripts' prints. A game
    /// asks before writing a row, which costs more than nothing.
    #[inline]
    pub fn remembers_reads(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.remember_reads.load(Relaxed) && self.printed.listeners.load(Relaxed) == 0
    }

    /// [`ScriptHost::remembers_reads`], for `owner`'s `hook`: not once its
    /// rows are seldom met again (an incinerator's `on_bought` reads the
    /// buyer's hand: one answer in a hundred was found), so that a game stops
    /// writing rows no lookup will find. What is answered is the same either way.
    pub fn remembers_reads_of(&self, hook: usize, owner: usize) -> bool {
        self.remembers_reads() && self.read_stats[hook].get(owner).is_none_or(reads::ReadStats::pays)
    }

    /// Lets [`ScriptHost::call_read`] answer from memory (`true`, the default)
    /// or runs every hook (`false`), forgetting what it remembered either way:
    /// what a test compares.
    pub fn set_remember_reads(&self, on: bool) {
        self.remember_reads.store(on, std::sync::atomic::Ordering::Relaxed);
        self.read_memo.forget();
        self.read_stats.iter().flatten().for_each(reads::ReadStats::reset);
    }

    /// Forgets every remembered value, so that each hook runs again: what a
    /// test compares remembered answers with.
    pub fn forget(&self) {
        self.read_memo.forget();
        self.read_stats.iter().flatten().for_each(reads::ReadStats::reset);
        for shard in self.memo.all() {
            shard.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
        for shard in self.list_memo.all() {
            shard.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// What [`ScriptHost::call_listed`] answers without running a script: the
    /// literal, or the value remembered for these scalars and lists
    /// (`Some(None)`: the hook does not listen). `None` when the script would
    /// have to run, so a caller can ask about a position it has not built (a
    /// bot's "what if").
    pub fn remembered_listed(
        &self,
        hook: usize,
        owner: usize,
        scalar: impl Fn(usize) -> Option<i32>,
        list: impl FnOnce(u64, &mut ListKeyBuf),
    ) -> Option<Option<Dynamic>> {
        if !self.listens(hook, owner) {
            return Some(None);
        }
        if let Some(v) = self.constant(hook, owner) {
            return Some(Some(v.clone()));
        }
        if self.memo_props[hook][owner].is_some() {
            return recall(&self.memo, &self.memo_key(hook, owner, scalar)?).map(Some);
        }
        recall(&self.list_memo, &self.list_key(hook, owner, scalar, list)?).map(Some)
    }

    fn list_key(
        &self,
        hook: usize,
        owner: usize,
        scalar: impl Fn(usize) -> Option<i32>,
        list: impl FnOnce(u64, &mut ListKeyBuf),
    ) -> Option<ListKey> {
        let (props, bits) = self.listed[hook].get(owner)?.as_ref()?;
        let values = scalar_values(props, scalar)?;
        let mut lists = ListKeyBuf::new();
        list(*bits, &mut lists);
        Some(ListKey { key: MemoKey { hook: hook as u16, owner: owner as u32, values }, lists })
    }

    /// The memo's key for a hook that reads only scalars: `None` when it reads
    /// more, or a scalar has no value now.
    fn memo_key(&self, hook: usize, owner: usize, scalar: impl Fn(usize) -> Option<i32>) -> Option<MemoKey> {
        let values = scalar_values(self.memo_props[hook][owner].as_ref()?, scalar)?;
        Some(MemoKey { hook: hook as u16, owner: owner as u32, values })
    }

    /// Calls `hook` for `owner` with one argument; `Ok(None)` when it does not listen.
    pub fn call(&self, hook: usize, owner: usize, arg: Dynamic) -> Result<Option<Dynamic>, ScriptError> {
        self.call_made(hook, owner, || arg)
    }

    /// [`ScriptHost::call`] with the argument `arg()` makes, timed with the run.
    #[inline]
    fn call_made(
        &self,
        hook: usize,
        owner: usize,
        arg: impl FnOnce() -> Dynamic,
    ) -> Result<Option<Dynamic>, ScriptError> {
        let Some(script) = self.dispatch[hook][owner] else { return Ok(None) };
        let _timer = profile::Timer::start(self.profile.get().map(|p| p.as_ref()), hook, owner);
        let mut arg = arg();
        if let Some(fast) = self.fast_of(hook, owner) {
            match fast.run(arg) {
                Ok(v) => return Ok(Some(v)),
                Err(given_back) => arg = given_back,
            }
        }
        self.call_rhai(hook, owner, script, arg)
    }

    /// [`ScriptHost::call`] with a `ctx` whose deferred members `make` makes
    /// (see [`ScriptHost::call_read_lazy`]).
    fn call_lazy(
        &self,
        hook: usize,
        owner: usize,
        ctx: &dyn Fn(bool) -> Dynamic,
        (make, lent): (&dyn Fn(u8) -> Dynamic, fast::Lent),
    ) -> Result<Option<Dynamic>, ScriptError> {
        let Some(script) = self.dispatch[hook][owner] else { return Ok(None) };
        let _timer = profile::Timer::start(self.profile.get().map(|p| p.as_ref()), hook, owner);
        if let Some(fast) = self.fast_of(hook, owner)
            && let Ok(v) = fast.run_lazy(ctx(true), make, lent)
        {
            return Ok(Some(v));
        }
        // A lazy argument is not Rhai's: the whole one is made.
        self.call_rhai(hook, owner, script, ctx(false))
    }

    /// The fast path of `owner`'s `hook`, unless there is none or Rhai alone runs.
    #[inline]
    fn fast_of(&self, hook: usize, owner: usize) -> Option<&fast::Compiled> {
        let fast = self.fast[hook][owner].as_deref()?;
        (!self.rhai_only.load(std::sync::atomic::Ordering::Relaxed)).then_some(fast)
    }

    /// Runs `script`'s `hook` in Rhai, under the time limit.
    fn call_rhai(&self, hook: usize, owner: usize, script: u32, arg: Dynamic) -> Result<Option<Dynamic>, ScriptError> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(self.limits.millis);
        let outer = DEADLINE.with(|d| d.replace(Some(deadline)));
        let script = &self.scripts[script as usize];
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        let result = self.engine.call_fn_with_options::<Dynamic>(
            options,
            &mut scope,
            &script.ast,
            self.hooks[hook].name,
            (arg,),
        );
        DEADLINE.with(|d| d.set(outer));
        result.map(Some).map_err(|e| self.error(hook, owner, &script.source, &e))
    }

    /// A script error that names card, file, hook and line:column.
    pub fn error(&self, hook: usize, owner: usize, source: &Source, e: &EvalAltResult) -> ScriptError {
        let hint = match e {
            EvalAltResult::ErrorTooManyOperations(_) => " (the script ran too long: look for a loop that never ends)",
            EvalAltResult::ErrorTerminated(..) => {
                " (look for a loop that never ends, or work that grows with the game)"
            }
            _ => "",
        };
        let message = match e {
            EvalAltResult::ErrorTerminated(why, _) => format!("stopped: {why}{hint}"),
            _ => format!("{e}{hint}"),
        };
        let mut at = pos(e.position());
        if at.line == 0 {
            // Some errors (too many operations) carry no position: point at the hook.
            at = self.hook_pos(hook, owner);
        }
        self.script_error(hook, owner, source, at, message)
    }

    fn script_error(&self, hook: usize, owner: usize, source: &Source, at: Pos, message: String) -> ScriptError {
        let text: std::sync::Arc<str> = source.read().unwrap_or_default().into();
        let snippet = LoadError::at_pos(source, &text, at, "").snippet.map(Box::new);
        ScriptError {
            noun: self.noun,
            card: self.owners[owner].clone(),
            file: source.to_string(),
            hook: self.hooks[hook].name,
            pos: at,
            message,
            snippet,
        }
    }

    /// Where `owner`'s function for `hook` starts (for errors about the hook itself).
    pub fn hook_pos(&self, hook: usize, owner: usize) -> Pos {
        self.dispatch[hook][owner]
            .map_or_else(Pos::default, |s| fn_pos(&self.scripts[s as usize].ast, self.hooks[hook].name))
    }

    /// A wrong map a hook returned (an effect), reported at the map written in
    /// the script with the same keys and string values (the hook's own function
    /// first, then its helpers), or at the hook's function when none matches
    /// (a map built key by key).
    pub fn bad_map(&self, hook: usize, owner: usize, map: &rhai::Map, what: &str) -> ScriptError {
        let Some(s) = self.dispatch[hook][owner] else { return self.bad_return(hook, owner, what) };
        let script = &self.scripts[s as usize];
        let at = written_map_pos(&script.ast, self.hooks[hook].name, map).unwrap_or_else(|| self.hook_pos(hook, owner));
        let message = format!("{what}; {}", self.hooks[hook].doc);
        self.script_error(hook, owner, &script.source, at, message)
    }

    /// A wrong return value, reported like a script error at the hook's function.
    pub fn bad_return(&self, hook: usize, owner: usize, what: &str) -> ScriptError {
        let source = self.source_of(hook, owner).cloned().unwrap_or_else(|| Source::Disk(std::path::PathBuf::new()));
        let message = format!("{what}; {}", self.hooks[hook].doc);
        self.script_error(hook, owner, &source, self.hook_pos(hook, owner), message)
    }
}

/// A hint for each kind of syntax error, instead of one hint for all.
fn parse_hint(e: &rhai::ParseErrorType, docs: &str) -> String {
    use rhai::ParseErrorType as P;
    match e {
        P::VariableUndefined(v) => {
            format!("declare `{v}` with `let {v} = …;` before using it; a hook sees only `ctx` and its own variables")
        }
        P::MissingToken(token, _) => format!("add the missing `{token}`"),
        P::UnexpectedEOF => "the script ends too early: a `}` or `)` is missing".into(),
        P::FnMissingParams(name) => format!("write `fn {name}(ctx) {{ … }}`"),
        P::FnMissingBody(name) => format!("give `{name}` a body in `{{ … }}`"),
        P::FnDuplicatedDefinition(name, _) => format!("`{name}` is defined twice: keep one"),
        P::UnknownOperator(op) => format!("`{op}` is not a Rhai operator"),
        P::Reserved(word) => format!("`{word}` is reserved in Rhai: choose another name"),
        P::ExprExpected(what) => format!("a value is expected here ({what})"),
        P::AssignmentToConstant(name) => format!("`{name}` is a constant: declare it with `let` to change it"),
        P::BadInput(_) => "a character or literal Rhai cannot read; check quotes and numbers (integers only)".into(),
        _ => format!("Rhai syntax: https://rhai.rs/book/ ; hooks are `fn on_…(ctx) {{ … }}` ({docs})"),
    }
}

/// Where function `name` starts (its body's opening line), for errors about it.
fn fn_pos(ast: &AST, name: &str) -> Pos {
    ast.iter_fn_def().find(|f| f.name == name).map_or_else(Pos::default, |f| pos(f.body.start_position()))
}

/// The properties and methods function `name` uses on its first parameter
/// (`ctx.hand`, `ctx.count_kind(…)`), with where.
fn member_uses(ast: &AST, name: &str) -> Vec<(String, Pos)> {
    use rhai::{ASTNode, Expr};
    let Some((start, end, param)) = body_span(ast, name) else { return Vec::new() };
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if !path.first().is_some_and(|n| (start..=end).contains(&key(n.position()))) {
            return true;
        }
        if let Some(ASTNode::Expr(Expr::Dot(bin, ..))) = path.last()
            && matches!(&bin.lhs, Expr::Variable(x, ..) if x.1 == param.as_str())
        {
            let member = match &bin.rhs {
                Expr::Property(p, at) => Some((p.2.to_string(), *at)),
                Expr::MethodCall(call, at) => Some((call.name.to_string(), *at)),
                Expr::Dot(inner, ..) | Expr::Index(inner, ..) => match &inner.lhs {
                    Expr::Property(p, at) => Some((p.2.to_string(), *at)),
                    Expr::MethodCall(call, at) => Some((call.name.to_string(), *at)),
                    _ => None,
                },
                _ => None,
            };
            if let Some((m, at)) = member {
                out.push((m, pos(at)));
            }
        }
        true
    });
    out
}

/// The keys function `name` reads from its parameter's `event` (`ctx.event.goods` →
/// `goods`), with where.
fn event_key_uses(ast: &AST, name: &str) -> Vec<(String, Pos)> {
    // No shape: only chains from `ctx.event` itself (a variable holding it is not followed).
    let first = |(_, _, chain): Shaped| chain.into_iter().next().map(|(key, at, _)| (key, at));
    shaped_uses(ast, name, "event", &[]).into_iter().filter_map(first).collect()
}

/// The keys of a chain from `e` on (`.a[i].b` after its root), each with
/// where it is written and whether a list index follows it; the chain stops
/// at anything that is not a key (a method call).
fn chain_keys(e: &rhai::Expr, out: &mut Vec<(String, Pos, bool)>) {
    use rhai::Expr;
    match e {
        Expr::Property(p, at) => out.push((p.2.to_string(), pos(*at), false)),
        Expr::Dot(bin, ..) => {
            if let Expr::Property(p, at) = &bin.lhs {
                out.push((p.2.to_string(), pos(*at), false));
                chain_keys(&bin.rhs, out);
            }
        }
        // `k[i]…`: the index is the first link of what follows it (`Dot { lhs: i, rhs: … }`),
        // unless the chain ends at the index (`BREAK`: then `rhs` is the index alone, `ctx.seat`).
        Expr::Index(bin, flags, ..) => {
            if let Expr::Property(p, at) = &bin.lhs {
                out.push((p.2.to_string(), pos(*at), true));
                if let Expr::Dot(next, ..) = &bin.rhs
                    && !flags.contains(rhai::ASTFlags::BREAK)
                {
                    chain_keys(&next.rhs, out);
                }
            }
        }
        _ => {}
    }
}

/// A chain of keys read from a root: `ctx.table`, or a variable holding a
/// part of it; the shape the root holds, and the keys after it.
type Shaped = (String, &'static [Shape], Vec<(String, Pos, bool)>);

/// The chains read through `ctx.<member>` in hook `name`'s body, and through
/// the variables bound once to a part of it (`let p = ctx.table.players[0];`,
/// `for b in p.buildings`) and never assigned: what each root holds by
/// `shape`. A variable bound twice, or written to, is not followed.
fn shaped_uses(ast: &AST, name: &str, member: &str, shape: &'static [Shape]) -> Vec<Shaped> {
    use rhai::{ASTNode, Expr, Stmt};
    use std::collections::HashMap;
    let Some((start, end, param)) = body_span(ast, name) else { return Vec::new() };
    let inside = |path: &[ASTNode]| path.first().is_some_and(|n| (start..=end).contains(&key(n.position())));
    // Every binding in the body, and the names written to.
    let mut binds: Vec<(String, Expr)> = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut written: Vec<String> = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if !inside(path) {
            return true;
        }
        let bound = match path.last() {
            Some(ASTNode::Stmt(Stmt::Var(v, ..))) => Some((v.0.name.to_string(), v.1.clone())),
            Some(ASTNode::Stmt(Stmt::For(f, ..))) => Some((f.0.name.to_string(), f.2.expr.clone())),
            Some(ASTNode::Stmt(Stmt::Assignment(a))) => {
                let mut target = &a.1.lhs;
                while let Expr::Dot(bin, ..) | Expr::Index(bin, ..) = target {
                    target = &bin.lhs;
                }
                if let Expr::Variable(x, ..) = target {
                    written.push(x.1.to_string());
                }
                None
            }
            _ => None,
        };
        if let Some((var, expr)) = bound {
            *counts.entry(var.clone()).or_default() += 1;
            binds.push((var, expr));
        }
        true
    });
    // The shape a chain from a known root reaches: `None` when a key is unknown or not followed.
    let reach = |from: &'static [Shape], keys: &[(String, Pos, bool)]| {
        keys.iter().try_fold(from, |shapes, (k, ..)| shapes.iter().find(|s| s.key == *k).map(|s| s.of))
    };
    let mut roots: HashMap<String, &'static [Shape]> = HashMap::new();
    // The root and the keys after it of an expression: `ctx.<member>…` or `<known variable>…`.
    let rooted = |e: &Expr, roots: &HashMap<String, &'static [Shape]>| -> Option<(&'static [Shape], Vec<_>)> {
        let mut keys = Vec::new();
        match e {
            Expr::Variable(x, ..) => Some((*roots.get(x.1.as_str())?, keys)),
            Expr::Dot(bin, ..) | Expr::Index(bin, ..) => match &bin.lhs {
                Expr::Variable(x, ..) if x.1 == param.as_str() => match &bin.rhs {
                    Expr::Dot(inner, ..) if matches!(&inner.lhs, Expr::Property(p, _) if p.2 == member) => {
                        chain_keys(&inner.rhs, &mut keys);
                        Some((shape, keys))
                    }
                    Expr::Property(p, _) if p.2 == member => Some((shape, keys)),
                    _ => None,
                },
                Expr::Variable(x, ..) => {
                    let root = *roots.get(x.1.as_str())?;
                    match e {
                        Expr::Dot(..) => chain_keys(&bin.rhs, &mut keys),
                        Expr::Index(_, flags, ..) if !flags.contains(rhai::ASTFlags::BREAK) => {
                            if let Expr::Dot(next, ..) = &bin.rhs {
                                chain_keys(&next.rhs, &mut keys);
                            }
                        }
                        _ => {}
                    }
                    Some((root, keys))
                }
                _ => None,
            },
            _ => None,
        }
    };
    // Bindings resolve in the order written; a later one may build on an earlier one.
    for (var, expr) in &binds {
        if counts[var] > 1 || written.contains(var) || *var == param {
            continue;
        }
        if let Some((root, keys)) = rooted(expr, &roots)
            && let Some(held) = reach(root, &keys)
            && !held.is_empty()
        {
            roots.insert(var.clone(), held);
        }
    }
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if !inside(path) {
            return true;
        }
        if let Some(ASTNode::Expr(e @ (Expr::Dot(bin, ..) | Expr::Index(bin, ..)))) = path.last()
            && let Expr::Variable(x, ..) = &bin.lhs
        {
            let root = if x.1 == param.as_str() { format!("{param}.{member}") } else { x.1.to_string() };
            // `ctx.<member>` alone (`let t = ctx.table;`) reads no key.
            if let Some((held, keys)) = rooted(e, &roots)
                && !keys.is_empty()
            {
                out.push((root, held, keys));
            }
        }
        true
    });
    out
}

/// One key of a map written in a script: where, and its value when it is a string literal.
#[derive(Clone, Debug)]
struct MapEntry {
    key: String,
    at: Pos,
    text: Option<String>,
    /// The value as Rhai prints it, when it is written as a constant (a number,
    /// `true`, a string, a list of them): tells apart maps with the same keys.
    shown: Option<String>,
}

/// A map written in a script: where it starts, and its entries.
#[derive(Clone, Debug)]
struct WrittenMap {
    at: Pos,
    entries: Vec<MapEntry>,
}

/// The maps written in function `name`.
fn maps_in(ast: &AST, name: &str) -> Vec<WrittenMap> {
    use rhai::{ASTNode, Expr};
    let Some((start, end, _)) = body_span(ast, name) else { return Vec::new() };
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if !path.first().is_some_and(|n| (start..=end).contains(&key(n.position()))) {
            return true;
        }
        match path.last() {
            Some(ASTNode::Expr(Expr::Map(m, at))) => {
                let entry = |(k, v): &(rhai::Ident, Expr)| MapEntry {
                    key: k.name.to_string(),
                    at: pos(k.pos),
                    text: match v {
                        Expr::StringConstant(s, _) => Some(s.to_string()),
                        _ => None,
                    },
                    shown: v.get_literal_value(None).map(|d| d.to_string()),
                };
                out.push(WrittenMap { at: pos(*at), entries: m.0.iter().map(entry).collect() });
            }
            // The optimizer folds a map of constants into one value.
            Some(ASTNode::Expr(Expr::DynamicConstant(v, at))) => constant_maps(v, pos(*at), &mut out),
            _ => {}
        }
        true
    });
    out
}

/// The maps in a folded constant (a map, or an array of maps), all at its position.
fn constant_maps(v: &Dynamic, at: Pos, out: &mut Vec<WrittenMap>) {
    if let Some(m) = v.read_lock::<rhai::Map>() {
        let entry = |(k, v): (&rhai::Identifier, &Dynamic)| MapEntry {
            key: k.to_string(),
            at,
            text: v.read_lock::<rhai::ImmutableString>().map(|s| s.to_string()),
            shown: Some(v.to_string()),
        };
        out.push(WrittenMap { at, entries: m.iter().map(entry).collect() });
    } else if let Some(a) = v.read_lock::<rhai::Array>() {
        a.iter().for_each(|v| constant_maps(v, at, out));
    }
}

/// Where a map like `map` is written: in function `hook`, else in any other
/// function of the script. Like means the same keys, and the same value for
/// each key written as a string literal.
fn written_map_pos(ast: &AST, hook: &str, map: &rhai::Map) -> Option<Pos> {
    let like = |m: &WrittenMap| {
        m.entries.len() == map.len()
            && m.entries.iter().all(|e| {
                map.get(e.key.as_str()).is_some_and(|v| e.shown.as_ref().is_none_or(|shown| *shown == v.to_string()))
            })
    };
    let others = ast.iter_fn_def().map(|f| f.name.as_str()).filter(|n| *n != hook);
    std::iter::once(hook).chain(others).find_map(|name| maps_in(ast, name).into_iter().find(like).map(|m| m.at))
}

/// Calls anywhere in the script to one of `names`, with where.
fn calls_to(ast: &AST, names: &[&str]) -> Vec<(String, Pos)> {
    use rhai::{ASTNode, Expr, Stmt};
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(call, at))) => Some((call.name.as_str(), *at)),
            Some(ASTNode::Stmt(Stmt::FnCall(call, at))) => Some((call.name.as_str(), *at)),
            Some(ASTNode::Expr(Expr::MethodCall(call, at))) => Some((call.name.as_str(), *at)),
            _ => None,
        };
        if let Some((n, at)) = call
            && names.contains(&n)
        {
            out.push((n.to_owned(), pos(at)));
        }
        true
    });
    out
}

/// Most scalar properties a remembered hook may read.
/// A value per thread, near enough: one of [`SHARDS`] locks, picked by the
/// thread's id, each on its own cache line. A lock every thread reads writes
/// its count on every read, and two cores passing that line to and fro cost a
/// parallel simulation a sixth of its work; a thread keeps to its own shard
/// (its remembered values are its own, filled as it plays).
pub struct Shards<T>(Box<[Padded<RwLock<T>>]>);

/// How many shards: enough that a few threads rarely share one.
const SHARDS: usize = 64;

/// A value on a cache line of its own.
#[repr(align(128))]
#[derive(Default)]
struct Padded<T>(T);

impl<T: Default> Default for Shards<T> {
    fn default() -> Self {
        Shards((0..SHARDS).map(|_| Padded::default()).collect())
    }
}

impl<T> Shards<T> {
    /// Every shard, to change them all.
    pub fn all(&self) -> impl Iterator<Item = &RwLock<T>> {
        self.0.iter().map(|p| &p.0)
    }

    /// The calling thread's shard.
    pub fn mine(&self) -> &RwLock<T> {
        // A thread-local's address tells threads apart at the cost of a load
        // (asking for the thread's id was 1% of a game between balance bots).
        thread_local! { static HERE: u8 = const { 0 } }
        let here = HERE.with(|h| std::ptr::from_ref(h) as usize as u64);
        let mixed = (here >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58;
        &self.0[mixed as usize % SHARDS].0
    }
}

const MEMO_KEY: usize = 4;

/// Most values a host remembers: beyond it, hooks are simply called.
pub const MEMO_CAPACITY: usize = 1 << 16;

/// The values of the scalars `props` names (`None`: one has no value now).
fn scalar_values(props: &[u8], scalar: impl Fn(usize) -> Option<i32>) -> Option<[i32; MEMO_KEY]> {
    let mut values = [0i32; MEMO_KEY];
    for (slot, &p) in values.iter_mut().zip(props) {
        *slot = scalar(usize::from(p))?;
    }
    Some(values)
}

/// What a hook that reads lists reads: the scalars' indices and a bit per list member.
type Listed = (SmallVec<[u8; MEMO_KEY]>, u64);

/// A memo shard met at its capacity: stop remembering, or start afresh.
enum Full {
    Stop,
    Clear,
}

/// Yes-or-no answers remembered by a number below 2⁶² (what a hook can see,
/// packed: an action's `allowed` by its arguments' words), shared by every
/// thread without a lock or a map: asked for every pair of cards at every
/// decision, where a locked map's lookup cost more than the game around it.
/// A key that meets a full neighbourhood is simply not remembered.
pub struct FlagMemo(Box<[std::sync::atomic::AtomicU64]>);

/// Slots of a [`FlagMemo`] a key may take: its hash's and the next ones.
const FLAG_PROBES: usize = 8;

impl FlagMemo {
    /// A memo of 2^`bits` slots.
    pub fn new(bits: u32) -> Self {
        FlagMemo((0..1usize << bits).map(|_| std::sync::atomic::AtomicU64::new(0)).collect())
    }

    fn slots(&self, key: u64) -> impl Iterator<Item = &std::sync::atomic::AtomicU64> {
        let bits = self.0.len().trailing_zeros();
        let home = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        (0..FLAG_PROBES).map(move |i| &self.0[(home + i) & (self.0.len() - 1)])
    }

    /// The answer remembered for `key`, if any.
    pub fn get(&self, key: u64) -> Option<bool> {
        use std::sync::atomic::Ordering::Relaxed;
        debug_assert!(key < 1 << 62);
        for slot in self.slots(key) {
            match slot.load(Relaxed) {
                0 => return None,
                e if e >> 2 == key => return Some(e & 2 != 0),
                _ => {}
            }
        }
        None
    }

    /// Remembers `answer` for `key` (nothing when its neighbourhood is full).
    pub fn put(&self, key: u64, answer: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        let entry = key << 2 | u64::from(answer) << 1 | 1;
        for slot in self.slots(key) {
            match slot.compare_exchange(0, entry, Relaxed, Relaxed) {
                Ok(_) => return,
                // Another thread put the same key (the same answer: hooks are functions of it).
                Err(e) if e >> 2 == key => return,
                Err(_) => {}
            }
        }
    }

    /// Forgets every answer.
    pub fn forget(&self) {
        for slot in self.0.iter() {
            slot.store(0, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Hook answers a game remembers by a key of its own (what the hook can see), a map per thread.
pub type KeyedMemo<K> = Shards<rustc_hash::FxHashMap<K, Dynamic>>;

/// This thread's answer for `key` in `memo`, else `call`'s, remembered while
/// the thread's map has room ([`MEMO_CAPACITY`]); an error is not remembered.
pub fn remember_keyed<K: std::hash::Hash + Eq, E>(
    memo: &KeyedMemo<K>,
    key: K,
    call: impl FnOnce() -> Result<Dynamic, E>,
) -> Result<Dynamic, E> {
    remember(memo, key, Full::Stop, || call().map(Some)).map(Option::unwrap_or_default)
}

/// This thread's value for `key` in `memo`, or `call`'s, remembered.
fn remember<K: std::hash::Hash + Eq, E>(
    memo: &KeyedMemo<K>,
    key: K,
    full: Full,
    call: impl FnOnce() -> Result<Option<Dynamic>, E>,
) -> Result<Option<Dynamic>, E> {
    let shard = memo.mine();
    // A poisoned lock only means another thread panicked mid-insert; the map is still sound.
    if let Some(v) = shard.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Some(v.clone()));
    }
    let value = call()?;
    if let Some(v) = &value {
        let mut shard = shard.write().unwrap_or_else(|e| e.into_inner());
        let capacity = match full {
            Full::Stop => MEMO_CAPACITY,
            Full::Clear => LIST_MEMO_CAPACITY,
        };
        if shard.len() >= capacity {
            match full {
                Full::Stop => return Ok(value),
                Full::Clear => shard.clear(),
            }
        }
        shard.insert(key, v.clone());
    }
    Ok(value)
}

/// This thread's value for `key` in `memo`, if remembered.
fn recall<K: std::hash::Hash + Eq>(memo: &Shards<rustc_hash::FxHashMap<K, Dynamic>>, key: &K) -> Option<Dynamic> {
    memo.mine().read().unwrap_or_else(|e| e.into_inner()).get(key).cloned()
}

/// The lists a hook reads ([`ScriptHost::call_listed`]), as the game writes them.
pub type ListKeyBuf = SmallVec<[u16; 64]>;

/// A remembered value of a hook that reads lists: its scalars' key and the lists.
#[derive(Clone, PartialEq, Eq, Hash)]
struct ListKey {
    key: MemoKey,
    lists: ListKeyBuf,
}

/// Most values a thread's list memo holds before it starts afresh: its keys
/// are whole lists of cards in play, most never met again once the game moves on.
pub const LIST_MEMO_CAPACITY: usize = 1 << 12;

/// A remembered hook value: which hook and owner, and the values it read.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct MemoKey {
    hook: u16,
    owner: u32,
    values: [i32; MEMO_KEY],
}

/// Optional timing of script calls, for the `bench` command: a [`Profile`]
/// handed to a host ([`ScriptHost::set_profile`]) counts its calls while on.
pub mod profile {
    use std::time::Instant;

    pub use engine_rules::profile::{HookRow, HookTally, Profile};

    /// Measures one run of a hook while alive, when the host has a profile that is on.
    pub(crate) struct Timer<'a>(Option<(&'a Profile, Instant, usize, usize)>);

    impl<'a> Timer<'a> {
        pub(crate) fn start(profile: Option<&'a Profile>, hook: usize, owner: usize) -> Timer<'a> {
            Timer(profile.filter(|p| p.on()).map(|p| (p, Instant::now(), hook, owner)))
        }
    }

    impl Drop for Timer<'_> {
        fn drop(&mut self) {
            if let Some((p, t, hook, owner)) = self.0 {
                p.add_run(hook, owner, t.elapsed().as_nanos() as u64);
            }
        }
    }

    /// Measures one call answered through a row while alive (the row written,
    /// looked up and kept), less the run it [`RowTimer::excludes`].
    pub(crate) struct RowTimer<'a>(Option<(&'a Profile, Instant, std::time::Duration, usize, usize)>);

    impl<'a> RowTimer<'a> {
        pub(crate) fn start(profile: Option<&'a Profile>, hook: usize, owner: usize) -> RowTimer<'a> {
            RowTimer(profile.filter(|p| p.on()).map(|p| (p, Instant::now(), std::time::Duration::ZERO, hook, owner)))
        }

        /// Counts nothing: no row was written.
        pub(crate) fn cancel(&mut self) {
            self.0 = None;
        }

        /// `f`'s answer, its time not counted as the row's (a run, which its own [`Timer`] counts).
        pub(crate) fn excludes<R>(&mut self, f: impl FnOnce() -> R) -> R {
            let Some((_, _, excluded, ..)) = &mut self.0 else { return f() };
            let t = Instant::now();
            let out = f();
            *excluded += t.elapsed();
            out
        }
    }

    impl Drop for RowTimer<'_> {
        fn drop(&mut self) {
            if let Some((p, t, excluded, hook, owner)) = self.0 {
                p.add_row(hook, owner, t.elapsed().saturating_sub(excluded).as_nanos() as u64);
            }
        }
    }
}

/// A hook whose body is a literal returns a value of its contract's shape: an
/// integer in its range, nothing, or (for a hook that returns effects) a map or array.
fn check_literal(
    source: &Source,
    text: &std::sync::Arc<str>,
    pos: engine_rules::Pos,
    name: &str,
    spec: &HookSpec,
    v: &Dynamic,
) -> Option<LoadError> {
    let (lo, hi) = spec.range?;
    let shaped = v.is_unit()
        || v.as_int().is_ok_and(|n| (lo..=hi).contains(&i64::from(n)))
        || (spec.effects && (v.is_map() || v.is_array()));
    if shaped {
        return None;
    }
    let what = if v.is_int() {
        format!("returns {v}, outside {lo}..={hi}")
    } else {
        format!("returns a {}, not an integer", v.type_name())
    };
    Some(LoadError::at_pos(source, text, pos, format!("hook `{name}` {what}")).help(format!("{name}: {}", spec.doc)))
}

/// The span of function `name`'s body, as (line, column) pairs.
pub(crate) fn body_span(ast: &AST, name: &str) -> Option<(LineCol, LineCol, String)> {
    let def = ast.iter_fn_def().find(|f| f.name == name)?;
    let param = def.params.first().map(ToString::to_string).unwrap_or_default();
    Some((key(def.body.start_position()), key(def.body.end_position()), param))
}

/// A (line, column) pair that orders positions in a file.
pub(crate) type LineCol = (usize, usize);

pub(crate) fn key(p: Position) -> LineCol {
    (p.line().unwrap_or(0), p.position().unwrap_or(0))
}

/// A function body in which a parameter stands for a hook's `ctx`: the
/// hook's own, or a helper's of the script that it is passed to (see
/// [`ctx_bodies`]). A helper given `ctx` twice (`both(ctx, ctx)`) has an
/// entry per parameter: a use is `ctx` when its name is one of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CtxBody {
    /// Where the body starts and ends.
    pub(crate) span: (LineCol, LineCol),
    /// The parameter that stands for `ctx` there.
    pub(crate) param: String,
}

impl CtxBody {
    /// True when the walk's `path` is inside this body.
    pub(crate) fn holds(&self, path: &[rhai::ASTNode]) -> bool {
        path.first().is_some_and(|n| (self.span.0..=self.span.1).contains(&key(n.position())))
    }
}

/// Most bodies [`ctx_bodies`] follows before it gives up (the hook is then read as taking `ctx` whole).
const MOST_CTX_BODIES: usize = 16;

/// The script function that `call` calls (a helper of the script's own, by
/// name and number of arguments), if it is one and takes no captured scope.
fn helper_of<'a>(ast: &'a AST, call: &rhai::FnCallExpr) -> Option<&'a rhai::ScriptFuncDef> {
    if call.capture_parent_scope || call.is_operator_call() {
        return None;
    }
    ast.iter_fn_def().find(|f| f.name == call.name && f.params.len() == call.args.len()).map(|f| &**f)
}

/// The helper and the place among its arguments of the variable at the end
/// of `path`, when it is passed bare to one of the script's own functions
/// (`reserved(ctx)`).
fn passed_to_helper<'a>(ast: &'a AST, path: &[rhai::ASTNode]) -> Option<(&'a rhai::ScriptFuncDef, usize)> {
    use rhai::{ASTNode, Expr, Stmt};
    // A call is an expression, or a statement of its own (`helper(ctx);`).
    let (call, var) = match path {
        [.., ASTNode::Expr(Expr::FnCall(call, _)), ASTNode::Expr(var @ Expr::Variable(..))] => (call, var),
        [.., ASTNode::Stmt(Stmt::FnCall(call, _)), ASTNode::Expr(var @ Expr::Variable(..))] => (call, var),
        _ => return None,
    };
    let def = helper_of(ast, call)?;
    let at = call.args.iter().position(|a| a.position() == var.position())?;
    Some((def, at))
}

/// Function `name`'s body with its first parameter, and the body of every
/// helper of the script that a body in the list passes that parameter to
/// bare (`fn reserved(ctx) { … }` called as `reserved(ctx)`), with the
/// parameter it arrives as: what a hook reads through its helpers is what it
/// reads. `None` when there is no such function or the helpers go too deep.
pub(crate) fn ctx_bodies(ast: &AST, name: &str) -> Option<Vec<CtxBody>> {
    use rhai::{ASTNode, Expr};
    let (start, end, param) = body_span(ast, name)?;
    let mut bodies = vec![CtxBody { span: (start, end), param }];
    let mut i = 0;
    while i < bodies.len() {
        let body = bodies[i].clone();
        let mut found: Vec<CtxBody> = Vec::new();
        ast.walk(&mut |path: &[ASTNode]| {
            if !body.holds(path) {
                return true;
            }
            if let Some(ASTNode::Expr(Expr::Variable(v, ..))) = path.last()
                && v.1 == body.param.as_str()
                && let Some((def, at)) = passed_to_helper(ast, path)
            {
                let span = (key(def.body.start_position()), key(def.body.end_position()));
                found.push(CtxBody { span, param: def.params[at].to_string() });
            }
            true
        });
        for b in found {
            if !bodies.contains(&b) {
                bodies.push(b);
            }
        }
        if bodies.len() > MOST_CTX_BODIES {
            return None;
        }
        i += 1;
    }
    Some(bodies)
}

/// The properties function `name` reads from its first parameter (`ctx.target` →
/// `target`), there and in the helpers it passes it to ([`ctx_bodies`]), or
/// `None` if it uses the parameter in any other way (a method call, passing
/// it on to anything else). A hook that reads only some properties is a
/// function of them, which lets the caller tabulate it.
fn param_reads(ast: &AST, name: &str) -> Option<Vec<String>> {
    use rhai::{ASTNode, Expr};
    let bodies = ctx_bodies(ast, name)?;
    let mut reads: Vec<String> = Vec::new();
    let mut other_use = false;
    ast.walk(&mut |path: &[ASTNode]| {
        let Some(ASTNode::Expr(Expr::Variable(v, ..))) = path.last() else { return true };
        // A body may hold `ctx` under more than one name (`both(ctx, ctx)`).
        let Some(body) = bodies.iter().find(|b| b.param == v.1.as_str() && b.holds(path)) else { return true };
        let param = &body.param;
        // Passed to a helper: what the helper reads of it is read where the helper's body is walked.
        if passed_to_helper(ast, path).is_some() {
            return true;
        }
        let prop = match path.iter().rev().nth(1) {
            Some(ASTNode::Expr(Expr::Dot(bin, ..))) if matches!(&bin.lhs, Expr::Variable(x, ..) if x.1 == param.as_str()) => {
                match &bin.rhs {
                    Expr::Property(p, _) => Some(p.2.to_string()),
                    // A method of the context (`ctx.count_kind("x")`) reads what it is named for.
                    Expr::MethodCall(call, _) => Some(call.name.to_string()),
                    Expr::Dot(inner, ..) | Expr::Index(inner, ..) => match &inner.lhs {
                        Expr::Property(p, _) => Some(p.2.to_string()),
                        Expr::MethodCall(call, _) => Some(call.name.to_string()),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        };
        match prop {
            Some(p) if !reads.contains(&p) => reads.push(p),
            Some(_) => {}
            None => other_use = true,
        }
        true
    });
    (!other_use).then_some(reads)
}

/// Calls `f` with what follows the parameter in each chain function `name`
/// reads from it (`ctx.table.seats[0]` → `table.seats[0]`): the walk that
/// [`member_keys`] and the others share. `None` when there is no such function.
fn param_chains(ast: &AST, name: &str, f: &mut dyn FnMut(&rhai::Expr, &str)) -> Option<()> {
    use rhai::{ASTNode, Expr};
    let bodies = ctx_bodies(ast, name)?;
    ast.walk(&mut |path: &[ASTNode]| {
        let Some(ASTNode::Expr(Expr::Variable(v, ..))) = path.last() else { return true };
        let Some(body) = bodies.iter().find(|b| b.param == v.1.as_str() && b.holds(path)) else { return true };
        let param = body.param.as_str();
        let Some(ASTNode::Expr(Expr::Dot(bin, ..))) = path.iter().rev().nth(1) else { return true };
        if matches!(&bin.lhs, Expr::Variable(x, ..) if x.1 == param) {
            f(&bin.rhs, param);
        }
        true
    });
    Some(())
}

/// What function `name` of `ast` reads of its parameter's `member` (see
/// [`ScriptHost::keys_read`]): the keys, each with the keys it reads of the
/// map there when that is all it does with it.
fn keys_read(ast: &AST, name: &str, member: &str) -> Option<reads::KeysRead> {
    let below = |key: &str| {
        let r = elements::element_reads(ast, name, member, key, false, &[])?;
        // A key only counted (`ctx.event.cards.len()`) is written whole: a list's length is not a key.
        r.counted.is_empty().then(|| reads::KeysRead(r.keys.into_iter().map(|k| (k, None)).collect()))
    };
    let keys = member_keys(ast, name, member)?;
    Some(reads::KeysRead(keys.into_iter().map(|k| (below(&k), k)).map(|(b, k)| (k, b)).collect()))
}

/// The keys function `name` reads of `ctx.<member>` (`ctx.table.seats[0]`
/// → `seats`), when it does nothing else with that member and only reads
/// properties of its parameter; `None` otherwise (`let t = ctx.table`,
/// `ctx.table.keys()`, `ctx` passed on): the caller then makes the member
/// whole. A game makes only the keys read of a large member.
pub(crate) fn member_keys(ast: &AST, name: &str, member: &str) -> Option<Vec<String>> {
    use rhai::Expr;
    param_reads(ast, name)?;
    let mut keys: Vec<String> = Vec::new();
    let mut whole = false;
    param_chains(ast, name, &mut |rhs, _| {
        let is_member = |e: &Expr| matches!(e, Expr::Property(p, _) if p.2.as_str() == member);
        match rhs {
            e if is_member(e) => whole = true,
            Expr::Index(inner, ..) if is_member(&inner.lhs) => whole = true,
            Expr::Dot(inner, ..) if is_member(&inner.lhs) => {
                let read = match &inner.rhs {
                    Expr::Property(k, _) => Some(&k.2),
                    Expr::Dot(next, ..) | Expr::Index(next, ..) => match &next.lhs {
                        Expr::Property(k, _) => Some(&k.2),
                        _ => None,
                    },
                    _ => None,
                };
                match read {
                    Some(k) if !keys.iter().any(|x| x == k.as_str()) => keys.push(k.to_string()),
                    Some(_) => {}
                    None => whole = true,
                }
            }
            _ => {}
        }
    })?;
    (!whole).then_some(keys)
}

/// True when function `name` reads `ctx.<member>.<list>` at least once and
/// only ever as `ctx.<member>.<list>[ctx.<by>]` (`ctx.table.seats[ctx.seat]`,
/// then anything), and does nothing else with `ctx.<member>` but read keys
/// (see [`member_keys`]). Any other index (`[0]`, `[s]`, `[(ctx.seat + 1) % n]`),
/// a walk or a method on the list: false.
fn indexed_by_only(ast: &AST, name: &str, member: &str, list: &str, by: &str) -> bool {
    use rhai::{ASTFlags, Expr};
    if member_keys(ast, name, member).is_none() {
        return false;
    }
    let is = |e: &Expr, k: &str| matches!(e, Expr::Property(p, _) if p.2.as_str() == k);
    // `ctx.<by>`, exactly (`ctx` as the body where it is read calls it).
    let by_param = |e: &Expr, param: &str| match e {
        Expr::Dot(bin, ..) => matches!(&bin.lhs, Expr::Variable(v, ..) if v.1 == param) && is(&bin.rhs, by),
        _ => false,
    };
    let (mut uses, mut other) = (0, false);
    param_chains(ast, name, &mut |rhs, param| {
        let Expr::Dot(inner, ..) = rhs else { return };
        if !is(&inner.lhs, member) {
            return;
        }
        let index = match &inner.rhs {
            e if is(e, list) => None,
            Expr::Dot(next, ..) if is(&next.lhs, list) => None,
            // With BREAK the right side is the index; without, a chain whose left is the index.
            Expr::Index(next, flags, ..) if is(&next.lhs, list) => match &next.rhs {
                index if flags.contains(ASTFlags::BREAK) => Some(index),
                Expr::Dot(element, ..) | Expr::Index(element, ..) => Some(&element.lhs),
                _ => None,
            },
            _ => return,
        };
        uses += 1;
        other |= !index.is_some_and(|i| by_param(i, param));
    });
    uses > 0 && !other
}

/// `e` is `len()`: a count of a list (or map), and nothing else of it.
pub(crate) fn is_len(e: &rhai::Expr) -> bool {
    matches!(e, rhai::Expr::MethodCall(call, _) if call.name == "len" && call.args.is_empty())
}

/// True when function `name` uses `ctx.<member>` at least once and only ever
/// as `ctx.<member>.len()`, and does nothing with `ctx` but read its
/// properties: its items cannot matter to it, only how many there are. Any
/// other use (`ctx.hand[0]`, `for m in ctx.hand`, `let h = ctx.hand`, the
/// `len` property, `ctx.hand.len(x)`, `ctx.hand.len().max(1)`): false.
fn counted_only(ast: &AST, name: &str, member: &str) -> bool {
    use rhai::Expr;
    if param_reads(ast, name).is_none() {
        return false;
    }
    let (mut uses, mut other) = (0, false);
    let walked = param_chains(ast, name, &mut |rhs, _| {
        let is_member = |e: &Expr| matches!(e, Expr::Property(p, _) if p.2.as_str() == member);
        match rhs {
            e if is_member(e) => other = true,
            Expr::Index(inner, ..) if is_member(&inner.lhs) => other = true,
            Expr::Dot(inner, ..) if is_member(&inner.lhs) => {
                uses += 1;
                let counted = is_len(&inner.rhs);
                other |= !counted;
            }
            _ => {}
        }
    });
    walked.is_some() && uses > 0 && !other
}

/// The value of function `name` when its whole body is one literal expression.
/// Such a function cannot depend on its arguments, so its value can be cached.
fn literal_body(ast: &AST, name: &str) -> Option<Dynamic> {
    let (start, end, _) = body_span(ast, name)?;
    let mut top = 0;
    let mut value = None;
    // The walk visits every function; a top-level node inside this body's span is one of its statements.
    ast.walk(&mut |path: &[rhai::ASTNode]| {
        if let [node] = path
            && (start..=end).contains(&key(node.position()))
        {
            top += 1;
            value = match node {
                rhai::ASTNode::Stmt(rhai::Stmt::Expr(e)) => e.get_literal_value(None),
                // `throw x` is a Return with the BREAK flag: an error, not a value.
                rhai::ASTNode::Stmt(rhai::Stmt::Return(Some(e), flags, _))
                    if !flags.contains(rhai::ASTFlags::BREAK) =>
                {
                    e.get_literal_value(None)
                }
                rhai::ASTNode::Expr(e) => e.get_literal_value(None),
                _ => None,
            };
        }
        true
    });
    if top == 1 { value } else { None }
}

fn pos(p: Position) -> Pos {
    Pos { line: p.line().unwrap_or(0), col: p.position().unwrap_or(0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_only_counted_is_found_and_any_other_use_is_not() {
        let counted = |body: &str| {
            let ast = rhai::Engine::new().compile(format!("fn h(ctx) {{ {body} }}")).unwrap();
            counted_only(&ast, "h", "hand")
        };
        assert!(counted("let n = ctx.hand.len(); if n > 8 { n - 8 } else { () }"));
        assert!(counted("if ctx.card.nth != 0 || ctx.hand.len() == 0 { return (); } ctx.hand.len() + ctx.seat"));
        for body in [
            "ctx.seat",
            "ctx.hand",
            "let h = ctx.hand; h.len()",
            "ctx.hand.len() + ctx.hand[0].value",
            "ctx.hand[0]",
            "let n = 0; for m in ctx.hand { n += m.value; } n",
            "ctx.hand.len",
            "ctx.hand.len().max(1)",
            "ctx.hand.filter(|m| m.value > 2).len()",
            "ctx.hand.len() + f(ctx)",
            "ctx.hand.len() + ctx.hand.contains(1)",
        ] {
            assert!(!counted(body), "{body}");
        }
    }

    #[test]
    fn the_keys_read_of_a_member_are_found_and_any_other_use_makes_it_whole() {
        let keys = |body: &str| {
            let ast = rhai::Engine::new().compile(format!("fn h(ctx) {{ {body} }}")).unwrap();
            member_keys(&ast, "h", "table")
        };
        let some = |k: &[&str]| Some(k.iter().map(|k| (*k).to_owned()).collect::<Vec<_>>());
        assert_eq!(keys("ctx.table.currencies"), some(&["currencies"]));
        assert_eq!(keys("ctx.table.seats[ctx.seat].reserve.len() + ctx.table.seats.len()"), some(&["seats"]));
        assert_eq!(
            keys("for p in ctx.table.seats { p.money } ctx.table.neutral.counts.x + ctx.seat"),
            some(&["seats", "neutral"])
        );
        assert_eq!(keys("let d = ctx.table.building_display; d[0]"), some(&["building_display"]));
        assert_eq!(keys("ctx.seat + 1"), some(&[]));
        for whole in ["let t = ctx.table; t.seats", "ctx.table.keys()", "ctx.table[\"seats\"]", "f(ctx)", "ctx.table"] {
            assert_eq!(keys(whole), None, "{whole}");
        }
    }

    #[test]
    fn the_keys_read_of_an_event_and_of_a_map_it_holds_are_found() {
        use reads::KeysRead;
        let read = |body: &str| {
            let ast = rhai::Engine::new().compile(format!("fn g(b) {{ b.price }} fn h(ctx) {{ {body} }}")).unwrap();
            keys_read(&ast, "h", "event")
        };
        let of = |k: &str, below: Option<&[&str]>| {
            (k.to_owned(), below.map(|b| KeysRead(b.iter().map(|k| ((*k).to_owned(), None)).collect())))
        };
        assert_eq!(read("ctx.event.building.type"), Some(KeysRead(vec![of("building", Some(&["type"]))])));
        assert_eq!(
            read("let b = ctx.event.building; if b != () { b.type + g(b) } else { ctx.event.slot }"),
            Some(KeysRead(vec![of("building", Some(&["type", "price"])), of("slot", None)]))
        );
        // A map handed to a function that is not the script's own, walked, or counted: whole.
        for whole in ["type_of(ctx.event.building)", "for c in ctx.event.cards { c }", "ctx.event.cards.len()"] {
            let found = read(whole).unwrap_or_else(|| panic!("{whole}: keys of the event read"));
            assert_eq!(found.0.len(), 1, "{whole}");
            assert_eq!(found.0[0].1, None, "{whole}: the key's value whole");
        }
        for all in ["let e = ctx.event; e.slot", "ctx.event.keys()", "ctx.event"] {
            assert_eq!(read(all), None, "{all}");
        }
    }

    #[test]
    fn a_list_read_only_at_the_owner_s_seat_is_found() {
        let own = |body: &str| {
            let ast =
                rhai::Engine::new().compile(format!("fn total(s) {{ s.b.len() }} fn h(ctx) {{ {body} }}")).unwrap();
            indexed_by_only(&ast, "h", "table", "seats", "seat")
        };
        for only in [
            "if ctx.table.seats[ctx.seat].reserve.len() >= 1 { return []; } ctx.table.seats[ctx.seat].reserve",
            "let n = 0; for b in ctx.table.seats[ctx.seat].buildings { n += b.price; } n + ctx.table.turn",
            "total(ctx.table.seats[ctx.seat]) + ctx.table.seats[ctx.seat].counts.x",
            "ctx.table.seats[ctx.seat][\"money\"]",
        ] {
            assert!(own(only), "{only}");
        }
        for not_only in [
            "ctx.table.turn",
            "ctx.table.seats[0].money",
            "ctx.table.seats[ctx.seat].money + ctx.table.seats[(ctx.seat + 1) % ctx.players].money",
            "let me = ctx.seat; ctx.table.seats[me].money",
            "for s in ctx.table.seats { s.money }",
            "ctx.table.seats.len() + ctx.table.seats[ctx.seat].money",
            "ctx.table.seats[ctx.actor].money",
            "let t = ctx.table; t.seats[ctx.seat].money",
            "total(ctx.table)",
        ] {
            assert!(!own(not_only), "{not_only}");
        }
    }

    #[test]
    fn a_thread_keeps_to_its_shard_and_threads_spread_over_several() {
        let shards: Shards<u32> = Shards::default();
        let mine = |s: &Shards<u32>| std::ptr::from_ref(s.mine()) as usize;
        assert_eq!(mine(&shards), mine(&shards));
        let seen: std::collections::HashSet<usize> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..8).map(|_| sc.spawn(|| mine(&shards))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(seen.len() >= 4, "8 threads on {} shards", seen.len());
    }

    #[test]
    fn a_full_memo_stops_remembering_and_a_full_list_memo_starts_afresh() {
        let answer = |n: i32| move || Ok::<_, ScriptError>(Some(Dynamic::from(n)));
        let len = |memo: &Shards<rustc_hash::FxHashMap<u32, Dynamic>>| memo.mine().read().unwrap().len();
        let stop: Shards<rustc_hash::FxHashMap<u32, Dynamic>> = Shards::default();
        for k in 0..MEMO_CAPACITY as u32 + 10 {
            remember(&stop, k, Full::Stop, answer(1)).unwrap();
        }
        assert_eq!(len(&stop), MEMO_CAPACITY);
        // A remembered key is answered without calling.
        let v = remember(&stop, 3, Full::Stop, || -> Result<_, ScriptError> { panic!("called") }).unwrap().unwrap();
        assert_eq!(v.as_int().unwrap(), 1);
        let clear: Shards<rustc_hash::FxHashMap<u32, Dynamic>> = Shards::default();
        for k in 0..LIST_MEMO_CAPACITY as u32 + 10 {
            remember(&clear, k, Full::Clear, answer(2)).unwrap();
        }
        assert_eq!(len(&clear), 10, "started afresh at the capacity, then kept the next ten");
        assert_eq!(recall(&clear, &(LIST_MEMO_CAPACITY as u32 + 9)).and_then(|v| v.as_int().ok()), Some(2));
        assert!(recall(&clear, &0).is_none());
    }

    #[test]
    fn literal_bodies_are_detected_and_others_are_not() {
        let engine = Engine::new_raw();
        let ast = engine
            .compile("fn a(ctx) { 12 } fn b(ctx) { #{ keep: 1 } } fn c(ctx) { ctx.hand } fn d(ctx) { let x = 1; x }")
            .unwrap();
        assert_eq!(literal_body(&ast, "a").and_then(|v| v.as_int().ok()), Some(12));
        assert!(literal_body(&ast, "b").is_some_and(|v| v.is_map()));
        assert!(literal_body(&ast, "c").is_none());
        assert!(literal_body(&ast, "d").is_none());
        let thrown = engine.compile("fn t(ctx) { throw 5; }").unwrap();
        assert!(literal_body(&thrown, "t").is_none(), "a thrown value is an error, not the hook's value");
    }

    #[test]
    fn parameter_reads_are_listed_and_other_uses_are_not() {
        let engine = Engine::new_raw();
        let ast = engine
            .compile(
                "fn a(ctx) { if ctx.target.kind == \"holding\" { 1 } else { 0 } }
                 fn b(ctx) { if ctx.over == () { 0 } else { ctx.over.cost } }
                 fn c(ctx) { ctx.count_kind(\"holding\") }
                 fn d(ctx) { helper(ctx) }
                 fn helper(x) { 1 }",
            )
            .unwrap();
        assert_eq!(param_reads(&ast, "a"), Some(vec!["target".to_owned()]));
        assert_eq!(param_reads(&ast, "b"), Some(vec!["over".to_owned()]));
        // A method of the context reads what it is named for (no scalar: never remembered).
        assert_eq!(param_reads(&ast, "c"), Some(vec!["count_kind".to_owned()]));
        // A helper given `ctx` that does nothing with it: nothing read.
        assert_eq!(param_reads(&ast, "d"), Some(vec![]));
    }

    #[test]
    fn what_a_hook_reads_through_its_helpers_is_what_it_reads() {
        let ast = Engine::new_raw()
            .compile(
                "fn e(ctx) { if ctx.role != \"builder\" || reserved(ctx) >= 2 { 0 } else { ctx.hand } }
                 fn reserved(c) { c.table.players[c.seat].reserve.len() }
                 fn p(ctx) { two(1, ctx) }
                 fn two(a, b) { b.round + a }
                 fn r(ctx) { rec(ctx, 3) }
                 fn rec(c, n) { if n == 0 { c.round } else { rec(c, n - 1) } }
                 fn native(ctx) { type_of(ctx) }
                 fn returned(ctx) { same(ctx).hand }
                 fn same(x) { x }
                 fn walked(ctx) { let n = 0; for s in seats(ctx) { n += 1; } n }
                 fn seats(c) { c.table.players }",
            )
            .unwrap();
        let sorted = |name: &str| {
            param_reads(&ast, name).map(|mut r| {
                r.sort();
                r
            })
        };
        assert_eq!(sorted("e"), Some(["hand", "role", "seat", "table"].map(String::from).into()));
        assert_eq!(member_keys(&ast, "e", "table"), Some(vec!["players".to_owned()]));
        assert!(indexed_by_only(&ast, "e", "table", "players", "seat"), "the helper reads its own seat only");
        let seats = elements::element_reads(&ast, "e", "table", "players", true, &[]).unwrap();
        assert_eq!((seats.keys, seats.counted), (vec!["reserve".to_owned()], vec!["reserve".to_owned()]));
        assert_eq!(sorted("p"), Some(vec!["round".to_owned()]), "`ctx` as a helper's second argument");
        // Given twice, under two names: what is read through either is read.
        let twice = Engine::new_raw()
            .compile("fn h(ctx) { both(ctx, ctx) }\nfn both(a, b) { a.round + b.table.players[b.seat].hand }")
            .unwrap();
        let mut reads = param_reads(&twice, "h").unwrap();
        reads.sort();
        assert_eq!(reads, ["round", "seat", "table"]);
        assert_eq!(member_keys(&twice, "h", "table"), Some(vec!["players".to_owned()]));
        assert!(indexed_by_only(&twice, "h", "table", "players", "seat"));
        assert_eq!(sorted("r"), Some(vec!["round".to_owned()]), "a helper that calls itself");
        // Given to a function not the script's, or returned by a helper: taken whole.
        assert_eq!(param_reads(&ast, "native"), None);
        assert_eq!(param_reads(&ast, "returned"), None);
        // A list a helper returns to the hook: its elements are taken whole.
        assert_eq!(member_keys(&ast, "walked", "table"), Some(vec!["players".to_owned()]));
        assert_eq!(elements::element_reads(&ast, "walked", "table", "players", true, &[]), None);
    }

    #[test]
    fn a_flag_memo_answers_what_was_put_and_forgets_what_did_not_fit() {
        let memo = FlagMemo::new(6);
        // 40 keys in 64 slots, each with its own answer; the largest key that fits.
        let keys: Vec<u64> = (0..39).map(|k| k * 7919 + 1).chain([(1 << 62) - 1]).collect();
        for &k in &keys {
            assert_eq!(memo.get(k), None);
            memo.put(k, k.is_multiple_of(3));
        }
        for &k in &keys {
            assert_eq!(memo.get(k), Some(k.is_multiple_of(3)), "key {k}");
        }
        assert_eq!(memo.get(2), None, "a key never put");
        // Putting a key again keeps one entry: the memo fills only with new keys.
        memo.put(keys[0], keys[0].is_multiple_of(3));
        // Past its slots, keys are not remembered, and those remembered stay right.
        for k in 1000..2000 {
            memo.put(k, true);
        }
        let kept = (1000..2000).filter(|&k| memo.get(k).is_some()).count();
        assert!(kept <= 24, "{kept} remembered in the 24 free slots");
        for &k in &keys {
            assert_eq!(memo.get(k), Some(k.is_multiple_of(3)), "key {k} after the memo filled");
        }
        memo.forget();
        assert!(keys.iter().all(|&k| memo.get(k).is_none()));
    }
}
