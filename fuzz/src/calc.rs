//! `calc`: a tiny language with three planted bugs, the quick-start example
//! of grammar-min (grammar: `grammars/calc.json`).
//!
//! ```text
//! def f(a, b) = a * b + 1;
//! let x = f(2, 3);
//! print x / (x - 7);
//! ```
//!
//! Programs are statements (`print e;`, `let v = e;`, `def f(p, ..) = e;`)
//! over 64-bit integers. Errors (syntax, undefined names, overflow, wrong
//! arity) are `Err`; the interpreter has limits on nesting, call depth and
//! work, so it never overflows the stack or hangs. The planted bugs are
//! panics, each with its own message and source line:
//!
//! 1. **shallow**: division or remainder by zero (`print 1/0;`).
//! 2. **deep**: an expression inside five nested parentheses
//!    (`print (((((1)))));`): easy to write, but nesting gives a byte fuzzer
//!    no new coverage on the way down.
//! 3. **semantic**: calling a function that was *defined earlier* with
//!    *matching arity* of two or more (`def f(a, b) = a; print f(1, 2);`).
//!
//! `CALC_BUGS` (e.g. `CALC_BUGS=2,3`) enables a subset of the bugs, so each
//! can be timed on its own (`CALC_BUGS=0` disarms all); all three are on
//! by default.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

const MAX_NESTING: u32 = 64;
const MAX_CALL_DEPTH: u32 = 16;
const FUEL: u64 = 100_000;

/// Which planted bugs are armed (`CALC_BUGS`, default all).
fn armed(bug: u8) -> bool {
    static ARMED: OnceLock<[bool; 4]> = OnceLock::new();
    ARMED.get_or_init(|| {
        let mut a = [false, true, true, true];
        if let Ok(list) = std::env::var("CALC_BUGS") {
            a = [false; 4];
            for part in list.split(',') {
                if let Ok(n @ 1..=3) = part.trim().parse::<usize>() {
                    a[n] = true;
                }
            }
        }
        a
    })[bug as usize]
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Ident(String),
    Sym(u8),
}

fn lex(src: &str) -> Result<Vec<Tok>, String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let n = src[s..i]
                .parse()
                .map_err(|_| format!("number too large at {s}"))?;
            out.push(Tok::Num(n));
        } else if c.is_ascii_alphabetic() {
            let s = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            out.push(Tok::Ident(src[s..i].to_string()));
        } else if b"+-*/%()=;,".contains(&c) {
            out.push(Tok::Sym(c));
            i += 1;
        } else {
            return Err(format!("unexpected byte {c:#x} at {i}"));
        }
    }
    Ok(out)
}

#[derive(Debug)]
enum Expr {
    Num(i64),
    Var(String),
    Neg(Box<Expr>),
    /// Parenthesised, with its nesting level (1 = outermost parentheses).
    Paren(Box<Expr>, u32),
    Bin(u8, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

#[derive(Debug)]
enum Stmt {
    Print(Expr),
    Let(String, Expr),
    Def(String, Vec<String>, Expr),
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    nesting: u32,
    parens: u32,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        match self.next() {
            Some(Tok::Sym(s)) if s == c => Ok(()),
            t => Err(format!("expected '{}', found {t:?}", c as char)),
        }
    }
    fn ident(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Tok::Ident(s)) => Ok(s),
            t => Err(format!("expected a name, found {t:?}")),
        }
    }

    fn program(&mut self) -> Result<Vec<Stmt>, String> {
        let mut out = Vec::new();
        while self.peek().is_some() {
            out.push(self.stmt()?);
        }
        Ok(out)
    }

    fn stmt(&mut self) -> Result<Stmt, String> {
        let kw = self.ident()?;
        let s = match kw.as_str() {
            "print" => Stmt::Print(self.expr()?),
            "let" => {
                let v = self.ident()?;
                self.expect(b'=')?;
                Stmt::Let(v, self.expr()?)
            }
            "def" => {
                let f = self.ident()?;
                self.expect(b'(')?;
                let mut ps = vec![self.ident()?];
                while self.peek() == Some(&Tok::Sym(b',')) {
                    self.pos += 1;
                    ps.push(self.ident()?);
                }
                self.expect(b')')?;
                self.expect(b'=')?;
                Stmt::Def(f, ps, self.expr()?)
            }
            other => return Err(format!("unknown statement {other:?}")),
        };
        self.expect(b';')?;
        Ok(s)
    }

    fn enter(&mut self) -> Result<(), String> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err("expression nested too deeply".into());
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.enter()?;
        let mut e = self.term()?;
        while let Some(Tok::Sym(op @ (b'+' | b'-'))) = self.peek().cloned() {
            self.pos += 1;
            e = Expr::Bin(op, Box::new(e), Box::new(self.term()?));
        }
        self.nesting -= 1;
        Ok(e)
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut e = self.factor()?;
        while let Some(Tok::Sym(op @ (b'*' | b'/' | b'%'))) = self.peek().cloned() {
            self.pos += 1;
            e = Expr::Bin(op, Box::new(e), Box::new(self.factor()?));
        }
        Ok(e)
    }

    fn factor(&mut self) -> Result<Expr, String> {
        match self.next() {
            Some(Tok::Num(n)) => Ok(Expr::Num(n)),
            Some(Tok::Sym(b'-')) => {
                self.enter()?;
                let e = Expr::Neg(Box::new(self.factor()?));
                self.nesting -= 1;
                Ok(e)
            }
            Some(Tok::Sym(b'(')) => {
                self.parens += 1;
                let e = self.expr()?;
                self.expect(b')')?;
                let level = self.parens;
                self.parens -= 1;
                Ok(Expr::Paren(Box::new(e), level))
            }
            Some(Tok::Ident(name)) => {
                if self.peek() != Some(&Tok::Sym(b'(')) {
                    return Ok(Expr::Var(name));
                }
                self.pos += 1;
                let mut args = vec![self.expr()?];
                while self.peek() == Some(&Tok::Sym(b',')) {
                    self.pos += 1;
                    args.push(self.expr()?);
                }
                self.expect(b')')?;
                Ok(Expr::Call(name, args))
            }
            t => Err(format!("expected an expression, found {t:?}")),
        }
    }
}

struct Machine {
    globals: HashMap<String, i64>,
    funcs: HashMap<String, Rc<(Vec<String>, Expr)>>,
    fuel: u64,
    output: Vec<i64>,
}

impl Machine {
    fn eval(&mut self, e: &Expr, locals: &HashMap<String, i64>, calls: u32) -> Result<i64, String> {
        self.fuel = self.fuel.checked_sub(1).ok_or("out of fuel")?;
        Ok(match e {
            Expr::Num(n) => *n,
            Expr::Var(v) => *locals
                .get(v)
                .or_else(|| self.globals.get(v))
                .ok_or_else(|| format!("undefined variable {v}"))?,
            Expr::Neg(e) => self
                .eval(e, locals, calls)?
                .checked_neg()
                .ok_or("overflow")?,
            Expr::Paren(e, level) => {
                if *level >= 5 && armed(2) {
                    panic!("calc bug 2: expression nested {level} parentheses deep");
                }
                self.eval(e, locals, calls)?
            }
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.eval(a, locals, calls)?, self.eval(b, locals, calls)?);
                let r = match op {
                    b'+' => a.checked_add(b),
                    b'-' => a.checked_sub(b),
                    b'*' => a.checked_mul(b),
                    _ if b == 0 => {
                        if armed(1) {
                            panic!("calc bug 1: division by zero in {a} {} 0", *op as char);
                        }
                        return Err("division by zero".into());
                    }
                    b'/' => a.checked_div(b),
                    _ => a.checked_rem(b),
                };
                r.ok_or("overflow")?
            }
            Expr::Call(f, args) => {
                if calls >= MAX_CALL_DEPTH {
                    return Err("calls nested too deeply".into());
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a, locals, calls)?);
                }
                let Some(def) = self.funcs.get(f) else {
                    return Err(format!("undefined function {f}"));
                };
                let def = Rc::clone(def);
                let (params, body) = &*def;
                if params.len() != vals.len() {
                    return Err(format!(
                        "{f} takes {} arguments, got {}",
                        params.len(),
                        vals.len()
                    ));
                }
                if params.len() >= 2 && armed(3) {
                    panic!(
                        "calc bug 3: call of the {}-parameter function {f}",
                        params.len()
                    );
                }
                let frame: HashMap<String, i64> = params.iter().cloned().zip(vals).collect();
                self.eval(body, &frame, calls + 1)?
            }
        })
    }
}

/// Runs a calc program; returns what it printed, or the first error.
pub fn run(src: &str) -> Result<Vec<i64>, String> {
    let toks = lex(src)?;
    let prog = Parser {
        toks,
        pos: 0,
        nesting: 0,
        parens: 0,
    }
    .program()?;
    let mut m = Machine {
        globals: HashMap::new(),
        funcs: HashMap::new(),
        fuel: FUEL,
        output: Vec::new(),
    };
    let none = HashMap::new();
    for s in prog {
        match s {
            Stmt::Print(e) => {
                let v = m.eval(&e, &none, 0)?;
                m.output.push(v);
            }
            Stmt::Let(v, e) => {
                let x = m.eval(&e, &none, 0)?;
                m.globals.insert(v, x);
            }
            Stmt::Def(f, ps, e) => {
                m.funcs.insert(f, Rc::new((ps, e)));
            }
        }
    }
    Ok(m.output)
}
