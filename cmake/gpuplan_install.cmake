# Install rules: headers through the FILE_SETs, an exported target set with the gpuplan::
# namespace, and a version file that accepts the same minor version on any architecture.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GPUPLAN_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/cmake/gpuplan")

install(TARGETS ${GPUPLAN_TARGETS} EXPORT gpuplan-targets FILE_SET HEADERS)
install(EXPORT gpuplan-targets NAMESPACE gpuplan:: DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}")

configure_package_config_file(cmake/gpuplan-config.cmake.in
  "${PROJECT_BINARY_DIR}/gpuplan-config.cmake"
  INSTALL_DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/gpuplan-config-version.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/gpuplan-config.cmake"
              "${PROJECT_BINARY_DIR}/gpuplan-config-version.cmake"
        DESTINATION "${GPUPLAN_CMAKE_INSTALL_DIR}")
