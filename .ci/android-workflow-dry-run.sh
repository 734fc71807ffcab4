#!/usr/bin/env bash
# A dry run of .github/workflows/android.yml here: its jobs' steps, in order, against recording
# stand-ins for sdkmanager, rustup, cargo-ndk, curl, aapt2, zipalign, apksigner, bundletool, adb
# (a fake emulator with a fake Halma app), sudo and gh (.ci/android-dry-run/). Each stand-in logs
# its arguments and makes the files the next step reads, so a wrong path, flag, environment
# variable or step order fails here, not on the runner. It complements actionlint
# (.ci/lint-scripts.sh) and does not replace the hosted run: nothing is compiled for Android,
# nothing is downloaded, no emulator runs. Scenarios (default: all four):
#   push           a branch push: apk, the three emulator runs (the 16 KiB leg's fake app stops
#                  drawing pieces: its scripted play fails, which must not fail the job while
#                  EMULATOR_PLAY_BLOCKING is false), no release
#   tag            a tag v<Cargo.toml's version>: also the unsigned release APK and AAB, then the
#                  release job signs them (a keystore made here) and attaches them
#   tag-unsigned   the same tag without the signing secrets: the unsigned APK and AAB are built,
#                  checked and kept as the artifact, the release job says so in its summary and
#                  passes, signing and attaching nothing
#   skia-missing   no published x86_64 prebuilt Skia, two pushes in a row: the first warns, builds
#                  Skia from source for x86_64 (once, in the cargo-check preflight), packs it under
#                  its archive's name and saves it with actions/cache; the second restores it and
#                  builds nothing from source
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import yaml' 2>/dev/null || { echo "android-workflow-dry-run: needs PyYAML (.ci/lint-scripts.sh installs it)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for scenario in "${@:-push tag tag-unsigned skia-missing}"; do
    for one in $scenario; do
        started=$SECONDS
        echo "android-workflow-dry-run: scenario $one"
        mkdir -p "$work/$one"
        if ! python3 .ci/android-dry-run/run.py "$(pwd)" "$work/$one" "$one"; then
            status=1
            for log in "$work/$one"/*.log; do
                [ -f "$log" ] && { echo "--- $log"; tail -n 60 "$log"; }
            done
        fi
        if [ -n "${ANDROID_DRY_RUN_LOGS:-}" ]; then # keep each job's log, the calls and the artifacts
            mkdir -p "$ANDROID_DRY_RUN_LOGS/$one"
            cp -R "$work/$one"/*.log "$work/$one/calls.jsonl" "$work/$one/artifacts" "$ANDROID_DRY_RUN_LOGS/$one/"
        fi
        echo "android-workflow-dry-run: scenario $one took $((SECONDS - started)) s"
    done
done
exit "$status"
