// gpuplan/specs/array_view.hpp: a read-only view of contiguous elements, the library's stand-in
// for std::span<const T> in the headers the umbrella holds.
//
// Why not std::span: in libstdc++ 12 each new element type of std::span costs about 80 million
// compiler instructions (its constructors are constrained by the ranges concepts, checked again
// for every element type and every source type), and a TU that builds spans of three types from
// arrays and iterates them pays 240 million: more than a third of what the whole catalog costs
// (docs/performance.md, "std::span and std::optional out of the umbrella"). This view is a
// pointer and a count with the operations the library uses. It is a contiguous, sized range, so a
// std::span<const T> is made from it as from any such range (callers that hold a std::span keep
// working), and it is made from C arrays, std::array, std::vector, std::span and
// gpuplan::inplace_vector (anything whose const data() gives a const T* and that has size()).
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace gpuplan {

/// Elements [data(), data() + size()) of T, not owned: the caller keeps them alive.
template <class T>
class array_view {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using const_iterator = const T*;
  using iterator = const T*;

  constexpr array_view() noexcept = default;
  constexpr array_view(const T* first, std::size_t count) noexcept : data_(first), size_(count) {}
  /// A C array (a catalog table, a braced list stored in a local array).
  template <std::size_t N>
  constexpr array_view(const T (&a)[N]) noexcept  // NOLINT(google-explicit-constructor)
      : data_(a), size_(N) {}
  /// A contiguous container of T: std::array, std::vector, std::span, gpuplan::inplace_vector.
  template <class C>
    requires(!std::is_array_v<C> && !std::is_same_v<C, array_view> && requires(const C& c) {
      { c.data() } -> std::convertible_to<const T*>;
      { c.size() } -> std::convertible_to<std::size_t>;
    })
  constexpr array_view(const C& c) noexcept  // NOLINT(google-explicit-constructor)
      : data_(c.data()), size_(c.size()) {}

  [[nodiscard]] constexpr const T* data() const noexcept { return data_; }
  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] constexpr const T* begin() const noexcept { return data_; }
  [[nodiscard]] constexpr const T* end() const noexcept { return data_ + size_; }
  /// Element i (i < size(); unchecked, as std::span's).
  [[nodiscard]] constexpr const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  [[nodiscard]] constexpr const T& front() const noexcept { return data_[0]; }
  [[nodiscard]] constexpr const T& back() const noexcept { return data_[size_ - 1]; }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace gpuplan
