//! Symbolising a sanitizer's stack traces in this process, with one
//! long-lived `llvm-symbolizer` and a cache ([`Symbolizer`]).
//!
//! A sanitizer symbolises its report by starting `llvm-symbolizer`,
//! which loads the binary's debug information: about 0.27 s of the
//! 0.38 s a crashing run of a fuzz target with debug info takes here,
//! paid on every interesting candidate of a reduction (each is a crash).
//! The oracles of fuzz targets run the target with `symbolize=0` in
//! `ASAN_OPTIONS` and render its unsymbolised frames (`#3 0x…
//! (/path/bin+0x1234)`) as the sanitizer would have (`#3 0x… in FUNC
//! FILE:LINE:COL`, one line per inlined frame) through one symbolizer
//! process kept for the whole reduction. Every signature a reduction
//! compares — the original's too — comes from the same rendering, so
//! "the same crash" means what it meant.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

/// A long-lived `llvm-symbolizer` with a cache of the frames it gave.
pub struct Symbolizer {
    tool: PathBuf,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    proc: Option<(Child, ChildStdin, BufReader<ChildStdout>)>,
    cache: HashMap<(String, u64), Vec<(String, String)>>,
    /// The symbolizer failed: runs go back to the sanitizer's own.
    failed: bool,
}

impl Symbolizer {
    /// The `llvm-symbolizer` the sanitizers would use
    /// (`ASAN_SYMBOLIZER_PATH`, else the first on `PATH`), or `None`:
    /// then the sanitizer symbolises as it always did.
    pub fn find() -> Option<Symbolizer> {
        let tool = match std::env::var_os("ASAN_SYMBOLIZER_PATH") {
            Some(p) => PathBuf::from(p),
            None => std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|d| d.join("llvm-symbolizer"))
                .find(|p| p.is_file())?,
        };
        tool.is_file().then(|| Symbolizer::with_tool(tool))
    }

    /// The process-wide symbolizer ([`Symbolizer::find`], started once):
    /// `bucket` makes an oracle per artifact, and they share its cache.
    pub fn shared() -> Option<&'static Symbolizer> {
        static SHARED: std::sync::OnceLock<Option<Symbolizer>> = std::sync::OnceLock::new();
        SHARED.get_or_init(Symbolizer::find).as_ref()
    }

    /// A symbolizer running `tool` (an `llvm-symbolizer`, or a program
    /// that answers as it does).
    pub fn with_tool(tool: PathBuf) -> Symbolizer {
        Symbolizer {
            tool,
            inner: Mutex::default(),
        }
    }

    /// Whether runs should leave symbolising to this process (false once
    /// the symbolizer failed).
    pub fn active(&self) -> bool {
        !self.inner.lock().map(|i| i.failed).unwrap_or(true)
    }

    /// Sets `ASAN_OPTIONS` on `cmd` for a run whose report this
    /// symbolizer renders: the user's options, then `symbolize=0` (a
    /// later option wins).
    pub fn configure(&self, cmd: &mut Command) {
        if !self.active() {
            return;
        }
        let mut opts = std::env::var("ASAN_OPTIONS").unwrap_or_default();
        if !opts.is_empty() {
            opts.push(':');
        }
        opts.push_str("symbolize=0");
        cmd.env("ASAN_OPTIONS", opts);
    }

    /// `report` with every unsymbolised frame line rendered as the
    /// sanitizer renders a symbolised one (frames renumbered, an inlined
    /// call its own frame). Lines it cannot symbolise stay as they are.
    pub fn render(&self, report: &str) -> String {
        let Ok(mut inner) = self.inner.lock() else {
            return report.to_string();
        };
        let mut out = String::with_capacity(report.len() * 2);
        let mut n = 0usize;
        for line in report.lines() {
            let frames = raw_frame(line).and_then(|(addr, module, off)| {
                // As the sanitizer does: the instruction before a return
                // address names the call.
                let got = inner.lookup(&self.tool, module, off.saturating_sub(1))?;
                Some((addr, module, off, got))
            });
            match frames {
                Some((addr, module, off, got)) => {
                    for (func, loc) in got {
                        let loc = if loc.starts_with("??") {
                            format!("({module}+0x{off:x})")
                        } else {
                            loc
                        };
                        out.push_str(&format!("    #{n} {addr} in {func} {loc}\n"));
                        n += 1;
                    }
                }
                None => match frame_rest(line) {
                    // A frame left as it was, renumbered.
                    Some(rest) => {
                        out.push_str(&format!("    #{n} {rest}\n"));
                        n += 1;
                    }
                    None => {
                        n = 0;
                        out.push_str(line);
                        out.push('\n');
                    }
                },
            }
        }
        out
    }
}

impl Inner {
    /// The frames at `off` in `module` (innermost first, `file:line:col`
    /// as the sanitizer prints it), or `None` if the symbolizer knows
    /// nothing there or failed.
    fn lookup(&mut self, tool: &Path, module: &str, off: u64) -> Option<Vec<(String, String)>> {
        let key = (module.to_string(), off);
        if let Some(f) = self.cache.get(&key) {
            return (!f.is_empty()).then(|| f.clone());
        }
        if self.failed {
            return None;
        }
        let frames = match self.ask(tool, module, off) {
            Some(f) => f,
            None => {
                self.failed = true;
                if let Some((mut c, _, _)) = self.proc.take() {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                return None;
            }
        };
        self.cache.insert(key, frames.clone());
        (!frames.is_empty()).then_some(frames)
    }

    fn ask(&mut self, tool: &Path, module: &str, off: u64) -> Option<Vec<(String, String)>> {
        if self.proc.is_none() {
            let mut c = Command::new(tool)
                .arg("--inlining=true")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .ok()?;
            let (i, o) = (c.stdin.take()?, BufReader::new(c.stdout.take()?));
            self.proc = Some((c, i, o));
        }
        let (_, stdin, stdout) = self.proc.as_mut()?;
        writeln!(stdin, "\"{module}\" 0x{off:x}").ok()?;
        stdin.flush().ok()?;
        // Pairs of lines (function, file:line:col), then an empty line.
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if stdout.read_line(&mut l).ok()? == 0 {
                return None;
            }
            let l = l.trim_end();
            if l.is_empty() {
                break;
            }
            lines.push(l.to_string());
        }
        Some(
            lines
                .chunks(2)
                .filter(|p| p.len() == 2 && p[0] != "??")
                .map(|p| (p[0].clone(), location(&p[1])))
                .collect(),
        )
    }
}

impl Drop for Symbolizer {
    fn drop(&mut self) {
        if let Ok(inner) = self.inner.get_mut() {
            if let Some((mut c, stdin, _)) = inner.proc.take() {
                drop(stdin);
                let _ = c.wait();
            }
        }
    }
}

/// `file:line:col` as a sanitizer prints it: without a zero column, and
/// without a zero line.
fn location(s: &str) -> String {
    let mut parts = s.rsplitn(3, ':');
    let (col, line, file) = (parts.next(), parts.next(), parts.next());
    match (file, line, col) {
        (Some(f), Some("0"), Some(_)) => f.to_string(),
        (Some(f), Some(l), Some("0")) => format!("{f}:{l}"),
        _ => s.to_string(),
    }
}

/// A frame line's text after its number (`#3 `), if it is one.
fn frame_rest(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?;
    let (num, rest) = rest.split_once(' ')?;
    (!num.is_empty() && num.bytes().all(|b| b.is_ascii_digit())).then_some(rest)
}

/// An unsymbolised frame line, `#3 0x55d2… (/path/bin+0x1f2e)` (maybe
/// followed by `(BuildId: …)`): its address text, module and offset.
fn raw_frame(line: &str) -> Option<(&str, &str, u64)> {
    let rest = frame_rest(line)?.trim_start();
    let (addr, rest) = rest.split_once(' ')?;
    if !addr.starts_with("0x") {
        return None;
    }
    let inner = rest.trim_start().strip_prefix('(')?;
    let close = inner.find(')')?;
    let (module, off) = inner[..close].rsplit_once("+0x")?;
    let off = u64::from_str_radix(off, 16).ok()?;
    Some((addr, module, off))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_frames_are_read_and_symbolised_ones_left() {
        assert_eq!(
            raw_frame("    #12 0x55d2a1  (/t/bin+0x1f2e) (BuildId: ab12)"),
            Some(("0x55d2a1", "/t/bin", 0x1f2e))
        );
        assert_eq!(raw_frame("    #1 0x55d2a1 in f /src/a.rs:3:4"), None);
        assert_eq!(raw_frame("SUMMARY: AddressSanitizer: x (/t/bin+0x1)"), None);
        assert_eq!(location("/a.rs:12:0"), "/a.rs:12");
        assert_eq!(location("/a.rs:0:7"), "/a.rs");
        assert_eq!(location("/a.rs:12:7"), "/a.rs:12:7");
    }

    /// A stand-in for `llvm-symbolizer`: offset 0x10 is `inner` inlined
    /// into `outer`, anything else unknown; it logs its queries.
    fn fake_tool(dir: &Path) -> PathBuf {
        let p = dir.join("sym.sh");
        let log = dir.join("queries");
        std::fs::write(
            &p,
            format!(
                "#!/bin/sh\nwhile read m a; do echo \"$m $a\" >> {}\n\
                 case $a in 0x10) printf 'inner\\n/src/lib.rs:3:0\\nouter\\n/src/lib.rs:9:5\\n\\n';;\n\
                 *) printf '??\\n??:0:0\\n\\n';; esac; done\n",
                log.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    #[test]
    fn a_raw_report_is_rendered_as_the_sanitizer_renders_it() {
        let d = tempfile::tempdir().unwrap();
        let s = Symbolizer::with_tool(fake_tool(d.path()));
        let raw = "==1==ERROR: AddressSanitizer: stack-overflow on address 0x7ff\n\
                   \x20   #0 0x5501  (/t/bin+0x11) (BuildId: ab)\n\
                   \x20   #1 0x5502  (/t/bin+0x99)\n\
                   \x20   #2 0x5501  (/t/bin+0x11) (BuildId: ab)\n\
                   SUMMARY: AddressSanitizer: stack-overflow (/t/bin+0x11)\n";
        let out = s.render(raw);
        assert_eq!(
            out,
            "==1==ERROR: AddressSanitizer: stack-overflow on address 0x7ff\n\
             \x20   #0 0x5501 in inner /src/lib.rs:3\n\
             \x20   #1 0x5501 in outer /src/lib.rs:9:5\n\
             \x20   #2 0x5502  (/t/bin+0x99)\n\
             \x20   #3 0x5501 in inner /src/lib.rs:3\n\
             \x20   #4 0x5501 in outer /src/lib.rs:9:5\n\
             SUMMARY: AddressSanitizer: stack-overflow (/t/bin+0x11)\n"
        );
        // One query per distinct place (the return address less one), then
        // the cache.
        let queries = std::fs::read_to_string(d.path().join("queries")).unwrap();
        assert_eq!(queries, "\"/t/bin\" 0x10\n\"/t/bin\" 0x98\n");
        // The signature reads the rendered frames.
        let sig = crate::oracle::signature::extract(&out, crate::oracle::signature::Exit::Code(1))
            .unwrap();
        assert_eq!(sig.kind, crate::oracle::signature::CrashKind::StackOverflow);
        assert_eq!(sig.location.as_deref(), Some("src/lib.rs:3"));
        assert!(s.active());
        let mut cmd = Command::new("true");
        s.configure(&mut cmd);
        let opts = cmd
            .get_envs()
            .find(|(k, _)| *k == "ASAN_OPTIONS")
            .and_then(|(_, v)| v)
            .unwrap();
        assert!(opts.to_string_lossy().ends_with("symbolize=0"));
    }

    #[test]
    fn a_failed_symbolizer_leaves_symbolising_to_the_sanitizer() {
        let s = Symbolizer::with_tool(PathBuf::from("/nonexistent/llvm-symbolizer"));
        let raw = "    #0 0x5501  (/t/bin+0x11)\n";
        assert_eq!(s.render(raw), raw);
        assert!(!s.active());
        let mut cmd = Command::new("true");
        s.configure(&mut cmd);
        assert!(cmd.get_envs().all(|(k, _)| k != "ASAN_OPTIONS"));
    }
}
