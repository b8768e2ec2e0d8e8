#pragma once
/// Shooting fit of the 3D vine's bending stiffness K and damping C (one value each for every
/// bending joint) to tracked 3D points (docs/physics/vine3d.md#shooting-fit), as the planar
/// fit/vine_shooting_fit.hpp: the model is run from a known start, and the sum of squared
/// distances between the simulated and the tracked joint points at the tracked frames is minimised
/// over (log K, log C) by Levenberg-Marquardt, its Jacobian from the step derivatives chained
/// through the run (S_{k+1} = dx_{k+1}/dx_k S_k + dx_{k+1}/dtheta, step_derivatives3d.hpp).

#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::vine3d {

/// The tracked points of one frame: the joint points base .. tip after `step` steps.
struct TrackedFrame3 {
  int step = 0;  ///< steps from the start (>= 1)
  MatX points;   ///< (#bodies + 1) x 3 [m]: the proximal end of every body, then the tip
};

/// The joint points of a state: the proximal end p_i - d_i e_i of every body, then the tip
/// ((#bodies + 1) x 3) [m].
MatX joint_points(const Vine3dModel& model, const Vine3dState& state);

struct ShootingFit3Options {
  int max_iterations = 40;
  /// Stop when a step changes log K and log C by less than this [-]
  double step_tolerance = 1e-10;
};

struct ShootingFit3Result {
  double stiffness = 0.0;  ///< fitted K [N m/rad]
  double damping = 0.0;    ///< fitted C [N m s/rad]
  double rms_error = 0.0;  ///< RMS distance of the fitted run's points to the tracked ones [m]
  /// Standard errors of K [N m/rad] and C [N m s/rad]: K and C times the standard errors of
  /// (ln K, ln C), the square roots of the diagonal of s^2 (J^T J)^-1 at the fit, with
  /// s^2 = |r|^2 / (#residuals - 2) the coordinates' noise variance estimated from the residuals
  double stiffness_sigma = 0.0;
  double damping_sigma = 0.0;
  int iterations = 0;      ///< Levenberg-Marquardt iterations
  bool converged = false;  ///< the step tolerance was reached
};

/// Fits K and C from the initial guesses; throws InputError for guesses <= 0, no frames, or frames
/// whose steps are not increasing or points of the wrong shape. Runs whose steps fail end the fit
/// with converged = false.
ShootingFit3Result fit_stiffness_damping(const Vine3dModel& model, const Vine3dState& start,
                                         const std::vector<TrackedFrame3>& frames, double stiffness,
                                         double damping, const ShootingFit3Options& options = {});

}  // namespace tendril::vine3d
