// The fit plot (apps/cli/plot_fit.py, run with /usr/bin/python3 and python3-matplotlib) says which
// parameters the fit does not identify: on a fit folder written here (fit.json with one identified
// and one flagged parameter, history.csv with a rejected trial, residuals.csv) the script draws the
// PNG, and the parameter lines it puts on the convergence panel mark exactly the flagged one.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"

namespace tendril::fit {
namespace {

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(PlotFit, MarksTheParametersTheFitDoesNotIdentify) {
  const std::filesystem::path source = testing::source_tree();
  const std::filesystem::path dir = testing::scratch_dir("plot_fit");
  std::ofstream(dir / "fit.json")
      << R"({"converged": true, "parameters": [{"key": "a", "value": 2.0, "sigma": 0.1, "identifiable": true},)"
      << R"( {"key": "vine.stiffness", "value": 0.0022, "sigma": 0.0058, "identifiable": false}]})"
      << "\n";
  std::ofstream(dir / "history.csv")
      << "iteration,accepted,trust_region,restoration,objective,constraint_violation,dual_"
         "infeasibility,step,damping,runs,a,b\n"
         "0,1,0,0,10,0,,0,0.001,2,1,1\n1,0,0,0,,0,,0.5,0.001,3,1.5,1\n1,1,0,0,2,0,,0.1,0.004,5,1.1,"
         "1\n";
  std::ofstream(dir / "residuals.csv")
      << "experiment,y_measured,y_simulated,y_residual\n1,1.0,1.1,0.1\n2,2.0,1.9,-0.1\n";
  const std::filesystem::path script = std::filesystem::path(source) / "apps/cli";
  const std::string log = (dir / "log.txt").string();
  const std::string draw = "/usr/bin/python3 " + (script / "plot_fit.py").string() + " " +
                           dir.string() + " " + (dir / "fit.png").string() + " > " + log + " 2>&1";
  ASSERT_EQ(std::system(draw.c_str()), 0)
      << "python3 plot_fit.py failed (python3-matplotlib missing?): " << slurp(log);
  EXPECT_GT(std::filesystem::file_size(dir / "fit.png"), 5000u);
  const std::string lines = "cd " + script.string() +
                            " && /usr/bin/python3 -B -c \"import plot_fit; print('\\n'.join("
                            "plot_fit.parameter_lines('" +
                            dir.string() + "')))\" > " + log + " 2>&1";
  ASSERT_EQ(std::system(lines.c_str()), 0) << slurp(log);
  EXPECT_EQ(slurp(log), "a = 2 +- 0.1\nvine.stiffness = 0.0022 +- 0.0058  NOT IDENTIFIABLE\n");
}

}  // namespace
}  // namespace tendril::fit
