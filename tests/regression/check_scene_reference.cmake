# docs/scene_reference.md must equal `tendril schema --markdown` (regenerate:
#   build/release/apps/cli/tendril schema --markdown > docs/scene_reference.md).
execute_process(COMMAND ${TENDRIL} schema --markdown RESULT_VARIABLE code OUTPUT_VARIABLE generated)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "tendril schema --markdown failed with ${code}")
endif()
file(READ ${REFERENCE} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${REFERENCE} is out of date; regenerate it with: tendril schema --markdown > docs/scene_reference.md")
endif()
