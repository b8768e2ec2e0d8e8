#pragma once
/// A concentrated force on one node, constant or given as a function of time: F(t) [N].
/// It does not depend on q or u, so its Jacobians are zero and it declares no sparsity.
/// In a static solve it is ramped with the load factor like every ForceTerm
/// (docs/physics/time_integration.md, "Static solve").

#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// F(t): force [N] at time t [s].
using ForceHistory = std::function<Vec3(double t)>;

/// A piecewise-linear history through (times[k], values[k]) (#samples), held constant before the
/// first and after the last sample. Throws InputError (key "times" / "values") unless times are
/// finite and strictly increasing, values finite, and both lists the same non-zero length.
ForceHistory piecewise_linear(std::vector<double> times, std::vector<Vec3> values);

class PointLoad final : public ForceTerm {
 public:
  /// A constant force F [N] on node `node`.
  PointLoad(int node, const Vec3& force);
  /// A time-dependent force F(t) [N] on node `node` (any callable double -> Vec3; Eigen
  /// expressions go to the constant overload).
  template <class F>
  requires(std::is_invocable_v<F, double> &&
           !std::is_base_of_v<Eigen::EigenBase<std::decay_t<F>>, std::decay_t<F>>)
      PointLoad(int node, F force_of_time)
      : PointLoad(node, ForceHistory(std::move(force_of_time)), 0) {}

  std::string_view name() const override { return "point_load"; }
  /// Checks the node index against the model (InputError "point_load.node" when out of range).
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  /// Its Jacobians are zero.
  bool has_symmetric_jacobian() const override { return true; }

  int node() const { return node_; }
  /// F(t) [N].
  Vec3 force_at(double t) const { return force_of_time_(t); }

 private:
  PointLoad(int node, ForceHistory force_of_time, int);
  int node_;
  ForceHistory force_of_time_;
};

}  // namespace tendril
