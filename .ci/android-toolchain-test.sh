#!/usr/bin/env bash
# Tests how android/build-apk.sh chooses its toolchain (android/sdk-versions.sh), without an SDK:
# a fake SDK laid out like the hosted ubuntu-24.04 image's (beta platforms and build-tools next to
# the final ones, several NDKs, one of them a beta, NDK variables pointing at other NDKs) must
# give exactly the pins of android/toolchain.env, and the overrides must be honoured.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "android-toolchain-test: $*"; }
fail() { echo "android-toolchain-test: FAILED: $*" >&2; exit 1; }
expect() { # what, expected, actual
    [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
    say "ok: $1 -> ${3:-(nothing)}"
}

# shellcheck source=android/sdk-versions.sh
. android/sdk-versions.sh
pin() { sed -n "s/^$1=//p" android/toolchain.env; }
platform_pin="$(pin ANDROID_PLATFORM)"
build_tools_pin="$(pin ANDROID_BUILD_TOOLS_VERSION)"
ndk_pin="$(pin ANDROID_NDK_VERSION)"
[ "$platform_pin" = android-36 ] || fail "android/toolchain.env pins platform '$platform_pin', the manifest's target is 36"
[ "$(pin ANDROID_MIN_SDK)" = "$(sed -n 's/.*android:minSdkVersion="\([0-9]*\)".*/\1/p' android/AndroidManifest.xml)" ] ||
    fail "ANDROID_MIN_SDK of android/toolchain.env is not the manifest's minSdkVersion"

# 1. select_version on listings (name, tab, Pkg.Revision).
tab="$(printf '\t')"
platforms="android-33-ext5
android-34
android-35
android-35-ext14
android-36
android-36-ext19
android-36.1
android-37.2-beta1
android-Baklava"
build_tools="34.0.0
35.0.0
35.0.1
36.0.0
36.1.0-rc1
37.0.0-rc2
37.0.0"
ndks="26.3.11579264${tab}26.3.11579264
27.3.13750724${tab}27.3.13750724
28.2.13676358${tab}28.2.13676358
29.0.14206865${tab}29.0.14206865
30.0.14904198${tab}30.0.14904198-beta1"

expect "platform pin android-36 among betas and newer finals" android-36 "$(select_version android-36 <<<"$platforms")"
expect "build-tools pin 36.0.0 next to 36.1.0-rc1 and 37.0.0" 36.0.0 "$(select_version 36.0.0 <<<"$build_tools")"
expect "NDK pin 28.2.13676358 next to r29 and an r30 beta" 28.2.13676358 "$(select_version 28.2.13676358 <<<"$ndks")"
expect "the pinned versions of android/toolchain.env" "android-36 36.0.0 28.2.13676358" \
    "$(select_version "$platform_pin" <<<"$platforms") $(select_version "$build_tools_pin" <<<"$build_tools") $(select_version "$ndk_pin" <<<"$ndks")"
expect "short pin 36 for build-tools: the final 36.0.0, not 36.1.0-rc1" 36.0.0 "$(select_version 36 <<<"$build_tools")"
expect "short pin 37 for build-tools: the final 37.0.0, not 37.0.0-rc2" 37.0.0 "$(select_version 37 <<<"$build_tools")"
expect "short pin 37 for platforms: only a beta exists, so the beta" android-37.2-beta1 "$(select_version 37 <<<"$platforms")"
expect "full pin android-37: no such platform, and no other is taken" "" "$(select_version android-37 <<<"$platforms")"
expect "short pin 36 for platforms: android-36 itself, not android-36.1" android-36 "$(select_version 36 <<<"$platforms")"
expect "short pin 30 for NDKs: a beta by its Pkg.Revision only" 30.0.14904198 "$(select_version 30 <<<"$ndks")"
expect "short pin 29 for NDKs" 29.0.14206865 "$(select_version 29 <<<"$ndks")"
expect "short pin 3 matches no 3x version" "" "$(select_version 3 <<<"$build_tools")"
expect "a missing pin gives nothing" "" "$(select_version 38.0.0 <<<"$build_tools")"
expect "an exact name wins over its extension platforms" android-35 "$(select_version android-35 <<<"$platforms")"
expect "short pin 34: android-34" android-34 "$(select_version 34 <<<"$platforms")"
expect "short pin 33: no android-33, so its newest final extension platform" android-33-ext5 "$(select_version 33 <<<"$platforms")"
is_preview android-Baklava || fail "a codename platform must count as a preview"
is_preview 37.0.0 && fail "37.0.0 is a final release"
is_preview 30.0.14904198 "30.0.14904198-beta1" || fail "an NDK whose revision says beta1 is a preview"
say "ok: previews: codename platforms, -rc/-beta names, beta revisions"

# 2. build-apk.sh --toolchain on a fake SDK.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sdk="$work/sdk"
while read -r name; do
    mkdir -p "$sdk/platforms/$name" && : >"$sdk/platforms/$name/android.jar"
done <<<"$platforms"
while read -r name; do
    mkdir -p "$sdk/build-tools/$name"
    for tool in aapt2 zipalign apksigner d8; do
        printf '#!/bin/sh\n' >"$sdk/build-tools/$name/$tool" && chmod +x "$sdk/build-tools/$name/$tool"
    done
    printf 'Pkg.Revision = %s\n' "$(printf '%s' "$name" | sed 's/-rc/ rc/')" >"$sdk/build-tools/$name/source.properties"
done <<<"$build_tools"
while IFS="$tab" read -r name revision; do
    mkdir -p "$sdk/ndk/$name/toolchains/llvm/prebuilt/linux-x86_64/bin"
    printf 'Pkg.Desc = Android NDK\nPkg.Revision = %s\n' "$revision" >"$sdk/ndk/$name/source.properties"
    printf '#!/bin/sh\n' >"$sdk/ndk/$name/toolchains/llvm/prebuilt/linux-x86_64/bin/llvm-readelf"
    chmod +x "$sdk/ndk/$name/toolchains/llvm/prebuilt/linux-x86_64/bin/llvm-readelf"
done <<<"$ndks"

toolchain() { # environment assignments...; prints build-apk.sh --toolchain's output
    env -u ANDROID_PLATFORM -u ANDROID_BUILD_TOOLS_VERSION -u ANDROID_NDK_VERSION -u ANDROID_SDK_ROOT \
        ANDROID_HOME="$sdk" ANDROID_NDK_HOME= ANDROID_NDK_ROOT= ANDROID_NDK= "$@" \
        bash android/build-apk.sh --toolchain 2>&1
}
field() { # the name a --toolchain line gives for platform, build-tools or NDK
    sed -n "s/.*: platform \([^ ]*\) ([^)]*), build-tools \([^ ]*\) ([^)]*), NDK \([^ ]*\) (.*/\1 \2 \3/p" | head -n 1
}

# As on the runner image: ANDROID_NDK_HOME on the newest NDK, ANDROID_NDK_ROOT on the default one.
output="$(toolchain ANDROID_NDK_HOME="$sdk/ndk/29.0.14206865" ANDROID_NDK_ROOT="$sdk/ndk/27.3.13750724")"
printf '%s\n' "$output" | sed 's/^/    /'
expect "build-apk.sh --toolchain on the runner-like SDK" "android-36 36.0.0 28.2.13676358" "$(field <<<"$output")"
grep -q "note: overriding ANDROID_NDK_HOME=.*29.0.14206865 ANDROID_NDK_ROOT=.*27.3.13750724" <<<"$output" ||
    fail "build-apk.sh did not say that it overrides the NDK variables that point elsewhere"

output="$(toolchain ANDROID_BUILD_TOOLS_VERSION=35 ANDROID_PLATFORM=android-36.1 ANDROID_NDK_VERSION=27)"
expect "overrides of all three (full build, not --package-only)" "android-36.1 35.0.1 27.3.13750724" "$(field <<<"$output")"

# The pinned NDK outside $ANDROID_HOME/ndk, named by ANDROID_NDK_HOME, is used.
mv "$sdk/ndk/28.2.13676358" "$work/android-ndk-r28c"
output="$(toolchain ANDROID_NDK_HOME="$work/android-ndk-r28c" ANDROID_NDK_ROOT="$sdk/ndk/27.3.13750724")"
expect "the pinned NDK through ANDROID_NDK_HOME" "android-36 36.0.0 28.2.13676358" "$(field <<<"$output")"
grep -q "NDK 28.2.13676358 ($work/android-ndk-r28c)" <<<"$output" || fail "not the NDK of ANDROID_NDK_HOME: $output"

# Missing pins fail and say what to install; a wrong NDK in the variables is not taken instead.
if output="$(toolchain ANDROID_NDK_HOME="$sdk/ndk/29.0.14206865")"; then
    fail "build-apk.sh accepted a missing pinned NDK: $output"
fi
grep -q "sdkmanager 'ndk;28.2.13676358'" <<<"$output" || fail "no sdkmanager hint for the missing NDK: $output"
say "ok: a missing pinned NDK fails: $(head -n 1 <<<"$output")"
rm -r "$sdk/platforms/android-36" "$sdk/build-tools/36.0.0"
mv "$work/android-ndk-r28c" "$sdk/ndk/28.2.13676358"
if output="$(toolchain)"; then
    fail "build-apk.sh accepted a missing pinned platform and build-tools: $output"
fi
if ! grep -q "sdkmanager 'platforms;android-36'" <<<"$output" || ! grep -q "sdkmanager 'build-tools;36.0.0'" <<<"$output"; then
    fail "no sdkmanager hint for the missing platform and build-tools: $output"
fi
grep -q "36.1.0-rc1" <<<"$output" || fail "the message does not list what was found: $output"
say "ok: a missing pinned platform and build-tools fail and are named, never replaced by android-36.1, android-37.2-beta1 or 37.0.0"

say "OK"
