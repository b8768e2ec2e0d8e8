// Fit files (fit/fit_file.hpp): a good file is read into parameters, experiments and SI measurements;
// bad ones (the fitting issue's list: an unknown key path, bounds that exclude the initial value, data
// columns that do not exist, a parameter that is not a real number) are refused naming the key, the
// value and file:line:column, as scene errors are.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_methods.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using testing::expect_input_error;

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = testing::scratch_dir("fit_file") / name;
  std::ofstream(p) << text;
  return p;
}

/// A fit file for the robot scene with `parameter` as its one parameter line and `observable` as its
/// one observable line.
fs::path fit_file(const std::string& parameter, const std::string& observable = "{column: v_mm_per_s, observable: speed, factor: 1e-3}") {
  write("robot.yaml", "duration: 0.2\nflagellated_robot: {tails: 2, motor_rpm: 100}\nintegrator: {type: implicit_euler, dt: 0.01}\n");
  write("data.csv", "# simulated, not measured\nflagellated_robot.motor_rpm,v_mm_per_s,omega_h\n100,0.2,10\n250,,24\n");
  return write("fit.yaml", "scene: robot.yaml\nsettings: [duration=0.1]\nparameters:\n  - " + parameter +
                               "\ndata:\n  csv: data.csv\n  variables: [flagellated_robot.motor_rpm]\n  observables:\n    - " +
                               observable + "\n");
}

TEST(FitFile, ReadsParametersExperimentsAndMeasurements) {
  const FitFile f = read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2, lower: 0.5, upper: 10}"));
  EXPECT_EQ(f.method, "finite_difference_lm");
  ASSERT_EQ(f.parameters.size(), 1u);
  EXPECT_EQ(f.parameters[0].key, "flagellated_robot.C1");
  EXPECT_EQ(f.parameters[0].scale, 2.0);  // default: |initial|
  ASSERT_EQ(f.data.experiments.size(), 2u);
  EXPECT_EQ(f.data.experiments[1], (RunSettings{"duration=0.1", "flagellated_robot.motor_rpm=250"}));
  EXPECT_DOUBLE_EQ(f.data.measured(0, 0), 0.2e-3);  // mm/s times the factor
  EXPECT_TRUE(std::isnan(f.data.measured(1, 0)));   // empty cell: not measured
  EXPECT_DOUBLE_EQ(f.data.sigma[0], 0.2e-3);        // default: the column's RMS
  EXPECT_EQ(f.data.observables, std::vector<std::string>{"speed"});
  EXPECT_FALSE(f.options.absolute_sigma);  // no sigma given: weights only
  EXPECT_NO_THROW(fit_method(f.method));
  const FitFile g = read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                                           "{column: v_mm_per_s, observable: speed, factor: 1e-3, sigma: 2e-5}"));
  EXPECT_EQ(g.data.sigma[0], 2e-5);
  EXPECT_TRUE(g.options.absolute_sigma);  // every observable's error given
}

TEST(FitFile, RefusesBadFilesNamingKeyValueAndPlace) {
  // an unknown key path
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C3, initial: 2}")); },
                     {"parameters[0].key", "flagellated_robot.C3", "a key path of the scene's schema", "fit.yaml:4:"});
  // bounds that exclude the initial value
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 20, lower: 0.5, upper: 10}")); },
                     {"parameters[0].initial", "got 20", "within the bounds [0.5, 10]", "fit.yaml:4:"});
  // a data column that does not exist
  expect_input_error(
      [] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}", "{column: omega_head, observable: head_rotation_rate}")); },
      {"data.observables[0].column", "omega_head", "a column of", "v_mm_per_s", "did you mean 'omega_h'", "fit.yaml:9:"});
  // a parameter that is not a real number: its value, and a key that is not real-valued
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: two}")); },
                     {"parameters[0].initial", "got two", "a finite real", "fit.yaml:4:"});
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.tails, initial: 2}")); },
                     {"parameters[0].key", "flagellated_robot.tails", "a real-valued key (this key is of type integer)"});
  // an observable the runs do not give, and a method that does not exist
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}", "{column: omega_h, observable: spin}")); },
                     {"data.observables[0].observable", "spin", "head_rotation_rate"});
  // the scene refuses a value of the fit: a negative initial C1 (the scene's own rule)
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: -1}")); },
                     {"flagellated_robot.C1", "got -1", "data.csv line 3"});
}

// The shipped fit files read (the vine one needs the measured data beside the repository).
TEST(FitFile, ExamplesRead) {
  const char* source = std::getenv("TENDRIL_SOURCE_DIR");
  ASSERT_NE(source, nullptr);
  const fs::path dir = fs::path(source) / "examples" / "fit";
  const FitFile n2 = read_fit_file(dir / "flagellated_robot_n2.yaml");
  EXPECT_EQ(n2.parameters.size(), 3u);
  EXPECT_EQ(n2.data.experiments.size(), 3u);
  EXPECT_TRUE(n2.options.absolute_sigma);
  const FitFile one = read_fit_file(dir / "flagellated_robot_one_point.yaml");
  EXPECT_EQ(one.data.measured(0, 0), 0.6e-3);
  if (fs::exists(fs::path(source) / ".." / "shared" / "data" / "vine_wall_growth")) {
    EXPECT_EQ(read_fit_file(dir / "vine_wall_growth.yaml").frames.size(), 8u);
  }
}

}  // namespace
}  // namespace tendril::fit
