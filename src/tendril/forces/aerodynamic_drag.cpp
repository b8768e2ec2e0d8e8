#include "tendril/forces/aerodynamic_drag.hpp"

#include <array>
#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {

namespace {

std::array<int, 9> triangle_dofs(const Model& model, const std::array<int, 3>& tri) {
  std::array<int, 9> dofs{};
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t a = 0; a < 3; ++a)
      dofs[3 * k + a] = model.dofs.node(tri[k]) + static_cast<int>(a);
  return dofs;
}

}  // namespace

AerodynamicDrag::AerodynamicDrag(const Model& model, double medium_density,
                                 double drag_coefficient) {
  if (!(std::isfinite(medium_density) && medium_density >= 0.0))
    throw InputError("aerodynamic_drag.density", number_text(medium_density),
                     "a finite density rho_med >= 0 [kg/m^3]");
  if (!(std::isfinite(drag_coefficient) && drag_coefficient >= 0.0))
    throw InputError("aerodynamic_drag.drag_coefficient", number_text(drag_coefficient),
                     "a finite drag coefficient C_D >= 0");
  for (const auto& tri : model.shells.triangles) {
    const auto x = [&](int k) -> Vec3 {
      return model.rest_positions.segment<3>(model.dofs.node(tri[k]));
    };
    const double area = 0.5 * triangle_normal(x(0), x(1), x(2)).norm();
    coefficient_.push_back(medium_density * drag_coefficient * area / 6.0);
  }
}

void AerodynamicDrag::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const auto& tri : model.shells.triangles) pattern.add_stencil(triangle_dofs(model, tri));
}

void AerodynamicDrag::accumulate(const EvalInput& in, ForceOutput& out) const {
  const auto& triangles = in.model.shells.triangles;
  TENDRIL_ASSERT(triangles.size() == coefficient_.size(),
                 "aerodynamic drag built for another mesh");
  const bool jacobian = out.jacobian && (out.dq_scale != 0.0 || out.du_scale != 0.0);
  for (std::size_t k = 0; k < triangles.size(); ++k) {
    const std::array<int, 9> dofs = triangle_dofs(in.model, triangles[k]);
    const Vec3 n = triangle_normal(in.q.segment<3>(dofs[0]), in.q.segment<3>(dofs[3]),
                                   in.q.segment<3>(dofs[6]));
    const double length = n.norm();
    const Vec3 n_hat = n / length;
    const double c = coefficient_[k];
    MatN<9> local = MatN<9>::Zero();
    Eigen::Matrix<double, 3, 9> dn_hat;
    if (jacobian)
      dn_hat = (Mat3::Identity() - n_hat * n_hat.transpose()) / length *
               triangle_normal_jacobian(in.q.segment<3>(dofs[0]), in.q.segment<3>(dofs[3]),
                                        in.q.segment<3>(dofs[6]));
    for (int i = 0; i < 3; ++i) {
      const Vec3 u = in.u.segment<3>(dofs[static_cast<std::size_t>(3 * i)]);
      const double s = u.dot(n_hat);
      // F_i = - c |s| s n_hat
      if (out.force)
        out.force->segment<3>(dofs[static_cast<std::size_t>(3 * i)]) -= c * std::abs(s) * s * n_hat;
      if (!jacobian) continue;
      local.block<3, 9>(3 * i, 0) -=
          out.dq_scale * c *
          (2.0 * std::abs(s) * n_hat * u.transpose() + std::abs(s) * s * Mat3::Identity()) * dn_hat;
      local.block<3, 3>(3 * i, 3 * i) -=
          out.du_scale * 2.0 * c * std::abs(s) * n_hat * n_hat.transpose();
    }
    if (jacobian) out.jacobian->add_cached(this, k, dofs, local);
  }
}

}  // namespace tendril
