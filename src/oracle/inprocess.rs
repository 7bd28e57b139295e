//! In-process oracles: closures, with panics caught.

use super::signature::{CrashKind, Signature, SignatureLevel};
use super::{Oracle, Outcome};
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// A closure that classifies candidates itself.
///
/// ```
/// use grammar_min::oracle::{FnOracle, Oracle, Outcome};
/// let mut o = FnOracle::new(|c: &[u8]| {
///     if c.contains(&b'!') { Outcome::Interesting } else { Outcome::NotInteresting }
/// });
/// assert_eq!(o.test(b"hi!"), Outcome::Interesting);
/// ```
pub struct FnOracle<F>(F);

impl<F: FnMut(&[u8]) -> Outcome> FnOracle<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        FnOracle(f)
    }
}

impl<F: FnMut(&[u8]) -> Outcome> Oracle for FnOracle<F> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        (self.0)(candidate)
    }
}

/// A panic caught by [`catch_panic`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaughtPanic {
    /// The panic message (`&str` and `String` payloads; otherwise
    /// `Box<dyn Any>`).
    pub message: String,
    /// `file:line:column` of the panic, or empty.
    pub location: String,
}

impl CaughtPanic {
    /// The message and location a panic hook sees.
    pub fn of(info: &panic::PanicHookInfo<'_>) -> CaughtPanic {
        let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "Box<dyn Any>".to_string()
        };
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        CaughtPanic { message, location }
    }
}

thread_local! {
    static CAPTURE: RefCell<Option<Option<CaughtPanic>>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Whether the hook also keeps a caught panic's backtrace
/// ([`keep_backtraces`]).
static BACKTRACES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

thread_local! {
    static BACKTRACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// From now on a panic caught by [`catch_panic`] also keeps its thread's
/// backtrace, for [`take_backtrace`] (persistent mode's `frames`
/// signature: a backtrace costs milliseconds, so only when asked).
pub(crate) fn keep_backtraces() {
    BACKTRACES.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The backtrace of this thread's last caught panic, as
/// `RUST_BACKTRACE=1` prints it, if [`keep_backtraces`] was called.
pub(crate) fn take_backtrace() -> Option<String> {
    BACKTRACE.with(|b| b.borrow_mut().take())
}

/// Installs (once per process) a panic hook that records panics of
/// threads inside [`catch_panic`] silently and forwards all others to the
/// previous hook, so concurrent tests keep their normal panic output.
fn install_hook() {
    HOOK.call_once(|| {
        let prev = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let captured = CAPTURE.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        *slot = Some(CaughtPanic::of(info));
                        if BACKTRACES.load(std::sync::atomic::Ordering::Relaxed) {
                            let bt = std::backtrace::Backtrace::force_capture().to_string();
                            BACKTRACE.with(|b| *b.borrow_mut() = Some(bt));
                        }
                        true
                    }
                    None => false,
                }
            });
            if !captured {
                prev(info);
            }
        }));
    });
}

/// Runs `f`, catching a panic silently (with its message and location).
/// Panics of other threads, and outside `catch_panic`, still reach the
/// hook that was installed before (e.g. libFuzzer's, which aborts).
///
/// ```
/// use grammar_min::oracle::catch_panic;
/// let p = catch_panic(|| panic!("bad {}", 7)).unwrap_err();
/// assert_eq!(p.message, "bad 7");
/// assert!(catch_panic(|| ()).is_ok());
/// ```
pub fn catch_panic<F: FnOnce()>(f: F) -> Result<(), CaughtPanic> {
    install_hook();
    CAPTURE.with(|c| *c.borrow_mut() = Some(None));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    let caught = CAPTURE.with(|c| c.borrow_mut().take()).flatten();
    match r {
        Ok(()) => Ok(()),
        Err(_) => Err(caught.unwrap_or(CaughtPanic {
            message: String::new(),
            location: String::new(),
        })),
    }
}

/// Signature of a caught panic.
pub(crate) fn panic_signature(p: &CaughtPanic) -> Signature {
    Signature {
        kind: CrashKind::Panic,
        message: Some(super::signature::normalize_message(&p.message)),
        location: (!p.location.is_empty()).then(|| p.location.clone()),
        frames: Vec::new(),
    }
}

/// A function under test that fails by panicking. The first panic of the
/// original input is the reference; a candidate is Interesting when it
/// panics with the same [`Signature`] (at the chosen level), Invalid when it
/// panics differently, NotInteresting when it returns.
///
/// ```
/// use grammar_min::oracle::{InProcessOracle, Oracle, Outcome};
/// use grammar_min::oracle::signature::SignatureLevel;
/// let f = |c: &[u8]| { if c.contains(&b'x') { panic!("found x at {}", c.len()) } };
/// let mut o = InProcessOracle::new(f, b"abxd", SignatureLevel::Message).unwrap();
/// assert_eq!(o.test(b"x"), Outcome::Interesting);
/// assert_eq!(o.test(b"y"), Outcome::NotInteresting);
/// ```
pub struct InProcessOracle<F> {
    f: F,
    reference: Signature,
    level: SignatureLevel,
}

impl<F: FnMut(&[u8])> InProcessOracle<F> {
    /// Runs `original` once to record its panic.
    ///
    /// # Errors
    /// The original does not panic: there is nothing to reduce.
    pub fn new(mut f: F, original: &[u8], level: SignatureLevel) -> Result<Self, String> {
        match catch_panic(|| f(original)) {
            Ok(()) => Err("the original input does not panic: nothing to reduce".into()),
            Err(p) => Ok(InProcessOracle {
                f,
                reference: panic_signature(&p),
                level,
            }),
        }
    }

    /// The original's panic signature.
    pub fn reference(&self) -> &Signature {
        &self.reference
    }
}

impl<F: FnMut(&[u8])> Oracle for InProcessOracle<F> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        let f = &mut self.f;
        match catch_panic(|| f(candidate)) {
            Ok(()) => Outcome::NotInteresting,
            Err(p) => {
                if panic_signature(&p).matches(&self.reference, self.level) {
                    Outcome::Interesting
                } else {
                    Outcome::Invalid
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn different_panic_is_invalid() {
        let f = |c: &[u8]| {
            if c.starts_with(b"a") {
                panic!("first {}", c.len());
            }
            if c.starts_with(b"b") {
                panic!("second");
            }
        };
        let mut o = InProcessOracle::new(f, b"aaa", SignatureLevel::Location).unwrap();
        assert_eq!(o.test(b"a"), Outcome::Interesting);
        assert_eq!(o.test(b"b"), Outcome::Invalid);
        assert_eq!(o.test(b"c"), Outcome::NotInteresting);
        assert_eq!(o.reference().message.as_deref(), Some("first N"));
    }

    #[test]
    fn original_must_panic() {
        assert!(InProcessOracle::new(|_: &[u8]| {}, b"x", SignatureLevel::Kind).is_err());
    }
}
