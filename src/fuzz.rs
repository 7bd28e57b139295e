//! libFuzzer glue (feature `libfuzzer`): [`grammar_fuzz_target!`](crate::grammar_fuzz_target).
//!
//! One macro turns a closure over sentences of a grammar into a complete
//! cargo-fuzz target:
//!
//! ```ignore
//! #![no_main]
//! grammar_min::grammar_fuzz_target!(
//!     grammar = include_str!("../../grammars/calc.json"),
//!     |input: &str| {
//!         let _ = my_crate::eval(input);
//!     }
//! );
//! ```
//!
//! It expands to
//!
//! * libFuzzer's entry points (what `libfuzzer_sys::fuzz_target!` would
//!   define): each run decodes libFuzzer's bytes as a choice sequence
//!   ([`crate::generate::decode`]) and calls the closure on the sentence.
//!   The closure takes `&[u8]` or `&str` (with `&str`, a sentence that is
//!   not UTF-8 — only possible if the grammar has non-UTF-8 terminals — is
//!   skipped);
//! * an init hook that loads the grammar once (a broken grammar prints its
//!   diagnostics and exits with status 2 before fuzzing starts) and then
//!   calls [`crate::oracle::persistent::serve_if_requested`], so the same
//!   binary serves the reducer's persistent oracle;
//! * `fuzz_mutator!` and `fuzz_crossover!` backed by
//!   [`crate::mutate::Mutator`]. libFuzzer then picks
//!   the custom mutator or the custom crossover, half and half, for each
//!   mutation; the mutator itself hands a quarter of its calls to
//!   `libfuzzer_sys::fuzzer_mutate` (libFuzzer's byte mutations). The init
//!   hook adds `-len_control=100` to libFuzzer's flags unless given:
//!   libFuzzer switches its length control off when a custom mutator
//!   exists, and unchecked grammar mutants grow to `-max_len` quickly and
//!   slow every execution down (`-len_control=0` restores libFuzzer's
//!   behaviour).
//!
//! `GRAMMAR_MIN_MUTATOR` tunes the mutator at run time, e.g.
//! `GRAMMAR_MIN_MUTATOR=regenerate=25,simplify=5,recursive=10,splice=15,bytes=45,graft=100`
//! (the defaults): operator weights ([`crate::mutate::Weights`]) and the
//! percentage of custom-crossover calls that graft a subtree (the others
//! apply one libFuzzer byte mutation to the first parent). Keys left out
//! keep their defaults; a malformed value stops the fuzzer with exit
//! status 2.
//!
//! Options, in this order, before the closure:
//!
//! * `config = DecodeConfig { .. }`: decoding budgets (default
//!   [`DecodeConfig::default`](crate::generate::DecodeConfig)); `reduce`,
//!   `generalize` and `bucket` ask the target for them
//!   ([`crate::oracle::describe`]), so they decode its artifacts exactly
//!   as it does;
//! * `custom_mutator = false`: keep libFuzzer's own byte mutations only
//!   (for comparisons; the decoding is the same).
//!
//! `GRAMMAR_MIN_SKIP=FILE` (or the directory `bucket` wrote) makes the
//! target treat the panics listed there as passing inputs, so fuzzing goes
//! on past bugs already bucketed ([`crate::known`]).
//!
//! The fuzz project must depend on `grammar-min` with feature `libfuzzer`;
//! it needs no direct `libfuzzer-sys` dependency.
//!
//! `cargo fuzz fmt` prints the decoded sentence of an input.

/// Re-exports for the macro expansion; not a public API.
#[doc(hidden)]
pub mod __private {
    use crate::generate::DecodeConfig;
    use crate::grammar::Grammar;
    use crate::mutate::Mutator;
    use std::cell::Cell;
    use std::ffi::{c_char, c_int, CStr};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, OnceLock};

    pub use crate::fuzz_input::load_grammar_or_exit;
    pub use libfuzzer_sys;

    /// The mutator of one fuzz target (its splice pool lives here).
    pub type MutatorCell = OnceLock<Mutex<Mutator<'static>>>;

    /// Operator weights and the crossover's graft share, from
    /// `GRAMMAR_MIN_MUTATOR` (see the module docs); read once.
    fn tuning() -> &'static (crate::mutate::Weights, u32) {
        static T: OnceLock<(crate::mutate::Weights, u32)> = OnceLock::new();
        T.get_or_init(|| match std::env::var("GRAMMAR_MIN_MUTATOR") {
            Ok(spec) => crate::mutate::parse_tuning(&spec).unwrap_or_else(|e| {
                eprintln!("grammar-min: GRAMMAR_MIN_MUTATOR: {e}");
                std::process::exit(2)
            }),
            Err(_) => (crate::mutate::Weights::default(), 100),
        })
    }

    /// The custom mutator's body.
    pub fn mutate(
        cell: &'static MutatorCell,
        g: &'static Grammar,
        cfg: DecodeConfig,
        data: &mut [u8],
        size: usize,
        max_size: usize,
        seed: u32,
    ) -> usize {
        let m = cell.get_or_init(|| Mutex::new(Mutator::new(g, cfg).with_weights(tuning().0)));
        // A panic inside a mutation would abort libFuzzer anyway; a
        // poisoned lock is still usable.
        let mut m = m.lock().unwrap_or_else(|e| e.into_inner());
        m.mutate_in_place(data, size, max_size, seed, &mut |d, s, mx| {
            libfuzzer_sys::fuzzer_mutate(d, s, mx)
        })
    }

    /// Puts `-len_control=100` (libFuzzer's default) back on libFuzzer's
    /// command line unless the user gave `-len_control`: libFuzzer turns
    /// length control off when a custom mutator exists, and grammar
    /// mutants then grow to `-max_len` within seconds, which makes every
    /// execution slower. libFuzzer documents that `LLVMFuzzerInitialize`
    /// may change `argc`/`argv`; flags are parsed after it returns.
    ///
    /// # Safety
    /// `argc` and `argv` must be the pointers libFuzzer passed to
    /// `LLVMFuzzerInitialize` (`int *argc`, `char ***argv`).
    pub unsafe fn restore_len_control(argc: *const isize, argv: *const *const *const u8) {
        let argc = argc as *mut c_int;
        let argv = argv as *mut *const *const c_char;
        if argc.is_null() || argv.is_null() || (*argv).is_null() {
            return;
        }
        let n = (*argc).max(0) as usize;
        let mut args: Vec<*const c_char> = (0..n).map(|i| *(*argv).add(i)).collect();
        let given = args
            .iter()
            .any(|&a| !a.is_null() && CStr::from_ptr(a).to_bytes().starts_with(b"-len_control="));
        if given {
            return;
        }
        args.push(c"-len_control=100".as_ptr());
        args.push(std::ptr::null());
        // libFuzzer keeps using argv for the whole run: kept in a static
        // (not leaked, which LeakSanitizer reports at exit when libFuzzer
        // no longer holds the pointer, e.g. under `cargo fuzz tmin`).
        let kept = NEW_ARGV.get_or_init(|| Argv(args.into_boxed_slice()));
        *argv = kept.0.as_ptr();
        *argc = (kept.0.len() - 1) as c_int;
    }

    /// The argument vector [`restore_len_control`] gives libFuzzer.
    struct Argv(Box<[*const c_char]>);
    // SAFETY: written once before libFuzzer starts, then only read; the
    // pointers are to argv strings and a static literal, which live for
    // the whole run.
    unsafe impl Send for Argv {}
    unsafe impl Sync for Argv {}
    static NEW_ARGV: std::sync::OnceLock<Argv> = std::sync::OnceLock::new();

    /// The custom crossover's body. libFuzzer picks it as often as the
    /// custom mutator; it needs no pool and takes no lock.
    pub fn crossover(
        g: &'static Grammar,
        cfg: DecodeConfig,
        a: &[u8],
        b: &[u8],
        out: &mut [u8],
        seed: u32,
    ) -> usize {
        if seed % 100 >= tuning().1 {
            // Not a graft this time: a libFuzzer byte mutation of `a`.
            let n = a.len().min(out.len());
            out[..n].copy_from_slice(&a[..n]);
            return libfuzzer_sys::fuzzer_mutate(out, n, out.len());
        }
        Mutator::new(g, cfg).crossover_into(a, b, out, seed)
    }

    /// Set once known-crash skipping is on (see [`install_skip`]).
    static SKIP_ON: AtomicBool = AtomicBool::new(false);

    thread_local! {
        /// The panic being unwound is a known one.
        static SKIPPING: Cell<bool> = const { Cell::new(false) };
    }

    /// Turns on known-crash skipping if [`crate::known::ENV_VAR`] is set
    /// (a bad file stops the fuzzer with exit status 2 and says why):
    /// a panic hook in front of libFuzzer's lets a listed panic unwind
    /// without aborting, so [`run_skipping`] can swallow it; every other
    /// panic reaches libFuzzer's hook as before. Each listed crash is
    /// announced on stderr the first time it is skipped.
    pub fn install_skip() {
        use crate::known::{KnownCrashes, ENV_VAR};
        let Some(path) = std::env::var_os(ENV_VAR) else {
            return;
        };
        let known = KnownCrashes::load(std::path::Path::new(&path)).unwrap_or_else(|e| {
            eprintln!("grammar-min: {ENV_VAR}: {e}");
            std::process::exit(2)
        });
        eprintln!(
            "grammar-min: {ENV_VAR}: skipping {} known panic(s) listed in {}",
            known.entries.len(),
            std::path::Path::new(&path).display()
        );
        let announced = Mutex::new(vec![false; known.entries.len()]);
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let p = crate::oracle::CaughtPanic::of(info);
            match known.find(&p.location, &p.message) {
                Some(i) => {
                    SKIPPING.with(|s| s.set(true));
                    let mut seen = announced.lock().unwrap_or_else(|e| e.into_inner());
                    if !std::mem::replace(&mut seen[i], true) {
                        eprintln!("{}", known.entries[i].skipped_note(&p.location));
                    }
                }
                None => prev(info),
            }
        }));
        SKIP_ON.store(true, Ordering::Relaxed);
    }

    /// Runs one input; with skipping on, a known panic ends it as if it
    /// had returned. Any other panic unwinds on (libFuzzer's hook has
    /// already aborted by then).
    pub fn run_skipping(run: impl FnOnce()) {
        if !SKIP_ON.load(Ordering::Relaxed) {
            return run();
        }
        SKIPPING.with(|s| s.set(false));
        if let Err(payload) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
            if !SKIPPING.with(|s| s.get()) {
                std::panic::resume_unwind(payload);
            }
        }
    }

    /// Writes the decoded sentence for `cargo fuzz fmt`, which sets
    /// `RUST_LIBFUZZER_DEBUG_PATH`. Returns whether it did (then the input
    /// must not run).
    pub fn debug_output(text: &[u8]) -> bool {
        let Some(path) = libfuzzer_sys::rust_libfuzzer_debug_path() else {
            return false;
        };
        let shown = format!("{:?}\n", String::from_utf8_lossy(text));
        if let Err(e) = std::fs::write(path, shown) {
            eprintln!("grammar-min: cannot write the input's debug form to {path}: {e}");
        }
        true
    }
}

/// Defines a grammar-based cargo-fuzz target; see the [module
/// docs](crate::fuzz).
///
/// ```ignore
/// grammar_min::grammar_fuzz_target!(
///     grammar = include_str!("../../grammars/expr.json"),
///     config = grammar_min::generate::DecodeConfig { max_depth: 64, max_len: 4096 },
///     |text: &[u8]| { let _ = text; }
/// );
/// ```
#[macro_export]
macro_rules! grammar_fuzz_target {
    (grammar = $src:expr, $($rest:tt)*) => {
        $crate::grammar_fuzz_target!(@opts [$src] [$crate::generate::DecodeConfig::default()] [true] $($rest)*);
    };
    (@opts [$src:expr] [$cfg:expr] [$m:tt] config = $new:expr, $($rest:tt)*) => {
        $crate::grammar_fuzz_target!(@opts [$src] [$new] [$m] $($rest)*);
    };
    (@opts [$src:expr] [$cfg:expr] [$m:tt] custom_mutator = $new:tt, $($rest:tt)*) => {
        $crate::grammar_fuzz_target!(@opts [$src] [$cfg] [$new] $($rest)*);
    };
    (@opts [$src:expr] [$cfg:expr] [$m:tt] |$x:ident : &str| $body:expr $(,)?) => {
        $crate::grammar_fuzz_target!(@emit [$src] [$cfg] [$m] |__grammar_min_text: &[u8]| {
            if let ::std::result::Result::Ok($x) = ::std::str::from_utf8(__grammar_min_text) {
                $body
            }
        });
    };
    (@opts [$src:expr] [$cfg:expr] [$m:tt] |$x:ident : &[u8]| $body:expr $(,)?) => {
        $crate::grammar_fuzz_target!(@emit [$src] [$cfg] [$m] |$x: &[u8]| $body);
    };
    (@emit [$src:expr] [$cfg:expr] [$m:tt] |$x:ident : &[u8]| $body:expr) => {
        const _: () = {
            fn __grammar() -> &'static $crate::grammar::Grammar {
                static G: ::std::sync::OnceLock<$crate::grammar::Grammar> = ::std::sync::OnceLock::new();
                G.get_or_init(|| $crate::__private::load_grammar_or_exit(file!(), $src))
            }
            fn __config() -> $crate::generate::DecodeConfig {
                $cfg
            }
            #[inline(never)]
            fn __grammar_min_run($x: &[u8]) {
                $body;
            }
            fn __decode_and_run(bytes: &[u8]) {
                let text = $crate::generate::decode(__grammar(), bytes, &__config());
                __grammar_min_run(&text);
            }

            /// libFuzzer's init hook.
            #[no_mangle]
            pub extern "C" fn LLVMFuzzerInitialize(argc: *const isize, argv: *const *const *const u8) -> isize {
                $crate::__private::libfuzzer_sys::initialize(argc, argv);
                $crate::grammar_fuzz_target!(@len_control [$m] argc argv);
                let _ = __grammar();
                $crate::oracle::describe::describe_if_requested(&__config(), Some($src));
                $crate::oracle::persistent::serve_if_requested(__decode_and_run);
                $crate::__private::install_skip();
                0
            }

            /// Runs one input (called by libfuzzer-sys, which turns a panic
            /// into an abort).
            #[no_mangle]
            pub extern "C" fn rust_fuzzer_test_input(bytes: &[u8]) -> i32 {
                let text = $crate::generate::decode(__grammar(), bytes, &__config());
                if $crate::__private::debug_output(&text) {
                    return 0;
                }
                $crate::__private::run_skipping(|| __grammar_min_run(&text));
                0
            }

            $crate::grammar_fuzz_target!(@mutator [$m] __grammar __config);
        };
    };
    (@len_control [false] $argc:ident $argv:ident) => {};
    (@len_control [true] $argc:ident $argv:ident) => {
        // SAFETY: the pointers libFuzzer passed to LLVMFuzzerInitialize.
        unsafe { $crate::__private::restore_len_control($argc, $argv) };
    };
    (@mutator [false] $g:ident $c:ident) => {};
    (@mutator [true] $g:ident $c:ident) => {
        static __MUTATOR: $crate::__private::MutatorCell = ::std::sync::OnceLock::new();
        $crate::__private::libfuzzer_sys::fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
            $crate::__private::mutate(&__MUTATOR, $g(), $c(), data, size, max_size, seed)
        });
        $crate::__private::libfuzzer_sys::fuzz_crossover!(|a: &[u8], b: &[u8], out: &mut [u8], seed: u32| {
            $crate::__private::crossover($g(), $c(), a, b, out, seed)
        });
    };
}
