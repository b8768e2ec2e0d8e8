#include "tendril/core/error.hpp"

#include <cstdio>
#include <cstdlib>

namespace tendril {

InputError::InputError(std::string key_path, std::string value, std::string allowed)
    : std::runtime_error(key_path + ": got " + value + "; allowed: " + allowed),
      key_path_(std::move(key_path)),
      value_(std::move(value)),
      allowed_(std::move(allowed)) {}

InputError::InputError(const std::string& message) : std::runtime_error(message) {}

SparsityError::SparsityError(int row, int col)
    : std::logic_error("matrix entry (" + std::to_string(row) + ", " + std::to_string(col) +
                       ") was assembled but not declared in the sparsity pattern (a term's declare_sparsity "
                       "or update_stencils is incomplete)"),
      row_(row),
      col_(col) {}

void assertion_failed(const char* condition, const char* file, int line, const std::string& message) {
  std::fprintf(stderr, "tendril: internal error at %s:%d: %s (%s)\n", file, line, message.c_str(), condition);
  std::abort();
}

}  // namespace tendril
