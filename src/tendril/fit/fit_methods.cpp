#include "tendril/fit/fit_methods.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::fit {

namespace {

std::string number(double v) { return std::isfinite(v) ? number_text(v, 9) : ""; }

FitReport finite_difference_lm(const FitFile& file, const FitContext& context) {
  const RunFitResult r = fit_runs(file.parameters, file.data, context.evaluate, file.options, context.progress);
  FitReport report;
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  for (const FitParameter& p : file.parameters) report.names.push_back(p.key);
  report.values = r.values;
  report.sigma = r.sigma;
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.history = r.history;
  report.residuals_csv = run_fit_residuals_csv(file, r.simulated);
  report.runs = r.runs;
  return report;
}

}  // namespace

std::string run_fit_residuals_csv(const FitFile& file, const MatX& simulated) {
  std::string csv = "experiment";
  for (const std::string& v : file.variables) csv += fmt::format(",{}", v);
  for (const std::string& o : file.data.observables) csv += fmt::format(",{0}_measured,{0}_simulated,{0}_residual", o);
  csv += "\n";
  for (std::size_t i = 0; i < file.data.experiments.size(); ++i) {
    csv += std::to_string(i + 1);
    // the experiment's own settings are the last ones (after the fit file's fixed `settings`)
    const RunSettings& e = file.data.experiments[i];
    for (std::size_t v = e.size() - file.variables.size(); v < e.size(); ++v)
      csv += fmt::format(",{}", e[v].substr(e[v].find('=') + 1));
    for (Eigen::Index k = 0; k < file.data.measured.cols(); ++k) {
      const auto row = static_cast<Eigen::Index>(i);
      const double m = file.data.measured(row, k);
      const double y = simulated.rows() > row ? simulated(row, k) : std::nan("");
      csv += fmt::format(",{},{},{}", number(m), number(y), number((y - m) / file.data.sigma[k]));
    }
    csv += "\n";
  }
  return csv;
}

const std::vector<FitMethod>& fit_methods() {
  static const std::vector<FitMethod> methods = {
      {"finite_difference_lm",
       "bounded Levenberg-Marquardt over whole runs, Jacobian by finite differences of runs in parallel",
       finite_difference_lm},
  };
  return methods;
}

const FitMethod& fit_method(const std::string& name) {
  std::string names;
  for (const FitMethod& m : fit_methods()) {
    if (m.name == name) return m;
    names += (names.empty() ? "" : ", ") + m.name;
  }
  throw InputError("method", name, "one of " + names);
}

}  // namespace tendril::fit
