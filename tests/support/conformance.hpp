#pragma once
/// Conformance suite for physical terms (ARCHITECTURE principle 4), header-only, GoogleTest.
///
/// Every check takes the Model, the accepted reference frames (as after a step; they need NOT be
/// the frames at q, which is the Newton trial-point situation) and the configuration q:
///
///   using namespace tendril::conformance;
///   expect_energy_conforms(term, model, frames, q);        // gradient + Hessian vs central FD,
///   symmetry expect_zero_at_rest(term, model, frames0, q_rest);      // E = 0 and dE/dq = 0 at the
///   rest state expect_rigid_motion_invariance(term, model, frames, q); // E and rotated gradient
///   under x -> R x + b expect_force_conforms(force, model, frames, q, u, t);   // dF/dq and dF/du
///   vs central FD
///
/// Helpers: random_rotation(seed), perturbed(model, q, position_scale, twist_scale, seed) for
/// seeded trial points, and evaluate_energy / evaluate_force for hand-computed values. The Hessian
/// is assembled through the term's own declare_stencils + HessianAssembler, so a missing pattern
/// entry aborts. A term with a workspace (core/term_workspace.hpp: contact candidates) is evaluated
/// with the one given (`workspace`, after update_stencils) or with a new one of its own.
///
/// Error measure (robust to scale): ||analytic - fd|| <= tol * max(floor, ||analytic||, ||fd||),
/// with the Frobenius / Euclidean norm of the whole vector or matrix; Hessians are also checked
/// entry by entry against sqrt(|H_ii| |H_jj|), the scale of the entry's own row and column.
/// Defaults suit O(1) geometry and stiffness; pass a Tolerances to change them. The FD step is
/// absolute in q units [m] / [rad].

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::conformance {

struct Tolerances {
  double step = 1e-6;        ///< central-difference step h in q units
  double gradient = 1e-6;    ///< relative tolerance of gradients / forces
  double hessian = 1e-5;     ///< relative tolerance of Hessians / Jacobians
  double symmetry = 1e-12;   ///< relative tolerance of H - H^T
  double floor = 1e-8;       ///< absolute floor of the error scale
  double rest = 1e-10;       ///< |E| and ||dE/dq|| allowed at rest (absolute)
  double invariance = 1e-9;  ///< relative tolerance of the rigid-motion checks
};

/// Energy, gradient and dense Hessian of one term at q (kinematics from `accepted`).
struct EnergyEval {
  double energy = 0.0;
  VecX gradient;
  MatX hessian;
};

inline EnergyEval evaluate_energy(const Energy& term, const Model& model, const RodFrames& accepted,
                                  const VecX& q, bool with_hessian = true,
                                  TermWorkspace* workspace = nullptr) {
  Kinematics kin;
  compute_kinematics(model, accepted, q, kin);
  const VecX u = VecX::Zero(q.size());
  const std::unique_ptr<TermWorkspace> own = workspace ? nullptr : term.make_workspace(model);
  EvalInput in{model, q, u, 0.0, kin};
  in.workspace = workspace ? workspace : own.get();
  EnergyEval result;
  result.gradient = VecX::Zero(q.size());
  SparsityBuilder pattern(static_cast<int>(q.size()));
  HessianAssembler hessian;
  EnergyOutput out;
  out.gradient = &result.gradient;
  if (with_hessian) {
    term.declare_stencils(model, in.workspace, pattern);
    hessian = HessianAssembler(pattern.build());
    out.hessian = &hessian;
  }
  term.accumulate(in, out);
  result.energy = out.energy;
  if (with_hessian) result.hessian = MatX(hessian.matrix());
  return result;
}

/// Force and dense Jacobian (dq_scale dF/dq + du_scale dF/du) of one term.
struct ForceEval {
  VecX force;
  MatX jacobian;
};

inline ForceEval evaluate_force(const ForceTerm& term, const Model& model,
                                const RodFrames& accepted, const VecX& q, const VecX& u,
                                double time, double dq_scale = 1.0, double du_scale = 0.0,
                                bool with_jacobian = true, TermWorkspace* workspace = nullptr) {
  Kinematics kin;
  compute_kinematics(model, accepted, q, kin);
  const std::unique_ptr<TermWorkspace> own = workspace ? nullptr : term.make_workspace(model);
  EvalInput in{model, q, u, time, kin};
  in.workspace = workspace ? workspace : own.get();
  ForceEval result;
  result.force = VecX::Zero(q.size());
  SparsityBuilder pattern(static_cast<int>(q.size()));
  HessianAssembler jacobian;
  ForceOutput out;
  out.force = &result.force;
  out.dq_scale = dq_scale;
  out.du_scale = du_scale;
  if (with_jacobian) {
    term.declare_stencils(model, in.workspace, pattern);
    jacobian = HessianAssembler(pattern.build());
    out.jacobian = &jacobian;
  }
  term.accumulate(in, out);
  if (with_jacobian) result.jacobian = MatX(jacobian.matrix());
  return result;
}

/// ||analytic - fd|| / max(floor, ||analytic||, ||fd||).
template <class A, class B>
double relative_error(const A& analytic, const B& fd, double floor) {
  const double scale = std::max({floor, analytic.norm(), fd.norm()});
  return (analytic - fd).norm() / scale;
}

/// A uniformly random rotation (fixed seed).
inline Mat3 random_rotation(unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::Quaterniond quat(normal(rng), normal(rng), normal(rng), normal(rng));
  return quat.normalized().toRotationMatrix();
}

/// q with every free position moved by U(-position_scale, position_scale) [m] per component and
/// every twist by U(-twist_scale, twist_scale) [rad] (fixed seed).
inline VecX perturbed(const Model& model, const VecX& q, double position_scale, double twist_scale,
                      unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  VecX out = q;
  const int num_positions = 3 * model.dofs.num_nodes;
  for (int i = 0; i < num_positions; ++i) out[i] += position_scale * unit(rng);
  for (int i = num_positions; i < model.dofs.size(); ++i) out[i] += twist_scale * unit(rng);
  return out;
}

/// Gradient vs central differences of E, Hessian vs central differences of the gradient, Hessian
/// symmetry.
inline void expect_energy_conforms(const Energy& term, const Model& model,
                                   const RodFrames& accepted, const VecX& q,
                                   const Tolerances& tol = {}, TermWorkspace* workspace = nullptr) {
  SCOPED_TRACE(std::string("energy term ") + std::string(term.name()));
  const EnergyEval at = evaluate_energy(term, model, accepted, q, true, workspace);
  ASSERT_TRUE(std::isfinite(at.energy));
  const auto n = q.size();
  VecX gradient_fd(n);
  MatX hessian_fd(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    VecX plus = q, minus = q;
    plus[i] += tol.step;
    minus[i] -= tol.step;
    const EnergyEval ep = evaluate_energy(term, model, accepted, plus, false);
    const EnergyEval em = evaluate_energy(term, model, accepted, minus, false);
    gradient_fd[i] = (ep.energy - em.energy) / (2.0 * tol.step);
    hessian_fd.col(i) = (ep.gradient - em.gradient) / (2.0 * tol.step);
  }
  EXPECT_LE(relative_error(at.gradient, gradient_fd, tol.floor), tol.gradient)
      << "gradient\nanalytic:\n"
      << at.gradient.transpose() << "\nfd:\n"
      << gradient_fd.transpose();
  EXPECT_LE(relative_error(at.hessian, hessian_fd, tol.floor), tol.hessian)
      << "Hessian, largest entry error " << (at.hessian - hessian_fd).cwiseAbs().maxCoeff();
  // entry by entry on the scale of its own row and column, so an error in a weak block (twist
  // against position) cannot hide behind a stiff one (stretching) in the whole-matrix norm; plus
  // the round-off of the central differences of the gradient
  const double fd_noise =
      1e2 * std::numeric_limits<double>::epsilon() * at.gradient.cwiseAbs().maxCoeff() / tol.step;
  double worst = 0.0;  // largest error relative to the allowed error
  Eigen::Index worst_i = 0, worst_j = 0;
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      const double scale =
          std::max(tol.floor, std::sqrt(std::abs(at.hessian(i, i)) * std::abs(at.hessian(j, j))));
      const double ratio =
          std::abs(at.hessian(i, j) - hessian_fd(i, j)) / (tol.hessian * scale + fd_noise);
      if (ratio > worst) worst = ratio, worst_i = i, worst_j = j;
    }
  EXPECT_LE(worst, 1.0) << "Hessian entry (" << worst_i << ", " << worst_j << "): analytic "
                        << at.hessian(worst_i, worst_j) << ", fd " << hessian_fd(worst_i, worst_j);
  EXPECT_LE((at.hessian - at.hessian.transpose()).norm(),
            tol.symmetry * std::max(tol.floor, at.hessian.norm()))
      << "Hessian is not symmetric: " << (at.hessian - at.hessian.transpose()).norm() << " vs "
      << at.hessian.norm();
}

/// E = 0 and dE/dq = 0 at the rest state (frames initialised there).
inline void expect_zero_at_rest(const Energy& term, const Model& model,
                                const RodFrames& rest_frames, const VecX& q_rest,
                                const Tolerances& tol = {}) {
  SCOPED_TRACE(std::string("energy term ") + std::string(term.name()));
  const EnergyEval at = evaluate_energy(term, model, rest_frames, q_rest, false);
  EXPECT_LE(std::abs(at.energy), tol.rest);
  EXPECT_LE(at.gradient.norm(), tol.rest) << at.gradient.transpose();
}

/// Moves positions by x -> R x + b and rotates the accepted frames alike: the energy must not
/// change and the gradient must rotate with the positions (twist and xi entries unchanged).
inline void expect_rigid_motion_invariance(const Energy& term, const Model& model,
                                           const RodFrames& accepted, const VecX& q,
                                           unsigned seed = 7, const Tolerances& tol = {}) {
  SCOPED_TRACE(std::string("energy term ") + std::string(term.name()));
  const Mat3 rotation = random_rotation(seed);
  const Vec3 shift(0.3, -1.7, 2.2);
  VecX moved = q;
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    moved.segment<3>(model.dofs.node(i)) = rotation * q.segment<3>(model.dofs.node(i)) + shift;
  RodFrames moved_frames = accepted;
  for (auto& t : moved_frames.tangent) t = rotation * t;
  for (auto& a : moved_frames.reference_director) a = rotation * a;
  for (auto& tau : moved_frames.shell_edge_tau) tau = rotation * tau;
  const EnergyEval before = evaluate_energy(term, model, accepted, q, false);
  const EnergyEval after = evaluate_energy(term, model, moved_frames, moved, false);
  EXPECT_NEAR(after.energy, before.energy,
              tol.invariance * std::max(tol.floor, std::abs(before.energy)));
  VecX expected = before.gradient;
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    expected.segment<3>(model.dofs.node(i)) =
        rotation * before.gradient.segment<3>(model.dofs.node(i));
  EXPECT_LE(relative_error(after.gradient, expected, tol.floor), tol.invariance);
}

/// dF/dq (dq_scale = 1, du_scale = 0) and dF/du (dq_scale = 0, du_scale = 1) vs central differences
/// of F.
inline void expect_force_conforms(const ForceTerm& term, const Model& model,
                                  const RodFrames& accepted, const VecX& q, const VecX& u,
                                  double time, const Tolerances& tol = {},
                                  TermWorkspace* workspace = nullptr) {
  SCOPED_TRACE(std::string("force term ") + std::string(term.name()));
  const ForceEval dq = evaluate_force(term, model, accepted, q, u, time, 1.0, 0.0, true, workspace);
  const ForceEval du = evaluate_force(term, model, accepted, q, u, time, 0.0, 1.0, true, workspace);
  ASSERT_TRUE(dq.force.allFinite());
  const auto n = q.size();
  MatX dq_fd(n, n), du_fd(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    VecX plus = q, minus = q;
    plus[i] += tol.step;
    minus[i] -= tol.step;
    dq_fd.col(i) = (evaluate_force(term, model, accepted, plus, u, time, 1, 0, false).force -
                    evaluate_force(term, model, accepted, minus, u, time, 1, 0, false).force) /
                   (2.0 * tol.step);
    VecX u_plus = u, u_minus = u;
    u_plus[i] += tol.step;
    u_minus[i] -= tol.step;
    du_fd.col(i) = (evaluate_force(term, model, accepted, q, u_plus, time, 1, 0, false).force -
                    evaluate_force(term, model, accepted, q, u_minus, time, 1, 0, false).force) /
                   (2.0 * tol.step);
  }
  EXPECT_LE(relative_error(dq.jacobian, dq_fd, tol.floor), tol.hessian)
      << "dF/dq, largest entry error " << (dq.jacobian - dq_fd).cwiseAbs().maxCoeff();
  EXPECT_LE(relative_error(du.jacobian, du_fd, tol.floor), tol.hessian)
      << "dF/du, largest entry error " << (du.jacobian - du_fd).cwiseAbs().maxCoeff();
}

}  // namespace tendril::conformance
