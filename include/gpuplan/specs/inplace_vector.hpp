// gpuplan/specs/inplace_vector.hpp: the library's one fixed-capacity vector.
//
// The results the library returns by value from constexpr functions (a request mix, a curve of
// operating points, the options of a fit, the estimates a result rests on, a GPU's MIG profiles)
// hold at most N elements with no allocation, so that they work in constant expressions and are
// trivially copied. Before this header each wrote a std::array and a count of its own with its own
// accessors; this is that pair once, after C++26's std::inplace_vector (P0843) and mp-units'
// inplace_vector, with the subset the library uses: push_back and insert (invalid_input past the
// capacity), try_push_back (false past it), pop_back, erase of a range, size, empty, operator[],
// begin/end, back, clear.
#pragma once

#include <gpuplan/specs/checks.hpp>

#include <array>
#include <cstddef>
#include <initializer_list>

namespace gpuplan {

/// At most N elements of T, stored in place. T must be default-constructible and copyable
/// (the unused slots hold T{}). Equality compares the elements in use only.
template <class T, std::size_t N>
class inplace_vector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  constexpr inplace_vector() = default;
  constexpr inplace_vector(std::initializer_list<T> items) {
    for (const T& x : items) push_back(x);
  }

  [[nodiscard]] static constexpr size_type capacity() { return N; }
  [[nodiscard]] constexpr size_type size() const { return size_; }
  [[nodiscard]] constexpr bool empty() const { return size_ == 0; }
  [[nodiscard]] constexpr bool full() const { return size_ == N; }

  /// Appends x; invalid_input (a compile error in a constant expression) when full.
  constexpr T& push_back(const T& x) {
    detail::check_input(size_ < N, "inplace_vector: push_back past the capacity", N);
    items_[size_] = x;
    return items_[size_++];
  }
  /// Appends x unless full; whether it did.
  constexpr bool try_push_back(const T& x) {
    if (size_ == N) return false;
    items_[size_++] = x;
    return true;
  }
  /// Inserts x before pos (begin() <= pos <= end()), the later elements moved one place up;
  /// invalid_input (a compile error in a constant expression) when full, as push_back. Returns
  /// where x now is.
  constexpr iterator insert(const_iterator pos, const T& x) {
    detail::check_input(size_ < N, "inplace_vector: insert past the capacity", N);
    const auto at = static_cast<size_type>(pos - items_.data());
    detail::check_input(pos >= items_.data() && at <= size_,
                        "inplace_vector: insert at a position outside the vector");
    T value = x;  // x may be one of the elements moved
    for (size_type i = size_; i > at; --i) items_[i] = items_[i - 1];
    items_[at] = value;
    ++size_;
    return items_.data() + at;
  }
  /// Removes the last element; invalid_input when there is none.
  constexpr void pop_back() {
    detail::check_input(size_ > 0, "inplace_vector: pop_back() of an empty vector");
    --size_;
  }
  /// Removes [first, last) (a range of this vector), the later elements moved down; returns
  /// where the first of them now is.
  constexpr iterator erase(const_iterator first, const_iterator last) {
    const auto from = static_cast<size_type>(first - items_.data());
    const auto to = static_cast<size_type>(last - items_.data());
    detail::check_input(first >= items_.data() && from <= to && to <= size_,
                        "inplace_vector: erase of a range outside the vector");
    size_type out = from;
    for (size_type i = to; i < size_; ++i) items_[out++] = items_[i];
    size_ = out;
    return items_.data() + from;
  }
  constexpr void clear() { size_ = 0; }

  /// Element i (i < size(); unchecked, as std::vector's).
  [[nodiscard]] constexpr T& operator[](size_type i) { return items_[i]; }
  [[nodiscard]] constexpr const T& operator[](size_type i) const { return items_[i]; }
  /// The last element; invalid_input when there is none (an empty vector has no back).
  [[nodiscard]] constexpr T& back() {
    detail::check_input(size_ > 0, "inplace_vector: back() of an empty vector");
    return items_[size_ - 1];
  }
  [[nodiscard]] constexpr const T& back() const {
    detail::check_input(size_ > 0, "inplace_vector: back() of an empty vector");
    return items_[size_ - 1];
  }

  [[nodiscard]] constexpr T* data() { return items_.data(); }
  [[nodiscard]] constexpr const T* data() const { return items_.data(); }
  [[nodiscard]] constexpr iterator begin() { return items_.data(); }
  [[nodiscard]] constexpr iterator end() { return items_.data() + size_; }
  [[nodiscard]] constexpr const_iterator begin() const { return items_.data(); }
  [[nodiscard]] constexpr const_iterator end() const { return items_.data() + size_; }

  friend constexpr bool operator==(const inplace_vector& a, const inplace_vector& b) {
    if (a.size_ != b.size_) return false;
    for (size_type i = 0; i < a.size_; ++i)
      if (!(a.items_[i] == b.items_[i])) return false;
    return true;
  }

 private:
  std::array<T, N> items_{};
  size_type size_ = 0;
};

}  // namespace gpuplan
