#!/usr/bin/env bash
# Runs every test (core, simulator, CLI and the GUI offscreen) under AddressSanitizer +
# UndefinedBehaviorSanitizer (build-asan) and the engine's threading tests under ThreadSanitizer
# (build-tsan, without the GUI). Benchmarks are off in both. Exits non-zero on any failure or
# sanitizer report.
# See docs/sanitizers.md.
#   scripts/sanitizers.sh [asan] [tsan]   (default: both, ASan first)
# LANEBENCH_ASAN_BUILD_DIR, LANEBENCH_TSAN_BUILD_DIR: build dirs. LANEBENCH_SANITIZER_JOBS:
# parallel compile jobs (default: nproc). LANEBENCH_TEST_JOBS: ASan tests at once (default:
# nproc + 1); the TSan tests run one at a time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${LANEBENCH_SANITIZER_JOBS:-$(nproc)}"
test_jobs="${LANEBENCH_TEST_JOBS:-$(($(nproc) + 1))}"
suppressions="$root/scripts/sanitizers"
modes=("$@")
if ((${#modes[@]} == 0)); then modes=(asan tsan); fi

# Tests left out under ASan, each with its reason (docs/sanitizers.md). Parsers and threading
# tests are never left out.
asan_excluded=(
  # Checks the source tree's formatting, not code; the normal ctest runs it.
  format_check
  # Checks which Debian packages a build used, not code; the normal ctest runs it.
  check_install_deps_test
  # Holds the simulator's real-time calibration: ratios of TTFT and decode rate between time
  # scales and lanes, within 10 %. ASan's fixed cost per request weighs more on the faster lane
  # and moved a ratio 12 % (a CI run); the same server code runs instrumented in the simulator's
  # wire, fault and client tests.
  sim_server_timing_test
  # Compares the client's send lateness replaying 126K-token prompts with small ones, against a
  # simulator in the same process: instrumented, the simulator's own work on those bodies takes
  # the cores (p99 44 ms against 13 ms in a CI run) and is what it would measure. The prefetcher
  # it relies on runs under TSan (run_body_prefetcher_test) and the trace tests under ASan.
  run_trace_schedule_test
)
# The engine's threading tests: the streaming client's I/O thread, the load driver, the plan
# runner, the run folder writer's thread and the parallel hasher, and the simulator's server
# threads as the client sees them; and those that resolve API keys and start a managed server
# while those threads run, so that a test or a change that writes the environment under them
# is reported rather than left to chance.
tsan_tests=(
  net_stream_client_test net_client_errors_test run_load_driver_test run_plan_runner_test run_units_test
  run_written_first_test artifacts_verification_test sim_stream_client_test run_managed_env_test
  plan_resolved_test sim_api_key_test run_body_prefetcher_test
)

. "$root/scripts/lib/sanitizer_tree.sh"

# Room the timing tests add to their upper bounds under instrumentation (tests/support/timing_slack.h):
# ASan slows calls about 2x and TSan 5-15x, and a 20 ms scripted delay measured against a 30 ms bound
# would then fail on the sanitizer's cost, not on a bug. Lower bounds stay as they are.
timing_slack_ms=25

regex_of() {  # name... -> ^(a|b|c)$
  local IFS='|'
  echo "^($*)\$"
}

run_asan() {
  local build="${LANEBENCH_ASAN_BUILD_DIR:-$root/build-asan}"
  local start=$SECONDS
  asan_configure "$root" "$build"
  cmake --build "$build" --parallel "$jobs"
  echo "sanitizers: asan build took $((SECONDS - start)) s" >&2
  start=$SECONDS
  (
    cd "$build"
    export QT_QPA_PLATFORM=offscreen
    export LANEBENCH_TIMING_SLACK_MS="$timing_slack_ms"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:\
detect_stack_use_after_return=1:check_initialization_order=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp:print_suppressions=0"
    # Side by side, as in scripts/test.sh.
    ctest --output-on-failure --timeout 600 -j "$test_jobs" -E "$(regex_of "${asan_excluded[@]}")"
  )
  echo "sanitizers: asan tests took $((SECONDS - start)) s" >&2
}

run_tsan() {
  local build="${LANEBENCH_TSAN_BUILD_DIR:-$root/build-tsan}"
  local start=$SECONDS
  # No programs: the threading tests run none, and a test program that runs lanebench-cli would
  # otherwise have the CLI and the report libraries built under TSan for nothing.
  # Only the threading tests' sources go into the test programs (LANEBENCH_TEST_ONLY), not their
  # folders' whole programs.
  local only
  only="$(
    IFS=';'
    echo "${tsan_tests[*]}"
  )"
  sanitizer_configure "$root" "$build" "-fsanitize=thread" -DLANEBENCH_BUILD_APPS=OFF \
    -DLANEBENCH_BUILD_GUI=OFF "-DLANEBENCH_TEST_ONLY=$only"
  # Only the test programs that hold the threading tests, and what they need: a TSan build of
  # everything is not needed. A test's program is the first word of its ctest command.
  local programs=() targets=() t program
  for t in "${tsan_tests[@]}"; do
    program="$(grep -rhoE "^add_test\(\[=\[$t\]=\] \"[^\"]+\"" "$build" --include=CTestTestfile.cmake |
      sed -E 's/.*"([^"]+)"$/\1/')"
    if [[ -n "$program" ]]; then
      targets+=("$t")
      programs+=("$(basename "$program")")
    fi
  done
  mapfile -t programs < <(printf '%s\n' "${programs[@]}" | sort -u)
  cmake --build "$build" --parallel "$jobs" --target "${programs[@]}"
  echo "sanitizers: tsan build took $((SECONDS - start)) s" >&2
  start=$SECONDS
  (
    cd "$build"
    export QT_QPA_PLATFORM=offscreen
    export LANEBENCH_TIMING_SLACK_MS="$timing_slack_ms"
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:\
suppressions=$suppressions/tsan.supp"
    ctest --output-on-failure --timeout 600 -R "$(regex_of "${targets[@]}")"
  )
  echo "sanitizers: tsan tests took $((SECONDS - start)) s" >&2
}

for mode in "${modes[@]}"; do
  case "$mode" in
    asan) run_asan ;;
    tsan) run_tsan ;;
    *)
      echo "sanitizers: unknown mode \"$mode\" (asan, tsan)" >&2
      exit 2
      ;;
  esac
done
