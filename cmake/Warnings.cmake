# Our own targets build with warnings as errors; third-party headers come in as SYSTEM.
# LANEBENCH_WERROR=OFF keeps the warnings but lets the build go on: the sanitizer builds
# (scripts/sanitizers.sh) compile with clang, whose warning set differs from g++'s, and warnings
# are the normal build's job.
option(LANEBENCH_WERROR "Treat warnings in our own code as errors" ON)
function(lanebench_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-missing-field-initializers)
  # g++ 12 at -O3 (CMAKE_BUILD_TYPE=Release) reports std::string's own inlined concatenation
  # ("c" + std::to_string(n)) as overlapping memcpy: GCC bug 105651, fixed in g++ 13.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(LANEBENCH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
