#include "tendril/contact/potentials/smooth_penalty.hpp"

#include <cmath>

namespace tendril::contact {

PenaltyValue smooth_penalty(double gap, double delta) {
  PenaltyValue out;
  if (gap >= delta) return out;
  const double k1 = 15.0 / delta;
  const double x = -k1 * gap;
  // softplus(x) and the logistic sigma(x) = softplus'(x), without overflow for large |x|
  const double softplus = std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x)));
  const double sigma = x >= 0.0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x));
  // b = (sp / K1)^2, db/dg = -2 sp sigma / K1, d2b/dg2 = 2 (sigma^2 + sp sigma (1 - sigma))
  out.value = softplus * softplus / (k1 * k1);
  out.slope = -2.0 * softplus * sigma / k1;
  out.curvature = 2.0 * (sigma * sigma + softplus * sigma * (1.0 - sigma));
  return out;
}

}  // namespace tendril::contact
