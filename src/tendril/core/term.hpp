#pragma once
/// The two kinds of physical term (ARCHITECTURE principle 3):
/// - Energy: conservative, gives value, gradient and Hessian of E(q).
/// - ForceTerm: velocity- or time-dependent, gives F(q, u, t) and its Jacobians.
/// The integrator combines them; nothing dissipative pretends to be an energy.

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/term_workspace.hpp"

namespace tendril {

struct Kinematics;  // geometry/kinematics.hpp: per-evaluation quantities derived from q

/// What a term may read when it is evaluated at a trial configuration.
struct EvalInput {
  const Model& model;
  const VecX& q;          ///< trial DOFs
  const VecX& u;          ///< trial velocities (used by ForceTerm only)
  double time;            ///< t [s] of the trial configuration
  const Kinematics& kin;  ///< frames, tangents, curvatures at q
  /// True if prepare() has run on every element of every term with element_count() > 0 at this
  /// input: accumulate() then adds the element values stored in `workspace` instead of computing
  /// them.
  bool prepared = false;
  /// The evaluated term's workspace (its make_workspace(), owned by the evaluator), or null: a term
  /// that needs one then uses a temporary one (allocating; tests, one-off evaluations).
  TermWorkspace* workspace = nullptr;
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

// Element-parallel evaluation (docs/physics/time_integration.md, "Threads"), optional for both
// kinds of term: a term whose work is a sum over independent elements (springs, edges, nodes,
// triangles) reports element_count() > 0 and implements prepare(), which computes and stores the
// element-local values (energy, gradient, Hessian; force and Jacobian blocks) of elements [first,
// last) as `out` requests them (its non-null members; nothing is added to `out`). The Newton system
// calls prepare() on disjoint ranges covering [0, element_count) from several threads at once, then
// accumulate() with EvalInput::prepared set, which adds the stored values in the term's serial
// order. The sums are then bitwise those of accumulate() alone, for any split. prepare() writes
// only its own elements' storage in the term's workspace (EvalInput::workspace); a term's
// accumulate() may run while later terms' prepare() runs on other threads. Terms without prepare()
// are evaluated by accumulate() alone, on the calling thread; they never see threads.
//
// Terms are read-only (docs/conventions.md, "Layout and checks"): every method is const
// and writes nothing in the term. What an evaluation writes (element values, a broad phase's
// buffers) and what a term carries from step to step (a changing stencil set) lives in the term's
// workspace (core/term_workspace.hpp), which the term creates (make_workspace) and the evaluator
// owns and passes in (ModelWorkspace, core/model_workspace.hpp). One Model can so be stepped by
// several simulations at once, each with its own workspaces.

/// What energies and forces share: their name, their stencils (fixed or changing, with the
/// workspace that holds a changing set) and the element-parallel count.
class TermBase {
 public:
  virtual ~TermBase() = default;
  virtual std::string_view name() const = 0;
  /// Declares the DOF sets of all stencils (once per topology); a term with a changing set
  /// declares the set of a new workspace (the stencils at the start).
  virtual void declare_sparsity(const Model& model, SparsityBuilder& pattern) const = 0;
  /// Declares the stencils of the set `workspace` holds (once per topology, and again after
  /// update_stencils() returned true). Default: declare_sparsity() (a fixed set).
  virtual void declare_stencils(const Model& model, const TermWorkspace* /*workspace*/,
                                SparsityBuilder& pattern) const {
    declare_sparsity(model, pattern);
  }
  /// This term's workspace for one simulation of `model` (see above); default: none (null).
  virtual std::unique_ptr<TermWorkspace> make_workspace(const Model& /*model*/) const {
    return nullptr;
  }
  /// Number of elements prepare() computes; 0 (default): no element-parallel part (see above).
  virtual std::size_t element_count(const Model& /*model*/) const { return 0; }
  /// Changing stencils (contact pairs from a broad phase): updates the set of stencils held in
  /// `workspace` (this term's) for the accepted state `state` and returns true if the set changed;
  /// declare_stencils() must then declare the new set, and the solver rebuilds its pattern,
  /// free-DOF map, ordering and solver choice (NewtonSystem::update_stencils). The solvers call it
  /// once before every time (sub)step and static solve, never within a Newton solve, so the pattern
  /// is fixed while Newton runs: the set must cover every entry accumulate() adds during the step
  /// (grow the search radius by what a step can move). Default: a fixed set.
  /// docs/physics/time_integration.md, "Changing sparsity".
  virtual bool update_stencils(const Model& /*model*/, const State& /*state*/,
                               TermWorkspace* /*workspace*/) const {
    return false;
  }
  /// Number of values the workspace carries from one step to the next that the next step depends
  /// on (a contact term's time of its last candidate update), saved with every frame so a restart
  /// continues exactly (sim/restart_state.hpp). Default: none.
  virtual std::size_t carried_size() const { return 0; }
  /// Writes carried_size() values of `workspace` (this term's) to `values`.
  virtual void save_carried(const TermWorkspace& /*workspace*/, double* /*values*/) const {}
  /// Sets `workspace` (this term's) from values save_carried() wrote, before the first step.
  virtual void restore_carried(TermWorkspace& /*workspace*/, const double* /*values*/) const {}
};

class Energy : public TermBase {
 public:
  virtual void accumulate(const EvalInput& in, EnergyOutput& out) const = 0;
  /// Computes and stores the values of elements [first, last) that `out` requests (see above).
  virtual void prepare(const EvalInput& /*in*/, std::size_t /*first*/, std::size_t /*last*/,
                       const EnergyOutput& /*out*/) const {}
  /// Rest state (the static homotopy, integrate/static_solver.hpp): the rest quantities of the
  /// Model this energy reads (rest lengths, natural curvatures and twists), rest_state_size() of
  /// them in an order of the energy's choosing. 0 (default): none (the homotopy leaves them).
  virtual std::size_t rest_state_size(const Model& /*model*/) const { return 0; }
  /// Writes the rest state `model` holds into `values` (rest_state_size() entries).
  virtual void get_rest_state(const Model& /*model*/, std::span<double> /*values*/) const {}
  /// Sets the rest state of `model` (the one this energy belongs to, or a copy of it) to `values`.
  virtual void set_rest_state(std::span<const double> /*values*/, Model& /*model*/) const {}
  /// Writes into `values` the rest state at which configuration q (kinematics `kin`) is
  /// stress-free for this energy (zero energy and gradient).
  virtual void stress_free_rest_state(const Model& /*model*/, const Kinematics& /*kin*/,
                                      const VecX& /*q*/, std::span<double> /*values*/) const {}
  /// True for the potential of an external load (gravity, buoyancy): a static solve ramps these
  /// terms with the load factor during load stepping; internal (elastic) energies are never ramped.
  virtual bool is_external_load() const { return false; }
  /// Continuous collision check: the largest a in [0, 1] such that the configurations q + a' dq,
  /// a' in [0, a], are admissible for this term (no rod edge passes through another, no node or
  /// edge through an obstacle). Time-dependent parts (moving obstacles) move linearly from their
  /// place at t_start [s] (with q) to their place at t_end [s] (with q + dq); within a Newton solve
  /// both are the time of the end configuration. The Newton line search starts from the smallest of
  /// these over all terms, so every accepted iterate is reached by a collision-free straight path.
  /// `workspace` is this term's (its search buffers). Default: 1 (no restriction).
  virtual double max_step_fraction(const Model& /*model*/, const VecX& /*q*/, const VecX& /*dq*/,
                                   double /*t_start*/, double /*t_end*/,
                                   TermWorkspace* /*workspace*/) const {
    return 1.0;
  }
};

class ForceTerm : public TermBase {
 public:
  virtual void accumulate(const EvalInput& in, ForceOutput& out) const = 0;
  /// Computes and stores the values of elements [first, last) that `out` requests, Jacobian blocks
  /// with out's dq_scale and du_scale (see above).
  virtual void prepare(const EvalInput& /*in*/, std::size_t /*first*/, std::size_t /*last*/,
                       const ForceOutput& /*out*/) const {}
  /// True if dq_scale dF/dq + du_scale dF/du is symmetric for every pair of scales (a linear
  /// spring, a load that does not depend on q or u). A term that is not (RFT, drag, friction,
  /// follower loads, gyroscopic forces) returns false, and the Newton system then factorizes the
  /// whole matrix instead of one triangle.
  virtual bool has_symmetric_jacobian() const { return false; }
};

}  // namespace tendril
