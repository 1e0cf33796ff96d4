# Keeps a build dir small. A fresh build links about sixty test programs, each statically holding
# the libraries it uses, and their copies of the debug info filled the disk of a CI machine: about
# 3.3 GB of a 4.9 GB build was debug sections repeated in every executable (docs/building.md).
#
# - Thin static archives: a library names its objects instead of copying them.
# - LANEBENCH_COMPRESS_DEBUG_INFO (on by default): debug sections are zlib-compressed (-gz) in
#   objects and executables, about 2.6 times smaller. gdb, addr2line, valgrind and the sanitizers'
#   llvm-symbolizer read them in place, so stacks still show file and line.
option(LANEBENCH_COMPRESS_DEBUG_INFO "Compress debug sections (-gz)" ON)
if(LANEBENCH_COMPRESS_DEBUG_INFO)
  add_compile_options(-gz)
  add_link_options(-gz)
endif()

if(CMAKE_AR MATCHES "(^|/)(gcc-)?ar(-[0-9.]+)?$")
  set(CMAKE_CXX_ARCHIVE_CREATE "<CMAKE_AR> qcT <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_CXX_ARCHIVE_APPEND "<CMAKE_AR> qT <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
