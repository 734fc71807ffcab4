#!/usr/bin/env bash
# Installs the debug APK on a running emulator and plays it, as a person would, with adb only
# (the workflow's emulator job runs this inside reactivecircus/android-emulator-runner):
#
#     .ci/android-emulator-test.sh <apk> <output folder>
#
#  1. install, launch, wait; the process must be alive and logcat free of crashes;
#  2. tap Start on the setup screen, then play one move by taps (a piece of seat A, a green
#     destination dot, Confirm), found on screenshots by their colours (Slint's Android backend
#     has no accessibility bridge, so uiautomator sees no buttons); the save file in the app's
#     internal storage (run-as, the APK is debuggable) must have changed with the move;
#  3. Back: the key (KEYCODE_BACK; on API 36, for an app targeting SDK 36, Android turns it into the
#     OnBackInvokedCallback that Slint registers), and on API 36 also the predictive-back edge
#     swipe with gesture navigation: each must leave the game for the setup screen, not close the app;
#  4. on API 33+, the per-app language set to French (`cmd locale set-app-locales`): the app must
#     keep running (no restart: configChanges) and redraw;
#  5. Home, kill the process as Android does to a background app, relaunch: the game resumes (the
#     board is shown, the save is the one with the move).
# Every step leaves a screenshot (NN-name.png) in the output folder, with logcat.txt at the end.
# Fails on FATAL, UnsatisfiedLinkError, "panicked" or a native crash of the app in logcat.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
apk="${1:?usage: .ci/android-emulator-test.sh <apk> <output folder>}"
out="${2:?usage: .ci/android-emulator-test.sh <apk> <output folder>}"
package=org.halma.app
activity="$package/android.app.NativeActivity"
screen="$repo/android/emulator-screen.py"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
command -v adb >/dev/null 2>&1 || PATH="${ANDROID_HOME:-}/platform-tools:$PATH"

step=0
say() { echo "emulator-test: $*"; }
shell() { adb shell "$@" | tr -d '\r'; }
pid_of() { shell pidof "$package" 2>/dev/null || true; }
raw() { adb exec-out screencap >"$out/current.raw"; }
shot() { # name: a PNG for people, kept as an artifact
    step=$((step + 1))
    adb exec-out screencap -p >"$out/$(printf '%02d' "$step")-$1.png"
    say "screenshot $(printf '%02d' "$step")-$1.png"
}
pids_seen=" "
remember_pid() {
    local pid
    pid="$(pid_of)"
    [ -z "$pid" ] || case "$pids_seen" in *" $pid "*) ;; *) pids_seen="$pids_seen$pid " ;; esac
}
crashes() { # the app's crash lines in logcat so far
    adb logcat -d -v threadtime >"$out/logcat.txt" 2>/dev/null || true
    awk -v pids="$pids_seen" -v package="$package" '
        BEGIN { n = split(pids, list, " "); for (i = 1; i <= n; i++) ours[list[i]] = 1 }
        ($3 in ours) && /FATAL|UnsatisfiedLinkError|panicked|thread .* panicked at/ { print; next }
        index($0, "Process: " package) || index($0, ">>> " package " <<<") || /UnsatisfiedLinkError.*halma/ { print }
    ' "$out/logcat.txt"
}
fail() {
    echo "emulator-test: FAILED: $*" >&2
    shot failure || true
    crashes | head -n 40 >&2 || true
    exit 1
}
check_alive() { # what just happened
    local found
    remember_pid
    [ -n "$(pid_of)" ] || fail "the app is not running after: $1"
    found="$(crashes)"
    [ -z "$found" ] || { printf '%s\n' "$found" | head -n 40 >&2; fail "crash in logcat after: $1"; }
    say "ok: alive (pid $(pid_of)) after: $1"
}
board_share() { raw; python3 "$screen" board "$out/current.raw"; }
on_game_page() { # the board covers a good part of the screen
    awk -v share="$(board_share)" 'BEGIN { exit !(share > 0.08) }'
}
tap() { shell input tap "$1" "$2"; sleep 2; }
tap_primary() { # pick (top, bottom, largest); what it is for the messages
    local where
    raw
    where="$(python3 "$screen" find "$out/current.raw" primary --pick "$1")"
    [ -n "$where" ] || fail "no $2 button on the screen"
    say "tap $2 at $where"
    # shellcheck disable=SC2086 # "x y"
    tap $where
}
save_hash() { # the saved game, as the app wrote it to its internal storage
    adb exec-out run-as "$package" cat files/game.json 2>/dev/null | sha256sum | cut -c1-16
}
empty_hash="$(printf '' | sha256sum | cut -c1-16)"
wait_for_save_change() { # old hash; waits until the save differs, prints the new hash
    local hash
    for _ in $(seq 1 20); do
        hash="$(save_hash)"
        if [ "$hash" != "$1" ] && [ "$hash" != "$empty_hash" ]; then
            echo "$hash"
            return 0
        fi
        sleep 1
    done
    return 1
}
launch() {
    shell am start -W -n "$activity" | sed 's/^/    /'
    sleep "${1:-8}"
}

api="$(shell getprop ro.build.version.sdk)"
say "device: Android $(shell getprop ro.build.version.release), API $api, ABI $(shell getprop ro.product.cpu.abi), page size $(shell getconf PAGE_SIZE) bytes, screen $(shell wm size | sed 's/.*: //'), density $(shell wm density | sed 's/.*: //' | tail -n 1)"
if [ "${EXPECT_PAGE_SIZE:-}" ] && [ "$(shell getconf PAGE_SIZE)" != "$EXPECT_PAGE_SIZE" ]; then
    fail "expected a page size of $EXPECT_PAGE_SIZE bytes on this image"
fi

# 1. Install and launch.
adb logcat -c || true
say "install $apk"
adb install -r "$apk" | sed 's/^/    /'
shell settings put global stay_on_while_plugged_in 7 || true
shell input keyevent KEYCODE_WAKEUP || true
shell wm dismiss-keyguard 2>/dev/null || true
launch 12
check_alive "launch"
shot start
on_game_page && fail "a fresh install should open the setup screen, not a game"

# 2. Setup, then one move by taps.
before="$(save_hash)"
tap_primary bottom "Start"
check_alive "Start"
on_game_page || fail "Start did not open the game (no board on the screen)"
shot game
started="$(wait_for_save_change "$before")" || started="$before"
say "save after Start: $started (before: $before)"
raw
mapfile -t pieces < <(python3 "$screen" find "$out/current.raw" seat-a --pick all)
say "${#pieces[@]} pieces of seat A found on the screen"
[ "${#pieces[@]}" -gt 0 ] || fail "no piece of seat A found on the board"
moved=false
for piece in "${pieces[@]}"; do
    # shellcheck disable=SC2086 # "x y"
    tap $piece
    raw
    dot="$(python3 "$screen" find "$out/current.raw" dot --pick largest)"
    [ -n "$dot" ] || continue
    say "piece at $piece selected, destination dot at $dot"
    # shellcheck disable=SC2086 # "x y"
    tap $dot
    shot preview
    tap_primary largest "Confirm"
    moved=true
    break
done
$moved || fail "no piece of seat A showed a destination after a tap"
check_alive "a move"
moved_save="$(wait_for_save_change "$started")" || fail "the save file did not change after the move"
say "ok: the save changed with the move ($started -> $moved_save)"
shot moved

# 3. Back, which leaves the game for the setup screen (the game is kept), then Resume.
back_to_setup() { # how
    sleep 2
    check_alive "Back ($1)"
    [ "$(shell dumpsys activity activities | grep -c "mResumedActivity.*$package\|topResumedActivity.*$package")" -gt 0 ] ||
        fail "Back ($1) closed the app instead of leaving the game"
    on_game_page && fail "Back ($1) did not leave the game"
    say "ok: Back ($1) left the game for the setup screen"
}
shell input keyevent KEYCODE_BACK
back_to_setup "KEYCODE_BACK$([ "$api" -ge 36 ] && echo ", through OnBackInvokedCallback on API $api")"
shot back-key
tap_primary top "Resume game"
on_game_page || fail "Resume game did not bring the game back"
if [ "$api" -ge 36 ]; then
    # Predictive back: gesture navigation, then a swipe from the left edge.
    shell cmd overlay enable com.android.internal.systemui.navbar.gestural || true
    sleep 3
    size="$(shell wm size | sed -n 's/.*: \([0-9]*\)x\([0-9]*\).*/\1 \2/p' | tail -n 1)"
    read -r width height <<<"$size"
    shell input swipe 2 $((height / 2)) $((width / 2)) $((height / 2)) 300
    back_to_setup "predictive back gesture"
    shot back-gesture
    tap_primary top "Resume game"
    on_game_page || fail "Resume game did not bring the game back"
else
    say "predictive back: not on API $api (Back arrives as KEYCODE_BACK only)"
fi

# 4. The per-app language (Android 13+).
if [ "$api" -ge 33 ]; then
    pid="$(pid_of)"
    raw && cp "$out/current.raw" "$out/english.raw"
    shell cmd locale set-app-locales "$package" --locales fr-FR
    sleep 4
    check_alive "per-app language French"
    [ "$(pid_of)" = "$pid" ] || fail "the app restarted on the language change (configChanges should keep it)"
    shell cmd locale get-app-locales "$package" | sed 's/^/    /'
    raw
    changed="$(python3 "$screen" diff "$out/english.raw" "$out/current.raw")"
    awk -v c="$changed" 'BEGIN { exit !(c > 0.001) }' || fail "the screen did not change with the language (share $changed)"
    say "ok: French per-app language: same process, $changed of the screen redrawn"
    shot french
    rm -f "$out/english.raw"
else
    say "per-app language: not on API $api (Android 13+)"
fi

# 5. Process death: Home, kill the background process, relaunch.
shell input keyevent KEYCODE_HOME
sleep 3
pid="$(pid_of)"
shell am kill "$package" || true
sleep 2
if [ -n "$(pid_of)" ]; then
    adb shell run-as "$package" kill -9 "$pid" || true
    sleep 2
fi
[ -z "$(pid_of)" ] || fail "could not kill the app's process $pid"
say "ok: process $pid killed in the background"
launch 12
check_alive "relaunch after the process was killed"
on_game_page || fail "after the relaunch the game did not resume (no board)"
[ "$(save_hash)" = "$moved_save" ] || fail "the save changed on relaunch: the game was not the one with the move"
say "ok: the game resumed after the process was killed"
shot resumed

found="$(crashes)"
[ -z "$found" ] || { printf '%s\n' "$found" >&2; fail "crash lines in logcat"; }
rm -f "$out/current.raw"
say "OK: API $api: installed, launched, played a move, Back, $([ "$api" -ge 33 ] && echo "French, ")resumed after process death; logcat clean"
