# The library's targets. Every header belongs to exactly one target's FILE_SET, and
# VERIFY_INTERFACE_HEADER_SETS compiles each header on its own against its target.
#
#   gpuplan::gpuplan  the core: units, specs, catalogs, models, plan. Depends on nothing.
#   gpuplan::format   {fmt} formatters for quantities and reports (gpuplan/units/format.hpp, ...).
#   gpuplan::boost    the Boost.Units bridge (gpuplan/units/boost.hpp).
#   gpuplan::json     JSON in and out and Hugging Face config.json (gpuplan/io/*), nlohmann-json.
#   gpuplan::probe    the CUDA driver / NVML probe (gpuplan/probe/*), links the dynamic loader.

set(GPUPLAN_INCLUDE_DIR "${PROJECT_SOURCE_DIR}/include")

file(GLOB_RECURSE _gpuplan_all_headers CONFIGURE_DEPENDS
  RELATIVE "${GPUPLAN_INCLUDE_DIR}" "${GPUPLAN_INCLUDE_DIR}/gpuplan/*.hpp")

set(_gpuplan_core_headers "")
set(_gpuplan_format_headers "")
set(_gpuplan_boost_headers "")
set(_gpuplan_json_headers "")
set(_gpuplan_probe_headers "")
foreach(h IN LISTS _gpuplan_all_headers)
  if(h MATCHES "^gpuplan/probe/")
    list(APPEND _gpuplan_probe_headers "${GPUPLAN_INCLUDE_DIR}/${h}")
  elseif(h MATCHES "^gpuplan/io/")
    list(APPEND _gpuplan_json_headers "${GPUPLAN_INCLUDE_DIR}/${h}")
  elseif(h MATCHES "/format\\.hpp$")
    list(APPEND _gpuplan_format_headers "${GPUPLAN_INCLUDE_DIR}/${h}")
  elseif(h MATCHES "/boost\\.hpp$")
    list(APPEND _gpuplan_boost_headers "${GPUPLAN_INCLUDE_DIR}/${h}")
  else()
    list(APPEND _gpuplan_core_headers "${GPUPLAN_INCLUDE_DIR}/${h}")
  endif()
endforeach()

# find_package for an optional part, with an error that says how to turn the part off.
macro(_gpuplan_require option package version debian)
  find_package(${package} ${version} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "${option} is ON but ${package} ${version}+ was not found. Install it "
      "(Debian: apt-get install ${debian}) or configure with -D${option}=OFF.")
  endif()
endmacro()

function(_gpuplan_interface name)
  cmake_parse_arguments(ARG "" "EXPORT_NAME" "HEADERS;LINK" ${ARGN})
  add_library(${name} INTERFACE)
  add_library(gpuplan::${ARG_EXPORT_NAME} ALIAS ${name})
  # EXPORT_NO_SYSTEM: installed headers stay on a plain -I path in consumers. As system headers
  # they would silence the warnings (-Wconversion, deprecations) that the types rely on.
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${ARG_EXPORT_NAME} EXPORT_NO_SYSTEM ON)
  target_compile_features(${name} INTERFACE cxx_std_20)
  target_sources(${name} INTERFACE
    FILE_SET HEADERS BASE_DIRS "${GPUPLAN_INCLUDE_DIR}" FILES ${ARG_HEADERS})
  if(ARG_LINK)
    target_link_libraries(${name} INTERFACE ${ARG_LINK})
  endif()
  if(GPUPLAN_VERIFY_HEADERS)
    set_target_properties(${name} PROPERTIES VERIFY_INTERFACE_HEADER_SETS ON)
  endif()
endfunction()

_gpuplan_interface(gpuplan EXPORT_NAME gpuplan HEADERS ${_gpuplan_core_headers})
# GPUPLAN_TARGETS: every library target built; GPUPLAN_COMPONENTS: the optional parts among them
# (the names consumers pass to find_package(gpuplan COMPONENTS ...)).
set(GPUPLAN_TARGETS gpuplan)
set(GPUPLAN_COMPONENTS "")

if(GPUPLAN_WITH_FMT AND _gpuplan_format_headers)
  _gpuplan_require(GPUPLAN_WITH_FMT fmt 9 libfmt-dev)
  _gpuplan_interface(gpuplan_format EXPORT_NAME format
    HEADERS ${_gpuplan_format_headers} LINK gpuplan fmt::fmt)
  list(APPEND GPUPLAN_TARGETS gpuplan_format)
  list(APPEND GPUPLAN_COMPONENTS format)
endif()

if(GPUPLAN_WITH_BOOST AND _gpuplan_boost_headers)
  _gpuplan_require(GPUPLAN_WITH_BOOST Boost 1.74 libboost-dev)
  _gpuplan_interface(gpuplan_boost EXPORT_NAME boost
    HEADERS ${_gpuplan_boost_headers} LINK gpuplan Boost::headers)
  list(APPEND GPUPLAN_TARGETS gpuplan_boost)
  list(APPEND GPUPLAN_COMPONENTS boost)
endif()

if(GPUPLAN_WITH_JSON AND _gpuplan_json_headers)
  _gpuplan_require(GPUPLAN_WITH_JSON nlohmann_json 3.10 nlohmann-json3-dev)
  _gpuplan_interface(gpuplan_json EXPORT_NAME json
    HEADERS ${_gpuplan_json_headers} LINK gpuplan nlohmann_json::nlohmann_json)
  list(APPEND GPUPLAN_TARGETS gpuplan_json)
  list(APPEND GPUPLAN_COMPONENTS json)
endif()

if(GPUPLAN_WITH_PROBE AND _gpuplan_probe_headers)
  _gpuplan_interface(gpuplan_probe EXPORT_NAME probe
    HEADERS ${_gpuplan_probe_headers} LINK gpuplan ${CMAKE_DL_LIBS})
  list(APPEND GPUPLAN_TARGETS gpuplan_probe)
  list(APPEND GPUPLAN_COMPONENTS probe)
endif()

# Warnings as errors for the project's own code (tests, examples, benchmarks), never exported.
# Two exceptions, g++ only, where g++ 12 with optimization (-O2/-O3) warns inside inlined library
# code it cannot see through: -Wmaybe-uninitialized (Debian's nlohmann_json 3.11.2 iterators,
# `m_type may be used uninitialized` in iter_impl, from any `for (auto& [k, v] : j.items())`) and
# -Wrestrict (std::string building, "__builtin_memcpy ... may overlap": GCC bugs 105329, 105651).
# Both stay warnings, printed, but do not fail a Release build.
add_library(gpuplan_warnings INTERFACE)
target_compile_options(gpuplan_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror>
  $<$<CXX_COMPILER_ID:GNU>:-Wno-error=maybe-uninitialized -Wno-error=restrict>)
