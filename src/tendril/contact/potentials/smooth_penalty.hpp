#pragma once
/// The smooth contact penalty of IMC (mat_dismech eq. 21, ground eq. 25-26), as a function of the
/// gap g = Delta - (r_a + r_b) [m] between two surfaces (negative when they overlap):
///   b(g) = ( softplus(-K1 g) / K1 )^2,   softplus(x) = log(1 + e^x),   K1 = 15 / delta,
/// for g < delta, and b = 0 for g >= delta. The energy of one contact is k_c b(g) [J] with the
/// contact stiffness k_c [N/m]. Deep in contact (g <= -delta) b equals g^2 to within a relative
/// 2 e^-15 (3e-7), the paper's first branch; at g = delta it is below 1e-14 delta^2 (the paper's
/// zero branch). We evaluate the smooth branch everywhere below delta, so b is C-infinity there and
/// jumps by at most 4e-16 delta^2 at the cut-off (docs/physics/contact.md, "Smooth penalty").

namespace tendril::contact {

/// b, db/dg and d2b/dg2 at one gap.
struct PenaltyValue {
  double value = 0.0;      ///< b [m^2]
  double slope = 0.0;      ///< db/dg [m] (<= 0: the penalty pushes the surfaces apart)
  double curvature = 0.0;  ///< d2b/dg2 [-] (>= 0)
};

/// The penalty of eq. 21 at gap g [m] for the distance tolerance delta [m] (> 0).
PenaltyValue smooth_penalty(double gap, double delta);

}  // namespace tendril::contact
