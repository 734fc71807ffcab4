#!/usr/bin/env bash
# Checks every part of the Android app that a machine without the Android SDK, NDK or Skia can
# check: the manifest and resources, the packaging steps of android/build-apk.sh, the launcher
# icons. The APK itself is built by the hosted workflow (.github/workflows/android.yml).
#
# 1. Manifest and resources: Debian's aapt2 (Android 10) compiles android/res and links it with
#    the manifest against Debian's framework resources of API 29, then `aapt2 dump` asserts the
#    library name, the SDK levels, hasCode, configChanges, the per-app language list and the app's
#    label in every language. The API-29 framework does not know three things of the manifest,
#    which are stripped from a copy for this check only:
#      - android:localeConfig (API 33),
#      - the configChanges flags fontWeightAdjustment (API 31) and grammaticalGender (API 34).
#    The real build links against android-36 with all of them.
# 2. Packaging: build-apk.sh --package-only on stand-in libraries (small C libraries built here
#    with 16 KiB pages that export ANativeActivity_onCreate), with Debian's aapt2 and apksigner and
#    .ci/zipalign.py standing in for zipalign -P 16 (Debian's zipalign predates -P); javac compiles
#    the activity (android/java) against stand-ins of the two platform classes it uses
#    (.ci/android-stubs) and .ci/d8-standin.py stands in for d8, so the APK must carry classes.dex
#    with the activity the manifest names. The script's own readelf checks run (with binutils'
#    readelf), and must reject a library with 4 KiB pages and one without the entry point. Then apksigner verify and an independent 16 KiB check.
# 3. Icons: android/make-icons.py regenerates android/res with no difference.
# 4. android/check-apk.sh, the hosted workflow's check of the real APK (NEEDED libraries and
#    undefined symbols against the NDK's API-26 stub libraries), on stand-in stubs and libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

say() { echo "android-package-check: $*"; }
fail() { echo "android-package-check: FAILED: $*" >&2; exit 1; }

missing=()
for package in aapt android-framework-res apksigner zip unzip gcc binutils; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing: ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v keytool >/dev/null || fail "keytool (a JDK) is needed for the debug key"
framework=/usr/share/android-framework-res/framework-res.apk
[ -f "$framework" ] || fail "$framework is missing"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# ---------------------------------------------------------------------------------------------
# Stand-in tools and libraries.
mkdir -p "$work/tools"
ln -s "$(command -v aapt2)" "$work/tools/aapt2"
ln -s "$(command -v apksigner)" "$work/tools/apksigner"
printf '#!/bin/sh\nexec python3 %s/.ci/d8-standin.py "$@"\n' "$repo" >"$work/tools/d8"
chmod +x "$work/tools/d8"
# The platform classes the activity (android/java) is compiled against: stand-ins of the two
# classes it uses, so that javac checks it here.
command -v javac >/dev/null || fail "javac (a JDK) is needed for the activity's Java code"
mkdir -p "$work/stub-classes"
find .ci/android-stubs/android -name '*.java' -exec javac --release 11 -d "$work/stub-classes" {} +
(cd "$work/stub-classes" && zip -q -r -D "$work/platform-classes.jar" .)
printf '#!/bin/sh\nexec python3 %s/.ci/zipalign.py "$@"\n' "$repo" >"$work/tools/zipalign"
chmod +x "$work/tools/zipalign"

sed -e 's/ *android:localeConfig="[^"]*"//' \
    -e 's/\(android:configChanges="[^"]*\)|fontWeightAdjustment/\1/' \
    -e 's/\(android:configChanges="[^"]*\)|grammaticalGender/\1/' \
    android/AndroidManifest.xml >"$work/AndroidManifest-api29.xml"
if grep -Eq 'android:localeConfig=|configChanges="[^"]*(fontWeightAdjustment|grammaticalGender)' "$work/AndroidManifest-api29.xml" ||
    [ "$(diff android/AndroidManifest.xml "$work/AndroidManifest-api29.xml" | grep -c '^>')" -ne 2 ]; then
    fail "could not strip the attributes the API-29 framework lacks"
fi

cat >"$work/standin.c" <<'EOF'
/* Stands in for libhalma.so: the entry point NativeActivity calls. */
void ANativeActivity_onCreate(void *activity, void *saved_state, unsigned long saved_state_size) {
    (void)activity; (void)saved_state; (void)saved_state_size;
}
EOF
echo 'void something_else(void) {}' >"$work/other.c"
make_library() { # output, page size, source
    mkdir -p "$(dirname "$1")"
    gcc -shared -fPIC -O1 -Wl,-z,max-page-size="$2" -Wl,-z,common-page-size="$2" -o "$1" "$3"
}

run_packaging() { # extra environment..., then build-apk.sh arguments
    env ANDROID_OUT="$work/out" ANDROID_BUILD_TOOLS_DIR="$work/tools" ANDROID_PLATFORM_JAR="$framework" \
        ANDROID_PLATFORM_CLASSES="$work/platform-classes.jar" \
        READELF=readelf ANDROID_MANIFEST="$work/AndroidManifest-api29.xml" \
        DEBUG_KEYSTORE="$work/debug.keystore" ANDROID_HOME= ANDROID_NDK_HOME= "$@"
}

# ---------------------------------------------------------------------------------------------
say "linking against the API-29 framework without android:localeConfig and the configChanges flags fontWeightAdjustment and grammaticalGender"

# 2a. The script's library checks reject what Android 15+ or NativeActivity would reject.
say "the library checks reject a library with 4 KiB pages and one without the entry point"
make_library "$work/out/lib/arm64-v8a/libhalma.so" 4096 "$work/standin.c"
if run_packaging ABIS=arm64-v8a bash android/build-apk.sh --package-only >"$work/log" 2>&1; then
    cat "$work/log"; fail "build-apk.sh accepted a library with 4 KiB pages"
fi
grep -q "not a multiple of 16 KiB" "$work/log" || { cat "$work/log"; fail "no alignment message"; }
make_library "$work/out/lib/arm64-v8a/libhalma.so" 16384 "$work/other.c"
if run_packaging ABIS=arm64-v8a bash android/build-apk.sh --package-only >"$work/log" 2>&1; then
    cat "$work/log"; fail "build-apk.sh accepted a library without ANativeActivity_onCreate"
fi
grep -q "does not export ANativeActivity_onCreate" "$work/log" || { cat "$work/log"; fail "no entry-point message"; }

# 2b. The packaging steps on good stand-ins, both ABIs.
say "build-apk.sh --package-only on stand-in libraries (arm64-v8a, x86_64)"
rm -rf "$work/out"
for abi in arm64-v8a x86_64; do
    make_library "$work/out/lib/$abi/libhalma.so" 16384 "$work/standin.c"
done
run_packaging bash android/build-apk.sh --package-only 2>&1 | sed 's/^/  /'
apk="$(ls "$work"/out/halma-*-debug.apk)"

say "apksigner verify"
apksigner verify --verbose "$apk" | grep -E '^Verifie[sd]|scheme' | sed 's/^/  /'

say "independent check: libraries stored and 16 KiB-aligned, no directory entries"
python3 - "$apk" <<'EOF'
import struct, sys, zipfile
path = sys.argv[1]
raw = open(path, "rb").read()
libraries = 0
with zipfile.ZipFile(path) as apk:
    for info in apk.infolist():
        assert not info.filename.endswith("/"), f"directory entry {info.filename}"
        name_length, extra_length = struct.unpack_from("<HH", raw, info.header_offset + 26)
        offset = info.header_offset + 30 + name_length + extra_length
        if info.filename.endswith(".so"):
            libraries += 1
            assert info.compress_type == zipfile.ZIP_STORED, f"{info.filename} is compressed"
            assert offset % 16384 == 0, f"{info.filename} starts at {offset}, not a multiple of 16384"
            print(f"  {info.filename}: stored at offset {offset} = {offset // 16384} x 16 KiB")
        elif info.compress_type == zipfile.ZIP_STORED:
            assert offset % 4 == 0, f"{info.filename} starts at {offset}, not a multiple of 4"
    names = apk.namelist()
    dex = apk.read("classes.dex") if "classes.dex" in names else b""
assert libraries == 2, f"{libraries} libraries in the APK"
for needed in ["AndroidManifest.xml", "resources.arsc", "res/xml/locales_config.xml", "classes.dex"]:
    assert needed in names, f"{needed} missing"
assert b"Lorg/halma/app/HalmaActivity;" in dex, "classes.dex lacks the activity"
print("  classes.dex: org.halma.app.HalmaActivity (javac here, d8 stand-in)")
EOF

# ---------------------------------------------------------------------------------------------
# 1. What aapt2 linked: the manifest and the labels.
say "aapt2 dump: the manifest and the app's label in every language"
aapt2 dump badging "$apk" >"$work/badging" 2>&1 || { cat "$work/badging"; fail "aapt2 dump badging"; }
aapt2 dump xmltree --file AndroidManifest.xml "$apk" >"$work/xmltree"
aapt2 dump resources "$apk" >"$work/resources"
expect() { # description, file, extended regular expression
    if grep -Eq -- "$3" "$2"; then
        say "  ok: $1"
    else
        sed 's/^/    /' "$2" >&2
        fail "$1: no match for /$3/ in $(basename "$2")"
    fi
}
expect "package org.halma.app, versionName from Cargo.toml" "$work/badging" \
    "^package: name='org.halma.app' versionCode='[0-9]+' versionName='$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)'"
expect "minSdkVersion 26" "$work/badging" "^(sdkVersion|minSdkVersion):'26'"
expect "targetSdkVersion 36" "$work/badging" "^targetSdkVersion:'36'"
grep -A 1 ':name([^)]*)="android.app.lib_name"' "$work/xmltree" >"$work/lib_name"
expect "meta-data android.app.lib_name = halma" "$work/lib_name" ':value\([^)]*\)="halma"'
expect "hasCode true (the activity's classes.dex)" "$work/xmltree" ':hasCode\([^)]*\)=true'
expect "extractNativeLibs false" "$work/xmltree" ':extractNativeLibs\([^)]*\)=false'
expect "activity org.halma.app.HalmaActivity" "$work/xmltree" '"org.halma.app.HalmaActivity"'
expect "launchable activity org.halma.app.HalmaActivity" "$work/badging" "^launchable-activity: name='org.halma.app.HalmaActivity'"
expect "launcher intent" "$work/xmltree" '"android.intent.category.LAUNCHER"'
# configChanges as linked: orientation 0x80, screenSize 0x400, screenLayout 0x100,
# smallestScreenSize 0x800, density 0x1000, keyboard 0x10, keyboardHidden 0x20, navigation 0x40,
# touchscreen 0x8, uiMode 0x200, fontScale 0x40000000, locale 0x4, layoutDirection 0x2000,
# colorMode 0x4000, mcc 0x1, mnc 0x2 (without the two the API-29 framework lacks).
config_changes="$(sed -n 's/.*:configChanges([^)]*)=\(0x[0-9a-f]*\).*/\1/p' "$work/xmltree")"
[ -n "$config_changes" ] || fail "no configChanges in the linked manifest"
for flag in orientation:0x80 screenSize:0x400 screenLayout:0x100 smallestScreenSize:0x800 density:0x1000 \
    keyboard:0x10 keyboardHidden:0x20 navigation:0x40 touchscreen:0x8 uiMode:0x200 fontScale:0x40000000 \
    locale:0x4 layoutDirection:0x2000 colorMode:0x4000 mcc:0x1 mnc:0x2; do
    [ $((config_changes & ${flag#*:})) -ne 0 ] || fail "configChanges $config_changes lacks ${flag%%:*}"
done
say "  ok: configChanges $config_changes has all 16 flags the API-29 framework knows"
for kept in 'fontWeightAdjustment' 'grammaticalGender' 'android:localeConfig="@xml/locales_config"'; do
    grep -q "$kept" android/AndroidManifest.xml || fail "the real manifest lost $kept"
done
say "  ok: the real manifest keeps fontWeightAdjustment, grammaticalGender and localeConfig"
for entry in "application-label:'Halma'" "application-label-fr:'Halma'" "application-label-uk:'Халма'" \
    "application-label-in:'Halma'" "application-label-id:'Halma'" "application-label-tl:'Halma'" \
    "application-label-fil:'Halma'"; do
    expect "label ${entry%%:*}" "$work/badging" "^$entry"
done
expect "launcher icon" "$work/badging" "^application: label='Halma' icon='res/mipmap-anydpi-v26/ic_launcher.xml'"
expect "native code for both ABIs" "$work/badging" "^native-code: 'arm64-v8a' 'x86_64'"
# values-b+id and values-b+fil show as (id) and (fil).
for config in "" fr uk in id tl fil; do
    expect "string/app_name for (${config})" "$work/resources" "^ *\\($config\\) \"[^\"]+\""
done
locales="$(unzip -p "$apk" res/xml/locales_config.xml | wc -c)"
[ "$locales" -gt 0 ] || fail "res/xml/locales_config.xml is empty"
aapt2 dump xmltree --file res/xml/locales_config.xml "$apk" >"$work/locales"
for code in en fr uk id fil; do
    expect "per-app language $code in locales_config" "$work/locales" "android:name.*=\"$code\""
done

# ---------------------------------------------------------------------------------------------
# 4. android/check-apk.sh (the hosted workflow's check of the real APK) on stand-ins: stub
# libraries as the NDK has them for API 26 (libc.so, libandroid.so with a few symbols), a library
# that uses only those passes; one that needs a symbol the stubs lack, or a library that is not a
# system library, fails.
say "android/check-apk.sh against stand-in API-26 stub libraries"
for triple in aarch64-linux-android x86_64-linux-android; do
    stubs="$work/sysroot/$triple/26"
    mkdir -p "$stubs"
    printf 'int puts(const char *s) { (void)s; return 0; }\nvoid *malloc(unsigned long n) { (void)n; return 0; }\n' >"$work/libc-stub.c"
    gcc -shared -fPIC -nostdlib -Wl,-soname,libc.so -o "$stubs/libc.so" "$work/libc-stub.c"
    echo 'void ANativeWindow_acquire(void *w) { (void)w; }' >"$work/android-stub.c"
    gcc -shared -fPIC -nostdlib -Wl,-soname,libandroid.so -o "$stubs/libandroid.so" "$work/android-stub.c"
done
stubs="$work/sysroot/x86_64-linux-android/26"
cat >"$work/uses-api26.c" <<'EOF'
int puts(const char *s);
void ANativeWindow_acquire(void *w);
extern void optional_later(void) __attribute__((weak));
void ANativeActivity_onCreate(void *activity, void *saved_state, unsigned long saved_state_size) {
    (void)saved_state; (void)saved_state_size;
    puts("halma"); ANativeWindow_acquire(activity);
    if (optional_later) optional_later();
}
EOF
sed 's/puts("halma");/puts("halma"); getrandom(0, 0, 0);/; s/^int puts/int getrandom(void *b, unsigned long n, unsigned f);\nint puts/' \
    "$work/uses-api26.c" >"$work/uses-api28.c"
check_apk_with() { # library flags...: packages both ABIs with the library, then runs check-apk.sh
    rm -rf "$work/out"
    for abi in arm64-v8a x86_64; do
        mkdir -p "$work/out/lib/$abi"
        gcc -shared -fPIC -nostdlib -Wl,-z,max-page-size=16384 -Wl,-z,common-page-size=16384 \
            -o "$work/out/lib/$abi/libhalma.so" "$@" -L"$stubs" -lc -landroid
    done
    run_packaging bash android/build-apk.sh --package-only >"$work/log" 2>&1 || { cat "$work/log"; fail "packaging for check-apk.sh"; }
    AAPT2="$(command -v aapt2)" READELF=readelf NDK_SYSROOT_LIB="$work/sysroot" ANDROID_HOME='' \
        bash android/check-apk.sh "$(ls "$work"/out/halma-*-debug.apk)" >"$work/check-log" 2>&1
}
check_apk_with "$work/uses-api26.c" || { cat "$work/check-log"; fail "check-apk.sh rejected a library that uses only API-26 symbols"; }
sed 's/^/  /' "$work/check-log"
if check_apk_with "$work/uses-api28.c"; then
    cat "$work/check-log"; fail "check-apk.sh accepted a symbol the API-26 stubs lack"
fi
if ! grep -q "getrandom" "$work/check-log" || ! grep -q "would not load on Android 26" "$work/check-log"; then
    cat "$work/check-log"; fail "check-apk.sh did not name the missing symbol"
fi
say "  ok: a symbol missing from the API-26 stubs is rejected and named (getrandom)"
gcc -shared -fPIC -nostdlib -Wl,-soname,libc++_shared.so -o "$work/libc++_shared.so" "$work/android-stub.c"
if check_apk_with "$work/uses-api26.c" "$work/libc++_shared.so"; then
    cat "$work/check-log"; fail "check-apk.sh accepted a library that needs libc++_shared.so"
fi
grep -q "needs libc++_shared.so, which is not a system library of API 26" "$work/check-log" ||
    { cat "$work/check-log"; fail "check-apk.sh did not name the non-system library"; }
say "  ok: a NEEDED library that is not a system library (libc++_shared.so) is rejected and named"

# ---------------------------------------------------------------------------------------------
# 3. The icons are what make-icons.py draws.
say "make-icons.py regenerates android/res without a difference"
cp -R android "$work/android-copy"
python3 "$work/android-copy/make-icons.py" >/dev/null
if ! diff -r android/res "$work/android-copy/res"; then
    fail "android/res differs from what android/make-icons.py draws: run it and commit the result"
fi
say "  ok: $(find android/res -name '*.png' | wc -l) icons and the icon colour are identical"

say "OK: manifest, resources, packaging (apksigner, 16 KiB alignment), icons and check-apk.sh"
