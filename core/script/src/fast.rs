//! A fast path for the hooks most card scripts are: `let`s, `if`s and loops,
//! reads of `ctx`, arithmetic, lists, maps and text, and calls to the game's
//! functions, the script's own helpers, and of Rhai's built-in functions
//! `push`, `len`, `contains`, `keys`, `values`, `max`, `min`, `abs`, `sign`,
//! `is_empty`, `starts_with` and `ends_with`. Such a hook is translated once,
//! at load, into a small tree whose every function call is already resolved to
//! the game's Rust function, so running it costs a fraction of Rhai's tree walk
//! (which looks each call up afresh).
//!
//! The fast path never decides anything Rhai would decide differently: where
//! a value is not what it handles (an overflow, a type it does not know, an
//! index out of range, a result larger than the sandbox allows), it gives up
//! and the caller runs the script in Rhai, which then answers or reports the
//! error exactly as it always did. A hook that uses anything else is not
//! translated at all. Hooks cannot change the game (they only return values),
//! so running a script again after a give-up is safe.

use std::borrow::Cow;
use std::ops::{Range, RangeInclusive};
use std::sync::Arc;

use rhai::{AST, ASTNode, Array, Dynamic, Engine, Expr, INT, ImmutableString, Map, Stmt, StmtBlock, Variant};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A game function as the fast path calls it: `None` when the arguments are
/// not of its types (the caller tries the next one of that name, or gives up).
type Native = Arc<dyn Fn(&[&Dynamic]) -> Option<Dynamic> + Send + Sync>;

/// What a missing map key reads as.
static UNIT: Dynamic = Dynamic::UNIT;

/// The game's functions and properties, each callable without Rhai.
#[derive(Default)]
pub struct Natives {
    /// Property getters by name (one per type that has the property).
    getters: FxHashMap<String, Vec<Native>>,
    /// Functions by name and number of arguments (one per signature).
    fns: FxHashMap<(String, usize), Vec<Native>>,
    /// `x.outer.inner` read without building all of `x.outer`, by (outer, inner).
    shortcuts: FxHashMap<(String, String), Vec<Native>>,
}

/// Registers the game's types and functions with Rhai and, for the shapes
/// written here, with the fast path too: one Rust function serves both, so
/// the two cannot disagree.
pub struct Registrar<'a> {
    engine: &'a mut Engine,
    natives: &'a mut Natives,
}

impl<'a> Registrar<'a> {
    /// Registers into `engine`, and into `natives` for the fast path.
    pub fn new(engine: &'a mut Engine, natives: &'a mut Natives) -> Self {
        Registrar { engine, natives }
    }

    /// The engine, for registrations the fast path does not need.
    pub fn engine(&mut self) -> &mut Engine {
        self.engine
    }

    fn add_fn(&mut self, name: &str, arity: usize, f: Native) {
        self.natives.fns.entry((name.to_string(), arity)).or_default().push(f);
    }

    /// A property `name` of values of type `T`.
    pub fn getter<T, R>(&mut self, name: &str, f: impl Fn(&T) -> R + Clone + Send + Sync + 'static) -> &mut Self
    where
        T: Variant + Clone,
        R: Variant + Clone,
    {
        let g = f.clone();
        self.engine.register_get(name, move |t: &mut T| g(t));
        let native: Native = Arc::new(move |args| Some(Dynamic::from(f(&*args[0].read_lock::<T>()?))));
        self.natives.getters.entry(name.to_string()).or_default().push(native);
        self
    }

    /// `x.outer.inner` for `x` of type `T`, for the fast path alone: `f`
    /// answers what reading `inner` of `x.outer` would, without building the
    /// rest of `x.outer` (a large map of which a hook reads one entry), or
    /// `None` to leave it to the two reads.
    pub fn shortcut<T>(
        &mut self,
        outer: &str,
        inner: &str,
        f: impl Fn(&T) -> Option<Dynamic> + Send + Sync + 'static,
    ) -> &mut Self
    where
        T: Variant + Clone,
    {
        let native: Native = Arc::new(move |args| f(&*args[0].read_lock::<T>()?));
        self.natives.shortcuts.entry((outer.to_string(), inner.to_string())).or_default().push(native);
        self
    }

    /// A function of one value (also called as a method: `x.name()`).
    pub fn function<T, R>(&mut self, name: &str, f: impl Fn(&T) -> R + Clone + Send + Sync + 'static) -> &mut Self
    where
        T: Variant + Clone,
        R: Variant + Clone,
    {
        let g = f.clone();
        self.engine.register_fn(name, move |t: &mut T| g(t));
        self.add_fn(name, 1, Arc::new(move |args| Some(Dynamic::from(f(&*args[0].read_lock::<T>()?)))));
        self
    }

    /// A function of a value and a text (`ctx.count_kind("violet")`).
    pub fn function_text<T, R>(
        &mut self,
        name: &str,
        f: impl Fn(&T, &str) -> R + Clone + Send + Sync + 'static,
    ) -> &mut Self
    where
        T: Variant + Clone,
        R: Variant + Clone,
    {
        let g = f.clone();
        self.engine.register_fn(name, move |t: &mut T, s: &str| g(t, s));
        self.add_fn(
            name,
            2,
            Arc::new(move |args| {
                let text = args[1].as_immutable_string_ref().ok()?;
                Some(Dynamic::from(f(&*args[0].read_lock::<T>()?, text.as_str())))
            }),
        );
        self
    }

    /// A function of two values of one type (an operator such as `==`).
    pub fn operator<T, R>(&mut self, name: &str, f: impl Fn(&T, &T) -> R + Clone + Send + Sync + 'static) -> &mut Self
    where
        T: Variant + Clone,
        R: Variant + Clone,
    {
        let g = f.clone();
        self.engine.register_fn(name, move |a: T, b: T| g(&a, &b));
        self.add_fn(
            name,
            2,
            Arc::new(move |args| Some(Dynamic::from(f(&*args[0].read_lock::<T>()?, &*args[1].read_lock::<T>()?)))),
        );
        self
    }
}

/// A hook translated for the fast path.
pub struct Compiled {
    body: Block,
    /// The sandbox's bound on arrays, maps and strings.
    size: usize,
}

/// A member of a hook's argument made only if the hook reads it: a game
/// puts `Deferred(i)` in the argument's map where the member goes, and gives
/// [`Compiled::run_lazy`] the function that makes member `i`. A table that a
/// hook reads only past a test it mostly fails (`if ctx.event.type != "exile"
/// { return; }`) is then never made. Only the fast path meets one: a game
/// gives Rhai the whole argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deferred(pub u8);

/// The most deferred members one argument may hold (`Deferred(0)` to `Deferred(31)`).
pub const MAX_DEFERRED: usize = 32;

/// The [`Deferred`] members a caller gives rather than the run making them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lent<'m> {
    /// By index: values the caller holds anyway (the event every listener hears), read in place.
    pub held: &'m [Option<&'m Dynamic>],
    /// Members the caller keeps across runs that see the same state (the
    /// table while one decision's slots are priced, a run per slot): made by
    /// the first run that reads one, read in place by the others.
    pub kept: &'m [(u8, &'m std::cell::OnceCell<Dynamic>)],
}

/// The members a run has made (see [`Deferred`]), each once.
struct Lazy<'m> {
    make: &'m dyn Fn(u8) -> Dynamic,
    /// Members lent rather than made.
    lent: Lent<'m>,
    made: [std::cell::OnceCell<Dynamic>; MAX_DEFERRED],
}

impl Compiled {
    /// Runs the hook with its one argument; `Err` gives the argument back when
    /// the fast path cannot answer (the caller then runs the script in Rhai).
    pub fn run(&self, arg: Dynamic) -> Result<Dynamic, Dynamic> {
        self.run_in(arg, None)
    }

    /// [`Compiled::run`] with an argument whose [`Deferred`] members `make`
    /// makes when first read, unless `lent` holds it (by index: see [`Lent`]);
    /// `Err` gives the argument back (the caller makes the whole argument for Rhai).
    pub fn run_lazy(&self, arg: Dynamic, make: &dyn Fn(u8) -> Dynamic, lent: Lent) -> Result<Dynamic, Dynamic> {
        let lazy = Lazy { make, lent, made: Default::default() };
        self.run_in(arg, Some(&lazy))
    }

    fn run_in(&self, arg: Dynamic, lazy: Option<&Lazy>) -> Result<Dynamic, Dynamic> {
        // The argument is lent, not copied: the hook never writes it (see `Stmt::Assignment`).
        let result = {
            let mut frame = Frame { locals: SmallVec::new(), size: self.size, laps: 0, lazy };
            frame.locals.push(Val::Lent(&arg));
            match frame.block(&self.body) {
                Some(Flow::Value(v) | Flow::Return(v)) => Some(v),
                // `break` outside a loop: an error, Rhai's to report.
                Some(Flow::Break | Flow::Continue) | None => None,
            }
        };
        result.ok_or(arg)
    }
}

/// Translates hook `name` of `ast` (one parameter); `None` when it uses
/// anything the fast path does not handle.
pub fn compile(ast: &AST, name: &str, natives: &Natives, size: usize) -> Option<Compiled> {
    let mut defs = ast.iter_functions().filter(|f| f.name == name);
    let def = defs.next()?;
    if defs.next().is_some() || def.params.len() != 1 || def.this_type.is_some() {
        return None;
    }
    let (start, end, _) = crate::body_span(ast, name)?;
    let script_fns = ast.iter_functions().map(|f| (f.name.to_string(), f.params.len())).collect();
    let mut c = Compiler {
        natives,
        script_fns,
        names: def.params.iter().map(|p| (p.to_string(), false)).collect(),
        writes: Vec::new(),
        ast,
        calling: vec![name.to_owned()],
    };
    let body = c.body(start, end)?;
    Some(Compiled { body, size })
}

type Block = Vec<Node>;

enum Node {
    Const(Dynamic),
    Local(usize),
    /// `let`: the value becomes the next local.
    Let(Box<Node>),
    /// `x = v` or `x op= v` on a local.
    Assign(usize, Option<Op>, Box<Node>),
    /// `x[k] = v` or `x[k] op= v` (`x.k` alike) on a list or map held by a local:
    /// the local, the key, the operator, the value.
    SetIndex(usize, Box<Node>, Option<Op>, Box<Node>),
    Array(Vec<Node>),
    Map(Box<Map>, Vec<(ImmutableString, Node)>, Option<Box<[u8]>>),
    /// A property of a value: a map's entry, or one of the getters of that name.
    Get(Box<Node>, ImmutableString, Arc<[Native]>),
    /// `x.outer.inner` on a local `x`: the shortcuts registered for it, else
    /// the two reads (the `Get` of a `Get`).
    Path(usize, Arc<[Native]>, Box<Node>),
    /// A call of the game's functions: one by signature, and the arguments.
    Call(Arc<[Native]>, Vec<Node>),
    /// A built-in operator, else the game's function of that name (`==` on cards).
    Op(Op, Option<Arc<[Native]>>, Box<Node>, Box<Node>),
    Not(Box<Node>),
    Neg(Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
    Index(Box<Node>, Box<Node>),
    If(Box<Node>, Block, Block),
    Block(Block),
    Return(Box<Node>),
    /// `array.len()`, `map.len()` and `text.len()`.
    Len(Box<Node>),
    /// `map.keys()`, or `map.values()` when true.
    Entries(Box<Node>, bool),
    /// `for x in items` (with the index too: `for (x, i) in items`): the
    /// items, whether the index is kept, the body.
    ForEach(Box<Node>, bool, Block),
    /// `for x in list` on a list held by a local that the body never writes:
    /// the same laps as [`Node::ForEach`], each item read from the list in place.
    ForLocal(usize, bool, Block),
    /// `for i in a..b` (`a..=b` when inclusive): the bounds, inclusive, the body.
    ForRange(Box<Node>, Box<Node>, bool, Block),
    /// `while c { … }`, or `loop { … }` without a condition.
    While(Option<Box<Node>>, Block),
    Break,
    Continue,
    /// `local.push(v)` on an array held by a local.
    Push(usize, Box<Node>),
    /// `x in list` or `list.contains(x)` (a list, a map's keys, a text), with
    /// the game's `==` for its own types.
    Contains(Box<Node>, Box<Node>, Option<Arc<[Native]>>),
    /// A text built from values (`` `seat${s}` ``), with the game's `to_string`.
    Text(Vec<Node>, Option<Arc<[Native]>>),
    /// A call of a helper function of the script's own: its body, run in a
    /// frame of its own whose first locals are the arguments (as Rhai passes
    /// them: copies), and the arguments.
    Helper(Arc<Block>, Vec<Node>),
}

#[derive(Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn from_name(name: &str) -> Option<Op> {
        Some(match name {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            _ => return None,
        })
    }

    fn arithmetic(self) -> bool {
        matches!(self, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem)
    }
}

struct Compiler<'n> {
    natives: &'n Natives,
    script_fns: Vec<(String, usize)>,
    /// The script, whose helper functions a call translates in its turn.
    ast: &'n AST,
    /// The functions being translated, the hook first: a helper that calls
    /// itself (or one that calls it) is left to Rhai.
    calling: Vec<String>,
    /// The locals in scope, by name, in the order made, each with whether it is a constant.
    names: Vec<(String, bool)>,
    /// Per local slot, how many writes (`=`, `[k] =`, `push`) were compiled so
    /// far: a loop whose body adds none to its list's slot walks it in place.
    writes: Vec<u32>,
}

/// Helpers deeper than this (a hook calling a helper calling a helper…) are left to Rhai.
const MAX_HELPER_DEPTH: usize = 8;

impl Compiler<'_> {
    /// A helper function of the script's own, translated: its body with its
    /// parameters as its first locals; `None` for one the fast path does not handle.
    fn helper(&self, name: &str, arity: usize) -> Option<Arc<Block>> {
        if self.calling.len() > MAX_HELPER_DEPTH || self.calling.iter().any(|n| n == name) {
            return None;
        }
        // One function of that name (its body is found by its span, as the hook's is).
        let mut defs = self.ast.iter_fn_def().filter(|f| f.name == name);
        let def = defs.next()?;
        if defs.next().is_some() || def.this_type.is_some() || def.params.len() != arity {
            return None;
        }
        let (start, end, _) = crate::body_span(self.ast, name)?;
        let mut calling = self.calling.clone();
        calling.push(name.to_owned());
        let mut c = Compiler {
            natives: self.natives,
            script_fns: self.script_fns.clone(),
            names: def.params.iter().map(|p| (p.to_string(), false)).collect(),
            writes: Vec::new(),
            ast: self.ast,
            calling,
        };
        c.body(start, end).map(Arc::new)
    }

    /// The statements of the function whose body spans `start..=end`, translated.
    fn body(&mut self, start: crate::LineCol, end: crate::LineCol) -> Option<Block> {
        let ast = self.ast;
        let mut body = Some(Vec::new());
        // The walk visits every function; a top-level node inside this body's span is one of its statements.
        ast.walk(&mut |path: &[ASTNode]| {
            if let [ASTNode::Stmt(stmt)] = path
                && (start..=end).contains(&crate::key(stmt.position()))
            {
                body = body.take().and_then(|mut b: Block| {
                    b.push(self.stmt(stmt)?);
                    Some(b)
                });
            }
            true
        });
        body
    }

    fn block(&mut self, block: &StmtBlock) -> Option<Block> {
        let depth = self.names.len();
        let nodes = block.iter().map(|s| self.stmt(s)).collect::<Option<Block>>();
        self.names.truncate(depth);
        nodes
    }

    fn local(&self, name: &str) -> Option<usize> {
        self.names.iter().rposition(|(n, _)| n == name)
    }

    /// Notes a write to `slot` (see [`Compiler::writes`]).
    fn wrote(&mut self, slot: usize) {
        if self.writes.len() <= slot {
            self.writes.resize(slot + 1, 0);
        }
        self.writes[slot] += 1;
    }

    fn writes_to(&self, slot: usize) -> u32 {
        self.writes.get(slot).copied().unwrap_or(0)
    }

    fn stmt(&mut self, stmt: &Stmt) -> Option<Node> {
        Some(match stmt {
            Stmt::Noop(_) => Node::Const(Dynamic::UNIT),
            Stmt::Expr(e) => self.expr(e)?,
            Stmt::FnCall(call, _) => self.call(call, None)?,
            Stmt::Block(b) => Node::Block(self.block(b)?),
            Stmt::If(flow, _) => {
                let cond = self.expr(&flow.expr)?;
                Node::If(Box::new(cond), self.block(&flow.body)?, self.block(&flow.branch)?)
            }
            Stmt::Var(var, flags, _) => {
                let value = self.expr(&var.1)?;
                self.names.push((var.0.name.to_string(), flags.contains(rhai::ASTFlags::CONSTANT)));
                Node::Let(Box::new(value))
            }
            Stmt::Assignment(assign) => {
                let (op, target) = &**assign;
                // `x = v`, or `x[k] = v` and `x.k = v` on a list or map held by `x`.
                let (var, key) = match &target.lhs {
                    Expr::Variable(var, _, _) => (var, None),
                    Expr::Index(chain, flags, _) if *flags == rhai::ASTFlags::BREAK => {
                        let Expr::Variable(var, _, _) = &chain.lhs else { return None };
                        (var, Some(self.expr(&chain.rhs)?))
                    }
                    Expr::Dot(chain, flags, _) if flags.is_empty() => {
                        let (Expr::Variable(var, _, _), Expr::Property(prop, _)) = (&chain.lhs, &chain.rhs) else {
                            return None;
                        };
                        (var, Some(Node::Const(Dynamic::from(prop.2.clone()))))
                    }
                    _ => return None,
                };
                let slot = self.local(&var.1)?;
                // The parameter stays as given: the caller takes it back to run Rhai.
                // A constant's contents are Rhai's to refuse.
                if slot == 0 || (key.is_some() && self.names[slot].1) {
                    return None;
                }
                let op = match op.get_op_assignment_info() {
                    None => None,
                    Some((.., syntax)) => Some(Op::from_name(syntax).filter(|o| o.arithmetic())?),
                };
                let value = Box::new(self.expr(&target.rhs)?);
                self.wrote(slot);
                match key {
                    None => Node::Assign(slot, op, value),
                    Some(key) => Node::SetIndex(slot, Box::new(key), op, value),
                }
            }
            Stmt::For(looped, _) => {
                let (var, index, flow) = &**looped;
                let (items, range) = match &flow.expr {
                    Expr::FnCall(call, _) if matches!(call.name.as_str(), ".." | "..=") && call.args.len() == 2 => {
                        let inclusive = call.name == "..=";
                        (self.expr(&call.args[0])?, Some((self.expr(&call.args[1])?, inclusive)))
                    }
                    e => (self.expr(e)?, None),
                };
                let depth = self.names.len();
                // A list held by a local the body never writes is walked in place, not copied.
                let list = match items {
                    Node::Local(slot) if range.is_none() => Some((slot, self.writes_to(slot))),
                    _ => None,
                };
                self.names.push((var.name.to_string(), false));
                if let Some(index) = index {
                    self.names.push((index.name.to_string(), false));
                }
                let body = self.block(&flow.body);
                self.names.truncate(depth);
                match (range, list) {
                    (Some((end, inclusive)), _) if index.is_none() => {
                        Node::ForRange(Box::new(items), Box::new(end), inclusive, body?)
                    }
                    (Some(_), _) => return None,
                    (None, Some((slot, before))) if self.writes_to(slot) == before => {
                        Node::ForLocal(slot, index.is_some(), body?)
                    }
                    (None, _) => Node::ForEach(Box::new(items), index.is_some(), body?),
                }
            }
            Stmt::While(flow, _) => {
                let cond = match &flow.expr {
                    Expr::Unit(_) => None,
                    e => Some(Box::new(self.expr(e)?)),
                };
                Node::While(cond, self.block(&flow.body)?)
            }
            Stmt::BreakLoop(None, flags, _) => {
                if flags.contains(rhai::ASTFlags::BREAK) {
                    Node::Break
                } else {
                    Node::Continue
                }
            }
            Stmt::Return(value, flags, _) => {
                // `throw` is a return with the BREAK flag: an error, left to Rhai.
                if flags.contains(rhai::ASTFlags::BREAK) {
                    return None;
                }
                Node::Return(Box::new(match value {
                    Some(e) => self.expr(e)?,
                    None => Node::Const(Dynamic::UNIT),
                }))
            }
            _ => return None,
        })
    }

    fn expr(&mut self, expr: &Expr) -> Option<Node> {
        Some(match expr {
            Expr::DynamicConstant(v, _) => Node::Const((**v).clone()),
            Expr::BoolConstant(b, _) => Node::Const(Dynamic::from_bool(*b)),
            Expr::IntegerConstant(n, _) => Node::Const(Dynamic::from_int(*n)),
            Expr::StringConstant(s, _) => Node::Const(Dynamic::from(s.clone())),
            Expr::CharConstant(c, _) => Node::Const(Dynamic::from_char(*c)),
            Expr::Unit(_) => Node::Const(Dynamic::UNIT),
            Expr::Variable(var, _, _) => Node::Local(self.local(&var.1)?),
            Expr::Array(items, _) => Node::Array(items.iter().map(|e| self.expr(e)).collect::<Option<_>>()?),
            Expr::Map(map, _) => {
                let (items, template) = &**map;
                let items =
                    items.iter().map(|(k, e)| Some((k.name.clone(), self.expr(e)?))).collect::<Option<Vec<_>>>()?;
                // Each entry's place among the template's keys, when the entries are its keys once each.
                let places: Option<Box<[u8]>> =
                    items.iter().map(|(k, _)| template.keys().position(|t| t == k.as_str())?.try_into().ok()).collect();
                let places =
                    places.filter(|p| p.len() == template.len() && (0..p.len()).all(|i| p.contains(&(i as u8))));
                Node::Map(Box::new(template.clone()), items, places)
            }
            Expr::Stmt(block) => Node::Block(self.block(block)?),
            Expr::InterpolatedString(parts, _) => {
                let to_string = self.natives.fns.get(&("to_string".to_string(), 1)).map(|n| n.clone().into());
                Node::Text(parts.iter().map(|e| self.expr(e)).collect::<Option<_>>()?, to_string)
            }
            Expr::FnCall(call, _) => self.call(call, None)?,
            Expr::Dot(chain, flags, _) if flags.is_empty() => match (&chain.lhs, &chain.rhs) {
                // The one method that changes a value: `list.push(v)` on a local list (not the parameter).
                (Expr::Variable(var, _, _), Expr::MethodCall(call, _))
                    if call.name == "push" && call.args.len() == 1 =>
                {
                    let slot = self.local(&var.1).filter(|&s| s > 0)?;
                    let value = Box::new(self.expr(&call.args[0])?);
                    self.wrote(slot);
                    Node::Push(slot, value)
                }
                _ => {
                    let object = self.expr(&chain.lhs)?;
                    self.link(object, &chain.rhs)?
                }
            },
            Expr::Index(chain, flags, _) => {
                let object = self.expr(&chain.lhs)?;
                self.index(object, &chain.rhs, *flags)?
            }
            Expr::And(items, _) => Node::And(items.iter().map(|e| self.expr(e)).collect::<Option<_>>()?),
            Expr::Or(items, _) => Node::Or(items.iter().map(|e| self.expr(e)).collect::<Option<_>>()?),
            _ => return None,
        })
    }

    /// `object.rhs`: `rhs` is a property or a method call, or one followed by
    /// more of the chain (Rhai nests a chain to the right).
    fn link(&mut self, object: Node, rhs: &Expr) -> Option<Node> {
        match rhs {
            Expr::Property(prop, _) => {
                let getters = self.natives.getters.get(prop.2.as_str()).cloned().unwrap_or_default();
                let shortcut = match &object {
                    Node::Get(x, outer, _) => match **x {
                        Node::Local(slot) => self
                            .natives
                            .shortcuts
                            .get(&(outer.to_string(), prop.2.to_string()))
                            .map(|natives| (slot, natives.clone().into())),
                        _ => None,
                    },
                    _ => None,
                };
                let get = Node::Get(Box::new(object), prop.2.clone(), getters.into());
                Some(match shortcut {
                    Some((slot, natives)) => Node::Path(slot, natives, Box::new(get)),
                    None => get,
                })
            }
            Expr::MethodCall(call, _) => self.call(call, Some(object)),
            Expr::Dot(next, flags, _) if flags.is_empty() => {
                let object = self.link(object, &next.lhs)?;
                self.link(object, &next.rhs)
            }
            Expr::Index(next, flags, _) => {
                let object = self.link(object, &next.lhs)?;
                self.index(object, &next.rhs, *flags)
            }
            _ => None,
        }
    }

    /// `object[rhs]`: with the BREAK flag `rhs` is the index; without, the
    /// index is `rhs`'s left side and the chain goes on with its right.
    fn index(&mut self, object: Node, rhs: &Expr, flags: rhai::ASTFlags) -> Option<Node> {
        if flags == rhai::ASTFlags::BREAK {
            return Some(Node::Index(Box::new(object), Box::new(self.expr(rhs)?)));
        }
        if !flags.is_empty() {
            return None; // `?[`: left to Rhai
        }
        match rhs {
            Expr::Dot(next, flags, _) if flags.is_empty() => {
                let object = Node::Index(Box::new(object), Box::new(self.expr(&next.lhs)?));
                self.link(object, &next.rhs)
            }
            Expr::Index(next, flags, _) => {
                let object = Node::Index(Box::new(object), Box::new(self.expr(&next.lhs)?));
                self.index(object, &next.rhs, *flags)
            }
            _ => None,
        }
    }

    /// A call `name(args)`, or `object.name(args)` when `object` is given.
    fn call(&mut self, call: &rhai::FnCallExpr, object: Option<Node>) -> Option<Node> {
        if call.capture_parent_scope {
            return None;
        }
        let mut args: Vec<Node> = object.into_iter().collect();
        for a in &call.args {
            args.push(self.expr(a)?);
        }
        let name = call.name.as_str();
        // A function the script defines wins over the game's, as in Rhai: a
        // helper called as a function (not as a method, which Rhai gives `this`).
        if self.script_fns.iter().any(|(n, a)| n == name && *a == args.len()) {
            if args.len() != call.args.len() {
                return None;
            }
            return Some(Node::Helper(self.helper(name, args.len())?, args));
        }
        let natives = self.natives.fns.get(&(name.to_string(), args.len()));
        let mut args = args.into_iter();
        match (name, args.len(), natives) {
            (_, 2, natives) if Op::from_name(name).is_some() => {
                let (a, b) = (args.next()?, args.next()?);
                let natives = natives.map(|n| n.clone().into());
                Some(Node::Op(Op::from_name(name)?, natives, Box::new(a), Box::new(b)))
            }
            ("!", 1, None) => Some(Node::Not(Box::new(args.next()?))),
            ("-", 1, None) => Some(Node::Neg(Box::new(args.next()?))),
            ("len", 1, None) => Some(Node::Len(Box::new(args.next()?))),
            ("keys", 1, None) => Some(Node::Entries(Box::new(args.next()?), false)),
            ("values", 1, None) => Some(Node::Entries(Box::new(args.next()?), true)),
            ("contains", 2, None) => {
                let equals = self.natives.fns.get(&("==".to_string(), 2)).map(|n| n.clone().into());
                Some(Node::Contains(Box::new(args.next()?), Box::new(args.next()?), equals))
            }
            (_, _, Some(natives)) => Some(Node::Call(natives.clone().into(), args.collect())),
            (_, arity, None) => Some(Node::Call(Arc::new([builtin(name, arity)?]), args.collect())),
        }
    }
}

/// Rhai's own functions designers reach for (`best.max(n)`, `id.starts_with(c)`),
/// answered as Rhai's own packages do for the values written here;
/// `None` (Rhai answers) for any other value, such as an overflow of `abs`.
fn builtin(name: &str, arity: usize) -> Option<Native> {
    fn ints(args: &[&Dynamic]) -> Option<(INT, INT)> {
        Some((args[0].as_int().ok()?, args[1].as_int().ok()?))
    }
    fn texts(args: &[&Dynamic], f: fn(&str, &str) -> bool) -> Option<Dynamic> {
        Some(Dynamic::from_bool(f(&args[0].read_lock::<ImmutableString>()?, &args[1].read_lock::<ImmutableString>()?)))
    }
    let f: fn(&[&Dynamic]) -> Option<Dynamic> = match (name, arity) {
        ("max", 2) => |a| ints(a).map(|(x, y)| Dynamic::from_int(x.max(y))),
        ("min", 2) => |a| ints(a).map(|(x, y)| Dynamic::from_int(x.min(y))),
        ("abs", 1) => |a| Some(Dynamic::from_int(a[0].as_int().ok()?.checked_abs()?)),
        ("sign", 1) => |a| Some(Dynamic::from_int(a[0].as_int().ok()?.signum())),
        ("starts_with", 2) => |a| texts(a, |s, p| s.starts_with(p)),
        ("ends_with", 2) => |a| texts(a, |s, p| s.ends_with(p)),
        ("is_empty", 1) => |a| Some(Dynamic::from_bool(length(a[0])? == 0)),
        _ => return None,
    };
    Some(Arc::new(f))
}

enum Flow {
    Value(Dynamic),
    Return(Dynamic),
    Break,
    Continue,
}

/// A local: a value of the frame's own, or one lent by the caller (the
/// hook's `ctx`, a helper's argument read in place, an item of a list one of
/// those holds). Rhai passes copies; a lent value is copied only when the
/// frame writes the local, so a script cannot tell the two apart, and a walk
/// over `ctx.table.seats` or a helper given a seat copies nothing.
enum Val<'a> {
    Own(Dynamic),
    Lent(&'a Dynamic),
    /// A list of the frame's own that `push` grew, with its [`sizes`]: the
    /// next `push` measures only what it adds (a list of effects built in a
    /// loop was measured whole at every push). Written any other way, it is
    /// [`Val::Own`] again.
    Sized(Dynamic, [u32; 3]),
}

impl Val<'_> {
    #[inline(always)]
    fn get(&self) -> &Dynamic {
        match self {
            Val::Own(v) | Val::Sized(v, _) => v,
            Val::Lent(v) => v,
        }
    }
}

/// `v`'s item or entry at `key` (a list's index, a map's text key), borrowed
/// for as long as `v` is; `None` for anything else, and for a shared value.
fn entry<'v>(v: &'v Dynamic, key: &Dynamic) -> Option<&'v Dynamic> {
    match key.read_lock::<ImmutableString>() {
        Some(name) => field(v, name.as_str()),
        None => item(v, usize::try_from(key.as_int().ok()?).ok()?),
    }
}

/// `v`'s list item `i`, borrowed for as long as `v` is (see [`entry`]).
fn item(v: &Dynamic, i: usize) -> Option<&Dynamic> {
    if !v.is_array() || v.is_shared() {
        return None;
    }
    let found: *const Dynamic = v.as_array_ref().ok()?.get(i)?;
    // SAFETY: as in `field`.
    Some(unsafe { &*found })
}

/// `v`'s map entry `name`, borrowed for as long as `v` is (see [`entry`]).
fn field<'v>(v: &'v Dynamic, name: &str) -> Option<&'v Dynamic> {
    // A value of the game's own type (a typed `ctx`) answers by its getters: not lent.
    if !v.is_map() || v.is_shared() {
        return None;
    }
    let found: *const Dynamic = crate::results::field(&*v.as_map_ref().ok()?, name)?;
    // SAFETY: `v` is not shared, so Rhai's read guard was a plain borrow of
    // the list or map `v` owns; that lives, unchanged, as long as the borrow `'v`.
    Some(unsafe { &*found })
}

/// `v` as a hook sees it: a deferred member made (once), anything else
/// itself (a run without a maker holds no marker: only a game puts one in).
#[inline(always)]
fn made<'s>(lazy: Option<&'s Lazy<'s>>, v: &'s Dynamic) -> Option<&'s Dynamic> {
    // Without a maker (a game that defers nothing) no marker is looked for: a script cannot make one.
    let Some(lazy) = lazy else { return Some(v) };
    // Most values are no marker: told by their kind, not by a read lock's type test.
    if !v.is::<Deferred>() {
        return Some(v);
    }
    match v.read_lock::<Deferred>() {
        None => Some(v),
        Some(d) => make(lazy, d.0),
    }
}

#[cold]
fn make<'s>(lazy: &'s Lazy<'s>, i: u8) -> Option<&'s Dynamic> {
    if let Some(Some(v)) = lazy.lent.held.get(usize::from(i)) {
        return Some(v);
    }
    if let Some((_, cell)) = lazy.lent.kept.iter().find(|(k, _)| *k == i) {
        return Some(cell.get_or_init(|| (lazy.make)(i)));
    }
    let cell = lazy.made.get(usize::from(i))?;
    Some(cell.get_or_init(|| (lazy.make)(i)))
}

struct Frame<'a> {
    locals: SmallVec<[Val<'a>; 8]>,
    /// The argument's deferred members, made as read (see [`Deferred`]).
    lazy: Option<&'a Lazy<'a>>,
    size: usize,
    /// Loop laps run so far: past [`MAX_LAPS`] the fast path gives up and
    /// Rhai runs the hook under its own operation limit.
    laps: u32,
}

/// Loop laps the fast path runs before it leaves a hook to Rhai.
const MAX_LAPS: u32 = 20_000;

/// Evaluates to a value or gives up (`None`); `?` on a [`Flow::Return`] passes it up.
macro_rules! value {
    ($e:expr) => {
        match $e? {
            Flow::Value(v) => v,
            other => return Some(other),
        }
    };
}

impl<'a> Frame<'a> {
    #[inline(always)]
    fn local(&self, i: usize) -> &Dynamic {
        self.locals[i].get()
    }

    /// `v` as the hook sees it (see [`made`]).
    #[inline(always)]
    fn made<'s>(&'s self, v: &'s Dynamic) -> Option<&'s Dynamic> {
        made(self.lazy, v)
    }

    /// The [`made`] of a value lent for as long as the frame.
    #[inline(always)]
    fn made_lent(&self, v: &'a Dynamic) -> Option<&'a Dynamic> {
        made(self.lazy, v)
    }

    /// Local `i` to write: a lent value is copied first (Rhai's copy, made late).
    fn local_mut(&mut self, i: usize) -> &mut Dynamic {
        match &mut self.locals[i] {
            Val::Own(_) => {}
            Val::Lent(v) => self.locals[i] = Val::Own(v.clone()),
            // Its sizes may change: measured afresh at its next push.
            Val::Sized(v, _) => self.locals[i] = Val::Own(std::mem::take(v)),
        }
        match &mut self.locals[i] {
            Val::Own(v) => v,
            Val::Lent(_) | Val::Sized(..) => unreachable!("made own above"),
        }
    }

    /// `list.push(v)` on local `slot`, measured as Rhai measures it (the list
    /// with its new element within the sandbox's sizes); `None` to give up.
    fn push(&mut self, slot: usize, v: Dynamic, added: Sizes) -> Option<()> {
        let before = match &self.locals[slot] {
            Val::Sized(_, known) => Sizes::unpacked(*known),
            _ if self.local(slot).is_array() => sizes(self.local(slot))?,
            _ => return None,
        };
        let after = before + Sizes { arrays: 1, ..Sizes::default() } + added;
        if !after.within(self.size) {
            return None;
        }
        let mut list = match std::mem::replace(&mut self.locals[slot], Val::Own(Dynamic::UNIT)) {
            Val::Own(list) | Val::Sized(list, _) => list,
            Val::Lent(list) => list.clone(),
        };
        list.as_array_mut().ok()?.push(v);
        self.locals[slot] = match after.packed() {
            Some(known) => Val::Sized(list, known),
            None => Val::Own(list),
        };
        Some(())
    }

    /// What `node` reads, when that lies in a value lent to the frame (a
    /// lent local, or an entry of the lists and maps one holds, by a key
    /// itself read in place): borrowed for as long as the loan.
    fn lent(&self, node: &Node) -> Option<&'a Dynamic> {
        match node {
            Node::Local(i) => match self.locals[*i] {
                Val::Lent(v) => Some(v),
                Val::Own(_) | Val::Sized(..) => None,
            },
            Node::Get(object, name, _) => {
                // Not a map: a getter makes its value.
                self.made_lent(field(self.lent(object)?, name.as_str())?)
            }
            Node::Index(object, index) => self.made_lent(entry(self.lent(object)?, &*self.key(index)?)?),
            _ => None,
        }
    }

    /// An index's key read where it lies: a local or a constant, a number
    /// or a text read in place (`seats[ctx.seat]`), a small value copied, or
    /// arithmetic on two numbers so read (`display[s - 1]`); `None` for
    /// anything else to evaluate (and for arithmetic that overflows or is
    /// negative: the evaluation says what Rhai does), and for a key of another kind.
    fn key<'s>(&'s self, index: &'s Node) -> Option<Cow<'s, Dynamic>> {
        if let Some(key) = self.peek(index) {
            return Some(Cow::Borrowed(key));
        }
        if let Node::Op(op, _, a, b) = index
            && op.arithmetic()
        {
            let (a, b) = (self.peek(a)?.as_int().ok()?, self.peek(b)?.as_int().ok()?);
            // A negative index counts from the end in Rhai: evaluated as it is written.
            return arithmetic(*op, a, b).filter(|k| k.as_int().is_ok_and(|i| i >= 0)).map(Cow::Owned);
        }
        self.in_place(index, &mut |k| (k.is_int() || k.is_string()).then(|| k.clone()))?.map(Cow::Owned)
    }

    fn block(&mut self, block: &Block) -> Option<Flow> {
        // One statement that declares nothing (a loop's `if`, a branch's `n += 1`): its flow is the block's.
        if let [node] = &block[..]
            && !matches!(node, Node::Let(_))
        {
            return self.node(node);
        }
        let depth = self.locals.len();
        let mut last = Dynamic::UNIT;
        for node in block {
            match self.node(node)? {
                Flow::Value(v) => last = v,
                other => {
                    self.locals.truncate(depth);
                    return Some(other);
                }
            }
        }
        self.locals.truncate(depth);
        Some(Flow::Value(last))
    }

    /// Rhai's `for`: `body` once per item, the item (and its index, when
    /// `indexed`) a local of the body; a `break` ends it, a `return` leaves it.
    fn for_each(&mut self, items: impl Iterator<Item = Dynamic>, indexed: bool, body: &Block) -> Option<Flow> {
        for (i, item) in items.enumerate() {
            if let Some(end) = self.for_lap(Val::Own(item), i, indexed, body)? {
                return Some(end);
            }
        }
        Some(Flow::Value(Dynamic::UNIT))
    }

    /// One item of a `for`: the item (and its index, when `indexed`) locals
    /// of one lap of `body`. `Some(None)`: on to the next item;
    /// `Some(Some(flow))`: the loop ends with `flow` (a `break`, a `return`).
    #[inline(always)]
    fn for_lap(&mut self, item: Val<'a>, i: usize, indexed: bool, body: &Block) -> Option<Option<Flow>> {
        let depth = self.locals.len();
        self.locals.push(item);
        if indexed {
            self.locals.push(Val::Own(Dynamic::from_int(i32::try_from(i).ok()?)));
        }
        let flow = self.lap(body);
        self.locals.truncate(depth);
        Some(match flow? {
            Flow::Value(_) | Flow::Continue => None,
            Flow::Break => Some(Flow::Value(Dynamic::UNIT)),
            ret @ Flow::Return(_) => Some(ret),
        })
    }

    /// `for` over a value: a range (one the optimizer made a constant, `0..4`,
    /// or one kept in a variable) or a list.
    #[inline]
    fn for_items(&mut self, items: Dynamic, indexed: bool, body: &Block) -> Option<Flow> {
        let range = match (items.read_lock::<Range<INT>>(), items.read_lock::<RangeInclusive<INT>>()) {
            (Some(r), _) => Some((r.start, r.end)),
            (_, Some(r)) => Some((*r.start(), r.end().checked_add(1)?)),
            _ => None,
        };
        match range {
            Some((start, end)) => self.for_each((start..end).map(Dynamic::from_int), indexed, body),
            None => self.for_each(items.into_array().ok()?.into_iter(), indexed, body),
        }
    }

    /// [`Node::ForLocal`]: the list is not written by the body, so each item is
    /// read where it lies (Rhai's copy would hold the same items).
    fn for_local(&mut self, slot: usize, indexed: bool, body: &Block) -> Option<Flow> {
        if let Val::Lent(list) = self.locals[slot] {
            return self.for_lent(list, indexed, body);
        }
        // A range, or a list another value shares (its buffer may change under a loan): walked as a copy.
        if !self.local(slot).is_array() || self.local(slot).is_shared() {
            return self.for_items(self.local(slot).clone(), indexed, body);
        }
        let len = self.local(slot).as_array_ref().ok()?.len();
        for i in 0..len {
            // Each item lent, not copied (a list of maps a scoring hook walks
            // was a map copied and dropped per lap). SAFETY: the item lies
            // in the list's own buffer, which stays where it is while the list's
            // local is neither written (the body never writes it: `ForLocal`'s
            // condition) nor dropped (its block outlives the loop); the locals
            // around it may move as they grow, the buffer does not. A lap's own
            // locals, which might hold the loan, are gone when the lap ends.
            let found: *const Dynamic = item(self.local(slot), i)?;
            let lent: &'a Dynamic = unsafe { &*found };
            if let Some(end) = self.for_lap(Val::Lent(lent), i, indexed, body)? {
                return Some(end);
            }
        }
        Some(Flow::Value(Dynamic::UNIT))
    }

    /// A `for` over a list lent to the frame: each item lent in turn (it
    /// cannot change while lent: the frame's writes copy first).
    fn for_lent(&mut self, list: &'a Dynamic, indexed: bool, body: &Block) -> Option<Flow> {
        if !list.is_array() || list.is_shared() {
            return self.for_items(list.clone(), indexed, body);
        }
        let items: *const [Dynamic] = &**list.as_array_ref().ok()?;
        // SAFETY: as in `item` (the list is not shared: its guard was a plain borrow).
        let items: &'a [Dynamic] = unsafe { &*items };
        for (i, item) in items.iter().enumerate() {
            if let Some(end) = self.for_lap(Val::Lent(item), i, indexed, body)? {
                return Some(end);
            }
        }
        Some(Flow::Value(Dynamic::UNIT))
    }

    /// A local's or a constant's value, read where it lies; `None` for anything to evaluate.
    #[inline(always)]
    fn peek<'s>(&'s self, node: &'s Node) -> Option<&'s Dynamic> {
        match node {
            Node::Local(i) => Some(self.local(*i)),
            Node::Const(v) => Some(v),
            _ => None,
        }
    }

    /// One lap of a loop's body, counted against [`MAX_LAPS`].
    fn lap(&mut self, body: &Block) -> Option<Flow> {
        self.laps += 1;
        if self.laps > MAX_LAPS {
            return None;
        }
        self.block(body)
    }

    /// `f` of what `node` reads when that is a local or an entry of maps and
    /// lists held by one (`x.a.b`, `x.a[0].b` with a constant or local
    /// index, or one itself read so: `x.a[x.b]`), read in place; `None` when `node` is anything else or passes
    /// through something that is neither (a getter makes a value: the caller
    /// evaluates `node`). `Some(None)`: give up (an index out of range). A missing key reads as `()`.
    fn in_place<R>(&self, node: &Node, f: &mut dyn FnMut(&Dynamic) -> Option<R>) -> Option<Option<R>> {
        match node {
            Node::Local(i) => Some(f(self.local(*i))),
            // `ctx.args[0].value` read where it lies: a copy of `ctx.args` for every
            // read made an action's `allowed` cost 11k instructions a call.
            Node::Index(object, index) if matches!(**object, Node::Local(_) | Node::Get(..) | Node::Index(..)) => {
                // A key that is itself read in place (`seats[ctx.seat]`): a small
                // value copied, where a copy of the list made the reserve's
                // `legal` cost 20k instructions a call.
                let key = self.key(index)?;
                let mut through = true;
                let found = self.in_place(object, &mut |v| {
                    if let Ok(list) = v.as_array_ref() {
                        f(list.get(usize::try_from(key.as_int().ok()?).ok()?)?)
                    } else if let Ok(map) = v.as_map_ref() {
                        f(self.made(map.get(key.read_lock::<ImmutableString>()?.as_str()).unwrap_or(&UNIT))?)
                    } else {
                        through = false;
                        None
                    }
                })?;
                through.then_some(found)
            }
            // `b.type` of a loop's item: the local's map read at once, no closure between.
            Node::Get(object, name, _) if let Node::Local(i) = **object => match self.local(i).as_map_ref() {
                Ok(map) => Some(f(self.made(crate::results::field(&map, name.as_str()).unwrap_or(&UNIT))?)),
                Err(_) => None,
            },
            Node::Get(object, name, _) if matches!(**object, Node::Get(..) | Node::Index(..)) => {
                let mut through_maps = true;
                let found = self.in_place(object, &mut |v| match v.as_map_ref() {
                    Ok(map) => f(self.made(crate::results::field(&map, name.as_str()).unwrap_or(&UNIT))?),
                    Err(_) => {
                        through_maps = false;
                        None
                    }
                })?;
                through_maps.then_some(found)
            }
            _ => None,
        }
    }

    /// A value read in place where it can be (a local), else made.
    /// The length of a list, map or text read in place, if it can be: `seat.buildings.len()`
    /// counted where the list lies, not a copy of it measured against the sandbox's sizes
    /// (a list a script made was measured when made; the game's own are within them by
    /// its bounds on cards).
    fn len_in_place(&self, node: &Node) -> Option<usize> {
        self.in_place(node, &mut length)?
    }

    fn operand<'s>(&'s mut self, node: &Node) -> Option<Result<Cow<'s, Dynamic>, Flow>> {
        if let Node::Local(i) = node {
            return Some(Ok(Cow::Borrowed(self.local(*i))));
        }
        Some(match self.node(node)? {
            Flow::Value(v) => Ok(Cow::Owned(v)),
            other => Err(other),
        })
    }

    /// Evaluates `nodes` and calls `f` with them; locals are read in place.
    fn with_values<T>(&mut self, nodes: &[Node], f: impl FnOnce(&[&Dynamic]) -> Option<T>) -> Option<Result<T, Flow>> {
        // One argument (a property, most calls): no lists to build.
        if let [node] = nodes {
            if let Some(v) = self.lent_unshared(node) {
                return f(&[v]).map(Ok);
            }
            return match self.operand(node)? {
                Ok(v) => f(&[&v]).map(Ok),
                Err(ret) => Some(Err(ret)),
            };
        }
        // Locals, and what lies in a lent value (`id.starts_with(ctx.event.currency)`), are read in place.
        let mut owned: SmallVec<[Option<Dynamic>; 4]> = SmallVec::new();
        let mut lent: SmallVec<[Option<&'a Dynamic>; 4]> = SmallVec::new();
        for n in nodes {
            let found = match n {
                Node::Local(_) => None,
                _ => self.lent_unshared(n),
            };
            lent.push(found);
            owned.push(match (n, found) {
                (Node::Local(_), _) | (_, Some(_)) => None,
                _ => match self.node(n)? {
                    Flow::Value(v) => Some(v),
                    other => return Some(Err(other)),
                },
            });
        }
        let refs: SmallVec<[&Dynamic; 4]> = nodes
            .iter()
            .zip(owned.iter().zip(&lent))
            .map(|(n, (o, l))| match (n, o, l) {
                (Node::Local(i), ..) => self.local(*i),
                (_, Some(v), _) => v,
                (_, None, Some(v)) => *v,
                (_, None, None) => unreachable!("every argument but a local or a loan was evaluated"),
            })
            .collect();
        f(&refs).map(Ok)
    }

    /// [`Frame::lent`], unless another value shares it (Rhai's to read: evaluated, it gives up).
    #[inline]
    fn lent_unshared(&self, node: &Node) -> Option<&'a Dynamic> {
        self.lent(node).filter(|v| !v.is_shared())
    }

    /// A map literal `#{ k: v, … }` and its [`sizes`], within the sandbox's
    /// (`None`: give up): its entries evaluated in the order written, then
    /// put in the template of its keys by place when `places` gives them
    /// (each key once: no search per entry), else inserted one by one.
    fn map_literal(
        &mut self,
        template: &Map,
        items: &[(ImmutableString, Node)],
        places: Option<&[u8]>,
    ) -> Option<Result<(Dynamic, Sizes), Flow>> {
        let mut values: SmallVec<[Dynamic; 8]> = SmallVec::new();
        for (_, item) in items {
            match self.node(item)? {
                Flow::Value(v) => values.push(v),
                other => return Some(Err(other)),
            }
        }
        let mut map = template.clone();
        let total = match places {
            Some(places) => {
                let mut total = Sizes { maps: map.len(), ..Sizes::default() };
                let mut slots: SmallVec<[&mut Dynamic; 8]> = map.values_mut().collect();
                for (v, &place) in values.into_iter().zip(places) {
                    total = total + sizes(&v)?;
                    *slots[usize::from(place)] = v;
                }
                total
            }
            None => {
                for ((key, _), v) in items.iter().zip(values) {
                    map.insert(key.as_str().into(), v);
                }
                sizes_of_map(&map)?
            }
        };
        total.within(self.size).then_some(Ok((Dynamic::from_map(map), total)))
    }

    /// `v` if it is within the sandbox's sizes, counted as Rhai counts them.
    fn checked(&self, v: Dynamic) -> Option<Dynamic> {
        self.fits(&v).then_some(v)
    }

    /// `locals[slot][key] = v` (or `op=`) on a list (an index within it) or
    /// a map (a text key; `op=` only on a key it holds); `None` for anything
    /// else, or a result past the sandbox's sizes, which Rhai then decides.
    fn set_index(&mut self, slot: usize, key: &Dynamic, op: Option<Op>, v: Dynamic) -> Option<()> {
        let combine = |old: &Dynamic, v: Dynamic| match op {
            None => Some(v),
            Some(op) => arithmetic(op, old.as_int().ok()?, v.as_int().ok()?),
        };
        let target = self.local_mut(slot);
        if target.is_array() {
            let mut array = target.as_array_mut().ok()?;
            let item = array.get_mut(usize::try_from(key.as_int().ok()?).ok()?)?;
            *item = combine(item, v)?;
        } else if target.is_map() {
            let key = key.read_lock::<ImmutableString>()?;
            let mut map = target.as_map_mut().ok()?;
            match map.get_mut(key.as_str()) {
                Some(item) => *item = combine(item, v)?,
                None if op.is_none() => {
                    map.insert(key.as_str().into(), v);
                }
                None => return None,
            }
        } else {
            return None;
        }
        self.fits(self.local(slot)).then_some(())
    }

    /// `v` is within the sandbox's sizes (false too for a value it cannot measure).
    fn fits(&self, v: &Dynamic) -> bool {
        within(v, self.size)
    }

    fn node(&mut self, node: &Node) -> Option<Flow> {
        let v = match node {
            Node::Const(v) => v.clone(),
            Node::Local(i) => self.local(*i).clone(),
            Node::Let(value) => {
                // `let counts = ctx.counts`: lent on, copied only if written.
                let v = match self.lent(value) {
                    Some(v) => Val::Lent(v),
                    None => Val::Own(value!(self.node(value))),
                };
                self.locals.push(v);
                Dynamic::UNIT
            }
            Node::Assign(slot, op, value) => {
                // `n += 1`: the constant (or local) read where it lies.
                if let (Some(op), Some(v)) = (op, self.peek(value)) {
                    let v = int_of(v)?;
                    let n = arithmetic(*op, int_of(self.local(*slot))?, v)?;
                    // The old value is a number (read above): nothing of it to drop.
                    std::mem::forget(std::mem::replace(&mut self.locals[*slot], Val::Own(n)));
                    return Some(Flow::Value(Dynamic::UNIT));
                }
                let v = value!(self.node(value));
                let v = match op {
                    None => v,
                    Some(op) => arithmetic(*op, self.local(*slot).as_int().ok()?, v.as_int().ok()?)?,
                };
                self.locals[*slot] = Val::Own(v);
                Dynamic::UNIT
            }
            Node::Array(items) => {
                let mut array = Array::with_capacity(items.len());
                for item in items {
                    array.push(value!(self.node(item)));
                }
                self.checked(Dynamic::from_array(array))?
            }
            Node::Map(template, items, places) => match self.map_literal(template, items, places.as_deref())? {
                Ok((map, _)) => map,
                Err(ret) => return Some(ret),
            },
            Node::Get(object, name, getters) => {
                let (lazy, size) = (self.lazy, self.size);
                let read = |v: &Dynamic| match v.as_map_ref() {
                    // A missing key is `()`, as in Rhai (no engine here is set to fail on one).
                    Ok(map) => crate::results::field(&map, name.as_str())
                        .map_or(Some(Dynamic::UNIT), |v| made(lazy, v).cloned()),
                    // Rhai measures what a getter returns against the sandbox's sizes (a map's field it does not).
                    Err(_) => getters.iter().find_map(|g| g(&[v])).filter(|v| within(v, size)),
                };
                // `ctx.target.type`: read in place through the maps, not a copy of `ctx.target`.
                let found = match self.in_place(object, &mut |v| read(v)) {
                    Some(found) => found?,
                    None => match self.with_values(std::slice::from_ref(&**object), |args| read(args[0]))? {
                        Ok(v) => v,
                        Err(ret) => return Some(ret),
                    },
                };
                // A value another shares is Rhai's to read.
                if found.is_shared() {
                    return None;
                }
                found
            }
            Node::Path(slot, shortcuts, reads) => {
                let found = shortcuts.iter().find_map(|f| f(&[self.local(*slot)]));
                match found {
                    Some(v) => self.checked(v)?,
                    None => return self.node(reads),
                }
            }
            Node::Call(natives, args) => match self.with_values(args, |args| natives.iter().find_map(|f| f(args)))? {
                Ok(v) => self.checked(v)?,
                Err(ret) => return Some(ret),
            },
            Node::Op(op, natives, a, b) => {
                // Locals and constants are read where they lie, not copied.
                if let (Some(a), Some(b)) = (self.peek(a), self.peek(b)) {
                    match operator(*op, a, b) {
                        Some(v) => v,
                        None => natives.as_ref()?.iter().find_map(|f| f(&[a, b]))?,
                    }
                } else if matches!(**a, Node::Get(..) | Node::Index(..)) && reads_only(b) {
                    // `b.card == ctx.card`, `let same = b.type == t`: the field read where it
                    // lies (a card's copy was made and dropped at every lap), the other side first.
                    let other = match self.peek(b) {
                        Some(v) => Cow::Borrowed(v),
                        None => Cow::Owned(value!(self.node(b))),
                    };
                    let combine = |x: &Dynamic, y: &Dynamic| match operator(*op, x, y) {
                        Some(v) => Some(v),
                        None => natives.as_ref()?.iter().find_map(|f| f(&[x, y])),
                    };
                    match self.in_place(a, &mut |x| unshared(x).and_then(|x| combine(x, &other))) {
                        Some(v) => v?,
                        None => {
                            let other = other.into_owned();
                            let a = value!(self.node(a));
                            combine(&a, &other)?
                        }
                    }
                } else {
                    let a = value!(self.node(a));
                    // `b.type == t`: the local read where it lies once `a` is made (no
                    // expression of Rhai's can change a local of the caller's).
                    if let Some(b) = self.peek(b) {
                        return Some(Flow::Value(match operator(*op, &a, b) {
                            Some(v) => v,
                            None => natives.as_ref()?.iter().find_map(|f| f(&[&a, b]))?,
                        }));
                    }
                    let b = value!(self.node(b));
                    match operator(*op, &a, &b) {
                        Some(v) => v,
                        None => natives.as_ref()?.iter().find_map(|f| f(&[&a, &b]))?,
                    }
                }
            }
            Node::Not(a) => Dynamic::from_bool(!value!(self.node(a)).as_bool().ok()?),
            Node::Neg(a) => Dynamic::from_int(value!(self.node(a)).as_int().ok()?.checked_neg()?),
            Node::And(items) => {
                for item in items {
                    if !value!(self.node(item)).as_bool().ok()? {
                        return Some(Flow::Value(Dynamic::FALSE));
                    }
                }
                Dynamic::TRUE
            }
            Node::Or(items) => {
                for item in items {
                    if value!(self.node(item)).as_bool().ok()? {
                        return Some(Flow::Value(Dynamic::TRUE));
                    }
                }
                Dynamic::FALSE
            }
            Node::SetIndex(slot, key, op, value) => {
                // Rhai's order: the value, then the key.
                let v = value!(self.node(value));
                let key = value!(self.node(key));
                self.set_index(*slot, &key, *op, v)?;
                Dynamic::UNIT
            }
            Node::Index(object, index) => {
                if let Some(found) = self.in_place(node, &mut |v| Some(v.clone())) {
                    return Some(Flow::Value(found?));
                }
                let index = value!(self.node(index));
                let lazy = self.lazy;
                match self.operand(object)? {
                    Ok(object) => match object.as_map_ref() {
                        // A missing key is `()`, as in Rhai.
                        Ok(map) => match map.get(index.read_lock::<ImmutableString>()?.as_str()) {
                            Some(v) => made(lazy, v)?.clone(),
                            None => Dynamic::UNIT,
                        },
                        Err(_) => object.as_array_ref().ok()?.get(usize::try_from(index.as_int().ok()?).ok()?)?.clone(),
                    },
                    Err(ret) => return Some(ret),
                }
            }
            // `seat.buildings.len()`: counted where the list lies, not a copy of it
            // measured against the sandbox's sizes (a list a script made was measured
            // when made; the game's own are within them by its bounds on cards).
            Node::Len(object) => {
                let in_place = match **object {
                    Node::Get(..) | Node::Index(..) => self.len_in_place(object),
                    _ => None,
                };
                let n = match in_place {
                    Some(n) => n,
                    None => match self.operand(object)? {
                        Ok(object) => length(&object)?,
                        Err(ret) => return Some(ret),
                    },
                };
                Dynamic::from_int(i32::try_from(n).ok()?)
            }
            Node::Entries(object, values) => {
                let array: Array = match self.operand(object)? {
                    Ok(object) => {
                        let map = object.as_map_ref().ok()?;
                        if *values {
                            map.values().cloned().collect()
                        } else {
                            map.keys().map(|k| Dynamic::from(ImmutableString::from(k.as_str()))).collect()
                        }
                    }
                    Err(ret) => return Some(ret),
                };
                self.checked(Dynamic::from_array(array))?
            }
            Node::If(cond, then, otherwise) => {
                let holds = match &**cond {
                    // `if a < b` on locals and constants: compared where they lie, no flag made.
                    Node::Op(op, None, a, b) if !op.arithmetic() => match (self.peek(a), self.peek(b)) {
                        (Some(a), Some(b)) => truth(*op, a, b)?,
                        // `if b.type == t`: the field compared where it lies, not copied.
                        (None, Some(b)) => {
                            match self.in_place(a, &mut |x| unshared(x).and_then(|x| truth(*op, x, b))) {
                                Some(holds) => holds?,
                                None => value!(self.node(cond)).as_bool().ok()?,
                            }
                        }
                        _ => value!(self.node(cond)).as_bool().ok()?,
                    },
                    _ => value!(self.node(cond)).as_bool().ok()?,
                };
                let branch = if holds { then } else { otherwise };
                return self.block(branch);
            }
            Node::Block(block) => return self.block(block),
            Node::ForEach(items, indexed, body) => {
                // A list lent to the frame cannot change while the body runs: walked where it lies.
                if let Some(list) = self.lent(items) {
                    return self.for_lent(list, *indexed, body);
                }
                // Rhai walks a copy: the body may change the list it came from.
                let items = value!(self.node(items));
                return self.for_items(items, *indexed, body);
            }
            Node::ForLocal(slot, indexed, body) => return self.for_local(*slot, *indexed, body),
            Node::ForRange(start, end, inclusive, body) => {
                let start = value!(self.node(start)).as_int().ok()?;
                let end = value!(self.node(end)).as_int().ok()?;
                let end = if *inclusive { end.checked_add(1)? } else { end };
                return self.for_each((start..end).map(Dynamic::from_int), false, body);
            }
            Node::While(cond, body) => {
                loop {
                    if let Some(cond) = cond
                        && !value!(self.node(cond)).as_bool().ok()?
                    {
                        break;
                    }
                    match self.lap(body)? {
                        Flow::Value(_) | Flow::Continue => {}
                        Flow::Break => break,
                        ret @ Flow::Return(_) => return Some(ret),
                    }
                }
                Dynamic::UNIT
            }
            Node::Contains(container, needle, equals) => {
                let needle = value!(self.node(needle));
                let found = match self.operand(container)? {
                    Ok(container) => contains(&container, &needle, equals.as_deref())?,
                    Err(other) => return Some(other),
                };
                Dynamic::from_bool(found)
            }
            Node::Text(parts, to_string) => {
                let mut text = String::new();
                for part in parts {
                    let v = value!(self.node(part));
                    if let Ok(s) = v.as_immutable_string_ref() {
                        text.push_str(s.as_str());
                    } else if let Ok(n) = v.as_int() {
                        text.push_str(&n.to_string());
                    } else if let Ok(b) = v.as_bool() {
                        text.push_str(if b { "true" } else { "false" });
                    } else {
                        let s = to_string.as_ref()?.iter().find_map(|f| f(&[&v]))?;
                        text.push_str(s.as_immutable_string_ref().ok()?.as_str());
                    }
                }
                self.checked(Dynamic::from(ImmutableString::from(text)))?
            }
            Node::Break => return Some(Flow::Break),
            Node::Continue => return Some(Flow::Continue),
            Node::Push(slot, value) => {
                // A map written in place (`effects.push(#{ … })`) comes with its sizes.
                let (v, added) = match &**value {
                    Node::Map(template, items, places) => match self.map_literal(template, items, places.as_deref())? {
                        Ok(made) => made,
                        Err(ret) => return Some(ret),
                    },
                    _ => {
                        let v = value!(self.node(value));
                        let added = sizes(&v)?;
                        (v, added)
                    }
                };
                self.push(*slot, v, added)?;
                Dynamic::UNIT
            }
            Node::Return(value) => return Some(Flow::Return(value!(self.node(value)))),
            Node::Helper(body, args) => {
                // An argument read in place in a lent value is lent on (a seat of `ctx.table`).
                let mut locals = SmallVec::new();
                for a in args {
                    locals.push(match self.lent(a) {
                        Some(v) => Val::Lent(v),
                        None => Val::Own(value!(self.node(a))),
                    });
                }
                let mut inner = Frame { locals, size: self.size, laps: self.laps, lazy: self.lazy };
                let v = match inner.block(body)? {
                    Flow::Value(v) | Flow::Return(v) => v,
                    // `break` outside a loop: an error, Rhai's to report.
                    Flow::Break | Flow::Continue => return None,
                };
                self.laps = inner.laps;
                v
            }
        };
        Some(Flow::Value(v))
    }
}

/// `v` is within the sandbox's sizes `size` (false too for a value it cannot measure).
#[inline]
fn within(v: &Dynamic, size: usize) -> bool {
    if !(v.is_array() || v.is_map() || v.is_string()) {
        return true;
    }
    sizes(v).is_some_and(|s| s.within(size))
}

/// What Rhai counts of a value against the sandbox's sizes: the elements of
/// arrays, the entries of maps and the bytes of text in it, nested ones included.
#[derive(Clone, Copy, Default)]
struct Sizes {
    arrays: usize,
    maps: usize,
    text: usize,
}

impl std::ops::Add for Sizes {
    type Output = Sizes;

    fn add(self, other: Sizes) -> Sizes {
        Sizes { arrays: self.arrays + other.arrays, maps: self.maps + other.maps, text: self.text + other.text }
    }
}

impl Sizes {
    /// Each count within the sandbox's `size`.
    fn within(self, size: usize) -> bool {
        self.arrays <= size && self.maps <= size && self.text <= size
    }

    /// As kept with a list the frame grew ([`Val::Sized`]); `None` past what that holds.
    fn packed(self) -> Option<[u32; 3]> {
        Some([self.arrays.try_into().ok()?, self.maps.try_into().ok()?, self.text.try_into().ok()?])
    }

    /// The sizes [`Sizes::packed`] kept.
    fn unpacked([arrays, maps, text]: [u32; 3]) -> Sizes {
        Sizes { arrays: arrays as usize, maps: maps as usize, text: text as usize }
    }
}

/// [`Sizes`] of `v`, Rhai's data-size count; `None` for a shared value.
fn sizes(v: &Dynamic) -> Option<Sizes> {
    /// Holds nothing that counts (a card, a number): what most elements are.
    #[inline(always)]
    fn leaf(v: &Dynamic) -> bool {
        !(v.is_array() || v.is_map() || v.is_string() || v.is_shared())
    }
    if v.is_shared() {
        return None;
    }
    Some(if v.is_array() {
        let items = v.as_array_ref().ok()?;
        let mut total = Sizes { arrays: items.len(), ..Sizes::default() };
        for item in items.iter().filter(|i| !leaf(i)) {
            total = total + sizes(item)?;
        }
        total
    } else if v.is_map() {
        let map = v.as_map_ref().ok()?;
        sizes_of_map(&map)?
    } else if v.is_string() {
        Sizes { text: v.as_immutable_string_ref().ok()?.len(), ..Sizes::default() }
    } else {
        Sizes::default()
    })
}

/// [`sizes`] of a map's entries and what they hold.
fn sizes_of_map(map: &Map) -> Option<Sizes> {
    let mut total = Sizes { maps: map.len(), ..Sizes::default() };
    for item in map.values() {
        // Mostly numbers and text (an effect's `from: "discard"`): counted here.
        if item.is_shared() {
            return None;
        } else if item.is_string() {
            total.text += item.as_immutable_string_ref().ok()?.len();
        } else if item.is_array() || item.is_map() {
            total = total + sizes(item)?;
        }
    }
    Some(total)
}

/// Rhai's `contains`: a list holds an element equal to `needle` (values of two
/// types without an `==` are unequal), a map has the key, a text the text.
/// `None` where Rhai would fail (a type without `==`, a key that is not text).
fn contains(container: &Dynamic, needle: &Dynamic, equals: Option<&[Native]>) -> Option<bool> {
    if let Ok(items) = container.as_array_ref() {
        for item in items.iter() {
            let same = match operator(Op::Eq, item, needle) {
                Some(v) => v.as_bool().ok()?,
                None => match equals.and_then(|fs| fs.iter().find_map(|f| f(&[item, needle]))) {
                    Some(v) => v.as_bool().ok()?,
                    None if item.type_id() != needle.type_id() => false,
                    None => return None,
                },
            };
            if same {
                return Some(true);
            }
        }
        return Some(false);
    }
    let key = needle.as_immutable_string_ref().ok()?;
    if let Ok(map) = container.as_map_ref() {
        return Some(map.contains_key(key.as_str()));
    }
    Some(container.as_immutable_string_ref().ok()?.contains(key.as_str()))
}

/// `len()` of a list (its elements), a map (its entries) or a text (its characters).
fn length(v: &Dynamic) -> Option<usize> {
    if let Ok(list) = v.as_array_ref() {
        Some(list.len())
    } else if let Ok(map) = v.as_map_ref() {
        Some(map.len())
    } else {
        Some(v.as_immutable_string_ref().ok()?.chars().count())
    }
}

fn arithmetic(op: Op, a: i32, b: i32) -> Option<Dynamic> {
    let n = match op {
        Op::Add => a.checked_add(b),
        Op::Sub => a.checked_sub(b),
        Op::Mul => a.checked_mul(b),
        Op::Div => a.checked_div(b),
        Op::Rem => a.checked_rem(b),
        _ => None,
    }?;
    Some(Dynamic::from_int(n))
}

/// A built-in comparison's answer, numbers compared without a flag made; `None` as for [`operator`].
#[inline(always)]
fn truth(op: Op, a: &Dynamic, b: &Dynamic) -> Option<bool> {
    // Mostly numbers (`if n < 3`): read as such at once.
    if let (Some(x), Some(y)) = (int_of(a), int_of(b)) {
        return compare(op, x.cmp(&y));
    }
    // Then text told equal or not (`if b.type == t`).
    if matches!(op, Op::Eq | Op::Ne) && a.is_string() && b.is_string() {
        let same = *a.as_immutable_string_ref().ok()? == *b.as_immutable_string_ref().ok()?;
        return Some(same == matches!(op, Op::Eq));
    }
    flag_of(&operator(op, a, b)?)
}

/// `node` only reads (a local, a constant, a field or an item of one, a
/// length): evaluated out of order it cannot leave the hook (a block's
/// `return`) before what Rhai evaluates first has failed.
fn reads_only(node: &Node) -> bool {
    match node {
        Node::Local(_) | Node::Const(_) => true,
        Node::Get(object, ..) | Node::Len(object) | Node::Path(_, _, object) => reads_only(object),
        Node::Index(object, index) => reads_only(object) && reads_only(index),
        _ => false,
    }
}

/// `v` unless another value shares it (a shared value is Rhai's to read).
#[inline(always)]
fn unshared(v: &Dynamic) -> Option<&Dynamic> {
    (!v.is_shared()).then_some(v)
}

/// `v`'s number, if it is one: asked of every operand, where Rhai's
/// `as_int` names the type of any other value to say why not.
#[inline(always)]
pub(crate) fn int_of(v: &Dynamic) -> Option<INT> {
    if v.is_int() { v.as_int().ok() } else { None }
}

/// `v`'s flag, if it is one (see [`int_of`]).
#[inline(always)]
pub(crate) fn flag_of(v: &Dynamic) -> Option<bool> {
    if v.is_bool() { v.as_bool().ok() } else { None }
}

/// A built-in operator on numbers, flags or text; `None` for anything else.
fn operator(op: Op, a: &Dynamic, b: &Dynamic) -> Option<Dynamic> {
    use std::cmp::Ordering;
    if let (Some(x), Some(y)) = (int_of(a), int_of(b)) {
        if op.arithmetic() {
            return arithmetic(op, x, y);
        }
        return Some(Dynamic::from_bool(compare(op, x.cmp(&y))?));
    }
    let order: Ordering = if let (Some(x), Some(y)) = (flag_of(a), flag_of(b)) {
        if !matches!(op, Op::Eq | Op::Ne) {
            return None;
        }
        x.cmp(&y)
    } else if a.is_string() && b.is_string() {
        if op.arithmetic() {
            return None;
        }
        let (x, y) = (a.as_immutable_string_ref().ok()?, b.as_immutable_string_ref().ok()?);
        // Equality, the usual test (`b.type == t`): one text shared, or lengths that differ, answer at once.
        if matches!(op, Op::Eq | Op::Ne) {
            return Some(Dynamic::from_bool((*x == *y) == matches!(op, Op::Eq)));
        }
        x.as_str().cmp(y.as_str())
    } else if (a.is_unit() || b.is_unit()) && matches!(op, Op::Eq | Op::Ne) {
        // `()` equals only `()`: Rhai's answer for two values of different
        // types that no operator joins (a display slot `b != ()`, a map). A
        // value of the game's own type may have operators of its own: Rhai's.
        let plain = |v: &Dynamic| {
            v.is_unit() || v.is_int() || v.is_bool() || v.is_map() || v.is_array() || v.is_string() || v.is_char()
        };
        if !(plain(a) && plain(b)) {
            return None;
        }
        if a.is_unit() && b.is_unit() { Ordering::Equal } else { Ordering::Less }
    } else {
        return None;
    };
    Some(Dynamic::from_bool(compare(op, order)?))
}

fn compare(op: Op, order: std::cmp::Ordering) -> Option<bool> {
    use std::cmp::Ordering::*;
    Some(match op {
        Op::Eq => order == Equal,
        Op::Ne => order != Equal,
        Op::Lt => order == Less,
        Op::Le => order != Greater,
        Op::Gt => order == Greater,
        Op::Ge => order != Less,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thing with a number and a name: what a game's card is to its scripts.
    #[derive(Clone)]
    struct Thing {
        n: i32,
        name: &'static str,
    }

    struct Host {
        engine: Engine,
        natives: Natives,
    }

    fn host() -> Host {
        host_with(|t| (t.n != 1).then(|| Dynamic::from_int(t.n)))
    }

    /// `Thing.info`, a map of `a` (the number) and `b` (a list), with
    /// `shortcut` registered for `x.info.a`.
    fn host_with(shortcut: fn(&Thing) -> Option<Dynamic>) -> Host {
        let mut engine = Engine::new();
        engine
            .set_optimization_level(rhai::OptimizationLevel::Full)
            .set_max_array_size(20)
            .set_max_map_size(20)
            .set_max_string_size(20)
            .set_max_operations(100_000);
        engine.register_type_with_name::<Thing>("Thing");
        let mut natives = Natives::default();
        Registrar::new(&mut engine, &mut natives)
            .getter("n", |t: &Thing| t.n)
            .getter("name", |t: &Thing| ImmutableString::from(t.name))
            .getter("things", |t: &Thing| (0..t.n).map(|i| Dynamic::from(Thing { n: i, name: "x" })).collect::<Array>())
            .getter("info", |t: &Thing| {
                let mut m = Map::new();
                m.insert("a".into(), Dynamic::from_int(t.n));
                m.insert("b".into(), Dynamic::from_array(vec![Dynamic::from_int(t.n); 3]));
                m
            })
            .shortcut("info", "a", shortcut)
            .function("double", |t: &Thing| t.n * 2)
            .function("to_string", |t: &Thing| ImmutableString::from(t.name))
            .function("total", |a: &Array| a.iter().filter_map(|v| v.read_lock::<Thing>().map(|t| t.n)).sum::<i32>())
            .function_text("named", |t: &Thing, s: &str| t.name == s)
            .operator("==", |a: &Thing, b: &Thing| a.n == b.n);
        Host { engine, natives }
    }

    /// The script's `f(arg)` both ways: (fast path's answer or `None` if it gave up or
    /// did not translate, Rhai's answer or its error), as text.
    fn both(h: &Host, script: &str, arg: Dynamic) -> (Option<String>, String) {
        let ast = h.engine.compile(script).unwrap();
        let fast = compile(&ast, "f", &h.natives, 20).and_then(|c| c.run(arg.clone()).ok()).map(|v| format!("{v:?}"));
        let rhai = h
            .engine
            .call_fn::<Dynamic>(&mut rhai::Scope::new(), &ast, "f", (arg,))
            .map_or_else(|e| format!("error: {e}"), |v| format!("{v:?}"));
        (fast, rhai)
    }

    #[test]
    fn a_deferred_member_is_made_once_and_only_when_read() {
        let h = host();
        // The whole argument (Rhai's) and the lazy one: `table` and `hand` deferred.
        let table = || {
            let mut seat = Map::new();
            seat.insert("buildings".into(), Dynamic::from_array(vec![Dynamic::from_int(4), Dynamic::from_int(9)]));
            let mut t = Map::new();
            t.insert("seats".into(), Dynamic::from_array(vec![Dynamic::from_map(seat), Dynamic::UNIT]));
            Dynamic::from_map(t)
        };
        let hand = || Dynamic::from_array(vec![Dynamic::from_int(3); 2]);
        let arg = |n: i32, lazy: bool| {
            let mut m = Map::new();
            m.insert("n".into(), Dynamic::from_int(n));
            m.insert("table".into(), if lazy { Dynamic::from(Deferred(0)) } else { table() });
            m.insert("hand".into(), if lazy { Dynamic::from(Deferred(1)) } else { hand() });
            Dynamic::from_map(m)
        };
        for (script, made_when_n_is_1, made_when_n_is_2) in [
            // Read past a test that mostly fails: made only when the test passes, once however often read.
            (
                "fn f(x) { if x.n != 2 { return 0; } x.table.seats[0].buildings[1] + x.table.seats[0].buildings.len() }",
                0,
                1,
            ),
            // Walked, copied, indexed by text, counted, inside a helper, in a map made by the hook.
            ("fn f(x) { let s = 0; for b in x.table.seats[0].buildings { s += b; } s + x.hand.len() }", 2, 2),
            ("fn f(x) { let t = x.table; let h = x[\"hand\"]; [t.seats[1], h[0], x.n] }", 2, 2),
            ("fn f(x) { g(x) } fn g(y) { if y.n == 1 { y.hand } else { #{ t: y.table } } }", 1, 1),
            ("fn f(x) { x.n }", 0, 0),
        ] {
            let ast = h.engine.compile(script).unwrap();
            let fast = compile(&ast, "f", &h.natives, 20).unwrap_or_else(|| panic!("{script} is not translated"));
            for (n, expected_makes) in [(1, made_when_n_is_1), (2, made_when_n_is_2)] {
                let makes = std::cell::Cell::new(0);
                let make = |i: u8| {
                    makes.set(makes.get() + 1);
                    if i == 0 { table() } else { hand() }
                };
                let lazy = fast.run_lazy(arg(n, true), &make, Lent::default()).map(|v| format!("{v:?}")).ok();
                let (_, rhai) = both(&h, script, arg(n, false));
                assert_eq!(lazy.as_deref(), Some(rhai.as_str()), "{script} with n = {n}");
                assert_eq!(makes.get(), expected_makes, "{script} with n = {n}: members made");
                // The hand lent as it stands: read in place, never made, the same answer.
                let (held, makes_lent) = (hand(), std::cell::Cell::new(0));
                let make_table = |i: u8| {
                    makes_lent.set(makes_lent.get() + 1);
                    assert_eq!(i, 0, "{script}: a lent member is not made");
                    table()
                };
                let lent = fast
                    .run_lazy(arg(n, true), &make_table, Lent { held: &[None, Some(&held)], kept: &[] })
                    .map(|v| format!("{v:?}"))
                    .ok();
                assert_eq!(lent.as_deref(), Some(rhai.as_str()), "{script} with n = {n}, the hand lent");
                assert!(makes_lent.get() <= expected_makes, "{script} with n = {n}");
            }
            // The table kept across runs (a decision's slots): made by the first
            // run that reads it, read by the others, and never written through
            // (the third script writes its copy; the next run reads the table as made).
            let (kept, makes_kept) = (std::cell::OnceCell::new(), std::cell::Cell::new(0));
            let make_kept = |i: u8| {
                makes_kept.set(makes_kept.get() + 1);
                if i == 0 { table() } else { hand() }
            };
            let hand_made = if script.contains("hand") { 1 } else { 0 };
            for n in [2, 2, 1, 2] {
                let lent = Lent { held: &[], kept: &[(0, &kept)] };
                let answer = fast.run_lazy(arg(n, true), &make_kept, lent).map(|v| format!("{v:?}")).ok();
                assert_eq!(answer.as_deref(), Some(both(&h, script, arg(n, false)).1.as_str()), "{script}, kept");
            }
            let table_read = script.contains("table");
            assert!(makes_kept.get() <= usize::from(table_read) + 4 * hand_made, "{script}: the table made once");
            assert_eq!(kept.get().is_some(), table_read, "{script}");
        }
    }

    #[test]
    fn a_kept_member_written_by_a_run_is_copied_not_changed() {
        let h = host();
        let script =
            "fn f(x) { let t = x.table; t[\"n\"] += 1; let s = x.table.seats; s.push(7); s[0] = 5; [t.n, s, x.table] }";
        let ast = h.engine.compile(script).unwrap();
        let fast = compile(&ast, "f", &h.natives, 20).expect("translated");
        let table = || {
            Dynamic::from_map(Map::from_iter([
                ("n".into(), Dynamic::from_int(1)),
                ("seats".into(), Dynamic::from_array(vec![Dynamic::from_int(0)])),
            ]))
        };
        let (kept, makes) = (std::cell::OnceCell::new(), std::cell::Cell::new(0));
        let make = |_: u8| {
            makes.set(makes.get() + 1);
            table()
        };
        let arg = || Dynamic::from_map(Map::from_iter([("table".into(), Dynamic::from(Deferred(0)))]));
        for _ in 0..3 {
            let answer = fast.run_lazy(arg(), &make, Lent { held: &[], kept: &[(0, &kept)] });
            // Rhai's answer for the whole argument, run after run: the kept table is as made.
            let whole = Dynamic::from_map(Map::from_iter([("table".into(), table())]));
            let rhai = h.engine.call_fn::<Dynamic>(&mut rhai::Scope::new(), &ast, "f", (whole,)).unwrap();
            assert_eq!(answer.map(|v| format!("{v:?}")).ok(), Some(format!("{rhai:?}")));
        }
        assert_eq!(makes.get(), 1, "made once for the three runs");
        assert_eq!(format!("{:?}", kept.get().unwrap()), format!("{:?}", table()), "the kept table is unchanged");
    }

    /// Each script is translated, and answers as Rhai does for each `n`'s
    /// argument; where Rhai fails (an index past the end), the fast path gives up.
    fn answers_as_rhai(h: &Host, scripts: &[&str], ns: &[i32], arg: impl Fn(i32) -> Dynamic) {
        for script in scripts {
            let ast = h.engine.compile(script).unwrap();
            assert!(compile(&ast, "f", &h.natives, 20).is_some(), "{script} is not translated");
            for &n in ns {
                let (fast, rhai) = both(h, script, arg(n));
                let expected = (!rhai.starts_with("error")).then_some(rhai);
                assert_eq!(fast, expected, "{script} with n = {n}");
            }
        }
    }

    fn thing(n: i32) -> Dynamic {
        Dynamic::from(Thing { n, name: "seven" })
    }

    #[test]
    fn a_translated_hook_answers_as_rhai_does() {
        let h = host();
        let scripts = [
            "fn f(x) { x.n + 1 }",
            "fn f(x) { if x.n > 3 { #{ draw: x.n, why: \"big\" } } else { () } }",
            "fn f(x) { let a = x.n; let b = a * 2; if a == 7 && b != 3 || false { return [a, b]; } -a }",
            "fn f(x) { let t = x.things; [t.len(), total(t), t[2].n, x.double(), double(x)] }",
            "fn f(x) { x.named(\"seven\") && !named(x, \"six\") && x.name == \"seven\" && x.name < \"z\" }",
            "fn f(x) { let n = 0; n += x.n; n *= 3; n -= 1; n = n % 5; { let n = 9; n }; n }",
            "fn f(x) { let m = #{ a: x.n, b: [x.n, 2] }; m.b[1] + m.a }",
            "fn f(x) { x == x.things[1] }",
            "fn f(x) { if x.n < 0 { 1 } else if x.n < 5 { 2 } else { 3 } }",
            "fn f(x) { let a = [[1, 2], [x.n, 4]]; let i = #{ k: 1 }; [a[1][0], a[i.k][1], x.things[1].things.len()] }",
            "fn f(x) { }",
            // Every operator, on both sides of equality (n = 4).
            "fn f(x) { [x.n < 4, x.n <= 4, x.n > 4, x.n >= 4, x.n == 4, x.n != 4] }",
            "fn f(x) { [x.n + 4, x.n - 4, x.n * 4, x.n / 4, x.n % 4, 4 / (x.n + 1), -x.n, !(x.n > 1)] }",
            "fn f(x) { let s = if x.n == 4 { \"seven\" } else { \"six\" }; [x.name < s, x.name <= s, x.name > s, x.name >= s, x.name == s, x.name != s] }",
            "fn f(x) { let b = x.n > 1; [b == true, b != true, b && x.n < 7, b || x.n == 0, () == ()] }",
            // A missing key reads as `()` (a `ctx` holds only the members its hook reads).
            "fn f(x) { let m = #{ a: #{ b: x.n } }; [m.b, m[x.name], m.a.z, m[\"z\"], m.a[\"z\"] == ()] }",
            // A field compared where it lies with a local or a constant (`if b.type == t`):
            // text, numbers, flags, a missing key, and a getter's value (not read in place).
            "fn f(x) { let m = #{ s: x.name, n: x.n, b: x.n > 1, l: [#{ s: \"six\" }] }; let t = \"seven\"; let k = 4; let u = (); let r = []; \
             if m.s == t { r.push(1) } if m.s != t { r.push(2) } if m.s < t { r.push(3) } if m.l[0].s >= t { r.push(4) } \
             if m.n >= k { r.push(5) } if m.n < 4 { r.push(6) } if m.z == u { r.push(7) } if m.z != k { r.push(8) } \
             if m.b == true { r.push(9) } if x.n == k { r.push(10) } if m.s == \"six\" { r.push(11) } r }",
            // A game's own `==` (two things) in an `if`, one side a field of a map.
            "fn f(x) { let t = x.things[1]; let u = x.things[1]; let m = #{ a: x.things[0] }; \
             [if m.a == t { 1 } else { 2 }, if t == u { 3 } else { 4 }] }",
            // A field or item compared where it lies with what the other side makes.
            "fn f(x) { let m = #{ a: x.n, s: x.name, l: [x.n] }; let t = x.things; \
             [m.a == t[0].n, m.l[0] < t.len(), m.s != x.name, m.a + t.len(), t[1] == t[1], m.z == t.len()] }",
            // A call's arguments read where they lie in a value of the frame's own or lent.
            "fn f(x) { let m = #{ s: x.name, t: \"se\", n: x.n, l: [#{ k: 5 }] }; \
             [m.s.starts_with(m.t), max(m.n, m.l[0].k), min(m.l[0].k, x.n), m.s.ends_with(x.name)] }",
            "fn f(x) { let l = x.things; let r = []; for t in l { r.push(max(t.n, x.n)); } [r, abs(l[0].n)] }",
            // `()` against anything else (a display's empty slot against a building's map).
            "fn f(x) { let m = #{ n: x.n }; [m != (), () == m, x.n == (), () != x.n, \"a\" == (), [] != (), #{} == (), x.n > 1 != ()] }",
            // Loops: over a list (with its index), over ranges, `while`, `loop`, `break`, `continue`, `push`.
            "fn f(x) { let s = 0; for t in x.things { s += t.n; } s }",
            "fn f(x) { let a = []; for (t, i) in x.things { if i % 2 == 0 { continue; } a.push(t.n * 10 + i); } a }",
            // Maps written in place and pushed (a list of effects), the list written otherwise between pushes.
            "fn f(x) { let a = []; for t in x.things { a.push(#{ n: t.n, s: \"ab\" }); } a }",
            "fn f(x) { let a = [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]; for i in 0..9 { a.push(i); } let b = []; for i in 0..6 { b.push(#{ s: \"abc\", n: i }); } [a.len(), b.len()] }",
            "fn f(x) { let a = [#{ n: x.n }]; a.push(#{ m: [()] }); let z = a[0]; z.n = 9; a[0] = z; a.push(#{ b: 1, a: 2 }); a }",
            "fn f(x) { let a = []; a.push(#{ n: x.n }); a.push(1); a[1] = \"long text\"; a.push(#{}); a.push(#{ s: x.name }); [a, a.len()] }",
            "fn f(x) { let s = 0; for i in 0..x.n { s += i; } for j in 2..=x.n { s += j * 100; } for k in 5..1 { s -= 1; } s }",
            "fn f(x) { let n = 0; while n < x.n { n += 2; } let m = 0; loop { m += 1; if m > 3 { break; } } [n, m] }",
            "fn f(x) { for t in x.things { if t.n == 2 { return t.n; } } -1 }",
            "fn f(x) { let a = [1, 2]; for v in a { a.push(v); } a }",
            "fn f(x) { let a = [1, 2]; for v in a { for w in [v] { a.push(w); } } a }",
            "fn f(x) { let a = [1, 2]; let s = 0; for v in a { a = [7]; s += v; } [s, a] }",
            "fn f(x) { let a = [1, 2]; let s = 0; for v in a { a[0] = 9; s += v; } [s, a] }",
            "fn f(x) { let t = x.things; let s = 0; for a in t { for (b, i) in t { if a.n > b.n { s += i; } } } s }",
            "fn f(x) { let a = [3, 1, 2]; let s = 0; for (v, i) in a { if v == 1 { continue; } if i == 2 { break; } s += v; } a.push(s); a }",
            "fn f(x) { let r = 1..4; let s = x.n; for i in r { s += i; } let q = 0..=2; for i in q { s += i * 10; } s }",
            "fn f(x) { let t = x.things; for a in t { if a.n == 2 { return a.n * 3; } } 0 }",
            "fn f(x) { let s = 0; for t in x.things { for u in t.things { s += u.n; } } s }",
            // `in` and `contains` on lists (numbers, text, the game's own `==`, mixed types), maps, text; text built from values.
            "fn f(x) { [2 in [1, 2], x.n in [1, 2], \"a\" in [\"b\"], [1, 2].contains(x.n), x in x.things, 1 in [\"1\", ()]] }",
            "fn f(x) { let m = #{ a: 1 }; [\"a\" in m, x.name in m, \"eve\" in x.name, x.name.contains(\"sev\")] }",
            "fn f(x) { `${x.n},${x.n > 1},${x}` }",
            // A part of a large property read through its shortcut (or the whole, for n = 1).
            "fn f(x) { let t = x.things[0]; [x.info.a, x.info.b.len(), x.info, t.info.a] }",
            // Entries of maps within maps read in place, through to a value of the game's own type.
            "fn f(x) { let m = #{ a: #{ b: #{ c: x.n } }, t: x }; [m.a.b.c, m.a.b, m.t.n, m.t.info.a, m.t.things.len()] }",
            // Entries of lists within maps read in place by a constant or local index (an action's `ctx.args[0].value`).
            "fn f(x) { let m = #{ args: [#{ v: x.n, c: \"a\" }, #{ v: 2 }] }; let i = 1; \
             [m.args[0].v == m.args[i].v, m.args[0].c, m.args[1], m[\"args\"][0].v, m.args[i]] }",
            // ... and by an index itself read in place (`ctx.table.seats[ctx.seat].reserve`): a number, a
            // text, one past the end, a list as the key.
            "fn f(x) { let s = [#{ r: [1] }, #{ r: [] }, #{ r: [x.n] }]; let m = #{ seat: x.n % 3, k: \"a\", seats: s }; \
             m.by = #{ a: 5 }; [m.seats[m.seat].r, m.seats[m.seat].r.len(), m.by[m.k], m.seats[m.seat]] }",
            "fn f(x) { let m = #{ seat: x.n, seats: [#{ r: 1 }, #{ r: 2 }] }; m.seats[m.seat].r }",
            "fn f(x) { let m = #{ k: \"b\", by: #{ a: 5 }, l: [1], s: [[7]] }; [m.by[m.k], m.s[m.l][0]] }",
            // Lists and maps changed in place, read by key; a map's keys and values.
            "fn f(x) { let a = [0, 1, 2]; a[1] = x.n; a[2] *= x.n; a[0] -= 1; a }",
            "fn f(x) { let m = #{ a: 1 }; m.a = x.n; m.c = [x.n]; m[x.name] = 2; m[\"a\"] += 1; [m, m.len(), m.keys(), m.values()] }",
            "fn f(x) { let m = #{ a: x.n }; let k = \"a\"; [m[k], m[\"a\"] * 2, #{}.keys()] }",
            // Counts per key in a map of maps (a card counting its sets by key).
            "fn f(x) { let by = #{}; for t in x.things { let k = `${t.n % 2}`; if !(k in by) { by[k] = #{}; } \
             let c = by[k]; c[t.name] = if t.name in c { c[t.name] + 1 } else { 1 }; by[k] = c; } \
             let s = 0; for k in by.keys() { for n in by[k].values() { s += n; } } [by, s] }",
            // Helpers of the script's own: arguments copied, locals their own, `return` from the helper.
            "fn total(s) { s.things.len() } fn f(x) { let most = 0; for t in x.things { if total(t) > most { most = total(t); } } [most, total(x)] }",
            "fn bump(a) { let b = a; b.push(9); b[0] = -1; b.len() } fn f(x) { let a = [x.n]; let n = bump(a); [a, n] }",
            "fn first_big(x, k) { for t in x.things { if t.n > k { return t.n; } } -1 } fn f(x) { [first_big(x, 1), first_big(x, 99)] }",
            "fn twice(n) { plus(n, n) } fn plus(a, b) { a + b } fn f(x) { let n = 3; twice(x.n) + n }",
            "fn g(x) { } fn f(x) { [g(x), g(x.n)] }",
            // Lengths read in place through maps and lists.
            "fn f(x) { let m = #{ a: [1, x.n], b: #{ c: \"abc\" } }; let l = [m]; [m.a.len(), m.b.len(), m.b.c.len(), l[0].a.len()] }",
            // Rhai's own functions, as functions and as methods, on every side of equality.
            "fn f(x) { let best = 4; [best.max(x.n), max(x.n, 4), x.n.min(4), min(-x.n, x.n), abs(4 - x.n), (x.n - 4).sign(), sign(0)] }",
            "fn f(x) { [x.name.starts_with(\"se\"), x.name.starts_with(`${x.n}`), x.name.ends_with(\"en\"), \"\".starts_with(\"\")] }",
            "fn f(x) { let m = #{}; if x.n > 1 { m.a = 1; } [[].is_empty(), x.things.is_empty(), m.is_empty(), x.name.is_empty(), \"\".is_empty()] }",
            // Past the sandbox's 20 bytes: Rhai's error.
            "fn f(x) { `n=${x.n}, ${x.n > 1} of ${x.name}: ${x}` }",
        ];
        answers_as_rhai(&h, &scripts, &[0, 1, 4, 7], thing);
    }

    #[test]
    fn a_lent_argument_answers_as_rhai_s_copy_does() {
        // `ctx` and what a helper is given are lent, not copied: every write
        // copies first, so the caller's value and Rhai's answers stay the same.
        let h = host();
        let arg = |n: i32| -> Dynamic {
            h.engine
                .eval(&format!(
                    "#{{ n: {n}, seat: {}, seats: [#{{ b: [1, 2], s: 0 }}, #{{ b: [3], s: 1 }}, #{{ b: [], s: 2 }}] }}",
                    n % 3
                ))
                .unwrap()
        };
        let scripts = [
            // A walk over every seat, each given to a helper, twice, and the seat of `ctx.seat`.
            "fn total(s) { s.b.len() } fn f(x) { let most = 0; for s in x.seats { if total(s) > most { most = total(s); } } \
             [most, total(x.seats[x.seat]), most == total(x.seats[x.seat])] }",
            // A loop's item written: a copy, the list unchanged.
            "fn f(x) { let t = 0; for s in x.seats { t += s.s; s.s = 99; t += s.s; s.b = [x.n]; } [t, x.seats] }",
            "fn f(x) { let r = []; for s in x.seats { s = x.n; r.push(s); } [r, x.seats[0]] }",
            // A helper writing what it was lent (its second parameter): the caller's stays.
            "fn add(k, l) { l.push(k); l[0] = -1; l } fn f(x) { [add(x.n, x.seats[0].b), x.seats[0].b, add(1, x.seats)] }",
            // Lent items kept in a list of the script's own, then changed there.
            "fn f(x) { let a = []; for s in x.seats { a.push(s); } let z = a[0]; z.s = 7; a[0] = z; a[1] = 0; [a, x.seats] }",
            "fn f(x) { let mine = x.seats[x.seat]; mine.s += 10; [mine, x.seats[x.seat]] }",
            "fn f(x) { let l = x.seats; let k = l; l.push(x.n); k[0] = 1; [l.len(), k[0], x.seats.len(), x.seats[0].s] }",
            // Returned from inside a walk, nested walks, and by index.
            "fn f(x) { for (s, i) in x.seats { if i == x.seat { return s; } } () }",
            "fn f(x) { let t = 0; for s in x.seats { for v in s.b { t += v * x.n; } } t }",
            "fn deep(s) { inner(s.b) } fn inner(l) { let t = 0; for v in l { t += v; } t } fn f(x) { deep(x.seats[x.seat]) + deep(x.seats[0]) }",
            // Compared where it lies; a list indexed past its end: Rhai's error.
            "fn f(x) { let t = []; for s in x.seats { t.push(s.s == x.seats[x.seat].s); } [t, x.seats.len()] }",
            "fn g(s) { s.b[1] } fn f(x) { g(x.seats[x.seat]) }",
            // Lent at a key worked out (`display[s - 1]`), written after, and past the end or overflowing.
            "fn f(x) { let l = x.seats; let r = []; for s in 1..(l.len() + 1) { let b = l[s - 1]; b.s += x.n; r.push(b); } [r, l] }",
            "fn f(x) { let l = x.seats; let m = l[(x.seat + 1) % l.len()]; m.s = x.n; [m, l[x.n % 3 * 1]] }",
            "fn f(x) { let l = x.seats; let i = x.n; let b = l[i - 1 + 1]; let c = l[i * 1]; [b, c] }",
            "fn f(x) { let l = x.seats; let i = x.n; let big = 2147483647; l[big + i] }",
            // A list of the script's own walked: its items lent per lap, kept, written, returned, walked nested.
            "fn f(x) { let l = [#{ a: x.n }, #{ a: 2 }, [x.n, 3]]; let kept = []; for s in l { kept.push(s); s = 0; kept.push(s); } [kept, l] }",
            "fn f(x) { let l = [#{ a: x.n }, #{ a: 2 }]; let last = (); for s in l { s.a += 1; last = s; } [last, l] }",
            "fn f(x) { let l = [[1, x.n], [3]]; let t = 0; for a in l { for b in l { t += a.len() * b.len() + a[0]; } } t }",
            "fn f(x) { let l = [#{ a: x.n }, #{ a: 2 }]; for (s, i) in l { if s.a == 2 { return [s, i]; } } l }",
            "fn mk(n) { [#{ b: [n] }, #{ b: [] }] } fn f(x) { let l = mk(x.n); let t = []; for s in l { let c = s.b; c.push(1); t.push(c); } [t, l] }",
        ];
        answers_as_rhai(&h, &scripts, &[0, 1, 2, 5], arg);
    }

    #[test]
    fn a_shortcut_answers_for_the_two_reads_unless_it_declines() {
        // A shortcut that answers differently from the two reads shows which one ran.
        let h = host_with(|t| (t.n != 1).then(|| Dynamic::from_int(t.n + 100)));
        for (script, n, fast) in [
            ("fn f(x) { x.info.a }", 4, "104"),
            ("fn f(x) { x.info.a }", 1, "1"),
            // Only on a local: the same path on another value takes the two reads.
            ("fn f(x) { x.things[2].info.a }", 4, "2"),
            ("fn f(x) { let t = x.things[2]; t.info.a }", 4, "102"),
            ("fn f(x) { let m = #{ info: #{ a: 5 } }; m.info.a }", 4, "5"),
        ] {
            let (answer, _) = both(&h, script, thing(n));
            assert_eq!(answer.as_deref(), Some(fast), "{script} with n = {n}");
        }
    }

    #[test]
    fn a_map_s_field_is_read_unmeasured_as_rhai_reads_it() {
        // Rhai measures what a getter returns against the sandbox's sizes
        // (`x.things` of a `Thing`, below), not a map's field: a list or a text
        // past them, read out of a map, is answered, not left to Rhai.
        let h = host();
        let big = || Dynamic::from_array((0..30).map(Dynamic::from_int).collect());
        let arg = Dynamic::from_map(Map::from_iter([
            ("things".into(), big()),
            ("inner".into(), Dynamic::from_map(Map::from_iter([("things".into(), big())]))),
            ("s".into(), Dynamic::from(ImmutableString::from("x".repeat(30)))),
        ]));
        for script in [
            "fn f(x) { x.things }",
            "fn f(x) { let t = x.things; t[29] }",
            "fn f(x) { x.inner.things[29] + x.things[3] }",
            "fn f(x) { [x.s == \"a\", x.s != \"a\"] }",
            "fn f(x) { let n = 0; for i in x.inner.things { n += i; } n }",
        ] {
            let (fast, rhai) = both(&h, script, arg.clone());
            assert!(!rhai.starts_with("error"), "{script}: {rhai}");
            assert_eq!(fast, Some(rhai), "{script}");
        }
    }

    #[test]
    fn what_the_fast_path_cannot_answer_is_left_to_rhai() {
        let h = host();
        // Translated, but the value is one it gives up on: Rhai's error (or answer) stands.
        for (script, n, rhai) in [
            ("fn f(x) { 2147483647 + x.n }", 1, "error: Addition overflow"),
            ("fn f(x) { x.n / (x.n - 1) }", 1, "error: Division by zero"),
            ("fn f(x) { -(-2147483647 - x.n) }", 1, "error: integer overflow"),
            ("fn f(x) { x.things[5] }", 2, "error: Array index 5 out of bounds"),
            // Rhai counts a negative index from the end.
            ("fn f(x) { x.things[-1].n }", 3, "2"),
            ("fn f(x) { x.things }", 30, "error: Size of array/BLOB too large"),
            ("fn f(x) { x.things.len() }", 30, "error: Size of array"),
            ("fn f(x) { let m = #{ l: x.things }; m.l.len() }", 30, "error: Size of array"),
            // Each list within bounds, the two together not (Rhai counts nested elements).
            ("fn f(x) { [x.things, x.things] }", 12, "error: Size of array"),
            ("fn f(x) { x.n == \"7\" }", 7, "false"),
            ("fn f(x) { if x.n { 1 } }", 7, "error: Data type incorrect"),
            // An endless loop: the fast path stops counting, Rhai stops it at its operation limit.
            ("fn f(x) { let n = 0; loop { n += 0; } }", 1, "error: Too many operations"),
            ("fn f(x) { for c in x.name { } }", 1, "()"),
            ("fn f(x) { let a = []; for i in 0..25 { a.push(i); } a }", 1, "error: Size of array"),
            // Maps pushed: their entries and text count with the list's (the sandbox's size is 20).
            (
                "fn f(x) { let a = []; for i in 0..7 { a.push(#{ s: \"abc\", n: i }); } a.len() }",
                1,
                "error: Length of string",
            ),
            (
                "fn f(x) { let a = []; for i in 0..11 { a.push(#{ n: i, m: i }); } a.len() }",
                1,
                "error: Size of object map",
            ),
            ("fn f(x) { let m = #{ l: [1] }; m.l[5] == x.n }", 1, "error: Array index 5 out of bounds"),
            // A list written between two pushes is measured afresh at the second.
            (
                "fn f(x) { let a = []; a.push(\"abcdefghij\"); a[0] = \"abcdefghijabcdefghij\"; a.push(\"x\"); a }",
                1,
                "error: Length of string",
            ),
            (
                "fn f(x) { let a = [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]; for i in 0..10 { a.push(i); } a.len() }",
                1,
                "error: Size of array",
            ),
            // Keys and indices Rhai refuses or reads otherwise: out of bounds, from the end, not
            // a text, an `op=` on a missing key, a map past the sandbox's size, a key of `()`.
            ("fn f(x) { let a = [1]; a[x.n] = 2; a }", 3, "error: Array index 3 out of bounds"),
            ("fn f(x) { let a = [1, 2]; a[-1] = x.n; a }", 7, "[1, 7]"),
            ("fn f(x) { let m = #{}; m[x.n] = 1; m }", 1, "error"),
            ("fn f(x) { let m = #{}; m.a += x.n; m }", 1, "error"),
            ("fn f(x) { let a = [\"s\"]; a[0] += x.n; a }", 1, "[\"s1\"]"),
            ("fn f(x) { let m = #{}; for i in 0..25 { m[`${i}`] = x.n; } m.len() }", 1, "error: Size of object map"),
            ("fn f(x) { let m = #{ a: #{ b: x.n } }; m.z.b }", 1, "error"),
            ("fn f(x) { let a = [x.n]; a.keys() }", 1, "error: Function not found"),
            // Rhai's own functions on values the fast path does not answer for: an overflow, a
            // character, a value of the game's own type, a range.
            ("fn f(x) { abs(-2147483647 - x.n) }", 1, "error: Negation overflow"),
            ("fn f(x) { x.name.starts_with('s') }", 1, "true"),
            ("fn f(x) { x.max(x.n) }", 1, "error: Function not found"),
            ("fn f(x) { (1..x.n).is_empty() }", 1, "true"),
            // Two values of a type whose `==` only Rhai knows (a range): Rhai's answer.
            ("fn f(x) { let r = 1..x.n; [r].contains(r) }", 3, "true"),
        ] {
            let (fast, answer) = both(&h, script, thing(n));
            assert_eq!(fast, None, "{script}");
            assert!(answer.starts_with(rhai), "{script}: {answer}");
        }
        // Not translated at all: helpers that call themselves (or each other), called as
        // methods or with `this`, overloaded; property writes, `throw`, `break` with a value.
        for script in [
            "fn f(x) { loop { break 3; } }",
            "fn f(x) { g(x) } fn g(x) { g(x) }",
            "fn f(x) { g(x) } fn g(x) { h(x) } fn h(x) { g(x) }",
            "fn f(x) { x.g() } fn g() { this.n }",
            "fn f(x) { g(x) } fn g(x) { x.n } fn g(x, y) { y }",
            "fn f(x) { g(x) } fn g(x) { x.name.sub_string(1) }",
            "fn f(x) { let m = #{ a: #{} }; m.a.b = 1; m }",
            "fn f(x) { x.n = 1; x }",
            "fn f(x) { let m = #{}; m[\"a\"][0] = 1; m }",
            "fn f(x) { throw \"no\"; }",
            "fn f(x) { x.name.sub_string(1) }",
            "fn f(x) { x.name.len() + x?.n }",
        ] {
            let ast = h.engine.compile(script).unwrap();
            assert!(compile(&ast, "f", &h.natives, 20).is_none(), "{script}");
        }
    }
}
