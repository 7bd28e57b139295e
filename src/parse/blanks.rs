//! Parsing a text whose blanks differ from the grammar's spelling.
//!
//! Real inputs come from editors and tools: they end with a newline, write
//! `1+2` where a fuzzingbook grammar spells `1 + 2`, or put two spaces
//! where it has one. Such a text does not parse, although its tokens do.
//! [`respace`] finds a text that differs from the input only in blanks
//! (ASCII whitespace) and parses, in one of four ways ([`Respacing`]),
//! most faithful first:
//! * [`Respacing::Trimmed`]: without leading and trailing blanks;
//! * [`Respacing::Blanks`]: parsed with a variant of the grammar in which
//!   each run of blanks in a terminal matches any run of one or more
//!   blanks (a newline for a space, two spaces for one), and blanks may
//!   lead and trail;
//! * [`Respacing::Tight`]: the same with runs of zero or more blanks
//!   (`1+2` for `1 + 2`);
//! * [`Respacing::NoBlanks`]: the input without any blank, parsed with a
//!   variant whose terminals have none either (`( 1 )` for a grammar that
//!   spells `(1)`; blanks inside strings are lost).
//!
//! In the first three the input's other bytes, blanks inside strings
//! included, stay as they are. Where blanks may vanish (the last two),
//! words can run together, and a grammar of blank-separated words becomes
//! so ambiguous that parsing 22 KB without blanks took five minutes: those
//! two are tried on inputs of at most [`AMBIGUOUS_MAX`] bytes only.
//!
//! The variants keep the grammar's nonterminals and alternatives, so their
//! parse tree is one of the grammar's derivations: the result is that
//! derivation spelled with the grammar's own terminals, parsed again with
//! the grammar. Whether it is still the same input is for the caller's
//! oracle to say: a blank can matter.

use super::parse;
use crate::grammar::{Elem, Grammar, GrammarBuilder, RuleId, SymbolId, Token};
use crate::tree::{Label, NodeId, Tree};
use std::collections::HashMap;

/// How [`respace`] changed the blanks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Respacing {
    /// Leading and trailing blanks removed.
    Trimmed,
    /// Runs of blanks matched to the grammar's blanks.
    Blanks,
    /// Blanks put where the grammar has them and the input has none.
    Tight,
    /// Every blank removed, then the grammar's blanks put back.
    NoBlanks,
}

impl Respacing {
    /// All four, most faithful to the input first.
    pub const ALL: [Respacing; 4] = [
        Respacing::Trimmed,
        Respacing::Blanks,
        Respacing::Tight,
        Respacing::NoBlanks,
    ];

    /// What was done, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Respacing::Trimmed => "leading and trailing blanks removed",
            Respacing::Blanks => "blanks respaced as the grammar writes them",
            Respacing::Tight => "blanks put where the grammar writes them",
            Respacing::NoBlanks => "blanks removed, then put where the grammar writes them",
        }
    }
}

/// Longest input [`Respacing::Tight`] and [`Respacing::NoBlanks`] are
/// tried on (see the module docs; a libFuzzer artifact's default
/// `-max_len`).
pub const AMBIGUOUS_MAX: usize = 4096;

/// A text that differs from the input in blanks only, with its tree.
#[derive(Clone, Debug)]
pub struct Respaced {
    /// The text (the grammar's spelling of `tree`).
    pub text: Vec<u8>,
    /// Its parse tree.
    pub tree: Tree,
}

fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

/// The text `how` makes of `input`, if it differs from `input` and
/// parses with `g` (see the module docs).
pub fn respace(g: &Grammar, input: &[u8], how: Respacing) -> Option<Respaced> {
    let text = match how {
        Respacing::Trimmed => {
            let start = input.iter().position(|&b| !is_blank(b))?;
            let end = input.iter().rposition(|&b| !is_blank(b))? + 1;
            input[start..end].to_vec()
        }
        Respacing::Tight | Respacing::NoBlanks if input.len() > AMBIGUOUS_MAX => return None,
        Respacing::Blanks | Respacing::Tight => {
            let v = variant(g, Some(how == Respacing::Tight))?;
            spell(g, &v, &parse(&v, input).ok()?)?
        }
        Respacing::NoBlanks => {
            let v = variant(g, None)?;
            let stripped: Vec<u8> = input.iter().copied().filter(|&b| !is_blank(b)).collect();
            spell(g, &v, &parse(&v, &stripped).ok()?)?
        }
    };
    if text == input {
        return None;
    }
    let tree = parse(g, &text).ok()?;
    Some(Respaced { text, tree })
}

/// `g` with each run of blanks in its terminals replaced by a new
/// nonterminal matching any run of blanks (`Some(empty_too)`: zero or more
/// if `empty_too`, else one or more; blanks may also lead and trail the
/// start symbol), or removed (`None`). `g`'s nonterminals keep their ids;
/// the new ones come after.
fn variant(g: &Grammar, runs: Option<bool>) -> Option<Grammar> {
    let fresh = |base: &str| {
        (0..)
            .map(|i| format!("<{base}{i}>"))
            .find(|n| g.symbol_by_name(n).is_none())
            .unwrap_or_default()
    };
    let (some, any) = (fresh("blanks"), fresh("maybe-blanks"));
    let run = if runs == Some(true) { &any } else { &some };
    let mut b = GrammarBuilder::new();
    for s in 0..g.num_symbols() {
        b.declare(g.name(SymbolId(s as u32)), None);
    }
    for s in 0..g.num_symbols() {
        let sym = SymbolId(s as u32);
        let mut rules: Vec<RuleId> = g.rules_of(sym).collect();
        rules.sort_by_key(|&r| g.rule(r).source_index);
        for r in rules {
            let mut tokens = Vec::new();
            for e in g.body(r) {
                match *e {
                    Elem::Nt(x) => tokens.push(Token::Nt(g.name(x).to_string())),
                    Elem::T(t) if runs.is_some() => {
                        for part in g.term(t).chunk_by(|a, b| is_blank(*a) == is_blank(*b)) {
                            tokens.push(if is_blank(part[0]) {
                                Token::Nt(run.clone())
                            } else {
                                Token::T(part.to_vec())
                            });
                        }
                    }
                    Elem::T(t) => tokens.push(Token::T(
                        g.term(t)
                            .iter()
                            .copied()
                            .filter(|&x| !is_blank(x))
                            .collect(),
                    )),
                }
            }
            b.push_alt(g.name(sym), tokens);
        }
    }
    if runs.is_none() {
        return b.start(g.name(g.start())).build().ok();
    }
    // <maybe-blanks> ::= "" | c <maybe-blanks>; <blanks> ::= c <maybe-blanks>.
    b.push_alt(&any, Vec::new());
    for c in [b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c"] {
        b.push_alt(&any, vec![Token::T(c.to_vec()), Token::Nt(any.clone())]);
        b.push_alt(&some, vec![Token::T(c.to_vec()), Token::Nt(any.clone())]);
    }
    let start = fresh("start");
    let around = vec![
        Token::Nt(any.clone()),
        Token::Nt(g.name(g.start()).to_string()),
        Token::Nt(any),
    ];
    b.push_alt(&start, around);
    b.start(&start).build().ok()
}

/// The text of `vt` (a tree of the variant `v` of `g`) spelled with `g`'s
/// terminals: each node of one of `g`'s nonterminals is written as the
/// alternative of `g` it stands for, whose nonterminals take the node's
/// children of `g`'s nonterminals in order (the variant's terminals and
/// blank runs, nonterminals of its own, are skipped). `None` if the shapes
/// disagree.
fn spell(g: &Grammar, v: &Grammar, vt: &Tree) -> Option<Vec<u8>> {
    let own = |s: SymbolId| s.index() < g.num_symbols();
    let mut rule_of: HashMap<(SymbolId, u32), RuleId> = HashMap::new();
    for r in 0..g.num_rules() {
        let rule = g.rule(RuleId(r as u32));
        rule_of.insert((rule.lhs, rule.source_index), RuleId(r as u32));
    }
    // The node of g's start symbol: the root, or under the variant's start.
    let mut root = vt.root();
    if !vt.symbol(v, root).is_some_and(own) {
        root = vt
            .children(root)
            .find(|&c| vt.symbol(v, c).is_some_and(own))?;
    }
    enum Work {
        Node(NodeId),
        Bytes(crate::grammar::TermId),
    }
    let mut out = Vec::new();
    let mut stack = vec![Work::Node(root)];
    while let Some(w) = stack.pop() {
        let n = match w {
            Work::Bytes(t) => {
                out.extend_from_slice(g.term(t));
                continue;
            }
            Work::Node(n) => n,
        };
        let Label::Rule(vr) = vt.node(n).label() else {
            return None;
        };
        let vrule = v.rule(vr);
        let r = *rule_of.get(&(vrule.lhs, vrule.source_index))?;
        let mut kids = vt.children(n).filter(|&c| {
            vt.symbol(v, c).is_some_and(own) && matches!(vt.node(c).label(), Label::Rule(_))
        });
        let mut items = Vec::new();
        for e in g.body(r) {
            items.push(match *e {
                Elem::Nt(_) => Work::Node(kids.next()?),
                Elem::T(t) => Work::Bytes(t),
            });
        }
        if kids.next().is_some() {
            return None;
        }
        stack.extend(items.into_iter().rev());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr() -> Grammar {
        Grammar::from_path("grammars/expr.json".as_ref(), &Default::default()).unwrap()
    }

    #[test]
    fn a_trailing_newline_is_trimmed() {
        let g = expr();
        let r = respace(&g, b"1 + 2\n", Respacing::Trimmed).unwrap();
        assert_eq!(r.text, b"1 + 2");
        assert_eq!(r.tree.unparse(&g), b"1 + 2");
        // Nothing to trim, or the trimmed text does not parse either.
        assert!(respace(&g, b"1 + 2", Respacing::Trimmed).is_none());
        assert!(respace(&g, b"1+2\n", Respacing::Trimmed).is_none());
    }

    #[test]
    fn blanks_are_respaced_as_the_grammar_writes_them() {
        let g = expr();
        let want = b"1 + 2 * (3 - 4)";
        // Other runs of blanks where the grammar has one.
        for input in [&b"  1  +\n2 * (3\t-  4)"[..], b"1 + 2 * (3 - 4)\t\n"] {
            let r = respace(&g, input, Respacing::Blanks).unwrap();
            assert_eq!(r.text, want, "{:?}", String::from_utf8_lossy(input));
        }
        // None where the grammar has one: Tight, not Blanks.
        assert!(respace(&g, b"1+2*(3 -4)\n", Respacing::Blanks).is_none());
        let r = respace(&g, b"1+2*(3 -4)\n", Respacing::Tight).unwrap();
        assert_eq!(r.text, want);
        // A blank where the grammar has none: only NoBlanks.
        assert!(respace(&g, b"( 1 )", Respacing::Tight).is_none());
        let r = respace(&g, b"( 1 )+2", Respacing::NoBlanks).unwrap();
        assert_eq!(r.text, b"(1) + 2");
    }

    #[test]
    fn blanks_inside_tokens_stay_unless_all_go() {
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<s>", "<s> + <start>"], "<s>": ["'<c>'"],
                "<c>": ["", "<ch><c>"], "<ch>": ["a", "b", " "]}"#,
            &Default::default(),
        )
        .unwrap();
        let r = respace(&g, b"'a b'  + 'b'\n", Respacing::Blanks).unwrap();
        assert_eq!(r.text, b"'a b' + 'b'");
        let r = respace(&g, b"'a b'+'b'", Respacing::Tight).unwrap();
        assert_eq!(r.text, b"'a b' + 'b'");
        let r = respace(&g, b"'a b'+ 'b'", Respacing::NoBlanks).unwrap();
        assert_eq!(r.text, b"'ab' + 'b'");
    }

    #[test]
    fn words_that_blanks_separate_stay_apart_in_long_inputs() {
        // Without blanks the words of this grammar run together: on long
        // inputs only the trimmed and one-or-more-blanks ways are tried.
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<w>", "<w> <start>"], "<w>": ["<l>", "<l><w>"], "<l>": ["a", "b"]}"#,
            &Default::default(),
        )
        .unwrap();
        let long = "ab  ba\n".repeat(AMBIGUOUS_MAX / 4);
        let r = respace(&g, long.as_bytes(), Respacing::Blanks).unwrap();
        assert_eq!(
            r.text,
            "ab ba ".repeat(AMBIGUOUS_MAX / 4).trim_end().as_bytes()
        );
        for how in [Respacing::Tight, Respacing::NoBlanks] {
            assert!(respace(&g, long.as_bytes(), how).is_none(), "{how:?}");
            assert!(respace(&g, b"ab  ba!", how).is_none(), "{how:?}");
        }
        assert_eq!(
            respace(&g, b"ab ba\n", Respacing::Trimmed).unwrap().text,
            b"ab ba"
        );
    }

    #[test]
    fn text_that_no_spacing_fixes_is_left_alone() {
        let g = expr();
        for how in Respacing::ALL {
            assert!(respace(&g, b"1 + * 2", how).is_none(), "{how:?}");
            assert!(respace(&g, b"", how).is_none(), "{how:?}");
        }
    }
}
