#!/usr/bin/env bash
# Skia for ABIs that rust-skia publishes no prebuilt archive for: built from source once, then kept
# as an archive under the very name skia-bindings downloads, so that later builds (the next cargo
# step, the next workflow run through actions/cache) install it like a prebuilt one.
#
#     android/skia-cache.sh prepare DIR   # before the build
#     android/skia-cache.sh pack DIR      # after a build that built Skia from source
#
# prepare: DIR ends up with, or is promised, one archive per ABI in ABIS: an archive already in DIR
#   (restored from the cache) is used as it is; a published one is downloaded into DIR; the others
#   are left to skia-bindings' build from source. Then SKIA_BINARIES_URL points at
#   file://DIR/skia-binaries-{key}.tar.gz (skia-bindings reads file:// URLs), and, if an ABI has
#   no archive, SKIA_BUILD_FROM_SOURCE=1 (android/build-apk.sh then sets ANDROID_NDK, which the
#   build from source needs).
# pack: for each ABI without an archive in DIR, takes what skia-bindings' build script built (the
#   static libraries it tells Cargo to link and bindings.rs, from its OUT_DIR/skia, found through
#   its `output` under the Cargo target folder) and writes DIR/skia-binaries-<key>.tar.gz in the
#   layout of rust-skia's archives (skia-binaries/<files>, tag.txt, key.txt), and removes Skia's
#   build tree from that OUT_DIR (it would bloat the workflow's rust-cache). Then
#   SKIA_BUILD_FROM_SOURCE=0: every ABI has an archive, and a second build from source in the same
#   run (another profile) would only hide a broken archive.
# The variables go to GITHUB_ENV when it is set (the workflow), else they are printed as `export`
# lines to eval. The archive names come from android/skia-prebuilt.sh --print (the features Cargo
# resolves for each Android target, proven by .ci/android-skia-names.sh).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "skia-cache: $*"; }
fail() { echo "skia-cache: FAILED: $*" >&2; exit 1; }
mode="${1:-}"
dir="${2:-}"
case "$mode" in prepare | pack) ;; *) fail "usage: android/skia-cache.sh prepare|pack DIR" ;; esac
[ -n "$dir" ] || fail "usage: android/skia-cache.sh $mode DIR"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
abis="${ABIS:-arm64-v8a x86_64}"
published='https://github.com/rust-skia/skia-binaries/releases/download/{tag}/skia-binaries-{key}.tar.gz'
tag_field='{tag}' key_field='{key}'

setenv() { # NAME VALUE
    if [ -n "${GITHUB_ENV:-}" ]; then
        echo "$1=$2" >>"$GITHUB_ENV"
    else
        printf 'export %s=%q\n' "$1" "$2"
    fi
    say "$1=$2"
}

# "abi tag key" per ABI.
names="$(cd "$repo" && ABIS="$abis" SKIA_BINARIES_URL='{tag} {key}' bash android/skia-prebuilt.sh --print)"
to_build=()
while read -r _ abi tag key; do
    abi="${abi%:}"
    case "$abi" in
        arm64-v8a) triple=aarch64-linux-android ;;
        x86_64) triple=x86_64-linux-android ;;
        armeabi-v7a) triple=armv7-linux-androideabi ;;
        x86) triple=i686-linux-android ;;
        *) fail "unknown ABI $abi" ;;
    esac
    archive="$dir/skia-binaries-$key.tar.gz"
    if [ -f "$archive" ]; then
        say "$abi: $(basename "$archive") is there ($(du -h "$archive" | cut -f1))"
        continue
    fi
    if [ "$mode" = prepare ]; then
        url="${published//"$tag_field"/$tag}"
        url="${url//"$key_field"/$key}"
        if curl -fsSL --retry 3 --retry-delay 5 -o "$archive.part" "$url"; then
            mv "$archive.part" "$archive"
            say "$abi: downloaded the published $(basename "$archive") ($(du -h "$archive" | cut -f1))"
        else
            rm -f "$archive.part"
            say "$abi: no archive published or kept: skia-bindings builds Skia from source for $abi"
            to_build+=("$abi")
        fi
        continue
    fi
    # pack: the newest run of skia-bindings' build script for this target that built Skia.
    output="$(grep -l "STARTING A FULL BUILD" "${CARGO_TARGET_DIR:-$repo/target}/$triple"/*/build/skia-bindings-*/output 2>/dev/null |
        xargs -r ls -t | head -n 1)"
    [ -n "$output" ] || fail "$abi: no build of Skia from source under ${CARGO_TARGET_DIR:-$repo/target}/$triple (skia-bindings' output says STARTING A FULL BUILD)"
    libraries="$(sed -n 's/^cargo::\{0,1\}rustc-link-search=\(native=\)\{0,1\}//p' "$output" | tail -n 1)"
    [ -d "$libraries" ] || fail "$abi: the folder of the built libraries ($libraries, from $output) is gone"
    stage="$(mktemp -d)"
    mkdir "$stage/skia-binaries"
    while read -r name; do
        cp "$libraries/lib$name.a" "$stage/skia-binaries/" || fail "$abi: lib$name.a is not in $libraries"
    done < <(sed -n 's/^cargo::\{0,1\}rustc-link-lib=static=//p' "$output")
    cp "$libraries/bindings.rs" "$stage/skia-binaries/" || fail "$abi: bindings.rs is not in $libraries"
    printf '%s' "$tag" >"$stage/skia-binaries/tag.txt"
    printf '%s' "$key" >"$stage/skia-binaries/key.txt"
    tar -czf "$archive.part" -C "$stage" skia-binaries
    rm -rf "$stage"
    mv "$archive.part" "$archive"
    # The rest of that folder is Skia's build tree (objects, several hundred MB): nothing reads it
    # after this, and left in the target folder it would bloat the workflow's rust-cache.
    case "$libraries" in
        */out/skia) find "$libraries" -mindepth 1 -maxdepth 1 ! -name 'lib*.a' ! -name bindings.rs -exec rm -rf {} + ;;
    esac
    say "$abi: packed the Skia built from source as $(basename "$archive") ($(du -h "$archive" | cut -f1): $(tar -tzf "$archive" | sed -n 's|^skia-binaries/||p' | tr '\n' ' '))"
done <<<"$names"

setenv SKIA_BINARIES_URL "file://$dir/skia-binaries-{key}.tar.gz"
if [ "$mode" = prepare ] && [ "${#to_build[@]}" -gt 0 ]; then
    setenv SKIA_BUILD_FROM_SOURCE 1
    say "to build from source: ${to_build[*]} (about 40 minutes an ABI); then: android/skia-cache.sh pack $dir"
else
    setenv SKIA_BUILD_FROM_SOURCE 0
fi
