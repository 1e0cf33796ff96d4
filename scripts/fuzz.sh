#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang-14, ASan+UBSan) in the ASan tree the sanitizer tests
# share (build-asan, scripts/lib/sanitizer_tree.sh) and runs each one for a bounded time from its
# seed corpus. Exits non-zero when any target crashes, naming the target and the saved reproducer.
#   scripts/fuzz.sh [TARGET...]   (default: every target)
# LANEBENCH_FUZZ_SECONDS: time per target (default 20). LANEBENCH_ASAN_BUILD_DIR: the tree.
# LANEBENCH_FUZZ_SEED: libFuzzer's random seed (default: a new one each run, so runs explore).
# LANEBENCH_FUZZ_JOBS: targets run at once (default: nproc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tree="${LANEBENCH_ASAN_BUILD_DIR:-$root/build-asan}"
build="$tree/fuzz"
seconds="${LANEBENCH_FUZZ_SECONDS:-20}"
seed_flag=()
if [[ -n "${LANEBENCH_FUZZ_SEED:-}" ]]; then seed_flag=(-seed="$LANEBENCH_FUZZ_SEED"); fi
targets=(sse_framer ndjson_framer stream_parser prometheus_text plan prompt_set trace_file
  texts_file inventory safetensors_header run_folder logprobs media_reader report_escapes
  safe_file_name shard_merge)
if (($# > 0)); then targets=("$@"); fi

. "$root/scripts/lib/sanitizer_tree.sh"
asan_configure "$root" "$tree"
cmake --build "$tree" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"

# Targets run side by side, one per core (LANEBENCH_FUZZ_JOBS overrides): each still gets its full
# time, and a libFuzzer process uses one core.
jobs="${LANEBENCH_FUZZ_JOBS:-$(nproc)}"

fuzz_one() {  # target; exit status is the target's verdict
  local t="$1"
  # New inputs go to a scratch corpus in the build dir; the committed seeds stay untouched.
  local work="$build/corpus/$t" artifacts="$build/artifacts/$t/" log="$build/fuzz_$t.log"
  mkdir -p "$work" "$artifacts"
  echo "fuzz: running $t for ${seconds}s" >&2
  if "$build/fuzz_$t" "${seed_flag[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "$root/fuzz/corpus/$t" \
    >"$log" 2>&1; then
    grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/fuzz: $t /" >&2 || true
    return 0
  fi
  tail -n 40 "$log" >&2
  local reproducer
  reproducer="$(ls -t "$artifacts" 2>/dev/null | head -n 1)"
  echo "fuzz: FAILED $t (log $log); reproducer: ${reproducer:+$artifacts$reproducer}" >&2
  echo "fuzz: replay with $build/fuzz_$t ${reproducer:+$artifacts$reproducer}" >&2
  return 1
}

passed=0
failed=0
declare -A running=()  # pid -> target
reap_one() {
  local pid
  wait -n -p pid "${!running[@]}" && passed=$((passed + 1)) || failed=$((failed + 1))
  unset "running[$pid]"
}
for t in "${targets[@]}"; do
  while ((${#running[@]} >= jobs)); do reap_one; done
  fuzz_one "$t" &
  running[$!]="$t"
done
while ((${#running[@]} > 0)); do reap_one; done
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
