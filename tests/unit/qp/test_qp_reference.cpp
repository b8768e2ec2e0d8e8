// Random QPs against cvxopt (python3-cvxopt, written by make_reference_qps.py into the build dir):
// feasible and degenerate problems must reach KKT residual <= 1e-9 with cvxopt's objective
// (within 1e-6 relative, cvxopt's own accuracy); infeasible and unbounded ones must be reported.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tendril/qp/qp_solver.hpp"
#include "unit/qp/qp_test_problems.hpp"

namespace tendril::qp {
namespace {

struct ReferenceQp {
  std::string name, kind, status;
  double objective = 0.0;
  QpProblem problem;
};

MatX read_matrix(std::istringstream& line, int rows, int cols) {
  MatX m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) line >> m(i, j);
  return m;
}

// Reads the file named by TENDRIL_QP_REFERENCE; fails (never skips) if it is missing.
std::vector<ReferenceQp> read_reference() {
  const char* path = std::getenv("TENDRIL_QP_REFERENCE");
  if (path == nullptr) {
    ADD_FAILURE()
        << "TENDRIL_QP_REFERENCE is not set: run this test through ctest (fixture qp_reference)";
    return {};
  }
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path
                  << ": the ctest fixture make_reference_qps.py (python3 + python3-cvxopt, "
                  << "installed by scripts/setup.sh) must run first";
    return {};
  }
  std::vector<ReferenceQp> out;
  std::string text;
  int n = 0, m_eq = 0, m_in = 0;
  std::map<std::string, MatX> dense;
  while (std::getline(in, text)) {
    std::istringstream line(text);
    std::string key;
    line >> key;
    if (key == "problem") {
      out.emplace_back();
      line >> out.back().name >> out.back().kind >> out.back().status >> n >> m_eq >> m_in;
    } else if (key == "objective") {
      std::string value;
      line >> value;
      out.back().objective = std::stod(value);
    } else if (key == "end") {
      out.back().problem = test::make_problem(dense["P"], dense["c"], dense["A_eq"], dense["b_eq"],
                                              dense["A_in"], dense["b_in"]);
    } else {
      const std::map<std::string, std::pair<int, int>> shapes = {
          {"P", {n, n}},       {"c", {n, 1}},       {"A_eq", {m_eq, n}},
          {"b_eq", {m_eq, 1}}, {"A_in", {m_in, n}}, {"b_in", {m_in, 1}}};
      const auto [rows, cols] = shapes.at(key);
      dense[key] = read_matrix(line, rows, cols);
    }
  }
  return out;
}

TEST(QpReference, RandomProblemsAgainstCvxopt) {
  const std::vector<ReferenceQp> problems = read_reference();
  ASSERT_GE(problems.size(), 300u);
  std::map<std::string, int> count, without_fallback;
  double worst_kkt = 0.0;
  for (const ReferenceQp& ref : problems) {
    SCOPED_TRACE(ref.name);
    QpSolver solver;
    const QpSolution s = solver.solve(ref.problem);
    ++count[ref.kind];
    if (!s.used_interior_point) ++without_fallback[ref.kind];
    if (ref.status == "solved") {
      EXPECT_EQ(to_string(s.status), "solved") << "KKT residual " << s.kkt_residual;
      EXPECT_LE(s.kkt_residual, 1e-9);
      EXPECT_NEAR(s.objective, ref.objective, 1e-6 * std::max(1.0, std::abs(ref.objective)));
      EXPECT_GE(s.z_in.size() == 0 ? 0.0 : s.z_in.minCoeff(),
                -1e-9 * std::max(1.0, s.z_in.lpNorm<Eigen::Infinity>()));
      worst_kkt = std::max(worst_kkt, s.kkt_residual);
    } else {
      EXPECT_EQ(to_string(s.status), ref.status);
    }
  }
  EXPECT_EQ(count["feasible"], 200);
  EXPECT_EQ(count["degenerate"], 100);
  EXPECT_EQ(count["infeasible"], 45);
  EXPECT_EQ(count["unbounded"], 15);
  for (const auto& [kind, total] : count)
    std::printf("[ qp reference ] %-10s %3d problems, %3d without the interior-point fallback\n",
                kind.c_str(), total, without_fallback[kind]);
  std::printf("[ qp reference ] worst KKT residual of solved problems %.2e\n", worst_kkt);
}

}  // namespace
}  // namespace tendril::qp
