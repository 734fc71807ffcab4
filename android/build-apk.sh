#!/usr/bin/env bash
# Builds the Halma Android app as an APK for arm64-v8a (phones, tablets) and x86_64 (emulators):
#
#     ANDROID_HOME=~/Android/Sdk ANDROID_NDK_HOME=~/Android/Sdk/ndk/<version> android/build-apk.sh
#
# Steps: cargo-ndk builds libhalma.so per ABI with the `android` feature; llvm-readelf checks each
# library (16 KiB-aligned LOAD segments, ANativeActivity_onCreate exported); aapt2 compiles
# android/res and links it with android/AndroidManifest.xml; zip adds the libraries (stored
# uncompressed, no directory entries); zipalign aligns them to 16 KiB pages; apksigner signs;
# `zipalign -c -P 16` and `apksigner verify` check the result. No Gradle: the app's only Java code
# is its activity (android/java: NativeActivity plus onNewIntent), which javac compiles against
# the platform's android.jar and d8 turns into classes.dex; Slint embeds its own helper in the
# library. Works on Linux and macOS.
#
# The toolchain is pinned in android/toolchain.env: the SDK platform, the build-tools and the NDK
# are exactly the ones named there, found in $ANDROID_HOME (or, for the NDK, ANDROID_NDK_HOME if it
# is that version), never "the newest" (hosted runners ship beta platforms and several NDKs). The
# same variables in the environment override the pins, in every mode:
#   ANDROID_PLATFORM=android-36            ANDROID_BUILD_TOOLS_VERSION=36.0.0
#   ANDROID_NDK_VERSION=28.2.13676358      (a prefix such as 36 or 28 picks the newest final
#                                          release it matches; a preview only if none is final)
# Every NDK variable (ANDROID_NDK_HOME, ANDROID_NDK_ROOT, ANDROID_NDK) is set to the chosen NDK for
# cargo-ndk and the build scripts.
#
# Options (environment):
#   ABIS="arm64-v8a x86_64"   which ABIs to build. armeabi-v7a and x86 are accepted too, but
#                             rust-skia publishes no prebuilt Skia for them: skia-bindings then
#                             builds Skia from source (python3, ninja, git, network, an hour).
#   SKIA_BUILD_FROM_SOURCE=1  allow skia-bindings to build Skia from source for every ABI when
#                             the prebuilt download fails (skia-bindings' FORCE_SKIA_BUILD=1, which
#                             always builds it, allows it too). Otherwise (and without armeabi-v7a
#                             or x86 in ABIS) the build leaves ANDROID_NDK unset, which skia-bindings
#                             needs only for that fallback: a failed download then stops the build
#                             at once, naming the archive, instead of building Skia for an hour.
#   PROFILE=release           Cargo profile for the Rust code (`dev` gives a huge, slow library)
#   DEBUG_KEYSTORE=~/.android/debug.keystore   created with the standard debug key if missing
#   ANDROID_VERSION_CODE, ANDROID_VERSION_NAME   versionCode and versionName (default: from
#                             Cargo.toml's version x.y.z, versionCode x * 10000 + y * 100 + z; the
#                             workflow derives both from the release tag)
#   SKIA_BINARIES_URL='file:///path/skia-binaries-{key}.tar.gz'   prebuilt Skia for offline
#                             machines: a template, skia-bindings replaces {key} with
#                             <hash>-<target>-<features>, so keep one archive per ABI
# Release signing (--release; never commit a keystore or its passwords):
#   RELEASE_KEYSTORE=/path/release.jks   RELEASE_KEY_ALIAS=halma
#   RELEASE_KEYSTORE_PASSWORD=...        RELEASE_KEY_PASSWORD=... (default: the store password)
#   BUNDLETOOL=/path/bundletool.jar      (or `bundletool` on PATH) to also build an AAB
# Arguments:
#   --release        release APK (no debug flag) signed with the release key, plus an AAB
#   --unsigned       with --release: leave the APK (aligned) and the AAB unsigned, for
#                    android/sign-release.sh to sign elsewhere (the workflow signs in its own job)
#   --package-only   skip the Rust build; package the libraries of the previous build
#   --check          only check the prerequisites
#   --toolchain      only print the platform, build-tools and NDK the pins select, and exit
#   --cargo-check    only `cargo ndk -t <abi>... check` the library with the `android` feature
#                    (src/app/android.rs and Slint's Android backend) for every ABI in ABIS, with
#                    the build's environment; fails unless skia-bindings downloaded and installed
#                    the prebuilt Skia for each of them
# For running the packaging steps without the SDK (.ci/android-package-check.sh), with
# --package-only: ANDROID_BUILD_TOOLS_DIR (aapt2, zipalign, apksigner, d8), ANDROID_PLATFORM_JAR,
# READELF, ANDROID_MANIFEST and ANDROID_OUT replace what would come from the SDK and the NDK, and
# ANDROID_PLATFORM_CLASSES the classes javac and d8 compile the activity against (android.jar).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
android_dir="$repo/android"
out="${ANDROID_OUT:-${CARGO_TARGET_DIR:-$repo/target}/android}"
abis="${ABIS:-arm64-v8a x86_64}"
profile="${PROFILE:-release}"
manifest="${ANDROID_MANIFEST:-$android_dir/AndroidManifest.xml}"
# The pins (android/toolchain.env), unless the environment overrides them.
pinned() { sed -n "s/^$1=//p" "$android_dir/toolchain.env" | tail -n 1; }
platform_pin="${ANDROID_PLATFORM:-$(pinned ANDROID_PLATFORM)}"
build_tools_pin="${ANDROID_BUILD_TOOLS_VERSION:-$(pinned ANDROID_BUILD_TOOLS_VERSION)}"
ndk_pin="${ANDROID_NDK_VERSION:-$(pinned ANDROID_NDK_VERSION)}"
min_sdk="$(pinned ANDROID_MIN_SDK)" # must match minSdkVersion in AndroidManifest.xml
min_platform=36    # the SDK platform to link against: at least targetSdkVersion
min_build_tools=35 # zipalign -P (16 KiB pages) and apksigner's 16 KiB library alignment
lib_name=halma     # android.app.lib_name in AndroidManifest.xml, the crate's library name
# shellcheck source=android/sdk-versions.sh
. "$android_dir/sdk-versions.sh"

package_only=false
check_only=false
toolchain_only=false
cargo_check=false
release=false
unsigned=false
for argument in "$@"; do
    case "$argument" in
        --package-only) package_only=true ;;
        --check) check_only=true ;;
        --toolchain) toolchain_only=true ;;
        --cargo-check) cargo_check=true ;;
        --release) release=true ;;
        --unsigned) unsigned=true ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "build-apk: unknown argument '$argument' (see --help)" >&2; exit 2 ;;
    esac
done
if $unsigned && ! $release; then
    echo "build-apk: --unsigned goes with --release (debug APKs are signed with the debug key)" >&2
    exit 2
fi

rust_target_of() {
    case "$1" in
        arm64-v8a) echo aarch64-linux-android ;;
        x86_64) echo x86_64-linux-android ;;
        armeabi-v7a) echo armv7-linux-androideabi ;;
        x86) echo i686-linux-android ;;
        *) return 1 ;;
    esac
}

# The first number in a name: 35 for 35.0.0, 36 for android-36.1 or android-36-ext19.
major_of() {
    printf '%s\n' "$1" | sed -n 's/^[^0-9]*\([0-9][0-9]*\).*/\1/p'
}

# What a folder of the SDK holds, for the messages: "35.0.0 36.0.0 37.0.0".
listing_of() {
    sdk_candidates "$1" "$2" | cut -f 1 | tr '\n' ' ' | sed 's/ $//'
}

# ---------------------------------------------------------------------------------------------
# Prerequisites: collect everything that is missing, then report it all at once.
missing=()
need() { missing+=("$1"); }

# What the packaging steps need may be given directly (the CI's stand-in run); otherwise it
# comes from the SDK and the NDK.
build_tools="${ANDROID_BUILD_TOOLS_DIR:-}"
platform="${ANDROID_PLATFORM_JAR:-}"
readelf="${READELF:-}"
needs_sdk=true
needs_ndk=true
if $package_only && [ -n "$build_tools" ] && [ -n "$platform" ]; then needs_sdk=false; fi
if $package_only && [ -n "$readelf" ]; then needs_ndk=false; fi

sdk="${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}"
if $needs_sdk || $needs_ndk; then
    if [ -z "$sdk" ]; then
        $needs_sdk && need "ANDROID_HOME is not set: point it at the Android SDK (e.g. ~/Android/Sdk)"
    elif [ ! -d "$sdk" ]; then
        need "ANDROID_HOME=$sdk is not a directory"
    fi
fi

# The NDK: the pinned version in $ANDROID_HOME/ndk, else one of the NDK variables if it is that
# version. Variables that point elsewhere are overridden below (all of them get the chosen NDK).
ndk=""
ndk_note=""
if $needs_ndk; then
    ndk_name=""
    [ -z "$sdk" ] || ndk_name="$(sdk_candidates "$sdk/ndk" source.properties | select_version "$ndk_pin")"
    if [ -n "$ndk_name" ]; then
        ndk="$sdk/ndk/$ndk_name"
    else
        for variable in ANDROID_NDK_HOME ANDROID_NDK_ROOT ANDROID_NDK; do
            candidate="${!variable:-}"
            if [ -z "$candidate" ] || [ ! -f "$candidate/source.properties" ]; then continue; fi
            if [ -n "$(printf '%s\t%s\n' "$(ndk_revision "$candidate")" "" | select_version "$ndk_pin")" ]; then
                ndk="$candidate"
                break
            fi
        done
    fi
    if [ -z "$ndk" ]; then
        need "the pinned NDK $ndk_pin is not installed: sdkmanager 'ndk;$ndk_pin' (or set ANDROID_NDK_VERSION to one that is${sdk:+; \$ANDROID_HOME/ndk has: $(listing_of "$sdk/ndk" source.properties)})"
    else
        for variable in ANDROID_NDK_HOME ANDROID_NDK_ROOT ANDROID_NDK; do
            value="${!variable:-}"
            if [ -n "$value" ] && [ "$(cd "$value" 2>/dev/null && pwd -P)" != "$(cd "$ndk" && pwd -P)" ]; then
                ndk_note="$ndk_note $variable=$value"
            fi
        done
        if [ -z "$readelf" ]; then
            for candidate in "$ndk"/toolchains/llvm/prebuilt/*/bin/llvm-readelf; do
                [ -x "$candidate" ] && readelf="$candidate"
            done
            [ -n "$readelf" ] || need "$ndk has no toolchains/llvm/prebuilt/*/bin/llvm-readelf"
        fi
    fi
fi

if $needs_sdk && [ -n "$sdk" ] && [ -d "$sdk" ]; then
    build_tools_version="$(sdk_candidates "$sdk/build-tools" aapt2 | select_version "$build_tools_pin")"
    if [ -z "$build_tools_version" ]; then
        need "the pinned SDK build-tools $build_tools_pin are not installed: sdkmanager 'build-tools;$build_tools_pin' (found: $(listing_of "$sdk/build-tools" aapt2))"
    elif [ "$(major_of "$build_tools_version")" -lt "$min_build_tools" ]; then
        need "SDK build-tools $build_tools_version are too old: $min_build_tools or newer (zipalign -P, apksigner)"
    else
        build_tools="$sdk/build-tools/$build_tools_version"
    fi
    platform_name="$(sdk_candidates "$sdk/platforms" android.jar | select_version "$platform_pin")"
    if [ -z "$platform_name" ]; then
        need "the pinned SDK platform $platform_pin is not installed: sdkmanager 'platforms;$platform_pin' (found: $(listing_of "$sdk/platforms" android.jar))"
    elif [ "$(major_of "$platform_name")" -lt "$min_platform" ]; then
        need "SDK platform $platform_name is older than the target SDK $min_platform"
    else
        platform="$sdk/platforms/$platform_name/android.jar"
    fi
fi
if [ -n "$build_tools" ]; then
    for tool in aapt2 zipalign apksigner d8; do
        [ -x "$build_tools/$tool" ] || need "$build_tools/$tool is missing or not executable"
    done
fi

# The toolchain the pins selected, in one line that the workflow's log shows.
describe_toolchain() {
    local ndk_text="none needed" platform_text="${platform:-none}" tools_text="${build_tools:-none}"
    [ -z "$ndk" ] || ndk_text="$(ndk_revision "$ndk") ($ndk)"
    [ -z "$platform" ] || platform_text="$(basename "$(dirname "$platform")") ($platform)"
    [ -z "$build_tools" ] || tools_text="$(basename "$build_tools") ($build_tools)"
    echo "build-apk: toolchain (pins: $platform_pin, build-tools $build_tools_pin, NDK $ndk_pin): platform $platform_text, build-tools $tools_text, NDK $ndk_text"
    [ -z "$ndk_note" ] || echo "build-apk: note: overriding$ndk_note: every NDK variable is set to $ndk"
}
if $toolchain_only; then
    if [ "${#missing[@]}" -gt 0 ]; then
        printf 'build-apk: %s\n' "${missing[@]}" >&2
        exit 1
    fi
    describe_toolchain
    exit 0
fi
[ -z "$platform" ] || [ -f "$platform" ] || need "the platform $platform does not exist"
[ -f "$manifest" ] || need "the manifest $manifest does not exist"

command -v keytool >/dev/null 2>&1 || need "keytool not found: install a JDK (17 or newer)"
command -v javac >/dev/null 2>&1 ||
    need "javac not found: install a JDK (17 or newer; the activity and Slint's Java helper are compiled)"
command -v zip >/dev/null 2>&1 || need "zip not found: install it (e.g. apt-get install zip)"
if ! $package_only; then
    if ! command -v cargo >/dev/null 2>&1; then
        need "cargo not found: install Rust with rustup"
    else
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
if $release && ! $unsigned; then
    for variable in RELEASE_KEYSTORE RELEASE_KEY_ALIAS RELEASE_KEYSTORE_PASSWORD; do
        [ -n "${!variable:-}" ] || need "--release: $variable is not set (the release key; see --help)"
    done
    [ -z "${RELEASE_KEYSTORE:-}" ] || [ -f "$RELEASE_KEYSTORE" ] ||
        need "--release: RELEASE_KEYSTORE=$RELEASE_KEYSTORE does not exist"
fi

if [ "${#missing[@]}" -gt 0 ]; then
    {
        echo "build-apk: cannot build the APK, prerequisites are missing:"
        printf '  - %s\n' "${missing[@]}"
        echo "See android/README.md."
    } >&2
    exit 1
fi
describe_toolchain
echo "build-apk: readelf $readelf"
if $check_only; then
    echo "build-apk: all prerequisites found"
    exit 0
fi
if ! $package_only && [ -z "${SKIA_BINARIES_URL:-}" ]; then
    echo "build-apk: note: the first build downloads prebuilt Skia (skia-bindings) from GitHub; set SKIA_BINARIES_URL for an offline build"
fi

# The environment of cargo-ndk and the build scripts: one SDK, one platform, one NDK.
export_build_environment() {
    # cargo-ndk exports ANDROID_PLATFORM=$min_sdk for the C toolchain; Slint's build script would then
    # look for platforms/android-$min_sdk. Point it at the platform selected above instead.
    # cargo-ndk warns when ANDROID_NDK_HOME and ANDROID_NDK_ROOT differ: both get the same NDK.
    # skia-bindings reads ANDROID_NDK (not ANDROID_NDK_HOME) only to build Skia from source, its
    # fallback when the prebuilt download fails: it gets the NDK only when that build is wanted
    # (an ABI without prebuilt Skia, or SKIA_BUILD_FROM_SOURCE=1); otherwise it is unset, so the
    # fallback stops at once with "ANDROID_NDK variable not set" (.ci/android-skia-names.sh
    # checks that it does) and skia_diagnosis names the archive that was not downloaded.
    export ANDROID_HOME="$sdk" ANDROID_SDK_ROOT="$sdk" ANDROID_JAR="$platform"
    export ANDROID_NDK_HOME="$ndk" ANDROID_NDK_ROOT="$ndk"
    if skia_source_build_allowed; then
        export ANDROID_NDK="$ndk"
        echo "build-apk: note: ANDROID_NDK is set: if a prebuilt Skia download fails, skia-bindings builds Skia from source (an hour)"
    else
        unset ANDROID_NDK
    fi
    export ANDROID_BUILD_TOOLS_VERSION="${build_tools##*/}"
    # Release builds carry no debug info: a library with it is several hundred MB.
    export CARGO_PROFILE_RELEASE_STRIP="${CARGO_PROFILE_RELEASE_STRIP:-debuginfo}"
}

# Prebuilt Skia: an ABI for which rust-skia publishes none, SKIA_BUILD_FROM_SOURCE=1, or
# skia-bindings' own FORCE_SKIA_BUILD (the F-Droid build) allows skia-bindings' build from source.
skia_source_build_allowed() {
    [ "${SKIA_BUILD_FROM_SOURCE:-0}" != 0 ] && return 0
    [ -n "${FORCE_SKIA_BUILD:-}" ] && return 0
    case " $abis " in *" armeabi-v7a "* | *" x86 "*) return 0 ;; esac
    return 1
}
# cargo ndk, its output kept in $out/cargo-ndk.log; on failure, what skia-bindings asked for.
run_cargo_ndk() {
    local log="$out/cargo-ndk.log" status=0
    mkdir -p "$out"
    echo "build-apk: cargo ndk $*"
    (cd "$repo" && cargo ndk "$@") 2>&1 | tee "$log" || status=$?
    if [ "$status" -ne 0 ]; then
        skia_diagnosis "$log" >&2
        echo "build-apk: FAILED: cargo ndk $* (exit $status)" >&2
        exit "$status"
    fi
}
# The prebuilt archives skia-bindings failed to download, from its output in a cargo log.
skia_diagnosis() {
    awk '
        /FROM: / { sub(/.*FROM: /, ""); url = $0; next }
        /DOWNLOAD AND INSTALL FAILED/ && url != "" {
            print "build-apk: skia-bindings could not download the prebuilt Skia " url
            failed = 1; url = ""
        }
        /ANDROID_NDK variable not set/ && failed && !said {
            print "build-apk: ...and did not fall back to building Skia from source (ANDROID_NDK is unset on purpose; SKIA_BUILD_FROM_SOURCE=1 allows it). Check the archive with android/skia-prebuilt.sh."
            said = 1
        }
    ' "$1"
}
# After cargo: for each ABI, skia-bindings' own report (its build script's output in the target
# folder, the newest for that target and profile) must say DOWNLOAD AND INSTALL SUCCEEDED, unless a
# build from source is allowed for that ABI.
verify_skia_downloads() { # profile folder: debug or release
    local abi triple output candidate failed=()
    for abi in $abis; do
        triple="$(rust_target_of "$abi")"
        output=""
        for candidate in "${CARGO_TARGET_DIR:-$repo/target}/$triple/$1"/build/skia-bindings-*/output; do
            if [ -f "$candidate" ] && { [ -z "$output" ] || [ "$candidate" -nt "$output" ]; }; then output="$candidate"; fi
        done
        if [ -z "$output" ]; then
            echo "build-apk: $abi: no output of skia-bindings' build script under ${CARGO_TARGET_DIR:-$repo/target}/$triple/$1/build" >&2
            failed+=("$abi")
            continue
        fi
        grep -E "SKIA BINARIES|DOWNLOAD AND INSTALL|FROM: " "$output" | sed "s/^ */build-apk: $abi: skia-bindings: /" || true
        if grep -q "DOWNLOAD AND INSTALL SUCCEEDED" "$output"; then
            continue
        fi
        case "$abi" in armeabi-v7a | x86) continue ;; esac
        if [ "${SKIA_BUILD_FROM_SOURCE:-0}" != 0 ] || [ -n "${FORCE_SKIA_BUILD:-}" ]; then continue; fi
        echo "build-apk: $abi: skia-bindings did not install prebuilt Skia ($output)" >&2
        failed+=("$abi")
    done
    if [ "${#failed[@]}" -gt 0 ]; then
        echo "build-apk: FAILED: no prebuilt Skia for ${failed[*]}; see android/skia-prebuilt.sh" >&2
        exit 1
    fi
}

# --cargo-check: compile-check the `android` feature (src/app/android.rs, Slint's android-activity
# backend with its Java helper, skia-bindings with its prebuilt download) for every ABI, minutes
# before the release build would reach the same errors.
if $cargo_check; then
    export_build_environment
    target_args=()
    for abi in $abis; do target_args+=(-t "$abi"); done
    run_cargo_ndk "${target_args[@]}" -P "$min_sdk" check -p halma --lib --no-default-features --features android
    verify_skia_downloads debug
    echo "build-apk: OK: the android feature (src/app/android.rs) compiles for $abis, with prebuilt Skia for each"
    exit 0
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
        case "$abi" in
            armeabi-v7a | x86) echo "build-apk: note: no prebuilt Skia for $abi; skia-bindings builds Skia from source (long)" ;;
        esac
    done
    profile_args=(--profile "$profile")
    export_build_environment
    run_cargo_ndk "${target_args[@]}" -P "$min_sdk" -o "$out/lib" \
        build "${profile_args[@]}" -p halma --lib --no-default-features --features android
    profile_dir="$profile"
    [ "$profile" != dev ] || profile_dir=debug
    verify_skia_downloads "$profile_dir"
fi

# 1b. Each library: present, LOAD segments aligned to 16 KiB (or more), and the entry point
# NativeActivity looks up (android-activity's ANativeActivity_onCreate) exported.
check_library() {
    local so="$1" aligns bad symbol
    aligns="$("$readelf" -lW "$so" | awk '$1 == "LOAD" { print $NF }')"
    [ -n "$aligns" ] || { echo "build-apk: $so has no LOAD segment" >&2; return 1; }
    bad="$(printf '%s\n' "$aligns" | while read -r align; do
        [ $((align % 16384)) -eq 0 ] || echo "$align"
    done)"
    [ -z "$bad" ] || { echo "build-apk: $so has LOAD segments aligned to $(echo "$bad" | tr '\n' ' ')(not a multiple of 16 KiB)" >&2; return 1; }
    symbol="$("$readelf" --dyn-syms -W "$so" | awk '$8 == "ANativeActivity_onCreate" && $7 != "UND" && $5 != "LOCAL"')"
    [ -n "$symbol" ] || { echo "build-apk: $so does not export ANativeActivity_onCreate" >&2; return 1; }
    echo "build-apk: $so: LOAD segments aligned to $(printf '%s\n' "$aligns" | sort -u | tr '\n' ' ')and ANativeActivity_onCreate exported"
}
for abi in $abis; do
    so="$out/lib/$abi/lib$lib_name.so"
    [ -f "$so" ] || {
        echo "build-apk: the build did not produce $so" >&2
        exit 1
    }
    check_library "$so"
done

# ---------------------------------------------------------------------------------------------
# 2. Resources and manifest.
version="${ANDROID_VERSION_NAME:-$(sed -n 's/^version = "\([^"]*\)".*/\1/p' "$repo/Cargo.toml" | head -n 1)}"
if [ -n "${ANDROID_VERSION_CODE:-}" ]; then
    version_code="$ANDROID_VERSION_CODE"
else
    IFS=. read -r major minor patch <<<"${version%%-*}"
    version_code=$((major * 10000 + minor * 100 + patch))
fi
case "$version_code" in
    '' | *[!0-9]*) echo "build-apk: versionCode '$version_code' is not a positive whole number" >&2; exit 1 ;;
esac
echo "build-apk: versionName $version, versionCode $version_code"
if $release; then kind=release; else kind=debug; fi
work="$out/apk-work-$kind"
rm -rf "$work"
mkdir -p "$work"
"$build_tools/aapt2" compile --dir "$android_dir/res" -o "$work/resources.zip"
link_args=(-I "$platform" --manifest "$manifest" --version-name "$version" --version-code "$version_code")
$release || link_args+=(--debug-mode)
"$build_tools/aapt2" link -o "$work/unaligned.apk" "${link_args[@]}" "$work/resources.zip"

# 2b. The activity's code: android/java compiled against the platform's classes (Java 11 class
# files, which d8 reads) and converted to classes.dex for the minimum API level.
platform_classes="${ANDROID_PLATFORM_CLASSES:-$platform}"
mkdir -p "$work/classes" "$work/dex"
java_sources=()
while IFS= read -r source; do java_sources+=("$source"); done < <(find "$android_dir/java" -name '*.java' | sort)
[ "${#java_sources[@]}" -gt 0 ] || { echo "build-apk: no Java sources in $android_dir/java" >&2; exit 1; }
javac --release 11 -encoding UTF-8 -Xlint:all -classpath "$platform_classes" -d "$work/classes" "${java_sources[@]}"
class_files=()
while IFS= read -r class_file; do class_files+=("$class_file"); done < <(find "$work/classes" -name '*.class' | sort)
d8_args=(--min-api "$min_sdk" --lib "$platform_classes" --output "$work/dex")
$release && d8_args+=(--release)
"$build_tools/d8" "${d8_args[@]}" "${class_files[@]}"
[ -s "$work/dex/classes.dex" ] || { echo "build-apk: d8 wrote no classes.dex" >&2; exit 1; }
(cd "$work/dex" && zip -q -D "$work/unaligned.apk" classes.dex)
echo "build-apk: classes.dex from ${#java_sources[@]} Java source(s), ${#class_files[@]} class(es)"

# 3. The libraries, stored uncompressed (extractNativeLibs="false"), without directory entries.
mkdir -p "$work/root"
cp -R "$out/lib" "$work/root/lib"
(cd "$work/root" && zip -q -0 -r -D "$work/unaligned.apk" lib)

# 4. Alignment: 16 KiB for the libraries (-P 16), 4 bytes for everything else.
"$build_tools/zipalign" -f -P 16 4 "$work/unaligned.apk" "$work/aligned.apk"

# 5. Signature: the standard debug key, or the release key from the environment; with --unsigned,
# none (android/sign-release.sh signs the aligned APK later, where the key is).
apk="$out/halma-$version-$kind.apk"
if $unsigned; then
    apk="$out/halma-$version-release-unsigned.apk"
    cp "$work/aligned.apk" "$apk"
    "$build_tools/zipalign" -c -P 16 4 "$apk"
    echo "build-apk: $apk ($abis, $(du -h "$apk" | cut -f1)): unsigned, libraries 16 KiB-aligned"
elif $release; then
    key_args=(--ks "$RELEASE_KEYSTORE" --ks-key-alias "$RELEASE_KEY_ALIAS" --ks-pass env:RELEASE_KEYSTORE_PASSWORD)
    if [ -n "${RELEASE_KEY_PASSWORD:-}" ]; then
        key_args+=(--key-pass env:RELEASE_KEY_PASSWORD)
    else
        key_args+=(--key-pass env:RELEASE_KEYSTORE_PASSWORD)
    fi
else
    keystore="${DEBUG_KEYSTORE:-$HOME/.android/debug.keystore}"
    if [ ! -f "$keystore" ]; then
        echo "build-apk: creating the debug key $keystore"
        mkdir -p "$(dirname "$keystore")"
        keytool -genkeypair -keystore "$keystore" -storepass android -alias androiddebugkey -keypass android \
            -keyalg RSA -keysize 2048 -validity 10000 -dname "CN=Android Debug,O=Android,C=US" >/dev/null
    fi
    key_args=(--ks "$keystore" --ks-pass pass:android --key-pass pass:android --ks-key-alias androiddebugkey)
fi
if ! $unsigned; then
    "$build_tools/apksigner" sign "${key_args[@]}" --out "$apk" "$work/aligned.apk"
    rm -f "$apk.idsig" # the v4 signature file, only for incremental adb installs

    # 6. Checks of the finished APK: the signature, and the 16 KiB alignment after signing.
    "$build_tools/apksigner" verify "$apk"
    "$build_tools/zipalign" -c -P 16 4 "$apk"
    echo "build-apk: $apk ($abis, $(du -h "$apk" | cut -f1)): signature verified, libraries 16 KiB-aligned"
fi

# 7. With --release and bundletool: an Android App Bundle for the Play store, signed with the
# same key (jarsigner, as Play expects for bundles).
if $release; then
    bundletool=()
    if [ -n "${BUNDLETOOL:-}" ]; then
        case "$BUNDLETOOL" in *.jar) bundletool=(java -jar "$BUNDLETOOL") ;; *) bundletool=("$BUNDLETOOL") ;; esac
    elif command -v bundletool >/dev/null 2>&1; then
        bundletool=(bundletool)
    fi
    if [ "${#bundletool[@]}" -eq 0 ]; then
        echo "build-apk: no bundletool (set BUNDLETOOL=/path/bundletool.jar): no AAB built"
    else
        "$build_tools/aapt2" link --proto-format -o "$work/proto.zip" "${link_args[@]}" "$work/resources.zip"
        mkdir -p "$work/base/manifest"
        (cd "$work/base" && unzip -q "$work/proto.zip")
        mv "$work/base/AndroidManifest.xml" "$work/base/manifest/AndroidManifest.xml"
        cp -R "$out/lib" "$work/base/lib"
        mkdir -p "$work/base/dex"
        cp "$work/dex/classes.dex" "$work/base/dex/classes.dex"
        (cd "$work/base" && zip -q -r -D "$work/base.zip" .)
        aab="$out/halma-$version-release.aab"
        $unsigned && aab="$out/halma-$version-release-unsigned.aab"
        rm -f "$aab"
        "${bundletool[@]}" build-bundle --modules="$work/base.zip" --output="$aab"
        if $unsigned; then
            echo "build-apk: $aab (unsigned)"
            exit 0
        fi
        key_password_variable=RELEASE_KEY_PASSWORD
        [ -n "${RELEASE_KEY_PASSWORD:-}" ] || key_password_variable=RELEASE_KEYSTORE_PASSWORD
        jarsigner -keystore "$RELEASE_KEYSTORE" -storepass:env RELEASE_KEYSTORE_PASSWORD \
            -keypass:env "$key_password_variable" -sigalg SHA256withRSA -digestalg SHA-256 \
            "$aab" "$RELEASE_KEY_ALIAS" >/dev/null
        jarsigner -verify "$aab" >/dev/null
        echo "build-apk: $aab (signed)"
    fi
fi
$release || echo "build-apk: install with: adb install -r '$apk'"
