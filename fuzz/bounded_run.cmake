# fuzz/bounded_run.cmake: one fuzz.NAME CTest test. Runs FUZZER with ARGS on a fresh work corpus
# (WORK, where libFuzzer writes what it finds) seeded from SEEDS (read only), crash artifacts in
# WORK/../artifacts-NAME/. Fails when the fuzzer reports a crash, a leak, a timeout or an
# out-of-memory, printing the artifact and how to reproduce it.
#   cmake -DFUZZER=... -DWORK=... -DSEEDS=... -DARGS=... -P bounded_run.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(_name "${WORK}" NAME)
get_filename_component(_parent "${WORK}" DIRECTORY)
set(_artifacts "${_parent}/artifacts-${_name}")
file(MAKE_DIRECTORY "${_artifacts}")
set(_dirs "${WORK}")
if(EXISTS "${SEEDS}")
  list(APPEND _dirs "${SEEDS}")
endif()
execute_process(
  COMMAND "${FUZZER}" ${ARGS} "-artifact_prefix=${_artifacts}/" ${_dirs}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(GLOB _found "${_artifacts}/*")
  message(FATAL_ERROR "fuzzer ${FUZZER} failed (exit ${_rc}); input(s): ${_found}\n"
    "reproduce: ${FUZZER} <input>; make it a regression test in tests/unit/test_reader_promises.cpp")
endif()
