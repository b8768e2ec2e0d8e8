#pragma once
/// Test-local energies and models for the integrator tests: point masses joined by springs
/// (no rod edges, so the kinematics are empty).
///   LinearSprings:  E = 1/2 k |x_i - x_j - r|^2  (r a rest offset; j = -1 means the origin),
///                   linear forces, so Newton converges in one step and closed forms are exact;
///   ElasticSprings: E = 1/2 k (|x_i - x_j| - L)^2 (j = -1 means an anchor point a).

#include <memory>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::testing {

struct LinearSpring {
  int i = 0, j = -1;
  double k = 1.0;            ///< stiffness [N/m]
  Vec3 rest = Vec3::Zero();  ///< rest offset x_i - x_j [m]
};

class LinearSprings final : public Energy {
 public:
  explicit LinearSprings(std::vector<LinearSpring> springs) : springs_(std::move(springs)) {}
  std::string_view name() const override { return "linear_springs"; }
  void declare_sparsity(const Model&, SparsityBuilder& pattern) const override {
    for (const auto& s : springs_) {
      const int dofs[6] = {3 * s.i,
                           3 * s.i + 1,
                           3 * s.i + 2,
                           s.j < 0 ? -1 : 3 * s.j,
                           s.j < 0 ? -1 : 3 * s.j + 1,
                           s.j < 0 ? -1 : 3 * s.j + 2};
      pattern.add_stencil(dofs);
    }
  }
  void accumulate(const EvalInput& in, EnergyOutput& out) const override {
    for (const auto& s : springs_) {
      const Vec3 xj = s.j < 0 ? Vec3::Zero() : Vec3(in.q.segment<3>(3 * s.j));
      const Vec3 d = in.q.segment<3>(3 * s.i) - xj - s.rest;
      out.energy += 0.5 * s.k * d.squaredNorm();
      if (out.gradient) {
        out.gradient->segment<3>(3 * s.i) += s.k * d;
        if (s.j >= 0) out.gradient->segment<3>(3 * s.j) -= s.k * d;
      }
      if (out.hessian) {
        const int dofs[6] = {3 * s.i,
                             3 * s.i + 1,
                             3 * s.i + 2,
                             s.j < 0 ? -1 : 3 * s.j,
                             s.j < 0 ? -1 : 3 * s.j + 1,
                             s.j < 0 ? -1 : 3 * s.j + 2};
        MatN<6> h;
        h << s.k * Mat3::Identity(), -s.k * Mat3::Identity(), -s.k * Mat3::Identity(),
            s.k * Mat3::Identity();
        out.hessian->add(dofs, h);
      }
    }
  }

 private:
  std::vector<LinearSpring> springs_;
};

struct ElasticSpring {
  int i = 0, j = -1;
  double k = 1.0;              ///< stiffness [N/m]
  double rest_length = 1.0;    ///< L [m]
  Vec3 anchor = Vec3::Zero();  ///< used when j = -1 [m]
};

class ElasticSprings final : public Energy {
 public:
  explicit ElasticSprings(std::vector<ElasticSpring> springs) : springs_(std::move(springs)) {}
  std::string_view name() const override { return "elastic_springs"; }
  void declare_sparsity(const Model&, SparsityBuilder& pattern) const override {
    for (const auto& s : springs_) pattern.add_stencil(dofs(s));
  }
  void accumulate(const EvalInput& in, EnergyOutput& out) const override {
    for (const auto& s : springs_) {
      const Vec3 xj = s.j < 0 ? s.anchor : Vec3(in.q.segment<3>(3 * s.j));
      const Vec3 d = in.q.segment<3>(3 * s.i) - xj;
      const double l = d.norm();
      out.energy += 0.5 * s.k * (l - s.rest_length) * (l - s.rest_length);
      const Vec3 g = s.k * (l - s.rest_length) / l * d;
      if (out.gradient) {
        out.gradient->segment<3>(3 * s.i) += g;
        if (s.j >= 0) out.gradient->segment<3>(3 * s.j) -= g;
      }
      if (out.hessian) {
        const Mat3 nn = d * d.transpose() / (l * l);
        const Mat3 h3 = s.k * (nn + (1.0 - s.rest_length / l) * (Mat3::Identity() - nn));
        MatN<6> h;
        h << h3, -h3, -h3, h3;
        out.hessian->add(dofs(s), h);
      }
    }
  }

 private:
  static std::array<int, 6> dofs(const ElasticSpring& s) {
    return {3 * s.i,
            3 * s.i + 1,
            3 * s.i + 2,
            s.j < 0 ? -1 : 3 * s.j,
            s.j < 0 ? -1 : 3 * s.j + 1,
            s.j < 0 ? -1 : 3 * s.j + 2};
  }
  std::vector<ElasticSpring> springs_;
};

/// N point masses (no edges) at `positions` (3N) with mass m [kg] each, all DOFs free.
inline Model make_particles(const VecX& positions, double m) {
  Model model;
  model.dofs.num_nodes = static_cast<int>(positions.size() / 3);
  model.rest_positions = positions;
  model.mass = VecX::Constant(positions.size(), m);
  model.fixed.assign(positions.size(), 0);
  return model;
}

/// The state at rest at `positions` with velocities u.
inline State make_state(const Model& model, const VecX& positions, const VecX& u) {
  State state;
  state.q = positions;
  state.u = u;
  initialize_frames(model, state.q, state.frames);
  return state;
}

}  // namespace tendril::testing
