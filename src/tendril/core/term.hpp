#pragma once
/// The two kinds of physical term (ARCHITECTURE principle 3):
/// - Energy: conservative, gives value, gradient and Hessian of E(q).
/// - ForceTerm: velocity- or time-dependent, gives F(q, u, t) and its Jacobians.
/// The integrator combines them; nothing dissipative pretends to be an energy.

#include <string_view>

#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"

namespace tendril {

struct Kinematics;  // geometry/kinematics.hpp: per-evaluation quantities derived from q

/// What a term may read when it is evaluated at a trial configuration.
struct EvalInput {
  const Model& model;
  const VecX& q;            ///< trial DOFs
  const VecX& u;            ///< trial velocities (used by ForceTerm only)
  double time;              ///< t [s] of the trial configuration
  const Kinematics& kin;    ///< frames, tangents, curvatures at q
};

/// Where an Energy adds its contributions; null members are not requested.
struct EnergyOutput {
  double energy = 0.0;                  ///< E [J], accumulated
  VecX* gradient = nullptr;             ///< dE/dq, accumulated (#dofs)
  HessianAssembler* hessian = nullptr;  ///< d2E/dq2, accumulated
};

/// Where a ForceTerm adds its contributions; null members are not requested.
/// The Jacobian receives dq_scale * dF/dq + du_scale * dF/du, so the integrator can fold in
/// du/dq of its scheme (1/dt for implicit Euler) and tests can check each part alone.
struct ForceOutput {
  VecX* force = nullptr;                 ///< F, accumulated (#dofs) [N] / [N m]
  HessianAssembler* jacobian = nullptr;  ///< dq_scale dF/dq + du_scale dF/du, accumulated
  double dq_scale = 1.0;
  double du_scale = 0.0;
};

class Energy {
 public:
  virtual ~Energy() = default;
  virtual std::string_view name() const = 0;
  /// Declares the DOF sets of all stencils (once per topology, and again after update_stencils()
  /// returned true).
  virtual void declare_sparsity(const Model& model, SparsityBuilder& pattern) const = 0;
  virtual void accumulate(const EvalInput& in, EnergyOutput& out) const = 0;
  /// True for the potential of an external load (gravity, buoyancy): a static solve ramps these
  /// terms with the load factor during load stepping; internal (elastic) energies are never ramped.
  virtual bool is_external_load() const { return false; }
  /// Changing stencils (contact pairs from a broad phase): updates the term's set of stencils for
  /// the accepted state `state` and returns true if the set changed; declare_sparsity() must then
  /// declare the new set, and the solver rebuilds its pattern, free-DOF map, ordering and solver
  /// choice (NewtonSystem::update_stencils). The solvers call it once before every time (sub)step and
  /// static solve, never within a Newton solve, so the pattern is fixed while Newton runs: the set
  /// must cover every entry accumulate() adds during the step (grow the search radius by what a
  /// step can move). The solvers see terms as const; a term with a changing set keeps it in mutable
  /// members (a cache derived from the state, like a broad phase's buffers). Default: a fixed set.
  /// docs/physics/time_integration.md, "Changing sparsity".
  virtual bool update_stencils(const Model& /*model*/, const State& /*state*/) const { return false; }
  /// Continuous collision check: the largest a in [0, 1] such that the configurations q + a' dq,
  /// a' in [0, a], are admissible for this term (no rod edge passes through another). The Newton
  /// line search starts from the smallest of these over all terms, so every accepted iterate is
  /// reached by a collision-free straight path. Default: 1 (no restriction).
  virtual double max_step_fraction(const Model& /*model*/, const VecX& /*q*/, const VecX& /*dq*/) const { return 1.0; }
};

class ForceTerm {
 public:
  virtual ~ForceTerm() = default;
  virtual std::string_view name() const = 0;
  virtual void declare_sparsity(const Model& model, SparsityBuilder& pattern) const = 0;
  virtual void accumulate(const EvalInput& in, ForceOutput& out) const = 0;
  /// True if dq_scale dF/dq + du_scale dF/du is symmetric for every pair of scales (a linear
  /// spring, a load that does not depend on q or u). A term that is not (RFT, drag, friction,
  /// follower loads, gyroscopic forces) returns false, and the Newton system then factorizes the
  /// whole matrix instead of one triangle.
  virtual bool has_symmetric_jacobian() const { return false; }
  /// Changing stencils (contact pairs from a broad phase): updates the term's set of stencils for
  /// the accepted state `state` and returns true if the set changed; declare_sparsity() must then
  /// declare the new set, and the solver rebuilds its pattern, free-DOF map, ordering and solver
  /// choice (NewtonSystem::update_stencils). The solvers call it once before every time (sub)step and
  /// static solve, never within a Newton solve, so the pattern is fixed while Newton runs: the set
  /// must cover every entry accumulate() adds during the step (grow the search radius by what a
  /// step can move). The solvers see terms as const; a term with a changing set keeps it in mutable
  /// members (a cache derived from the state, like a broad phase's buffers). Default: a fixed set.
  /// docs/physics/time_integration.md, "Changing sparsity".
  virtual bool update_stencils(const Model& /*model*/, const State& /*state*/) const { return false; }
};

}  // namespace tendril
