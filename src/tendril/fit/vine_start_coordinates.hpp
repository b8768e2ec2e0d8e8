#pragma once
/// The vine's configurations on its joints in minimal coordinates, for fits that estimate the
/// start state with the parameters (docs/physics/fitting.md, "Uncertainty with a measured start"):
/// joint k of the chain (body k-1 to body k, the world for k = 0) is a pin for even k and
/// prismatic for odd k (vine/constraint_rows.hpp), so body 2j and its prismatic partner 2j + 1
/// share one angle phi_j and are a gap e_j apart, and
///
///   xi = (phi_0 .. phi_{#pins-1} [rad], e_0 .. e_{#prismatic-1} [m])     (#bodies coordinates)
///
///   body 2j:      p = a_j + d_2j u(phi_j),                        theta = phi_j
///   body 2j + 1:  p = a_j + (2 d_2j + e_j + d_2j+1) u(phi_j),     theta = phi_j
///   a_0 = the base, a_{j+1} = a_j + (2 d_2j + e_j + 2 d_2j+1) u(phi_j),   u = (cos, sin),
///
/// e_j the prismatic joint's extension |h| - d_a - d_b. Every such q meets the joints c(q) = 0
/// exactly (vine paper eq. 2, 3), and every q on them is one.

#include "tendril/core/types.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::fit {

/// xi of a configuration `q` on the joints (#bodies).
VecX start_coordinates(const vine::VineModel& model, const VecX& q);

/// The configuration q(xi) (3 #bodies) and, if asked, dq/dxi (3 #bodies x #bodies).
VecX start_configuration(const vine::VineModel& model, const VecX& xi, MatX* dq_dxi = nullptr);

}  // namespace tendril::fit
