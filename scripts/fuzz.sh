#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang-14, ASan+UBSan) into build-fuzz and runs each one for
# a bounded time from its seed corpus. Exits non-zero when any target crashes, naming the target
# and the saved reproducer. Usage: scripts/fuzz.sh [TARGET...]   (default: every target)
# LANEBENCH_FUZZ_SECONDS: time per target (default 20). LANEBENCH_FUZZ_BUILD_DIR: build dir.
# LANEBENCH_FUZZ_SEED: libFuzzer's random seed (default: a new one each run, so runs explore).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${LANEBENCH_FUZZ_SECONDS:-20}"
seed_flag=()
if [[ -n "${LANEBENCH_FUZZ_SEED:-}" ]]; then seed_flag=(-seed="$LANEBENCH_FUZZ_SEED"); fi
targets=(sse_framer ndjson_framer stream_parser prometheus_text plan prompt_set texts_file inventory
  safetensors_header)
if (($# > 0)); then targets=("$@"); fi

cmake -S "$root/fuzz" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}"

passed=0
failed=0
for t in "${targets[@]}"; do
  # New inputs go to a scratch corpus in the build dir; the committed seeds stay untouched.
  work="$build/corpus/$t"
  artifacts="$build/artifacts/$t/"
  mkdir -p "$work" "$artifacts"
  log="$build/fuzz_$t.log"
  echo "fuzz: running $t for ${seconds}s" >&2
  if "$build/fuzz_$t" "${seed_flag[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "$root/fuzz/corpus/$t" \
    >"$log" 2>&1; then
    passed=$((passed + 1))
    grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/fuzz: $t /" >&2 || true
  else
    failed=$((failed + 1))
    tail -n 40 "$log" >&2
    reproducer="$(ls -t "$artifacts" 2>/dev/null | head -n 1)"
    echo "fuzz: FAILED $t (log $log); reproducer: ${reproducer:+$artifacts$reproducer}" >&2
    echo "fuzz: replay with $build/fuzz_$t ${reproducer:+$artifacts$reproducer}" >&2
  fi
done
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
