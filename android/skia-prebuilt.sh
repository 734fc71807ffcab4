#!/usr/bin/env bash
# Preflight: does rust-skia publish the prebuilt Skia that the Android build will ask for, for every
# ABI in ABIS? Without it skia-bindings builds Skia from source (about 40 minutes an ABI on a hosted
# runner; python, ninja, git, the NDK). This asks first, in seconds:
#
#     ABIS="arm64-v8a x86_64" android/skia-prebuilt.sh          # check, fail if one is missing
#     android/skia-prebuilt.sh --warn                           # the workflow: warn, do not fail
#     android/skia-prebuilt.sh --print                          # only print the archives' names
#
# The question is a one-byte ranged GET (`curl -r 0-0`: 206, or 200 from a server that ignores
# ranges, means the archive is there), not a HEAD: GitHub redirects release downloads to a
# presigned storage URL that is signed for GET only, so a HEAD can be refused for an archive that
# exists. --warn prints a `::warning::` per missing archive and exits 0, so the build goes on and
# builds Skia from source (android/skia-cache.sh keeps the result for later runs); with
# GITHUB_OUTPUT set it writes `missing=<ABIs without an archive>` and `cache-key=<a key naming every
# ABI's archive>` for the workflow's cache.
#
# The archive's name is formed as skia-bindings' build script forms it (build_support/
# binary_cache: binaries.rs `key`, download.rs, env.rs, features.rs in skia-bindings 0.153.3):
#     {SKIA_BINARIES_URL or https://github.com/rust-skia/skia-binaries/releases/download/{tag}/skia-binaries-{key}.tar.gz}
#     tag = the skia-bindings crate's version
#     key = <first 20 hex digits of the rust-skia commit in the crate's .cargo_vcs_info.json>
#           -<Rust target>-<skia-bindings' Cargo features that select Skia code, sorted, '-'-joined,
#           with webp/jpeg/freetype features shortened: jpeg-decode -> jpegd, ...>
# The features are the ones Cargo's resolver (the workspace's, version 2) gives skia-bindings in the
# Android build of each target: `cargo tree --target <triple> --no-default-features --features
# android -i skia-bindings`, the same resolution as cargo-ndk's `cargo build --target <triple> ...`.
# Not `cargo metadata`'s features: those merge every platform's (d3d for Windows, metal for Apple)
# and name archives that do not exist. .ci/android-skia-names.sh runs skia-bindings' own build script for both Android targets
# against a local HTTP server and checks that it asks for exactly the names printed here.
# Needs cargo, python3, curl and network (crates and GitHub); --print needs no GitHub.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "skia-prebuilt: $*"; }
print_only=false
warn_only=false
case "${1:-}" in
    --print) print_only=true ;;
    --warn) warn_only=true ;;
    "") ;;
    *) echo "usage: android/skia-prebuilt.sh [--print | --warn]" >&2; exit 2 ;;
esac
abis="${ABIS:-arm64-v8a x86_64}"
# skia-bindings' default (env.rs); SKIA_BINARIES_URL replaces it as it does for skia-bindings.
default_template='https://github.com/rust-skia/skia-binaries/releases/download/{tag}/skia-binaries-{key}.tar.gz'
known_skia_bindings=0.153.3 # the version whose build script the key formula above was read from

missing=()
missing_abis=()
archives=()
metadata="$(mktemp)"
trap 'rm -f "$metadata"' EXIT
# Where skia-bindings' sources are (its .cargo_vcs_info.json holds the rust-skia commit): any
# platform's metadata will do for that, only its features are wrong.
(cd "$repo" && cargo metadata --format-version 1 --locked --no-default-features --features android) >"$metadata"
for abi in $abis; do
    case "$abi" in
        arm64-v8a) target=aarch64-linux-android ;;
        x86_64) target=x86_64-linux-android ;;
        armeabi-v7a) target=armv7-linux-androideabi ;;
        x86) target=i686-linux-android ;;
        *) echo "skia-prebuilt: unknown ABI $abi" >&2; exit 2 ;;
    esac
    # The features Cargo resolves for skia-bindings in this target's build ("name vX.Y.Z|f1,f2,...").
    resolved="$(cd "$repo" && cargo tree --locked --target "$target" --no-default-features --features android \
        -i skia-bindings -e normal --depth 0 --prefix none --format '{p}|{f}' | sed 's/ (\*)$//' | sort -u)"
    [ -n "$resolved" ] || { echo "skia-prebuilt: skia-bindings is not in the Android build for $target" >&2; exit 1; }
    [ "$(wc -l <<<"$resolved")" -eq 1 ] || { printf 'skia-prebuilt: skia-bindings twice in the build for %s:\n%s\n' "$target" "$resolved" >&2; exit 1; }
    read -r tag key < <(python3 - "$target" "$metadata" "$resolved" <<'PYTHON'
import json, os, sys
target, metadata_path, resolved = sys.argv[1:4]
package_text, features_text = resolved.split("|", 1)
version = package_text.split()[1].lstrip("v")
with open(metadata_path) as f:
    metadata = json.load(f)
package = next((p for p in metadata["packages"] if p["name"] == "skia-bindings" and p["version"] == version), None)
if package is None:
    sys.exit(f"skia-prebuilt: skia-bindings {version} is not in cargo metadata")
vcs = os.path.join(os.path.dirname(package["manifest_path"]), ".cargo_vcs_info.json")
with open(vcs) as f:
    commit = json.load(f)["git"]["sha1"]
# The features skia-bindings' build script turns into the key (Features::from_cargo_env), and
# their short names (feature::KEY_REPLACEMENTS). It drops embed-freetype and freetype-woff2 on
# targets without FreeType (platform::redundant_features); Android uses FreeType, so none here.
# No "-static" (Android targets are not crt-static) and no "-debug" (SKIA_DEBUG is not set).
keyed = ["pdf", "gl", "egl", "wayland", "x11", "vulkan", "metal", "d3d", "ganesh", "graphite",
         "textlayout", "svg", "skottie", "webp-encode", "webp-decode", "embed-freetype",
         "freetype-woff2", "jpeg-encode", "jpeg-decode"]
short = {"webp-encode": "webpe", "webp-decode": "webpd", "embed-freetype": "ftembed",
         "freetype-woff2": "ftwoff2", "jpeg-encode": "jpege", "jpeg-decode": "jpegd"}
resolved_features = [f for f in features_text.split(",") if f]
features = sorted(short.get(f, f) for f in resolved_features if f in keyed)
print(version, "-".join([commit[:20], target] + (["-".join(features)] if features else [])))
PYTHON
    )
    [ -n "${SKIA_DEBUG:-}" ] && [ "$SKIA_DEBUG" != 0 ] && say "note: SKIA_DEBUG is set: skia-bindings would ask for a -debug archive, which rust-skia does not publish"
    [ "$tag" = "$known_skia_bindings" ] ||
        say "note: skia-bindings $tag, the name formula was read from $known_skia_bindings's build script; check it still holds if this fails"
    template="${SKIA_BINARIES_URL:-$default_template}"
    tag_field='{tag}' key_field='{key}'
    url="${template//"$tag_field"/$tag}"
    url="${url//"$key_field"/$key}"
    if $print_only; then
        say "$abi: $url"
        continue
    fi
    archives+=("$key")
    case "$url" in
        file://*) if [ -f "${url#file://}" ]; then status=200; else status=404; fi ;;
        # The first byte of the archive, following GitHub's redirect to its storage.
        *)
            status="$(curl -sSL --retry 3 --retry-delay 5 -r 0-0 -o /dev/null -w '%{http_code}' "$url" || true)"
            [ -n "$status" ] && [ "$status" != 000 ] || status="no answer"
            ;;
    esac
    if [ "$status" = 206 ] || [ "$status" = 200 ]; then
        say "$abi: found prebuilt Skia $tag/$key"
    else
        say "$abi: MISSING prebuilt Skia (HTTP $status): $url"
        missing+=("$abi ($target)")
        missing_abis+=("$abi")
        if $warn_only && [ -n "${GITHUB_ACTIONS:-}" ]; then
            echo "::warning title=No prebuilt Skia for $abi::$url answered HTTP $status: skia-bindings builds Skia from source for $abi (about 40 min), kept in the cache for later runs (android/skia-cache.sh)"
        fi
    fi
done
$print_only && exit 0
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "missing=${missing_abis[*]}"
    # Cache keys may not hold commas; the archives' names say everything the build depends on.
    (IFS=_ && echo "cache-key=skia-binaries-$tag-${archives[*]}")
fi >>"${GITHUB_OUTPUT:-/dev/null}"
if [ "${#missing[@]}" -gt 0 ]; then
    echo "skia-prebuilt: no prebuilt Skia for ${missing[*]}: skia-bindings would build Skia from source (about 40 minutes per ABI on a hosted runner). Drop the ABI from ABIS, provide the archive through SKIA_BINARIES_URL, or let android/skia-cache.sh build and keep it (see android/README.md)." >&2
    $warn_only && exit 0
    exit 1
fi
say "OK: prebuilt Skia exists for every ABI in ABIS ($abis)"
