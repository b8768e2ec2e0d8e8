#pragma once
/// The bending moment of an inflated thin-walled tube whose wall wrinkles (Comer & Levy 1963;
/// Fichter 1966; Le van & Wielgosz 2005), the joint law the planar and the 3D vine share
/// (docs/physics/vine.md#inflated-beam-bending).
///
/// A membrane tube of radius r at gauge pressure p carries the axial force N = pi p r^2 of its end
/// caps; its wall (membrane stiffness E t) takes no compression. Bending strains the wall by
/// kappa r cos(phi) about the pressure pre-strain eps_w = p r / (2 E t):
/// - taut (|kappa| <= kappa_w = eps_w / r): M = EI kappa with EI = pi E t r^3 = M_w / kappa_w, up
///   to the wrinkling moment M_w = pi p r^3 / 2;
/// - wrinkled (|kappa| > kappa_w): the wall is taut over |phi| < beta only, with
///   g(beta) = sin(beta) - beta cos(beta) = pi kappa_w / |kappa| (axial balance) and
///   M = E t r^3 kappa (beta - sin(beta) cos(beta)), which tends to the collapse moment
///   M_c = pi p r^3 as kappa -> infinity.
/// M is odd in kappa and C1 at |kappa| = kappa_w (the tangent EI is continuous); d2M/dkappa2 jumps
/// there from 0 to an integrable -1/sqrt(|kappa| - kappa_w) singularity.
///
/// Chen, Gao et al. 2025 ("Physics-Grounded Differentiable Simulation for Soft Growing Robots")
/// fit a wrinkling moment law of an inflated beam to vine videos; this is the classical closed form
/// with the same inputs (pressure, radius, critical wrinkling strain).

#include <string>
#include <vector>

namespace tendril::vine {

/// The law's parameters.
struct InflatedBeam {
  double pressure = 0.0;  ///< p gauge pressure [Pa]
  double radius = 0.0;    ///< r tube radius [m]
  /// eps_w = p r / (2 E t): the pressure's axial wall strain, the bending strain at which the wall
  /// starts to wrinkle [-]
  double wrinkling_strain = 0.0;
  /// l: a joint's bend angle theta is the curvature kappa = theta / l spread over this arc [m]
  double joint_length = 0.0;

  double collapse_moment() const;      ///< M_c = pi p r^3 [N m]
  double wrinkling_curvature() const;  ///< kappa_w = eps_w / r [1/m]
  double bending_stiffness() const;    ///< EI = M_c / (2 kappa_w) = pi p r^4 / (2 eps_w) [N m^2]
  /// theta_w = kappa_w l = l eps_w / r: the joint angle at which the wall wrinkles [rad]
  double wrinkling_angle() const;

  /// The joint law depends on (p, r, eps_w, l) only through M_c and theta_w
  /// (M(theta) = M_c m(theta / theta_w)): sets them, holding r and l (p = M_c / (pi r^3),
  /// eps_w = theta_w r / l).
  void set_collapse_moment(double collapse_moment);
  void set_wrinkling_angle(double wrinkling_angle);

  /// Throws InputError naming `prefix`.<field> unless every value is finite and > 0.
  void validate(const std::string& prefix) const;
};

/// Checks a chain's joints for the law: `beam` valid, every linear `stiffness` 0 (the law sets the
/// moment) and, if `refuse_implicit`, no implicit springs (the 3D vine's hold a constant K; the
/// planar vine's take the law's tangent); throws InputError naming `prefix`.inflated_beam.<field>,
/// `prefix`.stiffness or `prefix`.springs.
void check_inflated_beam_joints(const InflatedBeam& beam, const std::vector<double>& stiffness,
                                bool refuse_implicit, const std::string& prefix);

/// A moment and its first two derivatives with respect to its argument.
struct BendingMoment {
  double moment = 0.0;             ///< M [N m]
  double stiffness = 0.0;          ///< dM/dx: tangent stiffness [N m per unit of x]
  double second_derivative = 0.0;  ///< d2M/dx2 [N m per unit of x^2]
  double energy = 0.0;  ///< W with dW/dx = M, W(0) = 0 [J/m for a curvature, J for an angle]
};

/// M(kappa) of the tube per unit curvature kappa [1/m]: moment [N m], dM/dkappa [N m^2],
/// d2M/dkappa2 [N m^3], and the bending energy per length W(kappa) [J/m].
BendingMoment inflated_beam_moment(const InflatedBeam& beam, double curvature);

/// The joint law: the moment at bend angle theta [rad], M(theta / l), with dM/dtheta [N m/rad],
/// d2M/dtheta2 [N m/rad^2] and the joint's energy l W(theta / l) [J].
BendingMoment inflated_beam_joint_moment(const InflatedBeam& beam, double angle);

/// Derivatives of the joint law M(theta) = M_c m(theta / theta_w) and of its tangent
/// M'(theta) with respect to its identifiable parameters M_c and theta_w (exact, from `law` at
/// the same angle): dM/dM_c = M / M_c, dM/dtheta_w = -theta M' / theta_w,
/// dM'/dM_c = M' / M_c, dM'/dtheta_w = -(M' + theta M'') / theta_w.
struct InflatedBeamSensitivity {
  double moment_collapse = 0.0;     ///< dM/dM_c [-]
  double moment_angle = 0.0;        ///< dM/dtheta_w [N m/rad]
  double stiffness_collapse = 0.0;  ///< dM'/dM_c [1/rad]
  double stiffness_angle = 0.0;     ///< dM'/dtheta_w [N m/rad^2]
};
InflatedBeamSensitivity inflated_beam_sensitivity(const InflatedBeam& beam, double angle,
                                                  const BendingMoment& law);

}  // namespace tendril::vine
