// `tendril fit`'s gradient method (adjoint_lm: the Levenberg-Marquardt with the Jacobian from the
// forward sensitivities of each run) against the finite-difference method on the flagellated
// robot's medium fit (examples/fit/flagellated_robot_n2.yaml, whose method is adjoint_lm, and its
// twin flagellated_robot_n2_finite_difference.yaml: C1, C2, mu from v and omega_h of the two-tailed
// robot at three motor speeds, 3 s runs): both converge, and their estimates differ by
// less than 1 % of the fit's one-sigma uncertainty (the estimate is the same to the precision the
// data give it). About 3 s of CPU; docs/physics/fitting.md, "Method adjoint_lm".
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;

/// The fit of an example fit file on one thread, with the CPU time it took [s].
FitReport fit_example(const std::string& name, double& cpu_seconds) {
  const FitFile file = read_fit_file(testing::source_tree() / "examples" / "fit" / name);
  FitContext context;
  context.evaluate = thread_pool_evaluator(file.scene, file.data.observables, 1);
  context.jobs = 1;
  const std::clock_t start = std::clock();
  FitReport report = fit_method(file.method).run(file, context);
  cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  return report;
}

TEST(AdjointFit, FlagellatedRobotMediumFitGivesTheFiniteDifferenceEstimate) {
  double fd_seconds = 0.0, adjoint_seconds = 0.0;
  const FitReport fd = fit_example("flagellated_robot_n2_finite_difference.yaml", fd_seconds);
  const FitReport adjoint = fit_example("flagellated_robot_n2.yaml", adjoint_seconds);
  ASSERT_TRUE(fd.converged) << fd.message;
  ASSERT_TRUE(adjoint.converged) << adjoint.message;
  for (Eigen::Index j = 0; j < fd.values.size(); ++j) {
    std::printf("%s: finite differences %.7g +- %.3g, adjoint %.7g +- %.3g\n",
                fd.names[static_cast<std::size_t>(j)].c_str(), fd.values[j], fd.sigma[j],
                adjoint.values[j], adjoint.sigma[j]);
    EXPECT_LT(std::abs(adjoint.values[j] - fd.values[j]), 1e-2 * fd.sigma[j]);
    EXPECT_NEAR(adjoint.sigma[j], fd.sigma[j], 1e-2 * fd.sigma[j]);
  }
  EXPECT_NEAR(adjoint.cost, fd.cost, 1e-6 * fd.cost);
  std::printf(
      "finite differences: %d iterations, %ld runs, %.2f s CPU; adjoint: %d iterations, "
      "%ld runs (each with its gradients), %.2f s CPU\n",
      fd.iterations, fd.runs, fd_seconds, adjoint.iterations, adjoint.runs, adjoint_seconds);
}

}  // namespace
}  // namespace tendril::fit
