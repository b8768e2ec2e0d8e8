// Closed form: a rigid straight rod of length L in RFT (granular_flagella eq. 9; Gray & Hancock
// 1955) feels the integral of the local law f(s) = -(eta_t v_t + eta_n v_n) over its length:
//   translation along its axis:   F = -eta_t L v
//   translation across its axis:  F = -eta_n L v
//   rotation Omega about its centre (Omega normal to the rod): F = 0, T = -eta_n Omega L^3 / 12.
// The discrete sum uses Voronoi weights, i.e. the trapezoidal rule: exact for the translations, and
// for the torque sum_j w_j s_j^2 = L^3/12 + h^2 L / 6 (the trapezoidal error -(h^2/12)(f'(b) -
// f'(a)) of f = s^2), a relative error 2 (h/L)^2, which the test allows.
#include <gtest/gtest.h>

#include "support/conformance.hpp"
#include "tendril/forces/rft.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril {
namespace {

struct RigidRod {
  Model model;
  VecX q;
  RodFrames frames;
  std::vector<int> edges;
};

/// A straight rod of length L along `direction` centred at `centre` with `num_edges` edges.
RigidRod straight(double length, int num_edges, const Vec3& direction, const Vec3& centre) {
  RodMaterial m;
  m.youngs_modulus = 1e9;
  m.poisson_ratio = 0.5;
  m.density = 1000;
  m.radius = 1e-3;
  RodNetworkInput in;
  for (int i = 0; i <= num_edges; ++i)
    in.nodes.push_back(centre + (static_cast<double>(i) / num_edges - 0.5) * length * direction);
  for (int i = 0; i < num_edges; ++i) in.edges.push_back({i, i + 1});
  in.materials = {m};
  RigidRod r{build_rod_model(in), {}, {}, {}};
  r.q = rest_configuration(r.model);
  initialize_frames(r.model, r.q, r.frames);
  for (int e = 0; e < num_edges; ++e) r.edges.push_back(e);
  return r;
}

Vec3 total_force(const VecX& f, int num_nodes) {
  Vec3 sum = Vec3::Zero();
  for (int i = 0; i < num_nodes; ++i) sum += f.segment<3>(3 * i);
  return sum;
}

const RftCoefficients kEta{1.3, 2.9};  // [Pa s], any positive pair

TEST(RftRigidRod, TranslationAlongAndAcrossTheAxis) {
  const double L = 0.4;
  const Vec3 t = Vec3(1, 2, -0.5).normalized();
  const RigidRod rod = straight(L, 40, t, Vec3(0.1, 0.2, 0.3));
  const ResistiveForce rft(rod.model, rod.edges, kEta);
  const int n = rod.model.dofs.num_nodes;
  const Vec3 across = t.cross(Vec3::UnitZ()).normalized();
  for (const auto& [v, eta] :
       {std::pair{0.7 * t, kEta.tangential}, std::pair{0.7 * across, kEta.normal}}) {
    VecX u = VecX::Zero(rod.q.size());
    for (int i = 0; i < n; ++i) u.segment<3>(3 * i) = v;
    const Vec3 F = total_force(
        conformance::evaluate_force(rft, rod.model, rod.frames, rod.q, u, 0.0).force, n);
    EXPECT_LE((F + eta * L * v).norm(), 1e-12 * eta * L * v.norm());
  }
}

TEST(RftRigidRod, RotationAboutTheCentre) {
  const double L = 0.4;
  const int num_edges = 40;
  const Vec3 t = Vec3(1, 2, -0.5).normalized(), centre(0.1, 0.2, 0.3);
  const RigidRod rod = straight(L, num_edges, t, centre);
  const ResistiveForce rft(rod.model, rod.edges, kEta);
  const int n = rod.model.dofs.num_nodes;
  const Vec3 omega = 1.7 * t.cross(Vec3(0.3, -1, 0.2)).normalized();
  VecX u = VecX::Zero(rod.q.size());
  for (int i = 0; i < n; ++i)
    u.segment<3>(3 * i) = omega.cross(Vec3(rod.q.segment<3>(3 * i)) - centre);
  const VecX f = conformance::evaluate_force(rft, rod.model, rod.frames, rod.q, u, 0.0).force;
  Vec3 torque = Vec3::Zero();
  for (int i = 0; i < n; ++i)
    torque += (Vec3(rod.q.segment<3>(3 * i)) - centre).cross(Vec3(f.segment<3>(3 * i)));
  const Vec3 expected = -kEta.normal * omega * L * L * L / 12.0;
  const double h = L / num_edges;
  EXPECT_LE(total_force(f, n).norm(), 1e-12 * expected.norm() / L);
  EXPECT_LE((torque - expected).norm(), (2.0 * h * h / (L * L) + 1e-12) * expected.norm());
  EXPECT_GE((torque - expected).norm(), 0.5 * 2.0 * h * h / (L * L) * expected.norm())
      << "the trapezoidal error is really there: the sum is not the exact integral by accident";
}

}  // namespace
}  // namespace tendril
