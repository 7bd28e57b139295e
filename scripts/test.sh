#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run): unit, property, CLI and
# reference-example tests; the feature-gated libFuzzer/arbitrary code; and a
# smoke run of the fuzz targets (installs cargo-fuzz if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked
cargo test --locked --features libfuzzer --lib
cargo test --locked --features arbitrary --doc
scripts/fuzz-smoke.sh
