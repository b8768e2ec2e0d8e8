// Issue 24: a damaged run folder read by `tendril export` (and plot, render and view, which read it
// the same way: io::read_run) is refused naming the file and what is wrong (exit 2), never an
// "internal error": a negative .npy dimension, a run.json without its scene, a "nan" string. A plot
// that fails for another reason than a missing tool does not blame the tools.
#include <gtest/gtest.h>

#include "support/cli_process.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;

class DamagedRuns : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    const CliResult r = run_cli({"run", "rod.yaml", "--out", "run"}, dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  /// Replaces the first `from` in run/`file` by `to`.
  void damage(const std::string& file, const std::string& from, const std::string& to) const {
    std::string text = slurp(dir_ / "run" / file);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in " << file;
    text.replace(at, from.size(), to);
    write_text(dir_ / "run" / file, text);
  }
  /// `tendril export` of the damaged run: exit 2 with each of `parts` in the message, no internal
  /// error.
  void expect_refused(const std::vector<std::string>& parts) const {
    const CliResult r = run_cli({"export", "run", "--vtk", "vtk"}, dir_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    for (const std::string& part : parts)
      EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
  }
};

TEST_F(DamagedRuns, NegativeNpyDimensionIsNamed) {
  // 11 frames of 5 nodes: "(11, 5, 3)" becomes "(-1, 5, 3)", the header keeps its length
  damage("positions.npy", "(11,", "(-1,");
  expect_refused({"positions.npy", "shape dimension '-1'", "a whole number >= 0"});
}

TEST_F(DamagedRuns, NpyDimensionPastTheFileSizeIsNamed) {
  damage("positions.npy", "(11,", "(99999999999,");
  expect_refused({"positions.npy", "the size of the file"});
}

TEST_F(DamagedRuns, RunJsonWithoutSceneIsNamed) {
  damage("run.json", "\"scene\":", "\"scenery\":");
  expect_refused({"run.json: scene", "(missing)"});
}

TEST_F(DamagedRuns, NanStringInRunJsonIsNamed) {
  damage("run.json", "\"radius\": 0.001", "\"radius\": \"nan\"");
  expect_refused({"run.json: scene.rods[0].material.radius", "nan", "a finite radius"});
}

TEST_F(DamagedRuns, NanStringAsAnArrayShapeIsNamed) {
  damage("run.json", "\"shape\": [11", "\"shape\": [\"nan\"");
  expect_refused({"run.json", "whole-number shapes"});
}

TEST_F(DamagedRuns, PlotFailureNotCausedByToolsDoesNotBlameThem) {
  // plot_run.py cannot make its folder where a file is: the tools are there, the message says so
  write_text(dir_ / "in_the_way", "a file");
  const CliResult r = run_cli({"plot", "run", "--out", "in_the_way"}, dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("plot_run.py"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("failed (exit 1): its message is above"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("apt-get install"), std::string::npos)
      << r.err;  // it once said "it needs numpy and matplotlib"
}

TEST_F(DamagedRuns, PlotNamesThePythonOptionsInterpreterWhenItCannotStart) {
  // `--python` picks the interpreter (no environment switch); one that is not there is named
  const std::string missing = (dir_ / "no_such_dir" / "python3").string();
  const CliResult r = run_cli({"plot", "run", "--python", missing}, dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("plot_run.py (" + missing + ") could not run (exit 127)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("or name another --python"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "run" / "plots"));
}

}  // namespace
}  // namespace tendril::robustness
