#pragma once
/// The vine paper's runtime scene (Fig. 4, 5; papers/vine_robot_simulator.txt IV-A), built in code
/// for the vine tests and benchmarks; examples/vine_runtime.yaml is the same scene (30 bodies) as a
/// file.
///
/// 30 bodies (15 pin-prismatic pairs) of half length 6.67 mm (the straight robot is 0.4 m long),
/// tube diameter 24 mm, body mass 1 g, inertia 2e-4 kg m^2, K = 0.5 N m/rad, C = 3e-5 N m s/rad
/// per pin joint, dt = 0.01 s, growth 40 mm/s in total, one circle of radius 60 mm centred at
/// (470, 25) mm, heading 0: the tip starts 2.3 mm from the (tube-radius inflated) circle. Contact
/// at the paper's points (ContactModel::point).

#include <string>

#include "tendril/core/error.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::testing {

/// How the runtime scene is scaled to other numbers of bodies n (all per-body and per-joint
/// parameters unchanged in both cases).
enum class RuntimeScaling {
  /// bodies keep d = 6.67 mm, the robot is n * 13.3 mm long and the circle is moved to stay
  /// (70, 25) mm ahead of the tip: the same local physics and conditioning at every n.
  fixed_body_size,
  /// the authors' runtime script: the robot stays 0.4 m long (d = 0.2 m / n), the circle stays put.
  /// With the paper's inertia of 2e-4 kg m^2 per body this gets badly conditioned for large n.
  fixed_total_length,
};

/// The runtime scene with `bodies` bodies (even, >= 2); identical for both scalings at 30 bodies.
inline vine::VineModel runtime_scene_model(
    int bodies, RuntimeScaling scaling = RuntimeScaling::fixed_body_size) {
  if (bodies < 2 || bodies % 2 != 0)
    throw InputError("bodies", std::to_string(bodies), "an even number of bodies >= 2");
  vine::UniformVineParameters p;
  p.bodies = bodies;
  p.half_length = scaling == RuntimeScaling::fixed_total_length ? 0.2 / bodies : 0.2 / 30;
  p.tube_diameter = 0.024;
  p.mass = 1e-3;
  p.inertia = 2e-4;
  p.stiffness = 0.5;
  p.damping = 3e-5;
  p.heading = 0.0;
  p.dt = 0.01;
  vine::VineModel m = vine::uniform_vine(p);
  m.contact_model = vine::ContactModel::point;  // the paper's contact points
  m.growth = vine::GrowthSchedule::constant(0.040);
  const double length = 2.0 * p.half_length * bodies;
  m.obstacles = {vine::make_circle(Vec2(length + 0.070, 0.025), 0.060)};
  return m;
}

}  // namespace tendril::testing
