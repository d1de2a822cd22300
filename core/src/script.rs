//! The script host: compiles each card's Rhai script once, in a sandbox, and
//! dispatches hook calls only to the cards that define them.
//!
//! Nothing here knows San Juan; the hook list and the context type come from
//! the caller, so another card game can reuse the host.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use smallvec::SmallVec;

use rhai::packages::Package;
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, OptimizationLevel, Position, Scope};

use crate::cards::edit_distance;
use crate::error::{LoadError, Pos, ScriptError};
use crate::files::Source;

/// A hook the core raises: its function name, arity and what it means.
#[derive(Clone, Copy, Debug)]
pub struct HookSpec {
    /// The Rhai function name a script defines to listen.
    pub name: &'static str,
    /// Number of parameters the function must take.
    pub arity: usize,
    /// When it is called and what it returns (for `sanjuan check` and docs).
    pub doc: &'static str,
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
}

impl Default for Limits {
    fn default() -> Self {
        Limits { operations: 200_000, call_levels: 32, size: 10_000 }
    }
}

/// One compiled script.
pub struct Script {
    /// The compiled program.
    pub ast: AST,
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
    /// `memo_props[hook][owner]`: the scalars a hook reads, when that is all it reads:
    /// its value is then a function of them and is remembered per thread.
    memo_props: Vec<Vec<Option<SmallVec<[u8; MEMO_KEY]>>>>,
    /// Tells this host's remembered values from another's.
    id: u64,
    owners: Vec<String>,
}

impl ScriptHost {
    /// A sandboxed engine for these hooks; `register` adds the game's types.
    /// `scalars` names the context properties that are plain values (not lists):
    /// a hook that reads only those is remembered by their values.
    pub fn new(
        hooks: &'static [HookSpec],
        scalars: &'static [&'static str],
        limits: Limits,
        register: impl FnOnce(&mut Engine),
    ) -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
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
        register(&mut engine);
        ScriptHost {
            engine,
            hooks,
            scripts: Vec::new(),
            by_source: HashMap::new(),
            dispatch: vec![Vec::new(); hooks.len()],
            constants: vec![Vec::new(); hooks.len()],
            scalars,
            memo_props: vec![Vec::new(); hooks.len()],
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            owners: Vec::new(),
        }
    }

    /// The hooks this host dispatches.
    pub fn hooks(&self) -> &'static [HookSpec] {
        self.hooks
    }

    /// Registers an owner (a card) with an optional script; returns every problem found.
    pub fn add_owner(&mut self, owner: &str, source: Option<&Source>) -> Vec<LoadError> {
        let idx = self.owners.len();
        self.owners.push(owner.to_owned());
        for table in &mut self.dispatch {
            table.push(None);
        }
        for table in &mut self.constants {
            table.push(None);
        }
        for table in &mut self.memo_props {
            table.push(None);
        }
        let Some(source) = source else { return Vec::new() };
        let script = match self.by_source.get(source) {
            Some(&s) => s,
            None => match self.compile(source) {
                Ok(script) => {
                    self.scripts.push(script);
                    self.by_source.insert(source.clone(), self.scripts.len() - 1);
                    self.scripts.len() - 1
                }
                Err(errors) => return errors,
            },
        };
        let mut errors = Vec::new();
        let text = source.read().unwrap_or_default();
        for f in self.scripts[script].ast.iter_functions() {
            let pos = Pos::of_text(&text, &format!("fn {}", f.name));
            match self.hooks.iter().position(|h| h.name == f.name) {
                Some(h) => {
                    if f.params.len() != self.hooks[h].arity {
                        errors.push(
                            LoadError::at(
                                source,
                                pos,
                                format!(
                                    "hook `{}` of card `{owner}` takes {} parameter(s), but the engine passes {}",
                                    f.name,
                                    f.params.len(),
                                    self.hooks[h].arity
                                ),
                            )
                            .help(format!("write `fn {}(ctx)`; {}", f.name, self.hooks[h].doc)),
                        );
                    } else {
                        self.dispatch[h][idx] = Some(script as u32);
                        let ast = &self.scripts[script].ast;
                        self.constants[h][idx] = literal_body(ast, f.name);
                        self.memo_props[h][idx] = param_reads(ast, f.name).and_then(|reads| {
                            let props: Option<SmallVec<[u8; MEMO_KEY]>> = reads
                                .iter()
                                .map(|r| self.scalars.iter().position(|s| s == r).map(|i| i as u8))
                                .collect();
                            props.filter(|p| p.len() <= MEMO_KEY)
                        });
                    }
                }
                None if f.name.starts_with("on_") => {
                    let near = self
                        .hooks
                        .iter()
                        .map(|h| (edit_distance(f.name, h.name), h.name))
                        .min()
                        .map(|(_, n)| format!("did you mean `{n}`? "))
                        .unwrap_or_default();
                    let all: Vec<_> = self.hooks.iter().map(|h| h.name).collect();
                    errors.push(
                        LoadError::at(source, pos, format!("`{}` is not a hook the engine calls", f.name))
                            .help(format!("{near}hooks: {}", all.join(", "))),
                    );
                }
                None => {} // a helper function; fine
            }
        }
        errors
    }

    fn compile(&self, source: &Source) -> Result<Script, Vec<LoadError>> {
        let text = source.read().map_err(|e| vec![e])?;
        let mut ast = self.engine.compile(&text).map_err(|e| {
            vec![
                LoadError::at(source, pos(e.position()), format!("script does not compile: {}", e.err_type()))
                    .help("Rhai syntax: https://rhai.rs/book/ ; variables must be declared with `let`"),
            ]
        })?;
        ast.set_source(source.to_string());
        Ok(Script { ast, source: source.clone() })
    }

    /// True when `owner` listens to `hook`.
    #[inline]
    pub fn listens(&self, hook: usize, owner: usize) -> bool {
        self.dispatch[hook].get(owner).is_some_and(Option::is_some)
    }

    /// A bit per hook `owner` listens to.
    pub fn owner_mask(&self, owner: usize) -> u32 {
        self.dispatch
            .iter()
            .enumerate()
            .filter(|(_, d)| d.get(owner).is_some_and(Option::is_some))
            .fold(0, |m, (h, _)| m | 1 << h)
    }

    /// The script file of an owner, if it has one for `hook`.
    pub fn source_of(&self, hook: usize, owner: usize) -> Option<&Source> {
        self.dispatch[hook][owner].map(|s| &self.scripts[s as usize].source)
    }

    /// The properties `owner`'s `hook` reads from its parameter, if that is all it does with it.
    pub fn reads(&self, hook: usize, owner: usize) -> Option<Vec<String>> {
        let script = self.dispatch[hook][owner]?;
        param_reads(&self.scripts[script as usize].ast, self.hooks[hook].name)
    }

    /// The scalar properties `owner`'s `hook` reads, when those are all it reads.
    pub fn memo_reads(&self, hook: usize, owner: usize) -> Option<Vec<&'static str>> {
        let props = self.memo_props[hook].get(owner)?.as_ref()?;
        Some(props.iter().map(|&p| self.scalars[usize::from(p)]).collect())
    }

    /// The value of a hook whose body is a literal, if it is one.
    #[inline]
    pub fn constant(&self, hook: usize, owner: usize) -> Option<&Dynamic> {
        self.constants[hook][owner].as_ref()
    }

    /// Calls `hook` for `owner` with the context `ctx` (turned into the script's
    /// argument by `wrap`); `Ok(None)` when it does not listen. A literal-bodied
    /// hook returns its literal; a hook that reads only scalar properties
    /// (`scalar(ctx, i)` gives the i-th of `scalars`) is computed once per thread
    /// for each combination of their values.
    pub fn call_memo<T>(
        &self,
        hook: usize,
        owner: usize,
        ctx: T,
        scalar: impl Fn(&T, usize) -> i32,
        wrap: impl FnOnce(T) -> Dynamic,
    ) -> Result<Option<Dynamic>, ScriptError> {
        if !self.listens(hook, owner) {
            return Ok(None);
        }
        if let Some(v) = self.constant(hook, owner) {
            return Ok(Some(v.clone()));
        }
        let Some(props) = &self.memo_props[hook][owner] else { return self.call(hook, owner, wrap(ctx)) };
        let mut values = [0i32; MEMO_KEY];
        for (slot, &p) in values.iter_mut().zip(props) {
            *slot = scalar(&ctx, usize::from(p));
        }
        let key = MemoKey { host: self.id, hook: hook as u16, owner: owner as u32, values };
        if let Some(v) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
            return Ok(Some(v));
        }
        let value = self.call(hook, owner, wrap(ctx))?;
        if let Some(v) = &value {
            MEMO.with(|m| m.borrow_mut().insert(key, v.clone()));
        }
        Ok(value)
    }

    /// Calls `hook` for `owner` with one argument; `Ok(None)` when it does not listen.
    pub fn call(&self, hook: usize, owner: usize, arg: Dynamic) -> Result<Option<Dynamic>, ScriptError> {
        let Some(script) = self.dispatch[hook][owner] else { return Ok(None) };
        let _timer = profile::Timer::start();
        let script = &self.scripts[script as usize];
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        self.engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &script.ast, self.hooks[hook].name, (arg,))
            .map(Some)
            .map_err(|e| self.error(hook, owner, &script.source, &e))
    }

    /// A script error that names card, file, hook and line:column.
    pub fn error(&self, hook: usize, owner: usize, source: &Source, e: &EvalAltResult) -> ScriptError {
        let hint = match e {
            EvalAltResult::ErrorTooManyOperations(_) => " (the script ran too long: look for a loop that never ends)",
            _ => "",
        };
        let mut at = pos(e.position());
        if at.line == 0 {
            // Some errors (too many operations) carry no position: point at the hook.
            let text = source.read().unwrap_or_default();
            at = Pos::of_text(&text, &format!("fn {}", self.hooks[hook].name));
        }
        ScriptError {
            card: self.owners[owner].clone(),
            file: source.to_string(),
            hook: self.hooks[hook].name.to_owned(),
            pos: at,
            message: format!("{e}{hint}"),
        }
    }

    /// A wrong return value, reported like a script error.
    pub fn bad_return(&self, hook: usize, owner: usize, what: &str) -> ScriptError {
        let file = self.source_of(hook, owner).map(ToString::to_string).unwrap_or_default();
        ScriptError {
            card: self.owners[owner].clone(),
            file,
            hook: self.hooks[hook].name.to_owned(),
            pos: Pos::default(),
            message: format!("{what}; {}", self.hooks[hook].doc),
        }
    }
}

/// Most scalar properties a remembered hook may read.
const MEMO_KEY: usize = 4;

/// A remembered hook value: which host, hook and owner, and the values it read.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct MemoKey {
    host: u64,
    hook: u16,
    owner: u32,
    values: [i32; MEMO_KEY],
}

thread_local! {
    /// Per thread, so games on many threads never contend for it.
    static MEMO: RefCell<rustc_hash::FxHashMap<MemoKey, Dynamic>> = RefCell::new(rustc_hash::FxHashMap::default());
}

/// Optional timing of script calls, per thread, for `sanjuan bench`.
pub mod profile {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    static ON: AtomicBool = AtomicBool::new(false);
    thread_local! {
        static CALLS: Cell<u64> = const { Cell::new(0) };
        static NANOS: Cell<u64> = const { Cell::new(0) };
    }

    /// Turns timing on or off for every thread.
    pub fn enable(on: bool) {
        ON.store(on, Ordering::Relaxed);
    }

    /// Script calls and nanoseconds spent in them on this thread since the last call.
    pub fn take() -> (u64, u64) {
        (CALLS.with(|c| c.replace(0)), NANOS.with(|n| n.replace(0)))
    }

    /// Measures one call while alive.
    pub(crate) struct Timer(Option<Instant>);

    impl Timer {
        pub(crate) fn start() -> Timer {
            Timer(ON.load(Ordering::Relaxed).then(Instant::now))
        }
    }

    impl Drop for Timer {
        fn drop(&mut self) {
            if let Some(t) = self.0 {
                CALLS.with(|c| c.set(c.get() + 1));
                NANOS.with(|n| n.set(n.get() + t.elapsed().as_nanos() as u64));
            }
        }
    }
}

/// The span of function `name`'s body, as (line, column) pairs.
fn body_span(ast: &AST, name: &str) -> Option<(LineCol, LineCol, String)> {
    let def = ast.iter_fn_def().find(|f| f.name == name)?;
    let param = def.params.first().map(ToString::to_string).unwrap_or_default();
    Some((key(def.body.start_position()), key(def.body.end_position()), param))
}

/// A (line, column) pair that orders positions in a file.
type LineCol = (usize, usize);

fn key(p: Position) -> LineCol {
    (p.line().unwrap_or(0), p.position().unwrap_or(0))
}

/// The properties function `name` reads from its first parameter (`ctx.target` →
/// `target`), or `None` if it uses the parameter in any other way (a method
/// call, passing it on). A hook that reads only some properties is a function
/// of them, which lets the caller tabulate it.
fn param_reads(ast: &AST, name: &str) -> Option<Vec<String>> {
    use rhai::{ASTNode, Expr};
    let (start, end, param) = body_span(ast, name)?;
    let mut reads: Vec<String> = Vec::new();
    let mut other_use = false;
    ast.walk(&mut |path: &[ASTNode]| {
        if !path.first().is_some_and(|n| (start..=end).contains(&key(n.position()))) {
            return true;
        }
        let Some(ASTNode::Expr(Expr::Variable(v, ..))) = path.last() else { return true };
        if v.1 != param.as_str() {
            return true;
        }
        let prop = match path.iter().rev().nth(1) {
            Some(ASTNode::Expr(Expr::Dot(bin, ..))) if matches!(&bin.lhs, Expr::Variable(x, ..) if x.1 == param.as_str()) => {
                match &bin.rhs {
                    Expr::Property(p, _) => Some(p.2.to_string()),
                    Expr::Dot(inner, ..) | Expr::Index(inner, ..) => match &inner.lhs {
                        Expr::Property(p, _) => Some(p.2.to_string()),
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
                rhai::ASTNode::Stmt(rhai::Stmt::Return(Some(e), ..)) => e.get_literal_value(None),
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
    fn literal_bodies_are_detected_and_others_are_not() {
        let engine = Engine::new_raw();
        let ast = engine
            .compile("fn a(ctx) { 12 } fn b(ctx) { #{ keep: 1 } } fn c(ctx) { ctx.hand } fn d(ctx) { let x = 1; x }")
            .unwrap();
        assert_eq!(literal_body(&ast, "a").and_then(|v| v.as_int().ok()), Some(12));
        assert!(literal_body(&ast, "b").is_some_and(|v| v.is_map()));
        assert!(literal_body(&ast, "c").is_none());
        assert!(literal_body(&ast, "d").is_none());
    }

    #[test]
    fn parameter_reads_are_listed_and_other_uses_are_not() {
        let engine = Engine::new_raw();
        let ast = engine
            .compile(
                "fn a(ctx) { if ctx.target.kind == \"city\" { 1 } else { 0 } }
                 fn b(ctx) { if ctx.over == () { 0 } else { ctx.over.cost } }
                 fn c(ctx) { ctx.count_kind(\"city\") }
                 fn d(ctx) { helper(ctx) }
                 fn helper(x) { 1 }",
            )
            .unwrap();
        assert_eq!(param_reads(&ast, "a"), Some(vec!["target".to_owned()]));
        assert_eq!(param_reads(&ast, "b"), Some(vec!["over".to_owned()]));
        assert_eq!(param_reads(&ast, "c"), None);
        assert_eq!(param_reads(&ast, "d"), None);
    }
}
