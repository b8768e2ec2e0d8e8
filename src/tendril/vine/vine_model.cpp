#include "tendril/vine/vine_model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine/body_contact.hpp"

namespace tendril::vine {

namespace {

void require_size(const std::string& key, std::size_t got, int expected, const char* what) {
  if (static_cast<int>(got) != expected)
    throw InputError(key, fmt::format("{} values", got),
                     fmt::format("{} values (one per {})", expected, what));
}

void require_finite_vector(const std::string& key, const std::vector<double>& values, bool positive,
                           bool non_negative) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = values[i];
    const bool ok = std::isfinite(x) && (!positive || x > 0.0) && (!non_negative || x >= 0.0);
    if (!ok)
      throw InputError(fmt::format("{}[{}]", key, i), fmt::format("{}", x),
                       positive ? "a finite value > 0"
                                : (non_negative ? "a finite value >= 0" : "a finite value"));
  }
}

void require(bool ok, const std::string& key, double value, const char* allowed) {
  if (!ok) throw InputError(key, fmt::format("{}", value), allowed);
}

}  // namespace

void VineModel::validate(const std::string& prefix) const {
  if (num_bodies < 1)
    throw InputError(prefix + ".bodies", fmt::format("{}", num_bodies), "an integer >= 1");
  require_size(prefix + ".half_length", half_length.size(), num_bodies, "body");
  require_size(prefix + ".mass", mass.size(), num_bodies, "body");
  require_size(prefix + ".inertia", inertia.size(), num_bodies, "body");
  require_size(prefix + ".stiffness", stiffness.size(), num_pins(), "pin joint");
  require_size(prefix + ".damping", damping.size(), num_pins(), "pin joint");
  require_size(prefix + ".rest_angle", rest_angle.size(), num_pins(), "pin joint");
  require_finite_vector(prefix + ".half_length", half_length, true, false);
  require_finite_vector(prefix + ".mass", mass, true, false);
  require_finite_vector(prefix + ".inertia", inertia, true, false);
  require_finite_vector(prefix + ".stiffness", stiffness, false, true);
  require_finite_vector(prefix + ".damping", damping, false, true);
  require_finite_vector(prefix + ".rest_angle", rest_angle, false, false);
  if (bending_law == BendingLaw::inflated_beam)
    // implicit springs take the law's tangent at each step's start (VineStepper)
    check_inflated_beam_joints(inflated_beam, stiffness, false, prefix);
  if (!rest_angle_schedule.empty())
    require_size(prefix + ".steering", rest_angle_schedule.size(), num_pins(), "pin joint");
  require(std::isfinite(tube_diameter) && tube_diameter >= 0.0, prefix + ".tube_diameter",
          tube_diameter, "a finite diameter >= 0 [m]");
  require(std::isfinite(contact_radius) && contact_radius >= 0.0, prefix + ".contact.radius",
          contact_radius, "a finite radius >= 0 [m]");
  require(std::isfinite(friction) && friction >= 0.0, prefix + ".contact.friction", friction,
          "a finite coefficient >= 0");
  require(growth_lookahead >= 0.0 && growth_lookahead <= 1.0, prefix + ".growth.lookahead",
          growth_lookahead, "a value in [0, 1] (1: eq. 14 of the paper, 0.5: midpoint)");
  require(std::isfinite(contact_gap) && contact_gap >= 0.0, prefix + ".contact.gap", contact_gap,
          "a finite gap >= 0 [m]");
  require(std::isfinite(growth_force) && growth_force >= 0.0, prefix + ".growth.force",
          growth_force, "a finite force >= 0 [N]");
  require(max_joint_error > 0.0, prefix + ".limits.joint_error", max_joint_error,
          "a joint error > 0 [m]");
  require(max_speed > 0.0, prefix + ".limits.speed", max_speed, "a speed > 0 [m/s]");
  require(std::isfinite(dt) && dt > 0.0, prefix + ".dt", dt, "a finite time step > 0 [s]");
  require(base.allFinite(), prefix + ".base", base.norm(), "a finite point [m]");
  require(gravity.allFinite(), prefix + ".gravity", gravity.norm(), "a finite vector [m/s^2]");
  for (std::size_t i = 0; i < contact_points.size(); ++i) {
    const auto& cp = contact_points[i];
    const std::string key = fmt::format("{}.contact.points[{}]", prefix, i);
    if (cp.body < 0 || cp.body >= num_bodies)
      throw InputError(key + ".body", fmt::format("{}", cp.body),
                       fmt::format("a body index in [0, {}]", num_bodies - 1));
    require(std::isfinite(cp.offset) && std::abs(cp.offset) <= half_length[cp.body] * (1.0 + 1e-12),
            key + ".offset", cp.offset, "an offset along the body within its half length [m]");
  }
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const auto& o = obstacles[i];
    const std::string key = fmt::format("{}.obstacles[{}]", prefix, i);
    bool finite = std::isfinite(o.corner_radius) && o.corner_radius >= 0.0 &&
                  o.normal.allFinite() && !o.vertices.empty();
    for (const Vec2& p : o.vertices) finite = finite && p.allFinite();
    if (!finite)
      throw InputError(key, "non-finite or empty geometry",
                       "finite vertices and a radius >= 0 [m]");
  }
}

double tube_inertia(double mass, double diameter, double half_length) {
  const double length = 2.0 * half_length;
  return mass * (diameter * diameter / 8.0 + length * length / 12.0);
}

VineModel uniform_vine(const UniformVineParameters& p) {
  VineModel m;
  m.num_bodies = p.bodies;
  const int n = std::max(p.bodies, 0);
  m.half_length.assign(n, p.half_length);
  m.mass.assign(n, p.mass);
  m.inertia.assign(
      n, p.inertia > 0.0 ? p.inertia : tube_inertia(p.mass, p.tube_diameter, p.half_length));
  m.tube_diameter = p.tube_diameter;
  m.stiffness.assign(m.num_pins(), p.stiffness);
  m.damping.assign(m.num_pins(), p.damping);
  m.rest_angle.assign(m.num_pins(), 0.0);
  if (!m.rest_angle.empty()) m.rest_angle[0] = p.heading;
  m.contact_points = default_contact_points(m);
  m.contact_radius = 0.5 * p.tube_diameter;
  m.dt = p.dt;
  m.growth = GrowthSchedule::constant(0.0);
  return m;
}

std::vector<ContactPoint> default_contact_points(const VineModel& model) {
  std::vector<ContactPoint> points;
  // distal end of every body followed by a pin joint (odd indices), then the tip
  for (int i = 1; i < model.num_bodies; i += 2) points.push_back({i, model.half_length[i]});
  if (model.num_bodies % 2 == 1)
    points.push_back({model.num_bodies - 1, model.half_length[model.num_bodies - 1]});
  return points;
}

VineState straight_state(const VineModel& model, double heading, double extension) {
  VineState s;
  s.q.setZero(model.num_dofs());
  s.v.setZero(model.num_dofs());
  const Vec2 e(std::cos(heading), std::sin(heading));
  Vec2 end = model.base;  // distal end of the previous body
  for (int i = 0; i < model.num_bodies; ++i) {
    const bool prismatic = i % 2 == 1;
    const Vec2 centre = end + (model.half_length[i] + (prismatic ? extension : 0.0)) * e;
    s.q.segment<2>(3 * i) = centre;
    s.q(3 * i + 2) = heading;
    end = centre + model.half_length[i] * e;
  }
  return s;
}

std::vector<Vec2> centerline_points(const VineModel& model, const VecX& q) {
  std::vector<Vec2> points;
  points.reserve(model.num_bodies + 1);
  points.push_back(model.base);
  for (int i = 0; i < model.num_bodies; ++i) {
    const Vec2 e(std::cos(q(3 * i + 2)), std::sin(q(3 * i + 2)));
    const Vec2 centre = q.segment<2>(3 * i);
    if (i > 0) points.push_back(centre - model.half_length[i] * e);
    if (i + 1 == model.num_bodies) points.push_back(centre + model.half_length[i] * e);
  }
  return points;
}

double element_distance(const VineModel& model, const VecX& q, int element, int obstacle,
                        double& offset) {
  const int body = element_body(model, element);
  const double th = q(3 * body + 2);
  const Vec2 axis(std::cos(th), std::sin(th));
  const Vec2 centre = q.segment<2>(3 * body);
  const Obstacle& o = model.obstacles[obstacle];
  double distance = 0.0;
  if (model.contact_model == ContactModel::body) {
    offset = closest_offset(o, centre, axis, model.half_length[body], distance);
  } else {
    offset = model.contact_points[element].offset;
    Vec2 n;
    distance = signed_distance<double>(o, Vec2(centre + offset * axis), n);
  }
  return distance - model.contact_radius;
}

void check_no_penetration(const VineModel& model, const VecX& q, const std::string& key,
                          double tolerance) {
  const bool bodies = model.contact_model == ContactModel::body;
  for (int e = 0; e < model.num_contact_elements(); ++e) {
    const int body = element_body(model, e);
    for (std::size_t o = 0; o < model.obstacles.size(); ++o) {
      double s = 0.0;
      const double phi = element_distance(model, q, e, static_cast<int>(o), s);
      if (phi >= -tolerance) continue;
      const double th = q(3 * body + 2);
      const Vec2 p = q.segment<2>(3 * body) + s * Vec2(std::cos(th), std::sin(th));
      const std::string where = bodies ? fmt::format("body {}", body)
                                       : fmt::format("contact point {} (body {})", e, body);
      throw InputError(
          key,
          fmt::format("{} at ({:.6g}, {:.6g}) m is {:.3g} m inside {}", where, p.x(), p.y(), -phi,
                      model.obstacles[o].name.empty() ? fmt::format("obstacle {}", o)
                                                      : model.obstacles[o].name),
          "an initial state with every body outside every obstacle (by the contact radius)");
    }
  }
}

void check_prismatic_lengths(const VineModel& model, const VecX& q, const std::string& key) {
  for (int j = 0; j < model.num_prismatic(); ++j) {
    const int b = model.prismatic_body(j);
    const double length = (q.segment<2>(3 * b) - q.segment<2>(3 * (b - 1))).norm();
    if (!(length > 1e-12))
      throw InputError(
          key,
          fmt::format("prismatic joint {} (bodies {}, {}) of length {:.3g} m", j, b - 1, b, length),
          "prismatic joints of length |h| > 1e-12 m between the two bodies' centres (the growth "
          "direction h / |h| is undefined at 0)");
  }
}

}  // namespace tendril::vine
