# Sourced by scripts/sanitizers.sh and scripts/fuzz.sh: how a sanitizer build tree is configured.
# One ASan+UBSan tree serves both the sanitizer tests and the libFuzzer targets: its core libraries
# also carry libFuzzer's coverage hooks (-fsanitize=fuzzer-no-link, with LANEBENCH_BUILD_FUZZ),
# which the tests' programs link as no-ops, so the libraries compile once instead of once per tree
# (docs/building.md).

# clang-14 (bootstrap.sh installs it for the fuzz targets): it compiles an instrumented batch about
# twice as fast as g++ 12 (docs/building.md), and the build dominates a sanitizer run's time.
# -O1 -g1: stacks symbolised to file and line (-g1 keeps the line tables, not the variables, which
# a sanitizer report does not use), a quicker compile than -O2, and assert() on (no NDEBUG) so a
# broken invariant stops the test where it breaks. Warnings are the normal build's job (g++ with
# -Werror): clang's own set must not stop a sanitizer run, so they stay warnings here.
sanitizer_compiler="${LANEBENCH_SANITIZER_CXX:-clang++-14}"
sanitizer_configure() {  # root build_dir sanitizer_flags [cmake options...]
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DCMAKE_CXX_COMPILER="$sanitizer_compiler" -DLANEBENCH_WERROR=OFF \
    -DLANEBENCH_BUILD_BENCH=OFF \
    -DCMAKE_CXX_FLAGS="$3" -DCMAKE_EXE_LINKER_FLAGS="$3" \
    -DCMAKE_SHARED_LINKER_FLAGS="$3" "${@:4}" >/dev/null
}

# UBSan findings abort (instead of printing and carrying on), so a test fails and libFuzzer saves
# a reproducer.
asan_flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
asan_configure() {  # root build_dir
  sanitizer_configure "$1" "$2" "$asan_flags" -DLANEBENCH_BUILD_FUZZ=ON
}
