#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (GUI tests offscreen, no display needed).
# Each step reports its wall time: the whole of it should take at most 20 minutes on 2 cores
# (docs/building.md has the last measured step times).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

free_space() {  # the space left on the disk the build dirs are on, e.g. "41G"
  df -h --output=avail "$root" | tail -n 1 | tr -d ' '
}

step() {  # name command...
  local start=$SECONDS
  "${@:2}"
  echo "test: $1 took $((SECONDS - start)) s; $(free_space) free on the build disk" >&2
}

fuzz() {
  # Fuzzing (docs/fuzzing.md): each libFuzzer target for a short, bounded time once the tests
  # pass, built in the ASan tree that the sanitizer step then completes. Needs clang-14 and its
  # libFuzzer runtime, which bootstrap.sh installs.
  if command -v clang++-14 >/dev/null &&
    compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a" >/dev/null; then
    # A fixed seed: the same change gives the same verdict on every run. Exploring with new
    # seeds is scripts/fuzz.sh on its own, for longer (docs/fuzzing.md).
    LANEBENCH_FUZZ_SECONDS="${LANEBENCH_FUZZ_SECONDS:-15}" \
      LANEBENCH_FUZZ_SEED="${LANEBENCH_FUZZ_SEED:-1}" "$root/scripts/fuzz.sh"
  else
    echo "fuzz: not run: clang-14 with libFuzzer is not installed (scripts/bootstrap.sh installs it)"
  fi
}

# The three build dirs (normal; ASan with the fuzz targets; TSan) take about 2.5 GB together
# (docs/building.md).
echo "test: $(free_space) free on the build disk" >&2
if (($(df -k --output=avail "$root" | tail -n 1) < 3 * 1024 * 1024)); then
  echo "test: warning: less than 3 GB free; the build dirs need about 2.5 GB" >&2
fi
step bootstrap "$root/scripts/bootstrap.sh" --tests
step build "$root/scripts/build.sh"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
# Every package the build used must come from bootstrap.sh's list (or the base image), or the
# README's commands fail on a fresh machine where nobody installed it by hand.
step install-deps "$root/scripts/check-install-deps" "$build"
cd "$build"
export QT_QPA_PLATFORM=offscreen
# Side by side: most tests wait on loopback servers and timers (a serial run kept under half a
# core busy), and the suite holds under load (docs/building.md, "Tests under load"). The few
# that compare two timings of their own are RUN_SERIAL and run alone.
# LANEBENCH_TEST_JOBS: tests at once (default: one more than the cores).
test_jobs="${LANEBENCH_TEST_JOBS:-$(($(nproc) + 1))}"
step ctest ctest --output-on-failure --timeout 300 -j "$test_jobs"
step fuzz fuzz
# Sanitizers (docs/sanitizers.md): the core, simulator and CLI tests under ASan+UBSan and the
# engine's threading tests under TSan, each in its own build dir.
step sanitizers "$root/scripts/sanitizers.sh" asan tsan
# Packaging (docs/packaging.md): build the .deb, install it with apt, run the installed programs
# from /usr/bin with no display and a short plan on simulator lanes, then remove it.
step package "$root/scripts/package.sh" --install-check >/dev/null
