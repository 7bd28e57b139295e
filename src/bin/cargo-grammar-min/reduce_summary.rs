//! `reduce`'s per-artifact summary: the `--json` record and the lines on
//! stderr.

use grammar_min::reduce::{Strategy, PARSE_BUDGET_SPENT};

#[derive(serde::Serialize)]
pub(crate) struct Summary {
    pub(crate) artifact: String,
    pub(crate) output: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) output_choices: Option<String>,
    pub(crate) input: &'static str,
    pub(crate) strategy: Strategy,
    pub(crate) bytes_before: usize,
    pub(crate) bytes_after: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) choices_before: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) choices_after: Option<usize>,
    pub(crate) tests: u64,
    /// Runs a failing candidate had to fail in a row (--confirm), the
    /// runs beyond the first (not in `tests`), and the candidates that
    /// failed once and then not.
    pub(crate) confirm: u32,
    pub(crate) confirming_runs: u64,
    pub(crate) refuted: u64,
    /// With confirmed failures: the result's final check, and whether an
    /// earlier, larger result that failed every run replaced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) settled: Option<SettleReport>,
    pub(crate) cache_hits: u64,
    /// Candidates not run: their text was longer than the best so far.
    pub(crate) skipped: u64,
    pub(crate) invalid: u64,
    /// With --grammatical: candidates the grammar did not parse, answered
    /// invalid without a run (not in `tests` or `invalid`).
    pub(crate) not_parsed: u64,
    pub(crate) timeouts: u64,
    pub(crate) seconds: f64,
    pub(crate) interrupted: bool,
    pub(crate) reproduce: String,
    pub(crate) passes: Vec<PassReport>,
}

/// The final check of a result whose failures were confirmed (see
/// [`settle`]): of `runs` runs made in all (not in `tests`), the result
/// failed `failed` of its `of`; `fell_back`: an earlier one was kept.
#[derive(serde::Serialize)]
pub(crate) struct SettleReport {
    pub(crate) failed: u32,
    pub(crate) of: u32,
    pub(crate) fell_back: bool,
    pub(crate) runs: u64,
}

/// One pass of a reduction in `--json`: its name, the size it ended at
/// (in `unit`: bytes of text, or choices of a choice sequence) and the
/// program's runs so far.
#[derive(serde::Serialize)]
pub(crate) struct PassReport {
    pub(crate) pass: &'static str,
    pub(crate) size: usize,
    pub(crate) unit: &'static str,
    pub(crate) tests: u64,
}

impl PassReport {
    /// `passes` as reports, their runs counted after `runs_before`.
    pub(crate) fn list(
        passes: &[(&'static str, usize, u64)],
        unit: &'static str,
        runs_before: u64,
    ) -> Vec<Self> {
        let report = |&(pass, size, tests): &(&'static str, usize, u64)| PassReport {
            pass,
            size,
            unit,
            tests: tests + runs_before,
        };
        passes.iter().map(report).collect()
    }
}

impl Summary {
    /// The summary on stderr; `multiple`: one of several artifacts (the
    /// reproduce line on one line).
    pub(crate) fn print(&self, multiple: bool) {
        // For choice artifacts both sizes: the text's may not move
        // when the choices shrink.
        let choices = match (self.choices_before, self.choices_after) {
            (Some(a), Some(b)) => format!(" of text; choices {a} -> {b} bytes"),
            _ => String::new(),
        };
        let mut not_parsed = match self.not_parsed {
            0 => String::new(),
            n => format!(", {n} not parsed (no run)"),
        };
        if self.confirm > 1 {
            not_parsed += &format!(
                ", {} runs confirming failures ({} times each), {} refuted",
                self.confirming_runs, self.confirm, self.refuted
            );
        }
        match &self.settled {
            Some(x) if x.fell_back => eprintln!(
                "note: the smallest result failed only {} of {} runs (a crash that \
                 comes and goes where it begins); kept the smallest earlier one that \
                 failed every run ({} runs in all)",
                x.failed, x.of, x.runs
            ),
            _ => {}
        }
        eprintln!(
            "{}: {} -> {} bytes{choices} ({} tests, {} cache hits, {} invalid{not_parsed}, {} timeouts) in {:.1}s{}",
            self.artifact,
            self.bytes_before,
            self.bytes_after,
            self.tests,
            self.cache_hits,
            self.invalid,
            self.timeouts,
            self.seconds,
            if self.interrupted { " [interrupted]" } else { "" }
        );
        if self.passes.iter().any(|p| p.pass == "respace-blanks") {
            eprintln!(
                "  note: it parses only with its blanks or letter case changed; reduced in the \
                 grammar's spelling, which still fails"
            );
        }
        if self.passes.iter().any(|p| p.pass == PARSE_BUDGET_SPENT) {
            eprintln!(
                "  note: the text stage stopped early: its candidate texts mostly did not \
                 parse, and parsing them had cost its budget (about a minute and a half); \
                 the choices are reduced, the text may be larger than it needs to be \
                 (for a smaller text, reduce it as text with --cmd)"
            );
        }
        if self.interrupted && self.confirm > 1 {
            eprintln!(
                "  note: interrupted, so the result had no final check: it failed {} runs in a \
                 row when it was found, not the final 4; reduce the result itself (the file \
                 below) to give it that check",
                self.confirm
            );
        }
        if self.bytes_after == 0 {
            eprintln!(
                "  warning: the empty input is interesting: the check cannot tell this \
                 failure from none (try it on a passing input: it must exit non-zero)"
            );
        }
        eprintln!("  minimised: {}", self.output);
        if let Some(c) = &self.output_choices {
            eprintln!("  choices:   {c}");
        }
        if multiple {
            // One line each: the run lists many artifacts.
            eprintln!("  reproduce: {}", self.reproduce);
        } else {
            eprintln!("Reproduce with:\n\n  {}\n", self.reproduce);
        }
    }
}
