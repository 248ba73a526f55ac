# Conan 2 recipe for gpuplan, after conan-center-index's header-only recipes (au, magic_enum).
#
# Usage from a checkout:   conan create packaging/conan --build=missing
#                          conan create packaging/conan -o "gpuplan/*:with_boost=True"
#                          conan create packaging/conan -o "gpuplan/*:tool=True"   (bin/gpuplan)
# The version is read from the top-level CMakeLists.txt's project(VERSION) line (one source of
# truth); the package is built by gpuplan's own CMake install rules, so it holds exactly the
# headers of the parts selected by the options.
import os
import re

from conan import ConanFile
from conan.errors import ConanException, ConanInvalidConfiguration
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir

required_conan_version = ">=2.1"


class GpuplanConan(ConanFile):
    name = "gpuplan"
    license = "MIT"
    description = ("Header-only C++20 library for GPU infrastructure planning: typed constexpr "
                   "quantities, model fit, speed, cost and GPU counts")
    homepage = "https://github.com/gpuplan/gpuplan"
    url = "https://github.com/gpuplan/gpuplan"
    topics = ("gpu", "capacity-planning", "units", "constexpr", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    options = {
        "with_fmt": [True, False],    # gpuplan::format, {fmt} formatters
        "with_boost": [True, False],  # gpuplan::boost, the Boost.Units bridge
        "with_json": [True, False],   # gpuplan::json, JSON in/out (nlohmann_json)
        "tool": [True, False],        # the gpuplan command-line tool, bin/gpuplan
    }
    default_options = {
        "with_fmt": True,
        "with_boost": False,
        "with_json": False,
        "tool": False,
    }
    no_copy_source = True

    @property
    def _root(self):
        # The recipe lives in packaging/conan/ of the gpuplan repository.
        return os.path.join(self.recipe_folder, os.pardir, os.pardir)

    def set_version(self):
        cmakelists = load(self, os.path.join(self._root, "CMakeLists.txt"))
        match = re.search(r"project\(\s*gpuplan\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", cmakelists)
        if not match:
            raise ConanException("no project(gpuplan VERSION x.y.z) line in CMakeLists.txt")
        self.version = match.group(1)

    def export_sources(self):
        for pattern in ("CMakeLists.txt", "cmake/*", "include/*", "tools/*", "LICENSE*"):
            copy(self, pattern, self._root, self.export_sources_folder)

    def configure(self):
        # With the tool the package holds a program built for these settings; without it, headers
        # only (package_id clears the settings).
        if self.options.tool:
            self.package_type = "unknown"

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        # Headers of the optional parts include these, so consumers need their headers too.
        if self.options.with_fmt:
            self.requires("fmt/[>=9 <12]", transitive_headers=True)
        if self.options.with_boost:
            self.requires("boost/[>=1.74 <2]", transitive_headers=True)
        if self.options.with_json:
            self.requires("nlohmann_json/[>=3.10 <4]", transitive_headers=True)
        if self.options.tool:
            # Only the program uses CLI11: a consumer of the headers never sees it.
            self.requires("cli11/[>=2.1 <3]", visible=False)

    def package_id(self):
        if not self.info.options.tool:
            self.info.clear()

    def validate(self):
        check_min_cppstd(self, 20)
        if self.options.tool and not (self.options.with_fmt and self.options.with_json):
            raise ConanInvalidConfiguration(
                "gpuplan/*:tool=True needs with_fmt=True and with_json=True (the tool prints "
                "through gpuplan::format and reads and writes JSON)")

    def generate(self):
        tc = CMakeToolchain(self)
        tc.cache_variables["GPUPLAN_BUILD_TESTS"] = False
        tc.cache_variables["GPUPLAN_BUILD_TOOL"] = bool(self.options.tool)
        tc.cache_variables["GPUPLAN_BUILD_EXAMPLES"] = False
        tc.cache_variables["GPUPLAN_VERIFY_HEADERS"] = False
        tc.cache_variables["GPUPLAN_INSTALL"] = True
        tc.cache_variables["GPUPLAN_WITH_FMT"] = bool(self.options.with_fmt)
        tc.cache_variables["GPUPLAN_WITH_BOOST"] = bool(self.options.with_boost)
        tc.cache_variables["GPUPLAN_WITH_JSON"] = bool(self.options.with_json)
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        if self.options.tool:
            cmake.build(target="gpuplan_cli")

    def package(self):
        copy(self, "LICENSE*", self.source_folder, os.path.join(self.package_folder, "licenses"))
        cmake = CMake(self)
        cmake.install()
        # Conan's CMakeDeps writes the consumer's config files from package_info().
        rmdir(self, os.path.join(self.package_folder, "share"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "gpuplan")
        self.cpp_info.set_property("cmake_target_name", "gpuplan::all")
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []

        core = self.cpp_info.components["core"]
        core.set_property("cmake_target_name", "gpuplan::gpuplan")
        # With the tool, bin/ holds bin/gpuplan. Conan puts a dependency's bindirs on the run
        # environment's PATH only for packages it runs (applications, shared libraries); this one
        # is headers and a program, so the PATH is set for every consumer's VirtualRunEnv
        # (conanrun.sh) explicitly.
        core.bindirs = ["bin"] if self.options.tool else []
        core.libdirs = []
        if self.options.tool:
            self.runenv_info.prepend_path("PATH", os.path.join(self.package_folder, "bin"))

        probe = self.cpp_info.components["probe"]
        probe.set_property("cmake_target_name", "gpuplan::probe")
        probe.requires = ["core"]
        probe.bindirs = []
        probe.libdirs = []
        if self.settings.os in ("Linux", "FreeBSD"):
            probe.system_libs = ["dl"]

        # (option, component, dependency, its component, what to link where the platform has it)
        parts = (("with_fmt", "format", "fmt", "fmt", ["fmt"]),
                 ("with_boost", "boost", "boost", "headers", []),
                 ("with_json", "json", "nlohmann_json", "nlohmann_json", []))
        for option, part, package, package_component, system_libs in parts:
            if not self.options.get_safe(option):
                continue
            component = self.cpp_info.components[part]
            component.set_property("cmake_target_name", f"gpuplan::{part}")
            component.bindirs = []
            component.libdirs = []
            component.requires = ["core"]
            if self._is_dependency(package):
                component.requires.append(f"{package}::{package_component}")
            else:
                # Declared in the profile's [platform_requires]: Conan keeps such a package out
                # of self.dependencies and out of CMakeDeps (conan-io/docs#3908), so a component
                # may not require it. Its headers are on the system include path; link its
                # library, if it has one, as a system library.
                component.system_libs = list(system_libs)

    def _is_dependency(self, package):
        return any(dep.ref.name == package for dep in self.dependencies.host.values())
