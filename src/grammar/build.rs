//! Building and validating a [`Grammar`] from named alternatives.

use super::diag::{Diagnostic, GrammarError, Severity};
use super::load::GrammarFormat;
use super::{analysis, Elem, Grammar, Rule, SymbolId, SymbolInfo, TermId, INFINITE};
use std::collections::HashMap;

/// One token of an alternative, before names are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A nonterminal reference by name, e.g. `<expr>`.
    Nt(String),
    /// Literal bytes.
    T(Vec<u8>),
}

impl Token {
    /// Classifies a token-list token: exactly `<name>` (no spaces or angle
    /// brackets inside) is a nonterminal, anything else is literal text.
    pub fn classify(s: &str) -> Token {
        if is_nonterminal_name(s) {
            Token::Nt(s.to_string())
        } else {
            Token::T(s.as_bytes().to_vec())
        }
    }
}

/// Is `s` of the form `<name>`, with a non-empty name free of `<`, `>` and
/// whitespace (fuzzingbook's `RE_NONTERMINAL`)?
pub fn is_nonterminal_name(s: &str) -> bool {
    s.len() > 2
        && s.starts_with('<')
        && s.ends_with('>')
        && !s[1..s.len() - 1]
            .chars()
            .any(|c| c == '<' || c == '>' || c.is_whitespace())
}

struct Entry {
    name: String,
    alts: Vec<Vec<Token>>,
    /// Line and column of its key in the source file, when known.
    pos: Option<(u32, u32)>,
}

/// Builds a [`Grammar`] in code; the loaders use it too.
///
/// ```
/// use grammar_min::grammar::GrammarBuilder;
///
/// let g = GrammarBuilder::new()
///     .alt("<start>", &["<list>"])
///     .alt("<list>", &["[", "<item>", "]"])
///     .alt("<item>", &["x"])
///     .alt("<item>", &["<item>", ",", "x"])
///     .build()
///     .unwrap();
/// assert_eq!(g.num_symbols(), 3);
/// ```
#[derive(Default)]
pub struct GrammarBuilder {
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    start: Option<String>,
    format: Option<GrammarFormat>,
    diagnostics: Vec<Diagnostic>,
}

impl GrammarBuilder {
    /// An empty builder.
    pub fn new() -> GrammarBuilder {
        GrammarBuilder::default()
    }

    /// Adds an alternative to `name` from token-list tokens (see
    /// [`Token::classify`]).
    pub fn alt(mut self, name: &str, tokens: &[&str]) -> GrammarBuilder {
        self.push_alt(name, tokens.iter().map(|t| Token::classify(t)).collect());
        self
    }

    /// Chooses the start symbol (default `<start>`).
    pub fn start(mut self, name: &str) -> GrammarBuilder {
        self.start = Some(name.to_string());
        self
    }

    pub(crate) fn set_format(&mut self, f: GrammarFormat) {
        self.format = Some(f);
    }

    pub(crate) fn set_start(&mut self, name: Option<&str>) {
        self.start = name.map(str::to_string);
    }

    pub(crate) fn diag(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Declares a nonterminal (possibly with no alternatives yet) and returns
    /// its position.
    pub(crate) fn declare(&mut self, name: &str, pos: Option<(u32, u32)>) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.entries.push(Entry {
            name: name.to_string(),
            alts: Vec::new(),
            pos,
        });
        self.index.insert(name.to_string(), self.entries.len() - 1);
        self.entries.len() - 1
    }

    /// Adds an alternative of already classified tokens.
    pub fn push_alt(&mut self, name: &str, tokens: Vec<Token>) {
        let i = self.declare(name, None);
        self.entries[i].alts.push(tokens);
    }

    /// Is `name` declared (as a left-hand side)?
    pub(crate) fn is_declared(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// Validates and analyses. Reports every error at once.
    pub fn build(self) -> Result<Grammar, GrammarError> {
        let GrammarBuilder {
            entries,
            index,
            start,
            format,
            mut diagnostics,
        } = self;
        let located = |d: Diagnostic, e: &Entry| match e.pos {
            Some((l, c)) => d.at_pos(l as usize, c as usize),
            None => d,
        };

        for e in &entries {
            if !is_nonterminal_name(&e.name) {
                diagnostics.push(located(
                    Diagnostic::error(
                        "bad-nonterminal-name",
                        format!(
                            "`{}` is not a nonterminal name: keys must look like `<name>` \
                             (no spaces or angle brackets inside)",
                            e.name
                        ),
                    ),
                    e,
                ));
            }
            // Not when each alternative was an error already (a bad
            // class, a wrong type): that one says what to mend.
            let mended_first = |d: &Diagnostic| {
                d.severity == Severity::Error && d.nonterminal.as_deref() == Some(&e.name)
            };
            if e.alts.is_empty() && !diagnostics.iter().any(mended_first) {
                diagnostics.push(located(
                    Diagnostic::error(
                        "no-alternatives",
                        "the list of alternatives is empty: give at least one \
                         (use \"\" for the empty string)",
                    )
                    .at_symbol(&e.name),
                    e,
                ));
            }
        }

        // Intern terminals and resolve names, in file order.
        let mut terms: Vec<Box<[u8]>> = Vec::new();
        let mut term_index: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut elems: Vec<Elem> = Vec::new();
        let mut rules: Vec<Rule> = Vec::new();
        let mut symbols: Vec<SymbolInfo> = Vec::with_capacity(entries.len());
        // Rules whose body lost an undefined name: two of them may differ
        // in that name alone, so they are no duplicates.
        let mut incomplete: Vec<bool> = Vec::new();
        for (si, e) in entries.iter().enumerate() {
            let first = rules.len() as u32;
            for (ai, alt) in e.alts.iter().enumerate() {
                let body_start = elems.len() as u32;
                incomplete.push(false);
                for tok in alt {
                    match tok {
                        Token::Nt(n) => match index.get(n) {
                            Some(&t) => elems.push(Elem::Nt(SymbolId(t as u32))),
                            None => {
                                *incomplete.last_mut().expect("pushed per rule") = true;
                                diagnostics.push(located(
                                    Diagnostic::error(
                                        "undefined-nonterminal",
                                        format!(
                                            "`{n}` is used but never defined: add a rule \
                                         \"{n}\": [...] or fix the spelling{}",
                                            suggest(n, &index)
                                        ),
                                    )
                                    .at_symbol(&e.name)
                                    .at_alt(ai as u32),
                                    e,
                                ))
                            }
                        },
                        Token::T(bytes) if bytes.is_empty() => {}
                        Token::T(bytes) => {
                            let id = *term_index.entry(bytes.clone()).or_insert_with(|| {
                                terms.push(bytes.clone().into_boxed_slice());
                                (terms.len() - 1) as u32
                            });
                            elems.push(Elem::T(TermId(id)));
                        }
                    }
                }
                rules.push(Rule {
                    lhs: SymbolId(si as u32),
                    body: body_start..elems.len() as u32,
                    source_index: ai as u32,
                    nullable: false,
                    min_depth: INFINITE,
                    min_len: u64::MAX,
                    short_depth: INFINITE,
                });
            }
            if e.alts.is_empty() {
                // An error already (no alternatives, or each one wrong): an
                // empty stand-in, so that the analysis below does not call
                // every user of it unproductive too. Never built into a
                // grammar: the error stops that.
                incomplete.push(true);
                rules.push(Rule {
                    lhs: SymbolId(si as u32),
                    body: elems.len() as u32..elems.len() as u32,
                    source_index: 0,
                    nullable: false,
                    min_depth: INFINITE,
                    min_len: u64::MAX,
                    short_depth: INFINITE,
                });
            }
            symbols.push(SymbolInfo {
                name: e.name.clone(),
                rules: first..rules.len() as u32,
                nullable: false,
                productive: false,
                reachable: false,
                min_depth: INFINITE,
                min_len: u64::MAX,
                min_depth_alts: 0,
                restricted_at: 0,
                recursive: false,
            });
        }

        // Duplicate alternatives make the grammar ambiguous for no gain.
        for s in &symbols {
            let mut seen: HashMap<&[Elem], u32> = HashMap::new();
            for r in s.rules.clone() {
                if incomplete[r as usize] {
                    continue;
                }
                let rule = &rules[r as usize];
                let body = &elems[rule.body.start as usize..rule.body.end as usize];
                if let Some(prev) = seen.insert(body, rule.source_index) {
                    diagnostics.push(
                        Diagnostic::warning(
                            "duplicate-alternative",
                            format!(
                                "same as alternative {}: the grammar is ambiguous; remove one",
                                prev + 1
                            ),
                        )
                        .at_symbol(&s.name)
                        .at_alt(rule.source_index),
                    );
                }
            }
        }

        let start_name = start.unwrap_or_else(|| "<start>".to_string());
        let start_id = match index.get(&start_name) {
            Some(&i) => Some(SymbolId(i as u32)),
            None => {
                let mut msg = format!("the start symbol `{start_name}` is not defined");
                if entries.is_empty() {
                    msg.push_str(": the grammar has no rules at all");
                } else {
                    let names: Vec<&str> =
                        entries.iter().take(5).map(|e| e.name.as_str()).collect();
                    msg.push_str(&format!(
                        ": define it, or choose another with --start (defined: {}{})",
                        names.join(", "),
                        if entries.len() > 5 { ", ..." } else { "" }
                    ));
                }
                diagnostics.push(Diagnostic::error("missing-start", msg));
                None
            }
        };

        // With errors the analysis still runs, so that one check lists
        // every problem: an undefined name is left out of its alternative,
        // and a nonterminal without (valid) alternatives has an empty
        // stand-in (above), so neither makes anything else unproductive.
        let Some(start_id) = start_id else {
            return Err(GrammarError::new(diagnostics));
        };

        let mut g = Grammar {
            symbols,
            rules,
            elems,
            terms,
            start: start_id,
            restricted: Vec::new(),
            warnings: Vec::new(),
            format: format.unwrap_or(GrammarFormat::TokenList),
            decode_table: Default::default(),
        };
        analysis::analyse(&mut g);

        for (si, s) in g.symbols.iter().enumerate() {
            let pos = entries[si].pos;
            let loc = |d: Diagnostic| match pos {
                Some((l, c)) => d.at_pos(l as usize, c as usize),
                None => d,
            };
            if !s.productive && s.reachable {
                diagnostics.push(loc(Diagnostic::error(
                    "unproductive",
                    "derives no finite string (every alternative leads back to \
                     itself or to another unproductive nonterminal), so generation \
                     could never finish: add a non-recursive alternative",
                )
                .at_symbol(&s.name)));
            } else if !s.reachable {
                diagnostics.push(loc(Diagnostic::warning(
                    "unreachable",
                    format!(
                        "not reachable from {}{}: it is never generated; remove it \
                         or reference it",
                        start_name,
                        if s.productive {
                            ""
                        } else {
                            " (and unproductive)"
                        }
                    ),
                )
                .at_symbol(&s.name)));
            }
        }
        if diagnostics.iter().any(Diagnostic::is_error) {
            return Err(GrammarError::new(diagnostics));
        }
        for cycle in analysis::unit_cycles(&g) {
            let names: Vec<&str> = cycle.iter().map(|&s| g.name(s)).collect();
            let pos = entries[cycle[0].index()].pos;
            let d = Diagnostic::warning(
                "cycle",
                format!(
                    "derives itself without consuming input ({}): every text it \
                     matches has infinitely many derivation trees, and a parse \
                     picks one arbitrarily; remove an alternative on the cycle \
                     (a nullable part or a unit alternative)",
                    names.join(" → ")
                ),
            )
            .at_symbol(names[0]);
            diagnostics.push(match pos {
                Some((l, c)) => d.at_pos(l as usize, c as usize),
                None => d,
            });
        }

        reorder_simplest_first(&mut g);
        g.warnings = diagnostics;
        Ok(g)
    }
}

/// Sorts each nonterminal's alternatives simplest first (see the
/// [module docs](super)) and lists the ones of minimal depth.
fn reorder_simplest_first(g: &mut Grammar) {
    let mut new_rules = Vec::with_capacity(g.rules.len());
    let mut restricted = Vec::new();
    for s in &mut g.symbols {
        let mut rs: Vec<Rule> = g.rules[s.rules.start as usize..s.rules.end as usize].to_vec();
        rs.sort_by_key(|r| (r.min_len, r.short_depth, r.min_depth, r.source_index));
        let start = new_rules.len() as u32;
        s.restricted_at = restricted.len() as u32;
        restricted.extend(
            rs.iter()
                .enumerate()
                .filter(|(_, r)| r.min_depth == s.min_depth)
                .map(|(i, _)| i as u32),
        );
        s.min_depth_alts = restricted.len() as u32 - s.restricted_at;
        new_rules.extend(rs);
        s.rules = start..new_rules.len() as u32;
    }
    g.rules = new_rules;
    g.restricted = restricted;
}

/// ", did you mean `<exp>`?" for a near-miss name.
fn suggest(name: &str, index: &HashMap<String, usize>) -> String {
    let mut best: Option<(usize, &str)> = None;
    for k in index.keys() {
        let d = edit_distance(name, k);
        if d <= 2 && best.is_none_or(|(bd, bk)| (d, k.as_str()) < (bd, bk)) {
            best = Some((d, k));
        }
    }
    match best {
        Some((_, k)) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 2 || a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
