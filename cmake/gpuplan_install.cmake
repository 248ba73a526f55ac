# Install rules: headers through the FILE_SETs; one export set (and one installed targets file) per
# part, all under the gpuplan:: namespace, so that a consumer loads -- and finds the dependency of --
# only the parts it asks for:
#
#   share/cmake/gpuplan/gpuplan-targets.cmake          gpuplan::gpuplan (always loaded; needs nothing)
#   share/cmake/gpuplan/gpuplan-format-targets.cmake   gpuplan::format  (COMPONENTS format -> fmt)
#   share/cmake/gpuplan/gpuplan-boost-targets.cmake    gpuplan::boost   (COMPONENTS boost  -> Boost)
#   share/cmake/gpuplan/gpuplan-json-targets.cmake     gpuplan::json    (COMPONENTS json   -> nlohmann_json)
#   share/cmake/gpuplan/gpuplan-probe-targets.cmake    gpuplan::probe   (COMPONENTS probe)
#
# The config files live in share/ (the library is header-only, so nothing is architecture-specific)
# and the version file accepts the same major.minor version on any architecture.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GPUPLAN_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/cmake/gpuplan"
  CACHE STRING "Where gpuplan's CMake package files are installed, relative to the prefix")
mark_as_advanced(GPUPLAN_CMAKE_INSTALL_DIR)

install(TARGETS gpuplan EXPORT gpuplan-targets FILE_SET HEADERS)
install(EXPORT gpuplan-targets NAMESPACE gpuplan:: DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}")

foreach(_gpuplan_comp IN LISTS GPUPLAN_COMPONENTS)
  install(TARGETS gpuplan_${_gpuplan_comp} EXPORT gpuplan-${_gpuplan_comp}-targets FILE_SET HEADERS)
  install(EXPORT gpuplan-${_gpuplan_comp}-targets NAMESPACE gpuplan::
    DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}")
endforeach()

configure_package_config_file(cmake/gpuplan-config.cmake.in
  "${PROJECT_BINARY_DIR}/gpuplan-config.cmake"
  INSTALL_DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}"
  NO_SET_AND_CHECK_MACRO)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/gpuplan-config-version.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/gpuplan-config.cmake"
              "${PROJECT_BINARY_DIR}/gpuplan-config-version.cmake"
        DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}")
