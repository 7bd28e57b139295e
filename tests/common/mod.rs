//! Test-only helpers: fuzzingbook's EXPR_GRAMMAR, a tiny LL parser for it
//! that builds our derivation trees (via their choice encoding), and the
//! reference predicates. Used until/alongside the Earley parser.
#![allow(dead_code)]

use grammar_min::choice::encode_choice;
use grammar_min::generate::{decode_tree, DecodeConfig};
use grammar_min::grammar::Grammar;
use grammar_min::oracle::Outcome;
use grammar_min::tree::Tree;

pub const EXPR_JSON: &str = include_str!("../../grammars/expr.json");
pub const ASSIGN_JSON: &str = include_str!("../../grammars/assign.json");

pub fn expr_grammar() -> Grammar {
    Grammar::from_json_str(EXPR_JSON, &Default::default()).unwrap()
}

/// fuzzingbook's MysteryRunner: FAIL iff `(` occurs before `)`.
pub fn mystery(c: &[u8]) -> Outcome {
    let a = c.iter().position(|&b| b == b'(');
    let b = c.iter().position(|&b| b == b')');
    match (a, b) {
        (Some(x), Some(y)) if x < y => Outcome::Interesting,
        _ => Outcome::NotInteresting,
    }
}

/// EvalMysteryRunner: UNRESOLVED (Invalid) unless `c` is an EXPR sentence.
pub fn eval_mystery(g: &Grammar, c: &[u8]) -> Outcome {
    if parse_expr(g, c).is_none() {
        Outcome::Invalid
    } else {
        mystery(c)
    }
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
    // (symbol name, alternative index in the grammar file), pre-order.
    deriv: Vec<(&'static str, usize)>,
}

impl P<'_> {
    fn eat(&mut self, t: &str) -> bool {
        if self.s[self.i..].starts_with(t.as_bytes()) {
            self.i += t.len();
            true
        } else {
            false
        }
    }
    fn slot(&mut self, sym: &'static str) -> usize {
        self.deriv.push((sym, usize::MAX));
        self.deriv.len() - 1
    }
    fn expr(&mut self) -> Option<()> {
        let k = self.slot("<expr>");
        self.term()?;
        let alt = if self.eat(" + ") {
            0
        } else if self.eat(" - ") {
            1
        } else {
            2
        };
        self.deriv[k].1 = alt;
        if alt < 2 {
            self.expr()?;
        }
        Some(())
    }
    fn term(&mut self) -> Option<()> {
        let k = self.slot("<term>");
        self.factor()?;
        let alt = if self.eat(" * ") {
            0
        } else if self.eat(" / ") {
            1
        } else {
            2
        };
        self.deriv[k].1 = alt;
        if alt < 2 {
            self.term()?;
        }
        Some(())
    }
    fn factor(&mut self) -> Option<()> {
        let k = self.slot("<factor>");
        if self.eat("+") {
            self.deriv[k].1 = 0;
            return self.factor();
        }
        if self.eat("-") {
            self.deriv[k].1 = 1;
            return self.factor();
        }
        if self.eat("(") {
            self.deriv[k].1 = 2;
            self.expr()?;
            return self.eat(")").then_some(());
        }
        self.integer()?;
        if self.eat(".") {
            self.deriv[k].1 = 3;
            self.integer()
        } else {
            self.deriv[k].1 = 4;
            Some(())
        }
    }
    fn integer(&mut self) -> Option<()> {
        let k = self.slot("<integer>");
        self.digit()?;
        if self.s.get(self.i).is_some_and(|b| b.is_ascii_digit()) {
            self.deriv[k].1 = 0;
            self.integer()
        } else {
            self.deriv[k].1 = 1;
            Some(())
        }
    }
    fn digit(&mut self) -> Option<()> {
        let d = *self.s.get(self.i)?;
        if !d.is_ascii_digit() {
            return None;
        }
        self.i += 1;
        self.deriv.push(("<digit>", (d - b'0') as usize));
        Some(())
    }
}

/// Parses an EXPR_GRAMMAR sentence into our tree (None if invalid).
pub fn parse_expr(g: &Grammar, text: &[u8]) -> Option<Tree> {
    let mut p = P {
        s: text,
        i: 0,
        deriv: vec![("<start>", 0)],
    };
    p.expr()?;
    if p.i != text.len() {
        return None;
    }
    let mut bytes = Vec::new();
    for (name, src) in p.deriv {
        let sym = g.symbol_by_name(name).unwrap();
        let rule = g
            .rules_of(sym)
            .find(|&r| g.rule(r).source_index as usize == src)
            .unwrap();
        encode_choice(g.alt_index(rule), g.num_alts(sym), &mut bytes);
    }
    let t = decode_tree(g, &bytes, &DecodeConfig::default());
    assert_eq!(t.unparse(g), text, "test parser and decoder disagree");
    Some(t)
}
