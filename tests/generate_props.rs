//! Properties of the choice-sequence decoder (`grammar_min::generate`):
//! totality and determinism on arbitrary bytes, outputs accepted by
//! independent recognizers, the empty sequence as a shortest sentence, the
//! documented monotonicity guarantee, depth budgets, and define-before-use
//! hooks.

use grammar_min::choice::width;
use grammar_min::generate::{
    decode, decode_into_consumed, decode_tree, decode_tree_with_hooks, decode_with_hooks,
    DecodeConfig, DefineBeforeUse,
};
use grammar_min::grammar::{Grammar, LoadOptions, Token};
use grammar_min::tree::{Label, NodeId, Tree};
use proptest::prelude::*;

const SHIPPED: [&str; 7] = ["expr", "json", "assign", "html", "sql", "int", "xyz"];

fn load(name: &str) -> Grammar {
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Grammar::from_path(std::path::Path::new(&path), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Uniform bytes decode to small inputs for grammars whose random walk dies
/// out (json); high bytes pick the later, recursive alternatives and build
/// big, deep ones. Mix both.
fn choices(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..max),
        proptest::collection::vec(160u8..=255, 0..max),
    ]
}

/// Checks the language of `grammars/expr.json` without recursion: operands
/// (unary signs, then a number or a parenthesis) alternate with the binary
/// operators ` + `, ` - `, ` * `, ` / `; parentheses balance. Precedence
/// does not change the set of sentences, so a flat scan decides it.
fn is_expr(s: &[u8]) -> bool {
    let mut i = 0;
    let mut open = 0usize;
    loop {
        // Expect an operand.
        while i < s.len() && (s[i] == b'+' || s[i] == b'-') {
            i += 1;
        }
        if i < s.len() && s[i] == b'(' {
            open += 1;
            i += 1;
            continue;
        }
        let digits = |i: &mut usize| {
            let st = *i;
            while *i < s.len() && s[*i].is_ascii_digit() {
                *i += 1;
            }
            *i > st
        };
        if !digits(&mut i) {
            return false;
        }
        if i < s.len() && s[i] == b'.' {
            i += 1;
            if !digits(&mut i) {
                return false;
            }
        }
        // After an operand: closing parentheses, then an operator or the end.
        while i < s.len() && s[i] == b')' {
            if open == 0 {
                return false;
            }
            open -= 1;
            i += 1;
        }
        if i == s.len() {
            return open == 0;
        }
        match &s[i..] {
            [b' ', b'+' | b'-' | b'*' | b'/', b' ', ..] => i += 3,
            _ => return false,
        }
    }
}

/// Checks `grammars/assign.json` (statements `v = E;\n`, E over single-letter
/// variables and the digits 0, 1 with ` + `, ` - ` and parentheses) and
/// returns whether every variable used was defined by an earlier statement.
/// `None`: not a sentence of the grammar.
fn assign_defined_before_use(s: &[u8]) -> Option<bool> {
    let mut defined = [false; 26];
    let mut ok = true;
    let mut rest = s;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let end = rest.iter().position(|&b| b == b'\n')?;
        let (stmt, tail) = (&rest[..end], &rest[end + 1..]);
        rest = tail;
        let [v @ b'a'..=b'z', b' ', b'=', b' ', e @ .., b';'] = stmt else {
            return None;
        };
        let mut i = 0;
        let mut open = 0usize;
        loop {
            while i < e.len() && e[i] == b'(' {
                open += 1;
                i += 1;
            }
            match e.get(i)? {
                b'0' | b'1' => {}
                c @ b'a'..=b'z' => ok &= defined[(c - b'a') as usize],
                _ => return None,
            }
            i += 1;
            while i < e.len() && e[i] == b')' {
                open = open.checked_sub(1)?;
                i += 1;
            }
            if i == e.len() {
                break;
            }
            match &e[i..] {
                [b' ', b'+' | b'-', b' ', ..] => i += 3,
                _ => return None,
            }
        }
        if open != 0 {
            return None;
        }
        defined[(v - b'a') as usize] = true;
    }
    Some(ok)
}

/// JSON nesting depth, counted outside strings (serde_json refuses more than
/// 128 levels).
fn json_depth(s: &[u8]) -> usize {
    let (mut depth, mut max, mut in_str, mut esc) = (0usize, 0, false, false);
    for &b in s {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    max
}

/// Bytes of choice data each node's decision read: the gap to the next
/// node's recorded start (nodes are pushed right after their decision).
fn consumed(t: &Tree) -> Vec<u32> {
    let c = |i: usize| t.choices(NodeId(i as u32));
    (0..t.len())
        .map(|i| {
            let next = if i + 1 < t.len() {
                c(i + 1).start
            } else {
                c(0).end
            };
            next - c(i).start
        })
        .collect()
}

fn alt(g: &Grammar, t: &Tree, i: usize) -> Option<u32> {
    match t.nodes()[i].label() {
        Label::Rule(r) => Some(g.alt_index(r)),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Totality and determinism: every byte string decodes, twice the same,
    /// to a valid derivation tree whose text is the fast path's output.
    #[test]
    fn decode_is_total_and_deterministic(c in choices(2000)) {
        let cfg = DecodeConfig::default();
        for name in SHIPPED {
            let g = load(name);
            let text = decode(&g, &c, &cfg);
            prop_assert_eq!(&text, &decode(&g, &c, &cfg));
            let t = decode_tree(&g, &c, &cfg);
            prop_assert_eq!(&t, &decode_tree(&g, &c, &cfg));
            prop_assert_eq!(t.find_invalid(&g), None);
            prop_assert_eq!(&t.unparse(&g), &text);
            let mut out = Vec::new();
            let used = decode_into_consumed(&g, &c, &cfg, &mut out);
            prop_assert_eq!(used as u32, t.choices(t.root()).end);
            // Bytes past the consumed prefix do not matter.
            prop_assert_eq!(decode(&g, &c[..used], &cfg), text);
        }
    }

    /// Every expression decoded is accepted by the flat expression checker.
    #[test]
    fn expr_outputs_are_expressions(
        c in choices(3000),
        max_depth in prop_oneof![Just(2048u32), 0u32..40],
    ) {
        let g = load("expr");
        let cfg = DecodeConfig { max_depth, ..Default::default() };
        let text = decode(&g, &c, &cfg);
        prop_assert!(is_expr(&text), "{}", String::from_utf8_lossy(&text));
    }

    /// Every JSON document decoded is accepted by serde_json (as
    /// `IgnoredAny`, which accepts the lone-surrogate escapes RFC 8259's
    /// grammar allows; see `lone_surrogates_are_json` below).
    #[test]
    fn json_outputs_are_json(c in choices(3000)) {
        let g = load("json");
        let text = decode(&g, &c, &DecodeConfig::default());
        match serde_json::from_slice::<serde::de::IgnoredAny>(&text) {
            Ok(_) => {}
            // serde_json's own nesting limit, not a grammar problem.
            Err(_) if json_depth(&text) > 128 => {}
            Err(e) => prop_assert!(false, "{e}: {}", String::from_utf8_lossy(&text)),
        }
    }

    /// Prefixes: decoding `c[..k]` makes the same decisions as decoding `c`
    /// up to the first decision that would read at or past `k`, and from
    /// there on takes alternative 0 everywhere (missing choices read as 0).
    #[test]
    fn truncation_replaces_dropped_decisions_by_zero(c in choices(800), cut in any::<prop::sample::Index>()) {
        let cfg = DecodeConfig::default();
        for name in SHIPPED {
            let g = load(name);
            // Every decision reads at most one byte in the shipped grammars
            // (<= 256 alternatives), so "reads past k" means "starts at k".
            prop_assert!(g.symbols().iter().all(|s| width(s.rules.end - s.rules.start) <= 1));
            let k = cut.index(c.len() + 1);
            let full = decode_tree(&g, &c, &cfg);
            let pre = decode_tree(&g, &c[..k], &cfg);
            let used = consumed(&full);
            let m = (0..full.len())
                .find(|&i| used[i] > 0 && full.choices(NodeId(i as u32)).start as usize >= k)
                .unwrap_or(full.len());
            prop_assert!(pre.len() >= m);
            for i in 0..m {
                prop_assert_eq!(pre.nodes()[i].label(), full.nodes()[i].label());
                prop_assert_eq!(
                    pre.choices(NodeId(i as u32)).start,
                    full.choices(NodeId(i as u32)).start
                );
            }
            for i in m..pre.len() {
                prop_assert!(alt(&g, &pre, i).unwrap_or(0) == 0);
            }
            if m == full.len() {
                prop_assert_eq!(&pre, &full);
            }
        }
    }

    /// Lowering one byte: all decisions before the one that read it are
    /// unchanged, and that decision picks an alternative no later than
    /// before. Later decisions may be re-interpreted.
    #[test]
    fn lowering_a_byte_lowers_its_decision(
        c in proptest::collection::vec(any::<u8>(), 1..800),
        at in any::<prop::sample::Index>(),
        by in 1u8..=255,
    ) {
        let cfg = DecodeConfig::default();
        let j = at.index(c.len());
        let mut low = c.clone();
        low[j] = low[j].saturating_sub(by);
        for name in SHIPPED {
            let g = load(name);
            let a = decode_tree(&g, &c, &cfg);
            let b = decode_tree(&g, &low, &cfg);
            let used = consumed(&a);
            match (0..a.len()).find(|&i| used[i] > 0 && a.choices(NodeId(i as u32)).start as usize == j) {
                None => prop_assert_eq!(&a, &b), // byte j was never read
                Some(m) => {
                    for i in 0..m {
                        prop_assert_eq!(a.nodes()[i].label(), b.nodes()[i].label());
                    }
                    prop_assert_eq!(a.symbol(&g, NodeId(m as u32)), b.symbol(&g, NodeId(m as u32)));
                    prop_assert!(alt(&g, &b, m) <= alt(&g, &a, m));
                }
            }
        }
    }

    /// Context-sensitive decoding of the assignment language: variables are
    /// used only after the statement defining them, for any bytes; the
    /// output is still a sentence of the grammar; tree and fast path agree.
    #[test]
    fn assign_hooks_define_before_use(c in choices(2000)) {
        let g = load("assign");
        let cfg = DecodeConfig::default();
        let mut hooks = DefineBeforeUse::assign(&g).unwrap();
        let mut out = Vec::new();
        let used = decode_with_hooks(&g, &c, &cfg, &mut hooks, &mut out);
        prop_assert_eq!(
            assign_defined_before_use(&out),
            Some(true),
            "{}",
            String::from_utf8_lossy(&out)
        );
        let t = decode_tree_with_hooks(&g, &c, &cfg, &mut hooks);
        prop_assert_eq!(t.find_invalid(&g), None);
        prop_assert_eq!(t.unparse(&g), out);
        prop_assert_eq!(t.choices(t.root()).end as usize, used);
    }
}

#[test]
fn recognizers_reject_what_they_should() {
    for bad in [
        "", "1 +", "(1", "1)", "1+2", "1 + (2", ".5", "1.", "-", "1 * * 2",
    ] {
        assert!(!is_expr(bad.as_bytes()), "{bad}");
    }
    for good in ["0", "-+1.25 * (3 / -(4)) - 7", "((1))"] {
        assert!(is_expr(good.as_bytes()), "{good}");
    }
    assert_eq!(assign_defined_before_use(b"a = 1;\nb = a;\n"), Some(true));
    assert_eq!(assign_defined_before_use(b"a = a;\n"), Some(false));
    assert_eq!(assign_defined_before_use(b"a = (1 + 0;\n"), None);
    // Without hooks the grammar happily uses undefined variables: the empty
    // sequence decodes to `a = a;`.
    let g = load("assign");
    let plain = decode(&g, b"", &DecodeConfig::default());
    assert_eq!(plain, b"a = a;\n");
    assert_eq!(assign_defined_before_use(&plain), Some(false));
}

#[test]
fn lone_surrogates_are_json() {
    // RFC 8259's grammar allows any \uXXXX escape; serde_json accepts lone
    // surrogates when it does not have to build a String.
    for doc in [r#""\uD800""#, r#"["\udfff", 1e99999]"#] {
        assert!(serde_json::from_slice::<serde::de::IgnoredAny>(doc.as_bytes()).is_ok());
        assert!(serde_json::from_str::<serde_json::Value>(doc).is_err());
    }
}

/// The empty sequence decodes to the all-alternative-0 tree, a shortest
/// sentence of the grammar (length `min_len` of the start symbol), on every
/// shipped grammar and on random grammars.
#[test]
fn empty_sequence_decodes_to_a_shortest_sentence() {
    for name in SHIPPED {
        let g = load(name);
        let t = decode_tree(&g, b"", &DecodeConfig::default());
        assert!(
            (0..t.len()).all(|i| alt(&g, &t, i).unwrap_or(0) == 0),
            "{name}"
        );
        assert_eq!(t.choices(t.root()), 0..0);
        let text = t.unparse(&g);
        assert_eq!(text.len() as u64, g.symbol(g.start()).min_len, "{name}");
        if name == "json" {
            assert_eq!(text, b"0");
        }
    }
}

#[test]
fn one_mib_of_random_choices_decodes() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut c = vec![0u8; 1 << 20];
    rng.fill_bytes(&mut c);
    let cfg = DecodeConfig::default();
    for name in ["expr", "json", "sql"] {
        let g = load(name);
        let text = decode(&g, &c, &cfg);
        assert_eq!(text, decode(&g, &c, &cfg), "{name}");
        let t = decode_tree(&g, &c, &cfg);
        assert_eq!(t.unparse(&g), text, "{name}");
        assert_eq!(t.find_invalid(&g), None, "{name}");
    }
    assert!(is_expr(&decode(&load("expr"), &c, &cfg)));
}

/// 100,000 maximal choices drive expr and json as deep as the budget
/// allows: no stack overflow, valid outputs, and the depth stays within
/// `max_depth + max_min_depth + 1`.
#[test]
fn depth_budget_holds_on_maximal_choices() {
    let c = vec![0xFFu8; 100_000];
    for name in ["expr", "json"] {
        let g = load(name);
        for max_depth in [DecodeConfig::default().max_depth, 0, 7, 100] {
            let cfg = DecodeConfig {
                max_depth,
                ..Default::default()
            };
            let t = decode_tree(&g, &c, &cfg);
            let bound = max_depth + g.max_min_depth() + 1;
            assert!(
                t.depth() <= bound,
                "{name} {max_depth}: {} > {bound}",
                t.depth()
            );
            let text = t.unparse(&g);
            assert_eq!(text, decode(&g, &c, &cfg));
            match name {
                "expr" => assert!(is_expr(&text)),
                _ => assert!(
                    json_depth(&text) > 128
                        || serde_json::from_slice::<serde::de::IgnoredAny>(&text).is_ok()
                ),
            }
        }
    }
}

fn random_grammar() -> impl Strategy<Value = Vec<Vec<Vec<(bool, u8)>>>> {
    // symbols -> alternatives -> tokens (is_nonterminal, index/terminal id)
    prop::collection::vec(
        prop::collection::vec(prop::collection::vec((any::<bool>(), 0u8..6), 0..4), 1..4),
        1..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// On random grammars (left/right recursion, unit cycles, epsilon
    /// rules), the empty sequence decodes — in finite time — to a sentence
    /// of minimal length.
    #[test]
    fn empty_sequence_is_shortest_on_random_grammars(spec in random_grammar()) {
        let n = spec.len();
        let mut b = grammar_min::grammar::GrammarBuilder::new();
        for (si, alts) in spec.iter().enumerate() {
            let name = if si == 0 { "<start>".to_string() } else { format!("<s{si}>") };
            for alt in alts {
                let toks = alt
                    .iter()
                    .map(|&(nt, i)| {
                        if nt {
                            let k = i as usize % n;
                            Token::Nt(if k == 0 { "<start>".into() } else { format!("<s{k}>") })
                        } else {
                            Token::T(["", "a", "bb", "ccc", "(", ")"][i as usize].as_bytes().to_vec())
                        }
                    })
                    .collect();
                b.push_alt(&name, toks);
            }
        }
        if let Ok(g) = b.build() {
            let text = grammar_min::generate::decode(&g, b"", &DecodeConfig::default());
            prop_assert_eq!(text.len() as u64, g.symbol(g.start()).min_len);
            let tight = DecodeConfig { max_depth: 0, max_len: 0 };
            let t = decode_tree(&g, b"", &tight);
            prop_assert!(t.find_invalid(&g).is_none());
        }
    }
}
