# Compiles every resources/prompts/*.jsonl into lb_plan as a string table, so "builtin:NAME"
# resolves without any file next to the executable. Re-runs when a prompt set changes.
file(GLOB LB_BUILTIN_PROMPT_FILES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/resources/prompts/*.jsonl)
set(LB_BUILTIN_PROMPT_ENTRIES "")
foreach(prompt_file ${LB_BUILTIN_PROMPT_FILES})
  get_filename_component(set_name ${prompt_file} NAME_WE)
  file(READ ${prompt_file} set_text)
  string(FIND "${set_text}" ")lbps\"" delimiter_pos)
  if(NOT delimiter_pos EQUAL -1)
    message(FATAL_ERROR "${prompt_file} contains the raw-string delimiter )lbps\"")
  endif()
  string(APPEND LB_BUILTIN_PROMPT_ENTRIES
         "    {\"${set_name}\", R\"lbps(${set_text})lbps\"},\n")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${prompt_file})
endforeach()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/builtin_prompt_sets_data.cpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/builtin_prompt_sets_data.cpp @ONLY)
target_sources(lb_plan PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/builtin_prompt_sets_data.cpp)
