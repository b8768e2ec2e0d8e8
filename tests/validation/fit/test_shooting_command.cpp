// `tendril fit` with method vine_shooting on the measured wall growth (../shared/data/
// vine_wall_growth; skipped without it) with the inflated-beam law: the law's M_c and theta_w, C
// and the growth rate fitted from a fit file, through the real command (a child process). As
// docs/physics/fitting.md ("Linear K or the inflated-beam law") says, the law's moment vanishes on
// this clip: M_c and theta_w must be flagged not identifiable (sigma undetermined) in the summary,
// in fit.json and on the plot's parameter lines, while C and the growth rate are identified; the
// folder holds fit.png. About 7 s (most of it drawing the plot).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/cli_process.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "support/wall_growth.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using robustness::run_cli;
using robustness::slurp;
using robustness::write_text;

/// The "identifiable" flag fit.json gives the parameter `key` ("" if absent).
std::string identifiable_flag(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"key\": \"" + key + "\"");
  if (at == std::string::npos) return "";
  const std::size_t flag = json.find("\"identifiable\": ", at);
  if (flag == std::string::npos) return "";
  return json.substr(flag + 16, json.compare(flag + 16, 4, "true") == 0 ? 4 : 5);
}

TEST(ShootingCommandOnTheWallGrowth, TheInflatedBeamMomentIsFlaggedInTheSummaryFitJsonAndPlot) {
  const fs::path data = testing::wall_growth_data_dir();
  if (data.empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const fs::path source = testing::source_tree();
  const fs::path dir = testing::scratch_dir("fit_shooting_law");
  // the example scene with the law instead of K (the fit file sets M_c and theta_w)
  std::string scene = slurp(fs::path(source) / "examples/vine_wall_growth.yaml");
  const std::string linear = "  stiffness: [0.05]\n";
  ASSERT_NE(scene.find(linear), std::string::npos);
  scene.replace(scene.find(linear), linear.size(),
                "  bending_law: inflated_beam\n"
                "  inflated_beam: {pressure: 921.0, wrinkling_strain: 0.0178}\n");
  write_text(dir / "scene.yaml", scene);
  write_text(dir / "law.yaml",
             "scene: scene.yaml\nmethod: vine_shooting\nparameters:\n"
             "  - {key: vine.damping, initial: 1.0e-5, lower: 0}\n"
             "  - {key: vine.inflated_beam.collapse_moment, initial: 5.0e-3, lower: 0}\n"
             "  - {key: vine.inflated_beam.wrinkling_angle, initial: 0.05, lower: 0}\n"
             "  - {key: vine.growth.rate, initial: 0.04}\n"
             "data:\n  csv: " +
                 (data / "wall_growth_video_points_mm.csv").string() +
                 "\n  frames: {step: sim_step_1based, step_offset: 1, x: x_mm, y: y_mm, factor: "
                 "1e-3}\n");
  const robustness::CliResult r = run_cli({"fit", "law.yaml", "--out", "law"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path out = dir / "law";
  const std::string json = slurp(out / "fit.json");
  for (const char* key :
       {"vine.inflated_beam.collapse_moment", "vine.inflated_beam.wrinkling_angle"}) {
    EXPECT_EQ(identifiable_flag(json, key), "false") << key << "\n" << json;
    EXPECT_NE(r.err.find(std::string(key) + " = "), std::string::npos) << r.err;
  }
  EXPECT_EQ(identifiable_flag(json, "vine.damping"), "true") << json;
  EXPECT_EQ(identifiable_flag(json, "vine.growth.rate"), "true") << json;
  EXPECT_NE(r.err.find("(undetermined)  (not identifiable: the problem is rank-deficient in it)"),
            std::string::npos)
      << r.err;
  // the plot: fit.png drawn, and its parameter lines mark exactly the law's two
  EXPECT_GT(fs::file_size(out / "fit.png"), 5000u);
  const fs::path log = dir / "lines.txt";
  const std::string lines = "cd " + (fs::path(source) / "apps/cli").string() +
                            " && /usr/bin/python3 -B -c \"import plot_fit; print('\\n'.join("
                            "plot_fit.parameter_lines('" +
                            out.string() + "')))\" > " + log.string() + " 2>&1";
  ASSERT_EQ(std::system(lines.c_str()), 0) << slurp(log);
  const std::string text = slurp(log);
  std::printf("%s%s", r.err.substr(r.err.rfind("vine.damping = ")).c_str(), text.c_str());
  int marked = 0;
  for (std::size_t at = text.find("NOT IDENTIFIABLE"); at != std::string::npos;
       at = text.find("NOT IDENTIFIABLE", at + 1))
    ++marked;
  EXPECT_EQ(marked, 2) << text;
  EXPECT_NE(text.find("vine.inflated_beam.collapse_moment = "), std::string::npos) << text;
}

}  // namespace
}  // namespace tendril::fit
