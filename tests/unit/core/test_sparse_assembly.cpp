#include <array>

#include <gtest/gtest.h>

#include "tendril/core/sparse_assembly.hpp"

namespace tendril {
namespace {

TEST(SparseAssembly, PatternIsUnionOfStencils) {
  SparsityBuilder builder(5);
  const std::array<int, 2> a{0, 1};
  const std::array<int, 3> b{1, 3, -1};
  builder.add_stencil(a);
  builder.add_stencil(b);
  const SparseMatrix m = builder.build();
  // (0,0) (1,0) (0,1) (1,1) (3,1) (1,3) (3,3)
  EXPECT_EQ(m.nonZeros(), 7);
  EXPECT_EQ(m.coeff(2, 2), 0.0);
}

TEST(SparseAssembly, AddsLocalMatricesIntoFixedPattern) {
  SparsityBuilder builder(4);
  const std::array<int, 2> a{0, 2};
  const std::array<int, 2> b{2, 3};
  builder.add_stencil(a);
  builder.add_stencil(b);
  HessianAssembler h(builder.build());
  MatX local(2, 2);
  local << 1, 2, 3, 4;
  h.add(a, local);
  h.add(b, local, 2.0);
  EXPECT_DOUBLE_EQ(h.matrix().coeff(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(h.matrix().coeff(2, 0), 3.0);  // local(1,0) -> (row 2, col 0)
  EXPECT_DOUBLE_EQ(h.matrix().coeff(0, 2), 2.0);
  EXPECT_DOUBLE_EQ(h.matrix().coeff(2, 2), 4.0 + 2.0);
  EXPECT_DOUBLE_EQ(h.matrix().coeff(3, 3), 8.0);
  h.set_zero();
  EXPECT_DOUBLE_EQ(h.matrix().coeff(2, 2), 0.0);
  EXPECT_EQ(h.matrix().nonZeros(), 7);
}

}  // namespace
}  // namespace tendril
