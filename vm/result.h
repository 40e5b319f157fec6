// Result<T> and Status: how the runtime reports user errors (a bad file, a shape mismatch, a
// missing kernel) across its public API without exceptions. Inside the runtime, builtins throw
// VMError and the interpreter turns it into an Error at the API boundary.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace relax::vm {

struct Error {
  std::string message;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error.message)), failed_(true) {}  // NOLINT

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  Error error() const { return Error{error_}; }

 private:
  std::string error_;
  bool failed_ = false;
};

using Status = Result<void>;

// The exception the runtime's internals throw; never escapes the public API. `located` is set
// once the message names where it happened (the function and callee), so outer handlers do not
// prefix it again.
class VMError : public std::runtime_error {
 public:
  explicit VMError(const std::string& message, bool located = false)
      : std::runtime_error(message), located_(located) {}
  bool located() const { return located_; }

 private:
  bool located_;
};

[[noreturn]] inline void throw_error(const std::string& message) {
  throw VMError(message);
}

}  // namespace relax::vm
