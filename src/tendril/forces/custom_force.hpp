#pragma once
/// A user-defined external force (mat_dismech 5.5): a callback F(q, u, t) with an optional
/// Jacobian. The Jacobian is only a search direction for Newton (it does not change the
/// solution); without it the term contributes nothing to the system matrix, and Newton
/// converges more slowly (linearly instead of quadratically) when the force depends strongly
/// on q or u.

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// Receives the local Jacobian blocks of a custom force on declared DOF stencils.
class JacobianSink {
 public:
  JacobianSink(HessianAssembler& jacobian, double dq_scale, double du_scale)
      : jacobian_(jacobian), dq_scale_(dq_scale), du_scale_(du_scale) {}
  /// Adds dF/dq and dF/du restricted to `dofs` (each #dofs x #dofs; an empty matrix means zero).
  /// `dofs` must be one of the stencils declared to CustomForce (or a subset of one).
  void add(std::span<const int> dofs, const Eigen::Ref<const MatX>& dF_dq,
           const Eigen::Ref<const MatX>& dF_du);

 private:
  HessianAssembler& jacobian_;
  double dq_scale_, du_scale_;
};

class CustomForce final : public ForceTerm {
 public:
  /// Adds F(q, u, t) [N] / [N m] into `force` (#dofs); must not resize it.
  using ForceFunction = std::function<void(const VecX& q, const VecX& u, double t, VecX& force)>;
  /// Reports dF/dq and dF/du at (q, u, t) through sink.add(...) on the declared stencils.
  using JacobianFunction =
      std::function<void(const VecX& q, const VecX& u, double t, JacobianSink& sink)>;

  /// Whether the Jacobian blocks a JacobianFunction reports are symmetric (see
  /// ForceTerm::has_symmetric_jacobian): both dF/dq and dF/du of every block.
  enum class Symmetry { general, symmetric };

  /// name: shown in reports; force: required; jacobian_stencils: the DOF sets the Jacobian couples
  /// (declared once in the sparsity pattern); jacobian: optional (empty = no contribution);
  /// symmetry: general unless the caller knows every block is symmetric (a general Jacobian makes
  /// the Newton system use an LU, always correct; declaring a non-symmetric one symmetric makes the
  /// LDL^T read one triangle and Newton converge slowly or not at all).
  CustomForce(std::string name, ForceFunction force,
              std::vector<std::vector<int>> jacobian_stencils = {}, JacobianFunction jacobian = {},
              Symmetry symmetry = Symmetry::general);

  std::string_view name() const override { return name_; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  /// True without a Jacobian callback (no contribution to the matrix) or when declared symmetric.
  bool has_symmetric_jacobian() const override {
    return !jacobian_ || symmetry_ == Symmetry::symmetric;
  }

 private:
  std::string name_;
  ForceFunction force_;
  std::vector<std::vector<int>> stencils_;
  JacobianFunction jacobian_;
  Symmetry symmetry_;
};

}  // namespace tendril
