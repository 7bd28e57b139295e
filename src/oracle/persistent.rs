//! Persistent oracle mode: one fuzz-target process runs many candidates.
//!
//! Protocol (parent = reducer, child = fuzz target binary built with
//! `grammar_fuzz_target!`):
//! * The parent starts the target binary with the environment variable
//!   [`ENV_VAR`] set to `1`, with two extra pipes as file descriptors 3
//!   (requests, parent → child) and 4 (responses, child → parent).
//! * Request: a little-endian `u32` length, then that many bytes (the
//!   candidate, exactly as libFuzzer would pass it).
//! * Response: one line of JSON, `{"outcome":"ok"}` or
//!   `{"outcome":"panic","message":"...","location":"file:line:col",
//!   "backtrace":"..."}`; the backtrace (as `RUST_BACKTRACE=1` prints it)
//!   only when the parent compares frames and set [`FRAMES_VAR`] to `1`,
//!   else empty.
//! * Hard crashes (abort, signal, sanitizer) end the child; the parent reads
//!   the crash from stderr and starts a new child for the next candidate.
//!
//! The child side ([`serve_if_requested`]) uses only std and libc. The
//! parent side is [`PersistentOracle`]; it tests one candidate at a time.

use super::inprocess::{catch_panic, panic_signature, CaughtPanic};
use super::process::{kill_group, CappedBuf};
use super::signature::{extract, CrashKind, Exit, Signature, SignatureLevel};
use super::symbolize::Symbolizer;
use super::{Oracle, Outcome};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Environment variable that switches a fuzz target into persistent mode.
pub const ENV_VAR: &str = "GRAMMAR_MIN_PERSISTENT";

/// Set to `1` by the parent when it compares `frames`: the child then
/// sends each panic's backtrace with it.
pub const FRAMES_VAR: &str = "GRAMMAR_MIN_FRAMES";

/// Called first thing by fuzz targets (from libFuzzer's init hook). Returns
/// at once unless [`ENV_VAR`] is set; otherwise serves candidates on fds 3/4
/// with `run` until the parent closes the request pipe, then exits the
/// process.
pub fn serve_if_requested<F: FnMut(&[u8])>(mut run: F) {
    if std::env::var_os(ENV_VAR).is_none_or(|v| v != "1") {
        return;
    }
    // SAFETY: the parent set up fds 3 and 4 for us (protocol above); we take
    // ownership of them once, here.
    let (mut req, mut resp) = unsafe { (File::from_raw_fd(3), File::from_raw_fd(4)) };
    if std::env::var_os(FRAMES_VAR).is_some_and(|v| v == "1") {
        super::inprocess::keep_backtraces();
    }
    let mut buf = Vec::new();
    loop {
        let mut len = [0u8; 4];
        if req.read_exact(&mut len).is_err() {
            break;
        }
        buf.resize(u32::from_le_bytes(len) as usize, 0);
        if req.read_exact(&mut buf).is_err() {
            break;
        }
        let line = match catch_panic(|| run(&buf)) {
            Ok(()) => "{\"outcome\":\"ok\"}\n".to_string(),
            Err(CaughtPanic { message, location }) => format!(
                "{{\"outcome\":\"panic\",\"message\":{},\"location\":{},\"backtrace\":{}}}\n",
                json_string(&message),
                json_string(&location),
                json_string(&super::inprocess::take_backtrace().unwrap_or_default())
            ),
        };
        if resp
            .write_all(line.as_bytes())
            .and_then(|_| resp.flush())
            .is_err()
        {
            break;
        }
    }
    std::process::exit(0);
}

fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

#[derive(serde::Deserialize)]
struct Response {
    outcome: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    location: String,
    /// With [`FRAMES_VAR`]: the panic's backtrace.
    #[serde(default)]
    backtrace: String,
}

struct Running {
    child: Child,
    req: File,
    resp: BufReader<File>,
    stderr: Arc<Mutex<CappedBuf>>,
    drain: Option<std::thread::JoinHandle<()>>,
}

/// Parent side of the protocol: keeps one child alive across candidates.
pub struct PersistentOracle {
    binary: PathBuf,
    args: Vec<String>,
    level: SignatureLevel,
    timeout: Duration,
    reference: Option<Signature>,
    running: Option<Running>,
    /// Children started so far (1 + restarts).
    pub spawned: u64,
    /// Renders a hard crash's unsymbolised frames (see
    /// [`super::symbolize`]); `None` without an `llvm-symbolizer`.
    symbolizer: Option<&'static Symbolizer>,
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0i32; 2];
    // SAFETY: pipe2 writes two fds into the array; O_CLOEXEC keeps them
    // from leaking into other children.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both fds were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

impl PersistentOracle {
    /// Starts `binary` in persistent mode and records the crash signature of
    /// `original` as the reference.
    ///
    /// # Errors
    /// The binary cannot be started, or `original` does not fail.
    pub fn new(
        binary: PathBuf,
        args: Vec<String>,
        level: SignatureLevel,
        timeout: Duration,
        original: &[u8],
    ) -> io::Result<Self> {
        let mut o = PersistentOracle {
            binary,
            args,
            level,
            timeout,
            reference: None,
            running: None,
            spawned: 0,
            symbolizer: Symbolizer::shared(),
        };
        match o.run_signature(original)? {
            Some(sig) => o.reference = Some(sig),
            None => {
                return Err(io::Error::other(
                    "the original input does not fail: the target returned normally on it \
                     (an input from the corpus, not a crash? one that crashes only in a fresh \
                     process needs --no-persistent)",
                ))
            }
        }
        Ok(o)
    }

    /// The original's crash signature.
    pub fn reference(&self) -> &Signature {
        self.reference.as_ref().expect("set by new")
    }

    fn spawn(&mut self) -> io::Result<()> {
        let (req_r, req_w) = pipe()?;
        let (resp_r, resp_w) = pipe()?;
        let (a, b) = (req_r.into_raw_fd(), resp_w.into_raw_fd());
        let mut cmd = Command::new(&self.binary);
        cmd.args(&self.args)
            .env(ENV_VAR, "1")
            .env(
                FRAMES_VAR,
                if self.level == SignatureLevel::Frames {
                    "1"
                } else {
                    "0"
                },
            )
            .env("RUST_BACKTRACE", "0")
            .env_remove(crate::known::ENV_VAR)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(s) = &self.symbolizer {
            s.configure(&mut cmd);
        }
        // SAFETY: only async-signal-safe calls (fcntl, dup2, close) between
        // fork and exec. The pipes may themselves sit on fds 3/4, so they
        // are first moved above 10 (F_DUPFD also drops close-on-exec).
        unsafe {
            cmd.pre_exec(move || {
                let a2 = libc::fcntl(a, libc::F_DUPFD, 10);
                let b2 = libc::fcntl(b, libc::F_DUPFD, 10);
                if a2 < 0 || b2 < 0 || libc::dup2(a2, 3) < 0 || libc::dup2(b2, 4) < 0 {
                    return Err(io::Error::last_os_error());
                }
                libc::close(a2);
                libc::close(b2);
                Ok(())
            });
        }
        let spawned = cmd.spawn();
        // SAFETY: the child has its copies; close the parent's.
        unsafe {
            libc::close(a);
            libc::close(b);
        }
        let mut child = spawned?;
        self.spawned += 1;
        let stderr = Arc::new(Mutex::new(CappedBuf::new(64 * 1024)));
        let mut err = child.stderr.take().expect("piped");
        let sink = stderr.clone();
        let drain = std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("stderr lock").push(&chunk[..n]);
            }
        });
        self.running = Some(Running {
            child,
            req: File::from(req_w),
            resp: BufReader::new(File::from(resp_r)),
            stderr,
            drain: Some(drain),
        });
        Ok(())
    }

    /// Ends the running child (if any) and returns how it ended with its
    /// stderr.
    fn reap(&mut self, kill: bool) -> (Exit, String) {
        let Some(mut r) = self.running.take() else {
            return (Exit::Code(0), String::new());
        };
        if kill {
            kill_group(r.child.id());
        }
        drop(r.req);
        let status = r.child.wait();
        kill_group(r.child.id());
        if let Some(d) = r.drain.take() {
            let _ = d.join();
        }
        let exit = match status {
            Ok(s) => match (s.code(), s.signal()) {
                (Some(c), _) => Exit::Code(c),
                (None, Some(sig)) => Exit::Signal(sig),
                _ => Exit::Code(-1),
            },
            Err(_) => Exit::Code(-1),
        };
        let err =
            String::from_utf8_lossy(&r.stderr.lock().expect("stderr lock").contents()).into_owned();
        (if kill { Exit::TimedOut } else { exit }, err)
    }

    /// Waits until fd is readable or the timeout passes.
    fn wait_readable(&self, fd: i32) -> bool {
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = self.timeout.as_millis().min(i32::MAX as u128) as i32;
        loop {
            // SAFETY: one valid pollfd.
            let r = unsafe { libc::poll(&mut p, 1, ms) };
            if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return r > 0;
        }
    }

    /// Runs one candidate; `None` if it did not fail.
    ///
    /// # Errors
    /// The target could not be (re)started or talked to.
    pub fn run_signature(&mut self, candidate: &[u8]) -> io::Result<Option<Signature>> {
        if self.running.is_none() {
            self.spawn()?;
        }
        let r = self.running.as_mut().expect("spawned");
        *r.stderr.lock().expect("stderr lock") = CappedBuf::new(64 * 1024);
        let mut msg = (candidate.len() as u32).to_le_bytes().to_vec();
        msg.extend_from_slice(candidate);
        let sent = r.req.write_all(&msg).and_then(|_| r.req.flush());
        use std::os::fd::AsRawFd;
        let fd = r.resp.get_ref().as_raw_fd();
        let mut line = String::new();
        let mut hung = false;
        let got = sent.is_ok() && {
            let ready = !r.resp.buffer().is_empty() || self.wait_readable(fd);
            hung = !ready;
            ready
                && self
                    .running
                    .as_mut()
                    .expect("running")
                    .resp
                    .read_line(&mut line)
                    .map(|n| n > 0)
                    .unwrap_or(false)
        };
        if got {
            let resp: Response = serde_json::from_str(&line).map_err(|e| {
                io::Error::other(format!("bad persistent-mode response {line:?}: {e}"))
            })?;
            return Ok(match resp.outcome.as_str() {
                "ok" => None,
                _ if self.level == SignatureLevel::Frames && resp.backtrace.is_empty() => {
                    return Err(io::Error::other(
                        "the target sent no backtrace with its panic, so frames cannot be \
                         compared in persistent mode: rebuild it with this version of \
                         grammar-min, or pass --no-persistent",
                    ))
                }
                _ => {
                    let mut sig = panic_signature(&CaughtPanic {
                        message: resp.message,
                        location: resp.location,
                    });
                    sig.frames = super::signature::backtrace_frames(&resp.backtrace);
                    Some(sig)
                }
            });
        }
        // No answer: a hard crash (child gone) or a hang (kill it).
        // EOF on the response pipe means the child is gone; silence until
        // the timeout means it hangs.
        let alive = hung;
        let (exit, mut err) = self.reap(alive);
        if let Some(s) = &self.symbolizer {
            err = s.render(&err);
        }
        Ok(Some(extract(&err, exit).unwrap_or(Signature {
            kind: if alive {
                CrashKind::Timeout
            } else {
                CrashKind::Exit(-1)
            },
            message: None,
            location: None,
            frames: vec![],
        })))
    }
}

impl Oracle for PersistentOracle {
    fn signature(&self) -> Option<&crate::oracle::signature::Signature> {
        Some(self.reference())
    }

    fn test(&mut self, candidate: &[u8]) -> Outcome {
        match self.run_signature(candidate) {
            Ok(None) => Outcome::NotInteresting,
            Ok(Some(s)) => {
                if s.matches(self.reference(), self.level) {
                    Outcome::Interesting
                } else if s.kind == CrashKind::Timeout {
                    Outcome::Timeout
                } else {
                    Outcome::Invalid
                }
            }
            Err(_) => {
                self.reap(true);
                Outcome::Invalid
            }
        }
    }
}

/// Several persistent children for `-j N`: a batch of candidates is
/// split among them (candidate `i` to child `i mod N`) and run at once,
/// each child as [`PersistentOracle`] runs it; single tests go to the
/// first. The tester takes the first interesting candidate of a batch in
/// order, so the result is the one of one child.
pub struct PersistentPool {
    workers: Vec<PersistentOracle>,
}

impl PersistentPool {
    /// `first` and `jobs - 1` more children of the same target, each
    /// checked to crash on `original` as `first` does.
    ///
    /// # Errors
    /// A child cannot be started, or crashes differently on `original`.
    pub fn new(first: PersistentOracle, jobs: usize, original: &[u8]) -> io::Result<Self> {
        let mut workers = vec![first];
        while workers.len() < jobs.max(1) {
            let w = &workers[0];
            let o = PersistentOracle::new(
                w.binary.clone(),
                w.args.clone(),
                w.level,
                w.timeout,
                original,
            )?;
            if !o.reference().matches(workers[0].reference(), w.level) {
                return Err(io::Error::other(format!(
                    "a second target process crashed differently on the original: `{}` \
                     against `{}`",
                    o.reference(),
                    workers[0].reference()
                )));
            }
            workers.push(o);
        }
        Ok(PersistentPool { workers })
    }
}

impl Oracle for PersistentPool {
    fn signature(&self) -> Option<&crate::oracle::signature::Signature> {
        self.workers[0].signature()
    }

    fn test(&mut self, candidate: &[u8]) -> Outcome {
        self.workers[0].test(candidate)
    }

    fn parallelism(&self) -> usize {
        self.workers.len()
    }

    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let n = self.workers.len();
        let mut out = vec![Outcome::Invalid; candidates.len()];
        std::thread::scope(|s| {
            let runs: Vec<_> = self
                .workers
                .iter_mut()
                .enumerate()
                .map(|(w, o)| {
                    s.spawn(move || {
                        (w..candidates.len())
                            .step_by(n)
                            .map(|i| (i, o.test(candidates[i])))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for r in runs {
                // A worker that panicked leaves its candidates invalid.
                for (i, o) in r.join().unwrap_or_default() {
                    out[i] = o;
                }
            }
        });
        out
    }
}

impl Drop for PersistentOracle {
    fn drop(&mut self) {
        // Closing the request pipe asks the child to exit; reap it.
        if let Some(r) = self.running.as_mut() {
            let _ = r.req.flush();
        }
        if let Some(r) = self.running.take() {
            let Running {
                mut child,
                req,
                drain,
                ..
            } = r;
            drop(req);
            let _ = child.wait();
            kill_group(child.id());
            if let Some(d) = drain {
                let _ = d.join();
            }
        }
    }
}
