# The packaging.conan test: `conan create` of packaging/conan, offline, in a Conan home of its own,
# with the test's profile. The recipe's test_package builds against the created package and runs.
#   cmake -DCONAN=... -DSOURCE=<gpuplan checkout> -DWORK=<dir> -DPROFILE=... -DOPTIONS=a|b
#         -DEXPECT=regex||regex... [-DBUILD_TYPE=Debug] -P conan_create.cmake
# BUILD_TYPE overrides the profile's (Release) for the host: the tool's sources compile several
# times faster at -O0, and the test is of the packaging, not of the optimiser.
# The recipe and the files it exports are copied to WORK first, so that the test_package's build
# folder (Conan puts it beside the test_package) never lands in the source tree.
cmake_minimum_required(VERSION 3.25)
set(home "${WORK}/home")
set(src "${WORK}/src")
file(REMOVE_RECURSE "${home}" "${src}")  # a fresh cache every run: the package is really built
file(MAKE_DIRECTORY "${home}" "${src}/packaging")
file(COPY "${SOURCE}/CMakeLists.txt" "${SOURCE}/cmake" "${SOURCE}/include" DESTINATION "${src}")
file(COPY "${SOURCE}/tools" DESTINATION "${src}" PATTERN "doc" EXCLUDE)
file(GLOB licenses "${SOURCE}/LICENSE*")
if(licenses)
  file(COPY ${licenses} DESTINATION "${src}")
endif()
file(COPY "${SOURCE}/packaging/conan" DESTINATION "${src}/packaging"
  PATTERN "build" EXCLUDE PATTERN "CMakeUserPresets.json" EXCLUDE)

set(ENV{CONAN_HOME} "${home}")
set(ENV{NO_COLOR} "1")

set(options "")
if(OPTIONS)
  string(REPLACE "|" ";" opts "${OPTIONS}")
  foreach(o IN LISTS opts)
    list(APPEND options -o "gpuplan/*:${o}")
  endforeach()
endif()

set(settings "")
if(BUILD_TYPE)
  set(settings -s:h "build_type=${BUILD_TYPE}")
endif()

execute_process(
  COMMAND "${CONAN}" create "${src}/packaging/conan" --no-remote --build=missing
          -pr:h "${PROFILE}" -pr:b "${PROFILE}" ${options} ${settings}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message(STATUS "conan create output:\n${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "conan create failed (${rc})")
endif()
string(REPLACE "||" ";" expected "${EXPECT}")
foreach(re IN LISTS expected)
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "test_package did not print '${re}'")
  endif()
endforeach()
