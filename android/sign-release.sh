#!/usr/bin/env bash
# Signs the release APK and AAB that `android/build-apk.sh --release --unsigned` left unsigned, with
# the release key, then verifies them. The workflow runs this alone in the one step that sees the
# signing secrets, in the tag-only release job, which runs no build scripts of dependencies:
#
#     android/sign-release.sh dist/halma-1.2.3-release-unsigned.apk [dist/halma-1.2.3-release-unsigned.aab]
#
# Writes halma-<version>-release.apk (and .aab) next to the inputs. The key comes from the
# environment: RELEASE_KEYSTORE_BASE64 (the keystore, base64; written to a temporary file that is
# removed on exit) or RELEASE_KEYSTORE (a path), RELEASE_KEYSTORE_PASSWORD, RELEASE_KEY_ALIAS and
# optionally RELEASE_KEY_PASSWORD (default: the store password). apksigner and zipalign come from
# the pinned build-tools under ANDROID_HOME (or ANDROID_BUILD_TOOLS_DIR); jarsigner from the JDK.
set -euo pipefail
android_dir="$(cd "$(dirname "$0")" && pwd)"
fail() { echo "sign-release: FAILED: $*" >&2; exit 1; }
apk_in="${1:-}"
aab_in="${2:-}"
[ -f "$apk_in" ] || fail "usage: android/sign-release.sh <unsigned.apk> [<unsigned.aab>]"
[ -z "$aab_in" ] || [ -f "$aab_in" ] || fail "$aab_in does not exist"
for variable in RELEASE_KEYSTORE_PASSWORD RELEASE_KEY_ALIAS; do
    [ -n "${!variable:-}" ] || fail "$variable is not set (repository secrets ANDROID_KEYSTORE_PASSWORD, ANDROID_KEY_ALIAS)"
done
build_tools="${ANDROID_BUILD_TOOLS_DIR:-${ANDROID_HOME:-}/build-tools/${ANDROID_BUILD_TOOLS_VERSION:-$(sed -n 's/^ANDROID_BUILD_TOOLS_VERSION=//p' "$android_dir/toolchain.env")}}"
[ -x "$build_tools/apksigner" ] || fail "no apksigner in $build_tools"

keystore="${RELEASE_KEYSTORE:-}"
secret_dir="$(mktemp -d)"
trap 'rm -rf "$secret_dir"' EXIT
if [ -n "${RELEASE_KEYSTORE_BASE64:-}" ]; then
    keystore="$secret_dir/release.jks"
    printf '%s' "$RELEASE_KEYSTORE_BASE64" | base64 --decode >"$keystore" || fail "RELEASE_KEYSTORE_BASE64 is not base64"
fi
[ -f "$keystore" ] || fail "no keystore: set the repository secret ANDROID_KEYSTORE_BASE64 (or RELEASE_KEYSTORE)"
key_password_variable=RELEASE_KEY_PASSWORD
[ -n "${RELEASE_KEY_PASSWORD:-}" ] || key_password_variable=RELEASE_KEYSTORE_PASSWORD

apk_out="${apk_in/-release-unsigned.apk/-release.apk}"
[ "$apk_out" != "$apk_in" ] || apk_out="${apk_in%.apk}-signed.apk"
"$build_tools/apksigner" sign --ks "$keystore" --ks-key-alias "$RELEASE_KEY_ALIAS" \
    --ks-pass env:RELEASE_KEYSTORE_PASSWORD --key-pass "env:$key_password_variable" --out "$apk_out" "$apk_in"
rm -f "$apk_out.idsig"
"$build_tools/apksigner" verify --print-certs "$apk_out" | grep -E "^Signer #1 certificate (DN|SHA-256)" | sed 's/^/sign-release: /'
"$build_tools/zipalign" -c -P 16 4 "$apk_out"
echo "sign-release: $apk_out: signed with the release key, verified, libraries 16 KiB-aligned"

if [ -n "$aab_in" ]; then
    aab_out="${aab_in/-release-unsigned.aab/-release.aab}"
    [ "$aab_out" != "$aab_in" ] || aab_out="${aab_in%.aab}-signed.aab"
    cp "$aab_in" "$aab_out"
    jarsigner -keystore "$keystore" -storepass:env RELEASE_KEYSTORE_PASSWORD -keypass:env "$key_password_variable" \
        -sigalg SHA256withRSA -digestalg SHA-256 "$aab_out" "$RELEASE_KEY_ALIAS" >/dev/null
    jarsigner -verify "$aab_out" >/dev/null
    echo "sign-release: $aab_out: signed with the release key, verified"
fi
