// The standard headers a C++ tool's translation unit commonly includes anyway, for the "TU of
// common standard headers" that issue 23's compile-cost target is stated against: with
// `-include bench/compile_cost/common_std.hpp`, every variant of tu.cpp starts from them, so a
// variant's added cost is what the library itself brings, not the standard headers the TU pays
// for already (bench/compile_instructions.sh --common-std, bench/compile_cost.sh --common-std).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
