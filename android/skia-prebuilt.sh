#!/usr/bin/env bash
# Preflight: does rust-skia publish the prebuilt Skia that the Android build will ask for, for every
# ABI in ABIS? Without it skia-bindings silently builds Skia from source (tens of minutes an ABI,
# python, ninja, git), which would run into the workflow's timeout an hour later. This asks first:
#
#     ABIS="arm64-v8a x86_64" android/skia-prebuilt.sh          # check (HTTP HEAD), fail if missing
#     android/skia-prebuilt.sh --print                          # only print the archives' names
#
# The archive's name is formed as skia-bindings' build script forms it (build_support/
# binary_cache: binaries.rs `key`, download.rs, env.rs, features.rs in skia-bindings 0.153.3):
#     {SKIA_BINARIES_URL or https://github.com/rust-skia/skia-binaries/releases/download/{tag}/skia-binaries-{key}.tar.gz}
#     tag = the skia-bindings crate's version
#     key = <first 20 hex digits of the rust-skia commit in the crate's .cargo_vcs_info.json>
#           -<Rust target>-<skia-bindings' Cargo features that select Skia code, sorted, '-'-joined,
#           with webp/jpeg/freetype features shortened: jpeg-decode -> jpegd, ...>
# The features are the ones Cargo resolves for the Android build (`cargo metadata` with the
# `android` feature, filtered for each target), so a Slint update that asks for other features
# changes the name checked here too. Needs cargo, python3, curl and network (crates and GitHub).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "skia-prebuilt: $*"; }
print_only=false
case "${1:-}" in
    --print) print_only=true ;;
    "") ;;
    *) echo "usage: android/skia-prebuilt.sh [--print]" >&2; exit 2 ;;
esac
abis="${ABIS:-arm64-v8a x86_64}"
# skia-bindings' default (env.rs); SKIA_BINARIES_URL replaces it as it does for skia-bindings.
default_template='https://github.com/rust-skia/skia-binaries/releases/download/{tag}/skia-binaries-{key}.tar.gz'
known_skia_bindings=0.153.3 # the version whose build script the key formula above was read from

missing=()
metadata="$(mktemp)"
trap 'rm -f "$metadata"' EXIT
for abi in $abis; do
    case "$abi" in
        arm64-v8a) target=aarch64-linux-android ;;
        x86_64) target=x86_64-linux-android ;;
        armeabi-v7a) target=armv7-linux-androideabi ;;
        x86) target=i686-linux-android ;;
        *) echo "skia-prebuilt: unknown ABI $abi" >&2; exit 2 ;;
    esac
    (cd "$repo" && cargo metadata --format-version 1 --locked --filter-platform "$target" \
        --no-default-features --features android) >"$metadata"
    read -r tag key < <(python3 - "$target" "$metadata" <<'PYTHON'
import json, os, sys
target = sys.argv[1]
with open(sys.argv[2]) as f:
    metadata = json.load(f)
package = next((p for p in metadata["packages"] if p["name"] == "skia-bindings"), None)
if package is None:
    sys.exit("skia-prebuilt: skia-bindings is not a dependency of the Android build")
node = next(n for n in metadata["resolve"]["nodes"] if n["id"] == package["id"])
vcs = os.path.join(os.path.dirname(package["manifest_path"]), ".cargo_vcs_info.json")
with open(vcs) as f:
    commit = json.load(f)["git"]["sha1"]
# The features skia-bindings' build script turns into the key (Features::from_cargo_env), and
# their short names (feature::KEY_REPLACEMENTS).
keyed = ["pdf", "gl", "egl", "wayland", "x11", "vulkan", "metal", "d3d", "ganesh", "graphite",
         "textlayout", "svg", "skottie", "webp-encode", "webp-decode", "embed-freetype",
         "freetype-woff2", "jpeg-encode", "jpeg-decode"]
short = {"webp-encode": "webpe", "webp-decode": "webpd", "embed-freetype": "ftembed",
         "freetype-woff2": "ftwoff2", "jpeg-encode": "jpege", "jpeg-decode": "jpegd"}
features = sorted(short.get(f, f) for f in node["features"] if f in keyed)
print(package["version"], "-".join([commit[:20], target] + (["-".join(features)] if features else [])))
PYTHON
    )
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
    case "$url" in
        file://*) if [ -f "${url#file://}" ]; then status=200; else status=404; fi ;;
        *) status="$(curl -sSIL --retry 3 --retry-delay 5 -o /dev/null -w '%{http_code}' "$url" || echo failed)" ;;
    esac
    if [ "$status" = 200 ]; then
        say "$abi: found prebuilt Skia $tag/$key"
    else
        say "$abi: MISSING prebuilt Skia (HTTP $status): $url"
        missing+=("$abi ($target)")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "skia-prebuilt: no prebuilt Skia for ${missing[*]}: skia-bindings would build Skia from source (tens of minutes per ABI). Drop the ABI from ABIS, or provide the archive through SKIA_BINARIES_URL (see android/README.md)." >&2
    exit 1
fi
$print_only || say "OK: prebuilt Skia exists for every ABI in ABIS ($abis)"
