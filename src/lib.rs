//! # grammar-min
//!
//! Grammar-based fuzzing and crash triage for `cargo fuzz`.
//!
//! * **Fuzz with a grammar**: a fuzz target reads libFuzzer's bytes as a
//!   *choice sequence* ([`choice`]); the decoder ([`generate`]) turns any
//!   byte string into a valid sentence of the grammar, so every execution
//!   reaches the program's logic.
//! * **Minimise crashes** and **bucket them by input pattern**: reducers on
//!   choice sequences and derivation trees behind an oracle that checks the
//!   crash stays the same, then DDSET generalisation.
//!
//! ## Pipeline
//!
//! ```text
//! grammar file ──load/validate──► Grammar (interned symbols, rule tables, costs)
//! libFuzzer bytes ──decode──► Tree ──unparse──► text ──oracle──► Outcome
//! ```
//!
//! ## Example
//!
//! ```
//! use grammar_min::grammar::Grammar;
//! use grammar_min::generate::{decode, DecodeConfig};
//!
//! let g = Grammar::from_json_str(
//!     r#"{"<start>": ["<expr>"],
//!         "<expr>": ["<digit>", "(<expr>)", "<expr>+<expr>"],
//!         "<digit>": ["0", "1", "2"]}"#,
//!     &Default::default(),
//! )?;
//! // Every byte string is a valid expression; the empty one is the simplest.
//! assert_eq!(decode(&g, b"", &DecodeConfig::default()), b"0");
//! let text = decode(&g, b"\xff\x80\x00\xff", &DecodeConfig::default());
//! assert!(!text.is_empty());
//! # Ok::<(), grammar_min::grammar::GrammarError>(())
//! ```
//!
//! ## Crate features
//!
//! * `libfuzzer`: `grammar_fuzz_target!` (libFuzzer entry points, custom
//!   mutator and crossover from [`mutate`]) for cargo-fuzz projects.
//! * `arbitrary` (implied by `libfuzzer`): `fuzz_input::GrammarInput`, a
//!   grammar sentence usable inside `#[derive(Arbitrary)]` types.
#![deny(missing_docs)]

pub mod bucket;
pub mod choice;
pub mod ddset;
pub mod encode;
#[cfg(feature = "libfuzzer")]
pub mod fuzz;
#[cfg(feature = "arbitrary")]
pub mod fuzz_input;
pub mod generate;
pub mod grammar;
pub mod known;
pub mod mutate;
pub mod oracle;
pub mod parse;
pub mod reduce;
pub mod tree;

#[cfg(feature = "libfuzzer")]
#[doc(hidden)]
pub use fuzz::__private;
