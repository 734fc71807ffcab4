#!/usr/bin/env bash
# Type-checks the game for Android on a machine without the Android NDK or SDK.
#
# What this covers: the whole library (rules, computer players, protocol and the Slint
# interface from ui/, compiled by build.rs) for `aarch64-linux-android`, with the `gui`
# feature, i.e. Slint built for Android with the software renderer. That catches any code
# that does not compile for `target_os = "android"` (desktop-only APIs, missing cfgs,
# Android-only code paths in src/app/).
#
# What it cannot cover: the `android` feature (Slint's android-activity backend and the
# `android_main` entry in src/app/android.rs). Its build scripts need the SDK (android.jar,
# javac, d8) and download prebuilt Skia, so only `android/build-apk.sh` on a machine with the
# NDK and SDK builds it. See android/README.md.
set -euo pipefail

cd "$(dirname "$0")/.."
target=aarch64-linux-android

if ! rustup target list --installed | grep -qx "$target"; then
    echo "android-check: installing the Rust standard library for $target"
    rustup target add "$target"
fi

echo "android-check: cargo check --target $target --lib --features gui"
cargo check --target "$target" --lib --features gui
echo "android-check: OK, the library and its Slint interface type-check for $target"
