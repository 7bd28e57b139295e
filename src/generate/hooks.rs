//! Context-sensitive generation: hooks on nonterminal occurrences.
//!
//! * [`Hooks`] — called by the decoding walk before ([`Hooks::pre`]) and
//!   after ([`Hooks::post`]) a nonterminal occurrence is expanded. A pre hook
//!   may *replace* the expansion by its own text, reading choices from the
//!   same [`Chooser`] (through [`HookCtx`]), so the result is still a pure
//!   function of the choice bytes. A post hook sees the text the occurrence
//!   produced.
//! * [`Occurrence`] — which nonterminal, inside which rule at which
//!   position, at which depth: the grammar-file position the reference's
//!   `ComplexFuzzer` attaches its `pre`/`post` functions to.
//! * [`DefineBeforeUse`] — the reference's example: variables are used only
//!   after the statement defining them has ended.
//! * [`NoHooks`] — the hook-free walk; decoding with it is exactly
//!   [`super::decode_tree`] / [`super::decode_into`].
//!
//! Replaced occurrences become [`crate::tree::Label::Text`] leaves in trees.
//! Hooks keep totality as long as they never fail: the walk still finishes
//! on every byte string, and the budgets of [`super::DecodeConfig`] still
//! apply to everything the grammar expands.

use crate::choice::Chooser;
use crate::grammar::{Grammar, RuleId, SymbolId};
use std::collections::HashSet;

/// Where a nonterminal occurs in the derivation being decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// The nonterminal about to be expanded.
    pub sym: SymbolId,
    /// The rule whose body holds this occurrence; `None` for the root.
    pub parent: Option<RuleId>,
    /// Position of the occurrence in that body (0 for the root).
    pub index: u32,
    /// Depth of the node (0 for the root).
    pub depth: u32,
}

/// What a pre hook decided for an occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pre {
    /// Expand normally; no post hook.
    Expand,
    /// Expand normally, then call [`Hooks::post`] with the text produced.
    Watch,
    /// Do not expand: the text emitted through [`HookCtx::emit`] stands for
    /// the occurrence (a [`crate::tree::Label::Text`] leaf in trees). No post
    /// hook is called for it.
    Replace,
}

/// What a pre hook may use: the decoder's chooser and an output buffer.
pub struct HookCtx<'c, 'a> {
    pub(super) chooser: &'c mut Chooser<'a>,
    pub(super) text: &'c mut Vec<u8>,
    pub(super) restricted: bool,
}

impl HookCtx<'_, '_> {
    /// Reads one choice among `n` options from the decoder's choice
    /// sequence (same contract as [`Chooser::choose`]: exhausted input
    /// yields 0, one option consumes nothing).
    pub fn choose(&mut self, n: u32) -> u32 {
        self.chooser.choose(n)
    }

    /// Appends replacement text; only used when the hook returns
    /// [`Pre::Replace`].
    pub fn emit(&mut self, bytes: &[u8]) {
        self.text.extend_from_slice(bytes);
    }

    /// Is the decoder winding down (depth or length budget exceeded)?
    /// Hooks should then prefer short replacements.
    pub fn restricted(&self) -> bool {
        self.restricted
    }
}

/// Context-sensitive generation hooks; see the module docs.
///
/// # Example
///
/// Number every `<x>` occurrence instead of expanding it:
///
/// ```
/// use grammar_min::generate::{decode_with_hooks, HookCtx, Hooks, Occurrence, Pre};
/// use grammar_min::grammar::Grammar;
///
/// struct Counter(u32);
/// impl Hooks for Counter {
///     fn pre(&mut self, g: &Grammar, occ: &Occurrence, ctx: &mut HookCtx<'_, '_>) -> Pre {
///         if g.name(occ.sym) != "<x>" {
///             return Pre::Expand;
///         }
///         self.0 += 1;
///         ctx.emit(self.0.to_string().as_bytes());
///         Pre::Replace
///     }
/// }
/// let g = Grammar::from_json_str(r#"{"<start>": ["<x>,<x>,<x>"], "<x>": ["a", "b"]}"#,
///     &Default::default()).unwrap();
/// let mut out = Vec::new();
/// decode_with_hooks(&g, b"", &Default::default(), &mut Counter(0), &mut out);
/// assert_eq!(out, b"1,2,3");
/// ```
pub trait Hooks {
    /// Whether the walk calls the hooks at all. Leave it at the default;
    /// only [`NoHooks`] turns it off, which compiles the calls away.
    #[doc(hidden)]
    const ACTIVE: bool = true;

    /// Called before `occ` is expanded, with choices not yet read for it.
    fn pre(&mut self, g: &Grammar, occ: &Occurrence, ctx: &mut HookCtx<'_, '_>) -> Pre {
        let _ = (g, occ, ctx);
        Pre::Expand
    }

    /// Called after an occurrence the pre hook answered [`Pre::Watch`] for
    /// is complete, with the text it produced.
    fn post(&mut self, g: &Grammar, occ: &Occurrence, text: &[u8]) {
        let _ = (g, occ, text);
    }
}

/// No hooks: plain context-free decoding.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {
    const ACTIVE: bool = false;
}

/// A nonterminal named by a hook is not in the grammar.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "nonterminal `{name}` is not defined in the grammar: check the spelling (with angle brackets)"
)]
pub struct UnknownSymbol {
    /// The name that was looked up.
    pub name: String,
}

/// Variables are defined before use, as the reference's `ComplexFuzzer`
/// does for the assignment language (`grammars/assign.json`).
///
/// * An occurrence of the variable nonterminal inside a rule of the
///   *defining* nonterminal (`<var>` in `<assign> ::= <var> = <expr>`) is
///   expanded normally and its text recorded.
/// * Every other occurrence (`<var>` in `<expr>`) is replaced by one of the
///   variables defined so far, chosen by one choice from the choice
///   sequence, or by the fallback text when none is defined yet.
/// * Recorded definitions become usable when the *statement* nonterminal
///   (`<assign>`) ends — the reference's `sync` — so `a = a;` cannot use
///   the `a` it defines.
///
/// State is cleared at the start of every decoding, so one value can be
/// reused across decodings.
///
/// ```
/// use grammar_min::generate::{decode_with_hooks, DefineBeforeUse};
/// use grammar_min::grammar::Grammar;
///
/// let g = Grammar::from_json_str(r#"{"<start>": [["<stmts>"]],
///   "<stmts>": [["<assign>", ";"], ["<assign>", ";", "<stmts>"]],
///   "<assign>": [["<var>", "=", "<expr>"]],
///   "<expr>": [["<var>"], ["<expr>", "+", "<expr>"]],
///   "<var>": [["a"], ["b"], ["c"]]}"#, &Default::default()).unwrap();
/// let mut hooks = DefineBeforeUse::new(&g, "<var>", "<assign>", "<assign>", b"0").unwrap();
/// let mut out = Vec::new();
/// // stmts: 2nd alt; var c; expr: var (replaced by the fallback);
/// // stmts: 1st alt; var b; expr: var (replaced by the only defined one, c).
/// decode_with_hooks(&g, &[255, 255, 0, 0, 128, 0], &Default::default(), &mut hooks, &mut out);
/// assert_eq!(out, b"c=0;b=c;");
/// assert_eq!(hooks.defined(), [b"c".to_vec(), b"b".to_vec()]);
/// ```
#[derive(Clone, Debug)]
pub struct DefineBeforeUse {
    var: SymbolId,
    define_in: SymbolId,
    statement: SymbolId,
    fallback: Vec<u8>,
    defined: Vec<Vec<u8>>,
    seen: HashSet<Vec<u8>>,
    pending: Vec<Vec<u8>>,
}

impl DefineBeforeUse {
    /// Variables are `var`, defined where `var` occurs in a rule of
    /// `define_in`, visible once a `statement` is complete; `fallback` is
    /// used while no variable is visible.
    ///
    /// # Errors
    /// [`UnknownSymbol`] if a name is not a nonterminal of `g`.
    pub fn new(
        g: &Grammar,
        var: &str,
        define_in: &str,
        statement: &str,
        fallback: &[u8],
    ) -> Result<DefineBeforeUse, UnknownSymbol> {
        let look = |name: &str| {
            g.symbol_by_name(name).ok_or_else(|| UnknownSymbol {
                name: name.to_string(),
            })
        };
        Ok(DefineBeforeUse {
            var: look(var)?,
            define_in: look(define_in)?,
            statement: look(statement)?,
            fallback: fallback.to_vec(),
            defined: Vec::new(),
            seen: HashSet::new(),
            pending: Vec::new(),
        })
    }

    /// The set-up for `grammars/assign.json`: `<var>` defined by `<assign>`,
    /// visible after the `<assign>` ends, fallback `0` (a digit, so the
    /// output stays a sentence of the context-free grammar; the reference
    /// uses `00` to make fallbacks stand out).
    ///
    /// # Errors
    /// [`UnknownSymbol`] if `g` lacks `<var>` or `<assign>`.
    pub fn assign(g: &Grammar) -> Result<DefineBeforeUse, UnknownSymbol> {
        DefineBeforeUse::new(g, "<var>", "<assign>", "<assign>", b"0")
    }

    /// Distinct variables visible at the end of the last decoding, in order
    /// of first definition.
    pub fn defined(&self) -> &[Vec<u8>] {
        &self.defined
    }
}

impl Hooks for DefineBeforeUse {
    fn pre(&mut self, g: &Grammar, occ: &Occurrence, ctx: &mut HookCtx<'_, '_>) -> Pre {
        if occ.parent.is_none() {
            self.defined.clear();
            self.seen.clear();
            self.pending.clear();
        }
        if occ.sym == self.statement {
            return Pre::Watch;
        }
        if occ.sym != self.var {
            return Pre::Expand;
        }
        if occ.parent.is_some_and(|r| g.rule(r).lhs == self.define_in) {
            return Pre::Watch;
        }
        if self.defined.is_empty() {
            ctx.emit(&self.fallback);
        } else {
            let n = u32::try_from(self.defined.len()).unwrap_or(u32::MAX);
            let k = ctx.choose(n) as usize;
            ctx.emit(&self.defined[k]);
        }
        Pre::Replace
    }

    fn post(&mut self, _: &Grammar, occ: &Occurrence, text: &[u8]) {
        // A symbol can be both the statement and the variable only in odd
        // grammars; record first, then sync, so it still works.
        if occ.sym == self.var {
            self.pending.push(text.to_vec());
        }
        if occ.sym == self.statement {
            for v in self.pending.drain(..) {
                if self.seen.insert(v.clone()) {
                    self.defined.push(v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{decode_tree_with_hooks, decode_with_hooks};

    fn assign() -> Grammar {
        Grammar::from_json_str(
            include_str!("../../grammars/assign.json"),
            &Default::default(),
        )
        .unwrap()
    }

    #[test]
    fn unknown_symbol_is_named() {
        let g = assign();
        let e = DefineBeforeUse::new(&g, "<variable>", "<assign>", "<assign>", b"0").unwrap_err();
        assert_eq!(e.name, "<variable>");
        assert!(e.to_string().contains("`<variable>` is not defined"));
    }

    #[test]
    fn empty_sequence_uses_the_fallback() {
        let g = assign();
        let mut h = DefineBeforeUse::assign(&g).unwrap();
        let mut out = Vec::new();
        decode_with_hooks(&g, b"", &Default::default(), &mut h, &mut out);
        // The context-free decoding is "a = a;\n"; the use of `a` precedes
        // the end of its own statement, so the fallback is taken.
        assert_eq!(out, b"a = 0;\n");
        assert_eq!(h.defined(), [b"a".to_vec()]);
    }

    #[test]
    fn tree_records_replacements_as_text_leaves() {
        let g = assign();
        let mut h = DefineBeforeUse::assign(&g).unwrap();
        let choices = [255u8, 3, 200, 40, 0, 9, 77, 255, 1, 1, 1];
        let t = decode_tree_with_hooks(&g, &choices, &Default::default(), &mut h);
        let mut out = Vec::new();
        decode_with_hooks(&g, &choices, &Default::default(), &mut h, &mut out);
        assert_eq!(t.unparse(&g), out);
        let var = g.symbol_by_name("<var>").unwrap();
        let texts = t
            .nodes()
            .iter()
            .filter(|n| matches!(n.label(), crate::tree::Label::Text(i) if t.text_symbol(i) == var))
            .count();
        assert!(texts > 0, "{}", String::from_utf8_lossy(&out));
    }

    /// Records every post call; replaces the root when asked to.
    struct Spy {
        replace_root: bool,
        posts: Vec<(String, Vec<u8>)>,
    }

    impl Hooks for Spy {
        fn pre(&mut self, _: &Grammar, occ: &Occurrence, ctx: &mut HookCtx<'_, '_>) -> Pre {
            if occ.parent.is_none() && self.replace_root {
                let k = ctx.choose(3);
                ctx.emit(format!("root{k}").as_bytes());
                return Pre::Replace;
            }
            Pre::Watch
        }
        fn post(&mut self, g: &Grammar, occ: &Occurrence, text: &[u8]) {
            self.posts
                .push((g.name(occ.sym).to_string(), text.to_vec()));
        }
    }

    #[test]
    fn watch_everything_sees_each_subtree_text_in_post_order() {
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<a><b>"], "<a>": ["x", "y"], "<b>": ["(<a>)", "z"]}"#,
            &Default::default(),
        )
        .unwrap();
        let mut spy = Spy {
            replace_root: false,
            posts: Vec::new(),
        };
        let t = decode_tree_with_hooks(&g, &[255, 255, 0], &Default::default(), &mut spy);
        assert_eq!(t.unparse(&g), b"y(x)");
        let posts: Vec<(&str, &[u8])> = spy
            .posts
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_slice()))
            .collect();
        assert_eq!(
            posts,
            [
                ("<a>", &b"y"[..]),
                ("<a>", b"x"),
                ("<b>", b"(x)"),
                ("<start>", b"y(x)")
            ]
        );
        // Watching changes nothing about the decoding itself.
        assert_eq!(
            t,
            crate::generate::decode_tree(&g, &[255, 255, 0], &Default::default())
        );
    }

    #[test]
    fn replacing_the_root_gives_a_one_leaf_tree() {
        let g = assign();
        let mut spy = Spy {
            replace_root: true,
            posts: Vec::new(),
        };
        let t = decode_tree_with_hooks(&g, &[200, 1, 2], &Default::default(), &mut spy);
        assert_eq!(t.len(), 1);
        assert_eq!(t.unparse(&g), b"root2");
        assert_eq!(t.choices(t.root()), 0..1);
        assert_eq!(t.find_invalid(&g), None);
        assert!(spy.posts.is_empty());
    }
}
