#include "tendril/vine3d/start_checks.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine3d/joint_rows.hpp"

namespace tendril::vine3d {

namespace {

const char* row_name(JointRowKind kind) {
  switch (kind) {
    case JointRowKind::position:
      return "ends apart";
    case JointRowKind::lateral:
      return "bodies not collinear";
    case JointRowKind::twist:
      return "twisted";
    case JointRowKind::growth:
      break;
  }
  return "";
}

void check_joints(const Vine3dModel& model, const Vine3dState& state, const std::string& key) {
  VecN<12> a;
  double rhs = 0.0;
  for (const JointRow& row : chain_rows(model.half_length)) {
    if (row.kind == JointRowKind::growth) continue;
    RowBodies b;
    b.p_a = row.body_a >= 0 ? state.position[row.body_a] : model.base;
    b.r_a = row.body_a >= 0 ? state.orientation[row.body_a] : model.base_frame;
    b.p_b = state.position[row.body_b];
    b.r_b = state.orientation[row.body_b];
    const double c = evaluate_row(row, b, model.dt, model.growth_lookahead, a, rhs);
    if (!(std::abs(c) <= model.max_joint_error))
      throw InputError(
          fmt::format("{} (joint {}: body {} to body {})", key, row.body_b, row.body_a, row.body_b),
          fmt::format("{}: constraint error {:.3g}", row_name(row.kind), c),
          fmt::format("a joined chain (errors at most vine3d.limits.joint_error = {:g} m or rad)",
                      model.max_joint_error));
  }
  for (int j = 0; j < model.num_prismatic(); ++j) {
    const int b = model.prismatic_body(j);
    if ((state.position[b] - state.position[b - 1]).norm() <= 1e-12)
      throw InputError(fmt::format("{} (prismatic joint {}: body {} to body {})", key, j, b - 1, b),
                       "coinciding body centres",
                       "a prismatic joint of non-zero length (its growth direction)");
  }
}

}  // namespace

void check_start(const Vine3dModel& model, const Vine3dState& state, const std::string& key,
                 double tolerance) {
  const int nb = model.num_bodies;
  if (static_cast<int>(state.position.size()) != nb ||
      static_cast<int>(state.orientation.size()) != nb || state.velocity.size() != 6 * nb)
    throw InputError(key,
                     fmt::format("{} positions, {} orientations", state.position.size(),
                                 state.orientation.size()),
                     fmt::format("{} positions and orientations, {} velocities", nb, 6 * nb));
  check_joints(model, state, key);
  for (int b = 0; b < nb; ++b)
    for (std::size_t o = 0; o < model.obstacles.size(); ++o) {
      double distance = 0.0;
      closest_offset(model.obstacles[o], state.position[b], state.orientation[b] * Vec3::UnitX(),
                     model.half_length[b], distance);
      if (distance - model.contact_radius < -tolerance)
        throw InputError(
            fmt::format("{} (body {} in vine3d.obstacles[{}]{})", key, b, o,
                        model.obstacles[o].name.empty() ? "" : " " + model.obstacles[o].name),
            fmt::format("the body's capsule {:.3g} m inside", model.contact_radius - distance),
            "bodies outside every obstacle (distance >= the contact radius)");
    }
}

}  // namespace tendril::vine3d
