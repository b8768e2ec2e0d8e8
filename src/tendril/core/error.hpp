#pragma once
/// Tendril's error tiers (see docs/conventions.md):
/// - bad user input throws InputError naming the key path, the value and what is allowed;
/// - broken internal invariants abort through TENDRIL_ASSERT;
/// - numerical outcomes (non-convergence) are reports, never exceptions.

#include <stdexcept>
#include <string>

namespace tendril {

/// Bad user input: a scene key, a geometry file line, a command-line option.
class InputError : public std::runtime_error {
 public:
  /// key_path: where the bad value is (e.g. "rods[0].material.E"); value: the offending value
  /// as text; allowed: what would have been accepted.
  InputError(std::string key_path, std::string value, std::string allowed);
  /// A free-form message for input errors that are not about one key.
  explicit InputError(const std::string& message);

  const std::string& key_path() const { return key_path_; }
  const std::string& value() const { return value_; }
  const std::string& allowed() const { return allowed_; }

 private:
  std::string key_path_, value_, allowed_;
};

/// A term assembled a matrix entry (row, col) that its declare_sparsity() did not declare: a bug in
/// that term (or a stencil set changed without update_stencils() saying so). Thrown, not aborted,
/// so a caller (Python, a GUI) survives it; the solver that was running leaves its State unchanged.
class SparsityError : public std::logic_error {
 public:
  SparsityError(int row, int col);
  int row() const { return row_; }
  int col() const { return col_; }

 private:
  int row_, col_;
};

[[noreturn]] void assertion_failed(const char* condition, const char* file, int line,
                                   const std::string& message);

}  // namespace tendril

/// Aborts with file, line and message when an internal invariant is broken (active in all builds).
#define TENDRIL_ASSERT(condition, message)                                                  \
  do {                                                                                      \
    if (!(condition)) ::tendril::assertion_failed(#condition, __FILE__, __LINE__, message); \
  } while (false)
