//! Subprocess oracles and the hygienic runner under them.
//!
//! * [`run`] — spawn in a fresh process group, stdin closed, stdout/stderr
//!   drained by threads into capped buffers ([`CappedBuf`]), time limit
//!   enforced by killing the whole group; after every run the group is
//!   killed too, so no grandchild outlives its test.
//! * [`CommandOracle`] — creduce/picire style: exit 0 = interesting.
//! * [`TargetOracle`] — a built fuzz target; interesting iff its crash
//!   [`Signature`] matches the original's.
//!
//! Candidates are written to files in a private temporary directory that
//! is removed when the oracle is dropped; each file is removed after its run.

use super::parallel::{parallel_batch, repeat_runs};
use super::signature::{extract, Exit, Signature, SignatureLevel};
use super::symbolize::Symbolizer;
use super::{Oracle, Outcome};
use std::ffi::OsString;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Keeps the first and the last `cap / 2` bytes of a stream.
#[derive(Clone, Debug, Default)]
pub struct CappedBuf {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    cap: usize,
    dropped: u64,
}

impl CappedBuf {
    /// A buffer keeping at most `cap` bytes.
    pub fn new(cap: usize) -> Self {
        CappedBuf {
            cap,
            ..Default::default()
        }
    }

    /// Appends bytes.
    pub fn push(&mut self, data: &[u8]) {
        let half = self.cap / 2;
        let take = half.saturating_sub(self.head.len()).min(data.len());
        self.head.extend_from_slice(&data[..take]);
        for &b in &data[take..] {
            if self.tail.len() == self.cap - half {
                self.tail.pop_front();
                self.dropped += 1;
            }
            self.tail.push_back(b);
        }
    }

    /// The kept bytes, with a marker where bytes were dropped.
    pub fn contents(&self) -> Vec<u8> {
        let mut v = self.head.clone();
        if self.dropped > 0 {
            v.extend_from_slice(format!("\n[... {} bytes dropped ...]\n", self.dropped).as_bytes());
        }
        v.extend(self.tail.iter());
        v
    }
}

/// Limits for one run.
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// Wall-clock limit; the process group is killed after it.
    pub timeout: Duration,
    /// Bytes kept per output stream (first and last halves).
    pub max_output: usize,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            timeout: Duration::from_secs(10),
            max_output: 64 * 1024,
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// How the process ended.
    pub exit: Exit,
    /// Captured stdout (capped).
    pub stdout: Vec<u8>,
    /// Captured stderr (capped).
    pub stderr: Vec<u8>,
    /// Wall time.
    pub elapsed: Duration,
}

fn drain<R: Read + Send + 'static>(mut r: R, cap: usize) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = CappedBuf::new(cap);
        let mut chunk = [0u8; 8192];
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => buf.push(&chunk[..n]),
            }
        }
        buf.contents()
    })
}

/// Kills process group `pgid` (best effort: it may be gone already).
pub(crate) fn kill_group(pgid: u32) {
    // SAFETY: kill(2) with a negative pid signals a process group; no
    // memory is involved.
    unsafe {
        libc::kill(-(pgid as i32), libc::SIGKILL);
    }
}

/// Runs `cmd` in its own process group under `limits`.
///
/// # Errors
/// If the program cannot be started (not found, not executable).
pub fn run(cmd: &mut Command, limits: &RunLimits) -> io::Result<RunOutput> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id();
    let out = drain(child.stdout.take().expect("piped"), limits.max_output);
    let err = drain(child.stderr.take().expect("piped"), limits.max_output);
    let mut sleep = Duration::from_micros(50);
    let exit = loop {
        if let Some(status) = child.try_wait()? {
            break match (status.code(), status.signal()) {
                (Some(c), _) => Exit::Code(c),
                (None, Some(s)) => Exit::Signal(s),
                (None, None) => Exit::Code(-1),
            };
        }
        if start.elapsed() >= limits.timeout {
            kill_group(pid);
            let _ = child.wait();
            break Exit::TimedOut;
        }
        std::thread::sleep(sleep);
        sleep = (sleep * 2).min(Duration::from_millis(5));
    };
    // Grandchildren still holding the pipes would keep the drains waiting.
    kill_group(pid);
    let elapsed = start.elapsed();
    Ok(RunOutput {
        exit,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        elapsed,
    })
}

/// Where candidate files go: a private temporary directory, removed on drop.
#[derive(Debug)]
pub struct CandidateDir {
    dir: tempfile::TempDir,
    counter: AtomicU64,
    suffix: String,
}

impl CandidateDir {
    /// A fresh directory; candidate file names end with `suffix` (e.g.
    /// `.c`, for programs that look at extensions).
    ///
    /// # Errors
    /// If the directory cannot be created.
    pub fn new(suffix: &str) -> io::Result<Self> {
        Ok(CandidateDir {
            dir: tempfile::Builder::new().prefix("grammar-min-").tempdir()?,
            counter: AtomicU64::new(0),
            suffix: suffix.to_string(),
        })
    }

    /// Writes `data` to a new file and returns its path.
    fn write(&self, data: &[u8]) -> io::Result<PathBuf> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let p = self
            .dir
            .path()
            .join(format!("candidate-{n}{}", self.suffix));
        std::fs::write(&p, data)?;
        Ok(p)
    }
}

/// Configuration of a [`CommandOracle`].
#[derive(Clone, Debug)]
pub struct CommandConfig {
    /// Program and arguments; the word `{}` (or a `{}` inside a word) is
    /// replaced by the candidate's path, which is appended if no `{}` occurs.
    pub argv: Vec<String>,
    /// An exit code that marks the candidate invalid rather than
    /// uninteresting.
    pub invalid_exit: Option<i32>,
    /// Time and output limits.
    pub limits: RunLimits,
    /// Candidates tested at once by batch calls.
    pub jobs: usize,
    /// Suffix of candidate file names (e.g. the artifact's extension).
    pub suffix: String,
}

/// Any program as an oracle: exit 0 means interesting (creduce, picire).
pub struct CommandOracle {
    cfg: CommandConfig,
    dir: CandidateDir,
}

impl CommandOracle {
    /// Prepares the candidate directory.
    ///
    /// # Errors
    /// Empty command, or the temporary directory cannot be created.
    pub fn new(cfg: CommandConfig) -> io::Result<Self> {
        if cfg.argv.is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
        }
        let dir = CandidateDir::new(&cfg.suffix)?;
        Ok(CommandOracle { cfg, dir })
    }

    fn command(&self, path: &Path) -> Command {
        let p = path.to_string_lossy();
        let mut args: Vec<OsString> = Vec::new();
        let mut used = false;
        for w in &self.cfg.argv {
            if w.contains("{}") {
                used = true;
                args.push(w.replace("{}", &p).into());
            } else {
                args.push(w.into());
            }
        }
        if !used {
            args.push(path.as_os_str().to_owned());
        }
        let mut cmd = Command::new(&args[0]);
        // A fuzz target the command runs must show the crash even if it is one
        // the user's shell lists as known (`GRAMMAR_MIN_SKIP`).
        cmd.args(&args[1..])
            .env("RUST_BACKTRACE", "0")
            .env_remove(crate::known::ENV_VAR);
        cmd
    }

    /// Sets the time after which a run is killed (e.g. from how long the
    /// original took, once it has reproduced).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.cfg.limits.timeout = timeout;
    }

    /// Runs one candidate and returns the raw output.
    ///
    /// # Errors
    /// The candidate cannot be written or the program cannot be started.
    pub fn run_raw(&self, candidate: &[u8]) -> io::Result<RunOutput> {
        let path = self.dir.write(candidate)?;
        let r = run(&mut self.command(&path), &self.cfg.limits);
        let _ = std::fs::remove_file(&path);
        r
    }

    /// Classifies a run.
    pub fn classify(&self, out: &RunOutput) -> Outcome {
        match out.exit {
            Exit::TimedOut => Outcome::Timeout,
            Exit::Code(0) => Outcome::Interesting,
            Exit::Code(c) if Some(c) == self.cfg.invalid_exit => Outcome::Invalid,
            _ => Outcome::NotInteresting,
        }
    }

    fn run_one(&self, candidate: &[u8]) -> Outcome {
        match self.run_raw(candidate) {
            Ok(o) => self.classify(&o),
            Err(_) => Outcome::Invalid,
        }
    }
}

impl Oracle for CommandOracle {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        self.run_one(candidate)
    }
    fn parallelism(&self) -> usize {
        self.cfg.jobs.max(1)
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let this = &*self;
        parallel_batch(self.cfg.jobs, candidates, |c| this.run_one(c))
    }
}

/// Configuration of a [`TargetOracle`].
#[derive(Clone, Debug)]
pub struct TargetConfig {
    /// The fuzz target binary (see [`super::discover`]).
    pub binary: PathBuf,
    /// Extra arguments before the candidate path (e.g. libFuzzer flags).
    pub args: Vec<String>,
    /// How much of the crash signature must match.
    pub level: SignatureLevel,
    /// Time and output limits.
    pub limits: RunLimits,
    /// Candidates tested at once by batch calls.
    pub jobs: usize,
}

/// Why the original input does not give a usable reference crash.
#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    /// The program could not be run at all.
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The OS error.
        source: io::Error,
    },
    /// The original ran without failing.
    #[error("the original input does not fail: {program} exited with {exit:?} and no crash report\n--- stderr (tail) ---\n{stderr}")]
    NoCrash {
        /// The program.
        program: String,
        /// How it ended.
        exit: Exit,
        /// Its stderr's tail.
        stderr: String,
    },
    /// Repeated runs of the original crashed differently.
    #[error("the original input is flaky: run 1 gave `{first}`, run {run} gave `{other}`; use a coarser --signature (e.g. kind) or fix the nondeterminism")]
    Flaky {
        /// The first signature.
        first: String,
        /// Which run differed.
        run: usize,
        /// What it gave.
        other: String,
    },
}

fn stderr_tail(s: &[u8]) -> String {
    let s = String::from_utf8_lossy(s);
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// A built fuzz target as an oracle; see the module docs.
pub struct TargetOracle {
    cfg: TargetConfig,
    dir: CandidateDir,
    reference: Signature,
    /// Renders the sanitizer's unsymbolised frames (see
    /// [`super::symbolize`]); `None` without an `llvm-symbolizer`.
    symbolizer: Option<&'static Symbolizer>,
}

impl TargetOracle {
    /// Runs `original` `repeat` times (at least once) and keeps its crash
    /// signature as the reference.
    ///
    /// # Errors
    /// [`ReproduceError`] saying what happened instead (exit code, stderr,
    /// differing signatures).
    pub fn new(cfg: TargetConfig, original: &[u8], repeat: usize) -> Result<Self, ReproduceError> {
        let program = cfg.binary.display().to_string();
        let dir = CandidateDir::new("").map_err(|source| ReproduceError::Spawn {
            program: program.clone(),
            source,
        })?;
        let mut this = TargetOracle {
            cfg,
            dir,
            reference: Signature {
                kind: super::signature::CrashKind::Exit(0),
                message: None,
                location: None,
                frames: vec![],
            },
            symbolizer: Symbolizer::shared(),
        };
        let mut first: Option<Signature> = None;
        let outs = repeat_runs(repeat, this.cfg.jobs, || this.run_raw(original));
        for (i, out) in outs.into_iter().enumerate() {
            let run = i + 1;
            let out = out.map_err(|source| ReproduceError::Spawn {
                program: program.clone(),
                source,
            })?;
            let sig = extract(&this.report(&out), out.exit);
            let Some(sig) = sig else {
                return Err(ReproduceError::NoCrash {
                    program,
                    exit: out.exit,
                    stderr: stderr_tail(&out.stderr),
                });
            };
            match &first {
                None => first = Some(sig),
                Some(f) if !f.matches(&sig, this.cfg.level) => {
                    return Err(ReproduceError::Flaky {
                        first: f.to_string(),
                        run,
                        other: sig.to_string(),
                    })
                }
                Some(_) => {}
            }
        }
        this.reference = first.expect("at least one run");
        Ok(this)
    }

    /// The original's crash signature.
    pub fn reference(&self) -> &Signature {
        &self.reference
    }

    /// Runs one candidate and returns the raw output.
    ///
    /// # Errors
    /// The candidate cannot be written or the binary cannot be started.
    pub fn run_raw(&self, candidate: &[u8]) -> io::Result<RunOutput> {
        let path = self.dir.write(candidate)?;
        let mut cmd = Command::new(&self.cfg.binary);
        cmd.args(&self.cfg.args)
            .arg(&path)
            .env_remove(crate::known::ENV_VAR)
            .env(
                "RUST_BACKTRACE",
                if self.cfg.level == SignatureLevel::Frames {
                    "1"
                } else {
                    "0"
                },
            );
        if let Some(s) = &self.symbolizer {
            s.configure(&mut cmd);
        }
        let r = run(&mut cmd, &self.cfg.limits);
        let _ = std::fs::remove_file(&path);
        r
    }

    /// Classifies a run against the reference signature.
    pub fn classify(&self, out: &RunOutput) -> Outcome {
        classify_against(&self.reference, self.cfg.level, &self.report(out), out.exit)
    }

    /// A run's stderr, its frames symbolised (see [`super::symbolize`]).
    pub fn report(&self, out: &RunOutput) -> String {
        let text = String::from_utf8_lossy(&out.stderr);
        match &self.symbolizer {
            Some(s) => s.render(&text),
            None => text.into_owned(),
        }
    }

    fn run_one(&self, candidate: &[u8]) -> Outcome {
        match self.run_raw(candidate) {
            Ok(o) => self.classify(&o),
            Err(_) => Outcome::Invalid,
        }
    }
}

/// Interesting iff the run's signature matches `reference` at `level`;
/// a clean run is NotInteresting, a different crash Invalid.
pub(crate) fn classify_against(
    reference: &Signature,
    level: SignatureLevel,
    stderr: &str,
    exit: Exit,
) -> Outcome {
    match extract(stderr, exit) {
        None => Outcome::NotInteresting,
        Some(s) if s.matches(reference, level) => Outcome::Interesting,
        Some(_) if exit == Exit::TimedOut => Outcome::Timeout,
        Some(_) => Outcome::Invalid,
    }
}

impl Oracle for TargetOracle {
    fn signature(&self) -> Option<&crate::oracle::signature::Signature> {
        Some(self.reference())
    }

    fn test(&mut self, candidate: &[u8]) -> Outcome {
        self.run_one(candidate)
    }
    fn parallelism(&self) -> usize {
        self.cfg.jobs.max(1)
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let this = &*self;
        parallel_batch(self.cfg.jobs, candidates, |c| this.run_one(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into(), "sh".into()]
    }

    #[test]
    fn capped_buffer_keeps_head_and_tail() {
        let mut b = CappedBuf::new(8);
        b.push(b"0123456789abcdef");
        let c = String::from_utf8(b.contents()).unwrap();
        assert!(c.starts_with("0123"));
        assert!(c.ends_with("cdef"));
        assert!(c.contains("8 bytes dropped"));
    }

    #[test]
    fn command_oracle_exit_codes_and_timeout() {
        let cfg = CommandConfig {
            argv: sh(
                "grep -q needle \"$1\" && exit 0; grep -q bad \"$1\" && exit 3; sleep 5; exit 1",
            ),
            invalid_exit: Some(3),
            limits: RunLimits {
                timeout: Duration::from_millis(300),
                max_output: 1024,
            },
            jobs: 2,
            suffix: ".txt".into(),
        };
        let mut o = CommandOracle::new(cfg).unwrap();
        assert_eq!(o.test(b"a needle"), Outcome::Interesting);
        assert_eq!(o.test(b"bad"), Outcome::Invalid);
        let t = Instant::now();
        assert_eq!(o.test(b"other"), Outcome::Timeout);
        // The group was killed: `sleep 5` did not keep us waiting.
        assert!(t.elapsed() < Duration::from_secs(4));
        let batch = o.test_batch(&[b"needle", b"bad", b"needle!"]);
        assert_eq!(
            batch,
            [Outcome::Interesting, Outcome::Invalid, Outcome::Interesting]
        );
        // Candidate files are removed after each run.
        assert_eq!(std::fs::read_dir(o.dir.dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn target_oracle_compares_signatures() {
        let script = r#"
            if grep -q A "$1"; then echo "thread 'main' panicked at src/a.rs:1:2:" >&2; echo "bad A $(wc -c < "$1")" >&2; exit 101; fi
            if grep -q B "$1"; then echo "thread 'main' panicked at src/b.rs:3:4:" >&2; echo "bad B" >&2; exit 101; fi
            exit 0"#;
        let cfg = TargetConfig {
            binary: "sh".into(),
            args: vec!["-c".into(), script.into(), "sh".into()],
            level: SignatureLevel::Location,
            limits: RunLimits::default(),
            jobs: 1,
        };
        let mut o = TargetOracle::new(cfg.clone(), b"xxAxx", 2).unwrap();
        assert_eq!(o.reference().location.as_deref(), Some("src/a.rs:1:2"));
        assert_eq!(o.test(b"A"), Outcome::Interesting);
        assert_eq!(o.test(b"B"), Outcome::Invalid);
        assert_eq!(o.test(b"C"), Outcome::NotInteresting);
        match TargetOracle::new(cfg, b"C", 2) {
            Err(ReproduceError::NoCrash { exit, .. }) => assert_eq!(exit, Exit::Code(0)),
            _ => panic!("expected NoCrash"),
        }
    }
}
