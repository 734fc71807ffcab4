#!/usr/bin/env bash
# Checks a built APK the way an old phone would load it, before any emulator runs:
#
#     android/check-apk.sh target/android/halma-<version>-debug.apk
#
# 1. `aapt2 dump badging`: the package, minSdkVersion and targetSdkVersion, the label, the launchable
#    activity and the native code (the ABIs of ABIS) are what the manifest and the build promise;
#    classes.dex holds the activity class the manifest names.
# 2. For each libhalma.so in the APK, with the NDK's llvm-readelf:
#    - every NEEDED library is a system library: one of the NDK's stub libraries for the minimum
#      API level (sysroot/usr/lib/<triple>/<min-sdk>/), so nothing (libc++_shared.so, a Skia
#      library) is expected that the APK does not carry and the phone does not have;
#    - every undefined, non-weak dynamic symbol is defined by one of those NEEDED stub libraries at
#      the minimum API level: a function added in a later Android (e.g. API 28's
#      `getrandom`... or 29's `ANativeWindow_getBuffersDataSpace`) would make the library fail to
#      load on Android 8 with "cannot locate symbol".
# Tools come from the pinned SDK and NDK (android/toolchain.env) under ANDROID_HOME, or from AAPT2,
# READELF and NDK_SYSROOT_LIB (a folder with <triple>/<api>/lib*.so), which the CI's stand-in check
# uses. ABIS (default "arm64-v8a x86_64") is what the APK must contain.
set -euo pipefail
android_dir="$(cd "$(dirname "$0")" && pwd)"
say() { echo "check-apk: $*"; }
fail() { echo "check-apk: FAILED: $*" >&2; exit 1; }

apk="${1:-}"
[ -f "$apk" ] || fail "usage: android/check-apk.sh <apk> (got '${apk}')"
apk="$(cd "$(dirname "$apk")" && pwd)/$(basename "$apk")" # absolute: unzip runs in another folder
pinned() { sed -n "s/^$1=//p" "$android_dir/toolchain.env" | tail -n 1; }
min_sdk="${ANDROID_MIN_SDK:-$(pinned ANDROID_MIN_SDK)}"
target_sdk="$(sed -n 's/.*android:targetSdkVersion="\([0-9]*\)".*/\1/p' "$android_dir/AndroidManifest.xml")"
package="$(sed -n 's/.*package="\([^"]*\)".*/\1/p' "$android_dir/AndroidManifest.xml")"
abis="${ABIS:-arm64-v8a x86_64}"
sdk="${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}"
aapt2="${AAPT2:-$sdk/build-tools/${ANDROID_BUILD_TOOLS_VERSION:-$(pinned ANDROID_BUILD_TOOLS_VERSION)}/aapt2}"
ndk="${ANDROID_NDK_HOME:-$sdk/ndk/${ANDROID_NDK_VERSION:-$(pinned ANDROID_NDK_VERSION)}}"
readelf="${READELF:-}"
sysroot_lib="${NDK_SYSROOT_LIB:-}"
for prebuilt in "$ndk"/toolchains/llvm/prebuilt/*; do
    [ -n "$readelf" ] || readelf="$prebuilt/bin/llvm-readelf"
    [ -n "$sysroot_lib" ] || sysroot_lib="$prebuilt/sysroot/usr/lib"
done
[ -x "$aapt2" ] || fail "no aapt2 at $aapt2 (set ANDROID_HOME, or AAPT2)"
command -v "$readelf" >/dev/null 2>&1 || fail "no llvm-readelf at '$readelf' (set ANDROID_NDK_HOME, or READELF)"
[ -d "$sysroot_lib" ] || fail "no NDK sysroot libraries at '$sysroot_lib' (set ANDROID_NDK_HOME, or NDK_SYSROOT_LIB)"

# 1. The manifest as Android reads it.
badging="$("$aapt2" dump badging "$apk")"
printf '%s\n' "$badging" | grep -E "^(package|sdkVersion|targetSdkVersion|application-label|application-label-fr|launchable-activity|native-code|uses-feature)" |
    sed 's/^/check-apk: badging: /'
expect_badging() { # description, extended regular expression
    grep -Eq "$2" <<<"$badging" || fail "aapt2 dump badging: $1 (no line matching $2)"
}
expect_badging "package $package" "^package: name='$package' "
expect_badging "minSdkVersion $min_sdk" "^(sdkVersion|minSdkVersion):'$min_sdk'$"
expect_badging "targetSdkVersion $target_sdk" "^targetSdkVersion:'$target_sdk'$"
expect_badging "the label Halma" "^application-label:'Halma'$"
expect_badging "the launcher activity" "^launchable-activity: name='org.halma.app.HalmaActivity'"
native="$(sed -n "s/^native-code: //p" <<<"$badging" | tr -d "'")"
for abi in $abis; do
    grep -qw -- "$abi" <<<"$native" || fail "aapt2 dump badging: native code '$native' lacks $abi"
done
# The activity's class, which the manifest names, is in the APK's code (d8 writes each class's
# type descriptor into the dex file's string table).
unzip -p "$apk" classes.dex 2>/dev/null | grep -aq 'Lorg/halma/app/HalmaActivity;' ||
    fail "classes.dex is missing or lacks org.halma.app.HalmaActivity"
say "OK: package $package, SDK $min_sdk..$target_sdk, label, launcher, activity code, native code: $native"

# 2. The libraries against the NDK's stub libraries of the minimum API level.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && unzip -q "$apk" 'lib/*')
triple_of() {
    case "$1" in
        arm64-v8a) echo aarch64-linux-android ;;
        x86_64) echo x86_64-linux-android ;;
        armeabi-v7a) echo arm-linux-androideabi ;;
        x86) echo i686-linux-android ;;
        *) return 1 ;;
    esac
}
dynamic_symbols() { # library; prints "binding section name" for each dynamic symbol, name without @version
    "$readelf" --dyn-syms -W "$1" | awk '$1 ~ /^[0-9]+:$/ && NF >= 8 { name = $8; sub(/@.*/, "", name); print $5, $7, name }'
}
for abi in $abis; do
    so="$work/lib/$abi/libhalma.so"
    [ -f "$so" ] || fail "the APK has no lib/$abi/libhalma.so"
    triple="$(triple_of "$abi")" || fail "unknown ABI $abi"
    stubs="$sysroot_lib/$triple/$min_sdk"
    [ -d "$stubs" ] || fail "no NDK stub libraries for API $min_sdk at $stubs"
    mapfile -t needed < <("$readelf" -dW "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    say "$abi: libhalma.so NEEDED: ${needed[*]}"
    : >"$work/provided"
    for library in "${needed[@]}"; do
        [ -f "$stubs/$library" ] ||
            fail "$abi: libhalma.so needs $library, which is not a system library of API $min_sdk (not in $stubs)"
        dynamic_symbols "$stubs/$library" | awk '$2 != "UND" { print $3 }' >>"$work/provided"
    done
    sort -u -o "$work/provided" "$work/provided"
    dynamic_symbols "$so" | awk '$2 == "UND" && $3 != "" && $1 != "WEAK" { print $3 }' | sort -u >"$work/undefined"
    dynamic_symbols "$so" | awk '$2 == "UND" && $3 != "" && $1 == "WEAK" { print $3 }' | sort -u >"$work/weak"
    comm -23 "$work/undefined" "$work/provided" >"$work/unresolved"
    if [ -s "$work/unresolved" ]; then
        sed 's/^/  /' "$work/unresolved" >&2
        fail "$abi: libhalma.so uses $(wc -l <"$work/unresolved") symbol(s) that the NEEDED libraries of API $min_sdk do not define (above): it would not load on Android $min_sdk"
    fi
    say "$abi: all $(wc -l <"$work/undefined") undefined symbols of libhalma.so are in the API-$min_sdk stubs of ${needed[*]}; $(wc -l <"$work/weak") weak ones may be missing at run time (looked up before use)"
done
say "OK: $apk"
