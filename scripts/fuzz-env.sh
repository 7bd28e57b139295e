# Sourced by the scripts that run cargo fuzz: installs cargo-fuzz if missing
# and sets FUZZ to the command that runs it (nightly when installed, else
# stable told to accept the nightly flags cargo fuzz passes).
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    FUZZ=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    FUZZ=(cargo fuzz)
fi
