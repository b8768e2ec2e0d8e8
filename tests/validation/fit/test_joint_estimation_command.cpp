// `tendril fit FIT.yaml` with method joint_estimation (the vine paper's joint state and parameter
// estimation, eq. 16 of papers/vine_robot_simulator.txt section III, solved by IPOPT), run as a
// real child process of the built command:
// - Recovery: the six-body swinging vine of the library's recovery test
// (support/swinging_vine.hpp's
//   parameters, as a scene file) simulated with known K = 0.05 N m/rad, C = 5e-4 N m s/rad; its
//   centre line (11 points every 3 steps over 30 steps) with 1 mm Gaussian noise is the measured
//   CSV (in mm). From K = 0.03, C = 1e-3 with the step-map formulation the command must exit 0 with
//   IPOPT's Solve_Succeeded in fit.json, K and C within four of the standard deviations it reports,
//   one history row per IPOPT iteration (and the start), every measured point in residuals.csv, and
//   the fit directory complete. With per_joint the per-joint values and sigmas are in fit.json
//   (IPOPT's outcome not asserted: it does not converge).
// - Bad fit files for this method exit 2 naming the key and the value: an unknown option, a
//   non-numeric and a negative sigma, per_joint not a bool, a known contact naming an obstacle the
//   scene does not have.
// - The wall growth (examples/fit/vine_wall_growth_joint_estimation.yaml on ../shared's measured
// data;
//   skipped without it; the default options, the configuration that converges there,
//   docs/physics/fitting.md): exit 0 with DIR complete, IPOPT's Solve_Succeeded in its fit.json,
//   and K and C flagged not identifiable (sigma above the value) in fit.json and the summary. About
//   20-40 s (the trust-region pass).
// - SIGTERM stops a joint estimation on the wall growth after the iteration under way, in the
//   trust-region pass and in IPOPT: exit 143, DIR.failed with status interrupted and the history of
//   the lines printed.
// Everything is written into the test's scratch folder.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include <fmt/format.h>

#include "support/cli_process.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "support/swinging_vine.hpp"
#include "support/wall_growth.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using robustness::run_cli;
using robustness::slurp;
using robustness::write_text;

/// The swinging vine (support/swinging_vine.hpp: six bodies, released 0.3 rad off the rest heading
/// 1.2 rad while growing at 20 mm/s) as a scene with the true K and C; `extra` is appended under
/// vine:.
std::string swinging_scene(const std::string& extra = "") {
  return fmt::format(
      "vine:\n  bodies: 6\n  half_length: 0.02\n  mass: 0.001\n  inertia: 2.0e-4\n  stiffness: "
      "[{}]\n  damping: [{}]\n"
      "  heading: 1.5\n  rest_angles: [1.2, 0, 0]\n  dt: 0.011111111111111112\n  steps: 30\n  "
      "growth: {{rate: 0.02}}\n"
      "  initial_state: {{extension: 0.002}}\n{}",
      testing::kSwingStiffness, testing::kSwingDamping, extra);
}

/// The number after `"key": ` at its `occurrence`-th appearance in `json` (NaN if absent).
double json_number(const std::string& json, const std::string& key, int occurrence = 0) {
  std::size_t at = 0;
  for (int i = 0; i <= occurrence; ++i) {
    at = json.find("\"" + key + "\": ", i == 0 ? 0 : at + 1);
    if (at == std::string::npos) return std::nan("");
  }
  return std::strtod(json.c_str() + at + key.size() + 4, nullptr);
}

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

class JointEstimationCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir("fit_joint") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir_);
    write_text(dir_ / "swing.yaml", swinging_scene());
    // the measured frames: the scene simulated with the true K, C, plus 1 mm noise, in mm
    const vine::VineScene scene = vine::load_vine_scene_file(dir_ / "swing.yaml");
    std::vector<MeasuredFrame> frames;
    for (int step = 0; step <= 30; step += 3) frames.push_back({step, MatX::Zero(11, 2)});
    const ShootingResiduals truth =
        shooting_residuals(scene.model, scene.initial, frames, Observation::points,
                           testing::kSwingStiffness, testing::kSwingDamping, false);
    ASSERT_TRUE(truth.ok) << truth.message;
    std::mt19937 rng(11);
    std::normal_distribution<double> gauss(0.0, 1e-3);
    std::string csv = "step,x_mm,y_mm\n";
    for (std::size_t f = 0; f < frames.size(); ++f)
      for (Eigen::Index p = 0; p < truth.simulated[f].rows(); ++p)
        csv += fmt::format("{},{:.9g},{:.9g}\n", frames[f].step,
                           1e3 * (truth.simulated[f](p, 0) + gauss(rng)),
                           1e3 * (truth.simulated[f](p, 1) + gauss(rng)));
    write_text(dir_ / "frames.csv", csv);
  }

  /// A fit file for `scene` with `options` (YAML lines under options:, each indented by 2) and
  /// `more` parameter entries after K and C.
  fs::path fit_file(const std::string& options, const std::string& scene = "swing.yaml",
                    const std::string& more = "") {
    write_text(
        dir_ / "fit.yaml",
        "scene: " + scene +
            "\nmethod: joint_estimation\nparameters:\n"
            "  - {key: vine.stiffness, initial: 0.03}\n"
            "  - {key: vine.damping, initial: 1.0e-3}\n" +
            more +
            "data:\n  csv: frames.csv\n  frames: {step: step, x: x_mm, y: y_mm, factor: 1e-3}\n"
            "options:\n" +
            options);
    return dir_ / "fit.yaml";
  }

  /// Expects `options` to be refused with exit 2 and every fragment in the message, nothing
  /// written.
  void expect_refused(const std::string& options, std::initializer_list<std::string> fragments,
                      const std::string& scene = "swing.yaml") {
    const robustness::CliResult r =
        run_cli({"fit", fit_file(options, scene).string(), "--out", "bad"}, dir_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const std::string& f : fragments)
      EXPECT_NE(r.err.find(f), std::string::npos) << r.err << "\n  lacks: " << f;
    EXPECT_FALSE(fs::exists(dir_ / "bad"));
    EXPECT_FALSE(fs::exists(dir_ / "bad.failed"));
  }

  fs::path dir_;
};

TEST_F(JointEstimationCommand, RecoversKnownStiffnessAndDampingWithinTheReportedUncertainty) {
  const robustness::CliResult r =
      run_cli({"fit", fit_file("  measurement_sigma: 1.0e-3\n  formulation: step_map\n").string(),
               "--out", "fit", "--no-plot"},
              dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = slurp(dir_ / "fit" / "fit.json");
  std::printf("%s\nthe command: %.2f s wall, %.2f s CPU\n", json.c_str(), r.wall_seconds,
              r.cpu_seconds);
  EXPECT_NE(json.find("\"ipopt_status\": \"Solve_Succeeded\""), std::string::npos);
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos);
  const double k = json_number(json, "value", 0), c = json_number(json, "value", 1);
  const double sigma_k = json_number(json, "sigma", 0), sigma_c = json_number(json, "sigma", 1);
  EXPECT_GT(sigma_k, 0.0);
  EXPECT_GT(sigma_c, 0.0);
  EXPECT_LT(std::abs(k - testing::kSwingStiffness), 4 * sigma_k);
  EXPECT_LT(std::abs(c - testing::kSwingDamping), 4 * sigma_c);
  EXPECT_LT(json_number(json, "constraint_violation"), 1e-8);
  // one history row per IPOPT iteration and one for its start; every measured point in
  // residuals.csv
  const int iterations = static_cast<int>(json_number(json, "ipopt_iterations"));
  EXPECT_GT(iterations, 0);
  EXPECT_EQ(lines(slurp(dir_ / "fit" / "history.csv")), 1 + iterations + 1);
  EXPECT_EQ(lines(slurp(dir_ / "fit" / "residuals.csv")), 1 + 11 * 11);
  EXPECT_NE(slurp(dir_ / "fit" / "run.json").find("\"kind\": \"fit\""), std::string::npos);
  // the progress: one line per IPOPT iteration, its start included
  EXPECT_NE(r.err.find(fmt::format("\n{:4d}  ", iterations)), std::string::npos) << r.err;
}

// The growth rate and the base heading after K and C (defaults: transcribed, the pass, IPOPT), from
// 25 % and 0.05 rad off: fit.json lists them after K and C, each within four of its sigmas of the
// scene's truth (0.02 m/s, 1.2 rad), and identified.
TEST_F(JointEstimationCommand, FitsTheGrowthRateAndTheHeadingWithKAndC) {
  const robustness::CliResult r =
      run_cli({"fit",
               fit_file("  measurement_sigma: 1.0e-3\n", "swing.yaml",
                        "  - {key: vine.growth.rate, initial: 0.025}\n"
                        "  - {key: \"vine.rest_angles[0]\", initial: 1.25}\n")
                   .string(),
               "--out", "fit", "--no-plot"},
              dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = slurp(dir_ / "fit" / "fit.json");
  std::printf("%s\n", json.c_str());
  EXPECT_NE(json.find("\"key\": \"vine.growth.rate\""), std::string::npos);
  EXPECT_NE(json.find("\"key\": \"vine.rest_angles[0]\""), std::string::npos);
  const double truth[2] = {0.02, 1.2};
  for (int e = 0; e < 2; ++e) {
    const double value = json_number(json, "value", 2 + e),
                 sigma = json_number(json, "sigma", 2 + e);
    EXPECT_LT(std::abs(value - truth[e]), 4 * sigma) << e;
    EXPECT_LT(sigma, 0.1 * value) << e;
  }
}

// per_joint: K_j, C_j of the three pin joints, reported per joint in fit.json's parameters
// (vine.stiffness[j], vine.damping[j]) and lists. IPOPT does not reach its tolerance here today
// (the objective settles, inf_du does not: Restoration_Failed after 115 iterations,
// docs/physics/fitting.md), so the outcome is not asserted, only its form: exit 0 with DIR or 1
// with DIR.failed, and the per-joint fields with finite sigmas.
TEST_F(JointEstimationCommand, PerJointValuesAndSigmasInFitJson) {
  const robustness::CliResult r =
      run_cli({"fit", fit_file("  per_joint: true\n  formulation: step_map\n").string(), "--out",
               "fit", "--no-plot"},
              dir_);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  const std::string json = slurp(dir_ / (r.exit_code == 0 ? "fit" : "fit.failed") / "fit.json");
  std::printf("%s\nthe command: exit %d, %.2f s wall, %.2f s CPU\n", json.c_str(), r.exit_code,
              r.wall_seconds, r.cpu_seconds);
  EXPECT_NE(json.find("\"per_joint\": true"), std::string::npos);
  EXPECT_NE(json.find("\"ipopt_status\": \""), std::string::npos);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NE(json.find(fmt::format("\"key\": \"vine.stiffness[{}]\"", j)), std::string::npos) << j;
    EXPECT_NE(json.find(fmt::format("\"key\": \"vine.damping[{}]\"", j)), std::string::npos) << j;
    EXPECT_GT(json_number(json, "sigma", j), 0.0) << j;  // a number: "undetermined" parses as NaN
    EXPECT_GT(json_number(json, "sigma", 3 + j), 0.0) << j;
  }
  EXPECT_EQ(json.find("\"key\": \"vine.stiffness[3]\""), std::string::npos);
  // the lists: three values each
  const std::size_t list = json.find("\"stiffness\": [");
  ASSERT_NE(list, std::string::npos);
  EXPECT_EQ(std::count(json.begin() + static_cast<long>(list),
                       json.begin() + static_cast<long>(json.find(']', list)), ','),
            2);
}

TEST_F(JointEstimationCommand, RefusesBadOptionsNamingKeyAndValue) {
  expect_refused("  measurment_sigma: 1.0e-3\n", {"options.measurment_sigma", "measurement_sigma"});
  expect_refused("  measurement_sigma: one\n",
                 {"options.measurement_sigma", "got one", "a finite real > 0"});
  expect_refused("  model_sigma_angle: -1.0e-4\n",
                 {"options.model_sigma_angle", "got -1.0e-4", "a finite real > 0"});
  expect_refused("  per_joint: maybe\n", {"options.per_joint", "got maybe", "true or false"});
  expect_refused("  difference_step: 1.0e-3\n",
                 {"options.difference_step", "finite_difference_lm", "joint_estimation"});
  write_text(dir_ / "swing_wall.yaml",
             swinging_scene("  contact: {model: point}\n  obstacles:\n    - {type: half_plane, "
                            "point: [0, -1], normal: [0, 1]}\n"));
  expect_refused("  known_contacts:\n    - {point: tip, obstacle: 1}\n",
                 {"options.known_contacts[0].obstacle", "got 1", "an obstacle index 0 .. 0"},
                 "swing_wall.yaml");
  expect_refused(
      "  known_contacts:\n    - {point: 7, obstacle: 0}\n",
      {"options.known_contacts[0].point", "got 7", "tip, or a contact point index 0 .. 2"},
      "swing_wall.yaml");
}

// The measured wall growth with the default options (see the top).
TEST(JointEstimationCommandOnTheWallGrowth, ConvergesAndWritesACompleteDirectory) {
  if (testing::wall_growth_data_dir().empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const fs::path source = testing::source_tree();
  const fs::path dir = testing::scratch_dir("fit_joint_wall");
  const robustness::CliResult r = run_cli(
      {"fit", (fs::path(source) / "examples/fit/vine_wall_growth_joint_estimation.yaml").string(),
       "--out", "wall", "--no-plot"},
      dir);
  std::printf("exit %d after %.1f s (CPU %.1f s)\n%s\n", r.exit_code, r.wall_seconds, r.cpu_seconds,
              r.err.substr(r.err.size() > 2000 ? r.err.size() - 2000 : 0).c_str());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path out = dir / "wall";
  EXPECT_FALSE(fs::exists(dir / "wall.failed"));
  for (const char* file : {"fit.json", "history.csv", "residuals.csv", "run.json"})
    EXPECT_TRUE(fs::exists(out / file)) << out / file;
  const std::string json = slurp(out / "fit.json");
  std::printf("%s\n", json.c_str());
  EXPECT_NE(json.find("\"ipopt_status\": \"Solve_Succeeded\""), std::string::npos) << json;
  // K and C: sigma above the value on this clip (docs/physics/fitting.md), flagged in fit.json and
  // the summary
  for (int p = 0; p < 2; ++p)
    EXPECT_GT(json_number(json, "sigma", p), json_number(json, "value", p)) << p;
  EXPECT_EQ(json.find("\"identifiable\": true"), std::string::npos) << json;
  EXPECT_EQ(std::count_if(json.begin(), json.end(),
                          [&, at = std::size_t{0}](char) mutable {
                            at = json.find("\"identifiable\": false", at);
                            return at != std::string::npos && (++at, true);
                          }),
            2);
  EXPECT_NE(r.err.find("vine.stiffness = "), std::string::npos);
  EXPECT_NE(r.err.find("(not identifiable: sigma exceeds the value)"), std::string::npos) << r.err;
}

/// Runs `tendril fit FIT_FILE --out wall` in `dir`, sends SIGTERM once `line` appears in its output
/// and returns the seconds from the signal to the command's exit.
double seconds_to_stop(const fs::path& dir, const fs::path& fit_file, const std::string& line,
                       robustness::CliResult& r) {
  std::chrono::steady_clock::time_point signalled;
  robustness::CliOptions o;
  o.while_output = [&](int pid, const std::string& output) {
    if (output.find(line) == std::string::npos) return false;
    signalled = std::chrono::steady_clock::now();
    ::kill(pid, SIGTERM);
    return true;
  };
  r = run_cli({"fit", fit_file.string(), "--out", "wall", "--no-plot"}, dir, o);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
}

/// Progress lines printed after the one at which the signal was sent (`line`), before the fit
/// reported the interruption: the iterations the fit went on for.
int lines_after_signal(const robustness::CliResult& r, const std::string& line) {
  const std::size_t at = r.err.find(line), end = r.err.find("error: fit interrupted");
  if (at == std::string::npos || end == std::string::npos || end < at) return -1;
  const std::string after = r.err.substr(at + line.size(), end - at - line.size());
  return static_cast<int>(std::count(after.begin(), after.end(), '\n')) - 1;
}

/// The interrupted fit's folder: status interrupted, and a history row for every progress line
/// printed.
void expect_kept(const fs::path& dir, const robustness::CliResult& r, bool trust_region) {
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.err;
  EXPECT_NE(r.err.find("fit interrupted by signal 15"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "wall"));
  EXPECT_NE(slurp(dir / "wall.failed" / "run.json").find("\"interrupted\""), std::string::npos);
  const std::string history = slurp(dir / "wall.failed" / "history.csv");
  ASSERT_FALSE(history.empty());
  EXPECT_EQ(history.substr(0, history.find('\n')).find("iteration,accepted,trust_region"), 0u)
      << history;
  const std::size_t printed = r.err.find("\n   0");  // the first progress line
  ASSERT_NE(printed, std::string::npos) << r.err;
  EXPECT_GE(lines(history),
            1 + lines(r.err.substr(printed, r.err.find("error: fit interrupted") - printed)) - 1);
  // a pass line (trust_region 1) or an IPOPT line (0) as the last row
  const std::string last = history.substr(history.rfind('\n', history.size() - 2) + 1);
  EXPECT_EQ(last.substr(last.find(',', last.find(',') + 1) + 1, 1), trust_region ? "1" : "0")
      << last;
}

// SIGTERM in the trust-region pass (about 200 steps, 15-25 s: the signal at its third step) and in
// IPOPT (from the simulated guess without the pass, where it runs for its 500 iterations: the
// signal at its fifth): the command ends after the iteration under way, keeping what it did (at
// most one more progress line; one iteration takes well under a second: docs/physics/fitting.md).
// The seconds are printed, not asserted: wall time on a shared machine is not the code's.
TEST(JointEstimationCommandOnTheWallGrowth, SigtermStopsThePassAndIpoptAfterTheIterationUnderWay) {
  if (testing::wall_growth_data_dir().empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const fs::path example =
      testing::source_tree() / "examples/fit/vine_wall_growth_joint_estimation.yaml";
  const fs::path pass_dir = testing::scratch_dir("fit_joint_stop_pass");
  robustness::CliResult r;
  const double in_pass = seconds_to_stop(pass_dir, example, "\n   3t ", r);
  std::printf("the pass stopped %.3f s and %d progress lines after SIGTERM\n", in_pass,
              lines_after_signal(r, "\n   3t "));
  EXPECT_LE(lines_after_signal(r, "\n   3t "), 1) << r.err;
  EXPECT_GE(lines_after_signal(r, "\n   3t "), 0) << r.err;
  expect_kept(pass_dir, r, true);
  // the example without the pass (absolute paths)
  const fs::path ipopt_dir = testing::scratch_dir("fit_joint_stop_ipopt");
  write_text(
      ipopt_dir / "no_pass.yaml",
      "scene: " + (example.parent_path().parent_path() / "vine_wall_growth.yaml").string() +
          "\nmethod: joint_estimation\nparameters:\n  - {key: vine.stiffness, initial: 0.05, "
          "lower: 0}\n"
          "  - {key: vine.damping, initial: 1.0e-5, lower: 0}\ndata:\n  csv: " +
          (testing::wall_growth_data_dir() / "wall_growth_video_points_mm.csv").string() +
          "\n  frames: {step: sim_step_1based, step_offset: 1, x: x_mm, y: y_mm, factor: 1e-3}\n"
          "options:\n  known_contacts:\n    - {point: tip, obstacle: 0}\n  "
          "trust_region_iterations: 0\n");
  const double in_ipopt = seconds_to_stop(ipopt_dir, ipopt_dir / "no_pass.yaml", "\n   5  ", r);
  std::printf("IPOPT stopped %.3f s and %d progress lines after SIGTERM\n", in_ipopt,
              lines_after_signal(r, "\n   5  "));
  EXPECT_LE(lines_after_signal(r, "\n   5  "), 1) << r.err;
  EXPECT_GE(lines_after_signal(r, "\n   5  "), 0) << r.err;
  expect_kept(ipopt_dir, r, false);
}

}  // namespace
}  // namespace tendril::fit
