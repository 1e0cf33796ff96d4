# Build time. A fresh build of every target took about 25 minutes on a 2-core machine, most of it
# compiling nlohmann/json, Qt and QtTest headers again in each of some three hundred files
# (docs/building.md). Unity builds compile a target's sources in batches, so those headers are
# parsed and their templates instantiated once per batch rather than once per file.
option(LANEBENCH_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
if(LANEBENCH_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 12)
endif()

# ccache, where the machine has it (bootstrap.sh installs it): a CI machine or a developer keeps
# its cache between builds, so a build of a change recompiles only the batches it touches, and a
# clean clone elsewhere on the same machine reuses the cache. base_dir makes the clone's absolute
# paths relative so two checkouts share results; nohashdir leaves the build folder out of the key.
# Debug info: line tables only (-g1) unless LANEBENCH_FULL_DEBUG_INFO is on. Stacks from gdb,
# the sanitizers and crash handlers still show file and line; only variables and types are gone.
# Full -g made each optimised batch about 30 % slower to compile (docs/building.md).
option(LANEBENCH_FULL_DEBUG_INFO "Full debug info (-g) in RelWithDebInfo and Debug builds" OFF)
if(NOT LANEBENCH_FULL_DEBUG_INFO)
  add_compile_options($<$<CONFIG:RelWithDebInfo,Debug>:-g1>)
endif()

option(LANEBENCH_CCACHE "Compile through ccache when it is installed" ON)
find_program(LANEBENCH_CCACHE_PROGRAM ccache)
if(LANEBENCH_CCACHE AND LANEBENCH_CCACHE_PROGRAM)
  get_filename_component(lanebench_checkout ${CMAKE_CURRENT_LIST_DIR}/.. REALPATH)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${lanebench_checkout} CCACHE_NOHASHDIR=1
      CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime,time_macros,file_macro
      ${LANEBENCH_CCACHE_PROGRAM})
  # A unity batch includes its sources by absolute path, so __FILE__ (in every QVERIFY) would
  # put the checkout's path into the preprocessed text and no clone elsewhere could reuse the
  # object. Mapped to a path relative to the checkout, it is the same in every clone.
  add_compile_options(-fmacro-prefix-map=${lanebench_checkout}/=)
endif()

# AUTOMOC through a wrapper that leaves out the compiler's implicit include directories
# (cmake/moc-without-system-includes.sh.in): moc took about 190 s of CPU per build tree before,
# most of it reading standard-library, Boost and nlohmann/json headers.
function(lanebench_automoc target)
  set_target_properties(${target} PROPERTIES AUTOMOC ON)
  if(NOT TARGET Qt6::moc)
    return()
  endif()
  set(wrapper ${PROJECT_BINARY_DIR}/moc-without-system-includes.sh)
  get_property(written GLOBAL PROPERTY LANEBENCH_MOC_WRAPPER_WRITTEN)
  if(NOT written)
    foreach(property IMPORTED_LOCATION IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_NOCONFIG)
      if(NOT LANEBENCH_MOC)
        get_target_property(LANEBENCH_MOC Qt6::moc ${property})
      endif()
    endforeach()
    set(dropped "")
    foreach(dir ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES})
      list(APPEND dropped "-I${dir}")
    endforeach()
    if(NOT LANEBENCH_MOC OR NOT dropped)
      return()  # plain AUTOMOC
    endif()
    list(JOIN dropped "|" LANEBENCH_MOC_DROPPED_ARGS)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/moc-without-system-includes.sh.in ${wrapper} @ONLY
                   FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set_property(GLOBAL PROPERTY LANEBENCH_MOC_WRAPPER_WRITTEN TRUE)
  endif()
  set_target_properties(${target} PROPERTIES AUTOMOC_EXECUTABLE ${wrapper})
endfunction()
