// The least-squares fit over whole runs (fit/run_least_squares.hpp) on closed-form "runs": an
// evaluator that computes y = a exp(-b x) and z = a + b x from the settings x, a, b instead of
// simulating. Checked against the exact parameters, the linear least-squares solution and its
// textbook covariance s^2 (X^T X)^-1 (e.g. Seber & Lee, Linear Regression Analysis, 3.3; sigma^2
// (X^T X)^-1 with a known error), bounds, failing runs and batching.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>

#include <Eigen/Dense>

#include "tendril/fit/run_least_squares.hpp"

namespace tendril::fit {
namespace {

std::map<std::string, double> parse(const RunSettings& s) {
  std::map<std::string, double> v;
  for (const std::string& kv : s)
    v[kv.substr(0, kv.find('='))] = std::stod(kv.substr(kv.find('=') + 1));
  return v;
}

/// y = a exp(-b x), z = a + b x; runs with b > fail_above fail.
struct ClosedForm {
  double fail_above = 1e300;
  std::vector<std::size_t> batches;
  std::vector<RunOutcome> operator()(const std::vector<RunSettings>& batch) {
    batches.push_back(batch.size());
    std::vector<RunOutcome> out;
    for (const RunSettings& s : batch) {
      auto v = parse(s);
      RunOutcome o;
      o.ok = v["b"] <= fail_above;
      o.message = o.ok ? "" : "blow-up at b = " + std::to_string(v["b"]);
      o.values = {v["a"] * std::exp(-v["b"] * v["x"]), v["a"] + v["b"] * v["x"]};
      out.push_back(o);
    }
    return out;
  }
};

MeasurementTable table(const std::vector<double>& xs, double a, double b, double noise,
                       unsigned seed) {
  MeasurementTable t;
  t.observables = {"y", "z"};
  t.measured.resize(static_cast<Eigen::Index>(xs.size()), 2);
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    t.experiments.push_back({"x=" + std::to_string(xs[i])});
    const auto r = static_cast<Eigen::Index>(i);
    t.measured(r, 0) = a * std::exp(-b * xs[i]) + n(rng);
    t.measured(r, 1) = a + b * xs[i] + n(rng);
  }
  t.sigma = VecX::Ones(2);
  return t;
}

TEST(RunLeastSquares, RecoversExactParametersWithJacobiansInOneBatch) {
  const MeasurementTable data = table({0.0, 0.5, 1.0, 2.0}, 2.0, 0.5, 0.0, 1);
  ClosedForm model;
  std::vector<FitIteration> lines;
  const RunFitResult r =
      fit_runs({{"a", 1.0, 0.0, 10.0, 1.0}, {"b", 1.0, 0.0, 5.0, 1.0}}, data, std::ref(model), {},
               [&](const FitIteration& h) { lines.push_back(h); });
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.values[0], 2.0, 1e-6);
  EXPECT_NEAR(r.values[1], 0.5, 1e-6);
  EXPECT_LT(r.cost, 1e-12);
  EXPECT_EQ(lines.size(), r.history.size());
  EXPECT_EQ(lines.front().objective, r.initial_cost);
  // the start: one batch of the 4 experiments; each Jacobian: one batch of 2 parameters x 4
  // experiments
  EXPECT_EQ(model.batches[0], 4u);
  EXPECT_EQ(model.batches[1], 8u);
  long total = 0;
  for (std::size_t b : model.batches) total += static_cast<long>(b);
  EXPECT_EQ(total, r.runs);
}

/// ClosedForm with the exact derivatives of (y, z) with respect to (a, b) (an evaluator of
/// derivatives, as method adjoint_lm's).
struct ClosedFormWithDerivatives {
  ClosedForm values;
  std::vector<RunOutcome> operator()(const std::vector<RunSettings>& batch) {
    std::vector<RunOutcome> out = values(batch);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      auto v = parse(batch[k]);
      const double e = std::exp(-v["b"] * v["x"]);
      out[k].derivatives.resize(2, 2);
      out[k].derivatives << e, -v["a"] * v["x"] * e, 1.0, v["x"];
    }
    return out;
  }
};

TEST(RunLeastSquares, ExactDerivativesGiveTheJacobianWithEveryPointsRuns) {
  const MeasurementTable data = table({0.0, 0.5, 1.0, 2.0}, 2.0, 0.5, 0.0, 1);
  ClosedForm unused;  // the value evaluator is not called
  ClosedFormWithDerivatives model;
  const RunFitResult r = fit_runs({{"a", 1.0, 0.0, 10.0, 1.0}, {"b", 1.0, 0.0, 5.0, 1.0}}, data,
                                  std::ref(unused), {}, {}, std::ref(model));
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.values[0], 2.0, 1e-8);
  EXPECT_NEAR(r.values[1], 0.5, 1e-8);
  EXPECT_TRUE(unused.batches.empty());
  // one batch of the 4 experiments per point, none for differences
  for (std::size_t b : model.values.batches) EXPECT_EQ(b, 4u);
  EXPECT_EQ(r.runs, 4 * static_cast<long>(model.values.batches.size()));
}

TEST(RunLeastSquares, LinearModelGivesTheLeastSquaresSolutionAndItsCovariance) {
  // only z = a + b x measured: ordinary linear least squares
  MeasurementTable data = table({0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, 1.0, 0.3, 0.05, 7);
  data.measured.col(0).setConstant(std::nan(""));  // y not measured
  ClosedForm model;
  const RunFitResult r =
      fit_runs({{"a", 0.0, -10.0, 10.0, 1.0}, {"b", 0.0, -10.0, 10.0, 1.0}}, data, std::ref(model));
  ASSERT_TRUE(r.converged) << r.message;
  Eigen::MatrixXd X(6, 2);
  for (int i = 0; i < 6; ++i) X.row(i) << 1.0, i;
  const VecX z = data.measured.col(1);
  const VecX beta = (X.transpose() * X).ldlt().solve(X.transpose() * z);
  const double s2 = (z - X * beta).squaredNorm() / (6 - 2);
  const MatX cov = s2 * (X.transpose() * X).inverse();
  EXPECT_NEAR(r.values[0], beta[0], 1e-7);
  EXPECT_NEAR(r.values[1], beta[1], 1e-7);
  EXPECT_NEAR(r.sigma[0], std::sqrt(cov(0, 0)), 1e-5 * std::sqrt(cov(0, 0)));
  EXPECT_NEAR(r.sigma[1], std::sqrt(cov(1, 1)), 1e-5 * std::sqrt(cov(1, 1)));
  // with the measurement error known (absolute_sigma): sigma^2 (X^T X)^-1, whatever the residual
  data.sigma[1] = 0.05;
  ClosedForm again;
  const RunFitResult known = fit_runs({{"a", 0.0, -10.0, 10.0, 1.0}, {"b", 0.0, -10.0, 10.0, 1.0}},
                                      data, std::ref(again), {.absolute_sigma = true});
  const MatX known_cov = 0.05 * 0.05 * (X.transpose() * X).inverse();
  EXPECT_NEAR(known.values[1], beta[1], 1e-7);
  EXPECT_NEAR(known.sigma[0], std::sqrt(known_cov(0, 0)), 1e-5 * std::sqrt(known_cov(0, 0)));
  EXPECT_NEAR(known.covariance(0, 1), known_cov(0, 1), 1e-5 * std::abs(known_cov(0, 1)));
}

TEST(RunLeastSquares, StopsAtABoundThatExcludesTheTruth) {
  // truth a = 2, upper bound 1.5: a ends on the bound, b at its best value given a = 1.5
  const MeasurementTable data = table({0.0, 0.5, 1.0, 2.0}, 2.0, 0.5, 0.0, 1);
  ClosedForm model;
  const RunFitResult r =
      fit_runs({{"a", 1.0, 0.0, 1.5, 1.0}, {"b", 1.0, 0.0, 5.0, 1.0}}, data, std::ref(model));
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_EQ(r.values[0], 1.5);
  // the projected gradient in b vanishes: a small change of b raises the cost both ways
  auto cost = [&](double b) {
    ClosedForm m;
    RunFitOptions one;
    one.max_iterations = 0;
    return fit_runs({{"a", 1.5, 0.0, 1.5, 1.0}, {"b", b, 0.0, 5.0, 1.0}}, data, std::ref(m), one)
        .initial_cost;
  };
  EXPECT_LE(r.cost, cost(r.values[1] + 1e-3));
  EXPECT_LE(r.cost, cost(r.values[1] - 1e-3));
}

TEST(RunLeastSquares, FailingRunsAreReportedOrAvoided) {
  const MeasurementTable data = table({0.0, 0.5, 1.0, 2.0}, 2.0, 0.5, 0.0, 1);
  ClosedForm broken;
  broken.fail_above = 0.0;  // every run fails
  const RunFitResult failed =
      fit_runs({{"a", 1.0, 0.0, 10.0, 1.0}, {"b", 1.0, 0.0, 5.0, 1.0}}, data, std::ref(broken));
  EXPECT_FALSE(failed.converged);
  EXPECT_NE(failed.message.find("the start failed"), std::string::npos) << failed.message;
  EXPECT_NE(failed.message.find("blow-up at b = 1"), std::string::npos) << failed.message;
  EXPECT_TRUE(std::isinf(failed.sigma[0]));
  // runs fail beyond b = 1.2: trial steps there are rejected, the fit still reaches b = 0.5 from b
  // = 1.1
  ClosedForm partly;
  partly.fail_above = 1.2;
  const RunFitResult r =
      fit_runs({{"a", 5.0, 0.0, 10.0, 1.0}, {"b", 1.1, 0.0, 5.0, 1.0}}, data, std::ref(partly));
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.values[1], 0.5, 1e-6);
  // every iteration is reported: the start, the accepted steps and the rejected trials, with their
  // values
  int accepted = 0;
  for (const FitIteration& h : r.history) accepted += h.accepted ? 1 : 0;
  EXPECT_EQ(accepted, 1 + r.iterations);
  for (auto h = r.history.rbegin(); h != r.history.rend(); ++h)
    if (h->accepted) {
      EXPECT_EQ(h->values, r.values);  // the last accepted point is the fit's
      break;
    }
  // not converged within the iterations allowed: reported as such
  ClosedForm model;
  RunFitOptions few;
  few.max_iterations = 1;
  const RunFitResult short_fit =
      fit_runs({{"a", 1.0, 0.0, 10.0, 1.0}, {"b", 1.0, 0.0, 5.0, 1.0}}, data, std::ref(model), few);
  EXPECT_FALSE(short_fit.converged);
  EXPECT_NE(short_fit.message.find("not converged after 1 iterations"), std::string::npos)
      << short_fit.message;
}

}  // namespace
}  // namespace tendril::fit
