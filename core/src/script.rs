//! The script host: compiles each card's Rhai script once, in a sandbox, and
//! dispatches hook calls only to the cards that define them.
//!
//! Nothing here knows San Juan; the hook list and the context type come from
//! the caller, so another card game can reuse the host.

use std::collections::HashMap;

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
    owners: Vec<String>,
}

impl ScriptHost {
    /// A sandboxed engine for these hooks; `register` adds the game's types.
    pub fn new(hooks: &'static [HookSpec], limits: Limits, register: impl FnOnce(&mut Engine)) -> Self {
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

    /// True when any owner listens to `hook`.
    pub fn anyone_listens(&self, hook: usize) -> bool {
        self.dispatch[hook].iter().any(Option::is_some)
    }

    /// The script file of an owner, if it has one for `hook`.
    pub fn source_of(&self, hook: usize, owner: usize) -> Option<&Source> {
        self.dispatch[hook][owner].map(|s| &self.scripts[s as usize].source)
    }

    /// Calls `hook` for `owner` with one argument; `Ok(None)` when it does not listen.
    pub fn call(&self, hook: usize, owner: usize, arg: Dynamic) -> Result<Option<Dynamic>, ScriptError> {
        let Some(script) = self.dispatch[hook][owner] else { return Ok(None) };
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
            EvalAltResult::ErrorTooManyOperations(_) => {
                " (the script ran too long: look for a loop that never ends)"
            }
            _ => "",
        };
        ScriptError {
            card: self.owners[owner].clone(),
            file: source.to_string(),
            hook: self.hooks[hook].name.to_owned(),
            pos: pos(e.position()),
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

fn pos(p: Position) -> Pos {
    Pos { line: p.line().unwrap_or(0), col: p.position().unwrap_or(0) }
}
