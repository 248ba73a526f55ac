// gpuplan::invalid_input: the core's exception for bad input, with its message in a fixed buffer.
#include "../catch.hpp"

#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/layout.hpp>

#include <climits>
#include <cstring>
#include <exception>
#include <string>

using gpuplan::invalid_input;

TEST_CASE("invalid_input keeps its message and is a std::exception", "[error]") {
  const invalid_input e("gpu_spec.memory must be positive and finite");
  CHECK(std::string(e.what()) == "gpu_spec.memory must be positive and finite");
  const std::exception& base = e;
  CHECK(std::string(base.what()) == "gpu_spec.memory must be positive and finite");
  const invalid_input copy = e;
  CHECK(std::string(copy.what()) == e.what());
}

TEST_CASE("invalid_input appends integers, including the extremes", "[error]") {
  invalid_input e("x");
  e.append(0LL).append(" ").append(-7LL).append(" ").append(1234567890123LL);
  e.append(" ").append(LLONG_MIN).append(" ").append(LLONG_MAX);
  CHECK(std::string(e.what()) ==
        "x0 -7 1234567890123 -9223372036854775808 9223372036854775807");
}

TEST_CASE("invalid_input cuts long messages at its capacity", "[error]") {
  const std::string longer(1000, 'a');
  invalid_input e(longer.c_str());
  e.append(123LL).append("tail");
  CHECK(std::strlen(e.what()) == static_cast<std::size_t>(invalid_input::capacity - 1));
  CHECK(std::string(e.what()) == std::string(invalid_input::capacity - 1, 'a'));
}

TEST_CASE("a layout check at run time throws invalid_input with the values", "[error]") {
  try {
    gpuplan::detail::check_input(false, "parallel_layout.tp must divide heads", 3, 32);
    FAIL("no exception");
  } catch (const invalid_input& e) {
    CHECK(std::string(e.what()) == "gpuplan: parallel_layout.tp must divide heads (got 3, 32)");
  }
}
