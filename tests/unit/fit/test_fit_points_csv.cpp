// The measured-vs-simulated table of a vine fit (fit/fit_points_csv.hpp) and its plot
// (apps/cli/plot_fit_points.py, run with /usr/bin/python3 and python3-matplotlib): the CSV holds
// every point of every frame with both coordinates, and the script turns it into a PNG (the file
// starts with the PNG signature). Writes only into the test's scratch folder.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "tendril/fit/fit_points_csv.hpp"

namespace tendril::fit {
namespace {

std::vector<MeasuredFrame> two_frames() {
  MeasuredFrame a{3, MatX(3, 2)}, b{6, MatX(3, 2)};
  a.points << 0.0, 0.0, 0.01, 0.02, 0.02, 0.04;
  b.points << 0.0, 0.0, 0.012, 0.02, 0.024, 0.04;
  return {a, b};
}

TEST(FitPointsCsv, HoldsEveryPointOfEveryFrame) {
  const auto frames = two_frames();
  std::vector<MatX> simulated = {frames[0].points.array() + 1e-3, frames[1].points.array() - 1e-3};
  const std::filesystem::path file = testing::scratch_dir("fit_points") / "points.csv";
  write_fit_points_csv(file, frames, simulated);
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "frame,step,point,measured_x,measured_y,simulated_x,simulated_y");
  std::getline(in, line);
  EXPECT_EQ(line, "0,3,0,0,0,0.001,0.001");
  int rows = 1;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 6);
  EXPECT_FALSE(std::filesystem::exists(file.string() + ".partial"));
  // the tip only: the last measured point is paired with it
  write_fit_points_csv(file, frames,
                       {frames[0].points.bottomRows(1), frames[1].points.bottomRows(1)});
  std::ifstream tip(file);
  std::getline(tip, line);
  std::getline(tip, line);
  EXPECT_EQ(line, "0,3,2,0.02,0.04,0.02,0.04");
}

TEST(FitPointsCsv, PlotScriptWritesAPng) {
  const std::filesystem::path source = testing::source_tree();
  const auto frames = two_frames();
  const std::filesystem::path dir = testing::scratch_dir("fit_points");
  write_fit_points_csv(dir / "points.csv", frames,
                       {frames[0].points, frames[1].points.array() + 2e-3});
  const std::string command =
      "/usr/bin/python3 " +
      (std::filesystem::path(source) / "apps/cli/plot_fit_points.py").string() + " " +
      (dir / "points.csv").string() + " " + (dir / "fit.png").string() + " test > " +
      (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0)
      << "python3 plot_fit_points.py failed (python3-matplotlib missing?)";
  std::ifstream png(dir / "fit.png", std::ios::binary);
  char signature[8] = {};
  png.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  EXPECT_GT(std::filesystem::file_size(dir / "fit.png"), 5000u);
}

}  // namespace
}  // namespace tendril::fit
