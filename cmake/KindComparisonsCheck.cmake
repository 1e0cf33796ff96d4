# Fails when product code compares an experiment kind by its name: a kind is record::ExperimentKind
# (core/record/experiment_kind.h), branched on with a switch or std::visit, so a kind left out is
# a compiler warning rather than a silent fall-through. Names are read only where a file is: the
# plan parser (core/plan/) and the run record's reader (core/record/). Invoked by ctest:
#   cmake -DROOT=... -P KindComparisonsCheck.cmake
cmake_policy(VERSION 3.25)
set(kinds "regression|throughput|context_sweep|prefix_cache|speculative|gates|trace|sampled_regression|sessions|capacity|determinism")
set(files)
foreach(dir core report_pdf sim models widgets ui app)
  file(GLOB_RECURSE found RELATIVE ${ROOT} ${ROOT}/${dir}/*.cpp ${ROOT}/${dir}/*.h)
  list(APPEND files ${found})
endforeach()
set(offenders "")
foreach(file ${files})
  if(file MATCHES "^core/(plan|record)/")
    continue()
  endif()
  file(STRINGS ${ROOT}/${file} lines
       REGEX "(==|!=)[ \t]*\"(${kinds})\"|\"(${kinds})\"[ \t]*(==|!=)")
  foreach(line ${lines})
    string(STRIP "${line}" line)
    # A simulator option of the same name ("trace") is not an experiment kind.
    if(NOT line MATCHES "^//" AND NOT line MATCHES "key ==")
      string(APPEND offenders "  ${file}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(offenders)
  message(FATAL_ERROR "these sources compare an experiment kind by name; use "
                      "record::ExperimentKind (record::experiment_kind_from where a file is read):\n"
                      "${offenders}")
endif()
list(LENGTH files count)
message(STATUS "kind comparisons by name: none outside core/plan and core/record in ${count} sources")
