#pragma once
/// The methods of `tendril fit` by name (the fit file's `method`): each turns a read fit file into
/// a FitReport (fit/fit_report.hpp) that the command prints and writes. A new method is one more
/// entry in fit_methods() (fit_methods.cpp).

#include <functional>
#include <string>
#include <vector>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/fit/run_least_squares.hpp"

namespace tendril::fit {

/// How a method runs: the evaluator for batches of runs (threads, processes, a cluster) and
/// progress.
struct FitContext {
  RunBatchEvaluator evaluate;
  std::function<void(const FitIteration&)> progress;
  int jobs = 1;  ///< runs at once on worker threads (methods that evaluate runs themselves)
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

}  // namespace tendril::fit
