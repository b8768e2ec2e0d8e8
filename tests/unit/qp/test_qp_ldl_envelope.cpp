// The envelope kernel of LdlFactorization (runs of rows with one first column, each a dense panel)
// against a dense LDL^T computed here with the same pivot rule, on random quasi-definite matrices
// laid out in the chain ordering (so that it is the identity): per body a group of primal unknowns
// coupled by a dense SPD block, then its joint rows (coupled to this group and the one before) and
// its contact rows (this group only). The group sizes and row counts vary so that the runs have
// every height from 1 to kRunRows and beyond (split), with rows without entries left of the
// diagonal, switched-off contact rows (entries 0, diagonal -1) and repeated rows whose pivots
// cancel and are replaced.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "tendril/qp/ldl_factorization.hpp"

namespace tendril::qp {
namespace {

using Triplets = std::vector<Eigen::Triplet<double, int>>;

/// Sizes of a chain: per body the primal group, its joint rows and its contact rows.
struct ChainShape {
  std::vector<int> group, joint, contact;
};

/// Random sizes: groups of 1 .. 7 unknowns, 1 .. 11 joint rows and 0 .. 7 contact rows per body;
/// with `independent`, groups of 5 .. 7 unknowns and as many rows per body (2 or more joint rows,
/// the rest contact rows) plus one per block for chain_matrix to repeat: the other rows'
/// coefficients then have full rank (every body's rows can be matched to its own group's
/// unknowns).
ChainShape random_shape(int bodies, bool independent, std::mt19937& rng) {
  std::uniform_int_distribution<int> group(independent ? 5 : 1, 7), joint(1, 11), contact(0, 7);
  ChainShape shape;
  for (int b = 0; b < bodies; ++b) {
    shape.group.push_back(group(rng));
    shape.joint.push_back(joint(rng));
    shape.contact.push_back(contact(rng));
    if (independent) {
      const int joint_rows = 2 + shape.joint.back() % (shape.group.back() - 1);
      const int contact_rows = shape.group.back() - joint_rows;
      shape.joint.back() = joint_rows + 1;  // + 1: room for a repeated row
      shape.contact.back() = contact_rows > 0 ? contact_rows + 1 : 0;
    }
  }
  return shape;
}

/// Lower triangle of a quasi-definite matrix with the pattern of `shape` (every entry stored, also
/// those set to 0) and its pivot signs. Multiplier rows get -delta on the diagonal; a contact row
/// is switched off (entries 0, diagonal -1) with probability `off`; with `repeat`, every joint
/// block's last row and every contact block's last row repeat the row before (a dependent row),
/// both with a zero diagonal.
SparseMatrix chain_matrix(const ChainShape& shape, double delta, double off, bool repeat,
                          std::mt19937& rng, std::vector<signed char>& sign) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), unit(0.0, 1.0);
  Triplets t;
  sign.clear();
  // `count` multiplier rows on the primal unknowns `columns`
  const auto multipliers = [&](int count, const std::vector<int>& columns, bool switchable) {
    VecX row(columns.size());
    for (int r = 0; r < count; ++r) {
      const int i = static_cast<int>(sign.size());
      const bool is_off = switchable && unit(rng) < off;
      const bool pair = repeat && count > 1 && r + 2 >= count;  // a repeated row or its original
      if (!(pair && r + 1 == count))
        row = VecX::NullaryExpr(row.size(), [&] { return is_off ? 0.0 : u(rng); });
      for (std::size_t c = 0; c < columns.size(); ++c) t.emplace_back(i, columns[c], row[c]);
      t.emplace_back(i, i, is_off ? -1.0 : pair ? 0.0 : -delta);
      sign.push_back(-1);
    }
  };
  std::vector<int> previous;  // the unknowns of the group before
  for (std::size_t b = 0; b < shape.group.size(); ++b) {
    const int begin = static_cast<int>(sign.size()), size = shape.group[b];
    const MatX g = MatX::NullaryExpr(size, size, [&] { return u(rng); });
    const MatX block = g * g.transpose() + MatX::Identity(size, size);
    std::vector<int> group;
    for (int i = 0; i < size; ++i) {
      for (int j = 0; j <= i; ++j) t.emplace_back(begin + i, begin + j, block(i, j));
      sign.push_back(1);
      group.push_back(begin + i);
    }
    std::vector<int> joint = previous;
    joint.insert(joint.end(), group.begin(), group.end());
    multipliers(shape.joint[b], joint, false);
    multipliers(shape.contact[b], group, true);
    previous = group;
  }
  const int n = static_cast<int>(sign.size());
  SparseMatrix lower(n, n);
  lower.setFromTriplets(t.begin(), t.end());
  lower.makeCompressed();
  return lower;
}

/// Dense LDL^T in the given order with LdlFactorization's pivot rule: d_k with the wrong sign or
/// |d_k| <= threshold max(scale, m_k) (m_k: the sum of |terms| of d_k) becomes
/// sign shift max(scale, m_k).
struct DenseLdlt {
  MatX l;
  VecX d;
  int replaced = 0;
};

DenseLdlt dense_ldlt(const MatX& a, const std::vector<signed char>& sign, double scale,
                     double threshold, double shift) {
  const int n = static_cast<int>(a.rows());
  DenseLdlt f{MatX::Identity(n, n), VecX(n), 0};
  for (int k = 0; k < n; ++k) {
    double dk = a(k, k), magnitude = std::abs(a(k, k));
    for (int j = 0; j < k; ++j) {
      double w = a(k, j);
      for (int i = 0; i < j; ++i) w -= f.l(k, i) * f.d[i] * f.l(j, i);
      f.l(k, j) = w / f.d[j];
      dk -= f.l(k, j) * w;
      magnitude += std::abs(f.l(k, j) * w);
    }
    const double reference = std::max(scale, magnitude);
    if (!(sign[k] * dk > threshold * reference)) {
      dk = sign[k] * shift * reference;
      ++f.replaced;
    }
    f.d[k] = dk;
  }
  return f;
}

VecX dense_solve(const DenseLdlt& f, const VecX& b) {
  const VecX y = f.l.triangularView<Eigen::UnitLower>().solve(b);
  return f.l.transpose().triangularView<Eigen::UnitUpper>().solve(VecX(y.cwiseQuotient(f.d)));
}

MatX full(const SparseMatrix& lower) {
  return MatX(SparseMatrix(lower.selfadjointView<Eigen::Lower>()));
}

double relative_difference(const VecX& x, const VecX& reference) {
  return (x - reference).lpNorm<Eigen::Infinity>() / reference.lpNorm<Eigen::Infinity>();
}

/// The solve of `ldl` and that of the dense factors agree on a random right-hand side; returns it.
VecX expect_solve_as_dense(LdlFactorization& ldl, const DenseLdlt& dense, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const VecX rhs = VecX::NullaryExpr(ldl.size(), [&] { return u(rng); });
  VecX x = rhs;
  ldl.solve_in_place(x);
  EXPECT_LE(relative_difference(x, dense_solve(dense, rhs)), 1e-10);
  return rhs;
}

TEST(QpLdlEnvelope, ChainMatricesOfManyRunShapesSolveAsTheDenseLdlt) {
  // two value sets on one pattern per shape (the second reuses the panels of the first), contact
  // rows switched off in each at random
  std::mt19937 rng(3);
  for (int trial = 0; trial < 12; ++trial) {
    SCOPED_TRACE(trial);
    const ChainShape shape = random_shape(3 + trial, false, rng);
    std::vector<signed char> sign;
    LdlFactorization ldl;
    for (int values = 0; values < 2; ++values) {
      std::mt19937 value_rng(100 * trial + values);
      const SparseMatrix lower = chain_matrix(shape, 1e-2, 0.4, false, value_rng, sign);
      if (values == 0) ldl.analyse(lower, sign);
      ASSERT_TRUE(ldl.envelope_kernel());
      const double scale = std::max(1.0, lower.coeffs().cwiseAbs().maxCoeff());
      const DenseLdlt dense = dense_ldlt(full(lower), sign, scale, 1e-14, 1e-10);
      ASSERT_EQ(dense.replaced, 0);
      EXPECT_EQ(ldl.factorize(lower, scale, 1e-14, 1e-10), 0);
      const VecX rhs = expect_solve_as_dense(ldl, dense, rng);
      VecX x = rhs;
      ldl.solve_in_place(x);
      EXPECT_LE(relative_difference(x, full(lower).partialPivLu().solve(rhs)), 1e-10);
    }
  }
}

TEST(QpLdlEnvelope, RepeatedRowsReplaceAsManyPivotsAsTheDenseElimination) {
  // rows of full rank but for the repeated ones: a repeated row's pivot (it and its original have
  // a zero diagonal) cancels to rounding noise and is replaced by -shift max(scale, m_k); with
  // shift 1 the regularised factors stay well conditioned, so their solve compares closely with the
  // dense one
  std::mt19937 rng(5);
  std::vector<signed char> sign;
  for (int trial = 0; trial < 8; ++trial) {
    SCOPED_TRACE(trial);
    const ChainShape shape = random_shape(4 + trial, true, rng);
    const SparseMatrix lower = chain_matrix(shape, 1e-2, 0.0, true, rng, sign);
    LdlFactorization ldl;
    ldl.analyse(lower, sign);
    ASSERT_TRUE(ldl.envelope_kernel());
    const DenseLdlt dense = dense_ldlt(full(lower), sign, 1.0, 1e-8, 1.0);
    int repeated = 0;  // one replaced pivot per repeated row, no other
    for (std::size_t b = 0; b < shape.group.size(); ++b)
      repeated += (shape.joint[b] > 1) + (shape.contact[b] > 1);
    EXPECT_EQ(dense.replaced, repeated);
    EXPECT_EQ(ldl.factorize(lower, 1.0, 1e-8, 1.0), dense.replaced);
    expect_solve_as_dense(ldl, dense, rng);
  }
}

TEST(QpLdlEnvelope, ANonFinitePivotFailsTheFactorisation) {
  std::mt19937 rng(9);
  std::vector<signed char> sign;
  SparseMatrix lower = chain_matrix(random_shape(12, false, rng), 1e-2, 0.0, false, rng, sign);
  LdlFactorization ldl;
  ldl.analyse(lower, sign);
  ASSERT_TRUE(ldl.envelope_kernel());
  ASSERT_EQ(ldl.factorize(lower, 1.0, 1e-14, 1e-10), 0);
  lower.valuePtr()[lower.nonZeros() / 2] = HUGE_VAL;  // an entry in the middle of the chain
  EXPECT_EQ(ldl.factorize(lower, 1.0, 1e-14, 1e-10), -1);
}

}  // namespace
}  // namespace tendril::qp
