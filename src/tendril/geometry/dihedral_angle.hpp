#pragma once
/// Signed dihedral angle of a hinge and its exact derivatives (mat_dismech 3.3.1; Grinspun et al.
/// 2003; docs/physics/shells.md#hinge-bending). The hinge edge runs x_0 -> x_1; triangle A = (x_0,
/// x_1, x_2) and triangle B = (x_0, x_3, x_1) are consistently oriented, with area vectors n_A,
/// n_B:
///   phi = atan2((n_A x n_B) . e_hat, n_A . n_B),  e_hat = (x_1 - x_0) / |x_1 - x_0|,
/// zero for a flat hinge, positive when the hinge folds so that n_A turns towards n_B about e_hat.
/// Stencil DOFs: (x_0, x_1, x_2, x_3), 12 entries.

#include "tendril/core/types.hpp"

namespace tendril {

/// phi [rad] in (-pi, pi].
double dihedral_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3);

/// A quadratic energy of the angle, E = k/2 (phi - phi_bar)^2 (a hinge spring).
struct AngleSpring {
  double stiffness = 0.0;      ///< k [J/rad^2]
  double natural_angle = 0.0;  ///< phi_bar [rad]
};

/// phi and, when requested, g = d phi / d(x_0 .. x_3) [1/m] and the Hessian d2 phi / d(x_0 ..
/// x_3)^2 [1/m^2] (symmetric). With `spring`, `hessian` receives the spring's Hessian k (phi -
/// phi_bar) d2phi + k g g^T [N/m] instead, formed block by block without a 12 x 12 temporary
/// (gradient still d phi). A Hessian needs the gradient.
double dihedral_angle_derivatives(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                                  VecN<12>* gradient, MatN<12>* hessian,
                                  const AngleSpring* spring = nullptr);

}  // namespace tendril
