#pragma once
/// Fitting the vine robot's parameters to measured centre lines by single shooting (the paper's
/// joint state and parameter estimation, vine paper eq. 16, is the other method): simulate from a
/// given start, compare the simulated centre line with the measured points at the video frames,
/// and minimise 1/2 |r|^2 over the parameters (K, C, the growth schedule's rates, the base heading,
/// the contact radius, the inflated-beam law's M_c and theta_w; positive ones in ln units) by
/// Levenberg-Marquardt (fit/sparse_levenberg_marquardt.hpp). The Jacobian of r is exact: forward
/// sensitivities of (q, v) chained through the step-map derivatives (vine/step_derivatives.hpp),
/// times the derivative of the observation (fit/polyline_resample.hpp). docs/physics/fitting.md.

#include <functional>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/fit_iteration.hpp"
#include "tendril/fit/vine_observation.hpp"
#include "tendril/fit/vine_start_coordinates.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::fit {

/// Measured centre-line points of one video frame.
struct MeasuredFrame {
  int step = 0;  ///< simulation step the frame is taken at (0: the start)
  MatX points;   ///< (P x 2) [m], base to tip, evenly spaced by arc length along the robot
};

/// What a vine fit estimates (one value each, shared by every pin joint).
enum class VineParameterKind {
  stiffness,        ///< K of every pin [N m/rad] (linear law); fitted as ln K
  damping,          ///< C of every pin [N m s/rad]; ln C
  growth_rate,      ///< sample `index` of the growth schedule u(t) [m/s] (a constant rate: 0)
  heading,          ///< the base pin's rest angle theta_bar_0, the base heading [rad]
  contact_radius,   ///< r_c [m]; ln r_c
  collapse_moment,  ///< the inflated-beam law's M_c = pi p r^3 [N m]; ln M_c
  wrinkling_angle,  ///< the inflated-beam law's theta_w = l eps_w / r [rad]; ln theta_w
};

struct VineParameter {
  VineParameterKind kind = VineParameterKind::stiffness;
  int index = 0;  ///< growth_rate: the schedule's sample
};

/// A parameter's name for messages and reports ("K", "growth rate[1]", "M_c", ...).
std::string vine_parameter_name(const VineParameter& parameter);
/// True for the parameters fitted in ln units (the positive ones).
bool fitted_in_log(VineParameterKind kind);
/// The parameter's value in `model`.
double vine_parameter_value(const vine::VineModel& model, const VineParameter& parameter);
/// Sets the parameter in `model` (InflatedBeam::set_collapse_moment and set_wrinkling_angle hold
/// r and l).
void set_vine_parameter(vine::VineModel& model, const VineParameter& parameter, double value);
/// du_j/du: how the growth schedule's rate u is shared among the prismatic joints (as
/// VineStepper::joint_growth_rates) (#prismatic).
VecX growth_split(const vine::VineModel& model);
/// Throws InputError naming the parameter unless `model` has it: K only with the linear law, M_c
/// and theta_w only with the inflated-beam law, the heading not with steering, a growth sample
/// within the schedule, a parameter fitted in ln units > 0, none twice.
void check_vine_parameters(const vine::VineModel& model,
                           const std::vector<VineParameter>& parameters);

/// Residuals at theta and their Jacobian.
struct ShootingResiduals {
  bool ok = false;  ///< false if a step failed (message says which and why)
  std::string message;
  VecX residual;  ///< r: simulated minus measured, frame by frame, point by point, (x, y) [m]
  /// dr/dtheta (#r x #parameters), theta the values (ln of those fitted in ln units); filled if
  /// requested
  MatX jacobian;
  std::vector<MatX> simulated;  ///< the observed points per frame ((P or 1) x 2) [m]
};

/// Simulates `model` from `start` with the parameters at `values` (in their units) through the
/// last frame's step. Frames must be in increasing step order.
/// With `start_directions` (3 #bodies x m) the Jacobian has m more columns after the parameters':
/// dr/ds for start configurations start.q + S s (the start's velocity held).
ShootingResiduals shooting_residuals(vine::VineModel model, const vine::VineState& start,
                                     const std::vector<MeasuredFrame>& frames,
                                     Observation observation,
                                     const std::vector<VineParameter>& parameters,
                                     const VecX& values, bool with_jacobian,
                                     const MatX& start_directions = {});
/// The same with the parameters (K, C): every pin's K = stiffness [N m/rad], C = damping
/// [N m s/rad].
ShootingResiduals shooting_residuals(const vine::VineModel& model, const vine::VineState& start,
                                     const std::vector<MeasuredFrame>& frames,
                                     Observation observation, double stiffness, double damping,
                                     bool with_jacobian);

/// The parameters' covariance when the residuals' point k (of P) has the same 2 x 2 error
/// covariance Sigma_k in every frame (a heteroscedasticity-consistent "sandwich" pooled over the
/// frames): (J^T J)^+ (sum over frames f and points k of J_fk^T Sigma_k J_fk) (J^T J)^+, Sigma_k
/// the mean of point k's residual outer products over the F frames with F - #theta / P degrees of
/// freedom. Tracked video's resampled points need it: the tip's and the base's points carry
/// larger or smaller errors than the middle's (docs/physics/fitting.md, "Uncertainty with a
/// measured start"). Every frame must have P observed points (Observation::points); NaN rows and
/// columns for the undetermined directions, as least_squares_covariance.
MatX pointwise_covariance(const MatX& jacobian, const VecX& residual,
                          const std::vector<MeasuredFrame>& frames);

struct VineFitOptions {
  Observation observation = Observation::points;
  int max_iterations = 50;  ///< Levenberg-Marquardt iterations (accepted steps), >= 1
  double step_tolerance =
      1e-7;  ///< converged when |delta theta|_inf < this (1 + |theta|_inf) (theta as fitted)
  double cost_tolerance = 1e-12;  ///< converged when the cost decreases by less than this fraction
  /// true: the start is measured (the data's first frame) and its configuration is estimated with
  /// the parameters, at rest, in the coordinates of fit/vine_start_coordinates.hpp (the pin
  /// angles and prismatic extensions): its measurement error is then in the fit's model and in
  /// sigma (docs/physics/fitting.md, "Uncertainty with a measured start"). false: the start is
  /// held.
  bool estimate_start = false;
  /// true: sigma from pointwise_covariance (the P points of every frame each with its own error
  /// covariance, as a tracked video's resampled points have); false: s^2 (J^T J)^-1, every
  /// coordinate's error alike
  bool pointwise_errors = false;
  /// Called at the start and after every trial (values: the parameters'); returning false stops
  /// the fit.
  /// Empty: none.
  std::function<bool(const FitIteration&)> progress;
};

struct VineFitResult {
  bool converged = false;
  std::string message;  ///< why it stopped
  int iterations = 0;
  std::vector<VineParameter> parameters;
  VecX values;  ///< the fitted parameters, in their units
  /// One-sigma uncertainties from the Gauss-Newton Hessian at the optimum, s^2 (J^T J)^-1 with
  /// s^2 = |r|^2 / (#r - #parameters - #start coordinates estimated), mapped from ln units
  /// (sigma_K = K sigma_lnK); +inf for a parameter the residual does not depend on at the optimum
  /// (not identifiable).
  VecX sigma;
  /// fit_stiffness_damping: K [N m/rad] and C [N m s/rad] with their sigmas (values(0), (1))
  double stiffness = 0.0, damping = 0.0, stiffness_sigma = 0.0, damping_sigma = 0.0;
  double initial_cost = 0.0;  ///< 1/2 |r|^2 at the start [m^2]
  double cost = 0.0;          ///< 1/2 |r|^2 at the optimum [m^2]
  int simulations =
      0;  ///< simulations run (the start, trials, and accepted points with sensitivities)
  vine::VineState start;  ///< the start of the fitted run (estimated with estimate_start)
  /// with estimate_start: the start's coordinates xi (fit/vine_start_coordinates.hpp) and their
  /// one-sigma uncertainties [rad, m] (empty otherwise)
  VecX start_coordinates, start_sigma;
  /// the start, then every trial, accepted or rejected (objective [m^2], the values)
  std::vector<FitIteration> history;
  ShootingResiduals fitted;  ///< residuals and simulated points at the optimum
};

/// Fits `parameters` from their values in `model` (the initial guess; K, C: its first pin's).
/// InputError (check_vine_parameters) for a parameter the model does not have.
VineFitResult fit_vine_parameters(const vine::VineModel& model, const vine::VineState& start,
                                  const std::vector<MeasuredFrame>& frames,
                                  const std::vector<VineParameter>& parameters,
                                  const VineFitOptions& options = {});
/// Fits K and C (uniform over the pins) from the initial guess in `model` (its first pin's K, C).
VineFitResult fit_stiffness_damping(const vine::VineModel& model, const vine::VineState& start,
                                    const std::vector<MeasuredFrame>& frames,
                                    const VineFitOptions& options = {});

}  // namespace tendril::fit
