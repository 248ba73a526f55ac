// The Catch2 main, for Debian's Catch2 2.13 and for Catch2 v3 (what Conan and vcpkg users get).
#if defined(GPUPLAN_CATCH2_V3)
#include <catch2/catch_session.hpp>
int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
#endif
