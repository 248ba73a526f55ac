# The packaging.install_tool test: the tool as `cmake --install` puts it, run from the prefix.
#   cmake -DBUILD=<this build tree> -DWORK=<dir> -DVERSION=<project version> -P install_tool.cmake
# 1. `cmake --install BUILD --prefix WORK/all`: the headers and bin/gpuplan.
# 2. `cmake --install BUILD --component tool --prefix WORK/tool`: bin/gpuplan and nothing else.
# Each installed gpuplan prints `gpuplan VERSION` for --version and answers a `fit` from a working
# directory outside the build and source trees.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/elsewhere")

function(install_to prefix)
  execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${WORK}/${prefix}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${ARGN} --prefix ${prefix} failed (${rc}):\n${out}")
  endif()
endfunction()

function(check_tool exe)
  if(NOT EXISTS "${exe}")
    message(FATAL_ERROR "not installed: ${exe}")
  endif()
  execute_process(COMMAND "${exe}" --version WORKING_DIRECTORY "${WORK}/elsewhere"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "gpuplan ${VERSION}\n")
    message(FATAL_ERROR "${exe} --version: exit ${rc}, printed '${out}' '${err}', "
      "expected 'gpuplan ${VERSION}'")
  endif()
  execute_process(COMMAND "${exe}" fit --model Llama-3.1-8B --gpu h100 --json
    WORKING_DIRECTORY "${WORK}/elsewhere" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} fit: exit ${rc}: ${err}")
  endif()
  string(JSON fits ERROR_VARIABLE e GET "${out}" fits)
  if(e OR NOT fits STREQUAL "OFF" AND NOT fits STREQUAL "ON")
    message(FATAL_ERROR "${exe} fit --json: no boolean 'fits' (${e}): ${out}")
  endif()
  message(STATUS "${exe}: ${VERSION}, fit answers (fits: ${fits})")
endfunction()

install_to(all)
check_tool("${WORK}/all/bin/gpuplan")
if(NOT EXISTS "${WORK}/all/include/gpuplan/gpuplan.hpp")
  message(FATAL_ERROR "the full install has no include/gpuplan/gpuplan.hpp")
endif()

install_to(tool --component tool)
check_tool("${WORK}/tool/bin/gpuplan")
file(GLOB_RECURSE files RELATIVE "${WORK}/tool" "${WORK}/tool/*")
if(NOT files STREQUAL "bin/gpuplan")
  message(FATAL_ERROR "--component tool installed more than bin/gpuplan: ${files}")
endif()
