# Our own targets build with warnings as errors; third-party headers come in as SYSTEM.
function(lanebench_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-missing-field-initializers)
endfunction()
