#include "tendril/core/error.hpp"

#include <cstdio>
#include <cstdlib>

#include "tendril/core/printable_text.hpp"

namespace tendril {

// the key path and value come from the user's file: escaped and cut (a 10 kB number, a terminal
// control sequence or a non-UTF-8 byte is not echoed raw)
InputError::InputError(std::string key_path, std::string value, std::string allowed)
    : std::runtime_error(printable(key_path) + ": got " + printable(value) +
                         "; allowed: " + printable(allowed, 2000)),
      key_path_(std::move(key_path)),
      value_(std::move(value)),
      allowed_(std::move(allowed)) {}

InputError::InputError(const std::string& message) : std::runtime_error(printable(message, 2000)) {}

SparsityError::SparsityError(int row, int col)
    : std::logic_error(
          "matrix entry (" + std::to_string(row) + ", " + std::to_string(col) +
          ") was assembled but not declared in the sparsity pattern (a term's declare_sparsity "
          "or update_stencils is incomplete)"),
      row_(row),
      col_(col) {}

void assertion_failed(const char* condition, const char* file, int line,
                      const std::string& message) {
  std::fprintf(stderr, "tendril: internal error at %s:%d: %s (%s)\n", file, line, message.c_str(),
               condition);
  std::abort();
}

}  // namespace tendril
