//! [`Weights`] of the mutation operators and [`parse_tuning`], the
//! `GRAMMAR_MIN_MUTATOR` syntax.

/// Relative weights of the operators (a weight of 0 disables one). An
/// operator that finds nothing to do on an input falls back to
/// [`MutationKind::Regenerate`](super::MutationKind::Regenerate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// [`MutationKind::Regenerate`](super::MutationKind::Regenerate).
    pub regenerate: u32,
    /// [`MutationKind::Simplify`](super::MutationKind::Simplify).
    pub simplify: u32,
    /// [`MutationKind::RecursiveExpand`](super::MutationKind::RecursiveExpand).
    pub recursive_expand: u32,
    /// [`MutationKind::Splice`](super::MutationKind::Splice).
    pub splice: u32,
    /// [`MutationKind::Bytes`](super::MutationKind::Bytes).
    pub bytes: u32,
}

impl Default for Weights {
    /// 25 regenerate, 5 simplify, 10 recursive expansion, 15 splice,
    /// 45 bytes. Byte mutations of a choice sequence are small steps (one
    /// decision changes, the rest is re-read); the subtree operators are
    /// big ones. On the calc example the semantic bug (a call matching an
    /// earlier definition) needs the small steps.
    fn default() -> Weights {
        Weights {
            regenerate: 25,
            simplify: 5,
            recursive_expand: 10,
            splice: 15,
            bytes: 45,
        }
    }
}

/// Parses a tuning spec `key=value,...` with keys `regenerate`,
/// `simplify`, `recursive`, `splice`, `bytes` (operator weights) and
/// `graft` (percentage of crossover calls that graft, 0–100); keys left
/// out keep their defaults (graft 100).
///
/// ```
/// use grammar_min::mutate::{parse_tuning, Weights};
/// let (w, graft) = parse_tuning("bytes=70, graft=50").unwrap();
/// assert_eq!((w.bytes, w.splice, graft), (70, Weights::default().splice, 50));
/// assert!(parse_tuning("bites=1").is_err());
/// ```
///
/// # Errors
/// An unknown key, a value that is not a number, or graft above 100.
pub fn parse_tuning(spec: &str) -> Result<(Weights, u32), String> {
    let mut w = Weights::default();
    let mut graft = 100;
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}` is not key=value"))?;
        let v: u32 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{part}`: the value must be a non-negative integer"))?;
        match k.trim() {
            "regenerate" => w.regenerate = v,
            "simplify" => w.simplify = v,
            "recursive" => w.recursive_expand = v,
            "splice" => w.splice = v,
            "bytes" => w.bytes = v,
            "graft" if v <= 100 => graft = v,
            "graft" => return Err(format!("`{part}`: graft is a percentage (0-100)")),
            other => {
                return Err(format!(
                    "unknown key `{other}`; use regenerate, simplify, recursive, splice, bytes or graft"
                ))
            }
        }
    }
    Ok((w, graft))
}
