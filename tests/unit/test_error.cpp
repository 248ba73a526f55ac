// gpuplan::invalid_input: the core's exception for bad input, with its message in a fixed buffer.
#include "../catch.hpp"

#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/layout.hpp>

#include <climits>
#include <cstring>
#include <exception>
#include <limits>
#include <utility>
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

TEST_CASE("one message format: gpuplan: <field> must ... (got <values>)", "[error]") {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const invalid_input& e) {
      return e.what();
    }
    return "no exception";
  };
  CHECK(message([] { gpuplan::detail::check_input(false, "x.name must not be empty"); }) ==
        "gpuplan: x.name must not be empty");
  CHECK(message([] { gpuplan::detail::check_input(false, "x.n must be positive", -3); }) ==
        "gpuplan: x.n must be positive (got -3)");
  CHECK(message([] { gpuplan::detail::check_input(false, "x.f must be in (0, 1]", 1.5); }) ==
        "gpuplan: x.f must be in (0, 1] (got 1.5)");
  // Floating-point values: whole numbers exactly, others with six significant digits.
  const std::pair<double, const char*> cases[] = {
      {0.9, "0.9"},          {0.05, "0.05"},        {-0.1, "-0.1"},
      {12345.6, "12345.6"},  {100.5, "100.5"},      {85899345920.0, "85899345920"},
      {1.6e31, "1.6e+31"},   {1e20, "1e+20"},       {3.25e-7, "3.25e-07"},
      {2.0 / 3.0, "0.666667"}, {std::numeric_limits<double>::infinity(), "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf"},
      {std::numeric_limits<double>::quiet_NaN(), "nan"}};
  for (const auto& [v, text] : cases) {
    invalid_input e("");
    e.append(v);
    CHECK(std::string(e.what()) == text);
  }
  // A layout's non-throwing check and its validate() give the same sentence.
  const gpuplan::parallel_layout l{.dp = 3, .shard_group = 2};
  const gpuplan::input_problem p = l.check();
  REQUIRE_FALSE(p.ok());
  CHECK(message([&] { l.validate(); }) ==
        std::string("gpuplan: ") + p.message + " (got 2, 3)");
}
