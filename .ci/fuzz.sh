#!/usr/bin/env bash
# Fuzzes the move and HPN parsers, the game and session save loaders, the engine protocol, the
# engine-program client (output lines, command lines), the game-record parser and the play
# between devices (the local network's protocol lines, a game received by message) with
# cargo-fuzz (libFuzzer), each target for SECONDS (default 60) after building them all.
#
#   .ci/fuzz.sh            # 60 s per target (8 targets: 8 minutes) plus the build
#   .ci/fuzz.sh 300        # the long run
#   FUZZ_TARGETS="hpn protocol" .ci/fuzz.sh 30
#
# Works on a fresh machine: installs cargo-fuzz if missing. libFuzzer needs nightly
# compiler flags; RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them. Each run starts
# from the committed seeds (fuzz/corpus/<target>, read only) plus what earlier runs on this
# machine found (fuzz/target/corpus/<target>). A crash, a timeout or running out of memory
# fails the script and leaves the input in fuzz/artifacts/<target>/ to reproduce with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/artifacts/<target>/<file>` (in fuzz/).
set -euo pipefail

seconds="${1:-60}"
cd "$(dirname "$0")/../fuzz"
targets="${FUZZ_TARGETS:-parse_move hpn save_load session_load protocol record engine_client network}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

# One build for all targets (release with debug assertions, AddressSanitizer). A smoke run of
# a few seconds a target (CI) builds them unoptimised instead: about half the build time, and
# speed does not matter for seconds.
profile=()
if [ "$seconds" -lt 30 ]; then
    profile=(--dev)
fi
cargo fuzz build "${profile[@]}"

failed=""
for target in $targets; do
    work="target/corpus/$target"
    mkdir -p "$work" "artifacts/$target"
    echo "fuzz.sh: $target for ${seconds}s"
    # -timeout: one input taking over 10 s is a hang; -rss_limit_mb bounds the memory.
    status=0
    cargo fuzz run "${profile[@]}" "$target" "$work" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        >"target/fuzz-$target.log" 2>&1 || status=$?
    grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added|==[0-9]+==|SUMMARY)' \
        "target/fuzz-$target.log" || true
    if [ "$status" -ne 0 ]; then
        failed="$failed $target"
        tail -n 40 "target/fuzz-$target.log"
    fi
done

if [ -n "$failed" ]; then
    echo "fuzz.sh: FAILED:$failed (inputs in fuzz/artifacts/)"
    exit 1
fi
echo "fuzz.sh: no crash in: $targets"
