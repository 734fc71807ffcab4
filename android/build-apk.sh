#!/usr/bin/env bash
# Builds the Halma Android app as a debug-signed APK for arm64-v8a (phones, tablets) and x86_64
# (emulators):
#
#     ANDROID_HOME=~/Android/Sdk ANDROID_NDK_HOME=~/Android/Sdk/ndk/<version> android/build-apk.sh
#
# Steps: cargo-ndk builds libhalma.so per ABI with the `android` feature; aapt2 compiles
# android/res and links it with android/AndroidManifest.xml; zip adds the libraries (stored
# uncompressed); zipalign aligns them to 16 KiB pages; apksigner signs with the debug key.
# No Gradle: the app has no Java code of its own (Slint embeds its helper in the library).
#
# Options (environment):
#   ABIS="arm64-v8a x86_64"   which ABIs to build (arm64-v8a, x86_64, armeabi-v7a, x86)
#   PROFILE=release           Cargo profile for the Rust code (`dev` gives a huge, slow library)
#   DEBUG_KEYSTORE=~/.android/debug.keystore   created with the standard debug key if missing
#   SKIA_BINARIES_URL=file:///path/skia-binaries.tar.gz   prebuilt Skia for offline machines
# Arguments:
#   --package-only   skip the Rust build; package the libraries of the previous build
#   --check          only check the prerequisites
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
android_dir="$repo/android"
out="${CARGO_TARGET_DIR:-$repo/target}/android"
abis="${ABIS:-arm64-v8a x86_64}"
profile="${PROFILE:-release}"
min_sdk=26     # must match minSdkVersion in AndroidManifest.xml
min_platform=35 # the SDK platform to link against: at least targetSdkVersion
lib_name=halma # android.app.lib_name in AndroidManifest.xml, the crate's library name

package_only=false
check_only=false
for argument in "$@"; do
    case "$argument" in
        --package-only) package_only=true ;;
        --check) check_only=true ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "build-apk: unknown argument '$argument' (see --help)" >&2; exit 2 ;;
    esac
done

rust_target_of() {
    case "$1" in
        arm64-v8a) echo aarch64-linux-android ;;
        x86_64) echo x86_64-linux-android ;;
        armeabi-v7a) echo armv7-linux-androideabi ;;
        x86) echo i686-linux-android ;;
        *) return 1 ;;
    esac
}

# The highest-numbered subdirectory of $1 whose name is a version (35.0.0, android-36, ...)
# and that contains $2, or nothing.
newest_with() {
    local parent="$1" wanted="$2" best=""
    [ -d "$parent" ] || return 0
    best="$(find "$parent" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null |
        sort -V | while read -r name; do
            [ -e "$parent/$name/$wanted" ] && echo "$name"
        done | tail -n 1)"
    echo "$best"
}

# ---------------------------------------------------------------------------------------------
# Prerequisites: collect everything that is missing, then report it all at once.
missing=()
need() { missing+=("$1"); }

sdk="${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}"
if [ -z "$sdk" ]; then
    need "ANDROID_HOME is not set: point it at the Android SDK (e.g. ~/Android/Sdk)"
elif [ ! -d "$sdk" ]; then
    need "ANDROID_HOME=$sdk is not a directory"
fi

ndk="${ANDROID_NDK_HOME:-${ANDROID_NDK_ROOT:-}}"
if [ -z "$ndk" ] && [ -n "$sdk" ] && [ -d "$sdk/ndk" ]; then
    newest_ndk="$(newest_with "$sdk/ndk" source.properties)"
    [ -n "$newest_ndk" ] && ndk="$sdk/ndk/$newest_ndk"
fi
if [ -z "$ndk" ]; then
    need "ANDROID_NDK_HOME is not set and no NDK is in \$ANDROID_HOME/ndk: install one with sdkmanager ('ndk;<version>', r28 or newer recommended, r23 at least) and set ANDROID_NDK_HOME"
elif [ ! -f "$ndk/source.properties" ]; then
    need "ANDROID_NDK_HOME=$ndk is not an NDK (no source.properties)"
fi

build_tools=""
platform=""
if [ -n "$sdk" ] && [ -d "$sdk" ]; then
    build_tools_version="$(newest_with "$sdk/build-tools" aapt2)"
    if [ -z "$build_tools_version" ] || [ "$(printf '%s\n' "$build_tools_version" 35 | sort -V | head -n 1)" != 35 ]; then
        need "SDK build-tools 35 or newer (aapt2, zipalign -P, apksigner, d8): sdkmanager 'build-tools;35.0.0'${build_tools_version:+ (found only $build_tools_version)}"
    else
        build_tools="$sdk/build-tools/$build_tools_version"
        for tool in aapt2 zipalign apksigner; do
            [ -x "$build_tools/$tool" ] || need "$build_tools/$tool is missing or not executable"
        done
    fi
    platform_name="$(newest_with "$sdk/platforms" android.jar)"
    platform_level="${platform_name#android-}"
    platform_level="${platform_level%%[!0-9]*}" # android-36.1, android-36-ext19 -> 36
    if [ -z "$platform_name" ] || [ -z "$platform_level" ] || [ "$platform_level" -lt "$min_platform" ]; then
        need "SDK platform android-$min_platform or newer: sdkmanager 'platforms;android-$min_platform'${platform_name:+ (found only $platform_name)}"
    else
        platform="$sdk/platforms/$platform_name/android.jar"
    fi
fi

for tool in javac keytool; do
    command -v "$tool" >/dev/null 2>&1 ||
        need "$tool not found: install a JDK (17 or newer; Slint's build compiles its Java helper, keytool makes the debug key)"
done
command -v zip >/dev/null 2>&1 || need "zip not found: install it (e.g. apt-get install zip)"
if ! command -v cargo >/dev/null 2>&1; then
    need "cargo not found: install Rust with rustup"
else
    if ! $package_only; then
        cargo ndk --version >/dev/null 2>&1 || need "cargo-ndk not found: cargo install cargo-ndk --locked"
        installed_targets="$(rustup target list --installed 2>/dev/null || true)"
        for abi in $abis; do
            if ! target="$(rust_target_of "$abi")"; then
                need "unknown ABI '$abi' in ABIS (use arm64-v8a, x86_64, armeabi-v7a or x86)"
            elif ! grep -qx "$target" <<<"$installed_targets"; then
                need "Rust target $target (for $abi) is not installed: rustup target add $target"
            fi
        done
    fi
fi
if $package_only; then
    for abi in $abis; do
        [ -f "$out/lib/$abi/lib$lib_name.so" ] ||
            need "--package-only: $out/lib/$abi/lib$lib_name.so is missing; build without --package-only first"
    done
fi

if [ "${#missing[@]}" -gt 0 ]; then
    {
        echo "build-apk: cannot build the APK, prerequisites are missing:"
        printf '  - %s\n' "${missing[@]}"
        echo "See android/README.md."
    } >&2
    exit 1
fi
echo "build-apk: SDK $sdk, NDK $ndk, build-tools $build_tools, platform $platform"
if $check_only; then
    echo "build-apk: all prerequisites found"
    exit 0
fi
if [ -z "${SKIA_BINARIES_URL:-}" ]; then
    echo "build-apk: note: the first build downloads prebuilt Skia (skia-bindings) from GitHub; set SKIA_BINARIES_URL for an offline build"
fi

# ---------------------------------------------------------------------------------------------
# 1. The native library, per ABI, with Slint's Android backend.
if ! $package_only; then
    rm -rf "${out:?}/lib"
    target_args=()
    for abi in $abis; do
        target_args+=(-t "$abi")
        # 16 KiB page alignment (required on Android 15+ devices with 16 KiB pages); NDK r28
        # and newer do this by default, older ones need the flag.
        var="CARGO_TARGET_$(rust_target_of "$abi" | tr 'a-z-' 'A-Z_')_RUSTFLAGS"
        export "$var"="${!var:-} -C link-arg=-Wl,-z,max-page-size=16384"
    done
    profile_args=(--profile "$profile")
    # cargo-ndk exports ANDROID_PLATFORM=$min_sdk for the C toolchain; Slint's build script would then
    # look for platforms/android-$min_sdk. Point it at the platform found above instead.
    export ANDROID_HOME="$sdk" ANDROID_NDK_HOME="$ndk" ANDROID_JAR="$platform"
    export ANDROID_BUILD_TOOLS_VERSION="${build_tools##*/}"
    # Release builds carry no debug info: a library with it is several hundred MB.
    export CARGO_PROFILE_RELEASE_STRIP="${CARGO_PROFILE_RELEASE_STRIP:-debuginfo}"
    (
        cd "$repo"
        cargo ndk "${target_args[@]}" -P "$min_sdk" -o "$out/lib" \
            build "${profile_args[@]}" --lib --no-default-features --features android
    )
fi
for abi in $abis; do
    [ -f "$out/lib/$abi/lib$lib_name.so" ] || {
        echo "build-apk: the build did not produce $out/lib/$abi/lib$lib_name.so" >&2
        exit 1
    }
done

# ---------------------------------------------------------------------------------------------
# 2. Resources and manifest.
version="$(sed -n 's/^version = "\([^"]*\)".*/\1/p' "$repo/Cargo.toml" | head -n 1)"
IFS=. read -r major minor patch <<<"${version%%-*}"
version_code=$((major * 10000 + minor * 100 + patch))
work="$out/apk-work"
rm -rf "$work"
mkdir -p "$work"
"$build_tools/aapt2" compile --dir "$android_dir/res" -o "$work/resources.zip"
"$build_tools/aapt2" link -o "$work/unaligned.apk" \
    -I "$platform" \
    --manifest "$android_dir/AndroidManifest.xml" \
    --version-name "$version" --version-code "$version_code" \
    --debug-mode \
    "$work/resources.zip"

# 3. The libraries, stored uncompressed (extractNativeLibs="false").
mkdir -p "$work/root"
cp -r "$out/lib" "$work/root/lib"
(cd "$work/root" && zip -q -0 -r "$work/unaligned.apk" lib)

# 4. Alignment: 16 KiB for the libraries (-P 16), 4 bytes for everything else.
"$build_tools/zipalign" -f -P 16 4 "$work/unaligned.apk" "$work/aligned.apk"

# 5. Debug signature.
keystore="${DEBUG_KEYSTORE:-$HOME/.android/debug.keystore}"
if [ ! -f "$keystore" ]; then
    echo "build-apk: creating the debug key $keystore"
    mkdir -p "$(dirname "$keystore")"
    keytool -genkeypair -keystore "$keystore" -storepass android -alias androiddebugkey -keypass android \
        -keyalg RSA -keysize 2048 -validity 10000 -dname "CN=Android Debug,O=Android,C=US" >/dev/null
fi
apk="$out/halma-$version-debug.apk"
"$build_tools/apksigner" sign --ks "$keystore" --ks-pass pass:android --key-pass pass:android \
    --ks-key-alias androiddebugkey --out "$apk" "$work/aligned.apk"
"$build_tools/apksigner" verify "$apk"
"$build_tools/zipalign" -c -P 16 4 "$apk"

echo "build-apk: $apk ($abis, $(du -h "$apk" | cut -f1))"
echo "build-apk: install with: adb install -r '$apk'"
