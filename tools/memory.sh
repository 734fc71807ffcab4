#!/usr/bin/env bash
# Resident memory of the desktop app (#39 item 6, docs/MEMORY.md), measured the same way
# every time: the release build players run, in a real X window (Xvfb), each run with a
# fresh copy of a prepared data folder, and the median of the runs.
#
#   tools/memory.sh [--runs N] [--no-build] [--detail] [--keep DIR]
#
# Points measured (MB = 10^6 bytes, as the issue counts; from /proc/PID/status):
#   start      a fresh data folder, once the app is idle
#   restored   a finished 175-action game with its analysis restored, idle
#   analysed   the same game restored without its analysis, Analyse clicked, measured
#              as the analysis threads end, and again ('+10 s') after ten quiet seconds
# Columns: VmRSS (resident), and its split RssAnon (heap, stacks, the GL driver's
# buffers), RssFile (the binary, libraries and fonts mapped from files) and RssShmem
# (shared memory: the X window's image). --detail also prints, for the last run of each
# point, the largest mappings by resident size (/proc/PID/smaps).
#
# The data folders come from tests/memory.rs (write_memory_fixture): Strong against
# Casual, seeded, so the game (177 actions) and its analysis are the same on every
# machine; MEMORY_FIXTURE=<dir> keeps them there between runs.
# Environment: CARGO_TARGET_DIR (as cargo), SLINT_BACKEND (passed on, to compare
# renderers), MEMORY_SIZE (the screen, default 1280x900), MEMORY_FIXTURE.
set -euo pipefail

runs=3
build=1
detail=0
keep=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --detail) detail=1; shift ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "memory.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
app=${MEMORY_APP:-$target/release/halma}
size=${MEMORY_SIZE:-1280x900}
for tool in Xvfb xdotool; do
  command -v $tool >/dev/null || { echo "memory.sh: $tool is missing (apt-get install xvfb xdotool)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/halma-memory.XXXXXX)
xvfb_pid=""
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null && wait "$app_pid" 2>/dev/null
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
  [ -z "$keep" ] && rm -rf "$work"
  true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$build" = 1 ]; then
  echo "building the release app (cargo build --release)..." >&2
  cargo build --release >&2
fi
[ -x "$app" ] || { echo "memory.sh: no $app (build it, or drop --no-build)" >&2; exit 1; }

fixture=${MEMORY_FIXTURE:-${keep:-$work}/fixture}
if [ ! -f "$fixture/analysed/game.json" ]; then
  echo "writing the data folders (tests/memory.rs, write_memory_fixture)..." >&2
  HALMA_MEMORY_FIXTURE=$fixture cargo test --release --no-default-features --test memory \
    -- --ignored --exact write_memory_fixture >&2
fi
[ -f "$fixture/analysed/game.json" ] || { echo "memory.sh: the fixture was not written" >&2; exit 1; }

# A display of our own.
for n in $(seq 140 199); do
  [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=:$n; break; }
done
Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
xdpyinfo -display "$display" >/dev/null 2>&1 || { echo "memory.sh: Xvfb did not start on $display" >&2; exit 1; }

# kB of a field of /proc/PID/status.
status_kb() { awk -v field="$1:" '$1 == field { print $2 }' "/proc/$app_pid/status"; }

# The process's CPU time in clock ticks (user + system).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$app_pid/stat"; }

alive() { [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; }

# Waits until the app has used under 3 ticks (30 ms) of CPU in each of two seconds in a
# row (at least $1 seconds after it is called; 90 s at most).
wait_idle() {
  local least=$1 quiet=0 before now waited=0
  sleep "$least"
  before=$(cpu_ticks)
  while [ $quiet -lt 2 ]; do
    sleep 1
    waited=$((waited + 1))
    alive || { echo "memory.sh: the app exited; its output:" >&2; tail -20 "$work/app.log" >&2; exit 1; }
    now=$(cpu_ticks)
    if [ $((now - before)) -lt 3 ]; then quiet=$((quiet + 1)); else quiet=0; fi
    before=$now
    [ $waited -lt 90 ] || { echo "memory.sh: the app never went idle" >&2; exit 1; }
  done
}

# Threads of the app whose name starts with "halma-analysi" (names are cut at 15 bytes).
analysis_threads() { cat /proc/"$app_pid"/task/*/comm 2>/dev/null | grep -c '^halma-analysi' || true; }

# One line of figures: point, run, VmRSS, RssAnon, RssFile, RssShmem (kB).
record() {
  echo "$1 $2 $(status_kb VmRSS) $(status_kb RssAnon) $(status_kb RssFile) $(status_kb RssShmem)" >>"$work/figures"
  if [ "$detail" = 1 ] && [ "$2" = "$runs" ]; then
    {
      echo "== $1: largest mappings (resident kB)"
      awk '/^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : "[anon]") } /^Rss:/ { rss[name] += $2 }
           END { for (n in rss) print rss[n], n }' "/proc/$app_pid/smaps" | sort -rn | head -12
    } >>"$work/detail"
  fi
}

start_app() {
  local data=$work/data
  rm -rf "$data"
  mkdir -p "$data"
  cp -r "$fixture/$1/." "$data/"
  DISPLAY=$display HALMA_DATA_DIR=$data LANG=en_US.UTF-8 LANGUAGE=en "$app" >"$work/app.log" 2>&1 &
  app_pid=$!
  local win=""
  for _ in $(seq 100); do
    win=$(DISPLAY=$display xdotool search --onlyvisible --pid "$app_pid" 2>/dev/null | head -1 || true)
    [ -n "$win" ] && break
    alive || { echo "memory.sh: the app exited; its output:" >&2; tail -20 "$work/app.log" >&2; exit 1; }
    sleep 0.2
  done
  [ -n "$win" ] || { echo "memory.sh: no window within 20 s" >&2; exit 1; }
  window=$win
  DISPLAY=$display xdotool windowfocus --sync "$window" 2>/dev/null || true
}

stop_app() {
  kill "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
  app_pid=""
}

# Clicks Analyse: the end card's button, found by its place in the window (it is the
# first button under the status at the app's default size); tells if no analysis starts.
click_analyse() {
  local geometry width height
  geometry=$(DISPLAY=$display xdotool getwindowgeometry "$window" | awk '/Geometry/ { print $2 }')
  width=${geometry%x*}
  height=${geometry#*x}
  local x=$((width * ${ANALYSE_X_PERMILLE:-824} / 1000)) y=$((height * ${ANALYSE_Y_PERMILLE:-184} / 1000))
  DISPLAY=$display xdotool mousemove --window "$window" "$x" "$y" click 1
  for _ in $(seq 50); do
    [ "$(analysis_threads)" -gt 0 ] && return 0
    sleep 0.1
  done
  DISPLAY=$display import -window root "$work/no-analysis.png" 2>/dev/null || true
  echo "memory.sh: no analysis started after a click at $x,$y of ${width}x$height (picture: $work/no-analysis.png with --keep)" >&2
  exit 1
}

for run in $(seq "$runs"); do
  echo "run $run of $runs..." >&2
  start_app fresh
  wait_idle 4
  record start "$run"
  stop_app

  start_app analysed
  wait_idle 4
  record restored "$run"
  stop_app

  start_app unanalysed
  wait_idle 4
  click_analyse
  waited=0
  while [ "$(analysis_threads)" -gt 0 ]; do
    sleep 0.2
    waited=$((waited + 1))
    [ $waited -lt 3000 ] || { echo "memory.sh: the analysis did not end within 10 minutes" >&2; exit 1; }
  done
  # The window takes the result: one more quiet moment.
  wait_idle 1
  record analysed "$run"
  sleep 10
  record "analysed+10s" "$run"
  stop_app
done

[ "$detail" = 1 ] && cat "$work/detail"
echo
echo "Resident memory, MB (median of $runs runs; $(basename "$app") $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src ui Cargo.toml || echo +changes))"
awk -v runs="$runs" '
  function median(list, n,   sorted, i, j, t) {
    for (i = 1; i <= n; i++) sorted[i] = list[i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
    return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
  }
  { n[$1]++; for (c = 3; c <= 6; c++) v[$1, c, n[$1]] = $c; if (!($1 in seen)) { seen[$1] = 1; order[++points] = $1 } }
  END {
    printf "%-14s %8s %8s %8s %8s\n", "point", "VmRSS", "anon", "file", "shmem"
    for (p = 1; p <= points; p++) {
      name = order[p]; printf "%-14s", name
      for (c = 3; c <= 6; c++) { delete l; for (r = 1; r <= n[name]; r++) l[r] = v[name, c, r]; printf " %8.1f", median(l, n[name]) * 1.024 / 1000 }
      printf "\n"
    }
  }' "$work/figures"
