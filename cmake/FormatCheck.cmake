# Fails when a C++ source of the project differs from what clang-format (.clang-format) makes of it.
# Invoked by ctest: cmake -DCLANG_FORMAT=... -DROOT=... -P FormatCheck.cmake
set(files)
foreach(dir core report_pdf sim models widgets ui app tests bench fuzz)
  file(GLOB_RECURSE found ${ROOT}/${dir}/*.cpp ${ROOT}/${dir}/*.h)
  list(APPEND files ${found})
endforeach()
list(LENGTH files count)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${files}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-format: these sources need formatting (run clang-format -i):\n${err}")
endif()
message(STATUS "clang-format: ${count} sources formatted")
