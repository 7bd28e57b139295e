//! Tests of the pipelines: parallel batches through the choices-as-text
//! oracle, and the stop flag.

mod batches {
    use super::super::*;
    use crate::oracle::Oracle;

    /// Interesting iff the text contains `0`; runs `jobs` at once and
    /// records the largest batch.
    struct Batched {
        jobs: usize,
        largest: usize,
    }

    impl Oracle for Batched {
        fn test(&mut self, c: &[u8]) -> Outcome {
            self.largest = self.largest.max(1);
            if c.contains(&b'0') {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        }
        fn parallelism(&self) -> usize {
            self.jobs
        }
        fn test_batch(&mut self, cs: &[&[u8]]) -> Vec<Outcome> {
            let outs = cs.iter().map(|c| self.test(c)).collect();
            self.largest = self.largest.max(cs.len());
            outs
        }
    }

    #[test]
    fn choice_passes_on_text_run_batches_through_the_text_tester() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json");
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let tree = parse_tree(&g, b"1 + 2 * (3 - 40)").unwrap();
        for jobs in [1, 2] {
            let mut o = Batched { jobs, largest: 0 };
            let mut t = Tester::new(&mut o);
            let out = via_choices(&g, &tree, &mut t, |_, _, start, inner| {
                assert_eq!(inner.parallelism(), jobs);
                // Two candidates, the first not interesting: both run.
                let (a, b) = (start[..2].to_vec(), start[..start.len() - 1].to_vec());
                inner
                    .first_interesting([((), a), ((), b)])
                    .map_or_else(|| start.to_vec(), |(_, c)| c)
            });
            drop(t);
            assert!(out.is_some());
            assert_eq!(o.largest, jobs);
        }
    }
}

mod stop {
    use super::super::*;
    use crate::oracle::FnOracle;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Ctrl-C (the stop flag set after `k` oracle runs) ends every
    /// strategy, on text and on choices, promptly and with an interesting
    /// result; run on a thread so a loop that ignores the flag fails the
    /// test instead of hanging it.
    #[test]
    fn every_strategy_returns_soon_after_the_stop_flag() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json");
            let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
            let cfg = DecodeConfig::default();
            let text = b"(1 + 2) * 3 / (4 - 5 * (6 + 7)) + 8 / 0 - 9 * (1 + 1)";
            let tree = parse_tree(&g, text).unwrap();
            let choices = crate::encode::encode(&g, &tree, &cfg).unwrap();
            let holds = |t: &[u8]| t.windows(3).any(|w| w == b"/ 0" || w == b"/0");
            for s in [
                Strategy::Auto,
                Strategy::Ddmin,
                Strategy::Choices,
                Strategy::Perses,
                Strategy::Hdd,
                Strategy::Grabr,
            ] {
                for k in [1u64, 3, 10, 30] {
                    for on_choices in [false, true] {
                        let flag = Arc::new(AtomicBool::new(false));
                        let f2 = flag.clone();
                        let mut runs = 0;
                        let mut o = FnOracle::new(|c: &[u8]| {
                            runs += 1;
                            if runs >= k {
                                f2.store(true, Ordering::SeqCst);
                            }
                            let t = if on_choices {
                                decode(&g, c, &cfg)
                            } else {
                                c.to_vec()
                            };
                            if holds(&t) {
                                Outcome::Interesting
                            } else {
                                Outcome::NotInteresting
                            }
                        });
                        let mut t = Tester::new(&mut o).with_stop(flag);
                        let (out, text_out) = if on_choices {
                            let r = reduce_choices(&g, &cfg, &choices, s, &mut t).unwrap();
                            let x = decode(&g, &r.output, &cfg);
                            (r.output, x)
                        } else {
                            let r = reduce_text(Some(&g), text, s, &mut t).unwrap();
                            (r.output.clone(), r.output)
                        };
                        assert!(holds(&text_out), "{s:?} k={k}: {out:?}");
                        // Runs after the flag: at most one batch in flight.
                        assert!(t.stats().tests <= k + 1, "{s:?} k={k}: {}", t.stats().tests);
                    }
                }
            }
            tx.send(()).unwrap();
        });
        rx.recv_timeout(std::time::Duration::from_secs(120))
            .expect("a strategy kept running after the stop flag");
    }
}

mod lexical {
    use super::super::*;
    use crate::oracle::FnOracle;

    /// Interesting iff the text holds a run of at least `n` digits (the
    /// shape of "a number too long to convert").
    fn long_number(t: &[u8], n: usize) -> Outcome {
        let mut run = 0;
        for &b in t {
            run = if b.is_ascii_digit() { run + 1 } else { 0 };
            if run >= n {
                return Outcome::Interesting;
            }
        }
        Outcome::NotInteresting
    }

    /// A number whose every digit is needed, inside JSON noise: text
    /// reduction tries each one-digit deletion once (the polish's sweep),
    /// not once per tree pass and again after every success elsewhere.
    #[test]
    fn a_needed_number_costs_one_run_per_digit() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/json.json");
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let digits = 120;
        let number: String = (0..digits)
            .map(|i| char::from(b'1' + (i % 9) as u8))
            .collect();
        let noise = |k: usize| -> String {
            (0..k)
                .map(|i| format!("{{\"k{i}\": [{i}, \"v{i}\", {{\"x\": {}}}]}}", i * 37))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let text = format!(
            "[{}, {{\"big\": [true, {number}, null]}}, {}]",
            noise(20),
            noise(20)
        );
        let mut o = FnOracle::new(|c: &[u8]| long_number(c, digits));
        let mut t = Tester::new(&mut o);
        let r = reduce_text(Some(&g), text.as_bytes(), Strategy::Auto, &mut t).unwrap();
        assert_eq!(r.output, number.as_bytes());
        let tests = t.stats().tests;
        // One sweep over the digits plus what removing the noise costs.
        assert!(
            tests < digits as u64 + 200,
            "{tests} runs for {digits} digits"
        );
    }
}

mod polish {
    use super::super::*;
    use crate::oracle::FnOracle;

    /// A byte deletion (`y`) that makes a token deletion (`zw`) possible:
    /// the polish repeats its token stage, so the result is 1-minimal for
    /// tokens as well as bytes.
    #[test]
    fn polish_is_token_minimal_after_byte_deletions() {
        let wanted: [&[u8]; 3] = [b"xy zw", b"x zw", b"x "];
        for keywords in [Some(&[][..]), None] {
            let mut o = FnOracle::new(|c: &[u8]| {
                if wanted.contains(&c) {
                    Outcome::Interesting
                } else {
                    Outcome::NotInteresting
                }
            });
            let mut t = Tester::new(&mut o);
            let r = polish(b"xy zw", keywords, &mut t);
            assert_eq!(r.output, b"x ", "keywords {keywords:?}");
        }
    }

    /// The monotonicity an anchor assumes need not hold: deleting `]`
    /// from `<<]` gives `<<`, a subsequence of the failing anchor `<<]>`
    /// (an XML lexer's 255 `<`, of which one counted only once the `]>`
    /// before it went). The polish runs such deletions, so its result is
    /// 1-minimal by the oracle's answers.
    #[test]
    fn polish_runs_the_deletions_an_anchor_presumed() {
        for keywords in [Some(&[][..]), None] {
            let mut o = FnOracle::new(|c: &[u8]| {
                if c == b"<<]" || c == b"<<" {
                    Outcome::Interesting
                } else {
                    Outcome::NotInteresting
                }
            });
            let mut t = Tester::new(&mut o);
            t.seed(b"<<]", Outcome::Interesting);
            t.anchor(b"<<]>");
            let r = polish(b"<<]", keywords, &mut t);
            assert_eq!(r.output, b"<<", "keywords {keywords:?}");
        }
    }
}

mod numbers_in_the_grammar {
    use super::super::*;
    use crate::oracle::FnOracle;

    /// A boundary value written into the grammar (`-0262144`) is a number,
    /// not a keyword: the polish deletes its leading zero, as the
    /// program reads the same year without it.
    #[test]
    fn a_grammar_number_loses_digits() {
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<y>-1-1"], "<y>": ["-0262144", "7"]}"#,
            &Default::default(),
        )
        .unwrap();
        let mut o = FnOracle::new(|c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let year = s.strip_suffix("-1-1").and_then(|y| y.parse::<i64>().ok());
            if year == Some(-262144) {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let r = reduce_text(Some(&g), b"-0262144-1-1", Strategy::Auto, &mut t).unwrap();
        assert_eq!(r.output, b"-262144-1-1");
    }
}

mod squeeze_first {
    use super::super::*;
    use crate::oracle::FnOracle;
    use crate::reduce::choices::tests::sentence_when;

    /// A pretty-printed input whose content must all stay: the blanks go
    /// in one run before the tree passes, not one whitespace node per run.
    #[test]
    fn blanks_go_in_one_run_when_the_grammar_allows() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/json.json");
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let items: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
        let text = format!("[ {} ]", items.join(" ,\n  "));
        let want = format!("[{}]", items.join(","));
        let mut o = FnOracle::new(|c: &[u8]| {
            let solid: Vec<u8> = c
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            if solid == want.as_bytes() {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let r = reduce_text(Some(&g), text.as_bytes(), Strategy::Auto, &mut t).unwrap();
        assert_eq!(String::from_utf8_lossy(&r.output), want);
        assert_eq!(r.passes[0].0, "squeeze-blanks");
        // Every part is needed, so every pass runs out of candidates:
        // 2,339 runs when the lines went one per run and restructure and
        // Perses had no budget, 815 with budgets, 491 now that Perses
        // runs only where the choice passes cannot (about six per token).
        assert!(t.stats().tests < 600, "{} runs", t.stats().tests);
    }

    #[test]
    fn lowering_waits_for_the_shorter_texts() {
        // sqlite's "ambiguous column name: a": an unqualified `a` (selected
        // or in the constraint) over both tables. Lowering the selected
        // `a` to `*` (as long) first makes `ON a` needed, and the comma
        // join out of reach.
        let g = Grammar::from_json_str(
            crate::reduce::choices::tests::JOIN_GRAMMAR,
            &Default::default(),
        )
        .unwrap();
        let mut o = FnOracle::new(sentence_when(&g, |s| {
            let a = s.starts_with("SELECT a ") || s.ends_with("ON a");
            a && s.contains('u') && s.contains('v')
        }));
        let mut t = Tester::new(&mut o);
        let r = reduce_text(
            Some(&g),
            b"SELECT a FROM u JOIN v ON a",
            Strategy::Auto,
            &mut t,
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&r.output), "SELECT a FROM u, v");
    }

    #[test]
    fn a_keyword_lowers_to_its_first_alternative_when_that_frees_text() {
        // A trigger raises when a statement of its event runs (sqlite's
        // `CREATE TRIGGER d UPDATE ON y … RAISE`): an insert makes a row,
        // which `RUN PROCEDURE p` updates. The `UPDATE` event needs both;
        // lowered to `INSERT` (as long), the insert is enough. The event
        // is a lexical atom, which the tree passes leave whole, and the
        // polish never swaps a keyword for another of its length.
        let g = Grammar::from_json_str(
            r#"{"<start>": ["ON <event> DO <action>;<stmts>"],
                "<event>": ["INSERT", "UPDATE", "DELETE"],
                "<action>": ["STOP", "RAISE"],
                "<stmts>": ["<stmt>", "<stmt><stmts>"],
                "<stmt>": [" SELECT t;", " INSERT t;", " RUN PROCEDURE p;"]}"#,
            &Default::default(),
        )
        .unwrap();
        let mut o = FnOracle::new(sentence_when(&g, |s| {
            let row = s.contains(" INSERT t;");
            (s.starts_with("ON INSERT DO RAISE;") && row)
                || (s.starts_with("ON UPDATE DO RAISE;") && row && s.contains(" RUN PROCEDURE p;"))
        }));
        let mut t = Tester::new(&mut o);
        let input = b"ON UPDATE DO RAISE; SELECT t; INSERT t; SELECT t; RUN PROCEDURE p; SELECT t;";
        let r = reduce_text(Some(&g), input, Strategy::Auto, &mut t).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&r.output),
            "ON INSERT DO RAISE; INSERT t;"
        );
    }

    #[test]
    fn columns_go_from_a_table_and_its_rows_at_once() {
        // An insert needs as many values as its table has columns, and
        // the failure needs 2 in column c: no single node's deletion keeps
        // the lengths equal, one element per list at once does. (Rebuilding
        // the statement around one needed element, with the other list
        // minimal, fails.)
        let g = Grammar::from_json_str(
            r#"{"<start>": ["CREATE TABLE t(<names>); INSERT INTO t VALUES(<values>);"],
                "<names>": ["<name>", "<name>,<names>"],
                "<name>": ["a", "b", "c"],
                "<values>": ["<value>", "<value>,<values>"],
                "<value>": ["0", "1", "2"]}"#,
            &Default::default(),
        )
        .unwrap();
        let mut o = FnOracle::new(sentence_when(&g, |s| {
            let list = |from: &str| -> Vec<String> {
                let inner = s
                    .split(from)
                    .nth(1)
                    .unwrap_or("")
                    .split(')')
                    .next()
                    .unwrap();
                inner.split(',').map(String::from).collect()
            };
            let (names, values) = (list("t("), list("VALUES("));
            let c_is_2 = names.iter().zip(&values).any(|(n, v)| n == "c" && v == "2");
            names.len() == values.len() && c_is_2
        }));
        let mut t = Tester::new(&mut o);
        let input = b"CREATE TABLE t(a,c,b); INSERT INTO t VALUES(1,2,0);";
        let r = reduce_text(Some(&g), input, Strategy::Auto, &mut t).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&r.output),
            "CREATE TABLE t(c); INSERT INTO t VALUES(2);"
        );
    }

    #[test]
    fn a_wrapper_function_is_inlined_into_its_call() {
        // `wrapper` calls `boomer(7)`, which fails for 7 only; the top
        // level holds calls only. No subtree edit removes the wrapper: its
        // definition and its call must go at once, and the call must
        // become its body (a call of `boomer` built from scratch gets the
        // shortest argument, 1). The grammar-blind passes after the
        // grammar passes inline it.
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<items>"], "<items>": ["<item>", "<item>;<items>"],
                "<item>": ["def <name>(<v>){<stmts>}", "<name>(<num>)"],
                "<stmts>": ["<stmt>", "<stmt>;<stmts>"],
                "<stmt>": ["<name>(<val>)", "die<v>", "x"],
                "<val>": ["<num>", "<v>"], "<v>": ["p", "q"], "<num>": ["1", "7"],
                "<name>": ["<l>", "<l><name>"],
                "<l>": ["a", "b", "e", "m", "o", "p", "r", "w"]}"#,
            &Default::default(),
        )
        .unwrap();
        // Runs the program: true iff a call reaches `die` of a 7.
        fn crashes(s: &str) -> bool {
            let items: Vec<&str> = {
                let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
                for (i, c) in s.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ';' if depth == 0 => {
                            out.push(&s[start..i]);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                out.push(&s[start..]);
                out
            };
            // name -> (parameter, body statements)
            let mut defs = std::collections::HashMap::new();
            let mut todo = Vec::new();
            for item in items {
                let (head, rest) = item.split_once('(').unwrap();
                let (arg, body) = rest.split_once(')').unwrap();
                match head.strip_prefix("def ") {
                    Some(name) => {
                        let body = body.strip_prefix('{').unwrap().strip_suffix('}').unwrap();
                        defs.insert(name.to_string(), (arg.to_string(), body.to_string()));
                    }
                    None => todo.push((head.to_string(), arg.to_string(), 0u32)),
                }
            }
            // Explicit stack of calls (function, argument value, depth).
            todo.reverse();
            while let Some((f, value, depth)) = todo.pop() {
                let Some((param, body)) = defs.get(&f) else {
                    return false;
                };
                let eval = |v: &str| {
                    if v == param {
                        value.clone()
                    } else {
                        v.to_string()
                    }
                };
                for st in body.split(';').rev() {
                    if let Some(v) = st.strip_prefix("die") {
                        if eval(v) == "7" {
                            return true;
                        }
                    } else if let Some((callee, arg)) = st.split_once('(') {
                        if depth < 8 {
                            todo.push((callee.into(), eval(arg.trim_end_matches(')')), depth + 1));
                        }
                    }
                }
            }
            false
        }
        let mut o = FnOracle::new(sentence_when(&g, crashes));
        let mut t = Tester::new(&mut o);
        let input = b"def boomer(p){x;diep};def wrapper(q){x;boomer(7);x};wrapper(1)";
        assert!(crashes(std::str::from_utf8(input).unwrap()));
        let r = reduce_text(Some(&g), input, Strategy::Auto, &mut t).unwrap();
        let out = String::from_utf8_lossy(&r.output).into_owned();
        assert!(crashes(&out), "{out}");
        assert_eq!(
            out.matches("def ").count(),
            1,
            "the wrapper is still there: {out}"
        );
        assert!(out.len() <= "def b(p){diep};b(7)".len(), "{out}");
    }

    #[test]
    fn text_reports_each_choice_pass_in_text_bytes_and_real_runs() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json");
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let mut o = FnOracle::new(|c: &[u8]| {
            if c.windows(3).any(|w| w == b"/ 0") || c.windows(2).any(|w| w == b"/0") {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let input = b"1 + 2 * (3 / 0) - 4 * (5 + 6)";
        let r = reduce_text(Some(&g), input, Strategy::Auto, &mut t).unwrap();
        let names: Vec<&str> = r.passes.iter().map(|p| p.0).collect();
        // The choice passes by name, then the phase, then the polish.
        let phase = names.iter().position(|&n| n == "choices").unwrap();
        assert!(
            names[..phase].contains(&"replace-by-descendant"),
            "{names:?}"
        );
        assert!(names[phase..].contains(&"ddmin-tokens"), "{names:?}");
        // Sizes in text bytes (never above the input), runs as the text
        // tester counts them: never decreasing, ending at its total.
        assert!(r.passes.iter().all(|p| p.1 <= input.len()));
        assert!(r.passes.windows(2).all(|w| w[0].2 <= w[1].2));
        assert_eq!(r.passes.last().unwrap().2, t.stats().tests);
        assert_eq!(r.passes[phase].1, r.passes[phase - 1].1);
    }
}

mod out_of_language;

/// Interesting iff `yes`: the oracle of a test's predicate.
pub(crate) fn outcome(yes: bool) -> crate::oracle::Outcome {
    if yes {
        crate::oracle::Outcome::Interesting
    } else {
        crate::oracle::Outcome::NotInteresting
    }
}
