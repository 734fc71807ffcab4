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
#     board is shown, and the save after the relaunch is the save taken just before the kill).
#  6. a game's message shared to Halma while it runs (`am start` of ACTION_SEND, text/plain, as a
#     chat app's share sheet sends it): the running app (same process, singleTask) must read it
#     (its "a shared text arrived" line in logcat), which needs the activity's onNewIntent.
# Every step leaves a screenshot (NN-name.png) in the output folder, with logcat.txt at the end,
# and result.txt says what passed (one line each: install and launch, the play, logcat).
# Fails on FATAL, UnsatisfiedLinkError, "panicked" or a native crash of the app in logcat.
# The gate and the play: install and launch (steps 0 and 1) and a clean logcat (7) always fail the
# run; the scripted play (2 to 6) fails it only with EMULATOR_PLAY_BLOCKING=true (the default
# here). The workflow sets it to false until every emulator leg has passed the play once: a failed
# play then leaves its line in result.txt, its screenshots and logcat, and a warning, and the run
# goes on to the logcat check (android/README.md, "The emulator policy").
# No fixed sleeps: every wait polls its condition until a deadline (EMULATOR_TIMEOUT_SCALE
# multiplies them all), and a failure names the step, the condition and the time waited, then
# leaves a screenshot of the failure and the whole logcat in the output folder.
# The page size comes from the kernel's KernelPageSize in /proc/self/smaps (Android 8's toybox has
# no `getconf PAGE_SIZE`); EXPECT_PAGE_SIZE, if set, must match it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
apk="${1:?usage: .ci/android-emulator-test.sh <apk> <output folder>}"
out="${2:?usage: .ci/android-emulator-test.sh <apk> <output folder>}"
package=org.halma.app
activity="$package/org.halma.app.HalmaActivity"
screen="$repo/android/emulator-screen.py"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
command -v adb >/dev/null 2>&1 || PATH="${ANDROID_HOME:-}/platform-tools:$PATH"

current_step="0. start"
rm -f "$out/result.txt" "$out/failure.txt" "$out/pids.txt"
say() { echo "emulator-test: $*"; }
result() { say "result: $*"; echo "$*" >>"$out/result.txt"; }
begin() { current_step="$*"; say "--- step $current_step"; }
shell() { adb shell "$@" | tr -d '\r'; }
pid_of() { shell pidof "$package" 2>/dev/null || true; }
raw() { adb exec-out screencap >"$out/current.raw"; }
# The screenshots' numbers and the app's process ids live in the output folder, not in variables:
# the play runs in a subshell (see below).
shot() { # name: a PNG for people, kept as an artifact
    local number
    number="$(printf '%02d' $(($(find "$out" -maxdepth 1 -name '[0-9][0-9]-*.png' | wc -l) + 1)))"
    adb exec-out screencap -p >"$out/$number-$1.png"
    say "screenshot $number-$1.png"
}
remember_pid() {
    local pid
    pid="$(pid_of)"
    [ -z "$pid" ] || grep -qx "$pid" "$out/pids.txt" 2>/dev/null || echo "$pid" >>"$out/pids.txt"
}
crashes() { # the app's crash lines in logcat so far
    local pids_seen
    pids_seen="$(tr '\n' ' ' <"$out/pids.txt" 2>/dev/null || true)"
    adb logcat -d -v threadtime >"$out/logcat.txt" 2>/dev/null || true
    awk -v pids="$pids_seen" -v package="$package" '
        BEGIN { n = split(pids, list, " "); for (i = 1; i <= n; i++) ours[list[i]] = 1 }
        ($3 in ours) && /FATAL|UnsatisfiedLinkError|panicked|thread .* panicked at/ { print; next }
        index($0, "Process: " package) || index($0, ">>> " package " <<<") || /UnsatisfiedLinkError.*halma/ { print }
    ' "$out/logcat.txt"
}
failed=false
fail() {
    failed=true
    echo "emulator-test: FAILED in step $current_step: $*" >&2
    echo "FAILED in step $current_step: $*" >"$out/failure.txt"
    shot failure || true
    crashes | head -n 40 >&2 || true
    exit 1
}
# Any other error (set -e) names the step and the command too, and still keeps the evidence.
on_exit() {
    local status=$?
    if [ "$status" -ne 0 ] && ! $failed; then
        echo "emulator-test: FAILED in step $current_step: exit $status (see the output above)" >&2
        echo "FAILED in step $current_step: exit $status" >"$out/failure.txt"
        shot failure || true
        crashes | head -n 40 >&2 || true
    fi
    rm -f "$out/current.raw"
}
trap on_exit EXIT
trap 'echo "emulator-test: command failed in step $current_step, line $LINENO: $BASH_COMMAND" >&2' ERR
scale="${EMULATOR_TIMEOUT_SCALE:-1}"
# wait_until SECONDS DESCRIPTION COMMAND...: polls COMMAND (every half second) until it succeeds;
# fails the step, naming DESCRIPTION and the time waited, at the deadline.
wait_until() {
    local seconds=$(($1 * scale)) what="$2" started=$SECONDS
    shift 2
    until "$@"; do
        [ $((SECONDS - started)) -lt "$seconds" ] || fail "waited ${seconds} s for: $what"
        sleep 0.5
    done
    say "ok after $((SECONDS - started)) s: $what"
}
# try_until SECONDS COMMAND...: the same, without failing: its status says whether it came.
try_until() {
    local seconds=$(($1 * scale)) started=$SECONDS
    shift
    until "$@"; do
        [ $((SECONDS - started)) -lt "$seconds" ] || return 1
        sleep 0.5
    done
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
not_on_game_page() { ! on_game_page; }
find_on_screen() { # kind pick: "x y" of it on a fresh screenshot, or nothing
    raw
    python3 "$screen" find "$out/current.raw" "$1" --pick "$2"
}
has_primary() { [ -n "$(find_on_screen primary "${1:-largest}")" ]; }
drawn() { # the app is running and has drawn its setup screen or a game
    [ -n "$(pid_of)" ] && { has_primary largest || on_game_page; }
}
tap() { shell input tap "$1" "$2"; }
tap_primary() { # pick (top, bottom, largest); what it is for the messages
    local where
    wait_until 10 "a $2 button on the screen" has_primary "$1"
    where="$(find_on_screen primary "$1")"
    say "tap $2 at $where"
    # shellcheck disable=SC2086 # "x y"
    tap $where
}
resumed_activity() { # is the app's activity the resumed (foreground) one?
    shell dumpsys activity activities | grep -q "mResumedActivity.*$package\|topResumedActivity.*$package"
}
not_resumed() { ! resumed_activity; }
not_running() { [ -z "$(pid_of)" ]; }
save_hash() { # the saved game, as the app wrote it to its internal storage (no save: the empty hash)
    { adb exec-out run-as "$package" cat files/game.json 2>/dev/null || true; } | sha256sum | cut -c1-16
}
empty_hash="$(printf '' | sha256sum | cut -c1-16)"
save_differs() { # old hash: the save exists and differs from it
    local hash
    hash="$(save_hash)"
    [ "$hash" != "$1" ] && [ "$hash" != "$empty_hash" ]
}
# The number of moves in the saved game (the session's game.moves), or -1 without a readable save.
save_moves() {
    { adb exec-out run-as "$package" cat files/game.json 2>/dev/null || true; } | python3 -c '
import json, sys
try:
    print(len(json.load(sys.stdin)["game"]["moves"]))
except Exception:
    print(-1)'
}
save_has_moves() { [ "$(save_moves)" -ge "$1" ]; }
# The save, once it has stopped changing: the same hash on reads $1 seconds apart. Prints it.
settled_hash=""
save_settled() {
    local first
    first="$(save_hash)"
    sleep "$1"
    settled_hash="$(save_hash)"
    [ "$first" = "$settled_hash" ] && [ "$settled_hash" != "$empty_hash" ]
}
launch() {
    shell am start -W -n "$activity" | sed 's/^/    /'
    wait_until 60 "the app running and drawn (setup screen or game)" drawn
}
# The kernel's page size, from the first KernelPageSize line of a process's smaps (in kB): works on
# every API level, unlike `getconf PAGE_SIZE`, which Android 8's toybox lacks.
page_size() {
    shell cat /proc/self/smaps | awk '$1 == "KernelPageSize:" { print $2 * 1024; exit }'
}

begin "0. the device"
booted() { [ "$(shell getprop sys.boot_completed)" = 1 ]; }
wait_until 120 "the device booted (sys.boot_completed)" booted
api="$(shell getprop ro.build.version.sdk)"
page="$(page_size)"
say "device: Android $(shell getprop ro.build.version.release), API $api, ABI $(shell getprop ro.product.cpu.abi), page size ${page:-unknown} bytes (KernelPageSize), screen $(shell wm size | sed 's/.*: //'), density $(shell wm density | sed 's/.*: //' | tail -n 1)"
[ -n "$page" ] || fail "no KernelPageSize in /proc/self/smaps"
if [ -n "${EXPECT_PAGE_SIZE:-}" ]; then
    [ "$page" = "$EXPECT_PAGE_SIZE" ] || fail "expected a page size of $EXPECT_PAGE_SIZE bytes on this image, the kernel has $page"
    say "ok: page size $page bytes, as expected on this image"
fi

begin "1. install and launch"
adb logcat -c || true
say "install $apk"
adb install -r "$apk" | sed 's/^/    /'
shell settings put global stay_on_while_plugged_in 7 || true
shell input keyevent KEYCODE_WAKEUP || true
shell wm dismiss-keyguard 2>/dev/null || true
launch
check_alive "launch"
shot start
if on_game_page; then fail "a fresh install should open the setup screen, not a game"; fi

result "install and launch: ok (Android $(shell getprop ro.build.version.release), API $api, page size $page bytes)"

# The scripted play, steps 2 to 6, in a subshell: a failure there ends the subshell, not the run,
# when the play does not block (EMULATOR_PLAY_BLOCKING=false).
# shellcheck disable=SC2317 # the helpers defined in here are called through wait_until and try_until
play() {
trap on_exit EXIT
trap 'echo "emulator-test: command failed in step $current_step, line $LINENO: $BASH_COMMAND" >&2' ERR
begin "2. Start and one move"
before="$(save_hash)"
tap_primary bottom "Start"
wait_until 20 "the game page (the board) after Start" on_game_page
check_alive "Start"
shot game
if try_until 10 save_differs "$before"; then started="$(save_hash)"; else started="$before"; fi
say "save after Start: $started (before: $before)"
raw
mapfile -t pieces < <(python3 "$screen" find "$out/current.raw" seat-a --pick all)
say "${#pieces[@]} pieces of seat A found on the screen"
[ "${#pieces[@]}" -gt 0 ] || fail "no piece of seat A found on the board"
moved=false
has_dot() { [ -n "$(find_on_screen dot largest)" ]; }
for piece in "${pieces[@]}"; do
    # shellcheck disable=SC2086 # "x y"
    tap $piece
    # A piece that cannot move shows no dot: the next one is tried.
    try_until 4 has_dot || continue
    dot="$(find_on_screen dot largest)"
    say "piece at $piece selected, destination dot at $dot"
    # shellcheck disable=SC2086 # "x y"
    tap $dot
    wait_until 10 "the preview's Confirm button" has_primary largest
    shot preview
    tap_primary largest "Confirm"
    moved=true
    break
done
$moved || fail "no piece of seat A showed a destination after a tap"
check_alive "a move"
wait_until 20 "the save file changed after the move" save_differs "$started"
moved_save="$(save_hash)"
say "ok: the save changed with the move ($started -> $moved_save)"
# The computer's reply (seat C, the default opponent) is the save's second move: wait for it,
# however long the computer thinks, so that later steps (the resume check compares saves) do not
# race it.
wait_until 120 "the computer's reply in the save (2 moves)" save_has_moves 2
settled_hash="$(save_hash)"
say "save after the computer's reply: $settled_hash"
shot moved

begin "3. Back"
# Back leaves the game for the setup screen (the game is kept), then Resume.
back_to_setup() { # how
    wait_until 10 "Back ($1) left the game (no board)" not_on_game_page
    check_alive "Back ($1)"
    resumed_activity || fail "Back ($1) closed the app instead of leaving the game"
    say "ok: Back ($1) left the game for the setup screen"
}
shell input keyevent KEYCODE_BACK
back_to_setup "KEYCODE_BACK$([ "$api" -ge 36 ] && echo ", through OnBackInvokedCallback on API $api")"
shot back-key
tap_primary top "Resume game"
wait_until 10 "Resume game brought the game back (the board)" on_game_page
if [ "$api" -ge 36 ]; then
    # Predictive back: gesture navigation, then a swipe from the left edge.
    gestural=com.android.internal.systemui.navbar.gestural
    shell cmd overlay enable "$gestural" || true
    gesture_navigation() { shell cmd overlay list | grep -q "\[x\] $gestural"; }
    wait_until 20 "gesture navigation on ($gestural enabled)" gesture_navigation
    size="$(shell wm size | sed -n 's/.*: \([0-9]*\)x\([0-9]*\).*/\1 \2/p' | tail -n 1)"
    read -r width height <<<"$size"
    shell input swipe 2 $((height / 2)) $((width / 2)) $((height / 2)) 300
    back_to_setup "predictive back gesture"
    shot back-gesture
    tap_primary top "Resume game"
    wait_until 10 "Resume game brought the game back (the board)" on_game_page
else
    say "predictive back: not on API $api (Back arrives as KEYCODE_BACK only)"
fi

begin "4. per-app language"
if [ "$api" -ge 33 ]; then
    pid="$(pid_of)"
    raw && cp "$out/current.raw" "$out/english.raw"
    shell cmd locale set-app-locales "$package" --locales fr-FR
    changed=0
    redrawn() {
        raw
        changed="$(python3 "$screen" diff "$out/english.raw" "$out/current.raw")"
        awk -v c="$changed" 'BEGIN { exit !(c > 0.001) }'
    }
    wait_until 20 "the screen redrawn in French (more than 0.1 % of it changed)" redrawn
    check_alive "per-app language French"
    [ "$(pid_of)" = "$pid" ] || fail "the app restarted on the language change (configChanges should keep it)"
    shell cmd locale get-app-locales "$package" | sed 's/^/    /'
    say "ok: French per-app language: same process, $changed of the screen redrawn"
    shot french
    rm -f "$out/english.raw"
else
    say "per-app language: not on API $api (Android 13+)"
fi

begin "5. process death and resume"
shell input keyevent KEYCODE_HOME
wait_until 15 "the app in the background after Home" not_resumed
# The app saves when it stops; the save just before the kill is what the relaunch must show.
wait_until 30 "the save settled in the background (unchanged for 2 s)" save_settled 2
before_kill="$settled_hash"
[ "$before_kill" != "$started" ] || fail "the save before the kill is the one from before the move"
pid="$(pid_of)"
shell am kill "$package" || true
if ! try_until 5 not_running; then
    adb shell run-as "$package" kill -9 "$pid" || true
fi
wait_until 10 "the app's process $pid gone" not_running
say "ok: process $pid killed in the background, save $before_kill"
launch
check_alive "relaunch after the process was killed"
wait_until 20 "the game back after the relaunch (the board)" on_game_page
after_relaunch="$(save_hash)"
[ "$after_relaunch" = "$before_kill" ] ||
    fail "the save after the relaunch ($after_relaunch) is not the save just before the kill ($before_kill)"
say "ok: the game resumed after the process was killed, save $after_relaunch as before the kill"
shot resumed

begin "6. a message shared while the game runs"
pid="$(pid_of)"
message="Halma: your move, Purple. Open with Halma. (emulator test)"
shell am start -W -a android.intent.action.SEND -t text/plain --es android.intent.extra.TEXT "'$message'" \
    -n "$activity" | sed 's/^/    /' || true
shared_text_read() {
    adb logcat -d -v threadtime 2>/dev/null | awk -v pid="$pid" '$3 == pid' | grep -q "halma: a shared text arrived (${#message} bytes)"
}
wait_until 20 "the running app reading the shared text (logcat: a shared text arrived)" shared_text_read
check_alive "a message shared while the game runs"
[ "$(pid_of)" = "$pid" ] || fail "the app restarted for the shared message (singleTask should keep it)"
say "ok: the running app (pid $pid) read the ${#message}-byte shared message"
shot shared-message
}

set +e
(
    set -e
    play
)
play_status=$?
set -e
if [ "$play_status" -eq 0 ]; then
    result "play: ok (a move and the computer's reply, Back, $([ "$api" -ge 33 ] && echo "French, ")resumed after process death, a shared message read while running)"
else
    reason="$(cat "$out/failure.txt" 2>/dev/null || echo "FAILED: exit $play_status")"
    rm -f "$out/failure.txt"
    if [ "${EMULATOR_PLAY_BLOCKING:-true}" = true ]; then
        result "play: $reason"
        failed=true
        exit 1
    fi
    result "play: $reason (not blocking: EMULATOR_PLAY_BLOCKING=false)"
    [ -z "${GITHUB_ACTIONS:-}" ] || echo "::warning title=Emulator play (API $api, not blocking)::$reason"
fi

begin "7. logcat"
remember_pid
found="$(crashes)"
[ -z "$found" ] || { printf '%s\n' "$found" >&2; result "logcat: crash lines of the app"; fail "crash lines in logcat"; }
result "logcat: clean"
if [ "$play_status" -eq 0 ]; then
    say "OK: API $api: installed, launched, played a move, Back, $([ "$api" -ge 33 ] && echo "French, ")resumed after process death, a shared message read while running; logcat clean"
else
    say "OK (gate): API $api: installed, launched, logcat clean; the scripted play FAILED, not blocking (result.txt)"
fi
