# gpuplan is header-only: one (release) configuration, no libraries. The tool (feature "tool") is
# a program: release only as well.
set(VCPKG_BUILD_TYPE release)

# This overlay port builds the gpuplan checkout it lives in (packaging/vcpkg/gpuplan/ -> the
# repository root): vcpkg install gpuplan --overlay-ports=<checkout>/packaging/vcpkg
# A registry port fetches a release instead (packaging/RELEASING.md):
#   vcpkg_from_github(OUT_SOURCE_PATH SOURCE_PATH REPO gpuplan/gpuplan REF "v${VERSION}"
#                     SHA512 <of the release archive> HEAD_REF main)
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

vcpkg_check_features(OUT_FEATURE_OPTIONS FEATURE_OPTIONS
    FEATURES
        fmt     GPUPLAN_WITH_FMT
        boost   GPUPLAN_WITH_BOOST
        json    GPUPLAN_WITH_JSON
        tool    GPUPLAN_BUILD_TOOL
)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        ${FEATURE_OPTIONS}
        -DGPUPLAN_BUILD_TESTS=OFF
        -DGPUPLAN_BUILD_EXAMPLES=OFF
        -DGPUPLAN_BUILD_BENCH=OFF
        -DGPUPLAN_VERIFY_HEADERS=OFF
        -DGPUPLAN_INSTALL=ON
)

vcpkg_cmake_install()

vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/gpuplan)

if("tool" IN_LIST FEATURES)
    # bin/gpuplan -> tools/gpuplan/gpuplan, where vcpkg keeps a port's programs.
    vcpkg_copy_tools(TOOL_NAMES gpuplan AUTO_CLEAN)
endif()

# Header-only: nothing belongs in lib/ or debug/ (the tool's library is internal to its build).
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug" "${CURRENT_PACKAGES_DIR}/lib")

file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
