// inplace_vector: the library's one fixed-capacity vector (specs/inplace_vector.hpp), in constant
// expressions and at run time, insert, pop_back and erase, and its refusal past the capacity.
#include "../catch.hpp"

#include <gpuplan/specs/inplace_vector.hpp>

#include <stdexcept>
#include <string>

using gpuplan::inplace_vector;

namespace {

constexpr inplace_vector<int, 4> squares(int n) {
  inplace_vector<int, 4> v;
  for (int i = 1; i <= n; ++i) v.push_back(i * i);
  return v;
}

constexpr int sum(const inplace_vector<int, 4>& v) {
  int s = 0;
  for (int x : v) s += x;
  return s;
}

// In a constant expression: built, read, compared.
static_assert(squares(0).empty());
static_assert(squares(3).size() == 3 && squares(3)[2] == 9 && squares(3).back() == 9);
static_assert(sum(squares(4)) == 1 + 4 + 9 + 16);
static_assert(squares(4).full() && !squares(3).full());
static_assert(inplace_vector<int, 4>::capacity() == 4);
static_assert(squares(2) == inplace_vector<int, 4>{1, 4});
static_assert(!(squares(2) == squares(3)));

// Past the capacity push_back is not a constant expression (the library's check_input);
// try_push_back says no instead.
constexpr bool try_fifth() {
  inplace_vector<int, 4> v = squares(4);
  const bool added = v.try_push_back(25);
  return !added && v.size() == 4 && v[3] == 16;
}
static_assert(try_fifth());

// insert places an element before a position, the later ones moved up (the search's rankings
// keep their order with it); pop_back and erase of a range take elements out.
constexpr inplace_vector<int, 4> inserted() {
  inplace_vector<int, 4> v{10, 30};
  v.insert(v.begin() + 1, 20);  // middle
  v.insert(v.begin(), 5);       // front
  return v;
}
static_assert(inserted() == inplace_vector<int, 4>{5, 10, 20, 30});
constexpr bool insert_at_end_returns_position() {
  inplace_vector<int, 4> v{1, 2};
  const int* at = v.insert(v.end(), 3);
  return at == v.begin() + 2 && *at == 3 && v.size() == 3;
}
static_assert(insert_at_end_returns_position());
constexpr bool insert_copy_of_own_element() {
  inplace_vector<int, 4> v{1, 2, 3};
  v.insert(v.begin(), v[2]);  // the element moved up is the one inserted
  return v == inplace_vector<int, 4>{3, 1, 2, 3};
}
static_assert(insert_copy_of_own_element());
constexpr inplace_vector<int, 4> erased(int first, int last) {
  inplace_vector<int, 4> v = squares(4);
  v.erase(v.begin() + first, v.begin() + last);
  return v;
}
static_assert(erased(1, 3) == inplace_vector<int, 4>{1, 16});
static_assert(erased(2, 4) == inplace_vector<int, 4>{1, 4});
static_assert(erased(0, 0) == squares(4));
constexpr inplace_vector<int, 4> popped() {
  inplace_vector<int, 4> v = squares(3);
  v.pop_back();
  return v;
}
static_assert(popped() == inplace_vector<int, 4>{1, 4});

}  // namespace

TEST_CASE("inplace_vector holds up to N elements in order", "[inplace_vector]") {
  inplace_vector<std::string, 3> v;
  CHECK(v.empty());
  CHECK(v.begin() == v.end());
  v.push_back("a");
  v.push_back("b");
  CHECK(v.size() == 2);
  CHECK(v[0] == "a");
  CHECK(v[1] == "b");
  std::string joined;
  for (const std::string& s : v) joined += s;
  CHECK(joined == "ab");
  v[1] = "c";
  CHECK(v.back() == "c");
  CHECK(v.try_push_back("d"));
  CHECK(v.full());
  CHECK_FALSE(v.try_push_back("e"));
  CHECK(v.size() == 3);
  v.clear();
  CHECK(v.empty());
}

TEST_CASE("inplace_vector refuses a push_back past its capacity", "[inplace_vector]") {
  inplace_vector<int, 2> v{7, 8};
  CHECK_THROWS_AS(v.push_back(9), gpuplan::invalid_input);
  CHECK(v.size() == 2);
  try {
    v.push_back(9);
  } catch (const gpuplan::invalid_input& e) {
    CHECK(std::string(e.what()) == "gpuplan: inplace_vector: push_back past the capacity (got 2)");
  }
}

TEST_CASE("inplace_vector equality compares the elements in use", "[inplace_vector]") {
  inplace_vector<int, 4> a{1, 2};
  inplace_vector<int, 4> b{1, 2, 3};
  CHECK_FALSE(a == b);
  b.clear();
  b.push_back(1);
  b.push_back(2);
  CHECK(a == b);  // b's third slot still holds 3; it is not in use
}

TEST_CASE("inplace_vector refuses back() when empty", "[inplace_vector]") {
  gpuplan::inplace_vector<int, 2> v;
  CHECK_THROWS_WITH((void)v.back(), Catch::Contains("back() of an empty vector"));
  v.push_back(7);
  CHECK(v.back() == 7);
}

TEST_CASE("inplace_vector refuses an insert past its capacity, as push_back", "[inplace_vector]") {
  inplace_vector<int, 3> v{1, 3, 4};
  CHECK_THROWS_WITH(v.insert(v.begin() + 1, 2), Catch::Contains("insert past the capacity"));
  CHECK(v == inplace_vector<int, 3>{1, 3, 4});  // unchanged
  v.pop_back();
  CHECK(*v.insert(v.begin() + 1, 2) == 2);
  CHECK(v == inplace_vector<int, 3>{1, 2, 3});
  v.pop_back();  // room for one: the position is what is refused
  CHECK_THROWS_WITH(v.insert(v.end() + 1, 9), Catch::Contains("outside the vector"));
  CHECK(v == inplace_vector<int, 3>{1, 2});
}

TEST_CASE("inplace_vector pop_back and erase", "[inplace_vector]") {
  inplace_vector<std::string, 4> v{"a", "b", "c", "d"};
  CHECK(v.erase(v.begin() + 1, v.begin() + 3) == v.begin() + 1);
  CHECK(v == inplace_vector<std::string, 4>{"a", "d"});
  v.pop_back();
  v.pop_back();
  CHECK(v.empty());
  CHECK_THROWS_WITH(v.pop_back(), Catch::Contains("pop_back() of an empty vector"));
  CHECK_THROWS_WITH(v.erase(v.begin(), v.begin() + 1), Catch::Contains("outside the vector"));
}
