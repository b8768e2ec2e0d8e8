#pragma once
/// Shooting fit of the 3D vine's bending stiffness K and damping C (one value each for every
/// bending joint) to tracked 3D points (docs/physics/vine3d.md#shooting-fit), as the planar
/// fit/vine_shooting_fit.hpp: the model is run from a known start, and the sum of squared
/// distances between the simulated and the tracked joint points at the tracked frames is minimised
/// over (log K, log C) by Levenberg-Marquardt, its Jacobian from the step derivatives chained
/// through the run (S_{k+1} = dx_{k+1}/dx_k S_k + dx_{k+1}/dtheta, step_derivatives3d.hpp).

#include <functional>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::vine3d {

/// The tracked points of one frame: the joint points base .. tip after `step` steps.
struct TrackedFrame3 {
  int step = 0;  ///< steps from the start (0: the start itself)
  MatX points;   ///< (#bodies + 1) x 3 [m]: the base, the proximal end of bodies 1.., the tip
};

/// The joint points of a state as rows ((#bodies + 1) x 3) [m]: centerline_points, the points a
/// run saves (the base, the proximal end of bodies 1 .. n-1, the tip).
MatX joint_points(const Vine3dModel& model, const Vine3dState& state);

/// One trial of the Levenberg-Marquardt loop, as the progress callback sees it (the start:
/// iteration 0, accepted).
struct ShootingFit3Iteration {
  int iteration = 0;     ///< accepted steps so far
  bool accepted = true;  ///< false: a rejected trial (the cost rose, or a step failed there)
  double cost = 0.0;     ///< 1/2 |r|^2 at the point [m^2] (a failed trial: +inf)
  double step = 0.0;     ///< |d(ln K, ln C)|_inf of the trial (0 at the start)
  double lambda = 0.0;   ///< the damping of the trial
  int simulations = 0;   ///< runs so far
  Vec2 values;           ///< (K, C) at the point [N m/rad, N m s/rad]
};

struct ShootingFit3Options {
  int max_iterations = 40;
  /// Converged when an accepted step changes log K and log C by less than this [-]
  double step_tolerance = 1e-10;
  /// Called at the start and after every trial; returning false stops the fit (message
  /// "interrupted"). Empty: none.
  std::function<bool(const ShootingFit3Iteration&)> progress;
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
  bool converged = false;  ///< an accepted step was below the step tolerance
  std::string message;     ///< why the fit stopped
  /// The covariance of (K, C) [N m/rad, N m s/rad]: s^2 (J^T J)^-1 of (ln K, ln C) scaled by K and
  /// C; its diagonal the squared standard errors
  Eigen::Matrix2d covariance = Eigen::Matrix2d::Zero();
  /// s = sqrt(|r|^2 / (#residuals - 2)), the noise of one tracked coordinate the residuals imply
  /// [m]
  double noise_sigma = 0.0;
  double initial_cost = 0.0, cost = 0.0;  ///< 1/2 |r|^2 at the guess and at the fit [m^2]
  int simulations = 0;                    ///< runs (the start and every trial)
  /// The fitted run's joint points at each frame ((#bodies + 1) x 3 each) [m]; as many as frames
  /// (fewer if the guess does not simulate)
  std::vector<MatX> simulated;
};

/// Fits K and C from the initial guesses; throws InputError for guesses <= 0, no frames, or frames
/// whose steps are not increasing or points of the wrong shape. A guess whose run fails ends the
/// fit with converged = false (message: why); a trial whose run fails is rejected.
ShootingFit3Result fit_stiffness_damping(const Vine3dModel& model, const Vine3dState& start,
                                         const std::vector<TrackedFrame3>& frames, double stiffness,
                                         double damping, const ShootingFit3Options& options = {});

}  // namespace tendril::vine3d
