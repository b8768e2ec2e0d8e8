// Steering of the 3D vine (docs/physics/vine3d.md#steering): rest bends in two directions scheduled
// from a table or a CSV file. In the stiff limit the vine takes the shape of its rest bends: with
// torsion held and the prismatic joints collinear and untwisted, the tip's orientation is the
// product exp(0, beta_y,0, beta_z,0) ... exp(0, beta_y,p-1, beta_z,p-1) of the schedule's final
// rest bends (the closed form), up to the bends that gravity imposes on the springs, at most sum_j
// g M_j L_j / K at joint j (M_j the mass beyond it, L_j the length beyond it). A CSV file with the
// table's rows steers the vine bit for bit as the table does.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/vine3d/vine3d_run.hpp"

namespace tendril::vine3d {
namespace {

// 10 bodies of 2 cm (5 bending joints), stiff implicit springs, gravity along -z, growing at
// 20 mm/s; the rest bends ramp to different targets per joint over 1.5 s, then hold to t = 3 s
const std::string kScene = R"yaml(vine3d:
  bodies: 10
  half_length: 0.01
  mass: 0.001
  stiffness: [50]
  damping: [0.01]
  springs: implicit
  gravity: [0, 0, -9.81]
  dt: 0.01
  steps: 300
  growth: {rate: 0.02}
)yaml";

const std::vector<std::vector<double>> kTable = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1.5, -0.1, 0.2, 0.05, 0.15, -0.2, 0.0, 0.1, -0.1, 0.3, 0.25}};

std::string table_text() {
  std::string out = "[";
  for (const auto& row : kTable) {
    out += out.size() > 1 ? ", [" : "[";
    for (std::size_t k = 0; k < row.size(); ++k) out += (k ? ", " : "") + std::to_string(row[k]);
    out += "]";
  }
  return out + "]";
}

Vine3dState run_scene(const std::vector<std::string>& overrides, const std::filesystem::path& dir) {
  std::ofstream(dir / "steered.yaml") << kScene;
  Vine3dRun run(load_vine3d_scene_file(dir / "steered.yaml", overrides));
  const io::RunResult result = io::run(run, "");
  EXPECT_TRUE(result.ok) << result.message;
  return run.state();
}

TEST(Vine3dSteering, StiffVineReachesTheClosedFormDirectionOfItsRestBends) {
  const std::filesystem::path dir = testing::scratch_dir("vine3d_steering");
  const Vine3dState s = run_scene({"vine3d.steering.table=" + table_text()}, dir);
  // closed form: the tip body's orientation is the product of the final rest bends' rotations
  Quat target = Quat::Identity();
  for (int j = 0; j < 5; ++j)
    target = target * Quat(Eigen::AngleAxisd(
                          Vec3(0.0, kTable[1][1 + 2 * j], kTable[1][2 + 2 * j]).norm(),
                          Vec3(0.0, kTable[1][1 + 2 * j], kTable[1][2 + 2 * j]).normalized()));
  const Vec3 tip_axis = s.orientation[9] * Vec3::UnitX();
  const Vec3 target_axis = target * Vec3::UnitX();
  // gravity's bound: joint j at body 2j carries the bodies 2j..9 (mass M_j) over at most their
  // length with the prismatic extensions (L_j)
  const Vec3 base(0, 0, 0);
  double bound = 0.0;
  for (int j = 0; j < 5; ++j) {
    const Vec3 joint =
        2 * j == 0 ? base : Vec3(s.position[2 * j] - 0.01 * (s.orientation[2 * j] * Vec3::UnitX()));
    double reach = 0.0;
    for (int i = 2 * j; i < 10; ++i) reach = std::max(reach, (s.position[i] - joint).norm() + 0.01);
    bound += 9.81 * 0.001 * (10 - 2 * j) * reach / 50.0;
  }
  const double angle = std::acos(std::min(1.0, tip_axis.dot(target_axis)));
  EXPECT_LE(angle, bound) << "tip axis " << tip_axis.transpose() << ", closed form "
                          << target_axis.transpose();
  // the steering moved the tip far from the straight heading (the bound is not met trivially)
  EXPECT_GT(std::acos(tip_axis.x()), 100.0 * bound);
  // the whole orientation (torsion included), not only the axis
  EXPECT_LE(s.orientation[9].angularDistance(target), 2.0 * bound);

  // the same rows from a CSV file (header, comma separated): the same run, bit for bit
  std::ofstream csv(dir / "steer.csv");
  csv << "t,b0y,b0z,b1y,b1z,b2y,b2z,b3y,b3z,b4y,b4z\n";
  for (const auto& row : kTable)
    for (std::size_t k = 0; k < row.size(); ++k)
      csv << std::to_string(row[k]) << (k + 1 < row.size() ? "," : "\n");
  csv.close();
  const Vine3dState from_csv = run_scene({"vine3d.steering.csv=steer.csv"}, dir);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(from_csv.position[i], s.position[i]) << "body " << i;
    EXPECT_EQ(from_csv.orientation[i].coeffs(), s.orientation[i].coeffs()) << "body " << i;
  }
}

}  // namespace
}  // namespace tendril::vine3d
