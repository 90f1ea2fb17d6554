// Errors as values at library boundaries: Status for operations, Result<T> for loaders.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kgate {

// The error half of a result: a message a user can act on ("rules/x.yaml:3:5: unknown key 'mach'").
struct Error {
  std::string message;
};

class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error.message)), failed_(true) {}  // NOLINT: implicit by design
  static Status ok() { return {}; }
  bool is_ok() const { return !failed_; }
  explicit operator bool() const { return is_ok(); }
  const std::string& message() const { return error_; }

 private:
  std::string error_;
  bool failed_ = false;
};

// A value or an error (std::expected is C++23; GCC 12 has none).
template <typename T>
class Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const std::string& error() const { return std::get<1>(state_).message; }

 private:
  std::variant<T, Error> state_;
};

}  // namespace kgate
