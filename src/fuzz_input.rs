//! Grammar-derived values for `arbitrary` (feature `arbitrary`).
//!
//! The principal types are [`GrammarSource`], a marker that supplies a
//! `&'static` [`Grammar`], and [`GrammarInput`], a sentence of that grammar
//! implementing [`arbitrary::Arbitrary`]. `Arbitrary` has no way to take a
//! grammar as a parameter, so the grammar travels in the type:
//! [`grammar_source!`](crate::grammar_source) declares a marker type whose
//! grammar is loaded once, on first use.
//!
//! ```
//! use arbitrary::{Arbitrary, Unstructured};
//! use grammar_min::fuzz_input::GrammarInput;
//!
//! grammar_min::grammar_source!(Digits = r#"{"<start>": ["<d>", "<d><start>"], "<d>": ["0", "1"]}"#);
//!
//! // Any `Arbitrary` composite works: tuples, or `#[derive(Arbitrary)]`
//! // structs with a `GrammarInput<Digits>` field.
//! let mut u = Unstructured::new(&[1, 255, 255, 0]);
//! let (flag, number) = <(bool, GrammarInput<Digits>)>::arbitrary_take_rest(u).unwrap();
//! assert!(flag);
//! assert_eq!(number.as_str(), Some("10"));
//! ```
//!
//! The value decodes the choice bytes `arbitrary` hands it: a length-prefixed
//! slice in [`Arbitrary::arbitrary`], everything left in
//! [`Arbitrary::arbitrary_take_rest`]. A grammar that fails to load ends the
//! process with its diagnostics printed
//! ([`load_grammar_or_exit`]); in a fuzz target that is the right moment to
//! fail, before any input runs.

use crate::generate::{decode, DecodeConfig};
use crate::grammar::{Grammar, LoadOptions};
use arbitrary::{Arbitrary, Unstructured};
use std::fmt;
use std::marker::PhantomData;

/// Supplies the grammar (and decoding budgets) of a [`GrammarInput`].
/// Implement it with [`grammar_source!`](crate::grammar_source).
pub trait GrammarSource: 'static {
    /// The grammar, loaded once.
    fn grammar() -> &'static Grammar;
    /// Decoding budgets; the default config unless overridden.
    fn config() -> DecodeConfig {
        DecodeConfig::default()
    }
}

/// A sentence of `G`'s grammar, decoded from fuzzer bytes; see the module
/// docs.
pub struct GrammarInput<G> {
    text: Vec<u8>,
    choices: Vec<u8>,
    _grammar: PhantomData<fn() -> G>,
}

impl<G: GrammarSource> GrammarInput<G> {
    /// Decodes `choices` with `G`'s grammar and config.
    pub fn from_choices(choices: &[u8]) -> GrammarInput<G> {
        GrammarInput {
            text: decode(G::grammar(), choices, &G::config()),
            choices: choices.to_vec(),
            _grammar: PhantomData,
        }
    }
}

impl<G> GrammarInput<G> {
    /// The sentence.
    pub fn as_bytes(&self) -> &[u8] {
        &self.text
    }

    /// The sentence, if it is UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.text).ok()
    }

    /// The choice bytes it was decoded from.
    pub fn choices(&self) -> &[u8] {
        &self.choices
    }
}

impl<G> Clone for GrammarInput<G> {
    fn clone(&self) -> Self {
        GrammarInput {
            text: self.text.clone(),
            choices: self.choices.clone(),
            _grammar: PhantomData,
        }
    }
}

impl<G> fmt::Debug for GrammarInput<G> {
    /// Shows the sentence, so `cargo fuzz fmt` prints readable inputs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.text))
    }
}

impl<'a, G: GrammarSource> Arbitrary<'a> for GrammarInput<G> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let choices = <&[u8]>::arbitrary(u)?;
        Ok(GrammarInput::from_choices(choices))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(GrammarInput::from_choices(u.take_rest()))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (0, None)
    }
}

/// Loads grammar JSON for a fuzz target; on failure prints every
/// diagnostic to stderr and exits with status 2.
///
/// A grammar error is a bug in the fuzz target's set-up, not an input that
/// crashes it: exiting (rather than panicking) keeps libFuzzer from
/// recording a bogus crash artifact and shows the diagnostics instead of a
/// backtrace.
pub fn load_grammar_or_exit(what: &str, src: &str) -> Grammar {
    match Grammar::from_json_str(src, &LoadOptions::default()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("grammar-min: cannot load the grammar of this fuzz target ({what}): {e}");
            eprintln!("grammar-min: fix the grammar file (check it with `cargo grammar-min check --grammar <file>`), then rebuild the target");
            std::process::exit(2)
        }
    }
}

/// Declares a [`GrammarSource`] marker type from grammar JSON text (usually
/// `include_str!` of a file), optionally with a `DecodeConfig`:
///
/// ```
/// grammar_min::grammar_source!(pub Expr = r#"{"<start>": ["1", "(<start>)"]}"#);
/// grammar_min::grammar_source!(Deep = r#"{"<start>": ["1", "(<start>)"]}"#,
///     config = grammar_min::generate::DecodeConfig { max_depth: 8, max_len: 64 });
/// use grammar_min::fuzz_input::GrammarSource;
/// assert_eq!(Expr::grammar().num_symbols(), 1);
/// assert_eq!(Deep::config().max_depth, 8);
/// ```
#[macro_export]
macro_rules! grammar_source {
    ($vis:vis $name:ident = $src:expr $(,)?) => {
        $crate::grammar_source!($vis $name = $src, config = $crate::generate::DecodeConfig::default());
    };
    ($vis:vis $name:ident = $src:expr, config = $cfg:expr $(,)?) => {
        /// Grammar marker type declared with `grammar_min::grammar_source!`.
        #[derive(Clone, Copy, Debug)]
        $vis struct $name;
        impl $crate::fuzz_input::GrammarSource for $name {
            fn grammar() -> &'static $crate::grammar::Grammar {
                static G: ::std::sync::OnceLock<$crate::grammar::Grammar> = ::std::sync::OnceLock::new();
                G.get_or_init(|| $crate::fuzz_input::load_grammar_or_exit(stringify!($name), $src))
            }
            fn config() -> $crate::generate::DecodeConfig {
                $cfg
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::grammar_source!(Ab = r#"{"<start>": ["a", "b<start>"]}"#);

    #[test]
    fn take_rest_decodes_all_remaining_bytes() {
        let v = GrammarInput::<Ab>::arbitrary_take_rest(Unstructured::new(&[255, 255, 0])).unwrap();
        assert_eq!(v.as_bytes(), b"bba");
        assert_eq!(v.choices(), &[255, 255, 0]);
        assert_eq!(format!("{v:?}"), "\"bba\"");
    }

    /// Runs in a child process (this test binary, filtered to this test)
    /// because the function under test ends the process.
    #[test]
    fn broken_grammar_exits_with_its_diagnostics() {
        if std::env::var_os("GRAMMAR_MIN_TEST_BROKEN_GRAMMAR").is_some() {
            load_grammar_or_exit("demo", r#"{"<start>": ["<missing>"]}"#);
            unreachable!("load_grammar_or_exit returned on a broken grammar");
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "fuzz_input::tests::broken_grammar_exits_with_its_diagnostics",
                "--nocapture",
            ])
            .env("GRAMMAR_MIN_TEST_BROKEN_GRAMMAR", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("cannot load the grammar of this fuzz target (demo)"),
            "{stderr}"
        );
        assert!(stderr.contains("<missing>"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }

    #[test]
    fn empty_unstructured_gives_simplest_sentence() {
        let v = GrammarInput::<Ab>::arbitrary(&mut Unstructured::new(&[])).unwrap();
        assert_eq!(v.as_str(), Some("a"));
    }
}
