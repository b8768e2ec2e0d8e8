#pragma once
/// What a fit gives, whatever the method, and how `tendril fit` reports it
/// (docs/physics/fitting.md): the summary (each parameter as value +- sigma with its
/// identifiability), fit.json, history.csv and the run fit's residuals.csv; the joint estimation's
/// own fit.json fields.

#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_iteration.hpp"
#include "tendril/fit/shape_error.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/io/json.hpp"

namespace tendril::fit {

/// What a fit gives, whatever the method.
struct FitReport {
  bool converged = false;
  std::string message;  ///< the solver's reason for stopping
  int iterations = 0;
  std::vector<std::string> names;  ///< parameter key paths (per joint: vine.stiffness[j])
  VecX initial;                    ///< initial value of each name
  VecX values, sigma;  ///< fitted values and one-sigma uncertainties (+inf: undetermined)
  double initial_cost = 0.0, cost = 0.0;
  std::vector<FitIteration> history;
  std::string residuals_csv;  ///< measured against simulated at the fitted values, with header
  /// true: residuals_csv is fit_points_csv's table (fit_points_csv.hpp), measured and simulated
  /// points per frame, which the command also draws per frame (points.png)
  bool frame_points = false;
  /// the vine methods: the shape error per frame at the fitted values and at the initial guess
  std::vector<FrameShapeError> shape_error, guess_shape_error;
  /// vine_shooting with a measured start: the estimated start configuration q [m, m, rad] (the
  /// fitted trajectory's start; empty otherwise)
  VecX start;
  long runs = 0;             ///< simulations run
  io::Json::Object details;  ///< the method's own results (key, value), written into fit.json
};

/// True when a fit determines a parameter: the fit converged and the parameter's one-sigma
/// uncertainty is finite (the problem is not rank-deficient in it) and at most its magnitude. A
/// parameter whose sigma exceeds its value, or of a failed fit, is not identifiable from the data
/// (`tendril fit` says so in its summary, fit.json's `identifiable` and fit.png).
bool identifiable(bool converged, double value, double sigma);

/// The summary: one line per parameter, value +- sigma, flagged when the fit does not identify it
/// (and why), then the cost and the solver's reason.
std::string fit_summary(const FitReport& report);

/// fit.json: method, converged, message, iterations, runs, costs, each parameter's value, sigma
/// ("undetermined" if +inf), initial value and identifiable, then the method's own fields.
io::Json fit_json(const std::string& method, const FitReport& report);

/// history.csv: one row per progress line (names: the parameters' columns; a method may not record
/// the values per iteration).
std::string history_csv(const std::vector<std::string>& names,
                        const std::vector<FitIteration>& history);

/// The residual table of a run fit: one row per experiment with its settings, and per observable
/// the measured and simulated values [SI] and the weighted residual (simulated - measured) / sigma.
std::string run_fit_residuals_csv(const FitFile& file, const MatX& simulated);

/// Mean over the frames of |simulated - measured| tip x [m] (the paper's error measure; NaN without
/// frames).
double tip_x_mean_absolute_error(const std::vector<MeasuredFrame>& frames,
                                 const std::vector<MatX>& simulated);

/// The joint estimation's fit.json fields: IPOPT's status, iterations and time, the objective and
/// its parts, the constraint violation, K, C and their sigmas, the problem's size (`at_guess`), the
/// steps, the trust-region pass (if it ran) and the tip-x error.
io::Json::Object joint_estimation_details(const JointEstimationResult& r,
                                          const JointEstimationProblemEvaluation& at_guess,
                                          const JointEstimationOptions& options,
                                          const std::vector<MeasuredFrame>& frames);

}  // namespace tendril::fit
