#!/usr/bin/env bash
# Proves the names android/skia-prebuilt.sh prints against skia-bindings' own build script, for
# both Android targets of the APK, with no NDK, SDK or internet:
#
#  1. a throwaway package (in the build cache, not in the repository) depends on this crate
#     exactly as the APK build does (`default-features = false, features = ["android"]`), with a
#     copy of Cargo.lock, so Cargo's resolver gives skia-bindings the features of the real build;
#  2. `cargo check -p skia-bindings --target <triple>` compiles skia-bindings' build script with
#     those features and runs it, with SKIA_BINARIES_URL pointed at a local HTTP server that
#     records every request and answers 404;
#  3. the request it made must be exactly the URL `android/skia-prebuilt.sh --print` prints for
#     that ABI with the same template; and after the 404 the build script must stop at once with
#     "ANDROID_NDK variable not set" (its fallback, the build of Skia from source, needs
#     ANDROID_NDK): the guard android/build-apk.sh relies on to fail fast instead of building Skia
#     for an hour (it leaves ANDROID_NDK unset for ABIs with prebuilt Skia).
#
# Cost: the first run compiles skia-bindings' build dependencies for the host (bindgen, regex,
# ...; about 90 s on two cores); later runs only rerun the build script (about 5 s). They are
# compiled in a build folder of their own (HALMA_ANDROID_TARGET_DIR, default
# /var/tmp/halma-android-target), not in the shared CARGO_TARGET_DIR: nothing there is shared with
# the other builds, and the shared folder's lock made this wait minutes for them.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
say() { echo "android-skia-names: $*"; }
fail() { echo "android-skia-names: FAILED: $*" >&2; exit 1; }
export CARGO_TARGET_DIR="${HALMA_ANDROID_TARGET_DIR:-/var/tmp/halma-android-target}"
export CARGO_TERM_COLOR=never
abis="arm64-v8a x86_64" # the APK's ABIS (.github/workflows/android.yml, build-apk.sh's default)

for target in aarch64-linux-android x86_64-linux-android; do
    rustup target list --installed | grep -qx "$target" || {
        say "installing the Rust standard library for $target"
        rustup target add "$target"
    }
done

# 1. The throwaway package, in the build cache so that its build dependencies stay compiled.
probe="$CARGO_TARGET_DIR/skia-names-probe"
mkdir -p "$probe/src"
: >"$probe/src/lib.rs"
cat >"$probe/Cargo.toml" <<EOF
# Written by .ci/android-skia-names.sh: depends on halma as the Android build does.
[package]
name = "halma-skia-names-probe"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
halma = { path = "$repo", default-features = false, features = ["android"] }

[workspace]
EOF
cp Cargo.lock "$probe/Cargo.lock"
lock_version() { awk '$0 == "name = \"skia-bindings\"" { getline; gsub(/"/, "", $3); print $3 }' "$1"; }

# 2. The recording HTTP server (answers 404 to everything, logs each request's path).
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
python3 - "$work/port" "$work/requests" <<'PYTHON' &
import http.server, sys
port_file, log_file = sys.argv[1:3]
class Recorder(http.server.BaseHTTPRequestHandler):
    def record(self):
        with open(log_file, "a") as log:
            log.write(f"{self.command} {self.path}\n")
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_GET = do_HEAD = record
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
PYTHON
server_pid=$!
for _ in $(seq 1 100); do
    [ -s "$work/port" ] && break
    sleep 0.1
done
[ -s "$work/port" ] || fail "the local HTTP server did not start"
port="$(cat "$work/port")"
template="http://127.0.0.1:$port/{tag}/skia-binaries-{key}.tar.gz"
say "local server on port $port, SKIA_BINARIES_URL=$template"

# What android/skia-prebuilt.sh says, with the same template.
SKIA_BINARIES_URL="$template" ABIS="$abis" android/skia-prebuilt.sh --print | tee "$work/printed"

# 3. skia-bindings' build script, per target.
status=0
for abi in $abis; do
    case "$abi" in
        arm64-v8a) target=aarch64-linux-android ;;
        x86_64) target=x86_64-linux-android ;;
    esac
    : >"$work/requests"
    log="$work/$target.log"
    started=$SECONDS
    if (cd "$probe" && env -u ANDROID_NDK -u ANDROID_NDK_HOME -u ANDROID_NDK_ROOT -u SKIA_DEBUG \
        -u FORCE_SKIA_BUILD -u FORCE_SKIA_BINARIES_DOWNLOAD -u SKIA_SOURCE_DIR -u SKIA_BINARY_CACHE \
        SKIA_BINARIES_URL="$template" \
        cargo check --manifest-path "$probe/Cargo.toml" -p skia-bindings --target "$target") >"$log" 2>&1; then
        cat "$log"
        fail "$target: skia-bindings' build script succeeded although the server answers 404"
    fi
    asked="$(sed -n 's/^ *TRYING TO DOWNLOAD AND INSTALL SKIA BINARIES: //p' "$log" | head -n 1)"
    requested="$(sed -n 's/^\(GET\|HEAD\) //p' "$work/requests" | sort -u)"
    printed="$(sed -n "s|^skia-prebuilt: $abi: http://127.0.0.1:$port||p" "$work/printed")"
    say "$abi ($target), after $((SECONDS - started)) s:"
    say "  skia-bindings' build script: TRYING TO DOWNLOAD AND INSTALL SKIA BINARIES: $asked"
    say "  requested from the server:   ${requested:-nothing}"
    say "  skia-prebuilt.sh --print:    $printed"
    if [ -z "$requested" ] || [ "$(wc -l <<<"$requested")" -ne 1 ]; then
        sed 's/^/    /' "$log" | tail -n 40 >&2
        say "FAILED: $abi: expected one archive requested, got: ${requested:-none}" >&2
        status=1
        continue
    fi
    if [ "$requested" != "$printed" ]; then
        say "FAILED: $abi: skia-prebuilt.sh prints $printed, skia-bindings asks for $requested" >&2
        status=1
    fi
    if ! grep -q "ANDROID_NDK variable not set" "$log"; then
        sed 's/^/    /' "$log" | tail -n 40 >&2
        say "FAILED: $abi: after the failed download skia-bindings did not stop at 'ANDROID_NDK variable not set'" >&2
        status=1
    else
        say "  after the 404: $(grep -o "DOWNLOAD AND INSTALL FAILED" "$log" | head -n 1), then $(grep -o "STARTING A FULL BUILD" "$log" | head -n 1), stopped at once: ANDROID_NDK variable not set"
    fi
done
repo_version="$(lock_version Cargo.lock)"
probe_version="$(lock_version "$probe/Cargo.lock")"
[ "$repo_version" = "$probe_version" ] ||
    fail "the probe resolved skia-bindings $probe_version, the repository's Cargo.lock has $repo_version"
[ "$status" -eq 0 ] || fail "see above"
say "OK: for $abis, skia-bindings $repo_version's build script asks for exactly the archives skia-prebuilt.sh names, and stops without ANDROID_NDK instead of building Skia"
