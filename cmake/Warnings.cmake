# Our own targets build with warnings as errors; third-party headers come in as SYSTEM.
# LANEBENCH_WERROR=OFF keeps the warnings but lets the build go on: the sanitizer builds
# (scripts/sanitizers.sh) compile with clang, whose warning set differs from g++'s, and warnings
# are the normal build's job.
option(LANEBENCH_WERROR "Treat warnings in our own code as errors" ON)
function(lanebench_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-missing-field-initializers)
  if(LANEBENCH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
