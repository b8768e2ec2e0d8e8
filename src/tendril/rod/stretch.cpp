#include "tendril/rod/stretch.hpp"

#include <algorithm>
#include <array>

#include "tendril/geometry/kinematics.hpp"

namespace tendril {
namespace {

/// E = 1/2 EA eps^2 |e_bar| [J] of an edge of length |e| [m], eps = |e| / |e_bar| - 1.
double stretch_energy_of_length(double length, double rest_length, double stretch_stiffness) {
  const double strain = length / rest_length - 1.0;
  return 0.5 * stretch_stiffness * strain * strain * rest_length;
}

/// dE/de and d2E/de2 of one edge of length |e| [m] and unit tangent t = e / |e|: EA eps t and
/// EA/|e_bar| t t^T
/// + EA eps/|e| (I - t t^T).
void stretch_edge_derivatives(const Vec3& t, double length, double rest_length, double stiffness,
                              Vec3* gradient, Mat3* hessian) {
  const double strain = length / rest_length - 1.0;
  if (gradient) *gradient = stiffness * strain * t;
  if (hessian) {
    const Mat3 tt = t * t.transpose();
    *hessian =
        (stiffness / rest_length) * tt + (stiffness * strain / length) * (Mat3::Identity() - tt);
  }
}

std::array<int, 6> stencil_dofs(const DofMap& dofs, const std::array<int, 2>& nodes) {
  const int a = dofs.node(nodes[0]);
  const int b = dofs.node(nodes[1]);
  return {a, a + 1, a + 2, b, b + 1, b + 2};
}

}  // namespace

double stretch_energy(const Vec3& edge, double rest_length, double stretch_stiffness) {
  return stretch_energy_of_length(edge.norm(), rest_length, stretch_stiffness);
}

VecN<6> stretch_gradient(const Vec3& edge, double rest_length, double stretch_stiffness) {
  Vec3 g;
  const double length = edge.norm();
  stretch_edge_derivatives(edge / length, length, rest_length, stretch_stiffness, &g, nullptr);
  VecN<6> out;
  out.head<3>() =
      -g;  // fixed-size halves (a comma initializer trips GCC 12's -Warray-bounds under AVX)
  out.tail<3>() = g;
  return out;
}

MatN<6> stretch_hessian(const Vec3& edge, double rest_length, double stretch_stiffness) {
  Mat3 h;
  const double length = edge.norm();
  stretch_edge_derivatives(edge / length, length, rest_length, stretch_stiffness, nullptr, &h);
  MatN<6> out;
  out << h, -h, -h, h;
  return out;
}

void StretchEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const auto& nodes : model.rods.edges) pattern.add_stencil(stencil_dofs(model.dofs, nodes));
}

void StretchEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const RodNetwork& rods = in.model.rods;
  for (std::size_t e = 0; e < rods.edges.size(); ++e) {
    // the kinematics' |e| and t = e / |e| (the same operations as on kin.edge here)
    const double length = in.kin.edge_length[e];
    const double rest = rods.rest_length[e];
    const double stiffness = rods.stretch_stiffness[e];
    out.energy += stretch_energy_of_length(length, rest, stiffness);
    if (!out.gradient && !out.hessian) continue;
    Vec3 g;
    Mat3 h;
    stretch_edge_derivatives(in.kin.tangent[e], length, rest, stiffness, &g,
                             out.hessian ? &h : nullptr);
    const int a = in.model.dofs.node(rods.edges[e][0]);
    const int b = in.model.dofs.node(rods.edges[e][1]);
    if (out.gradient) {
      out.gradient->segment<3>(a) -= g;
      out.gradient->segment<3>(b) += g;
    }
    if (out.hessian) {
      MatN<6> local;
      local << h, -h, -h, h;
      out.hessian->add_cached_symmetric(this, e, stencil_dofs(in.model.dofs, rods.edges[e]), local);
    }
  }
}

std::size_t StretchEnergy::rest_state_size(const Model& model) const {
  return model.rods.rest_length.size();
}

void StretchEnergy::get_rest_state(const Model& model, std::span<double> values) const {
  std::copy(model.rods.rest_length.begin(), model.rods.rest_length.end(), values.begin());
}

void StretchEnergy::set_rest_state(std::span<const double> values, Model& model) const {
  std::copy(values.begin(), values.end(), model.rods.rest_length.begin());
}

void StretchEnergy::stress_free_rest_state(const Model& model, const Kinematics& kin,
                                           const VecX& /*q*/, std::span<double> values) const {
  std::copy_n(kin.edge_length.begin(), model.rods.rest_length.size(), values.begin());
}

}  // namespace tendril
