#!/usr/bin/env bash
# The Android stores' screenshots, in fastlane/metadata/android/<locale>/images/ (the layout F-Droid
# and Google Play read): phoneScreenshots/ and sevenInchScreenshots/, two in each language, a
# previewed jump chain (1_game.png) and the analysed review (2_analysed_review.png). They are never
# drawn by hand: the screenshot test (tests/screenshots.rs, store_shots) renders them with Slint's
# software renderer into $CARGO_TARGET_DIR/screenshots/ at a 1080×2160 phone (scale 2.75) and a
# 7-inch tablet (1200×1920, scale 2), and this script copies them.
#
#     android/store-screenshots.sh           refresh: render the store sizes in every language
#                                            (HALMA_SCREENSHOT_SIZES=phone-store,tablet-7 cargo
#                                            test --test screenshots), copy them, then check
#     android/store-screenshots.sh --check   only compare, after the screenshot test ran (what
#                                            .ci/run does after `cargo test`)
#
# The check compares the committed PNGs with the rendered ones byte for byte (the rendering is
# deterministic: mock time, a fixed game, an analysis at a fixed depth, and the PNG encoder's output
# is a function of the pixels), and fails, naming the stale files and the one command that refreshes
# them, when any differs, is missing, or is over 1 MiB. Text is drawn with the system's fonts
# (fontconfig), so the reference is the machine that runs .ci/run: a machine with other fonts
# renders other pixels, and its refresh would commit them.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "store-screenshots: $*"; }
target="${CARGO_TARGET_DIR:-target}"
rendered="$target/screenshots"
metadata=fastlane/metadata/android
refresh_command="android/store-screenshots.sh"
max_bytes=$((1024 * 1024))

# The app's language codes and the stores' locale folders.
languages=(en:en-US fr:fr-FR uk:uk id:id fil:fil)
# The test's size names and the stores' image folders.
sizes=(phone-store:phoneScreenshots tablet-7:sevenInchScreenshots)
# The test's state names and the files' names (the stores show them in name order).
states=(game:1_game analysed-review:2_analysed_review)

check_only=false
case "${1:-}" in
    "") ;;
    --check) check_only=true ;;
    *) echo "usage: android/store-screenshots.sh [--check]" >&2; exit 2 ;;
esac

if ! $check_only; then
    say "rendering the store sizes in every language (cargo test --test screenshots)"
    env -u HALMA_SCREENSHOT_LANGUAGES HALMA_SCREENSHOT_SIZES=phone-store,tablet-7 \
        cargo test --test screenshots
fi

stale=()
missing_render=()
for language in "${languages[@]}"; do
    code="${language%%:*}"
    locale="${language#*:}"
    for size in "${sizes[@]}"; do
        size_name="${size%%:*}"
        folder="$metadata/$locale/images/${size#*:}"
        expected=()
        for state in "${states[@]}"; do
            shot="$rendered/$code-$size_name-${state%%:*}.png"
            committed="$folder/${state#*:}.png"
            expected+=("$committed")
            if [ ! -f "$shot" ]; then
                missing_render+=("$shot")
                continue
            fi
            if ! $check_only; then
                mkdir -p "$folder"
                cmp -s "$shot" "$committed" 2>/dev/null || cp "$shot" "$committed"
            fi
            if [ ! -f "$committed" ]; then
                stale+=("$committed (missing)")
            elif ! cmp -s "$shot" "$committed"; then
                stale+=("$committed (differs from $shot)")
            elif [ "$(wc -c <"$committed")" -gt "$max_bytes" ]; then
                stale+=("$committed (over 1 MiB: $(wc -c <"$committed") bytes)")
            fi
        done
        # Nothing else in the folder: a shot the test no longer renders would stay on the store.
        if [ -d "$folder" ]; then
            for file in "$folder"/*; do
                [ -e "$file" ] || continue
                known=false
                for wanted in "${expected[@]}"; do [ "$file" = "$wanted" ] && known=true; done
                if ! $known; then
                    if $check_only; then stale+=("$file (not rendered by the test)"); else rm -f "$file"; fi
                fi
            done
        fi
    done
done

if [ ${#missing_render[@]} -gt 0 ]; then
    say "not rendered (run the screenshot test first: cargo test --test screenshots):"
    printf '  %s\n' "${missing_render[@]}"
    exit 1
fi
if [ ${#stale[@]} -gt 0 ]; then
    say "the committed store screenshots are stale:"
    printf '  %s\n' "${stale[@]}"
    say "refresh them with: $refresh_command   (then commit $metadata/*/images)"
    exit 1
fi
count=$((${#languages[@]} * ${#sizes[@]} * ${#states[@]}))
if $check_only; then
    say "the $count committed store screenshots are the rendered ones, byte for byte"
else
    say "$count store screenshots in $metadata/*/images/ are up to date; commit them"
fi
