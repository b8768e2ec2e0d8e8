# Runs a command and checks its exit code and (optionally) that stderr contains a text and that the
# command wrote a file containing a text.
# cmake -DCOMMAND="a;b;c" -DEXPECT_CODE=2 [-DEXPECT_STDERR=text] [-DEXPECT_FILE=path [-DEXPECT_FILE_TEXT=text]]
#       -P cli_expect.cmake
# The folder of EXPECT_FILE (a run directory) is removed first, so an output left by an earlier
# run cannot pass the check.
if(DEFINED EXPECT_FILE)
  get_filename_component(expected_dir "${EXPECT_FILE}" DIRECTORY)
  file(REMOVE_RECURSE "${expected_dir}")
endif()
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL EXPECT_CODE)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_CODE}\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED EXPECT_STDERR)
  string(FIND "${err}" "${EXPECT_STDERR}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "stderr lacks '${EXPECT_STDERR}':\n${err}")
  endif()
endif()
if(DEFINED EXPECT_FILE AND NOT EXISTS "${EXPECT_FILE}")
  message(FATAL_ERROR "missing ${EXPECT_FILE}\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED EXPECT_FILE_TEXT)
  file(READ "${EXPECT_FILE}" content)
  string(FIND "${content}" "${EXPECT_FILE_TEXT}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${EXPECT_FILE} lacks '${EXPECT_FILE_TEXT}'")
  endif()
endif()
