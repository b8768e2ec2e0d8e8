#include "tendril/forces/custom_force.hpp"

#include "tendril/core/error.hpp"

namespace tendril {

void JacobianSink::add(std::span<const int> dofs, const Eigen::Ref<const MatX>& dF_dq,
                       const Eigen::Ref<const MatX>& dF_du) {
  if (dF_dq.size() > 0 && dq_scale_ != 0.0) jacobian_.add(dofs, dF_dq, dq_scale_);
  if (dF_du.size() > 0 && du_scale_ != 0.0) jacobian_.add(dofs, dF_du, du_scale_);
}

CustomForce::CustomForce(std::string name, ForceFunction force,
                         std::vector<std::vector<int>> jacobian_stencils, JacobianFunction jacobian,
                         Symmetry symmetry)
    : name_(std::move(name)),
      force_(std::move(force)),
      stencils_(std::move(jacobian_stencils)),
      jacobian_(std::move(jacobian)),
      symmetry_(symmetry) {
  if (!force_)
    throw InputError("custom_force." + name_ + ".force", "empty function", "a callable F(q, u, t)");
  if (jacobian_ && stencils_.empty())
    throw InputError("custom_force." + name_ + ".jacobian_stencils", "none",
                     "the DOF sets coupled by the Jacobian when a Jacobian callback is given");
}

void CustomForce::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  const int n = model.dofs.size();
  for (std::size_t s = 0; s < stencils_.size(); ++s) {
    for (int d : stencils_[s])
      if (d < 0 || d >= n)
        throw InputError("custom_force." + name_ + ".jacobian_stencils[" + std::to_string(s) + "]",
                         std::to_string(d), "DOF indices in [0, " + std::to_string(n) + ")");
    pattern.add_stencil(stencils_[s]);
  }
}

void CustomForce::accumulate(const EvalInput& in, ForceOutput& out) const {
  if (out.force != nullptr) force_(in.q, in.u, in.time, *out.force);
  if (out.jacobian != nullptr && jacobian_) {
    JacobianSink sink(*out.jacobian, out.dq_scale, out.du_scale);
    jacobian_(in.q, in.u, in.time, sink);
  }
}

}  // namespace tendril
