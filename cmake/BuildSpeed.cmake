# Build time. A fresh build of every target took about 25 minutes on a 2-core machine, most of it
# compiling nlohmann/json, Qt and QtTest headers again in each of some three hundred files
# (docs/building.md). Unity builds compile a target's sources in batches, so those headers are
# parsed and their templates instantiated once per batch rather than once per file.
option(LANEBENCH_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
if(LANEBENCH_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 12)
endif()
