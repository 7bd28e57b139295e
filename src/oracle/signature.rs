//! Crash signatures: what failed, where, and how, read from a run's stderr.
//!
//! * [`Signature`] — kind, normalised message, location, top user frames.
//! * [`SignatureLevel`] — how much of two signatures must agree
//!   (`kind` ⊂ `location` ⊂ `message` ⊂ `frames`; default `location`).
//! * [`extract`] — a pure function from (stderr, exit) to a signature.
//!
//! The default level `location` (kind + panic location, or for sanitizer
//! reports the first user frame) keeps reductions on the same bug while
//! letting messages that embed input-dependent values ("index 17 out of
//! range") change: numbers and hex addresses are masked anyway, but
//! messages quoting the input would otherwise pin it.

use std::fmt;

/// Class of a crash.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", content = "detail")]
pub enum CrashKind {
    /// A Rust panic.
    Panic,
    /// `abort()` / SIGABRT without a panic message.
    Abort,
    /// A sanitizer report, e.g. `AddressSanitizer: heap-buffer-overflow`.
    Sanitizer(String),
    /// The run exceeded its time limit.
    Timeout,
    /// Out of memory (libFuzzer's `-rss_limit_mb`, allocation failure).
    OutOfMemory,
    /// Stack overflow (Rust's guard page or a sanitizer's report).
    StackOverflow,
    /// Killed by a signal (or libFuzzer's "deadly signal") with no better
    /// explanation.
    Signal(i32),
    /// A non-zero exit with no recognised report.
    Exit(i32),
}

impl fmt::Display for CrashKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrashKind::Panic => write!(f, "panic"),
            CrashKind::Abort => write!(f, "abort"),
            CrashKind::Sanitizer(s) => write!(f, "{s}"),
            CrashKind::Timeout => write!(f, "timeout"),
            CrashKind::OutOfMemory => write!(f, "out-of-memory"),
            CrashKind::StackOverflow => write!(f, "stack overflow"),
            CrashKind::Signal(s) => write!(f, "signal {s}"),
            CrashKind::Exit(c) => write!(f, "exit code {c}"),
        }
    }
}

/// How a crash looked.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Signature {
    /// Class of crash.
    pub kind: CrashKind,
    /// Panic message or sanitizer summary, with numbers masked
    /// ([`normalize_message`]).
    pub message: Option<String>,
    /// `file:line:col` of the panic, or the first user frame's location.
    pub location: Option<String>,
    /// Top user-code function names (innermost first), if symbolised frames
    /// were printed.
    pub frames: Vec<String>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some(l) = &self.location {
            write!(f, " at {l}")?;
        }
        if let Some(m) = &self.message {
            write!(f, ": {m}")?;
        }
        if !self.frames.is_empty() {
            write!(f, " [in {}]", self.frames.join(" < "))?;
        }
        Ok(())
    }
}

/// How much of two signatures must agree for "the same crash" (ordered
/// from the loosest, `Kind`, to the strictest, `Frames`).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum SignatureLevel {
    /// Only the kind (panic, heap-buffer-overflow, timeout...).
    Kind,
    /// Kind and location (the default).
    #[default]
    Location,
    /// Kind, location and normalised message.
    Message,
    /// Kind, location, message and the top user frames.
    Frames,
}

impl std::str::FromStr for SignatureLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "kind" => Ok(SignatureLevel::Kind),
            "location" => Ok(SignatureLevel::Location),
            "message" => Ok(SignatureLevel::Message),
            "frames" => Ok(SignatureLevel::Frames),
            _ => Err(format!(
                "unknown signature level `{s}`; use kind, location, message or frames"
            )),
        }
    }
}

impl Signature {
    /// Do `self` and `other` agree at `level`?
    ///
    /// ```
    /// use grammar_min::oracle::signature::{extract, Exit, SignatureLevel};
    /// let a = extract("thread 'main' panicked at src/a.rs:3:5:\nindex 7 out of range\n", Exit::Code(101)).unwrap();
    /// let b = extract("thread 'main' panicked at src/a.rs:3:5:\nindex 9 out of range\n", Exit::Code(101)).unwrap();
    /// assert!(a.matches(&b, SignatureLevel::Message));
    /// ```
    pub fn matches(&self, other: &Signature, level: SignatureLevel) -> bool {
        if self.kind != other.kind {
            return false;
        }
        if level == SignatureLevel::Kind {
            return true;
        }
        if self.location != other.location {
            return false;
        }
        if level == SignatureLevel::Location {
            return true;
        }
        if self.message != other.message {
            return false;
        }
        level != SignatureLevel::Frames || self.frames == other.frames
    }
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited with this code.
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
    /// Killed by the oracle after its time limit.
    TimedOut,
}

impl std::fmt::Display for Exit {
    /// ```
    /// use grammar_min::oracle::signature::Exit;
    /// assert_eq!(Exit::Code(1).to_string(), "exit code 1");
    /// assert_eq!(Exit::Signal(9).to_string(), "killed by signal 9");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit code {c}"),
            Exit::Signal(s) => write!(f, "killed by signal {s}"),
            Exit::TimedOut => f.write_str("timed out"),
        }
    }
}

/// Masks numbers and hex addresses so that messages differing only in
/// input-dependent values compare equal: `0x7ffd1234` → `0xX`, `42` → `N`.
///
/// ```
/// use grammar_min::oracle::signature::normalize_message;
/// assert_eq!(normalize_message("index 17 out of range for slice of length 4 at 0xdeadBEEF"),
///            "index N out of range for slice of length N at 0xX");
/// ```
pub fn normalize_message(s: &str) -> String {
    let b = s.trim().as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let prev_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if c == b'0' && !prev_word && b.get(i + 1) == Some(&b'x') {
            let mut j = i + 2;
            while j < b.len() && b[j].is_ascii_hexdigit() {
                j += 1;
            }
            if j > i + 2 {
                out.push_str("0xX");
                i = j;
                continue;
            }
        }
        if c.is_ascii_digit() && !prev_word {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            out.push('N');
            i = j;
            continue;
        }
        // Copy one UTF-8 character.
        let len = utf8_len(c);
        let end = (i + len).min(b.len());
        out.push_str(&String::from_utf8_lossy(&b[i..end]));
        i = end;
    }
    out
}

fn utf8_len(c: u8) -> usize {
    match c {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// Number of user frames kept in [`Signature::frames`].
pub const MAX_FRAMES: usize = 3;

/// Reads a crash signature from a run's stderr and how it ended. Returns
/// `None` for a clean exit (code 0) with no crash report.
///
/// ```
/// use grammar_min::oracle::signature::{extract, CrashKind, Exit};
/// let s = extract("thread '<unnamed>' panicked at src/x.rs:10:5:\nboom\n\
///                  ==12== ERROR: libFuzzer: deadly signal\n", Exit::Code(1)).unwrap();
/// assert_eq!(s.kind, CrashKind::Panic);
/// assert_eq!(s.location.as_deref(), Some("src/x.rs:10:5"));
/// assert_eq!(s.message.as_deref(), Some("boom"));
/// ```
pub fn extract(stderr: &str, exit: Exit) -> Option<Signature> {
    let lines: Vec<&str> = stderr.lines().collect();
    let frames = user_frames(&lines);
    let first_frame_loc = frame_locations(&lines).into_iter().next();
    let mut sig = Signature {
        kind: CrashKind::Exit(0),
        message: None,
        location: None,
        frames: frames.clone(),
    };
    // A panic is the most precise explanation, even when libFuzzer then
    // reports a deadly signal (cargo-fuzz panics abort).
    for (i, line) in lines.iter().enumerate() {
        if let Some((loc, msg)) = parse_panic_line(line, lines.get(i + 1).copied()) {
            sig.kind = CrashKind::Panic;
            sig.location = Some(loc);
            sig.message = Some(normalize_message(&msg));
            return Some(sig);
        }
        if line.contains("has overflowed its stack") || line.contains("stack-overflow on address") {
            sig.kind = CrashKind::StackOverflow;
            sig.location = first_frame_loc;
            recursion_cycle(&lines, &mut sig);
            return Some(sig);
        }
    }
    for line in &lines {
        if let Some(rest) = find_after(line, "ERROR: AddressSanitizer: ")
            .map(|r| ("AddressSanitizer", r))
            .or_else(|| {
                find_after(line, "ERROR: MemorySanitizer: ").map(|r| ("MemorySanitizer", r))
            })
            .or_else(|| find_after(line, "ERROR: LeakSanitizer: ").map(|r| ("LeakSanitizer", r)))
            .or_else(|| {
                find_after(line, "ERROR: ThreadSanitizer: ").map(|r| ("ThreadSanitizer", r))
            })
            .or_else(|| {
                find_after(line, "ERROR: UndefinedBehaviorSanitizer: ")
                    .map(|r| ("UndefinedBehaviorSanitizer", r))
            })
        {
            let (tool, rest) = rest;
            let what = rest
                .split_whitespace()
                .next()
                .unwrap_or("error")
                .to_string();
            if what == "stack-overflow" {
                sig.kind = CrashKind::StackOverflow;
            } else if what.starts_with("allocation-size-too-big")
                || what.starts_with("out-of-memory")
            {
                sig.kind = CrashKind::OutOfMemory;
            } else {
                sig.kind = CrashKind::Sanitizer(format!("{tool}: {what}"));
            }
            sig.message = Some(normalize_message(rest));
            sig.location = first_frame_loc;
            if sig.kind == CrashKind::StackOverflow {
                // The summary names the frame the overflow hit.
                sig.message = Some("stack-overflow".into());
                recursion_cycle(&lines, &mut sig);
            }
            return Some(sig);
        }
        if let Some(rest) = find_after(line, "ERROR: libFuzzer: ") {
            sig.location = first_frame_loc.clone();
            if rest.starts_with("timeout") {
                sig.kind = CrashKind::Timeout;
                return Some(sig);
            }
            if rest.starts_with("out-of-memory") || rest.starts_with("malloc limit") {
                sig.kind = CrashKind::OutOfMemory;
                return Some(sig);
            }
            if rest.starts_with("deadly signal") {
                sig.kind = match exit {
                    Exit::Signal(s) => CrashKind::Signal(s),
                    _ => CrashKind::Signal(libc::SIGABRT),
                };
                sig.message = Some("deadly signal".into());
                return Some(sig);
            }
            sig.kind = CrashKind::Sanitizer(format!("libFuzzer: {}", rest.trim()));
            return Some(sig);
        }
        if line.starts_with("memory allocation of ") && line.contains("failed") {
            sig.kind = CrashKind::OutOfMemory;
            return Some(sig);
        }
    }
    sig.location = first_frame_loc;
    match exit {
        Exit::Code(0) => None,
        Exit::TimedOut => {
            sig.kind = CrashKind::Timeout;
            Some(sig)
        }
        Exit::Signal(s) if s == libc::SIGABRT => {
            sig.kind = CrashKind::Abort;
            Some(sig)
        }
        Exit::Signal(s) if s == libc::SIGSEGV || s == libc::SIGBUS => {
            sig.kind = CrashKind::Signal(s);
            Some(sig)
        }
        Exit::Signal(s) => {
            sig.kind = CrashKind::Signal(s);
            Some(sig)
        }
        Exit::Code(c) => {
            sig.kind = CrashKind::Exit(c);
            Some(sig)
        }
    }
}

/// A stack overflow from unbounded recursion stops in whichever function
/// of the cycle the stack ran out in, which changes from run to run (and
/// with the input's nesting depth), as does the sanitizer's summary
/// naming that frame. When frames repeat, the signature names the cycle
/// instead: its location is the least repeated `file:line:col` and its
/// frames the repeated functions, sorted. Dependencies' frames count here
/// (the recursion is often in a parser crate).
fn recursion_cycle(lines: &[&str], sig: &mut Signature) {
    let frames: Vec<(String, String)> = all_frames(lines)
        .into_iter()
        .filter(|(f, file)| {
            !file.is_empty() && (!is_runtime_frame(f, file) || file.contains("/.cargo/registry/"))
        })
        .collect();
    let mut counts: std::collections::HashMap<&(String, String), usize> = Default::default();
    for f in &frames {
        *counts.entry(f).or_default() += 1;
    }
    let mut repeated: Vec<&(String, String)> = counts
        .into_iter()
        .filter(|&(_, n)| n >= 2)
        .map(|(f, _)| f)
        .collect();
    if repeated.is_empty() {
        return;
    }
    repeated.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
    sig.location = Some(crate_relative(&repeated[0].1));
    let mut names: Vec<String> = repeated.iter().map(|(f, _)| f.clone()).collect();
    names.sort();
    names.dedup();
    names.truncate(MAX_FRAMES);
    sig.frames = names;
}

/// A frame's file, from the last `src/` on (relative to its crate), or
/// for a registry crate from its directory (`ron-0.5.1/src/de/mod.rs`).
fn crate_relative(file: &str) -> String {
    if let Some(i) = file.find("/.cargo/registry/src/") {
        let rest = &file[i + "/.cargo/registry/src/".len()..];
        if let Some(j) = rest.find('/') {
            return rest[j + 1..].to_string();
        }
    }
    match file.rfind("/src/") {
        Some(i) => file[i + 1..].to_string(),
        None => file.trim_start_matches("./").to_string(),
    }
}

fn find_after<'a>(line: &'a str, pat: &str) -> Option<&'a str> {
    line.find(pat).map(|i| &line[i + pat.len()..])
}

/// `thread 'x' panicked at src/x.rs:10:5:` + message on the next line
/// (Rust >= 1.73; since 1.92 with the thread's id, `thread 'x' (7804)
/// panicked at …`), or `thread 'x' panicked at 'msg', src/x.rs:10:5`.
fn parse_panic_line(line: &str, next: Option<&str>) -> Option<(String, String)> {
    let thread = find_after(line.trim_start(), "thread '")?;
    if !line.trim_start().starts_with("thread '") {
        return None;
    }
    // The name ends at the last `'` before ` panicked at `; an id in
    // parentheses may follow it.
    let at = thread.find(" panicked at ")?;
    let between = &thread[..at];
    let q = between.rfind('\'')?;
    let id = between[q + 1..].trim();
    if !(id.is_empty() || id.starts_with('(') && id.ends_with(')')) {
        return None;
    }
    let rest = &thread[at + " panicked at ".len()..];
    if let Some(loc) = rest.strip_suffix(':') {
        return Some((loc.to_string(), next.unwrap_or("").to_string()));
    }
    // Old format: 'message', file:line:col
    if let Some(inner) = rest.strip_prefix('\'') {
        if let Some(i) = inner.rfind("', ") {
            return Some((inner[i + 3..].to_string(), inner[..i].to_string()));
        }
    }
    Some((rest.trim().to_string(), String::new()))
}

/// Is a function name part of the runtime rather than the user's code?
fn is_runtime_frame(func: &str, file: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "std::",
        "core::",
        "alloc::",
        "<std::",
        "<core::",
        "<alloc::",
        "rust_panic",
        "rust_begin_unwind",
        "__rust",
        "libfuzzer_sys::",
        "<libfuzzer_sys",
        "fuzzer::",
        "__sanitizer",
        "__asan",
        "__interceptor",
        "__libc",
        "_start",
        "LLVMFuzzer",
        "backtrace::",
        "panic_abort::",
        "main",
        "grammar_min::oracle",
        "abort",
        "raise",
        "__GI_",
        "__pthread",
        "pthread_",
        "clone",
        "start_thread",
    ];
    if PREFIXES.iter().any(|p| func.starts_with(p)) {
        return true;
    }
    file.contains("/rustc/") || file.contains("/.cargo/registry/") || file.contains("compiler-rt")
}

fn strip_hash(func: &str) -> String {
    // Rust legacy mangling appends `::h0123456789abcdef`.
    match func.rfind("::h") {
        Some(i) if func.len() - i == 19 && func[i + 3..].bytes().all(|b| b.is_ascii_hexdigit()) => {
            func[..i].to_string()
        }
        _ => func.to_string(),
    }
}

/// (function, file:line:col) of every symbolised frame, innermost first.
/// Understands sanitizer frames (`#3 0x55 in func /path/file.rs:10:5`) and
/// Rust backtraces (`  3: func` followed by `at ./src/file.rs:10:5`).
fn all_frames(lines: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if let Some(rest) = t.strip_prefix('#') {
            // #N 0xADDR in FUNC FILE:LINE:COL
            if let Some(p) = rest.find(" in ") {
                let after = &rest[p + 4..];
                let mut parts = after.rsplitn(2, ' ');
                let last = parts.next().unwrap_or("");
                let func = parts.next().unwrap_or(last);
                let file = if last.contains(':') && last != func {
                    last
                } else {
                    ""
                };
                out.push((strip_hash(func.trim()), file.to_string()));
            }
        } else if let Some((num, func)) = t.split_once(": ") {
            if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                let file = lines
                    .get(i + 1)
                    .and_then(|l| l.trim_start().strip_prefix("at "))
                    .unwrap_or("");
                out.push((strip_hash(func.trim()), file.trim().to_string()));
            }
        }
        i += 1;
    }
    out
}

/// The frames inside the fuzz target's body, innermost first: those
/// outside it (libfuzzer-sys' `rust_fuzzer_test_input` and what calls it,
/// and for a `grammar_fuzz_target!` the macro's wrappers around
/// `__grammar_min_run`, the body) are glue, the same for every crash.
fn body_frames(lines: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (f, file) in all_frames(lines) {
        let name = f.rsplit("::").next().unwrap_or(&f);
        if name == "rust_fuzzer_test_input" {
            break;
        }
        let body = name == "__grammar_min_run";
        out.push((f, file));
        if body {
            break;
        }
    }
    out
}

/// The user's frames ([`Signature::frames`]) of a backtrace as
/// `RUST_BACKTRACE=1` prints it (a persistent child's caught panic).
pub(crate) fn backtrace_frames(text: &str) -> Vec<String> {
    user_frames(&text.lines().collect::<Vec<_>>())
}

/// The frames of the code under test, innermost first: the user's and
/// their dependencies' (a panic inside std called from a parser crate is
/// told apart by the crate's frames), not the runtime's nor the fuzzing
/// harness's crates.
fn user_frames(lines: &[&str]) -> Vec<String> {
    let dependency = |f: &str, file: &str| {
        file.contains("/.cargo/registry/")
            && !file.contains("/libfuzzer-sys-")
            && !is_runtime_frame(f, "")
    };
    let frames = body_frames(lines);
    // Frames inside the panic machinery (a panic hook's closures, which
    // a persistent target's backtrace starts with) are not the panic's.
    // They come before the first panic frame; the panic's own start
    // after it, past the runtime's.
    let from = frames
        .iter()
        .position(|(_, file)| file.contains("/panicking.rs:"))
        .unwrap_or(0);
    frames
        .into_iter()
        .skip(from)
        .filter(|(f, file)| !is_runtime_frame(f, file) || dependency(f, file))
        .map(|(f, _)| f)
        .take(MAX_FRAMES)
        .collect()
}

fn frame_locations(lines: &[&str]) -> Vec<String> {
    body_frames(lines)
        .into_iter()
        .filter(|(f, file)| !is_runtime_frame(f, file) && !file.is_empty())
        .map(|(_, file)| crate_relative(&file))
        .collect()
}

#[cfg(test)]
mod tests;
