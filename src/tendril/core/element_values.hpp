#pragma once
/// Storage of an element-parallel term's element-local values (core/term.hpp, prepare()): per
/// element a value (an energy [J]; unused by forces), a vector (gradient or force, Size entries)
/// and a matrix (Hessian or Jacobian blocks, Rows x Cols). prepare() fills the entries of its
/// elements, accumulate() adds them in the term's serial order. It is the term's workspace
/// (make_workspace sizes it; core/term_workspace.hpp).

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "tendril/core/term_workspace.hpp"

namespace tendril {

template <int Size, int Rows, int Cols>
struct ElementValues final : TermWorkspace {
  std::vector<double> value;                              ///< (#elements)
  std::vector<Eigen::Matrix<double, Size, 1>> vector;     ///< (#elements)
  std::vector<Eigen::Matrix<double, Rows, Cols>> matrix;  ///< (#elements)

  ElementValues() = default;
  /// Sizes the storage for `count` elements.
  explicit ElementValues(std::size_t count) { resize(count); }
  void resize(std::size_t count) {
    value.resize(count);
    vector.resize(count);
    matrix.resize(count);
  }
};

}  // namespace tendril
