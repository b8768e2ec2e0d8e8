// ResistiveForce: RFT for rods, F_j = - Delta l_j (eta_t v_t + eta_n v_n) with the node tangent
// from the average of its edge tangents (granular_flagella IV-C, eq. 9-10).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "media_state.hpp"
#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "support/input_error.hpp"
#include "tendril/forces/rft.hpp"

namespace tendril {
namespace {

using namespace conformance;

std::vector<int> all_edges(const Model& m) {
  std::vector<int> e(m.rods.edges.size());
  for (std::size_t k = 0; k < e.size(); ++k) e[k] = static_cast<int>(k);
  return e;
}

TEST(Rft, JacobiansIncludingTheTangentMatchFiniteDifferencesAtRandomStates) {
  auto rod = testing::make_small_rod(7, 8);
  const ResistiveForce rft(rod.model, all_edges(rod.model), {1.3, 2.9});
  const ResistiveForce part(rod.model, {1, 2, 3}, {0.4, 1.1});
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const VecX q = perturbed(rod.model, rod.q, 0.03, 0.3, seed);
    const VecX u = testing::random_velocity(q.size(), 0.5, seed + 20);
    expect_force_conforms(rft, rod.model, rod.frames, q, u, 0.0);
    expect_force_conforms(part, rod.model, rod.frames, q, u, 0.0);
  }
  EXPECT_FALSE(rft.has_symmetric_jacobian());
}

TEST(Rft, DependsOnTheTangent) {
  // dF/dq is not zero when the node moves obliquely: the q part of the Jacobian matters
  auto rod = testing::make_small_rod(4, 1);
  const ResistiveForce rft(rod.model, all_edges(rod.model), {1.0, 2.0});
  const VecX u = testing::random_velocity(rod.q.size(), 1.0, 3);
  const ForceEval dq = evaluate_force(rft, rod.model, rod.frames, rod.q, u, 0.0, 1.0, 0.0);
  EXPECT_GT(dq.jacobian.norm(), 0.1);
}

TEST(Rft, EdgesPointingAgainstEachOtherGiveTheSameForce) {
  // a chain 0 -> 1 <- 2 (edge 1 reversed) has the same node tangents as 0 -> 1 -> 2
  auto rod = testing::make_small_rod(3, 2);
  Model reversed = rod.model;
  reversed.rods.edges[1] = {2, 1};
  const VecX u = testing::random_velocity(rod.q.size(), 1.0, 4);
  const RftCoefficients eta{0.7, 1.9};
  const ForceEval a =
      evaluate_force(ResistiveForce(rod.model, {0, 1}, eta), rod.model, rod.frames, rod.q, u, 0.0);
  RodFrames frames;
  initialize_frames(reversed, rod.q, frames);
  const ForceEval b =
      evaluate_force(ResistiveForce(reversed, {0, 1}, eta), reversed, frames, rod.q, u, 0.0);
  EXPECT_LE((a.force - b.force).norm(), 1e-14 * a.force.norm());
}

TEST(Rft, HandComputedValueOnAStraightRod) {
  // straight rod along x: F = - dl (eta_t v_x, eta_n v_y, eta_n v_z)
  Model m;
  m.dofs.num_nodes = 3;
  m.dofs.num_edges = 2;
  m.rods.edges = {{0, 1}, {1, 2}};
  m.rods.rest_length = {0.2, 0.2};
  VecX q = VecX::Zero(m.dofs.size());
  q.segment<3>(3) = Vec3(0.2, 0, 0);
  q.segment<3>(6) = Vec3(0.4, 0, 0);
  RodFrames frames;
  initialize_frames(m, q, frames);
  VecX u = VecX::Zero(q.size());
  u.segment<3>(3) = Vec3(1.0, 2.0, -3.0);
  const ForceEval f = evaluate_force(ResistiveForce(m, {0, 1}, {0.5, 1.5}), m, frames, q, u, 0.0);
  EXPECT_NEAR((f.force.segment<3>(3) - -0.2 * Vec3(0.5 * 1.0, 1.5 * 2.0, 1.5 * -3.0)).norm(), 0.0,
              1e-15);
}

TEST(Rft, CoefficientsFromTheMedium) {
  // eq. 10 with the paper's mu = 6.828, L = 0.111 m, r0 = 3.2 mm
  const RftCoefficients eta = rft_coefficients_from_medium(6.828, 0.111, 0.0032);
  const double log_ratio = std::log(2 * 0.111 / 0.0032);
  EXPECT_NEAR(eta.tangential, 2 * std::numbers::pi * 6.828 / (log_ratio - 0.5), 1e-12);
  EXPECT_NEAR(eta.normal, 4 * std::numbers::pi * 6.828 / (log_ratio + 0.5), 1e-12);
  EXPECT_LT(eta.tangential, eta.normal);  // slender body: normal drag is larger
}

TEST(Rft, BadInputNamesTheKey) {
  auto rod = testing::make_small_rod(3, 1);
  testing::expect_input_error([] { rft_coefficients_from_medium(-1.0, 0.1, 0.01); }, {"mu", "-1"});
  testing::expect_input_error([] { rft_coefficients_from_medium(1.0, 0.002, 0.003); },
                              {"length", "0.002", "radius"});
  testing::expect_input_error(
      [&] {
        ResistiveForce(rod.model, {0, 1}, {-0.5, 1.0});
      },
      {"eta_t", "-0.5"});
  testing::expect_input_error(
      [&] {
        ResistiveForce(rod.model, {0, 1}, {0.5, -2.0});
      },
      {"eta_n", "-2"});
  testing::expect_input_error(
      [&] {
        ResistiveForce(rod.model, {0, 4}, {0.5, 1.0});
      },
      {"edges[1]", "4"});
}

}  // namespace
}  // namespace tendril
