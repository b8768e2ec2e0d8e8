// vine3d_shooting's fit file (fit/vine3d_fit_file.hpp): tracked 3D points in a CSV whose rows come
// in any order (frames interleaved, points out of order), with a step offset and a unit factor,
// are read into frames in step order, each with its joint points base to tip in metres, exactly
// the numbers written; the scene's K and C are the parameters' initial values.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/scratch_dir.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/vine3d_fit_file.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = testing::scratch_dir("vine3d_fit_file") / name;
  std::ofstream(p) << text;
  return p;
}

TEST(Vine3dFitFile, ReadsTrackedPointsInAnyRowOrderIntoFramesBaseToTip) {
  write("vine.yaml",
        "vine3d:\n  bodies: 2\n  half_length: 0.01\n  tube_diameter: 0.01\n  mass: 0.001\n"
        "  dt: 0.01\n  steps: 10\n  stiffness: [0.02]\n  damping: [2.0e-4]\n");
  // steps 1-based (offset 1): frames at steps 4 and 0, rows interleaved, points out of order, mm
  write("points.csv",
        "# mocap export\nz,frame,marker,x,y\n"
        "3,5,2,1,2\n0,1,0,0,0\n6,5,1,4,5\n0,1,2,40,0\n9,5,0,7,8\n0,1,1,20,0\n");
  const FitFile f = read_fit_file(
      write("fit.yaml",
            "scene: vine.yaml\nmethod: vine3d_shooting\nparameters:\n"
            "  - {key: vine3d.damping, initial: 6.0e-4}\n"
            "  - {key: vine3d.stiffness, initial: 0.04}\n"
            "data:\n  csv: points.csv\n  frames: {step: frame, step_offset: 1, point: marker, "
            "x: x, y: y, z: z, factor: 1.0e-3}\n"));
  ASSERT_EQ(f.tracked_points.size(), 2u);
  EXPECT_EQ(f.tracked_points[0].step, 0);
  EXPECT_EQ(f.tracked_points[1].step, 4);
  MatX first(3, 3), second(3, 3);
  first << 0, 0, 0, 0.02, 0, 0, 0.04, 0, 0;
  second << 0.007, 0.008, 0.009, 0.004, 0.005, 0.006, 0.001, 0.002, 0.003;
  EXPECT_EQ(f.tracked_points[0].points, first);
  EXPECT_TRUE(f.tracked_points[1].points.isApprox(second, 1e-15));
  const vine3d::Vine3dScene scene = vine3d_scene_at_initial_values(f, f.data.experiments.front());
  EXPECT_EQ(scene.model.stiffness, std::vector<double>{0.04});
  EXPECT_EQ(scene.model.damping, std::vector<double>{6.0e-4});
}

}  // namespace
}  // namespace tendril::fit
