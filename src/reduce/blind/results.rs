//! Declared results without a grammar: a function `f(…) -> T {… v}`
//! (Rust, Swift), `f(…): T {… return v;}` (TypeScript, Kotlin) whose
//! result is not what fails. Deleting the declared type alone leaves a
//! returned value of the wrong type, deleting the value alone leaves a
//! body that returns none, and a type checker that rejects either stops
//! before the check that failed (Rust's borrow checker runs only after
//! type checking): both go in one candidate.

use super::super::Tester;
use super::{outside_brackets, pairs};

/// The functions of `text` with a declared result: `(close, open, tail)`,
/// the `)` of the parameters, the body's `{` and the span of the body's
/// returned value (its last statement when that has no `;`, or the
/// expression of a final `return …;`; empty at the body's end if there
/// is none), for a brace block right after `) -> T` or `) : T` (no `;`,
/// `{`, `}` or `=` between; a lambda's `(a) -> {` has no `T`). In order
/// of the block.
///
/// ```
/// use grammar_min::reduce::blind::results::declared;
/// let t = b"fn f(a: u8) -> u8 { g(a); a } fn h() { }";
/// assert_eq!(declared(t), [(10, 18, (26, 27))]);
/// let t = b"function f(): number { return 1; }";
/// assert_eq!(declared(t), [(11, 21, (30, 31))]);
/// assert!(declared(b"f((a) -> { return a; })").is_empty());
/// ```
pub fn declared(text: &[u8]) -> Vec<(usize, usize, (usize, usize))> {
    let mut out = Vec::new();
    for (o, c) in pairs(text) {
        if text[o] != b'{' {
            continue;
        }
        // Back from the `{` to a `)`, through no `;`, `{`, `}` or `=`: the
        // scan stops within the header.
        let Some(close) = text[..o].iter().rposition(|&b| b");{}=".contains(&b)) else {
            continue;
        };
        let ty = text[close + 1..o].trim_ascii();
        // A type after the arrow: Java's lambda `(a) -> {` declares none.
        let arrow =
            (ty.starts_with(b"->") && ty.len() > 2) || (ty.starts_with(b":") && ty.len() > 1);
        if text[close] != b')' || !arrow {
            continue;
        }
        out.push((close, o, returned(text, o, c)));
    }
    out
}

/// The span of the value the body `open..=close` returns (see
/// [`declared`]).
fn returned(text: &[u8], open: usize, close: usize) -> (usize, usize) {
    let body = &text[open + 1..close];
    let semis: Vec<usize> = outside_brackets(body)
        .filter(|&(_, b)| b == b';')
        .map(|(i, _)| i)
        .collect();
    let last = semis.last().map_or(0, |&i| i + 1);
    let trim = |a: usize, b: usize| {
        let s = &body[a..b];
        let lead = s.len() - s.trim_ascii_start().len();
        (
            open + 1 + a + lead,
            open + 1 + a + lead + s.trim_ascii().len(),
        )
    };
    let tail = trim(last, body.len());
    if tail.0 < tail.1 {
        return tail;
    }
    // A final `return …;`: its expression.
    if let Some(&end) = semis.last() {
        let from = semis.iter().rev().nth(1).map_or(0, |&i| i + 1);
        let (s, e) = trim(from, end);
        let stmt = &text[s..e];
        if stmt.starts_with(b"return") && stmt.get(6).is_some_and(|b| !b.is_ascii_alphanumeric()) {
            return trim(s + 6 - open - 1, end);
        }
    }
    (close, close)
}

/// One candidate per function with a declared result (see
/// [`declared`]): the result type and the returned value deleted
/// together (`fn c(o: r) -> T { o; Ok(t) }` → `fn c(o: r) { o; }`).
/// After a success the functions are found again and the walk goes on
/// from the same index. `text` must be known interesting.
pub fn delete_results(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, declared, |cur, &(close, open, (a, b))| {
        vec![super::splice(&[&cur[..=close], &cur[open..a], &cur[b..]])]
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn a_result_goes_with_its_value() {
        // Interesting iff `o;` is there and the function declares a
        // result exactly when it returns one.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let typed = s.contains("->");
            let returns = s.contains("Ok(t)");
            s.contains("o;") && typed == returns
        };
        let input = b"fn c(o: r) -> R { o; Ok(t) }";
        let (out, runs) = run_pass(delete_results, input, p);
        assert_eq!(String::from_utf8_lossy(&out), "fn c(o: r){ o;  }");
        assert_eq!(runs, 1);
        let p = |c: &[u8]| !String::from_utf8_lossy(c).contains("return 1");
        let input = b"function f(): number { g(); return 1; }";
        let (out, _) = run_pass(delete_results, input, p);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "function f(){ g(); return ; }"
        );
    }
}
