// Bad model input of the 3D vine is refused with an InputError naming the item, the value and
// what is allowed (src/tendril/vine3d/vine3d_model.hpp validate, start_checks.hpp): broken chains,
// zero-length bodies and prismatic joints, degenerate obstacles, obstacles enclosing the base and
// bodies starting inside an obstacle.
#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/vine3d/start_checks.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

using testing::expect_input_error;

Vine3dModel small_vine() {
  UniformVine3dParameters p;
  p.bodies = 4;
  p.half_length = 0.02;
  p.tube_diameter = 0.01;
  p.stiffness = 0.01;
  return uniform_vine3d(p);
}

TEST(Vine3dBadInput, ABrokenChainNamesTheJoint) {
  const Vine3dModel m = small_vine();
  Vine3dState s = straight_state(m, 0.0);
  EXPECT_NO_THROW(check_start(m, s));
  s.position[2] += Vec3(0.0, 0.0, 0.01);  // body 2 off its bending joint with body 1
  expect_input_error([&] { check_start(m, s); },
                     {"initial_state (joint 2: body 1 to body 2)", "ends apart", "a joined chain"});
  s = straight_state(m, 0.0);
  s.orientation[1] = rotation_exp(Vec3(0.0, 0.2, 0.0));  // a prismatic joint bent
  expect_input_error([&] { check_start(m, s); }, {"joint 1: body 0 to body 1", "not collinear"});
  s = straight_state(m, 0.0);
  s.orientation[0] = rotation_exp(Vec3(0.3, 0.0, 0.0));  // body 0 twisted against the base frame
  expect_input_error([&] { check_start(m, s); }, {"joint 0", "twisted"});
}

TEST(Vine3dBadInput, ZeroLengthBodiesAndJointsAreRefused) {
  Vine3dModel m = small_vine();
  m.half_length[2] = 0.0;
  expect_input_error([&] { Vine3dStepper stepper(m); },
                     {"vine3d.half_length[2]", "0", "a finite value > 0"});
  m = small_vine();
  Vine3dModel overlapping = m;
  overlapping.max_joint_error = 1.0;  // so the joint rows pass: the centres coincide
  Vine3dState s = straight_state(m, 0.0);
  s.position[1] = s.position[0];
  expect_input_error([&] { check_start(overlapping, s); },
                     {"prismatic joint 0: body 0 to body 1", "coinciding body centres"});
}

TEST(Vine3dBadInput, ObstaclesEnclosingTheBaseOrDegenerateAreRefused) {
  Vine3dModel m = small_vine();
  m.obstacles = {make_sphere(Vec3(0.3, 0.0, 0.0), 0.01), make_sphere(Vec3(0.01, 0.0, 0.0), 0.05)};
  m.obstacles[1].name = "rock";
  expect_input_error([&] { Vine3dStepper stepper(m); },
                     {"vine3d.obstacles[1] (rock)", "encloses the base", "leave the base point"});
  m.obstacles = {make_box(Vec3::Zero(), Vec3(0.1, 0.1, 0.1), Quat::Identity())};
  expect_input_error([&] { Vine3dStepper stepper(m); }, {"vine3d.obstacles[0]", "encloses"});
  m.obstacles = {make_cylinder(Vec3(0.0, 0.0, -0.01), Vec3::UnitZ(), 0.02, 0.05)};
  expect_input_error([&] { Vine3dStepper stepper(m); }, {"vine3d.obstacles[0]", "encloses"});
  m.obstacles = {make_half_space(Vec3(0.0, 0.0, 0.01), Vec3::UnitZ())};
  expect_input_error([&] { Vine3dStepper stepper(m); }, {"vine3d.obstacles[0]", "encloses"});
  m.obstacles = {make_cylinder(Vec3(1.0, 0.0, 0.0), Vec3::UnitZ(), 0.0, 0.05)};
  expect_input_error([&] { Vine3dStepper stepper(m); },
                     {"vine3d.obstacles[0]", "degenerate", "radius > 0 and half height > 0"});
  m.obstacles = {make_triangle(Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0))};
  expect_input_error([&] { Vine3dStepper stepper(m); }, {"vine3d.obstacles[0]", "non-zero area"});
}

TEST(Vine3dBadInput, ABodyStartingInsideAnObstacleIsRefused) {
  Vine3dModel m = small_vine();
  m.obstacles = {make_cylinder(Vec3(0.1, 0.0, 0.0), Vec3::UnitY(), 0.003, 0.05)};
  m.obstacles[0].name = "post";
  Vine3dStepper stepper(m);  // the model is valid: the base is outside
  expect_input_error([&] { check_start(m, straight_state(m, 0.0)); },
                     {"body 2 in vine3d.obstacles[0] post", "inside", "outside every obstacle"});
}

}  // namespace
}  // namespace tendril::vine3d
