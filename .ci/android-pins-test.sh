#!/usr/bin/env bash
# Every tool of the Android build is pinned in one place (rust-toolchain.toml, android/toolchain.env)
# and no other file names another version: .ci/android-pins.py on the repository, then on copies
# with one wrong version each, which it must reject, naming the file and both versions.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "android-pins-test: $*"; }
fail() { echo "android-pins-test: FAILED: $*" >&2; exit 1; }

python3 .ci/android-pins.py

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
copy() { # a fresh copy of what the checker reads
    rm -rf "$work/repo"
    mkdir -p "$work/repo"
    git ls-files -z --cached --others --exclude-standard -- rust-toolchain.toml Cargo.toml Cargo.lock README.md \
        .github/workflows android .ci | grep -z -v '^android/res/' | xargs -0 cp --parents -t "$work/repo" 2>/dev/null || true
    cp .ci/android-pins.py "$work/repo/.ci/"
}
expect_rejected() { # description, expected message (a grep -E pattern), then the change (a command run in the copy)
    local what="$1" message="$2"
    shift 2
    copy
    (cd "$work/repo" && "$@")
    if python3 "$work/repo/.ci/android-pins.py" "$work/repo" >"$work/log" 2>&1; then
        cat "$work/log"
        fail "$what: accepted"
    fi
    grep -Eq "$message" "$work/log" || { cat "$work/log"; fail "$what: rejected without naming it ($message)"; }
    say "ok: rejected $what: $(grep -E "$message" "$work/log" | head -n 1 | sed 's/^android-pins: //')"
}
expect_rejected "another cargo-ndk in toolchain.env than the README's" "android/README.md:[0-9]+: names cargo-ndk 4\.1\.2, CARGO_NDK_VERSION pins 4\.0\.0" \
    sed -i 's/^CARGO_NDK_VERSION=.*/CARGO_NDK_VERSION=4.0.0/' android/toolchain.env
# shellcheck disable=SC2016 # sed scripts with the workflow's literal $VARIABLES
expect_rejected "a workflow installing another NDK" "android\.yml:[0-9]+: names the NDK 27\.3\.13750724" \
    sed -i 's/"ndk;\$ANDROID_NDK_VERSION"/"ndk;27.3.13750724"/' .github/workflows/android.yml
expect_rejected "another Rust in rust-toolchain.toml than the README's" "android/README.md:[0-9]+: names the Rust toolchain 1\.95\.0, rust-toolchain\.toml pins 1\.96\.0" \
    sed -i 's/^channel = .*/channel = "1.96.0"/' rust-toolchain.toml
# shellcheck disable=SC2016 # sed scripts with the workflow's literal $VARIABLES
expect_rejected "an unpinned cargo-ndk install" "MISMATCH: .github/workflows/android\.yml:[0-9]+: installs cargo-ndk without --version" \
    sed -i 's/cargo install cargo-ndk --version "\$CARGO_NDK_VERSION" --locked/cargo install cargo-ndk --locked/' .github/workflows/android.yml
expect_rejected "a minSdkVersion other than ANDROID_MIN_SDK" "minSdkVersion 24, toolchain.env's ANDROID_MIN_SDK 26" \
    sed -i 's/android:minSdkVersion="26"/android:minSdkVersion="24"/' android/AndroidManifest.xml
expect_rejected "a rust-toolchain.toml without the x86_64 target" "targets lack x86_64-linux-android" \
    sed -i 's/, "x86_64-linux-android"//' rust-toolchain.toml
say "OK: the pins agree, and each kind of disagreement is caught"
