//! The DDSET worked examples of the reference notes, with their Python
//! functions ported to Rust oracles.

use grammar_min::ddset::{
    generalize, precision, GeneralizeConfig, InstanceConfig, Variant, Verdict,
};
use grammar_min::grammar::{Grammar, LoadOptions};
use grammar_min::parse::parse;
use grammar_min::tree::Tree;

fn grammar(name: &str) -> Grammar {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("grammars/{name}.json"));
    Grammar::from_path(&p, &LoadOptions::default()).unwrap()
}

/// debuggingbook's `remove_html_markup` with its postcondition.
fn remove_html_markup(s: &str) -> Result<String, &'static str> {
    let (mut tag, mut quote) = (false, false);
    let mut out = String::new();
    for c in s.chars() {
        if c == '<' && !quote {
            tag = true;
        } else if c == '>' && !quote {
            tag = false;
        } else if c == '"' || (c == '\'' && tag) {
            quote = !quote;
        } else if !tag {
            out.push(c);
        }
    }
    if out.contains('<') || out.contains('>') {
        return Err("assertion failed: '<' not in out and '>' not in out");
    }
    Ok(out)
}

fn html_oracle(_: &Tree, s: &[u8]) -> Verdict {
    match remove_html_markup(&String::from_utf8_lossy(s)) {
        Err(_) => Verdict::Fail,
        Ok(_) => Verdict::Pass,
    }
}

/// `square_root(int(s))`: the precondition `x >= 0` fails for negatives.
fn square_root_oracle(_: &Tree, s: &[u8]) -> Verdict {
    match String::from_utf8_lossy(s).parse::<i128>() {
        Ok(x) if x < 0 => Verdict::Fail,
        Ok(_) => Verdict::Pass,
        Err(_) => Verdict::Invalid, // more digits than i128 holds
    }
}

/// debuggingbook's buggy `middle(x, y, z)`.
fn middle(x: i128, y: i128, z: i128) -> i128 {
    if y < z {
        if x < y {
            return y;
        } else if x < z {
            return y; // the bug: should be x
        }
    } else if x > y {
        return y;
    } else if x > z {
        return x;
    }
    z
}

fn middle_oracle(_: &Tree, s: &[u8]) -> Verdict {
    let s = String::from_utf8_lossy(s);
    let v: Result<Vec<i128>, _> = s.split(", ").map(str::parse::<i128>).collect();
    match v.as_deref() {
        Ok([x, y, z]) => {
            let mut sorted = [*x, *y, *z];
            sorted.sort();
            if middle(*x, *y, *z) == sorted[1] {
                Verdict::Pass
            } else {
                Verdict::Fail
            }
        }
        _ => Verdict::Invalid,
    }
}

fn double_paren(_: &Tree, s: &[u8]) -> Verdict {
    let s = String::from_utf8_lossy(s);
    match (s.find("(("), s.rfind("))")) {
        (Some(a), Some(b)) if a < b => Verdict::Fail,
        _ => Verdict::Pass,
    }
}

#[test]
fn html_quote_pattern_and_precision() {
    let g = grammar("html");
    let t = parse(&g, br#"<foo>"bar</foo>"#).unwrap();
    assert_eq!(html_oracle(&t, &t.unparse(&g)), Verdict::Fail);
    for variant in [Variant::Paper, Variant::Simple] {
        let cfg = GeneralizeConfig {
            variant,
            ..Default::default()
        };
        let r = generalize(&g, &t, &cfg, html_oracle);
        let p = r.pattern.render(&g);
        assert!(
            p == r#"<opening-tag>"<plain-text><closing-tag>"#
                || p == r#"<lt><id><gt>"<plain-text><closing-tag>"#,
            "{variant:?}: {p}"
        );
        let prec = precision(
            &g,
            &r.pattern,
            1000,
            99,
            &InstanceConfig::default(),
            html_oracle,
        );
        assert!(prec.ratio() >= 0.95, "{variant:?}: {p}: {prec:?}");
        eprintln!(
            "html {variant:?}: {p}  executions {}  precision {:.3}",
            r.executions,
            prec.ratio()
        );
    }
}

#[test]
fn square_root_negative_pattern() {
    let g = grammar("int");
    let t = parse(&g, b"-1").unwrap();
    let r = generalize(&g, &t, &GeneralizeConfig::default(), square_root_oracle);
    assert_eq!(r.pattern.render(&g), "-<positive-int>");
    // The pattern over-generalises exactly once: "-0" is not negative. Every
    // passing instance must be that one.
    let mut passing = std::collections::BTreeSet::new();
    let prec = precision(
        &g,
        &r.pattern,
        1000,
        5,
        &InstanceConfig::default(),
        |t, s| {
            let v = square_root_oracle(t, s);
            if v == Verdict::Pass {
                passing.insert(String::from_utf8_lossy(s).into_owned());
            }
            v
        },
    );
    assert!(prec.fail > 800, "{prec:?}");
    assert!(passing.iter().all(|s| s == "-0"), "{passing:?}");
    eprintln!(
        "int: -<positive-int> precision {:.3} (passing only \"-0\")",
        prec.ratio()
    );
}

#[test]
fn middle_has_no_syntactic_abstraction_of_x_and_y() {
    let g = grammar("xyz");
    let t = parse(&g, b"2, 1, 3").unwrap();
    let mut abstracted_z = 0;
    for seed in 0..20 {
        let cfg = GeneralizeConfig {
            seed,
            ..Default::default()
        };
        let p = generalize(&g, &t, &cfg, middle_oracle).pattern.render(&g);
        // x and y stay concrete; z is either concrete or "any positive int".
        assert!(
            p == "2, 1, 3" || p == "2, 1, <positive-int>",
            "seed {seed}: {p}"
        );
        abstracted_z += usize::from(p.ends_with("<positive-int>"));
    }
    eprintln!("middle: z abstracted in {abstracted_z}/20 seeds");
}

#[test]
fn double_parentheses_on_the_whole_input() {
    let g = grammar("expr");
    let t = parse(&g, b"1 + ((2 * 3 / 4))").unwrap();
    let cfg = GeneralizeConfig {
        variant: Variant::Simple,
        ..Default::default()
    };
    let r = generalize(&g, &t, &cfg, double_paren);
    // Without reduction first, the context around the parentheses abstracts too.
    assert_eq!(r.pattern.render(&g), "<term> + ((<expr>))");
}
