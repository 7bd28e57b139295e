//! Property tests: for random generated inputs and random predicates
//! ("contains token A, later token B"), every strategy returns an
//! interesting input no larger than its input, and tree strategies return
//! sentences of the grammar.

mod common;

use common::*;
use grammar_min::generate::{decode, decode_tree, DecodeConfig};
use grammar_min::oracle::{FnOracle, Outcome};
use grammar_min::reduce::treeops::{Render, TreeCtx};
use grammar_min::reduce::{
    ddmin, grabr, hdd, perses, reduce_choices, reduce_text, shortlex_lt, Strategy, Tester,
};
use grammar_min::tree::Tree;
use proptest::prelude::*;

fn in_order(text: &[u8], a: &[u8], b: &[u8]) -> bool {
    let find = |h: &[u8], n: &[u8]| h.windows(n.len()).position(|w| w == n);
    match find(text, a) {
        Some(p) => find(&text[p + a.len()..], b).is_some(),
        None => false,
    }
}

const CFG: DecodeConfig = DecodeConfig {
    max_depth: 8,
    max_len: 200,
};

/// Two tokens of `text` (blanks aside), the first before the second,
/// picked by `pick`; `None` if it has fewer than two.
fn two_tokens(text: &[u8], pick: (u16, u16)) -> Option<(Vec<u8>, Vec<u8>)> {
    let toks: Vec<&[u8]> = ddmin::tokens(text)
        .into_iter()
        .filter(|t| t != b" ")
        .collect();
    if toks.len() < 2 {
        return None;
    }
    let i = pick.0 as usize % (toks.len() - 1);
    let j = i + 1 + pick.1 as usize % (toks.len() - 1 - i);
    Some((toks[i].to_vec(), toks[j].to_vec()))
}

type TreeFn = fn(&TreeCtx<'_>, Tree, &mut Tester<'_>) -> Tree;

/// Text `auto` with "`a`, later `b`" as the oracle, and again with an
/// oracle that also rejects what `parses` does not accept: the result is
/// interesting, no larger, and, in the second run, a sentence.
fn text_auto_holds(
    g: &grammar_min::grammar::Grammar,
    text: &[u8],
    (a, b): (&[u8], &[u8]),
    parses: impl Fn(&[u8]) -> bool,
) -> Result<(), TestCaseError> {
    for strict in [false, true] {
        let mut p = |c: &[u8]| {
            if strict && !parses(c) {
                Outcome::Invalid
            } else if in_order(c, a, b) {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        };
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(Some(g), text, Strategy::Auto, &mut t).unwrap();
        prop_assert!(in_order(&r.output, a, b));
        prop_assert!(r.output.len() <= text.len());
        if strict {
            prop_assert!(
                parses(&r.output),
                "not a sentence: {:?}",
                String::from_utf8_lossy(&r.output)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_strategy_stays_interesting_and_no_larger(
        choices in proptest::collection::vec(any::<u8>(), 4..48),
        pick in any::<(u16, u16)>(),
    ) {
        let g = expr_grammar();
        let text = decode(&g, &choices, &CFG);
        let picked = two_tokens(&text, pick);
        prop_assume!(picked.is_some());
        let (a, b) = picked.unwrap();
        prop_assume!(in_order(&text, &a, &b));
        let pred = |c: &[u8]| if in_order(c, &a, &b) { Outcome::Interesting } else { Outcome::NotInteresting };

        // Text ddmin.
        let mut p = pred;
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, &text, Strategy::Ddmin, &mut t).unwrap();
        prop_assert!(in_order(&r.output, &a, &b) && r.output.len() <= text.len());

        // Text auto without a grammar (bracket pairs, lines, tokens,
        // bytes): interesting, no larger, and 1-minimal for single bytes.
        let mut p = pred;
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, &text, Strategy::Auto, &mut t).unwrap();
        prop_assert!(in_order(&r.output, &a, &b) && r.output.len() <= text.len());
        for i in 0..r.output.len() {
            let c = [&r.output[..i], &r.output[i + 1..]].concat();
            prop_assert!(!in_order(&c, &a, &b), "byte {} of {:?} deletable", i, String::from_utf8_lossy(&r.output));
        }

        // Text auto (choice passes on the parse tree's choice sequence,
        // Perses, restructure, polish): interesting and no larger;
        // with an oracle that rejects non-sentences, a sentence.
        text_auto_holds(&g, &text, (&a, &b), |c| parse_expr(&g, c).is_some())?;

        // Tree reducers on the decoded tree: valid sentences.
        let passes: [TreeFn; 3] = [perses::perses, hdd::hdd, grabr::grabr];
        for f in passes {
            let mut p = |c: &[u8]| if parse_expr(&g, c).is_some() { pred(c) } else { Outcome::Invalid };
            let mut o = FnOracle::new(&mut p);
            let mut t = Tester::new(&mut o);
            let ctx = TreeCtx::new(&g, Render::Text);
            let out = f(&ctx, decode_tree(&g, &choices, &CFG), &mut t).unparse(&g);
            prop_assert!(in_order(&out, &a, &b));
            prop_assert!(out.len() <= text.len());
            prop_assert!(parse_expr(&g, &out).is_some(), "not a sentence: {:?}", String::from_utf8_lossy(&out));
            prop_assert_eq!(t.stats().invalid, 0, "tree edits must stay valid");
        }

        // Choice-sequence strategies: outputs decode to interesting text.
        for s in [Strategy::Ddmin, Strategy::Choices, Strategy::Auto] {
            let mut p = |c: &[u8]| pred(&decode(&g, c, &CFG));
            let mut o = FnOracle::new(&mut p);
            let mut t = Tester::new(&mut o);
            let r = reduce_choices(&g, &CFG, &choices, s, &mut t).unwrap();
            prop_assert!(!shortlex_lt(&choices, &r.output));
            let out = decode(&g, &r.output, &CFG);
            prop_assert!(in_order(&out, &a, &b));
            prop_assert!(parse_expr(&g, &out).is_some());
        }
        // Ordered by decoded text first, as a fuzz target's artifacts are
        // (the final text-run deletion may lengthen the sequence).
        let mut p = |c: &[u8]| pred(&decode(&g, c, &CFG));
        let mut o = FnOracle::new(&mut p);
        let image = |c: &[u8]| decode(&g, c, &CFG);
        let mut t = Tester::new(&mut o).with_image(image).with_image_bound();
        let r = reduce_choices(&g, &CFG, &choices, Strategy::Auto, &mut t).unwrap();
        let out = decode(&g, &r.output, &CFG);
        prop_assert!(out.len() <= text.len());
        prop_assert!(in_order(&out, &a, &b));
        prop_assert!(parse_expr(&g, &out).is_some());
        // A fixpoint: reduced again, the result stays as it is.
        let mut p = |c: &[u8]| pred(&decode(&g, c, &CFG));
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o).with_image(image).with_image_bound();
        let again = reduce_choices(&g, &CFG, &r.output, Strategy::Auto, &mut t).unwrap();
        prop_assert_eq!(decode(&g, &again.output, &CFG), out);
    }
}

/// `text` with its blanks changed as editors and people change them: per
/// blank, by `ops` in turn, kept, dropped, doubled or made a newline; and
/// a trailing newline if `nl`.
fn reblank(text: &[u8], ops: &[u8], nl: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut k = 0;
    for &c in text {
        if c != b' ' {
            out.push(c);
            continue;
        }
        match ops.get(k).copied().unwrap_or(0) % 4 {
            0 => out.push(b' '),
            1 => {}
            2 => out.extend_from_slice(b"  "),
            _ => out.push(b'\n'),
        }
        k += 1;
    }
    if nl {
        out.push(b'\n');
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Text whose blanks differ from the grammar's spelling still reduces
    /// with the grammar (no "does not parse"): the result is interesting
    /// and never longer than the input, even where the grammar's spelling
    /// is longer.
    #[test]
    fn inputs_with_other_blanks_reduce_with_the_grammar(
        choices in proptest::collection::vec(any::<u8>(), 4..48),
        pick in any::<(u16, u16)>(),
        ops in proptest::collection::vec(any::<u8>(), 0..24),
        nl in any::<bool>(),
    ) {
        let g = expr_grammar();
        let text = reblank(&decode(&g, &choices, &CFG), &ops, nl);
        let picked = two_tokens(&text, pick);
        prop_assume!(picked.is_some());
        let (a, b) = picked.unwrap();
        // The predicate is about tokens, not blanks.
        let blank_free = |x: &[u8]| !x.iter().any(u8::is_ascii_whitespace);
        prop_assume!(blank_free(&a) && blank_free(&b) && in_order(&text, &a, &b));
        let mut p = |c: &[u8]| if in_order(c, &a, &b) { Outcome::Interesting } else { Outcome::NotInteresting };
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(Some(&g), &text, Strategy::Auto, &mut t);
        prop_assert!(r.is_ok(), "{:?}: {:?}", String::from_utf8_lossy(&text), r.err());
        let out = r.unwrap().output;
        prop_assert!(in_order(&out, &a, &b));
        prop_assert!(out.len() <= text.len());
    }
}

/// A list language: `[d,d,...]` with nested lists.
fn list_grammar() -> grammar_min::grammar::Grammar {
    grammar_min::grammar::Grammar::from_json_str(
        r#"{"<start>": ["[<items>]"],
            "<items>": ["<v>", "<v>,<items>"],
            "<v>": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "[<items>]"]}"#,
        &Default::default(),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Long lists (ddmin over list elements works on lists of more than
    /// `MIN_LIST` elements): the list pass and the whole choice pipeline
    /// stay interesting, shortlex no larger, and in the language.
    #[test]
    fn long_lists_reduce_and_stay_interesting(
        items in proptest::collection::vec(0u8..10, 17..90),
        pick in any::<(u16, u16)>(),
    ) {
        let g = list_grammar();
        let cfg = DecodeConfig { max_depth: 256, max_len: 4096 };
        let text = format!(
            "[{}]",
            items.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",")
        );
        let tree = grammar_min::parse::parse(&g, text.as_bytes()).unwrap();
        let choices = grammar_min::encode::encode(&g, &tree, &cfg).unwrap();
        prop_assert_eq!(decode(&g, &choices, &cfg), text.as_bytes());
        let i = pick.0 as usize % (items.len() - 1);
        let j = i + 1 + pick.1 as usize % (items.len() - 1 - i);
        let (a, b) = (items[i].to_string().into_bytes(), items[j].to_string().into_bytes());
        let pred = |c: &[u8]| {
            let t = decode(&g, c, &cfg);
            if in_order(&t, &a, &b) { Outcome::Interesting } else { Outcome::NotInteresting }
        };
        let mut p = pred;
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let ctx = TreeCtx::new(&g, Render::Choices(cfg));
        let out = grammar_min::reduce::choices::ddmin_lists(&ctx, &cfg, &choices, &mut t);
        prop_assert!(!shortlex_lt(&choices, &out));
        prop_assert_eq!(pred(&out), Outcome::Interesting);
        // Left: the two elements the predicate needs and the list's last
        // element (the list's base case, which no ring holds).
        let left = decode(&g, &out, &cfg);
        prop_assert!(grammar_min::parse::parse(&g, &left).is_ok());
        prop_assert!(left.iter().filter(|c| c.is_ascii_digit()).count() <= 3, "{:?}", String::from_utf8_lossy(&left));

        let mut p = pred;
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_choices(&g, &cfg, &choices, Strategy::Auto, &mut t).unwrap();
        prop_assert!(!shortlex_lt(&choices, &r.output));
        prop_assert_eq!(pred(&r.output), Outcome::Interesting);
    }
}

/// Statements with lists, joins and alternatives that keep their parts:
/// where `switch_alternatives` and `join_lists` have work.
fn stmt_grammar() -> grammar_min::grammar::Grammar {
    grammar_min::grammar::Grammar::from_json_str(
        r#"{"<start>": ["<stmts>"],
            "<stmts>": ["<stmt>;", "<stmt>; <stmts>"],
            "<stmt>": ["DROP <t>", "INSERT <t> <rows>", "SELECT <v> FROM <ref>"],
            "<ref>": ["<t>", "<ref> JOIN <t> ON <v>", "<ref>, <t>"],
            "<rows>": ["(<v>)", "(<v>), <rows>"],
            "<v>": ["1", "2", "3", "x7", "y9"],
            "<t>": ["t", "u", "vv"]}"#,
        &Default::default(),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Text auto and choice auto on statement lists: interesting, no
    /// larger, and (with an oracle that rejects non-sentences) in the
    /// language.
    #[test]
    fn statement_lists_reduce_and_stay_interesting(
        choices in proptest::collection::vec(any::<u8>(), 8..64),
        pick in any::<(u16, u16)>(),
    ) {
        let g = stmt_grammar();
        let cfg = DecodeConfig { max_depth: 64, max_len: 4096 };
        let text = decode(&g, &choices, &cfg);
        let picked = two_tokens(&text, pick);
        prop_assume!(picked.is_some());
        let (a, b) = picked.unwrap();
        prop_assume!(in_order(&text, &a, &b));
        text_auto_holds(&g, &text, (&a, &b), |c| grammar_min::parse::parse(&g, c).is_ok())?;
        let mut p = |c: &[u8]| {
            if in_order(&decode(&g, c, &cfg), &a, &b) { Outcome::Interesting } else { Outcome::NotInteresting }
        };
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_choices(&g, &cfg, &choices, Strategy::Auto, &mut t).unwrap();
        prop_assert!(!shortlex_lt(&choices, &r.output));
        prop_assert!(in_order(&decode(&g, &r.output, &cfg), &a, &b));
    }
}

/// An oracle that claims to run `jobs` candidates at once and records
/// the largest batch it was given.
struct Batched<F> {
    f: F,
    jobs: usize,
    largest: usize,
}

impl<F: FnMut(&[u8]) -> Outcome> grammar_min::oracle::Oracle for Batched<F> {
    fn test(&mut self, c: &[u8]) -> Outcome {
        self.largest = self.largest.max(1);
        (self.f)(c)
    }
    fn parallelism(&self) -> usize {
        self.jobs
    }
    fn test_batch(&mut self, cs: &[&[u8]]) -> Vec<Outcome> {
        self.largest = self.largest.max(cs.len());
        cs.iter().map(|c| (self.f)(c)).collect()
    }
}

/// Text auto with `jobs` candidates at once: the output and the largest
/// batch the oracle saw.
fn auto_with_jobs(text: &[u8], pred: impl Fn(&[u8]) -> Outcome, jobs: usize) -> (Vec<u8>, usize) {
    let g = expr_grammar();
    let mut o = Batched {
        f: &pred,
        jobs,
        largest: 0,
    };
    let mut t = Tester::new(&mut o);
    let out = reduce_text(Some(&g), text, Strategy::Auto, &mut t)
        .unwrap()
        .output;
    drop(t);
    (out, o.largest)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// `-j N`: every phase of text auto (the choice passes too, through
    /// the text cache) may run candidates in batches, and the result is the
    /// same as one at a time.
    #[test]
    fn parallel_batches_give_the_same_reduction(
        choices in proptest::collection::vec(any::<u8>(), 4..48),
        pick in any::<(u16, u16)>(),
    ) {
        let text = decode(&expr_grammar(), &choices, &CFG);
        let picked = two_tokens(&text, pick);
        prop_assume!(picked.is_some());
        let (a, b) = picked.unwrap();
        let pred = |c: &[u8]| if in_order(c, &a, &b) { Outcome::Interesting } else { Outcome::NotInteresting };
        let (one, largest) = auto_with_jobs(&text, pred, 1);
        prop_assert!(largest <= 1);
        for jobs in [2, 3] {
            let (many, largest) = auto_with_jobs(&text, pred, jobs);
            prop_assert_eq!(&many, &one);
            prop_assert!(largest <= jobs);
        }
    }
}

/// A word or symbol of shell- and Ruby-like text: keywords that open and
/// close blocks, brackets (nests of them), names, separators, a
/// definition and a use, member reads with sigils (`$o->r`, `@k.e`),
/// conditionals (`c ? a : b`, `a if c else b`) and what looks like them,
/// `endX` closers and `;` comments.
const SHELLISH: &[&str] = &[
    "if ",
    "then ",
    "else ",
    "fi",
    "for x in y",
    "do ",
    "done",
    "while ",
    "end",
    "def f\n",
    "[",
    "]",
    "[[[[",
    "]]]]",
    "(",
    ")",
    "a",
    "b",
    "boom",
    "; ",
    "\n",
    ", ",
    "\nx = a\n",
    "$x",
    "END",
    "\nclass l(a)\n",
    "l",
    "let s=a in ",
    "await x",
    "\"tab\"",
    "0end",
    "let g a b=a ",
    "g b (a)",
    "$o->r",
    "->",
    "@k.e",
    " ? ",
    " : ",
    "?",
    "::",
    " if c else ",
    "endfor",
    "endfor()",
    " ;c\n",
];

/// Balanced brackets: the predicates below need them, as a parser would.
fn balanced(c: &[u8]) -> bool {
    let mut stack = Vec::new();
    for &b in c {
        match b {
            b'[' | b'(' => stack.push(b),
            b']' if stack.pop() != Some(b'[') => return false,
            b')' if stack.pop() != Some(b'(') => return false,
            _ => {}
        }
    }
    stack.is_empty()
}

/// `text` with its unmatched closers dropped and closers appended for
/// its unclosed openers.
fn balance(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for &b in text {
        match b {
            b'[' => stack.push(b']'),
            b'(' => stack.push(b')'),
            b']' | b')' if stack.last() != Some(&b) => continue,
            b']' | b')' => {
                stack.pop();
            }
            _ => {}
        }
        out.push(b);
    }
    out.extend(stack.iter().rev());
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Grammar-blind `auto` on texts full of keyword blocks and nests,
    /// with a predicate that wants two words in order and balanced
    /// brackets: the result is interesting, no larger, and no single
    /// byte of it can go.
    #[test]
    fn blind_on_keyword_blocks_and_nests(
        words in proptest::collection::vec(0..SHELLISH.len(), 1..60),
        pick in any::<(u16, u16)>(),
    ) {
        let text: Vec<u8> = words.iter().flat_map(|&i| SHELLISH[i].bytes()).collect();
        let text = balance(&text);
        prop_assert!(balanced(&text));
        let picked = two_tokens(&text, pick);
        prop_assume!(picked.is_some());
        let (a, b) = picked.unwrap();
        prop_assume!(in_order(&text, &a, &b));
        let want = |c: &[u8]| balanced(c) && in_order(c, &a, &b);
        let mut p = |c: &[u8]| if want(c) { Outcome::Interesting } else { Outcome::NotInteresting };
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, &text, Strategy::Auto, &mut t).unwrap();
        prop_assert!(want(&r.output) && r.output.len() <= text.len());
        for i in 0..r.output.len() {
            let c = [&r.output[..i], &r.output[i + 1..]].concat();
            prop_assert!(!want(&c), "byte {} of {:?} deletable", i, String::from_utf8_lossy(&r.output));
        }
    }
}
