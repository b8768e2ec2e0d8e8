// Bad model input of the 3D vine is refused with an InputError naming the item, the value and
// what is allowed (src/tendril/vine3d/vine3d_model.hpp validate): zero-length bodies and degenerate
// obstacles. (A scene's obstacles enclosing the base and its starting state, broken chains and
// bodies inside obstacles, are checked by vine3d_scene.cpp and its tests.)
#include <gtest/gtest.h>

#include "support/input_error.hpp"
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

TEST(Vine3dBadInput, ZeroLengthBodiesAreRefused) {
  Vine3dModel m = small_vine();
  m.half_length[2] = 0.0;
  expect_input_error([&] { Vine3dStepper stepper(m); },
                     {"vine3d.half_length[2]", "0", "a finite value > 0"});
}

TEST(Vine3dBadInput, DegenerateObstaclesAreRefused) {
  Vine3dModel m = small_vine();
  m.obstacles = {make_cylinder(Vec3(1.0, 0.0, 0.0), Vec3::UnitZ(), 0.0, 0.05)};
  expect_input_error([&] { Vine3dStepper stepper(m); },
                     {"vine3d.obstacles[0]", "degenerate", "radius > 0 and half height > 0"});
  m.obstacles = {make_triangle(Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0))};
  expect_input_error([&] { Vine3dStepper stepper(m); }, {"vine3d.obstacles[0]", "non-zero area"});
}

}  // namespace
}  // namespace tendril::vine3d
