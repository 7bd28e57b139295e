//! Grammar diagnostics: every problem found, with where and what to do.

use std::fmt;

/// How bad a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The grammar cannot be used.
    Error,
    /// The grammar works, but something is probably not what was meant.
    Warning,
}

/// One problem found in a grammar file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Stable machine-readable code, e.g. `undefined-nonterminal`.
    pub code: &'static str,
    /// What is wrong and what to do, in lowercase prose.
    pub message: String,
    /// The nonterminal concerned, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nonterminal: Option<String>,
    /// The alternative concerned (0-based, in file order), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative: Option<u32>,
    /// 1-based line in the source file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column in the source file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

impl Diagnostic {
    pub(crate) fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            nonterminal: None,
            alternative: None,
            line: None,
            column: None,
        }
    }

    pub(crate) fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub(crate) fn at_symbol(mut self, name: &str) -> Diagnostic {
        self.nonterminal = Some(name.to_string());
        self
    }

    pub(crate) fn at_alt(mut self, alt: u32) -> Diagnostic {
        self.alternative = Some(alt);
        self
    }

    pub(crate) fn at_pos(mut self, line: usize, column: usize) -> Diagnostic {
        self.line = Some(line as u32);
        self.column = Some(column as u32);
        self
    }

    /// Is this an error (as opposed to a warning)?
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `error[undefined-nonterminal] 3:5: in <expr>, alternative 2: ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev}[{}]", self.code)?;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, " {l}:{c}")?;
        } else if let Some(l) = self.line {
            write!(f, " {l}")?;
        }
        write!(f, ": ")?;
        match (&self.nonterminal, self.alternative) {
            (Some(n), Some(a)) => write!(f, "in {n}, alternative {}: ", a + 1)?,
            (Some(n), None) => write!(f, "in {n}: ")?,
            _ => {}
        }
        f.write_str(&self.message)
    }
}

/// A grammar that could not be loaded: all the errors found (and the
/// warnings, for context).
#[derive(Clone, Debug)]
pub struct GrammarError {
    /// Every diagnostic, errors first.
    pub diagnostics: Vec<Diagnostic>,
}

impl GrammarError {
    pub(crate) fn new(mut diagnostics: Vec<Diagnostic>) -> GrammarError {
        diagnostics.sort_by_key(|d| !d.is_error());
        GrammarError { diagnostics }
    }

    pub(crate) fn single(d: Diagnostic) -> GrammarError {
        GrammarError::new(vec![d])
    }

    /// Only the errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors().count();
        write!(
            f,
            "invalid grammar: {n} error{}",
            if n == 1 { "" } else { "s" }
        )?;
        for d in &self.diagnostics {
            write!(f, "\n  {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for GrammarError {}
