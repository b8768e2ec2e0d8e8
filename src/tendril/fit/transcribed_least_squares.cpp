// The transcribed problem as least squares for the trust-region pass (fit/transcribed_problem.hpp):
// variables w = x without r (r eliminated as the dynamics rows' defects), residuals the measured
// points, the weighted constraint rows and the multipliers' prior, and their curvature.
#include <cmath>
#include <stdexcept>

#include "tendril/fit/transcribed_problem.hpp"

namespace tendril::fit::detail {

using Triplet = Eigen::Triplet<double, int>;

VecX TranscribedProblem::reduced(const VecX& x) const {
  VecX w(num_reduced_variables());
  w << x.head(r(0)), x.tail(num_variables() - y(0));
  return w;
}

VecX TranscribedProblem::with_zero_residuals(const VecX& w) const {
  VecX x = VecX::Zero(num_variables());
  x.head(r(0)) = w.head(r(0));
  x.tail(num_variables() - y(0)) = w.tail(num_variables() - y(0));
  return x;
}

VecX TranscribedProblem::row_weights(double penalty) const {
  VecX s = VecX::Constant(num_constraints(), penalty);
  for (int i = 0; i < steps_; ++i) s.segment(row(i), 2 * n_) = weights_.cwiseSqrt();
  return s;
}

SparseResiduals TranscribedProblem::least_squares(const VecX& w, bool with_jacobian,
                                                  const VecX& weights) {
  SparseResiduals out;
  const VecX x = with_zero_residuals(w);
  VecX g, values;
  if (!constraints(x, g, with_jacobian ? &values : nullptr, out.message)) return out;
  std::vector<Triplet> t;
  const VecX data = data_residuals(x, with_jacobian ? &t : nullptr);
  const int row0 = static_cast<int>(data.size()), nc = num_constraints();
  const int prior_rows = prior_weight_ > 0.0 ? y(steps_) - y(0) : 0;  // y / sigma_y
  out.residual.resize(row0 + nc + prior_rows);
  out.residual.head(row0) = data;
  const VecX gap = gaps(g);
  out.residual.segment(row0, nc) = weights.cwiseProduct(gap);
  const double prior_scale = std::sqrt(prior_weight_);
  out.residual.tail(prior_rows) = prior_scale * w.segment(reduced_column(y(0)), prior_rows);
  if (with_jacobian) {
    for (int a = 0; a < prior_rows; ++a)
      t.emplace_back(row0 + nc + a, reduced_column(y(0)) + a, prior_scale);
    for (std::size_t e = 0; e < jacobian_.rows().size(); ++e)
      if (!is_residual_column(jacobian_.cols()[e]) &&
          (jacobian_.rows()[e] < first_length_row() || gap(jacobian_.rows()[e]) < 0.0))
        t.emplace_back(row0 + jacobian_.rows()[e], reduced_column(jacobian_.cols()[e]),
                       weights(jacobian_.rows()[e]) * values(static_cast<Eigen::Index>(e)));
    out.jacobian.resize(static_cast<Eigen::Index>(out.residual.size()), num_reduced_variables());
    out.jacobian.setFromTriplets(t.begin(), t.end());
  }
  out.ok = out.residual.allFinite();
  if (!out.ok) out.message = "a residual is not finite";
  return out;
}

SparseMatrix TranscribedProblem::least_squares_curvature(const VecX& w, const VecX& weights) {
  const VecX x = with_zero_residuals(w);
  VecX g;
  std::string message;
  const std::size_t count = hessian_pattern().rows().size();
  std::vector<double> exact(count), gauss_newton_part(count);
  if (!constraints(x, g, nullptr, message) ||
      !exact_hessian(x, 1.0, 2.0 * weights.cwiseAbs2().cwiseProduct(gaps(g)), exact.data(),
                     message))
    throw std::runtime_error("joint estimation: " + message);
  gauss_newton(x, 1.0, gauss_newton_part.data());
  std::vector<Triplet> t;
  for (std::size_t e = 0; e < count; ++e) {
    const int a = hessian_pattern().rows()[e], b = hessian_pattern().cols()[e];
    const double value = 0.5 * (exact[e] - gauss_newton_part[e]);
    if (is_residual_column(a) || is_residual_column(b) || value == 0.0) continue;
    t.emplace_back(reduced_column(a), reduced_column(b), value);
    if (a != b) t.emplace_back(reduced_column(b), reduced_column(a), value);
  }
  SparseMatrix s(num_reduced_variables(), num_reduced_variables());
  s.setFromTriplets(t.begin(), t.end());
  return s;
}

}  // namespace tendril::fit::detail
