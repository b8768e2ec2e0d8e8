#include "tendril/vine3d/vine3d_stepper.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/vine3d/bending_joints.hpp"
#include "tendril/vine3d/contact_rows.hpp"

namespace tendril::vine3d {

namespace {

using Triplets = std::vector<Eigen::Triplet<double, int>>;

/// Global column of local entry l (0..11) of a row, -1 for the base frame.
int row_column(const JointRow& row, int l) {
  const int body = l < 6 ? row.body_a : row.body_b;
  return body < 0 ? -1 : 6 * body + l % 6;
}

}  // namespace

Vine3dStepper::Vine3dStepper(Vine3dModel model, qp::QpOptions options)
    : model_(std::move(model)), solver_(options) {
  model_.validate();
  const int n = model_.num_dofs();
  rows_ = chain_rows(model_.half_length);
  // A_eq: every row holds all 12 (6 at the base) local entries, so its pattern never changes
  Triplets entries;
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r)
    for (int l = 0; l < 12; ++l)
      if (row_column(rows_[r], l) >= 0) entries.emplace_back(r, row_column(rows_[r], l), 1.0);
  problem_.A_eq.resize(static_cast<int>(rows_.size()), n);
  problem_.A_eq.setFromTriplets(entries.begin(), entries.end());
  problem_.A_eq.makeCompressed();
  row_slots_.assign(12 * rows_.size(), -1);
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r)
    for (int l = 0; l < 12; ++l)
      if (row_column(rows_[r], l) >= 0)
        row_slots_[12 * r + l] = value_index(problem_.A_eq, r, row_column(rows_[r], l));
  problem_.b_eq.setZero(static_cast<int>(rows_.size()));
  reach_.setZero(model_.num_bodies);
  start_mass_.resize(model_.num_bodies);
  start_inertia_.resize(model_.num_bodies);
  rotation_.resize(model_.num_bodies);
  base_rotation_ = model_.base_frame.toRotationMatrix();
  grid_ = ObstacleGrid3(model_.obstacles);
  build_contact_pattern();

  build_objective_pattern();
  double total = 0.0;
  for (double m : model_.mass) total += m;
  mass_scale_ = total / model_.num_bodies;
  problem_.c.setZero(n);
}

void Vine3dStepper::build_objective_pattern() {
  // P: m_i on the translations, the 3 x 3 world inertia on the rotations of each body; implicit
  // springs couple the rotations of the two bodies of each bending joint
  const bool implicit = model_.springs == SpringIntegration::implicit;
  Triplets entries;
  for (int i = 0; i < model_.num_bodies; ++i)
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b)
        if (a == b || (a >= 3 && b >= 3)) entries.emplace_back(6 * i + a, 6 * i + b, 1.0);
  for (int j = 0; j < model_.num_bending() && implicit; ++j)
    for (int a = 0; a < 3 && model_.bending_body(j) > 0; ++a)
      for (int b = 0; b < 3; ++b) {
        const int distal = 6 * model_.bending_body(j) + 3, proximal = distal - 6;
        entries.emplace_back(proximal + a, distal + b, 1.0);
        entries.emplace_back(distal + a, proximal + b, 1.0);
      }
  const int n = model_.num_dofs();
  problem_.P.resize(n, n);
  problem_.P.setFromTriplets(entries.begin(), entries.end());
  problem_.P.makeCompressed();
  mass_slots_.assign(36 * model_.num_bodies, -1);
  for (int i = 0; i < model_.num_bodies; ++i)
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b)
        if (a == b || (a >= 3 && b >= 3))
          mass_slots_[36 * i + 6 * a + b] = value_index(problem_.P, 6 * i + a, 6 * i + b);
  // per bending joint the (proximal, distal) x (proximal, distal) rotation blocks, -1 at the base
  spring_slots_.assign(36 * model_.num_bending(), -1);
  for (int j = 0; j < model_.num_bending() && implicit; ++j)
    for (int block = 0; block < 4; ++block) {
      const int row_body = model_.bending_body(j) - 1 + block / 2;
      const int col_body = model_.bending_body(j) - 1 + block % 2;
      if (row_body < 0 || col_body < 0) continue;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          spring_slots_[36 * j + 9 * block + 3 * a + b] =
              value_index(problem_.P, 6 * row_body + 3 + a, 6 * col_body + 3 + b);
    }
}

void Vine3dStepper::add_implicit_springs() {
  // tau(q_k + Delta t V, V) = tau(q_k, 0) - (Delta t K_j + C_j) B_j^T B_j (omega_b - omega_a):
  // (Delta t^2 K_j + Delta t C_j) B_j^T B_j enters P on the joint's rotation blocks
  double* values = problem_.P.valuePtr();
  const double dt = model_.dt;
  for (int j = 0; j < model_.num_bending(); ++j) {
    const Eigen::Matrix<double, 2, 3>& rate_map = rate_maps_[j];
    const Mat3 w = (dt * dt * model_.stiffness[j] + dt * model_.damping[j]) / mass_scale_ *
                   (rate_map.transpose() * rate_map);
    for (int block = 0; block < 4; ++block) {
      const bool diagonal = block == 0 || block == 3;  // on the mass blocks fill_objective wrote
      for (int k = 0; k < 9; ++k) {
        const int slot = spring_slots_[36 * j + 9 * block + k];
        if (slot >= 0) values[slot] = diagonal ? values[slot] + w(k / 3, k % 3) : -w(k / 3, k % 3);
      }
    }
  }
}

int Vine3dStepper::rows_per_point() const {
  return model_.friction > 0.0 ? 4 : 1;
}

void Vine3dStepper::build_contact_pattern() {
  // compressed columns written directly: row r holds the 6 columns of its pair's body, so column
  // 6 b + l holds the rows of body b's pairs, in row order
  const int rows_per_pair = 3 * rows_per_point();
  const int rows = rows_per_pair * static_cast<int>(pairs_.size());
  SparseMatrix& a_in = problem_.A_in;
  a_in.resize(rows, model_.num_dofs());
  a_in.resizeNonZeros(6 * rows);
  int* outer = a_in.outerIndexPtr();
  for (const Pair& pair : pairs_)
    for (int l = 0; l < 6; ++l) outer[6 * pair.body + l + 1] += rows_per_pair;
  for (int c = 0; c < model_.num_dofs(); ++c) outer[c + 1] += outer[c];
  next_slot_.assign(outer, outer + model_.num_dofs());
  contact_slots_.resize(6 * rows);
  for (int r = 0; r < rows; ++r)
    for (int l = 0; l < 6; ++l) {
      const int slot = next_slot_[6 * pairs_[r / rows_per_pair].body + l]++;
      a_in.innerIndexPtr()[slot] = r;
      contact_slots_[6 * r + l] = slot;
    }
  std::fill(a_in.valuePtr(), a_in.valuePtr() + 6 * rows, 0.0);  // fill_contact_rows writes them
  problem_.b_in.setZero(rows);
}

double Vine3dStepper::select_pairs(const Vine3dState& state) {
  double min_distance = std::numeric_limits<double>::infinity();
  previous_pairs_.swap(pairs_);  // both keep their storage from step to step
  pairs_.clear();
  const std::vector<Pair>& previous = previous_pairs_;
  Vec3 normal;
  for (int b = 0; b < model_.num_bodies; ++b) {
    const Vec3 axis = state.orientation[b] * Vec3::UnitX();
    const double d = model_.half_length[b];
    // the grid's candidates: obstacles whose boxes meet the body's box grown by r_c + reach
    const Vec3 half = (d * axis).cwiseAbs().array() + model_.contact_radius + reach_(b);
    candidates_.clear();
    grid_.query(state.position[b] - half, state.position[b] + half, candidates_);
    for (const int o : candidates_) {
      const Obstacle3& obstacle = model_.obstacles[o];
      // sd is 1-Lipschitz: no point of the body is nearer than sd(centre) - d
      if (signed_distance(obstacle, state.position[b], normal) - d - model_.contact_radius >
          reach_(b))
        continue;
      double distance = 0.0;
      const double offset = closest_offset(obstacle, state.position[b], axis, d, distance);
      min_distance = std::min(min_distance, distance - model_.contact_radius);
      if (distance - model_.contact_radius <= reach_(b)) pairs_.push_back({{b, o}, offset});
    }
  }
  if (pairs_ == previous) return min_distance;
  const auto same_body = [](const Pair& x, const Pair& y) { return x.body == y.body; };
  if (pairs_.size() != previous.size() ||
      !std::equal(pairs_.begin(), pairs_.end(), previous.begin(), same_body))
    build_contact_pattern();  // the rows' bodies changed
  carry_warm_start(previous);
  return min_distance;
}

void Vine3dStepper::carry_warm_start(const std::vector<Pair>& previous) {
  const std::vector<char> old = solver_.warm_start();
  const int rows_per_pair = 3 * rows_per_point();
  std::vector<char> active(rows_per_pair * pairs_.size(), 0);
  if (old.size() == rows_per_pair * previous.size()) {
    // both lists are in (body, obstacle) order: one merge finds the pairs that stay
    std::size_t q = 0;
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
      while (q < previous.size() && previous[q] < pairs_[p]) ++q;
      if (q < previous.size() && previous[q] == pairs_[p])
        std::copy_n(old.begin() + rows_per_pair * q, rows_per_pair,
                    active.begin() + rows_per_pair * p);
    }
  }
  solver_.set_warm_start(std::move(active));
}

double Vine3dStepper::body_motion(const VecX& velocity, int body) const {
  return model_.dt * (velocity.segment<3>(6 * body).norm() +
                      model_.half_length[body] * velocity.segment<3>(6 * body + 3).norm());
}

void Vine3dStepper::set_contact_row(int row, const Vec3& direction, const Vec3& arm, double rhs) {
  double* values = problem_.A_in.valuePtr();
  for (int l = 0; l < 3; ++l) values[contact_slots_[6 * row + l]] = direction(l);
  const Vec3 moment = arm.cross(direction);
  for (int l = 0; l < 3; ++l) values[contact_slots_[6 * row + 3 + l]] = moment(l);
  problem_.b_in(row) = rhs;
}

void Vine3dStepper::set_contact_point_rows(int first_row, const Obstacle3& obstacle,
                                           const Vec3& point, const Vec3& arm) {
  std::array<Vec3, 4> directions;
  int count = 0;
  const double phi = contact_directions(obstacle, point, model_.contact_radius, model_.friction,
                                        model_.contact_gap, directions, count);
  for (int k = 0; k < rows_per_point(); ++k) {
    if (k < count)
      set_contact_row(first_row + k, directions[k], arm, -phi / model_.dt);
    else
      set_contact_row(first_row + k, Vec3::Zero(), arm, -1.0);  // 0 >= -1: never binds
  }
}

void Vine3dStepper::fill_contact_rows(const Vine3dState& state) {
  const int rows = rows_per_point();
  for (int p = 0; p < static_cast<int>(pairs_.size()); ++p) {
    const int b = pairs_[p].body;
    const Obstacle3& obstacle = model_.obstacles[pairs_[p].obstacle];
    const Vec3 axis = state.orientation[b] * Vec3::UnitX();
    const double d = model_.half_length[b];
    const double closest = pairs_[p].offset;  // select_pairs' closest point, at the same q_k
    const double offsets[3] = {closest, -d, d};
    // a closest point at an end is left to that end's rows (so that a body lying on a plane keeps
    // its contacts in the same rows whichever end is nearer, and a warm start stays valid)
    const bool closest_at_end = d - std::abs(closest) <= 1e-9 * d;
    for (int k = 0; k < 3; ++k) {
      const int first_row = (3 * p + k) * rows;
      const Vec3 arm = offsets[k] * axis;
      const bool base_end = b == 0 && std::abs(offsets[k] + d) <= 1e-9 * d;
      if ((k == 0 && closest_at_end) || base_end) {
        // the closest point at an end, or body 0's proximal end (the base, held by its joint:
        // contact rows there would only repeat the joint rows): rows 0 >= -1 that never bind
        for (int r = 0; r < rows; ++r) set_contact_row(first_row + r, Vec3::Zero(), arm, -1.0);
        continue;
      }
      set_contact_point_rows(first_row, obstacle, Vec3(state.position[b] + arm), arm);
    }
  }
}

Vine3dWarmStart Vine3dStepper::warm_start() const {
  return {std::vector<ContactPair>(pairs_.begin(), pairs_.end()), solver_.warm_start()};
}

void Vine3dStepper::set_warm_start(const Vine3dWarmStart& warm_start) {
  const std::vector<ContactPair>& pairs = warm_start.pairs;
  const int bodies = model_.num_bodies, obstacles = static_cast<int>(model_.obstacles.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (pairs[p].body < 0 || pairs[p].body >= bodies || pairs[p].obstacle < 0 ||
        pairs[p].obstacle >= obstacles || (p > 0 && !(pairs[p - 1] < pairs[p])))
      throw InputError(fmt::format("warm_start.pairs[{}]", p),
                       fmt::format("(body {}, obstacle {})", pairs[p].body, pairs[p].obstacle),
                       fmt::format("bodies 0 to {} and obstacles 0 to {}, in (body, obstacle) "
                                   "order without repeats",
                                   bodies - 1, obstacles - 1));
  }
  const std::size_t rows = 3 * rows_per_point() * pairs.size();
  if (!warm_start.active.empty() && warm_start.active.size() != rows)
    throw InputError("warm_start.active", fmt::format("{} flags", warm_start.active.size()),
                     fmt::format("none or {} (the rows of {} pairs)", rows, pairs.size()));
  pairs_.clear();
  for (const ContactPair& p : pairs) pairs_.push_back({p});  // select_pairs sets the offsets
  build_contact_pattern();
  if (warm_start.active.empty())
    solver_.reset_warm_start();
  else
    solver_.set_warm_start(warm_start.active);
}

int Vine3dStepper::max_inequality_rows() const {
  return 3 * rows_per_point() * model_.num_bodies * static_cast<int>(model_.obstacles.size());
}

void Vine3dStepper::steer(double time) {
  for (std::size_t k = 0; k < model_.steering.size(); ++k) {
    const double angle = model_.steering[k](time);
    if (!std::isfinite(angle))
      throw InputError(fmt::format("vine3d.steering (bending joint {}, {})", k / 2,
                                   k % 2 == 0 ? "about y" : "about z"),
                       fmt::format("{} at t = {} s", angle, time), "finite rest bends [rad]");
    model_.rest_bend[k / 2](static_cast<int>(k % 2)) = angle;
  }
}

VecX Vine3dStepper::joint_growth_rates(double time) const {
  const int np = model_.num_prismatic();
  VecX rates = VecX::Zero(np);
  if (np == 0) return rates;
  const double u = model_.growth.rate(time);
  if (model_.growth_mode == GrowthMode::uniform)
    rates.setConstant(u / np);
  else
    rates(np - 1) = u;
  return rates;
}

RowBodies Vine3dStepper::row_bodies(const JointRow& row, const Vine3dState& state) const {
  RowBodies b;
  if (row.body_a >= 0) {
    b.p_a = state.position[row.body_a];
    b.r_a = state.orientation[row.body_a];
    b.velocity.head<6>() = state.velocity.segment<6>(6 * row.body_a);
  } else {
    b.p_a = model_.base;
    b.r_a = model_.base_frame;
  }
  b.p_b = state.position[row.body_b];
  b.r_b = state.orientation[row.body_b];
  b.velocity.tail<6>() = state.velocity.segment<6>(6 * row.body_b);
  return b;
}

VecX Vine3dStepper::joint_errors(const Vine3dState& state) const {
  const int joint_rows = static_cast<int>(rows_.size()) - model_.num_prismatic();
  VecX c(joint_rows);
  VecN<12> a;
  double rhs = 0.0;
  for (int r = 0; r < joint_rows; ++r)
    c(r) = evaluate_row(rows_[r], row_bodies(rows_[r], state), model_.dt, model_.growth_lookahead,
                        a, rhs);
  return c;
}

void Vine3dStepper::fill_objective(const Vine3dState& state, const VecX& joint_rates) {
  double* values = problem_.P.valuePtr();
  const VecX& v = state.velocity;
  VecX momentum(model_.num_dofs());
  for (int i = 0; i < model_.num_bodies; ++i) {
    const Mat3 inertia = start_inertia_[i] = world_inertia(model_, state, i);
    // eversion: the tip body gains lambda Delta t u at rest, so P holds its mass after the step
    // and the momentum its mass before (M_{k+1} V_{k+1} = M_k V_k + Delta t F + impulses)
    const double mass = start_mass_[i] = body_mass(model_, state, i);
    const double gained =
        i == model_.num_bodies - 1
            ? std::max(0.0, model_.everted_density * model_.dt * joint_rates.sum())
            : 0.0;
    const double next = (mass + gained) / mass_scale_;
    for (int a = 0; a < 3; ++a) values[mass_slots_[36 * i + 7 * a]] = next;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        values[mass_slots_[36 * i + 6 * (a + 3) + b + 3]] = inertia(a, b) * next / mass;
    momentum.segment<3>(6 * i) = mass * v.segment<3>(6 * i);
    momentum.segment<3>(6 * i + 3) = inertia * v.segment<3>(6 * i + 3);
  }
  // implicit springs: the springs' force at q_k here, their Delta t V part and the dampers in P
  const bool implicit = model_.springs == SpringIntegration::implicit;
  applied_forces(model_, state, v, force_, !implicit, &rate_maps_);
  if (implicit) add_implicit_springs();
  problem_.c = -(momentum + model_.dt * force_) / mass_scale_;
}

double Vine3dStepper::fill_rows(const Vine3dState& state, const VecX& joint_rates) {
  double* values = problem_.A_eq.valuePtr();
  const int first_growth = static_cast<int>(rows_.size()) - model_.num_prismatic();
  double joint_error = 0.0;
  // the rows of a joint share their two bodies: their poses and rotation matrices are taken once
  for (int i = 0; i < model_.num_bodies; ++i)
    rotation_[i] = state.orientation[i].toRotationMatrix();
  VecN<12> a;
  RowBodies bodies;
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
    const JointRow& row = rows_[r];
    if (r == 0 || row.body_a != rows_[r - 1].body_a || row.body_b != rows_[r - 1].body_b)
      bodies = row_bodies(row, state);
    const Mat3& ra = row.body_a < 0 ? base_rotation_ : rotation_[row.body_a];
    const double c = evaluate_row(row, bodies, ra, rotation_[row.body_b], model_.dt,
                                  model_.growth_lookahead, a, problem_.b_eq(r));
    if (row.kind == JointRowKind::position || row.kind == JointRowKind::lateral)
      joint_error = std::max(joint_error, std::abs(c));
    if (r >= first_growth) problem_.b_eq(r) += joint_rates(r - first_growth);
    for (int l = 0; l < 12; ++l)
      if (row_slots_[12 * r + l] >= 0) values[row_slots_[12 * r + l]] = a(l);
  }
  return joint_error;
}

void Vine3dStepper::check_state(const Vine3dState& state, const VecX& joint_rates) const {
  const int nb = model_.num_bodies;
  if (static_cast<int>(state.position.size()) != nb ||
      static_cast<int>(state.orientation.size()) != nb || state.velocity.size() != 6 * nb)
    throw InputError(
        "state",
        fmt::format("{} positions, {} orientations, {} velocities", state.position.size(),
                    state.orientation.size(), state.velocity.size()),
        fmt::format("{} positions and orientations, {} velocities", nb, 6 * nb));
  bool finite = state.velocity.allFinite();
  for (int i = 0; i < nb; ++i)
    finite = finite && state.position[i].allFinite() &&
             std::abs(state.orientation[i].norm() - 1.0) < 1e-9;
  if (!finite)
    throw InputError("state", "a non-finite position or velocity or a non-unit orientation",
                     "finite positions and velocities, unit quaternions");
  if (joint_rates.size() != model_.num_prismatic() || !joint_rates.allFinite())
    throw InputError(
        "joint_rates", fmt::format("{} values", joint_rates.size()),
        fmt::format("{} finite values (one per prismatic joint)", model_.num_prismatic()));
}

double Vine3dStepper::growth_rate(const VecX& velocity) const {
  // sum_j G_bar_j V over the growth rows (the last #prismatic rows)
  const double* values = problem_.A_eq.valuePtr();
  double rate = 0.0;
  for (int r = static_cast<int>(rows_.size()) - model_.num_prismatic();
       r < static_cast<int>(rows_.size()); ++r)
    for (int l = 0; l < 12; ++l)
      if (row_slots_[12 * r + l] >= 0)
        rate += values[row_slots_[12 * r + l]] * velocity[row_column(rows_[r], l)];
  return rate;
}

double Vine3dStepper::kinetic_energy(const VecX& velocity) const {
  double twice = 0.0;
  for (int i = 0; i < model_.num_bodies; ++i) {
    const Vec3 omega = velocity.segment<3>(6 * i + 3);
    twice += start_mass_[i] * velocity.segment<3>(6 * i).squaredNorm() +
             omega.dot(start_inertia_[i] * omega);
  }
  return 0.5 * twice;
}

Vine3dStepReport Vine3dStepper::step(Vine3dState& state) {
  rates_ = joint_growth_rates(state.time);
  return step(state, rates_);
}

Vine3dStepReport Vine3dStepper::step(Vine3dState& state, const VecX& joint_rates) {
  check_state(state, joint_rates);
  start_ = state;
  start_rates_ = joint_rates;
  steer(state.time);
  fill_objective(state, joint_rates);
  Vine3dStepReport report;
  report.joint_error = fill_rows(state, joint_rates);
  // pairs near contact get rows; if the solution moves a body farther than its reach, pairs beyond
  // it could be violated: widen the reach and solve again (as the planar stepper)
  for (int b = 0; b < model_.num_bodies; ++b)
    reach_(b) = std::max(model_.contact_radius, 3.0 * body_motion(state.velocity, b));
  for (int round = 0; round < 4; ++round) {
    report.min_distance = select_pairs(state);
    fill_contact_rows(state);
    if (!problem_.all_finite())
      return report;  // numerical failure: a state or parameters that overflow
    solver_.solve(problem_, solution_);
    report.status = solution_.status;
    report.qp_iterations += solution_.iterations;
    report.kkt_residual = solution_.kkt_residual;
    if (solution_.status != qp::QpStatus::solved) return report;
    bool widened = false;
    for (int b = 0; b < model_.num_bodies && !model_.obstacles.empty(); ++b) {
      const double moved = body_motion(solution_.x, b);
      if (moved > reach_(b)) {
        reach_(b) = 2.0 * moved;
        widened = true;
      }
    }
    if (!widened) break;
    if (round == 3) {
      report.status = qp::QpStatus::max_iterations;
      return report;
    }
  }
  report.growth_rate = growth_rate(solution_.x);
  report.kinetic_energy = kinetic_energy(solution_.x);
  report.active_contacts = static_cast<int>((solution_.z_in.array() > 0.0).count());
  if (report.joint_error > model_.max_joint_error) {
    report.failure = Vine3dFailure::joint_drift;
    return report;
  }
  // semi-implicit Euler (eq. 10) on R^3 x SO(3)
  state.velocity = solution_.x;
  for (int i = 0; i < model_.num_bodies; ++i) {
    state.position[i] += model_.dt * state.velocity.segment<3>(6 * i);
    state.orientation[i] =
        (rotation_exp(model_.dt * state.velocity.segment<3>(6 * i + 3)) * state.orientation[i])
            .normalized();
  }
  state.time += model_.dt;
  return report;
}

}  // namespace tendril::vine3d
