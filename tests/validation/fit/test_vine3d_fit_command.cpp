// `tendril fit FIT.yaml` with method vine3d_shooting (a 3D vine's uniform K and C from tracked 3D
// joint points, docs/physics/fitting.md "Method `vine3d_shooting`"), run as a real child process of
// the built command:
// - Recovery: the shipped example examples/fit/vine3d_swinging.yaml, whose points
//   (vine3d/tracked_points.csv) vine3d/track_points.py sampled from a run with K = 0.02 N m/rad,
//   C = 2e-4 N m s/rad and 0.2 mm of Gaussian noise per coordinate. From guesses two and three
//   times off the command must exit 0 with K and C within three of the standard deviations it
//   reports of the values that made the data, the noise it infers from the residuals within 15 %
//   of the 0.2 mm drawn (234 residuals: its relative spread is 1 / sqrt(2 x 232) = 4.6 %), every
//   tracked point in residuals.csv, and the fit folder's trajectory/ (the fitted run: its joint
//   points those residuals.csv simulated) and measured/ (the CSV's points) as vine3d run folders.
// - Bad fit files exit 2 naming the key and the value, with nothing written: an unknown key, a
//   column the CSV does not have, the z column missing, a point the scene's bodies do not have, a
//   point missing from a frame or given twice, a non-finite coordinate, a planar key, one
//   parameter only, an option of another method, data.track, a planar scene, the inflated-beam
//   law.
// - SIGTERM after the first iteration stops the fit at its next trial: exit 143, DIR.failed with
//   status interrupted and the history so far, no DIR.
// Everything is written into the test's scratch folder.
#include <gtest/gtest.h>

#include <signal.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "support/cli_process.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "tendril/io/npy.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using robustness::run_cli;
using robustness::slurp;
using robustness::write_text;

constexpr double kStiffness = 0.02, kDamping = 2e-4, kNoise = 2e-4;  // the data's truth
constexpr int kFrames = 13, kPoints = 6;
/// The shipped fit file's data.frames.
constexpr const char* kFramesKeys =
    "{step: step, point: point, x: x_mm, y: y_mm, z: z_mm, factor: 1.0e-3}";

/// The columns `first` .. `first` + 2 of residuals.csv's rows (after its header), per row.
std::vector<double> residual_columns(const std::string& csv, int first) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  std::vector<double> out;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string cell;
    for (int c = 0; std::getline(cells, cell, ','); ++c)
      if (c >= first && c < first + 3) out.push_back(std::stod(cell));
  }
  return out;
}

TEST(Vine3dFitCommand, RecoversKAndCOfTheShippedTrackWithinTheReportedSigma) {
  const fs::path dir = testing::scratch_dir("fit_vine3d") / "recovery";
  fs::create_directories(dir);
  const robustness::CliResult r =
      run_cli({"fit", (testing::source_tree() / "examples/fit/vine3d_swinging.yaml").string(),
               "--out", "fit", "--no-plot"},
              dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path out = dir / "fit";
  const std::string json = slurp(out / "fit.json");
  std::printf("%s\nthe command: %.2f s wall, %.2f s CPU\n", json.c_str(), r.wall_seconds,
              r.cpu_seconds);
  const YAML::Node fit = YAML::Load(json);  // JSON is YAML
  EXPECT_TRUE(fit["converged"].as<bool>());
  const YAML::Node k = fit["parameters"][0], c = fit["parameters"][1];
  EXPECT_EQ(k["key"].as<std::string>(), "vine3d.stiffness");
  EXPECT_EQ(c["key"].as<std::string>(), "vine3d.damping");
  const double sigma_k = k["sigma"].as<double>(), sigma_c = c["sigma"].as<double>();
  EXPECT_GT(sigma_k, 0.0);
  EXPECT_GT(sigma_c, 0.0);
  EXPECT_LT(std::abs(k["value"].as<double>() - kStiffness), 3 * sigma_k);
  EXPECT_LT(std::abs(c["value"].as<double>() - kDamping), 3 * sigma_c);
  EXPECT_NEAR(fit["noise_sigma"].as<double>(), kNoise, 0.15 * kNoise);
  EXPECT_NE(r.err.find("vine3d.stiffness = "), std::string::npos) << r.err;

  // residuals.csv: every tracked point, measured (the CSV in m) and simulated
  const std::string residuals = slurp(out / "residuals.csv");
  const std::vector<double> measured = residual_columns(residuals, 3),
                            simulated = residual_columns(residuals, 6);
  ASSERT_EQ(measured.size(), 3u * kFrames * kPoints);
  // measured/: the tracked points as a vine3d run folder
  const io::NpyArray measured_run = io::read_npy(out / "measured" / "centerline.npy");
  ASSERT_EQ(measured_run.shape, (std::vector<std::size_t>{kFrames, kPoints, 3}));
  for (std::size_t i = 0; i < measured.size(); ++i)
    EXPECT_EQ(measured_run.data[i], measured[i]) << i;
  EXPECT_NE(slurp(out / "measured" / "run.json").find("\"kind\": \"vine3d\""), std::string::npos);
  // trajectory/: the fitted run, saved at the tracked steps (every 10th), has the joint points the
  // fit simulated; its point 0 is the base itself where the fit takes body 0's proximal end, which
  // the linearised joints let drift by a few micrometres
  const io::NpyArray fitted = io::read_npy(out / "trajectory" / "centerline.npy");
  ASSERT_EQ(fitted.shape, (std::vector<std::size_t>{kFrames, kPoints, 3}));
  for (std::size_t i = 0; i < simulated.size(); ++i)
    EXPECT_NEAR(fitted.data[i], simulated[i], (i / 3) % kPoints == 0 ? 1e-5 : 1e-12) << i;
}

TEST(Vine3dFitCommand, SigtermStopsTheFitAtItsNextTrialKeepingTheHistory) {
  const fs::path dir = testing::scratch_dir("fit_vine3d") / "sigterm";
  fs::create_directories(dir);
  robustness::CliOptions o;
  o.while_output = [](int pid, const std::string& output) {
    if (output.find("\n   1 ") == std::string::npos) return false;  // the first iteration's line
    ::kill(pid, SIGTERM);
    return true;
  };
  const robustness::CliResult r =
      run_cli({"fit", (testing::source_tree() / "examples/fit/vine3d_swinging.yaml").string(),
               "--out", "fit", "--no-plot"},
              dir, o);
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.err;
  EXPECT_NE(r.err.find("fit interrupted by signal 15"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "fit"));
  EXPECT_NE(slurp(dir / "fit.failed" / "run.json").find("\"interrupted\""), std::string::npos);
  const std::string history = slurp(dir / "fit.failed" / "history.csv");
  EXPECT_EQ(history.rfind("iteration,accepted,", 0), 0u) << history;
  EXPECT_NE(history.find("\n1,1,"), std::string::npos) << history;  // iteration 1 kept
}

class Vine3dFitCommandInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir("fit_vine3d") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir_);
    const fs::path examples = testing::source_tree() / "examples/fit/vine3d";
    fs::copy_file(examples / "swinging_vine3d.yaml", dir_ / "swing.yaml");
    csv_ = slurp(examples / "tracked_points.csv");
  }

  /// Expects the fit file (with `parameters`, `frames` and `more` lines, the CSV `csv`, the scene
  /// `scene`) refused with exit 2 and every fragment in the message, nothing written.
  void expect_refused(std::initializer_list<std::string> fragments,
                      const std::string& frames =
                          "{step: step, point: point, x: x_mm, y: y_mm, "
                          "z: z_mm, factor: 1.0e-3}",
                      const std::string& more = "", const std::string& csv = "",
                      const std::string& parameters =
                          "  - {key: vine3d.stiffness, initial: 0.04}\n"
                          "  - {key: vine3d.damping, initial: 6.0e-4}\n",
                      const std::string& scene = "swing.yaml") {
    write_text(dir_ / "points.csv", csv.empty() ? csv_ : csv);
    write_text(dir_ / "fit.yaml", "scene: " + scene + "\nmethod: vine3d_shooting\nparameters:\n" +
                                      parameters + "data:\n  csv: points.csv\n  frames: " + frames +
                                      "\n" + more);
    const robustness::CliResult r = run_cli({"fit", "fit.yaml", "--out", "bad", "--no-plot"}, dir_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const std::string& f : fragments)
      EXPECT_NE(r.err.find(f), std::string::npos) << r.err << "\n  lacks: " << f;
    EXPECT_FALSE(fs::exists(dir_ / "bad"));
    EXPECT_FALSE(fs::exists(dir_ / "bad.failed"));
  }

  /// The shipped CSV with its line `line` (1: the header) replaced by `text`.
  std::string csv_with_line(int line, const std::string& text) const {
    std::istringstream in(csv_);
    std::string out, l;
    for (int n = 1; std::getline(in, l); ++n) out += (n == line ? text : l) + "\n";
    return out;
  }

  fs::path dir_;
  std::string csv_;
};

TEST_F(Vine3dFitCommandInput, BadFramesAreRefusedNamingTheKeyAndTheValue) {
  // an unknown key, a column the CSV does not have, the z column not named
  expect_refused({"unknown key 'zz' in data.frames", "did you mean 'z'"},
                 "{step: step, point: point, x: x_mm, y: y_mm, zz: z_mm}");
  expect_refused({"data.frames.z", "z_cm", "z_mm"},
                 "{step: step, point: point, x: x_mm, y: y_mm, z: z_cm}");
  expect_refused({"data.frames.z"}, "{step: step, point: point, x: x_mm, y: y_mm}");
  // line 2 is step 0's point 0: a point the five bodies do not have, a point given twice (which
  // leaves point 0 missing), a coordinate that is not finite
  expect_refused({"data.frames.point", "line 2", "7", "0 (the base) to 5 (the tip)"}, kFramesKeys,
                 "", csv_with_line(2, "0,7,0,0,0"));
  expect_refused({"data.frames.point", "line 3", "each point once", "point 1 already"}, kFramesKeys,
                 "", csv_with_line(2, "0,1,0,0,0"));
  expect_refused({"data.frames.point", "no point 5 in step 120", "every joint point 0 .. 5"},
                 kFramesKeys, "", csv_with_line(79, "# the tip's last row dropped"));
  expect_refused({"column y_mm", "line 2", "nan", "a finite real number"}, kFramesKeys, "",
                 csv_with_line(2, "0,0,0.4,nan,0.1"));
  expect_refused({"data.frames.point", "line 2", "1.5"}, kFramesKeys, "",
                 csv_with_line(2, "0,1.5,0,0,0"));
}

TEST_F(Vine3dFitCommandInput, BadParametersOptionsAndScenesAreRefused) {
  const std::string frames =
      "{step: step, point: point, x: x_mm, y: y_mm, z: z_mm, factor: 1.0e-3}";
  expect_refused({"parameters[0].key", "vine.stiffness", "vine3d.stiffness or vine3d.damping"},
                 frames, "", "",
                 "  - {key: vine.stiffness, initial: 0.04}\n"
                 "  - {key: vine3d.damping, initial: 6.0e-4}\n");
  expect_refused({"parameters", "1 entry(ies)", "vine3d.stiffness and vine3d.damping"}, frames, "",
                 "", "  - {key: vine3d.stiffness, initial: 0.04}\n");
  expect_refused({"parameters[1].initial", "an initial guess > 0"}, frames, "", "",
                 "  - {key: vine3d.stiffness, initial: 0.04}\n"
                 "  - {key: vine3d.damping, initial: 0}\n");
  expect_refused({"options.difference_step", "finite_difference_lm"}, frames,
                 "options: {difference_step: 1.0e-3}\n");
  expect_refused({"data.track", "vine3d_shooting"}, frames,
                 "  track: {points: points.csv, frame_rate: 30, scale: 1.0}\n");
  // a planar vine scene, and the inflated-beam law (its K is not the fitted one)
  write_text(dir_ / "planar.yaml",
             "vine:\n  bodies: 5\n  stiffness: [0.02]\n  damping: [2.0e-4]\n");
  expect_refused({"planar.yaml", "vine3d"}, frames, "", "",
                 "  - {key: vine3d.stiffness, initial: 0.04}\n"
                 "  - {key: vine3d.damping, initial: 6.0e-4}\n",
                 "planar.yaml");
  std::string inflated = slurp(dir_ / "swing.yaml");
  inflated.erase(inflated.find("  stiffness:"),
                 inflated.find("  damping:") - inflated.find("  stiffness:"));
  inflated.replace(inflated.find("implicit"), 8, "explicit");  // the law's springs
  write_text(dir_ / "inflated.yaml",
             inflated +
                 "  bending_law: inflated_beam\n  inflated_beam: {pressure: 1000, "
                 "wrinkling_strain: 0.01}\n");
  expect_refused({"vine3d.bending_law", "inflated_beam", "linear"}, frames, "", "",
                 "  - {key: vine3d.stiffness, initial: 0.04}\n"
                 "  - {key: vine3d.damping, initial: 6.0e-4}\n",
                 "inflated.yaml");
}

}  // namespace
}  // namespace tendril::fit
