//! Oracles: run a candidate input and say whether the failure reproduced.
//!
//! PLACEHOLDER: only the persistent-mode entry point's signature is fixed
//! here so the fuzz-target macro can call it; the oracles land with the
//! [reduce] issue.

pub mod persistent;
