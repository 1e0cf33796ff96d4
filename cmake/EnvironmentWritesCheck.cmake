# Fails when a source changes the process environment outside the places allowed to: setenv,
# unsetenv, putenv and clearenv (and Qt's qputenv/qunsetenv) are not thread-safe, since they may
# move `environ` while another thread (QtTest's watchdog, curl's resolver, the simulator, a
# server's spawn) walks it. A program may set variables first thing in main(), before any thread;
# a test only through tests/support/test_main.h from its initMain(). Invoked by ctest:
#   cmake -DROOT=... -P EnvironmentWritesCheck.cmake
cmake_policy(VERSION 3.25)
set(allowed
    # lanebench-cli's main() calls it first, before any thread
    report_pdf/gui_application.cpp
    # before QApplication, in main()
    bench/gui/bench_gui_event_loop.cpp
    # set_environment_before_threads: only while initMain() runs
    tests/support/test_main.cpp)
set(files)
foreach(dir core report_pdf sim models widgets ui app tests bench fuzz)
  file(GLOB_RECURSE found RELATIVE ${ROOT} ${ROOT}/${dir}/*.cpp ${ROOT}/${dir}/*.h)
  list(APPEND files ${found})
endforeach()
set(offenders "")
foreach(file ${files})
  if(file IN_LIST allowed)
    continue()
  endif()
  file(STRINGS ${ROOT}/${file} lines REGEX "(^|[^A-Za-z0-9_])(setenv|unsetenv|putenv|clearenv|qputenv|qunsetenv)[ \t]*\\(")
  foreach(line ${lines})
    string(STRIP "${line}" line)
    if(NOT line MATCHES "^//")
      string(APPEND offenders "  ${file}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(offenders)
  message(FATAL_ERROR "these sources change the process environment, which is not thread-safe "
                      "(a test: lb::test::set_environment_before_threads in initMain(); code: "
                      "pass an lb::plan::Environment):\n${offenders}")
endif()
list(LENGTH files count)
message(STATUS "environment writes: none outside main() and initMain() in ${count} sources")
