#pragma once
/// The methods of `tendril fit` by name (the fit file's `method`): each turns a read fit file into
/// a FitReport that the command prints and writes. A new method (e.g. IPOPT joint estimation) is
/// one more entry in fit_methods() (fit_methods.cpp).

#include <functional>
#include <string>
#include <vector>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/run_least_squares.hpp"

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
  long runs = 0;             ///< simulations run
  io::Json::Object details;  ///< the method's own results (key, value), written into fit.json
};

/// True when a fit determines a parameter: the fit converged and the parameter's one-sigma
/// uncertainty is finite (the problem is not rank-deficient in it) and at most its magnitude. A
/// parameter whose sigma exceeds its value, or of a failed fit, is not identifiable from the data
/// (`tendril fit` says so in its summary, fit.json's `identifiable` and fit.png).
bool identifiable(bool converged, double value, double sigma);

/// How a method runs: the evaluator for batches of runs (threads, processes, a cluster) and
/// progress.
struct FitContext {
  RunBatchEvaluator evaluate;
  std::function<void(const FitIteration&)> progress;
};

struct FitMethod {
  std::string name;
  std::string summary;  ///< one line for the help
  std::function<FitReport(const FitFile&, const FitContext&)> run;
};

/// The registered methods.
const std::vector<FitMethod>& fit_methods();
/// The method named `name` (InputError listing the names otherwise).
const FitMethod& fit_method(const std::string& name);

/// The residual table of a run fit: one row per experiment with its settings, and per observable
/// the measured and simulated values [SI] and the weighted residual (simulated - measured) / sigma.
std::string run_fit_residuals_csv(const FitFile& file, const MatX& simulated);

}  // namespace tendril::fit
