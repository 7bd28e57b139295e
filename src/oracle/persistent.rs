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
//!   `{"outcome":"panic","message":"...","location":"file:line:col"}`.
//! * Hard crashes (abort, signal, sanitizer) end the child; the parent reads
//!   the crash from stderr and starts a new child for the next candidate.
//!
//! PLACEHOLDER body: lands with the [reduce] issue.

/// Environment variable that switches a fuzz target into persistent mode.
pub const ENV_VAR: &str = "GRAMMAR_MIN_PERSISTENT";

/// Called first thing by fuzz targets (from libFuzzer's init hook). Returns
/// at once unless [`ENV_VAR`] is set; otherwise serves candidates on fds 3/4
/// with `run` until the parent closes the request pipe, then exits the
/// process.
pub fn serve_if_requested<F: FnMut(&[u8])>(run: F) {
    let _ = run;
}
