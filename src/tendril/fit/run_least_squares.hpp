#pragma once
/// Least-squares fit of scene parameters to observables of whole runs (docs/physics/fitting.md):
/// the parameters are scene key paths (as `--set` takes them), the data a table whose rows are
/// experiments (settings such as flagellated_robot.tails=2, flagellated_robot.motor_rpm=250) and
/// whose columns are measured observables (e.g. the robot's speed). The cost is
///   C(theta) = 1/2 sum_{i,k} ((y_ik(theta) - m_ik) / sigma_k)^2
/// over the measured entries m_ik (experiment i, observable k), y_ik the simulated observable.
/// Minimised by the bounded Levenberg-Marquardt of fit/sparse_levenberg_marquardt.hpp in scaled
/// variables z_j = theta_j / scale_j with a Jacobian by forward differences of whole runs; every
/// run of one Jacobian (and of one trial step) goes to the injected evaluator as one batch, which
/// may run them in parallel (threads, processes, a Dask cluster). A trial whose runs fail is
/// rejected; after a stall the runs one difference step away decide whether the point is a minimum
/// to the differences' resolution. Uncertainty from the Gauss-Newton Hessian at the optimum.

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/fit_iteration.hpp"

namespace tendril::fit {

/// One fitted parameter: a scene key path with its start value, bounds and typical magnitude.
struct FitParameter {
  std::string key;                       ///< scene key path ("flagellated_robot.C1")
  double initial = 0.0;                  ///< start value, in [lower, upper]
  double lower = -1e300, upper = 1e300;  ///< bounds (the fit never leaves them)
  double scale = 1.0;  ///< typical magnitude (> 0): the fit works in theta / scale
};

/// The overrides of one run, "key.path=value" each.
using RunSettings = std::vector<std::string>;

/// What one run gave.
struct RunOutcome {
  bool ok = false;
  std::string message;  ///< why the run failed
  std::vector<double>
      values;  ///< one per observable, in the order of MeasurementTable::observables
  /// d values / d theta (#observables x #parameters), from an evaluator of derivatives (fit_runs'
  /// `derivatives`); empty otherwise
  MatX derivatives;
};

/// Evaluates a batch of runs (any order, in parallel if it can); returns one outcome per run, in
/// order.
using RunBatchEvaluator = std::function<std::vector<RunOutcome>(const std::vector<RunSettings>&)>;

/// The measurements: one row per experiment.
struct MeasurementTable {
  std::vector<std::string> observables;  ///< names of the observables (#k)
  std::vector<RunSettings> experiments;  ///< the settings of each experiment (#i)
  MatX measured;                         ///< (#i x #k), NaN where not measured
  VecX sigma;                            ///< (#k) residual scale of each observable (> 0), its unit
};

struct RunFitOptions {
  int max_iterations =
      30;  ///< Levenberg-Marquardt iterations (accepted steps, one Jacobian each), >= 0
  double difference_step = 1e-3;  ///< forward-difference step in z: h_j = step max(|z_j|, 1)
  double step_tolerance = 1e-6;   ///< converged when (1 + lambda) |dz|_inf < this (1 + |z|_inf)
  double cost_tolerance = 1e-10;  ///< converged when an accepted step lowers C by less than this
                                  ///< fraction / (1 + lambda)
  double gradient_tolerance = 1e-10;  ///< converged when the projected gradient |dC/dz|_inf < this
  double initial_damping = 1e-3;      ///< lambda at the start (Marquardt's diagonal scaling)
  int max_rejections = 12;            ///< rejected trial steps in a row before giving up
  /// True: MeasurementTable::sigma are the measurement errors, the covariance is (J^T J)^-1
  /// (scipy's absolute_sigma); false: only relative weights, the covariance is scaled by s^2 from
  /// the residual.
  bool absolute_sigma = false;
};

struct RunFitResult {
  bool converged = false;
  std::string message;  ///< why it stopped (the solver's reason)
  int iterations = 0;
  VecX values;  ///< fitted theta
  /// One-sigma uncertainties: s^2 (J^T J)^-1 in z with s^2 = 2 C / (#residuals - #parameters) (or 1
  /// with absolute_sigma), times scale; +inf for a parameter the data do not determine (or, without
  /// absolute_sigma, without more residuals than parameters).
  VecX sigma;
  MatX covariance;  ///< (#parameters x #parameters) in theta's units, its diagonal sigma^2; NaN if
                    ///< undetermined
  double initial_cost = 0.0, cost = 0.0;
  std::vector<FitIteration> history;
  MatX simulated;  ///< (#i x #k) observables at the fitted values
  long runs = 0;   ///< runs evaluated
};

/// Fits `parameters` to `data`; `progress` (optional) is called after each iteration. With
/// `derivatives` (optional: an evaluator whose outcomes hold RunOutcome::derivatives with respect
/// to the parameters, in their order), every point is evaluated by it, value and Jacobian at once,
/// in place of `evaluate` and the finite differences; a stall then ends the fit as the
/// Levenberg-Marquardt reports it.
RunFitResult fit_runs(const std::vector<FitParameter>& parameters, const MeasurementTable& data,
                      const RunBatchEvaluator& evaluate, const RunFitOptions& options = {},
                      const std::function<void(const FitIteration&)>& progress = {},
                      const RunBatchEvaluator& derivatives = {});

/// The override text "key=value" of a parameter value (17 significant digits: the run sees exactly
/// theta).
std::string parameter_setting(const std::string& key, double value);

}  // namespace tendril::fit
