#include <array>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/core/error.hpp"
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

TEST(SparseAssembly, AddEntryOutsideThePatternThrows) {
  // add_entry: an undeclared entry, and indices outside the matrix (no skipping of negatives,
  // unlike add), are SparsityErrors, never out-of-bounds reads
  SparsityBuilder builder(3);
  const std::array<int, 2> a{0, 1};
  builder.add_stencil(a);
  HessianAssembler h(builder.build());
  h.add_entry(1, 0, 2.5);
  EXPECT_DOUBLE_EQ(h.matrix().coeff(1, 0), 2.5);
  EXPECT_THROW(h.add_entry(2, 0, 1.0), SparsityError);
  EXPECT_THROW(h.add_entry(-1, 0, 1.0), SparsityError);
  EXPECT_THROW(h.add_entry(0, 3, 1.0), SparsityError);
  EXPECT_THROW(h.add_entry(0, -1, 1.0), SparsityError);
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

TEST(SparseAssembly, CachedAddMatchesSearchedAdd) {
  SparsityBuilder builder(6);
  const std::array<int, 3> a{0, 2, 5};
  const std::array<int, 3> b{1, 2, -1};
  builder.add_stencil(a);
  builder.add_stencil(b);
  HessianAssembler searched(builder.build()), cached(builder.build());
  MatX local(3, 3);
  local << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  const int owner = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass uses the cached slots
    searched.add(a, local, 0.5);
    searched.add(b, local);
    cached.add_cached(&owner, 0, a, local, 0.5);
    cached.add_cached(&owner, 1, b, local);
  }
  EXPECT_EQ(MatX(MatX(searched.matrix()) - MatX(cached.matrix())).norm(), 0.0);
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(5, 0), 2 * 0.5 * 7.0);  // local(2, 0) twice, scaled
  // a stencil whose DOFs changed is searched again
  cached.set_zero();
  cached.add_cached(&owner, 0, b, local);
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(2, 1), 4.0);  // local(1, 0) -> (row 2, col 1)
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(1, 2), 2.0);  // local(0, 1)
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(5, 0), 0.0);
}

TEST(SparseAssembly, CachedRectangularBlockAddsOnlyItsRows) {
  // rows {2} of the stencil {0, 2, 5} (a force on x_2 depending on x_0, x_2, x_5), next to a square
  // stencil of the same owner; a negative column DOF is skipped
  SparsityBuilder builder(6);
  const std::array<int, 3> a{0, 2, 5};
  builder.add_stencil(a);
  HessianAssembler cached(builder.build());
  const std::array<int, 1> row{2};
  const std::array<int, 3> columns{0, 2, 5}, partial{0, 2, -1};
  MatX local(1, 3), square = MatX::Ones(3, 3);
  local << 1, 2, 3;
  const int owner = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass uses the cached slots
    cached.add_cached(&owner, 0, row, columns, local);
    cached.add_cached(&owner, 0, a, square);
  }
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(2, 0), 2 * (1.0 + 1.0));
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(2, 5), 2 * (3.0 + 1.0));
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(0, 2),
                   2 * 1.0);  // the square block only: no transpose added
  cached.set_zero();
  cached.add_cached(&owner, 0, row, partial, local,
                    2.0);  // changed DOFs: searched again, (2, 5) skipped
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(2, 2), 4.0);
  EXPECT_DOUBLE_EQ(cached.matrix().coeff(2, 5), 0.0);
}

TEST(SparseAssembly, LowerTriangleOfSymmetricBlocksMirrorsToTheFullAdd) {
  // symmetric blocks added in the lower triangle only, then mirrored, equal the full add; stencils
  // in an order whose local lower triangle is partly the global upper one, a skipped DOF, a
  // repeated DOF (added as the full block) and a non-contiguous block (a view into a larger matrix)
  SparsityBuilder builder(6);
  const std::array<int, 3> a{5, 0, 2}, b{1, -1, 2}, repeated{3, 4, 3};
  for (const auto& s : {a, b, repeated}) builder.add_stencil(s);
  HessianAssembler full(builder.build()), lower(builder.build());
  lower.set_lower_only(true);
  MatX big(4, 4);
  big << 4, 1, 2, 9, 1, 5, 3, 9, 2, 3, 6, 9, 9, 9, 9, 9;
  const MatX local = big.topLeftCorner(3, 3);
  const int owner = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass uses the cached slots
    int k = 0;
    for (const auto& s : {a, b, repeated}) {
      full.add_cached(&owner, k, s, local);
      lower.add_cached_symmetric(&owner, k, s, local);
      lower.add_cached_symmetric(&owner, k + 3, s, big.topLeftCorner(3, 3));
      full.add_cached(&owner, k + 3, s, big.topLeftCorner(3, 3));
      ++k;
    }
  }
  EXPECT_DOUBLE_EQ(lower.matrix().coeff(5, 0),
                   4 * 1.0);                          // local(1, 0) of a: (0, 5) lands at (5, 0)
  EXPECT_DOUBLE_EQ(lower.matrix().coeff(0, 5), 0.0);  // the upper triangle untouched until mirrored
  EXPECT_DOUBLE_EQ(lower.matrix().coeff(3, 3), 4 * (4.0 + 2 * 2.0 + 6.0));  // the repeated DOF
  lower.mirror_lower();
  EXPECT_EQ(MatX(MatX(full.matrix()) - MatX(lower.matrix())).norm(), 0.0);
}

TEST(SparseAssembly, ZeroingALowerOnlyAssemblyClearsItsLowerTriangle) {
  // set_zero() on a lower-only assembler clears the lower triangle (diagonal included) of every
  // column, so an assembly after it equals the first one; compared, after mirroring, with the full
  // add of the same blocks into a fresh assembler (entries of all signs, a skipped DOF)
  const std::array<int, 4> a{3, 0, 5, 1}, b{2, -1, 4, 0};
  SparsityBuilder builder(6);
  builder.add_diagonal();
  for (const auto& s : {a, b}) builder.add_stencil(s);
  HessianAssembler full(builder.build()), lower(builder.build());
  lower.set_lower_only(true);
  MatX local = MatX::Random(4, 4);
  local = (local + local.transpose()).eval();
  const int owner = 0;
  for (int pass = 0; pass < 3; ++pass) {
    lower.set_zero();
    for (std::size_t k = 0; k < 2; ++k)
      lower.add_cached_symmetric(&owner, k, k == 0 ? std::span<const int>(a) : b, local);
    lower.add_entry(4, 4, 2.5);
  }
  for (std::size_t k = 0; k < 2; ++k)
    full.add_cached(&owner, k, k == 0 ? std::span<const int>(a) : b, local);
  full.add_entry(4, 4, 2.5);
  lower.mirror_lower();
  EXPECT_EQ(MatX(MatX(full.matrix()) - MatX(lower.matrix())).norm(), 0.0);
}

TEST(SparseAssembly, CompleteStencilsAddTheirLowerTriangle) {
  // the unrolled paths of add_cached_symmetric (6, 9, 11 and 12 DOFs: rod stretching, CST triangle,
  // bend-twist, hinge) and the general one (5): stencils in scrambled orders equal the full add
  // after mirroring; a stencil with a skipped DOF takes the general path
  const std::array<int, 12> dofs{4, 15, 1, 10, 6, 12, 8, 0, 3, 14, 2, 7};
  const std::array<int, 12> skipped{4, 15, -1, 10, 6, 12, 8, 0, 3, 14, 2, 7};
  SparsityBuilder builder(16);
  builder.add_stencil(dofs);
  HessianAssembler full(builder.build()), lower(builder.build());
  lower.set_lower_only(true);
  MatX a = MatX::Random(12, 12);
  a = (a + a.transpose()).eval();
  const int owner = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass uses the cached slots
    std::size_t index = 0;
    for (std::size_t m : {5, 6, 9, 11, 12}) {
      const std::span<const int> stencil(dofs.data() + 12 - m,
                                         m);  // a different first DOF per size
      const MatX local = a.topLeftCorner(m, m);
      full.add_cached(&owner, index, stencil, local);
      lower.add_cached_symmetric(&owner, index++, stencil, local);
    }
    full.add_cached(&owner, index, skipped, a);
    lower.add_cached_symmetric(&owner, index, skipped, a);
  }
  EXPECT_EQ(lower.matrix().coeff(0, 7), 0.0);  // the upper triangle untouched until mirrored
  lower.mirror_lower();
  EXPECT_LE(MatX(MatX(full.matrix()) - MatX(lower.matrix())).norm(),
            1e-14 * MatX(full.matrix()).norm());
}

TEST(SparseAssembly, StridedSymmetricBlocksEqualTheirDenseSum) {
  // add_cached_symmetric reading one lane of four interleaved local matrices (stride 4: a pack of
  // bend-twist Hessians, core/lane_pack.hpp), on the lower-triangle and the full path, complete
  // (11 DOFs: unrolled), with a skipped DOF and with a repeated one, equals the dense sum of the
  // four lanes' matrices built here entry by entry
  const std::array<int, 11> dofs{4, 15, 1, 10, 6, 12, 8, 0, 3, 14, 2};
  const std::array<int, 11> skipped{4, 15, -1, 10, 6, 12, 8, 0, 3, 14, 2};
  const std::array<int, 11> repeated{4, 15, 4, 10, 6, 12, 8, 0, 3, 14, 2};
  SparsityBuilder builder(16);
  builder.add_stencil(dofs);
  std::vector<double> interleaved(4 * 11 * 11);
  std::array<MatX, 4> lanes;
  for (int l = 0; l < 4; ++l) {
    MatX a = MatX::Random(11, 11);
    lanes[l] = a + a.transpose();
    for (int k = 0; k < 11 * 11; ++k) interleaved[4 * k + l] = lanes[l].data()[k];
  }
  for (bool lower_only : {true, false}) {
    HessianAssembler assembler(builder.build());
    assembler.set_lower_only(lower_only);
    MatX expected = MatX::Zero(16, 16);
    const int owner = 0;
    std::size_t first = 0;  // the stencils' cache indices: first + lane
    for (const auto& stencil : {dofs, skipped, repeated}) {
      for (int pass = 0; pass < 2; ++pass)  // the second pass uses the cached slots
        for (int l = 0; l < 4; ++l) {
          assembler.add_cached_symmetric(&owner, first + l, stencil, interleaved.data() + l, 4);
          for (int j = 0; j < 11; ++j)
            for (int i = 0; i < 11; ++i)
              if (stencil[i] >= 0 && stencil[j] >= 0)
                expected(stencil[i], stencil[j]) += lanes[l](i, j);
        }
      first += 4;
    }
    if (lower_only) assembler.mirror_lower();
    EXPECT_LE((MatX(assembler.matrix()) - expected).norm(), 1e-14 * expected.norm())
        << (lower_only ? "lower triangle" : "full blocks");
  }
}

TEST(SparseAssembly, OwnUpperEntriesCarryANonSymmetricBlockOverTheLowerTriangle) {
  // a symmetric stencil set added in the lower triangle, then non-symmetric blocks on two nodes'
  // DOFs (own upper entries, as a friction force's): read through value_sources() and after
  // mirror_lower() the matrix equals the dense sum of every block built here entry by entry, twice
  // (set_zero in between leaves stale upper entries that neither reading sees)
  const std::array<int, 6> symmetric{0, 1, 2, 3, 4, 5};
  const std::array<int, 3> node_a{3, 4, 5}, node_b{0, 1, 2};
  SparsityBuilder builder(7), own(7);
  builder.add_stencil(symmetric);
  builder.add_stencil(std::array<int, 2>{5, 6});
  builder.add_diagonal();
  own.add_stencil(node_a);
  own.add_stencil(node_b);
  HessianAssembler assembler(builder.build());
  assembler.set_lower_only(true);
  assembler.set_own_upper(own.build());
  MatX h = MatX::Random(6, 6);
  h = (h + h.transpose()).eval();
  const MatX a = MatX::Random(3, 3), b = MatX::Random(3, 3);
  MatX expected = MatX::Zero(7, 7);
  expected.topLeftCorner(6, 6) = h;
  expected.block(3, 3, 3, 3) += a;
  expected.block(0, 0, 3, 3) += b;
  const int owner = 0;
  for (int pass = 0; pass < 2; ++pass) {
    assembler.set_zero();
    assembler.add_cached_symmetric(&owner, 0, symmetric, h);
    assembler.copy_lower_to_own();
    assembler.add_cached(&owner, 0, node_a, a);
    assembler.add(node_b, b);
    const SparseMatrix& m = assembler.matrix();
    MatX through = MatX::Zero(7, 7);
    for (int c = 0; c < 7; ++c)
      for (int p = m.outerIndexPtr()[c]; p < m.outerIndexPtr()[c + 1]; ++p)
        through(m.innerIndexPtr()[p], c) = m.valuePtr()[assembler.value_sources()[p]];
    EXPECT_LE((through - expected).norm(), 1e-14 * expected.norm()) << "pass " << pass;
    assembler.mirror_lower();
    EXPECT_LE((MatX(m) - expected).norm(), 1e-14 * expected.norm()) << "pass " << pass;
  }
}

}  // namespace
}  // namespace tendril
