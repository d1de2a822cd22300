//! The keys a hook reads of each element of a list in its `ctx`
//! (`ctx.table.building_display`, `ctx.table.seats`), followed through the
//! ways designers write it: a chain (`ctx.table.seats[ctx.seat].reserve`), a
//! walk (`for b in ctx.table.building_display { if b != () { b.slot } }`), a
//! local holding the list or one element (`let d = ctx.table.building_display;
//! let b = d[s - 1];`), and a helper of the script's own given an element
//! (`fn value(seat) { seat.hand }` called as `value(s)`). A game makes only
//! those keys of each element (and remembers answers by them alone), so a
//! hook that asks which display slots are full is not given, nor asked again
//! about, the buildings in them.
//!
//! Each use is judged by its name and its place alone, never by which binding
//! a name stands for: any use of a name that holds an element anywhere in the
//! function counts, so a second variable of the same name can only make the
//! answer larger (or whole), never miss a key.

use rhai::{AST, ASTFlags, ASTNode, Expr, Stmt};

use crate::{LineCol, key};

/// What a name holds: a list, or one of its elements, at a depth: 0 for
/// the list in `ctx` itself, 1 for a list one of its elements holds
/// (`seat.hand`), and so on down to the list whose elements' keys are sought.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Holds {
    List(u8),
    Element(u8),
}

/// A function's body, as the span of its text.
type Body = (LineCol, LineCol);

/// Most names followed (locals and helpers' parameters) before the answer is "whole".
const MOST_NAMES: usize = 64;

/// The walk's findings so far.
struct Finder<'a> {
    ast: &'a AST,
    /// Whether the list in `ctx` may be counted (`.len()`): true for a list,
    /// false for a map, whose length a reduced map would change.
    list: bool,
    /// The keys down from an element of the list in `ctx` to the list whose
    /// elements' keys are sought (`["hand"]` for each seat's hand); empty for its own.
    below: Vec<String>,
    keys: Vec<String>,
    /// Keys read otherwise than counted (`seat.buildings.len()` counts).
    uncounted: Vec<String>,
    whole: bool,
    /// Names still to follow, and those followed.
    todo: Vec<(Body, String, Holds)>,
    seen: Vec<(Body, String, Holds)>,
}

/// The keys function `name` reads of each element of `ctx.<member>.<list>`
/// when every use of it is such a read (through the ways the module names),
/// a comparison of an element with `()`, or (for a list) its length; `None`
/// otherwise (an element returned, printed, passed to a method, indexed by
/// text; `ctx` or `ctx.<member>` taken whole): the caller then makes the
/// elements whole. `list` says that `ctx.<member>.<list>` is a list
/// (`seats`), not a map read as one element (`neutral`).
/// With `below` (`["hand"]`), the keys read of each element of that list
/// of each element (`ctx.table.seats[s].hand[i].value` → `value`).
pub(crate) fn element_reads(
    ast: &AST,
    name: &str,
    member: &str,
    list: &str,
    is_list: bool,
    below: &[&str],
) -> Option<ElementReads> {
    crate::member_keys(ast, name, member)?;
    let bodies = crate::ctx_bodies(ast, name)?;
    let mut f = Finder {
        ast,
        list: is_list,
        below: below.iter().map(|k| (*k).to_owned()).collect(),
        keys: Vec::new(),
        uncounted: Vec::new(),
        whole: false,
        todo: Vec::new(),
        seen: Vec::new(),
    };
    // The hook's body and each helper's it passes `ctx` to, with the name `ctx` has there.
    for b in &bodies {
        let (body, param) = (b.span, b.param.as_str());
        within(ast, body, &mut |path| f.ctx_use(body, param, member, list, path));
    }
    while let Some((body, name, holds)) = f.todo.pop() {
        if f.whole {
            break;
        }
        f.follow(body, &name, holds);
    }
    let counted = f.keys.iter().filter(|k| !f.uncounted.contains(k)).cloned().collect();
    (!f.whole).then_some(ElementReads { keys: f.keys, counted })
}

impl Finder<'_> {
    /// A use of `ctx` (named `param` in `body`) at the end of `path`: where it
    /// reads `ctx.<member>.<list>`, the list or its elements are followed.
    fn ctx_use(&mut self, body: Body, param: &str, member: &str, list: &str, path: &[ASTNode]) {
        let f = self;
        let Some(q) = path.len().checked_sub(1) else { return };
        let ASTNode::Expr(Expr::Variable(v, ..)) = path[q] else { return };
        if v.1 != param || q == 0 {
            return;
        }
        let ASTNode::Expr(Expr::Dot(top, ..)) = path[q - 1] else { return };
        if !same(&top.lhs, path[q]) {
            return;
        }
        let Expr::Dot(inner, ..) = &top.rhs else { return };
        if !is(&inner.lhs, member) {
            return;
        }
        match &inner.rhs {
            e if is(e, list) => f.list_at(body, path, q - 1, 0),
            Expr::Dot(next, ..) if is(&next.lhs, list) => f.after_list(body, path, q - 1, &next.rhs, 0),
            Expr::Index(next, flags, ..) if is(&next.lhs, list) => f.indexed(body, path, q - 1, &next.rhs, *flags, 0),
            _ => {}
        }
    }
}

/// What a hook reads of each element of a list in its `ctx` ([`element_reads`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElementReads {
    /// The keys it reads, in the order first met.
    pub keys: Vec<String>,
    /// Those of them it only ever counts (`seat.buildings.len()`): a game may
    /// give a list of that many `()` and remember the answer by the count.
    pub counted: Vec<String>,
}

/// Calls `f` with the path to each node of the function whose body is `body`.
fn within(ast: &AST, body: Body, f: &mut dyn FnMut(&[ASTNode])) {
    ast.walk(&mut |path: &[ASTNode]| {
        if path.first().is_some_and(|n| (body.0..=body.1).contains(&key(n.position()))) {
            f(path);
        }
        true
    });
}

/// `e` is the property `k`.
fn is(e: &Expr, k: &str) -> bool {
    matches!(e, Expr::Property(p, _) if p.2.as_str() == k)
}

/// `e` is the very node `node`.
fn same(e: &Expr, node: ASTNode) -> bool {
    matches!(node, ASTNode::Expr(n) if std::ptr::eq(e, n))
}

/// The key a chain reads first: `slot` of `slot`, `hand.len()`, `hand[0]`; `None` for a method.
fn first_key(e: &Expr) -> Option<String> {
    match e {
        Expr::Property(k, _) => Some(k.2.to_string()),
        Expr::Dot(next, ..) | Expr::Index(next, ..) => match &next.lhs {
            Expr::Property(k, _) => Some(k.2.to_string()),
            _ => None,
        },
        _ => None,
    }
}

impl Finder<'_> {
    /// A read of an element at `depth` whose chain goes on with `rest`
    /// (`slot`, `buildings.len()`, `hand[0].value`), the whole chain's value
    /// at `path[p]`: at the depth sought, its first key, counted or not; above
    /// it, the list on the way down, used as its place says (another key is
    /// not on the way; a method may see anything).
    fn read(&mut self, body: Body, path: &[ASTNode], p: usize, rest: &Expr, depth: u8) {
        if let Some(down) = self.below.get(usize::from(depth)).cloned() {
            match rest {
                e if is(e, &down) => self.list_at(body, path, p, depth + 1),
                Expr::Dot(next, ..) if is(&next.lhs, &down) => self.after_list(body, path, p, &next.rhs, depth + 1),
                Expr::Index(next, flags, ..) if is(&next.lhs, &down) => {
                    self.indexed(body, path, p, &next.rhs, *flags, depth + 1)
                }
                _ if first_key(rest).is_none() => self.add(None),
                _ => {}
            }
            return;
        }
        let counted = matches!(rest, Expr::Dot(next, ..) if crate::is_len(&next.rhs));
        let key = first_key(rest);
        if let Some(k) = key.as_ref().filter(|k| !counted && !self.uncounted.contains(k)) {
            self.uncounted.push(k.clone());
        }
        self.add(key);
    }

    fn add(&mut self, key: Option<String>) {
        match key {
            Some(k) if !self.keys.contains(&k) => self.keys.push(k),
            Some(_) => {}
            None => self.whole = true,
        }
    }

    fn push(&mut self, body: Body, name: &str, holds: Holds) {
        let item = (body, name.to_owned(), holds);
        if self.seen.contains(&item) {
            return;
        }
        if self.seen.len() >= MOST_NAMES {
            self.whole = true;
            return;
        }
        self.seen.push(item.clone());
        self.todo.push(item);
    }

    /// Every use of `name` in the function `body`, as what it `holds`.
    fn follow(&mut self, body: Body, name: &str, holds: Holds) {
        let ast = self.ast;
        within(ast, body, &mut |path| {
            let Some(p) = path.len().checked_sub(1) else { return };
            let ASTNode::Expr(Expr::Variable(v, ..)) = path[p] else { return };
            if v.1 != name {
                return;
            }
            match holds {
                Holds::List(depth) => self.list_at(body, path, p, depth),
                Holds::Element(depth) => self.element_at(body, path, p, depth),
            }
        });
    }

    /// Whether the list at `depth` is a list (every list below the one in `ctx` is).
    fn is_list(&self, depth: u8) -> bool {
        depth > 0 || self.list
    }

    /// What a chain goes on to after the list at `depth` itself (`list.len()`,
    /// `list.key`), the chain's value at `path[p]`.
    fn after_list(&mut self, body: Body, path: &[ASTNode], p: usize, rest: &Expr, depth: u8) {
        let counted = crate::is_len(rest);
        if !(counted && self.is_list(depth)) {
            // A map read as one element (`ctx.table.neutral.counts`): its key.
            match self.is_list(depth) {
                true => self.add(None),
                false => self.read(body, path, p, rest, depth),
            }
        }
    }

    /// `list[index]`, then `rest` when the chain goes on (no BREAK): the
    /// node at `path[p]` is the whole indexing.
    fn indexed(&mut self, body: Body, path: &[ASTNode], p: usize, rest: &Expr, flags: ASTFlags, depth: u8) {
        if !self.is_list(depth) {
            return self.add(None);
        }
        if flags.contains(ASTFlags::BREAK) {
            // `list[i]` alone: an element, used as its place says.
            return self.element_at(body, path, p, depth);
        }
        // Without BREAK the right side is a chain whose left is the index.
        match rest {
            Expr::Dot(element, ..) => self.read(body, path, p, &element.rhs, depth),
            _ => self.add(None),
        }
    }

    /// The list at `depth` itself at `path[p]`.
    fn list_at(&mut self, body: Body, path: &[ASTNode], p: usize, depth: u8) {
        let node = path[p];
        let Some(parent) = p.checked_sub(1).map(|i| path[i]) else { return self.add(None) };
        match parent {
            ASTNode::Stmt(Stmt::For(f, ..)) if same(&f.2.expr, node) && self.is_list(depth) => {
                self.push(body, f.0.as_str(), Holds::Element(depth));
            }
            ASTNode::Stmt(Stmt::Var(x, ..)) if same(&x.1, node) => self.push(body, x.0.as_str(), Holds::List(depth)),
            ASTNode::Expr(Expr::Dot(bin, ..)) if same(&bin.lhs, node) => {
                self.after_list(body, path, p - 1, &bin.rhs, depth)
            }
            ASTNode::Expr(Expr::Index(bin, flags, ..)) if same(&bin.lhs, node) => {
                self.indexed(body, path, p - 1, &bin.rhs, *flags, depth)
            }
            // Compared with `()` (a hand not shown yet): whatever its elements hold.
            ASTNode::Expr(Expr::FnCall(call, ..)) | ASTNode::Stmt(Stmt::FnCall(call, ..)) if unit_test(call) => {}
            // Given to a helper of the script's own: as that helper uses its parameter.
            ASTNode::Expr(Expr::FnCall(call, ..)) | ASTNode::Stmt(Stmt::FnCall(call, ..)) => {
                self.given(call, node, Holds::List(depth))
            }
            _ => self.add(None),
        }
    }

    /// `node` given to `call`: followed into the script's own function of
    /// that name and arity as its parameter, holding what `holds` says;
    /// anything else (an operator, a function of Rhai's or the game's) may see all of it.
    fn given(&mut self, call: &rhai::FnCallExpr, node: ASTNode, holds: Holds) {
        let at = call.args.iter().position(|a| same(a, node));
        match (call.op_token.is_none(), at, helper(self.ast, &call.name, call.args.len())) {
            (true, Some(k), Some((helper, params))) => self.push(helper, &params[k], holds),
            _ => self.add(None),
        }
    }

    /// One element of the list at `depth`, at `path[p]`.
    fn element_at(&mut self, body: Body, path: &[ASTNode], p: usize, depth: u8) {
        let node = path[p];
        let Some(parent) = p.checked_sub(1).map(|i| path[i]) else { return self.add(None) };
        let call = match parent {
            ASTNode::Expr(Expr::FnCall(call, ..)) | ASTNode::Stmt(Stmt::FnCall(call, ..)) => Some(call),
            _ => None,
        };
        match (parent, call) {
            (ASTNode::Expr(Expr::Dot(bin, ..)), _) if same(&bin.lhs, node) => {
                self.read(body, path, p - 1, &bin.rhs, depth)
            }
            // Compared with `()`: whether there is one, whatever its keys.
            (_, Some(call)) if unit_test(call) => {}
            (ASTNode::Stmt(Stmt::Var(x, ..)), _) if same(&x.1, node) => {
                self.push(body, x.0.as_str(), Holds::Element(depth))
            }
            // Given to a helper of the script's own: as that helper uses its parameter.
            (_, Some(call)) => self.given(call, node, Holds::Element(depth)),
            _ => self.add(None),
        }
    }
}

/// `x == ()` or `x != ()`: whether there is a value, whatever it holds.
fn unit_test(call: &rhai::FnCallExpr) -> bool {
    matches!(call.name.as_str(), "==" | "!=")
        && call.args.len() == 2
        && call.args.iter().any(|a| matches!(a, Expr::Unit(..)))
}

/// The script's own function `name` of `arity` parameters, when there is exactly one.
fn helper(ast: &AST, name: &str, arity: usize) -> Option<(Body, Vec<String>)> {
    let mut defs = ast.iter_fn_def().filter(|f| f.name == name && f.params.len() == arity);
    let def = defs.next()?;
    if defs.next().is_some() {
        return None;
    }
    let body = (key(def.body.start_position()), key(def.body.end_position()));
    Some((body, def.params.iter().map(ToString::to_string).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(script: &str, list: &str) -> Option<ElementReads> {
        let ast = rhai::Engine::new().compile(script).unwrap();
        element_reads(&ast, "h", "table", list, list != "neutral", &[])
    }

    fn keys(script: &str, list: &str) -> Option<Vec<String>> {
        reads(script, list).map(|r| r.keys)
    }

    fn some(k: &[&str]) -> Option<Vec<String>> {
        Some(k.iter().map(|k| (*k).to_owned()).collect())
    }

    #[test]
    fn the_keys_read_of_each_element_are_found_through_chains() {
        let hook = |body: &str| format!("fn h(ctx) {{ {body} }}");
        let reserve =
            "if ctx.table.seats[ctx.seat].reserve.len() >= 1 { return []; } ctx.table.seats[ctx.seat].reserve";
        assert_eq!(keys(&hook(reserve), "seats"), some(&["reserve"]));
        assert_eq!(
            keys(&hook("ctx.table.seats[0].counts.x + ctx.table.seats[1].money + ctx.table.turn"), "seats"),
            some(&["counts", "money"])
        );
        assert_eq!(keys(&hook("ctx.table.neutral.counts.x + ctx.table.seats[0].money"), "neutral"), some(&["counts"]));
        assert_eq!(keys(&hook("ctx.table.turn"), "seats"), some(&[]));
        assert_eq!(keys(&hook("ctx.table.seats.len()"), "seats"), some(&[]));
    }

    #[test]
    fn the_keys_read_of_each_element_are_found_through_walks_locals_and_helpers() {
        let cases = [
            // The vizier's and the reserve's `legal`: only whether a slot is full, and its number.
            (
                "fn h(ctx) { let slots = []; for b in ctx.table.building_display { if b != () { slots.push(b.slot); } } slots }",
                "building_display",
                some(&["slot"]),
            ),
            // The mirage: a key and a comparison with `()`.
            (
                "fn h(ctx) { let n = 0; for b in ctx.table.building_display { if b != () && b.type == \"x\" { n += 1; } } n }",
                "building_display",
                some(&["type"]),
            ),
            // Concordia's row: the list in a local, an element by a computed index, only compared with `()`.
            (
                "fn h(ctx) { let d = ctx.table.building_display; let free = 0; for s in 1..(d.len() + 1) { let b = d[s - 1]; if b == () { free = s; } } free }",
                "building_display",
                some(&[]),
            ),
            // The treasury: a helper of the script's own walks what it is given.
            (
                "fn value(seat) { let v = 0; for c in seat.hand { v += c.value; } v }
                 fn h(ctx) { let best = 0; for s in ctx.table.seats { if value(s) > best { best = value(s); } } value(ctx.table.seats[ctx.seat]) == best }",
                "seats",
                some(&["hand"]),
            ),
            // The grand vizier: a helper counting a key.
            (
                "fn total(seat) { seat.buildings.len() } fn h(ctx) { let m = 0; for s in ctx.table.seats { m = m.max(total(s)); } m }",
                "seats",
                some(&["buildings"]),
            ),
            // A helper that calls another with the element.
            (
                "fn inner(x) { x.money } fn outer(y) { inner(y) + y.score } fn h(ctx) { outer(ctx.table.seats[0]) }",
                "seats",
                some(&["score", "money"]),
            ),
            // A second variable of the same name only adds what it reads.
            (
                "fn h(ctx) { for b in ctx.table.building_display { b.slot; } let b = #{ price: 1 }; b.price }",
                "building_display",
                some(&["slot", "price"]),
            ),
            // A loop with a counter, `?.`, and a write into one (a copy) before a read.
            ("fn h(ctx) { let n = 0; for (b, i) in ctx.table.seats { n += b.money + i; } n }", "seats", some(&["money"])),
            ("fn h(ctx) { let n = 0; for b in ctx.table.seats { n += b?.money ?? 0; } n }", "seats", some(&["money"])),
            (
                "fn h(ctx) { let n = 0; for b in ctx.table.seats { b.money = 3; n += b.score; } n }",
                "seats",
                some(&["money", "score"]),
            ),
            // The list itself given to a helper, which walks it.
            (
                "fn shown(display) { let out = []; for b in display { if b != () && !out.contains(b.type) { out.push(b.type); } } out }
                 fn h(ctx) { shown(ctx.table.building_display).len() }",
                "building_display",
                some(&["type"]),
            ),
            // Helpers go by name and number of parameters, as calls do.
            ("fn f(s) { s.money } fn f(s, t) { t } fn h(ctx) { f(ctx.table.seats[0]) }", "seats", some(&["money"])),
            // A walk of the list in a local, an element indexed then read.
            (
                "fn h(ctx) { let d = ctx.table.building_display; let n = 0; for b in d { n += b.price; } n + d[0].price + d[1].id.len() }",
                "building_display",
                some(&["price", "id"]),
            ),
        ];
        for (script, list, expected) in cases {
            assert_eq!(keys(script, list), expected, "{script}");
        }
    }

    #[test]
    fn the_keys_read_of_the_elements_of_a_list_an_element_holds_are_found() {
        let hand = |script: &str| {
            let ast = rhai::Engine::new().compile(script).unwrap();
            element_reads(&ast, "h", "table", "seats", true, &["hand"]).map(|r| r.keys)
        };
        // The treasury: a helper walks each seat's hand and reads each card's value.
        let treasury = "fn value(seat) { let v = 0; for c in seat.hand { v += c.value; } v }
             fn h(ctx) { let best = 0; for s in ctx.table.seats { if value(s) > best { best = value(s); } } value(ctx.table.seats[ctx.seat]) == best }";
        assert_eq!(hand(treasury), some(&["value"]));
        assert_eq!(
            hand("fn h(ctx) { ctx.table.seats[0].hand[1].currency + ctx.table.seats[1].money }"),
            some(&["currency"])
        );
        assert_eq!(
            hand(
                "fn h(ctx) { let h = ctx.table.seats[ctx.seat].hand; let n = h.len(); for c in h { n += c.value; } n + h[0].id.len() }"
            ),
            some(&["id", "value"])
        );
        // Compared with `()` (not shown yet), then walked.
        assert_eq!(
            hand(
                "fn h(ctx) { let n = 0; for s in ctx.table.seats { if s.hand != () { for c in s.hand { n += c.value; } } } n }"
            ),
            some(&["value"])
        );
        // Other keys of a seat are not on the way; nothing read of the hand's cards.
        assert_eq!(hand("fn h(ctx) { ctx.table.seats[0].money + ctx.table.seats[0].hand.len() }"), some(&[]));
        for whole in [
            "fn h(ctx) { ctx.table.seats[0].hand }",
            "fn h(ctx) { for c in ctx.table.seats[0].hand { print(c); } }",
            "fn h(ctx) { ctx.table.seats[0].values() }",
            "fn h(ctx) { let s = ctx.table.seats[0]; s }",
        ] {
            assert_eq!(hand(whole), None, "{whole}");
        }
    }

    #[test]
    fn a_key_only_ever_counted_is_told_apart() {
        let counted = |script: &str| reads(script, "seats").map(|r| r.counted);
        // The grand vizier's helper counts each seat's buildings.
        let vizier = "fn total(seat) { seat.buildings.len() } fn h(ctx) { let m = 0; for s in ctx.table.seats { m = m.max(total(s)); } m }";
        assert_eq!(counted(vizier), some(&["buildings"]));
        assert_eq!(
            counted("fn h(ctx) { ctx.table.seats[0].buildings.len() + ctx.table.seats[1].money }"),
            some(&["buildings"])
        );
        // Counted in one place and walked (or returned) in another: not counted.
        for script in [
            "fn h(ctx) { if ctx.table.seats[ctx.seat].reserve.len() >= 1 { return []; } ctx.table.seats[ctx.seat].reserve }",
            "fn h(ctx) { let n = 0; for s in ctx.table.seats { n += s.buildings.len(); for b in s.buildings { n += 1; } } n }",
            "fn h(ctx) { ctx.table.seats[0].buildings.len + ctx.table.seats[0].buildings[0].price }",
        ] {
            assert_eq!(counted(script), some(&[]), "{script}");
        }
    }

    #[test]
    fn any_other_use_of_an_element_makes_them_whole() {
        for script in [
            "fn h(ctx) { ctx.table.seats[0] }",
            "fn h(ctx) { ctx.table.seats[ctx.seat] }",
            "fn h(ctx) { ctx.table.seats[0].keys() }",
            "fn h(ctx) { ctx.table.seats[0][1] }",
            "fn h(ctx) { ctx.table.seats[0][\"money\"] }",
            "fn h(ctx) { let t = ctx.table; t.seats[0].money }",
            "fn h(ctx) { for s in ctx.table.seats { print(s); } }",
            "fn h(ctx) { let out = []; for s in ctx.table.seats { out.push(s); } out }",
            "fn h(ctx) { let s = ctx.table.seats[0]; s }",
            "fn h(ctx) { let s = ctx.table.seats; s }",
            "fn h(ctx) { let s = 0; s = ctx.table.seats[1]; s.money }",
            "fn h(ctx) { let n = 0; for s in ctx.table.seats { n += s.len(); } n }",
            "fn h(ctx) { ctx.table.seats.filter(|s| s.money > 1) }",
            "fn h(ctx) { ctx.table.seats + [] }",
            // A `switch` on one, a closure that captures one, `in` on one.
            "fn h(ctx) { let n = 0; for b in ctx.table.seats { n += switch b { () => 0, _ => 1 }; } n }",
            "fn h(ctx) { let n = 0; for b in ctx.table.seats { let f = |x| x + b.money; n += f.call(1); } n }",
            "fn h(ctx) { let n = 0; for b in ctx.table.seats { if \"money\" in b { n += 1; } } n }",
            // A helper whose parameter is used whole, or a function not of the script.
            "fn f(s) { s } fn h(ctx) { f(ctx.table.seats[0]).money }",
            "fn h(ctx) { g(ctx.table.seats[0]) }",
        ] {
            assert_eq!(keys(script, "seats"), None, "{script}");
        }
        // A map read as one element may not be counted: a reduced map has fewer keys.
        assert_eq!(keys("fn h(ctx) { ctx.table.neutral.len() }", "neutral"), None);
        assert_eq!(keys("fn h(ctx) { for x in ctx.table.neutral { x } }", "neutral"), None);
    }
}
