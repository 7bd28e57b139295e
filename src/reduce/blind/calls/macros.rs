//! The C preprocessor's function-like macros as functions: `#define
//! NAME(PARAMS) BODY` (the `(` right after the name; BODY to the line's
//! end, over `\`-continued lines), called as `NAME(ARGS)`. Inlined like a
//! function, with `__VA_ARGS__` taking the arguments a `...` parameter
//! stands for ([`bind`]).

use std::borrow::Cow;

use super::super::args::Pair;
use super::super::{line_end, line_start};
use super::{defs, Func};

/// The function-like macros of `text` (see the module docs).
pub(super) fn macro_defs(text: &[u8], named: &[(Vec<u8>, Vec<Pair>)]) -> Vec<Func> {
    defs(text, named, |p, (ns, ne)| {
        let ls = line_start(text, ns);
        let head = text[ls..ns].trim_ascii();
        let directive = head.strip_prefix(b"#")?.trim_ascii_start();
        if directive != b"define" || ne != p.0 {
            return None;
        }
        // The body runs over continued lines (a `\` before the line end).
        let mut le = line_end(text, p.1);
        while le < text.len() && text[..le].ends_with(b"\\") {
            le = line_end(text, le + 1);
        }
        Some(((ls, (le + 1).min(text.len())), (p.1 + 1, le)))
    })
}

/// Names and the values they are bound to, in order.
pub(super) type Bindings<'a, 'v> = (Vec<&'a [u8]>, Vec<Cow<'v, [u8]>>);

/// The names a body's parameters are replaced by and the values, from the
/// parameters as written (`params`) and a call's arguments: one for one
/// when the counts agree, and for a last parameter `...` (C's variadic
/// macro) `__VA_ARGS__` bound to the rest of the arguments joined by `, `
/// (none if fewer arguments than named parameters). `None` if they do
/// not fit.
pub(super) fn bind<'a, 'v>(
    params: &[&'a [u8]],
    args: &'v [Cow<'v, [u8]>],
) -> Option<Bindings<'a, 'v>> {
    let borrowed = |xs: &'v [Cow<'v, [u8]>]| {
        xs.iter()
            .map(|a| Cow::Borrowed(a.as_ref()))
            .collect::<Vec<_>>()
    };
    if params.last() == Some(&&b"..."[..]) {
        let named = params.len() - 1;
        if args.len() < named {
            return None;
        }
        let mut names = params[..named].to_vec();
        names.push(b"__VA_ARGS__");
        let mut values = borrowed(&args[..named]);
        values.push(Cow::Owned(args[named..].join(&b", "[..])));
        return Some((names, values));
    }
    (args.len() == params.len()).then(|| (params.to_vec(), borrowed(args)))
}
