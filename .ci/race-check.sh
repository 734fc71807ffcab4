#!/usr/bin/env bash
# Checks the multi-threaded search for data races and undefined behaviour:
#  - Miri runs the transposition table's tests and a three-thread search (crates/ai/src/tt.rs,
#    crates/ai/src/search.rs), checking every shared access;
#  - ThreadSanitizer runs those, the multi-thread test (tests/ai_smp.rs: 2 and 4 threads in
#    every setup, cancellation) and the kept-table tests (tests/ai_memory.rs).
#
#   .ci/race-check.sh      # about 10 minutes on 2 cores, most of it building std twice
#
# Needs a nightly toolchain; installs its miri and rust-src components when missing.
# Builds go to their own folders under target/ so they never mix with the normal build.
set -euo pipefail

cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
rustup +nightly component add miri rust-src

CARGO_TARGET_DIR="$target_dir/miri" cargo +nightly miri test -p halma-ai --lib

host="$(rustc +nightly -vV | sed -n 's/^host: //p')"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR="$target_dir/tsan" \
    cargo +nightly test -Zbuild-std --target "$host" -p halma-ai \
    --lib --test ai_smp --test ai_memory 2>&1 | tee "$log"
# ThreadSanitizer reports a race without failing the test that met it.
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "ThreadSanitizer found a data race (above)" >&2
    exit 1
fi
echo "race check: Miri and ThreadSanitizer found nothing"
