#!/usr/bin/env bash
# Runs the whole test suite of an existing build while CPU hogs keep the machine loaded, a number
# of times in a row, and stops at the first failure: a check that no test asserts a bound that
# machine load can break (docs/building.md, "Tests under load").
#   scripts/stress-tests.sh [BUILD_DIR] [RUNS] [HOGS]
# Defaults: build, 3 runs, 6 hogs (with ctest -j2 beside them, a load average of about 8 on
# 2 cores). Needs stress-ng (apt-get install stress-ng).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
runs="${2:-3}"
hogs="${3:-6}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ && "$hogs" =~ ^[1-9][0-9]*$ ]]; then
  echo "stress-tests: RUNS and HOGS must be whole numbers above 0 (got '$runs', '$hogs')" >&2
  exit 2
fi
if ! command -v stress-ng >/dev/null; then
  echo "stress-tests: stress-ng is not installed (apt-get install stress-ng)" >&2
  exit 2
fi
if [[ ! -f "$build/CTestTestfile.cmake" ]]; then
  echo "stress-tests: $build is not a configured build (scripts/build.sh makes one)" >&2
  exit 2
fi
stress-ng --cpu "$hogs" --quiet &
hog_pid=$!
trap 'kill "$hog_pid" 2>/dev/null || true; wait "$hog_pid" 2>/dev/null || true' EXIT
hogs_running() {  # a run without its load would pass for the wrong reason
  if ! kill -0 "$hog_pid" 2>/dev/null; then
    echo "stress-tests: stress-ng stopped; the runs so far had their load, the rest would not" >&2
    exit 2
  fi
}
sleep 20  # let the load average climb before the first run
hogs_running
for run in $(seq 1 "$runs"); do
  start=$SECONDS
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  if ! QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" -j2 --output-on-failure \
    >"$build/stress-run-$run.log" 2>&1; then
    echo "stress-tests: run $run of $runs failed (load $load_before); see $build/stress-run-$run.log" >&2
    grep -E "^\s+[0-9]+ - " "$build/stress-run-$run.log" >&2 || true
    exit 1
  fi
  hogs_running
  echo "stress-tests: run $run of $runs passed in $((SECONDS - start)) s" \
    "(load average $load_before before, $(cut -d' ' -f1 /proc/loadavg) after)"
done
