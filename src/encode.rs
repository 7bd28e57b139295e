//! Encoding derivation trees back into choice sequences.
//!
//! PLACEHOLDER: the API below is fixed so other modules can code against it;
//! the implementation lands with the [parse] issue.

use crate::generate::DecodeConfig;
use crate::grammar::Grammar;
use crate::tree::Tree;

/// Why a tree cannot be encoded under a config.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EncodeError {
    /// What went wrong and what to do.
    pub message: String,
}

/// The choice sequence that [`crate::generate::decode_tree`] turns back into
/// exactly `tree` under `cfg`.
///
/// # Errors
/// If the tree needs a restricted expansion to take an alternative the
/// decoder would not offer (it is deeper than `cfg.max_depth` or longer than
/// `cfg.max_len`), or contains hook text.
pub fn encode(g: &Grammar, tree: &Tree, cfg: &DecodeConfig) -> Result<Vec<u8>, EncodeError> {
    let _ = (g, tree, cfg);
    Err(EncodeError {
        message: "encoder not implemented yet".into(),
    })
}
