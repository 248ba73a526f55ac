# Runs one documentation snippet's program; compares its output with the documented output.
#   cmake -DPROGRAM=... -DEXPECTED=<file or empty> -DWHERE=<file:line> -P run_snippet.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${WHERE} printed:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${WHERE}: the snippet's program exited with ${rc}")
endif()
if(EXPECTED)
  file(READ "${EXPECTED}" expected)
  string(STRIP "${expected}" expected)
  string(STRIP "${out}" actual)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${WHERE}: the output differs from the documented output.\n"
      "documented:\n${expected}\nactual:\n${actual}")
  endif()
endif()
