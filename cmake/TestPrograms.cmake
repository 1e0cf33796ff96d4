# Test programs. Each test folder builds one program that holds all of its QtTest classes, and
# ctest runs one test per class (PROGRAM CLASS). About seventy single-class programs each linked
# the same static libraries again; a program per folder links them a dozen times
# (docs/building.md). tests/support/test_main.h has the macros a test file ends with.
#
#   lanebench_add_test(SOURCES <area>_<subject>_test.cpp b.cpp LIBS lib1 lib2 [LABELS l] [TIMEOUT s])
#
# adds the sources and libraries to the folder's program and registers a ctest test named after
# the first source, which runs the class that source registers with LANEBENCH_TEST_MAIN or
# LANEBENCH_TEST_GUILESS_MAIN. The naming scheme (docs/building.md) is enforced: the first
# source is <area>_<subject>_test.cpp, where area is its folder's name (tests/core/net ->
# net_stream_client_test.cpp), and the test has the file's name (ctest -R net_stream_client_test). LANEBENCH_TEST_PROGRAM (set in the caller's scope) names the
# program, for the folder's own compile definitions, include dirs and dependencies.

# LANEBENCH_TEST_ONLY: the tests to build, by name (a list; empty: every test). A tree that runs a
# few tests (the TSan tree runs the threading tests) then compiles only their sources, not their
# folders' whole programs (docs/building.md).
set(LANEBENCH_TEST_ONLY "" CACHE STRING "Build only these tests (names; empty: all)")

# tests/core/net -> tests_core_net
function(lanebench_test_program_name out)
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR}/tests ${CMAKE_CURRENT_SOURCE_DIR})
  string(REPLACE "/" "_" folder "${folder}")
  set(${out} tests_${folder} PARENT_SCOPE)
endfunction()

function(lanebench_test_program program)
  add_executable(${program} ${PROJECT_SOURCE_DIR}/tests/support/test_main.cpp)
  lanebench_warnings(${program})
  lanebench_automoc(${program})
  target_include_directories(${program} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  # Paths come from lb_test_paths (tests/support/test_paths.h), not compile definitions, so the
  # program's objects do not embed the checkout's path and ccache reuses them across clones.
  target_link_libraries(${program} PRIVATE Qt6::Test Qt6::Core lb_test_paths)
endfunction()

# The class a test source registers: LANEBENCH_TEST_MAIN(Class) or LANEBENCH_TEST_GUILESS_MAIN.
function(lanebench_test_class out source)
  get_filename_component(path ${source} ABSOLUTE)
  file(STRINGS ${path} lines REGEX "^LANEBENCH_TEST(_GUILESS)?_MAIN\\([A-Za-z0-9_]+\\)")
  if(NOT lines)
    message(FATAL_ERROR "${source} registers no test class: end it with LANEBENCH_TEST_MAIN(Class)"
                        " or LANEBENCH_TEST_GUILESS_MAIN(Class) (tests/support/test_main.h)")
  endif()
  string(REGEX REPLACE "^LANEBENCH_TEST(_GUILESS)?_MAIN\\(([A-Za-z0-9_]+)\\).*" "\\2" class
                       "${lines}")
  set(${out} ${class} PARENT_SCOPE)
endfunction()

# <area>_<subject>_test.cpp in tests/.../<area> -> <area>_<subject>_test; anything else stops
# the configure step.
function(lanebench_test_name out source)
  get_filename_component(area ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  get_filename_component(stem ${source} NAME_WE)
  if(NOT stem MATCHES "^${area}_[a-z0-9_]+_test$")
    message(FATAL_ERROR "${source}: a test's first source is named ${area}_<subject>_test.cpp "
                        "(its folder's name, the subject, _test; docs/building.md)")
  endif()
  set(${out} ${stem} PARENT_SCOPE)
endfunction()

function(lanebench_add_test)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  list(GET T_SOURCES 0 main_source)
  lanebench_test_name(T_NAME ${main_source})
  lanebench_test_program_name(program)
  if(NOT TARGET ${program})
    lanebench_test_program(${program})
  endif()
  set(LANEBENCH_TEST_PROGRAM ${program} PARENT_SCOPE)
  if(LANEBENCH_TEST_ONLY AND NOT T_NAME IN_LIST LANEBENCH_TEST_ONLY)
    return()  # the folder's program stays, without this test's sources
  endif()
  target_sources(${program} PRIVATE ${T_SOURCES})
  target_link_libraries(${program} PRIVATE ${T_LIBS})
  lanebench_test_class(class ${main_source})
  add_test(NAME ${T_NAME} COMMAND ${program} ${class})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  endif()
  set(LANEBENCH_TEST_PROGRAM ${program} PARENT_SCOPE)
endfunction()

# set_tests_properties for the tests this tree builds (LANEBENCH_TEST_ONLY may leave some out):
#   lanebench_test_properties(test1 test2 PROPERTIES name value ...)
function(lanebench_test_properties)
  cmake_parse_arguments(P "" "" "PROPERTIES" ${ARGN})
  foreach(test ${P_UNPARSED_ARGUMENTS})
    if(TEST ${test})
      set_tests_properties(${test} PROPERTIES ${P_PROPERTIES})
    endif()
  endforeach()
endfunction()
