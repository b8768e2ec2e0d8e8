#pragma once
/// Fitting the vine robot's pin stiffness K and damping C to measured centre lines by single
/// shooting (the simple baseline of the fitting issue; the paper's joint state and parameter
/// estimation, vine paper eq. 16, is the other method): simulate from a given start with (K, C),
/// compare the simulated centre line with the measured points at the video frames, and minimise
/// 1/2 |r|^2 over theta = (ln K, ln C) by Levenberg-Marquardt (fit/sparse_levenberg_marquardt.hpp).
/// The Jacobian of r is exact: forward sensitivities of (q, v) chained through the step-map
/// derivatives (vine/step_derivatives.hpp), times the derivative of the observation
/// (fit/polyline_resample.hpp). docs/physics/fitting.md.

#include <functional>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/fit_iteration.hpp"
#include "tendril/fit/vine_observation.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::fit {

/// Measured centre-line points of one video frame.
struct MeasuredFrame {
  int step = 0;  ///< simulation step the frame is taken at (0: the start)
  MatX points;   ///< (P x 2) [m], base to tip, evenly spaced by arc length along the robot
};

/// Residuals at theta and their Jacobian.
struct ShootingResiduals {
  bool ok = false;  ///< false if a step failed (message says which and why)
  std::string message;
  VecX residual;  ///< r: simulated minus measured, frame by frame, point by point, (x, y) [m]
  MatX jacobian;  ///< dr/dtheta (#r x 2), theta = (ln K, ln C); filled if requested
  std::vector<MatX> simulated;  ///< the observed points per frame ((P or 1) x 2) [m]
};

/// Simulates `model` from `start` with every pin's K = stiffness [N m/rad] and C = damping
/// [N m s/rad] through the last frame's step. Frames must be in increasing step order.
ShootingResiduals shooting_residuals(vine::VineModel model, const vine::VineState& start,
                                     const std::vector<MeasuredFrame>& frames,
                                     Observation observation, double stiffness, double damping,
                                     bool with_jacobian);

struct VineFitOptions {
  Observation observation = Observation::points;
  int max_iterations = 50;  ///< Levenberg-Marquardt iterations (accepted steps), >= 1
  double step_tolerance =
      1e-7;  ///< converged when |delta theta|_inf < this (1 + |theta|_inf) (theta in ln units)
  double cost_tolerance = 1e-12;  ///< converged when the cost decreases by less than this fraction
  /// Called at the start and after every trial (values: K, C); returning false stops the fit.
  /// Empty: none.
  std::function<bool(const FitIteration&)> progress;
};

struct VineFitResult {
  bool converged = false;
  std::string message;  ///< why it stopped
  int iterations = 0;
  double stiffness = 0.0;  ///< fitted K [N m/rad]
  double damping = 0.0;    ///< fitted C [N m s/rad]
  /// One-sigma uncertainties from the Gauss-Newton Hessian at the optimum, sigma^2 (J^T J)^-1 with
  /// sigma^2 = |r|^2 / (#r - 2), mapped from ln units: sigma_K = K sigma_lnK [N m/rad], [N m
  /// s/rad]; +inf for a parameter the residual does not depend on at the optimum (not
  /// identifiable).
  double stiffness_sigma = 0.0, damping_sigma = 0.0;
  double initial_cost = 0.0;  ///< 1/2 |r|^2 at the start [m^2]
  double cost = 0.0;          ///< 1/2 |r|^2 at the optimum [m^2]
  int simulations =
      0;  ///< simulations run (the start, trials, and accepted points with sensitivities)
  /// the start, then every trial, accepted or rejected (objective [m^2], values K, C)
  std::vector<FitIteration> history;
  ShootingResiduals fitted;  ///< residuals and simulated points at the optimum
};

/// Fits K and C (uniform over the pins) from the initial guess in `model` (its first pin's K, C).
VineFitResult fit_stiffness_damping(const vine::VineModel& model, const vine::VineState& start,
                                    const std::vector<MeasuredFrame>& frames,
                                    const VineFitOptions& options = {});

}  // namespace tendril::fit
