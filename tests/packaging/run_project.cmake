# Configures, builds and optionally installs or runs a separate CMake project, for the packaging
# tests. Run as: cmake -DSOURCE=... -DBINARY=... [options] -P run_project.cmake
#
#   SOURCE, BINARY          the project and a build directory (emptied first: every run is fresh)
#   GENERATOR, MAKE_PROGRAM, COMPILER, CXX_FLAGS, LINKER_FLAGS   the toolchain of the main build
#   ARGS                    more -D arguments, separated by '|'
#   INSTALL_PREFIX          if set: cmake --install into it after the build (emptied first)
#   EXPECT_CONFIGURE_FAIL   if set: configuring must fail with output matching this regex
#   RUN, EXPECT_OUTPUT      if set: run BINARY/RUN and match its output against EXPECT_OUTPUT
#   EXPECT_INCLUDE          if set: the build's compile_commands.json must name this directory
#                           with -I (not -isystem: gpuplan's headers must never be hidden as
#                           system headers, which would silence warnings the types rely on)
cmake_minimum_required(VERSION 3.25)
foreach(var SOURCE BINARY)
  if(NOT ${var})
    message(FATAL_ERROR "run_project.cmake: ${var} is not set")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${BINARY}")
set(configure "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
if(GENERATOR)
  list(APPEND configure -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND configure "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(COMPILER)
  list(APPEND configure "-DCMAKE_CXX_COMPILER=${COMPILER}")
endif()
if(CXX_FLAGS)
  list(APPEND configure "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
endif()
if(LINKER_FLAGS)
  list(APPEND configure "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
endif()
if(ARGS)
  string(REPLACE "|" ";" extra "${ARGS}")
  list(APPEND configure ${extra})
endif()

if(DEFINED EXPECT_CONFIGURE_FAIL)
  execute_process(COMMAND ${configure} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "configuring ${SOURCE} succeeded but must fail:\n${out}")
  endif()
  if(NOT out MATCHES "${EXPECT_CONFIGURE_FAIL}")
    message(FATAL_ERROR "configuring failed, but not with '${EXPECT_CONFIGURE_FAIL}':\n${out}")
  endif()
  message(STATUS "configuring failed as expected")
  return()
endif()

run_step("configure ${SOURCE}" ${configure})
run_step("build ${SOURCE}" "${CMAKE_COMMAND}" --build "${BINARY}")

if(INSTALL_PREFIX)
  file(REMOVE_RECURSE "${INSTALL_PREFIX}")
  run_step("install ${SOURCE}" "${CMAKE_COMMAND}" --install "${BINARY}" --prefix "${INSTALL_PREFIX}")
  message(STATUS "installed into ${INSTALL_PREFIX}")
endif()

if(EXPECT_INCLUDE)
  file(READ "${BINARY}/compile_commands.json" commands)
  if(commands MATCHES "-isystem ?${EXPECT_INCLUDE}")
    message(FATAL_ERROR "${EXPECT_INCLUDE} is a system include directory:\n${commands}")
  endif()
  if(NOT commands MATCHES "-I${EXPECT_INCLUDE}")
    message(FATAL_ERROR "${EXPECT_INCLUDE} is not on the include path:\n${commands}")
  endif()
endif()

if(RUN)
  run_step("run ${RUN}" "${BINARY}/${RUN}")
  message(STATUS "${RUN} printed:\n${step_output}")
  if(EXPECT_OUTPUT AND NOT step_output MATCHES "${EXPECT_OUTPUT}")
    message(FATAL_ERROR "output of ${RUN} does not match '${EXPECT_OUTPUT}'")
  endif()
endif()
