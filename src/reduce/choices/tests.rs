//! Tests of the choice-sequence passes.

use super::*;
use crate::grammar::Grammar;
use crate::oracle::{FnOracle, Outcome};
use crate::reduce::shortlex_lt;
use crate::reduce::treeops::Render;

/// An oracle on choice sequences: interesting iff `holds` is true of the
/// decoded text.
fn when_text<'a>(
    g: &'a Grammar,
    cfg: &'a DecodeConfig,
    holds: impl Fn(&[u8]) -> bool + 'a,
) -> impl FnMut(&[u8]) -> Outcome + 'a {
    move |c: &[u8]| {
        if holds(&crate::generate::decode(g, c, cfg)) {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    }
}

/// An oracle on texts: interesting iff `g` parses the text and `holds`
/// is true of it.
pub(crate) fn sentence_when<'a>(
    g: &'a Grammar,
    holds: impl Fn(&str) -> bool + 'a,
) -> impl FnMut(&[u8]) -> Outcome + 'a {
    move |c: &[u8]| {
        if crate::parse::parse(g, c).is_ok() && holds(&String::from_utf8_lossy(c)) {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    }
}

/// `replace_by_descendant` on `text` (in `grammars/expr.json`) with "the
/// text holds `needle`" as the oracle: the result's text and the number
/// of interesting runs.
fn expr_replace_by_descendant(text: &[u8], needle: &[u8]) -> (Vec<u8>, u64) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json");
    let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let start = encoded(&g, text, &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| {
        t.windows(needle.len()).any(|w| w == needle)
    }));
    let mut t = Tester::new(&mut o);
    let out = replace_by_descendant(&ctx, &cfg, &start, &mut t);
    (
        crate::generate::decode(&g, &out, &cfg),
        t.stats().interesting,
    )
}

#[test]
fn passes_only_accept_shortlex_progress() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<l>"], "<l>": ["<d>", "<d><l>"], "<d>": ["a", "b", "c"]}"#,
        &Default::default(),
    )
    .unwrap();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.contains(&b'c')));
    let mut t = Tester::new(&mut o);
    let start = vec![255u8, 100, 255, 0, 255, 200, 255, 255, 0];
    assert!(crate::generate::decode(&g, &start, &cfg).contains(&b'c'));
    let a = replace_by_descendant(&ctx, &cfg, &start, &mut t);
    let b = minimize_nodes(&ctx, &cfg, &a, &mut t);
    let c = delete_runs(&b, &mut t);
    let d = lower_bytes(&c, &mut t);
    for (x, y) in [(&start, &a), (&a, &b), (&b, &c), (&c, &d)] {
        assert!(!shortlex_lt(x, y));
    }
    assert_eq!(crate::generate::decode(&g, &d, &cfg), b"c");
}

#[test]
fn replace_by_descendant_hoists_a_list_element_in_one_step() {
    // `5 / 6 * --7 * 8` is a right-recursive list of <term>s; `--7`,
    // a <factor> two <term>s down, replaces the whole list at once.
    let (out, steps) = expr_replace_by_descendant(b"5 / 6 * --7 * 8", b"--7");
    assert_eq!(out, b"--7");
    assert_eq!(steps, 1);
}

#[test]
fn ddmin_lists_drops_most_of_a_long_list_in_fewer_runs_than_elements() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["[<items>]"], "<items>": ["<v>", "<v>,<items>"],
            "<v>": ["1", "2", "3", "x", "y"]}"#,
        &Default::default(),
    )
    .unwrap();
    let cfg = DecodeConfig {
        max_depth: 512,
        max_len: 4096,
    };
    let mut items: Vec<&str> = (0..200).map(|i| ["1", "2", "3"][i % 3]).collect();
    items[37] = "x";
    items[151] = "y";
    let start = encoded(&g, format!("[{}]", items.join(",")).as_bytes(), &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| {
        t.contains(&b'x') && t.contains(&b'y')
    }));
    let mut t = Tester::new(&mut o);
    let ctx = TreeCtx::new(&g, Render::Choices(cfg));
    let out = ddmin_lists(&ctx, &cfg, &start, &mut t);
    // x, y and the last element (the list's base case) are left.
    assert_eq!(crate::generate::decode(&g, &out, &cfg), b"[x,y,2]");
    // 37 runs here; one per element would be 200.
    assert!(t.stats().tests < 100, "{} runs", t.stats().tests);
}

#[test]
fn replace_by_descendant_hoists_through_unit_alternatives() {
    // `--0 * 0 - 0` holds `--0`, a <factor>, below <expr> and <term>:
    // no same-symbol descendant leads there, hoisting does.
    let (out, _) = expr_replace_by_descendant(b"--0 * 0 - 0", b"--0");
    assert_eq!(out, b"--0");
}

/// Two statement kinds sharing `<e>` and `<t>`.
fn stmt_grammar() -> Grammar {
    Grammar::from_json_str(
        r#"{"<start>": ["<stmt>"],
            "<stmt>": ["SELECT <e> FROM <t>", "UPDATE <t> SET a=<e>"],
            "<e>": ["x", "y", "(<e>)"],
            "<t>": ["t", "u"]}"#,
        &Default::default(),
    )
    .unwrap()
}

/// The choice sequence of `text`'s parse tree.
fn encoded(g: &Grammar, text: &[u8], cfg: &DecodeConfig) -> Vec<u8> {
    crate::encode::encode(g, &crate::parse::parse(g, text).unwrap(), cfg).unwrap()
}

#[test]
fn restructure_rebuilds_through_another_alternative() {
    let g = stmt_grammar();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let start = encoded(&g, b"UPDATE t SET a=(y)", &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.contains(&b'y')));
    let mut t = Tester::new(&mut o);
    // Same-symbol replacement cannot leave UPDATE; restructuring can.
    let rbd = replace_by_descendant(&ctx, &cfg, &start, &mut t);
    assert!(crate::generate::decode(&g, &rbd, &cfg).starts_with(b"UPDATE"));
    let out = restructure(&ctx, &cfg, &rbd, &mut t);
    assert_eq!(crate::generate::decode(&g, &out, &cfg), b"SELECT y FROM t");
}

#[test]
fn restructure_takes_shorter_text_with_longer_choices_under_the_image_bound() {
    // `GET <t> <e>` is the last alternative and reads one more choice:
    // its sequence is not shortlex-smaller than UPDATE's, its text is
    // shorter.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<stmt>"],
            "<stmt>": ["UPDATE <e> SET a=b WHERE 1", "DELETE <t> WHERE <e>", "GET <t> <e>"],
            "<e>": ["x", "y", "(<e>)"],
            "<t>": ["t", "u"]}"#,
        &Default::default(),
    )
    .unwrap();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let start = encoded(&g, b"UPDATE y SET a=b WHERE 1", &cfg);
    let text = |c: &[u8]| crate::generate::decode(&g, c, &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.contains(&b'y')));
    // Without the bound: shortlex progress only, UPDATE stays.
    let mut t = Tester::new(&mut o);
    let out = restructure(&ctx, &cfg, &start, &mut t);
    assert_eq!(text(&out), b"UPDATE y SET a=b WHERE 1");
    drop(t);
    let mut t = Tester::new(&mut o).with_cache_key(text).with_image_bound();
    t.seed(&start, Outcome::Interesting);
    let out = restructure(&ctx, &cfg, &start, &mut t);
    assert_eq!(text(&out), b"GET t y");
    assert!(!shortlex_lt(&out, &start));
    assert_eq!(t.best(), Some(&out[..]));
}

#[test]
fn text_pipeline_restructures_too() {
    let g = stmt_grammar();
    // Only texts in the language count, so the byte polish cannot cut
    // `UPDATE` down to something shorter on its own.
    let mut o = FnOracle::new(sentence_when(&g, |s| s.contains('y')));
    let mut t = Tester::new(&mut o);
    let r = crate::reduce::reduce_text(
        Some(&g),
        b"UPDATE u SET a=((y))",
        crate::reduce::Strategy::Auto,
        &mut t,
    )
    .unwrap();
    // Neither Perses nor same-symbol replacement can leave UPDATE (see
    // above): the choice passes, run on the parse tree's choice
    // sequence, restructured it.
    assert_eq!(r.output, b"SELECT y FROM t");
    let phase = r.passes.iter().find(|p| p.0 == "choices").unwrap();
    assert_eq!(phase.1, r.output.len());
}

#[test]
fn a_statement_leaves_its_block_where_each_depth_has_its_own_rule() {
    // A grammar with one statement rule per indentation depth (as a user
    // writes for Python): the call `y()` inside `def a()` is a `<simple>`
    // below `<line1>`, and no other `<line0>` holds it, so hoisting and
    // same-symbol replacement cannot lift it. Restructuring can: the list
    // `<stmts0>` rebuilt as `<line0><stmts0>`, the call in the first slot
    // through the unit alternative `<simple>\n`, the rest minimal.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<stmts0>"],
            "<stmts0>": ["<line0>", "<line0><stmts0>"],
            "<line0>": ["<simple>\n", "def <name>():\n<stmts1>"],
            "<stmts1>": ["<line1>", "<line1><stmts1>"],
            "<line1>": [" <simple>\n"],
            "<simple>": ["pass", "<name>()"],
            "<name>": ["a", "b", "y"]}"#,
        &Default::default(),
    )
    .unwrap();
    // `y()` fails when it runs: at the top, or through `a()`.
    let mut o = FnOracle::new(sentence_when(&g, |s| {
        let top = |l: &str| s.lines().any(|x| x == l);
        top("y()") || (s.contains("def a():\n y()") && top("a()"))
    }));
    let mut t = Tester::new(&mut o);
    let r = crate::reduce::reduce_text(
        Some(&g),
        b"def b():\n pass\ndef a():\n y()\n pass\nb()\na()\n",
        crate::reduce::Strategy::Auto,
        &mut t,
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&r.output), "y()\n");
}

/// Nesting depth of brackets in `t` (the test grammar's texts).
fn depth(t: &[u8]) -> usize {
    let (mut d, mut max) = (0usize, 0usize);
    for &c in t {
        match c {
            b'[' => {
                d += 1;
                max = max.max(d);
            }
            b']' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// JSON-like lists; the test inputs nest them with a number beside each
/// level: `[1,[2,[3,...[x]...]]]`.
fn nested_grammar() -> Grammar {
    Grammar::from_json_str(
        r#"{"<start>": ["<v>"], "<v>": ["x", "<n>", "[<l>]"], "<l>": ["<v>", "<v>,<l>"], "<n>": ["1", "2", "3"]}"#,
        &Default::default(),
    )
    .unwrap()
}

fn nested_text(levels: usize) -> Vec<u8> {
    let mut t = b"x".to_vec();
    for i in 0..levels {
        t = [&b"["[..], &[b'1' + (i % 3) as u8], b",", &t, b"]"].concat();
    }
    t
}

#[test]
fn cut_chains_finds_the_needed_depth_in_logarithmic_runs() {
    let g = nested_grammar();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    for (levels, need) in [(300usize, 200usize), (300, 1), (100, 100), (80, 70)] {
        let start = encoded(&g, &nested_text(levels), &cfg);
        let mut o = FnOracle::new(when_text(&g, &cfg, |t| depth(t) >= need));
        let mut t = Tester::new(&mut o);
        let out = chains::cut_chains(&ctx, &cfg, &start, &mut t);
        let text = crate::generate::decode(&g, &out, &cfg);
        // Exactly the needed depth: the deepest hoist removed the levels
        // above, the shallowest cut those below.
        assert_eq!(depth(&text), need, "{levels} levels, need {need}");
        // The spine: the number beside every level gone in one run (when
        // the result is still a chain; a short one is left to the other
        // passes).
        assert!(
            need < chains::MIN_CHAIN || !text.iter().any(u8::is_ascii_digit),
            "{levels} levels, need {need}: noise left in {}",
            String::from_utf8_lossy(&text)
        );
        assert!(!shortlex_lt(&start, &out));
        // Two gallops and bisections: O(log levels), where one run per
        // level is what the shortest-first list costs.
        let bound = 4 * (usize::BITS - levels.leading_zeros()) as u64 + 4;
        assert!(
            t.stats().tests <= bound,
            "{levels} levels: {} runs",
            t.stats().tests
        );
    }
}

#[test]
fn cut_chains_leaves_short_chains_and_lists_alone() {
    // Chains of fewer than MIN_CHAIN nodes (levels and the innermost
    // value): nothing run, nothing changed.
    let g = nested_grammar();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let start = encoded(&g, &nested_text(chains::MIN_CHAIN - 2), &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.contains(&b'x')));
    let mut t = Tester::new(&mut o);
    assert_eq!(chains::cut_chains(&ctx, &cfg, &start, &mut t), start);
    assert_eq!(t.stats().tests, 0);
    // A long list (same-symbol children, not nesting) is not a chain.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<l>"], "<l>": ["<d>", "<d>,<l>"], "<d>": ["a", "b"]}"#,
        &Default::default(),
    )
    .unwrap();
    let text: Vec<u8> = (0..200).flat_map(|_| *b"a,").chain(*b"b").collect();
    let start = encoded(&g, &text, &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.contains(&b'b')));
    let mut t = Tester::new(&mut o);
    assert_eq!(chains::cut_chains(&ctx, &cfg, &start, &mut t), start);
    assert_eq!(t.stats().tests, 0);
}

/// `auto`'s choice stage on a choice artifact (no text stage before it).
fn choice_stage(
    g: &Grammar,
    cfg: &DecodeConfig,
    start: &[u8],
    t: &mut Tester<'_>,
) -> crate::reduce::Reduced {
    crate::reduce::choices_pipeline(g, cfg, start, crate::reduce::Strategy::Auto, false, t).unwrap()
}

#[test]
fn the_choice_pipeline_on_a_deep_chain_presumes_the_cuts_above_the_turn() {
    // Noise beside every level; only the depth matters. Without the
    // chain search and its anchor, the shortest-first list runs one cut
    // per level above the needed depth (and again after every deletion
    // of a number below it): about levels × 3 runs.
    let g = nested_grammar();
    let cfg = DecodeConfig::default();
    let (levels, need) = (200usize, 150usize);
    let start = encoded(&g, &nested_text(levels), &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| depth(t) >= need));
    let mut t = Tester::new(&mut o);
    let r = choice_stage(&g, &cfg, &start, &mut t);
    let text = crate::generate::decode(&g, &r.output, &cfg);
    assert_eq!(
        text,
        [vec![b'['; need], b"x".to_vec(), vec![b']'; need]].concat()
    );
    assert!(t.stats().presumed > 0);
    // 16 runs. Without the chain search 1,771; 267 while the blind choice
    // passes (~1.25 runs per level) and Perses ran at the fixpoint.
    assert!(
        t.stats().tests < 3 * levels as u64,
        "{} runs for {levels} levels: {:?} {:?}",
        t.stats().tests,
        t.stats(),
        r.passes
    );
}

/// A FROM clause: a table, a join with a constraint, or a comma join.
pub(crate) const JOIN_GRAMMAR: &str = r#"{"<start>": ["SELECT <cols> FROM <ref>"],
    "<cols>": ["*", "<col>"],
    "<col>": ["a", "b"],
    "<ref>": ["<t>", "<ref> JOIN <t> ON <col>", "<ref>, <t>"],
    "<t>": ["t", "u", "v"]}"#;

#[test]
fn switch_alternatives_keeps_every_child() {
    let g = Grammar::from_json_str(JOIN_GRAMMAR, &Default::default()).unwrap();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let start = encoded(&g, b"SELECT a FROM u JOIN v ON b", &cfg);
    let text = |c: &[u8]| String::from_utf8(crate::generate::decode(&g, c, &cfg)).unwrap();
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| {
        t.contains(&b'u') && t.contains(&b'v')
    }));
    let mut t = Tester::new(&mut o);
    // Restructure keeps one descendant of the join (`u, t`, `t, v`), and
    // the hoists keep one table: the join stays.
    let r = restructure(&ctx, &cfg, &start, &mut t);
    let r = replace_by_descendant(&ctx, &cfg, &r, &mut t);
    assert!(text(&r).contains("JOIN"), "{}", text(&r));
    let out = alternatives::switch_alternatives(&ctx, &cfg, &r, &mut t);
    assert!(text(&out).ends_with(" FROM u, v"), "{}", text(&out));
}

#[test]
fn join_lists_merges_two_statements_of_one_kind() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<stmts>"],
            "<stmts>": ["<stmt>;", "<stmt>; <stmts>"],
            "<stmt>": ["DROP", "INSERT <rows>"],
            "<rows>": ["<row>", "<row>, <rows>"],
            "<row>": ["(<v>)"],
            "<v>": ["1", "7"]}"#,
        &Default::default(),
    )
    .unwrap();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text);
    let text = |c: &[u8]| String::from_utf8(crate::generate::decode(&g, c, &cfg)).unwrap();
    // A duplicate key: two rows (7), wherever they are.
    let twice = |t: &[u8]| t.windows(3).filter(|w| w == b"(7)").count() >= 2;
    let mut o = FnOracle::new(when_text(&g, &cfg, twice));
    let mut t = Tester::new(&mut o);
    let start = encoded(&g, b"INSERT (7); DROP; INSERT (1), (7);", &cfg);
    // Every other pass stops at one row per statement.
    let mut cur = start.clone();
    for pass in [replace_by_descendant, minimize_nodes, restructure] {
        cur = pass(&ctx, &cfg, &cur, &mut t);
    }
    assert_eq!(text(&cur), "INSERT (7); INSERT (7);");
    let out = alternatives::join_lists(&ctx, &cfg, &cur, &mut t);
    // The statement list still reads a second statement, now past the
    // input's end: the minimal one, which the next pass deletes.
    assert_eq!(text(&out), "INSERT (7), (7); DROP;");
    let out = replace_by_descendant(&ctx, &cfg, &out, &mut t);
    assert_eq!(text(&out), "INSERT (7), (7);");
}

#[test]
fn text_reduction_takes_a_shorter_text_with_more_choices() {
    // A JSON value's shortest text `0` reads more choices (number,
    // integer, digit, fraction, exponent) than `{}` (object, no members).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/json.json");
    let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
    let cfg = DecodeConfig::default();
    let ctx = TreeCtx::new(&g, Render::Text).with_lexical_atoms();
    let start = encoded(&g, b"[{},1]", &cfg);
    let key = |c: &[u8]| crate::generate::decode(&g, c, &cfg);
    let text = |c: &[u8]| String::from_utf8(key(c)).unwrap();
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| {
        t.starts_with(b"[") && t.ends_with(b",1]")
    }));
    // Choice-sequence reduction: shortlex progress only, `{}` stays.
    let mut t = Tester::new(&mut o);
    assert_eq!(text(&minimize_nodes(&ctx, &cfg, &start, &mut t)), "[{},1]");
    drop(t);
    let mut t = Tester::new(&mut o).with_cache_key(key).with_image_bound();
    t.seed(&start, Outcome::Interesting);
    assert_eq!(text(&minimize_nodes(&ctx, &cfg, &start, &mut t)), "[0,1]");
    drop(t);
    let mut t = Tester::new(&mut o).with_cache_key(key).with_image_bound();
    t.seed(&start, Outcome::Interesting);
    assert_eq!(
        text(&replace_by_descendant(&ctx, &cfg, &start, &mut t)),
        "[0,1]"
    );
}

#[test]
fn restructure_rebuilds_a_node_once_per_fill() {
    // Three statement kinds wrap an expression. Rebuilt around one fill,
    // a node would give `1;`, `x = 1;` and `x += 1;`: only the shortest
    // runs, so the run budget reaches the other nodes and fills.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<stmts>"],
            "<stmts>": ["<stmt>", "<stmt> <stmts>"],
            "<stmt>": ["<e>;", "x = <e>;", "x += <e>;", "if <e> { <stmts> }"],
            "<e>": ["<n>", "(<e>)", "<e> + <e>"],
            "<n>": ["1", "2", "3"]}"#,
        &Default::default(),
    )
    .unwrap();
    let text = b"if 1 + 2 { x = (3); x += 1; } 2;";
    let tree = crate::parse::parse(&g, text).unwrap();
    let (start, cfg) = crate::encode::encode_auto(&g, &tree, &DecodeConfig::default()).unwrap();
    let ctx = TreeCtx::new(&g, Render::Choices(cfg)).with_lexical_atoms();
    let mut seen: Vec<String> = Vec::new();
    let mut o = FnOracle::new(|c: &[u8]| {
        seen.push(String::from_utf8_lossy(&crate::generate::decode(&g, c, &cfg)).into_owned());
        Outcome::NotInteresting
    });
    let mut t = Tester::new(&mut o).with_image_bound();
    let _ = restructure(&ctx, &cfg, &start, &mut t);
    drop(t);
    // The whole list of rebuilds fits the run budget (32 here), the
    // block's inner list among them; with every wrapper of every fill,
    // the top list's variants (`1; 1;`, `1 + 1;`, `if 1 { 1; }`, …) took
    // all 32 runs.
    assert!(seen.len() < 32, "{seen:#?}");
    assert!(
        seen.iter().any(|s| s.starts_with("if 1 + 2 { ")),
        "{seen:#?}"
    );
}

/// `Some(<v>)` or a name: `Some` alone is a name, whose choices
/// (one per letter) come later than `Some(0)`'s.
fn option_grammar() -> Grammar {
    Grammar::from_json_str(
        r#"{"<start>": ["<v>"],
            "<v>": ["Some(<v>)", "0", "[<v>, <v>]", "<id>"],
            "<id>": ["<l>", "<l><id>"],
            "<l>": ["x", "S", "o", "m", "e"]}"#,
        &Default::default(),
    )
    .unwrap()
}

#[test]
fn deleting_text_runs_turns_a_call_into_the_name() {
    let g = option_grammar();
    let cfg = DecodeConfig::default();
    let text = |c: &[u8]| crate::generate::decode(&g, c, &cfg);
    let start = encoded(&g, b"[0, Some(0)]", &cfg);
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut o = FnOracle::new(|c: &[u8]| {
        let t = text(c);
        seen.push(t.clone());
        if t.windows(4).any(|w| w == b"Some") {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    });
    // Ordered by text, as a fuzz target's artifacts are.
    let mut t = Tester::new(&mut o).with_image(text).with_image_bound();
    t.seed(&start, Outcome::Interesting);
    let out = delete_text_runs(&g, &cfg, &start, &mut t);
    // `[0, ` and `]` go only together: two runs, no sentence alone.
    assert_eq!(text(&out), b"[0, Some]");
    assert!(
        !shortlex_lt(&out, &start),
        "a longer sequence, a shorter text"
    );
    drop(t);
    // Only sentences ran (`[0, Some(0)`, `Some(0)]`, `[0, Some(]`, … did
    // not), and `(0)` went as one run.
    assert_eq!(seen, [b"[0, Some]".to_vec()]);
    // Without the image bound, progress is a shortlex-smaller sequence:
    // `Some` (more choices) is not taken.
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.windows(4).any(|w| w == b"Some")));
    let mut t = Tester::new(&mut o);
    let rbd = replace_by_descendant(&TreeCtx::new(&g, Render::Text), &cfg, &start, &mut t);
    assert_eq!(text(&rbd), b"Some(0)");
    let out = delete_text_runs(&g, &cfg, &rbd, &mut t);
    assert_eq!(text(&out), b"Some(0)");
}

#[test]
fn a_choice_reduction_ends_with_the_text_runs() {
    let g = option_grammar();
    let cfg = DecodeConfig::default();
    let text = |c: &[u8]| crate::generate::decode(&g, c, &cfg);
    let start = encoded(&g, b"[Some(Some(0)), [0, x]]", &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.windows(4).any(|w| w == b"Some")));
    let mut t = Tester::new(&mut o).with_image(text).with_image_bound();
    let r = choice_stage(&g, &cfg, &start, &mut t);
    assert_eq!(text(&r.output), b"Some");
    assert!(r.passes.iter().any(|p| p.0 == "delete-text-runs"));
}

#[test]
fn a_choice_reduction_drops_blanks_no_polish_would() {
    // A fuzz target reads choices: `x\r\n` → `x\n` is another
    // alternative of the line, and no text polish follows to squeeze it
    // (the squeezed texts are equal, which once hid the switch).
    let g = Grammar::from_json_str(
        r#"{"<start>":["<line>"],"<line>":["\n","<p><i>\n","<p><i>\r\n"],"<p>":["",">"],"<i>":["x","y"]}"#,
        &Default::default(),
    )
    .unwrap();
    let cfg = DecodeConfig::default();
    let text = |c: &[u8]| crate::generate::decode(&g, c, &cfg);
    let start = encoded(&g, b"x\r\n", &cfg);
    let mut o = FnOracle::new(when_text(&g, &cfg, |t| t.contains(&b'x')));
    let mut t = Tester::new(&mut o).with_image(text).with_image_bound();
    let r = crate::reduce::reduce_choices(&g, &cfg, &start, crate::reduce::Strategy::Auto, &mut t)
        .unwrap();
    assert_eq!(text(&r.output), b"x\n");
}
