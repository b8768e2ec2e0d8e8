// Every 3D vine example (examples/vine_3d_*.yaml) runs to its end through io::run and shows what
// its description says, checked against references computed here:
// - the pipe bend: the tip turns from the horizontal pipe into the vertical one, and no body ever
//   enters a wall (the capsule's distance to each box computed here: the minimum along the body's
//   axis of the box's point distance);
// - the pipe bend grown on to 6 s: its tip still in the vertical pipe, no body in a wall;
// - the pipe bend with its straight walls an OBJ mesh: the same, the clearances to the walls'
//   rectangles;
// - the table: the tip climbs over the bump (above the table by more than the tube's radius) and
//   passes the post, and no body enters the table, the bump or the post;
// - the steered vine: its tip points along the closed form of its rest bends (the product of
//   their rotations);
// - the paper's wall growth in 3D: every joint point follows the planar simulator's run of
//   examples/vine_wall_growth.yaml with contact along the bodies to 1e-9 m, in the plane z = 0.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "support/example_path.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/vine/vine_run.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine3d/vine3d_run.hpp"

namespace tendril::vine3d {
namespace {

namespace fs = std::filesystem;

/// Runs examples/<name>.yaml into a scratch folder; every step must succeed.
io::RunData run_example(const std::string& name, const Vine3dScene& scene) {
  const fs::path out = testing::scratch_dir("vine3d_examples") / name;
  Vine3dRun run(scene);
  const io::RunResult result = io::run(run, out);
  EXPECT_TRUE(result.ok) << name << ": " << result.message;
  EXPECT_EQ(result.steps, scene.steps);
  return io::read_run(out);
}

Vine3dScene load(const std::string& name) {
  return load_vine3d_scene_file(testing::example_path(name + ".yaml"));
}

/// Distance of point x to the solid obstacle o (0 inside), computed from its definition.
double point_distance(const Obstacle3& o, const Vec3& x) {
  if (o.shape == ObstacleShape::sphere) return std::max((x - o.centre).norm() - o.radius, 0.0);
  if (o.shape == ObstacleShape::half_space) return std::max(o.normal.dot(x - o.centre), 0.0);
  const Vec3 local = o.orientation.conjugate() * (x - o.centre);
  return (local.cwiseAbs() - o.half_size).cwiseMax(0.0).norm();
}

/// Smallest distance of the axis segment of body i at frame f to obstacle o, less the contact
/// radius: the point distance is convex along the segment (the distance to a convex set), so a
/// ternary search finds its minimum to round-off.
double clearance(const io::RunData& run, std::size_t f, int i, const Obstacle3& o, double d,
                 double radius) {
  const io::NpyArray& p = run.array("body_position");
  const io::NpyArray& r = run.array("body_orientation");
  const std::size_t n = p.shape[1];
  const double* c = &p.data[3 * (n * f + i)];
  const double* q = &r.data[4 * (n * f + i)];
  const Vec3 centre(c[0], c[1], c[2]), axis = Quat(q[0], q[1], q[2], q[3]) * Vec3::UnitX();
  const auto at = [&](double s) { return point_distance(o, centre + s * axis); };
  double lo = -d, hi = d;
  for (int k = 0; k < 200; ++k) {
    const double a = lo + (hi - lo) / 3.0, b = hi - (hi - lo) / 3.0;
    (at(a) <= at(b) ? hi : lo) = at(a) <= at(b) ? b : a;
  }
  return std::min({at(-d), at(d), at(0.5 * (lo + hi))}) - radius;
}

/// Smallest clearance of any body to any obstacle over every saved frame.
double min_clearance(const io::RunData& run, const Vine3dModel& m) {
  double least = INFINITY;
  for (std::size_t f = 0; f < run.array("frame_time").shape[0]; ++f)
    for (int i = 0; i < m.num_bodies; ++i)
      for (const Obstacle3& o : m.obstacles)
        least = std::min(least, clearance(run, f, i, o, m.half_length[i], m.contact_radius));
  return least;
}

/// Tip (the last joint point) of frame f.
Vec3 tip(const io::RunData& run, std::size_t f) {
  const io::NpyArray& c = run.array("centerline");
  const std::size_t points = c.shape[1];
  const double* x = &c.data[3 * (points * f + points - 1)];
  return Vec3(x[0], x[1], x[2]);
}

TEST(Vine3dExamples, PipeBendTurnsTheTipUpWithoutEnteringAWall) {
  const Vine3dScene scene = load("vine_3d_pipe_bend");
  const io::RunData run = run_example("pipe_bend", scene);
  const std::size_t last = run.array("frame_time").shape[0] - 1;
  const Vec3 end = tip(run, last);
  // in the vertical pipe (inner walls x = 0.27 and 0.33), well above the horizontal one (z < 0.03)
  EXPECT_GT(end.z(), 0.15);
  EXPECT_GT(end.x(), 0.27);
  EXPECT_LT(end.x(), 0.33);
  EXPECT_GE(min_clearance(run, scene.model), -1e-6);
}

TEST(Vine3dExamples, PipeBendGrowsOnFor6SecondsInTheVerticalPipe) {
  // 600 steps: its QP once ended at the iteration limit at step 466 (dependent contact rows of
  // bodies pressed into the elbow, docs/physics/qp_solver.md "Dual active-set method")
  const Vine3dScene scene =
      load_vine3d_scene_file(testing::example_path("vine_3d_pipe_bend.yaml"), {"vine3d.steps=600"});
  const io::RunData run = run_example("pipe_bend_600", scene);
  const Vec3 end = tip(run, run.array("frame_time").shape[0] - 1);
  const double clearance = min_clearance(run, scene.model);
  std::printf("pipe bend at 6 s: tip (%.4g, %.4g, %.4g) m, clearance %.3g m\n", end.x(), end.y(),
              end.z(), clearance);
  // still in the vertical pipe, higher than at the example's end (4.4 s: z = 0.192 m)
  EXPECT_GT(end.z(), 0.192);
  EXPECT_GT(end.x(), 0.27);
  EXPECT_LT(end.x(), 0.33);
  EXPECT_GE(clearance, -1e-6);
}

TEST(Vine3dExamples, PipeBendWithMeshWallsTurnsTheTipUpWithoutCrossingAWall) {
  // the pipe's straight walls as the inner faces of the boxes, rectangles [lo, hi] (one side of
  // zero width) of an OBJ mesh (two triangles each); the elbow box kept
  const std::vector<std::pair<Vec3, Vec3>> faces = {
      {{-0.075, -0.03, -0.03}, {0.34, 0.03, -0.03}},  // floor
      {{-0.075, -0.03, 0.03}, {0.27, 0.03, 0.03}},    // ceiling
      {{-0.075, 0.03, -0.04}, {0.34, 0.03, 0.4}},     // sides
      {{-0.075, -0.03, -0.04}, {0.34, -0.03, 0.4}},
      {{0.33, -0.04, -0.04}, {0.33, 0.04, 0.4}},  // outer wall
      {{0.27, -0.04, 0.03}, {0.27, 0.04, 0.4}},   // inner wall
  };
  const fs::path obj = testing::scratch_dir("vine3d_examples") / "pipe.obj";
  {
    std::ofstream out(obj);
    for (std::size_t k = 0; k < faces.size(); ++k) {
      const Vec3 &lo = faces[k].first, &hi = faces[k].second;
      const int flat = lo.x() == hi.x() ? 0 : (lo.y() == hi.y() ? 1 : 2);
      const int u = (flat + 1) % 3, v = (flat + 2) % 3;
      for (const auto& [a, b] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) {
        Vec3 corner = lo;
        corner(u) = a ? hi(u) : lo(u);
        corner(v) = b ? hi(v) : lo(v);
        out << "v " << corner.x() << ' ' << corner.y() << ' ' << corner.z() << '\n';
      }
      out << "f " << 4 * k + 1 << ' ' << 4 * k + 2 << ' ' << 4 * k + 3 << ' ' << 4 * k + 4 << '\n';
    }
  }
  const Vine3dScene scene = load_vine3d_scene_file(
      testing::example_path("vine_3d_pipe_bend.yaml"),
      {"vine3d.obstacles=[{shape: box, center: [0.33, 0, -0.03], half_extents: [0.03, 0.04, "
       "0.03], rotation: [0, 0.7853981633974483, 0]}, {shape: mesh, file: " +
       obj.string() + "}]"});
  ASSERT_EQ(scene.model.obstacles.size(), 1 + 2 * faces.size());
  const io::RunData run = run_example("pipe_bend_mesh", scene);
  const Vec3 end = tip(run, run.array("frame_time").shape[0] - 1);
  EXPECT_GT(end.z(), 0.15);  // in the vertical pipe, as with walls of boxes
  EXPECT_GT(end.x(), 0.27);
  EXPECT_LT(end.x(), 0.33);
  // the clearances to the elbow and to each wall rectangle, as a box of zero width
  Vine3dModel reference = scene.model;
  reference.obstacles.resize(1);
  for (const auto& [lo, hi] : faces)
    reference.obstacles.push_back(
        make_box(0.5 * (lo + hi), 0.5 * (hi - lo).cwiseAbs(), Quat::Identity()));
  EXPECT_GE(min_clearance(run, reference), -1e-6);
  fs::remove(obj);
}

TEST(Vine3dExamples, TableVineClimbsOverTheBumpAndPassesThePost) {
  const Vine3dScene scene = load("vine_3d_table_obstacles");
  const io::RunData run = run_example("table", scene);
  const std::size_t frames = run.array("frame_time").shape[0];
  double highest = 0.0;
  for (std::size_t f = 0; f < frames; ++f) highest = std::max(highest, tip(run, f).z());
  // the bump's top is 15 mm above the table: the tip's axis rises above 15 mm + r_c
  EXPECT_GT(highest, 0.015 + 0.012);
  const Vec3 end = tip(run, frames - 1);
  EXPECT_GT(end.x(), 0.45);           // past the post (x <= 0.44)
  EXPECT_NEAR(end.z(), 0.012, 1e-6);  // back on the table
  EXPECT_GE(min_clearance(run, scene.model), -1e-6);
}

TEST(Vine3dExamples, SteeredVinePointsAlongTheClosedFormOfItsRestBends) {
  const Vine3dScene scene = load("vine_3d_steered");
  const io::RunData run = run_example("steered", scene);
  const io::NpyArray& r = run.array("body_orientation");
  const std::size_t n = r.shape[1], last = r.shape[0] - 1;
  const double* q = &r.data[4 * (n * last + n - 1)];
  const Vec3 axis = Quat(q[0], q[1], q[2], q[3]) * Vec3::UnitX();
  Quat target = Quat::Identity();
  const Vec3 bend(0.0, -0.12, 0.16);  // every joint's final rest bend (the scene's table)
  for (int j = 0; j < 5; ++j)
    target = target * Quat(Eigen::AngleAxisd(bend.norm(), bend.normalized()));
  EXPECT_LT((axis - target * Vec3::UnitX()).norm(), 1e-6);
  // the direction the scene's description states
  EXPECT_LT((axis - Vec3(0.540, 0.673, 0.505)).norm(), 1e-3);
}

TEST(Vine3dExamples, WallGrowthInThreeDimensionsFollowsThePlanarSimulator) {
  const Vine3dScene scene = load("vine_3d_wall_growth");
  const io::RunData run = run_example("wall_growth", scene);
  const fs::path planar_out = testing::scratch_dir("vine3d_examples") / "planar_wall_growth";
  const vine::VineScene planar = vine::load_vine_scene_file(
      testing::example_path("vine_wall_growth.yaml"),
      {"vine.contact.model=body", "vine.steps=270", "vine.save_every=3"});
  ASSERT_TRUE(vine::run_vine(planar, planar_out).ok);
  const io::NpyArray& a = run.array("centerline");
  const io::RunData planar_run = io::read_run(planar_out);
  const io::NpyArray& b = planar_run.array("centerline");
  ASSERT_EQ(a.shape[0], b.shape[0]);
  ASSERT_EQ(a.shape[1], b.shape[1]);
  double gap = 0.0, out_of_plane = 0.0;
  for (std::size_t k = 0; k < b.size() / 2; ++k) {
    gap = std::max(
        gap, std::hypot(a.data[3 * k] - b.data[2 * k], a.data[3 * k + 1] - b.data[2 * k + 1]));
    out_of_plane = std::max(out_of_plane, std::abs(a.data[3 * k + 2]));
  }
  EXPECT_LE(gap, 1e-9);
  EXPECT_EQ(out_of_plane, 0.0);
  // the tip met the wall: contact rows were active
  double active = 0.0;
  for (double c : run.array("step_active_contacts").data) active += c;
  EXPECT_GT(active, 0.0);
}

}  // namespace
}  // namespace tendril::vine3d
