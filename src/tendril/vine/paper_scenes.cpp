#include "tendril/vine/paper_scenes.hpp"

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::vine {

VineModel runtime_scene_model(int bodies, RuntimeScaling scaling) {
  if (bodies < 2 || bodies % 2 != 0)
    throw InputError("bodies", fmt::format("{}", bodies), "an even number of bodies >= 2");
  UniformVineParameters p;
  p.bodies = bodies;
  p.half_length = scaling == RuntimeScaling::fixed_total_length ? 0.2 / bodies : 0.2 / 30;
  p.tube_diameter = 0.024;
  p.mass = 1e-3;
  p.inertia = 2e-4;
  p.stiffness = 0.5;
  p.damping = 3e-5;
  p.heading = 0.0;
  p.dt = 0.01;
  VineModel m = uniform_vine(p);
  m.contact_model = ContactModel::point;  // the paper's contact points
  m.growth = GrowthSchedule::constant(0.040);
  const double length = 2.0 * p.half_length * bodies;
  m.obstacles = {make_circle(Vec2(length + 0.070, 0.025), 0.060)};
  return m;
}

}  // namespace tendril::vine
