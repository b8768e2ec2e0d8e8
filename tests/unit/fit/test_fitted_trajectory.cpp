// The fitted trajectory for every fitted vine parameter (fit/fitted_trajectory.hpp): a fit file
// over the synthetic tracked video (examples/fit/track) fitting K, C, the growth rate and the base
// heading; one with the inflated-beam law's M_c and theta_w, C and the contact radius; one with a
// growth schedule's second row. For each, values as a fit would report them (and an estimated
// start) go through write_fitted_trajectory, and the run folder's centre-line at every step must be
// that of an independent simulation: the fit file's scene with the values set on its model by
// set_vine_parameter (the fits' own path) from the reported start. A parameter the scene override
// does not set would leave the run at its initial value, and the centre-lines would differ. The
// first fit file also sets vine.steps itself, which the trajectory's own vine.steps replaces.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "tendril/fit/fitted_trajectory.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;

/// Reads the fit file `text` (in a scratch folder `tag`), writes the trajectory of `values` from
/// the start moved by `start_shift` [rad] on the base pin, and compares it with the simulation of
/// the fit's model with those values.
void expect_trajectory_of(const std::string& tag, const std::string& text, const VecX& values) {
  const fs::path dir = testing::scratch_dir(tag);
  std::ofstream(dir / "fit.yaml") << text;
  const FitFile file = read_fit_file(dir / "fit.yaml");
  vine::VineScene scene = vine_scene_at_initial_values(file, file.data.experiments.front());
  FitReport report;
  report.values = values;
  // an estimated start: the base pin turned by 0.01 rad (the chain rigidly about the base)
  report.start = scene.initial.q;
  for (int i = 0; i < scene.model.num_bodies; ++i) {
    const Vec2 x = report.start.segment<2>(3 * i) - scene.model.base;
    const double c = std::cos(0.01), s = std::sin(0.01);
    report.start.segment<2>(3 * i) =
        scene.model.base + Vec2(c * x.x() - s * x.y(), s * x.x() + c * x.y());
    report.start(3 * i + 2) += 0.01;
  }
  ASSERT_EQ(unwritable_trajectory_key(file), "");
  const io::RunResult run = write_fitted_trajectory(file, report, dir / "trajectory");
  ASSERT_TRUE(run.ok) << run.message;
  const io::RunData data = io::read_run(dir / "trajectory");
  const io::NpyArray& line = data.array("centerline");

  for (std::size_t k = 0; k < file.vine_parameters.size(); ++k)
    set_vine_parameter(scene.model, file.vine_parameters[k], values[static_cast<Eigen::Index>(k)]);
  vine::VineStepper stepper(scene.model);
  vine::VineState s = scene.initial;
  s.q = report.start;
  s.v.setZero();
  const std::size_t points = line.shape[1];
  ASSERT_EQ(line.shape[0], static_cast<std::size_t>(file.frames.back().step) + 1);
  for (std::size_t step = 0; step < line.shape[0]; ++step) {
    if (step > 0) {
      ASSERT_TRUE(stepper.step(s).ok());
    }
    const std::vector<Vec2> expected = vine::centerline_points(scene.model, s.q);
    ASSERT_EQ(expected.size(), points);
    for (std::size_t p = 0; p < points; ++p)
      for (int c = 0; c < 2; ++c)
        EXPECT_NEAR(line.data[(step * points + p) * 2 + c], expected[p][c], 1e-12)
            << tag << ": step " << step << ", point " << p;
  }
}

/// A fit file over the shipped synthetic track with `settings` and `parameters` (YAML lines).
std::string fit_file_text(const std::string& settings, const std::string& parameters,
                          const std::string& method = "vine_shooting",
                          const std::string& options = "") {
  const fs::path track = testing::source_tree() / "examples/fit/track";
  return fmt::format(
      "scene: {0}/swinging_vine.yaml\nmethod: {3}\nsettings: {1}\nparameters:\n{2}"
      "data:\n  track: {{points: {0}/video_track.csv, frame_rate: 30, scale: 5.0e-4, "
      "flip_y: true, origin: [400, 560], walls: {0}/walls.csv, wall_half_thickness: 0.002}}\n{4}",
      track.string(), settings, parameters, method, options);
}

TEST(FittedTrajectory, SetsTheGrowthRateAndTheHeadingWithKAndC) {
  expect_trajectory_of("trajectory_growth_heading",
                       fit_file_text("[vine.steps=30]",
                                     "  - {key: vine.stiffness, initial: 0.02, lower: 0}\n"
                                     "  - {key: vine.damping, initial: 2.0e-3, lower: 0}\n"
                                     "  - {key: vine.growth.rate, initial: 0.02}\n"
                                     "  - {key: 'vine.rest_angles[0]', initial: 1.2}\n"),
                       VecX{{0.041, 6.5e-4, 0.027, 1.31}});
}

TEST(FittedTrajectory, SetsTheInflatedBeamLawAndTheContactRadius) {
  expect_trajectory_of(
      "trajectory_inflated_beam",
      fit_file_text("[vine.bending_law=inflated_beam, vine.stiffness=null, "
                    "'vine.inflated_beam={pressure: 2000, wrinkling_strain: 0.02}']",
                    "  - {key: vine.damping, initial: 2.0e-3, lower: 0}\n"
                    "  - {key: vine.inflated_beam.collapse_moment, initial: 5.0e-3, lower: 0}\n"
                    "  - {key: vine.inflated_beam.wrinkling_angle, initial: 0.05, lower: 0}\n"
                    "  - {key: vine.contact.radius, initial: 0.01, lower: 0}\n"),
      VecX{{7.0e-4, 8.3e-3, 0.071, 0.0137}});
}

TEST(FittedTrajectory, SetsARowOfTheGrowthSchedule) {
  expect_trajectory_of("trajectory_schedule",
                       fit_file_text("['vine.growth={schedule: [[0, 0.02], [0.15, 0.01]]}']",
                                     "  - {key: vine.stiffness, initial: 0.02, lower: 0}\n"
                                     "  - {key: 'vine.growth.schedule[1]', initial: 0.01}\n"),
                       VecX{{0.047, 0.031}});
}

// joint_estimation's per-joint K and C (reported K_0 .. K_2, then C_0 .. C_2), with the heading
TEST(FittedTrajectory, SetsPerJointStiffnessAndDampingOfTheJointEstimation) {
  const std::string text = fit_file_text("[vine.steps=30]",
                                         "  - {key: vine.stiffness, initial: 0.02}\n"
                                         "  - {key: vine.damping, initial: 2.0e-3}\n"
                                         "  - {key: 'vine.rest_angles[0]', initial: 1.2}\n",
                                         "joint_estimation", "options: {per_joint: true}\n");
  const fs::path dir = testing::scratch_dir("trajectory_per_joint");
  std::ofstream(dir / "fit.yaml") << text;
  const FitFile file = read_fit_file(dir / "fit.yaml");
  FitReport report;
  report.values = VecX{{0.03, 0.05, 0.07, 4e-4, 5e-4, 6e-4, 1.25}};
  const vine::VineScene fitted =
      vine::load_vine_scene_file(file.scene, fitted_vine_settings(file, report));
  EXPECT_EQ(fitted.model.stiffness, (std::vector<double>{0.03, 0.05, 0.07}));
  EXPECT_EQ(fitted.model.damping, (std::vector<double>{4e-4, 5e-4, 6e-4}));
  EXPECT_EQ(fitted.model.rest_angle[0], 1.25);
}

// a sample of a growth table read from a CSV file has no override: no trajectory
TEST(FittedTrajectory, AGrowthTableFromCsvIsTheOneParameterItCannotSet) {
  const fs::path dir = testing::scratch_dir("trajectory_growth_csv");
  std::ofstream(dir / "growth.csv") << "t,u\n0,0.02\n0.2,0.01\n";
  const std::string text =
      fit_file_text(fmt::format("['vine.growth={{table_csv: {}}}']", (dir / "growth.csv").string()),
                    "  - {key: vine.stiffness, initial: 0.02, lower: 0}\n"
                    "  - {key: 'vine.growth.schedule[1]', initial: 0.01}\n");
  std::ofstream(dir / "fit.yaml") << text;
  EXPECT_EQ(unwritable_trajectory_key(read_fit_file(dir / "fit.yaml")), "vine.growth.schedule[1]");
}

}  // namespace
}  // namespace tendril::fit
