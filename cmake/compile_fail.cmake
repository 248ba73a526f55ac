# Runs one compile-fail test: cmake -DCOMPILER=... -DSOURCE=... -DINCLUDE_DIR=... -P compile_fail.cmake
#
# The source must compile cleanly without GPUPLAN_COMPILE_FAIL (its passing twin), and must fail
# to compile with it, printing every `// expect: <regex>` line's text in the diagnostics. A bare
# "it did not compile" would pass for the wrong reason when anything else breaks. An optional
# `// first-error: <regex>` line must match the first diagnostic line that contains "error", so a
# test can insist that the first thing the user reads is the sentence, not template soup.
file(STRINGS "${SOURCE}" _expect_lines REGEX "^// expect: ")
if(NOT _expect_lines)
  message(FATAL_ERROR "${SOURCE}: no '// expect: <regex>' line")
endif()

set(_flags -std=c++20 -fsyntax-only -Wall -Wextra -Werror "-I${INCLUDE_DIR}")

execute_process(COMMAND "${COMPILER}" ${_flags} "${SOURCE}"
  RESULT_VARIABLE _twin_rc OUTPUT_VARIABLE _twin_out ERROR_VARIABLE _twin_out)
if(NOT _twin_rc EQUAL 0)
  message(FATAL_ERROR "passing twin of ${SOURCE} does not compile:\n${_twin_out}")
endif()

execute_process(COMMAND "${COMPILER}" ${_flags} -DGPUPLAN_COMPILE_FAIL "${SOURCE}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(_rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled with GPUPLAN_COMPILE_FAIL but must not")
endif()
file(STRINGS "${SOURCE}" _first_lines REGEX "^// first-error: ")
if(_first_lines)
  string(REGEX MATCH "[^\n]*error[^\n]*" _first "${_out}")
  foreach(line IN LISTS _first_lines)
    string(REGEX REPLACE "^// first-error: " "" _re "${line}")
    if(NOT _first MATCHES "${_re}")
      message(FATAL_ERROR "${SOURCE}: the first error line does not match '${_re}':\n${_first}")
    endif()
  endforeach()
endif()
foreach(line IN LISTS _expect_lines)
  string(REGEX REPLACE "^// expect: " "" _re "${line}")
  if(NOT _out MATCHES "${_re}")
    message(FATAL_ERROR "${SOURCE}: diagnostics do not match '${_re}':\n${_out}")
  endif()
endforeach()
message(STATUS "${SOURCE}: fails as expected")
