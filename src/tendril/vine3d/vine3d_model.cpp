#include "tendril/vine3d/vine3d_model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::vine3d {

namespace {

void require_size(const std::string& key, std::size_t got, int expected, const char* what) {
  if (static_cast<int>(got) != expected)
    throw InputError(key, fmt::format("{} values", got),
                     fmt::format("{} values (one per {})", expected, what));
}

/// Every value finite, and > 0 (`positive`) or >= 0 (otherwise).
void require_values(const std::string& key, const std::vector<double>& values, bool positive) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = values[i];
    if (!(std::isfinite(x) && (positive ? x > 0.0 : x >= 0.0)))
      throw InputError(fmt::format("{}[{}]", key, i), fmt::format("{}", x),
                       positive ? "a finite value > 0" : "a finite value >= 0");
  }
}

void require(bool ok, const std::string& key, double value, const char* allowed) {
  if (!ok) throw InputError(key, fmt::format("{}", value), allowed);
}

/// The obstacle's geometry is finite and not degenerate; the error names it (its key path in the
/// scene), or its index without a name.
void check_obstacle(const Obstacle3& o, const std::string& prefix, std::size_t index) {
  bool ok = o.centre.allFinite() && o.normal.allFinite() &&
            std::abs(o.normal.norm() - 1.0) < 1e-12 && std::isfinite(o.radius) && o.radius >= 0.0 &&
            o.half_size.allFinite() && o.half_size.minCoeff() >= 0.0 &&
            std::isfinite(o.half_height) && o.half_height >= 0.0 &&
            o.orientation.coeffs().allFinite();
  const char* allowed = "a finite centre, unit normal, radius >= 0 and half sizes >= 0 [m]";
  if (o.shape == ObstacleShape::cylinder) {
    ok = ok && o.radius > 0.0 && o.half_height > 0.0;
    allowed = "a cylinder of finite radius > 0 and half height > 0 [m]";
  } else if (o.shape == ObstacleShape::triangle) {
    const auto& v = o.vertices;
    ok = v[0].allFinite() && v[1].allFinite() && v[2].allFinite() &&
         (v[1] - v[0]).cross(v[2] - v[0]).norm() > 0.0;
    allowed = "a triangle of finite corners and non-zero area [m]";
  }
  if (!ok)
    throw InputError(o.name.empty() ? fmt::format("{}.obstacles[{}]", prefix, index) : o.name,
                     "non-finite or degenerate geometry", allowed);
}

}  // namespace

void Vine3dModel::validate(const std::string& prefix) const {
  if (num_bodies < 1)
    throw InputError(prefix + ".bodies", fmt::format("{}", num_bodies), "an integer >= 1");
  require_size(prefix + ".half_length", half_length.size(), num_bodies, "body");
  require_size(prefix + ".mass", mass.size(), num_bodies, "body");
  require_size(prefix + ".axial_inertia", axial_inertia.size(), num_bodies, "body");
  require_size(prefix + ".transverse_inertia", transverse_inertia.size(), num_bodies, "body");
  require_size(prefix + ".stiffness", stiffness.size(), num_bending(), "bending joint");
  require_size(prefix + ".damping", damping.size(), num_bending(), "bending joint");
  require_size(prefix + ".rest_bend", rest_bend.size(), num_bending(), "bending joint");
  if (!steering.empty())
    require_size(prefix + ".steering", steering.size(), 2 * num_bending(),
                 "rest-bend component (y, z) of a bending joint");
  require_values(prefix + ".half_length", half_length, true);
  require_values(prefix + ".mass", mass, true);
  require_values(prefix + ".axial_inertia", axial_inertia, true);
  require_values(prefix + ".transverse_inertia", transverse_inertia, true);
  require_values(prefix + ".stiffness", stiffness, false);
  require_values(prefix + ".damping", damping, false);
  if (bending_law == BendingLaw::inflated_beam)
    vine::check_inflated_beam_joints(inflated_beam, stiffness,
                                     springs == SpringIntegration::implicit, prefix);
  for (std::size_t j = 0; j < rest_bend.size(); ++j)
    require(rest_bend[j].allFinite() && rest_bend[j].norm() < M_PI,
            fmt::format("{}.rest_bend[{}]", prefix, j), rest_bend[j].norm(),
            "a finite bend of magnitude < pi [rad]");
  require(std::isfinite(dt) && dt > 0.0, prefix + ".dt", dt, "a finite time step > 0 [s]");
  require(base.allFinite(), prefix + ".base", base.norm(), "a finite point [m]");
  require(base_frame.coeffs().allFinite() && std::abs(base_frame.norm() - 1.0) < 1e-12,
          prefix + ".base_frame", base_frame.norm(), "a unit quaternion");
  require(gravity.allFinite(), prefix + ".gravity", gravity.norm(), "a finite vector [m/s^2]");
  require(std::isfinite(contact_radius) && contact_radius >= 0.0, prefix + ".contact.radius",
          contact_radius, "a finite radius >= 0 [m]");
  require(std::isfinite(friction) && friction >= 0.0, prefix + ".contact.friction", friction,
          "a finite coefficient >= 0");
  require(std::isfinite(contact_gap) && contact_gap >= 0.0, prefix + ".contact.gap", contact_gap,
          "a finite gap >= 0 [m]");
  for (std::size_t i = 0; i < obstacles.size(); ++i) check_obstacle(obstacles[i], prefix, i);
  require(std::isfinite(everted_density) && everted_density >= 0.0,
          prefix + ".growth.everted_density", everted_density,
          "a finite mass per length >= 0 [kg/m]");
  require(growth_lookahead >= 0.0 && growth_lookahead <= 1.0, prefix + ".growth.lookahead",
          growth_lookahead, "a value in [0, 1] (1: eq. 14 of the paper, 0.5: midpoint)");
  require(max_joint_error > 0.0, prefix + ".limits.joint_error", max_joint_error,
          "a joint error > 0 [m]");
}

Vine3dModel uniform_vine3d(const UniformVine3dParameters& p) {
  Vine3dModel m;
  m.num_bodies = p.bodies;
  const int n = std::max(p.bodies, 0);
  m.half_length.assign(n, p.half_length);
  m.mass.assign(n, p.mass);
  m.axial_inertia.assign(n, p.mass * p.tube_diameter * p.tube_diameter / 4.0);
  m.transverse_inertia.assign(n, vine::tube_inertia(p.mass, p.tube_diameter, p.half_length));
  m.stiffness.assign(m.num_bending(), p.stiffness);
  m.damping.assign(m.num_bending(), p.damping);
  m.rest_bend.assign(m.num_bending(), Vec2::Zero());
  m.contact_radius = 0.5 * p.tube_diameter;
  m.dt = p.dt;
  m.growth = GrowthSchedule::constant(0.0);
  return m;
}

double grown_length(const Vine3dModel& model, const Vine3dState& state) {
  double length = 0.0;
  for (int j = 0; j < model.num_prismatic(); ++j) {
    const int b = model.prismatic_body(j);
    length += (state.position[b] - state.position[b - 1]).norm() - model.half_length[b] -
              model.half_length[b - 1];
  }
  return length;
}

double body_mass(const Vine3dModel& model, const Vine3dState& state, int body) {
  if (model.everted_density == 0.0 || body != model.num_bodies - 1) return model.mass[body];
  return model.mass[body] + model.everted_density * std::max(0.0, grown_length(model, state));
}

Vine3dState straight_state(const Vine3dModel& model, double extension) {
  Vine3dState s;
  const Vec3 e = model.base_frame * Vec3::UnitX();
  Vec3 end = model.base;  // distal end of the previous body
  for (int i = 0; i < model.num_bodies; ++i) {
    const bool prismatic = i % 2 == 1;
    const Vec3 centre = end + (model.half_length[i] + (prismatic ? extension : 0.0)) * e;
    s.position.push_back(centre);
    s.orientation.push_back(model.base_frame);
    end = centre + model.half_length[i] * e;
  }
  s.velocity.setZero(model.num_dofs());
  return s;
}

std::vector<Vec3> centerline_points(const Vine3dModel& model, const Vine3dState& state) {
  std::vector<Vec3> points{model.base};
  for (int i = 1; i < model.num_bodies; ++i)
    points.push_back(state.position[i] -
                     model.half_length[i] * (state.orientation[i] * Vec3::UnitX()));
  const int tip = model.num_bodies - 1;
  points.push_back(state.position[tip] +
                   model.half_length[tip] * (state.orientation[tip] * Vec3::UnitX()));
  return points;
}

}  // namespace tendril::vine3d
