// IMC self-contact and friction between rod edges (mat_dismech sec. 4, eq. 21-24): conformance
// inside and at the edges of the smooth zone, different radii (r_a + r_b), friction in stick, slip
// and the transition, the exclusion of pairs touching at the start, and the broad phase against
// all pairs.
#include <gtest/gtest.h>

#include <random>

#include "support/conformance.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/self_contact.hpp"
#include "two_rods.hpp"

namespace tendril::contact {
namespace {

using namespace conformance;

/// A workspace of `term` with the candidates for a step starting at q at rest (what the solver
/// does before each step).
template <class Term>
std::unique_ptr<TermWorkspace> update_at(const Term& term, const testing::TwoRods& rods) {
  State state;
  state.q = rods.q;
  state.u = VecX::Zero(rods.q.size());
  std::unique_ptr<TermWorkspace> workspace = term.make_workspace(rods.model);
  term.update_stencils(rods.model, state, workspace.get());
  return workspace;
}

ContactParameters parameters() {
  ContactParameters p;
  p.stiffness = 30.0;
  p.distance_tolerance = 0.004;
  p.slip_tolerance = 0.01;
  p.friction = 0.3;
  return p;
}

TEST(SelfContact, ConformsAcrossTheSmoothZoneWithDifferentRadii) {
  const ContactParameters p = parameters();
  // centreline distance at the crossing ~ height; r_a + r_b = 0.025: gaps from -1.5 delta to
  // the outer edge of the zone (0.95 delta)
  for (double gap : {-1.5, -1.0, -0.3, 0.0, 0.5, 0.95}) {
    SCOPED_TRACE(gap);
    const double height = 0.025 + gap * p.distance_tolerance;
    auto rods = testing::make_two_rods(height);
    // the initial (far apart) shape decides the exclusions: nothing is excluded
    auto far = testing::make_two_rods(1.0);
    const SelfContact term(rods.edges, p, far.q);
    EXPECT_TRUE(term.pairs().excluded().empty());
    EXPECT_TRUE(term.candidates(*term.make_workspace(rods.model)).empty());
    const auto workspace = update_at(term, rods);
    const auto& candidates = term.candidates(*workspace);
    EXPECT_TRUE(std::binary_search(candidates.begin(), candidates.end(), EdgePair{1, 4}));
    const EnergyEval e = evaluate_energy(term, rods.model, rods.frames, rods.q);
    EXPECT_GT(e.energy, 0.0);
    Tolerances tol;
    tol.step = 1e-8;
    expect_energy_conforms(term, rods.model, rods.frames, rods.q, tol, workspace.get());
    expect_rigid_motion_invariance(term, rods.model, rods.frames, rods.q);
    EXPECT_EQ(term.missed_pairs(*workspace), 0);
    // one active pair: the crossing edges 1 and 4
    const ContactStatistics stats = term.statistics(rods.model, rods.q, 0.0);
    EXPECT_EQ(stats.active, 1);
  }
}

TEST(SelfContact, PairForceIsEqualAndOppositeAlongTheNormal) {
  const ContactParameters p = parameters();
  auto rods = testing::make_two_rods(0.024);
  const SelfContact term(rods.edges, p, testing::make_two_rods(1.0).q);
  const EnergyEval e = evaluate_energy(term, rods.model, rods.frames, rods.q, false);
  Vec3 on_a = Vec3::Zero(), on_b = Vec3::Zero();
  for (int i = 0; i < 4; ++i) on_a -= e.gradient.segment<3>(3 * i);
  for (int i = 4; i < 8; ++i) on_b -= e.gradient.segment<3>(3 * i);
  EXPECT_LE((on_a + on_b).norm(), 1e-12 * on_a.norm());
  // rod A is above: pushed up by the penalty slope at its gap, -k_c b'(g)
  const Vec12 x = term.pairs().stencil(rods.q, {1, 4});
  const PairContact c = imc_pair_contact(x, 0.025, p, false);
  EXPECT_NEAR(on_a.norm(), -p.stiffness * smooth_penalty(c.gap, p.distance_tolerance).slope, 1e-12);
  EXPECT_GT(on_a.z(), 0.99 * on_a.norm());
}

TEST(SelfContact, OnlyGraphNeighboursTouchingAtTheStartAreExcluded) {
  const ContactParameters p = parameters();
  // two separate rods overlapping at the start still interact
  auto rods = testing::make_two_rods(0.02);
  const SelfContact apart(rods.edges, p, rods.q);
  EXPECT_TRUE(apart.pairs().excluded().empty());
  EXPECT_GT(evaluate_energy(apart, rods.model, rods.frames, rods.q, false).energy, 0.0);
  // an edge from rod A's last node 3 to rod B's node 5 joins edges 1 = (1, 2) and 4 = (5, 6)
  // through two other edges, (2, 3) and (3, 5): touching at the start, they are now excluded
  contact::ContactEdges joined = rods.edges;
  joined.nodes.push_back({3, 5});
  joined.radius.push_back(0.01);
  const SelfContact near(joined, p, rods.q);
  EXPECT_TRUE(std::binary_search(near.pairs().excluded().begin(), near.pairs().excluded().end(),
                                 EdgePair{1, 4}));
}

TEST(SelfFriction, ConformsInStickSlipAndTransition) {
  ContactParameters p = parameters();
  auto rods = testing::make_two_rods(0.025 - 0.4 * p.distance_tolerance);
  const SelfFriction term(rods.edges, p, testing::make_two_rods(1.0).q);
  const auto workspace = update_at(term, rods);
  EXPECT_FALSE(term.has_symmetric_jacobian());
  for (double speed : {1e-5, 1e-3, 0.01, 0.1}) {
    SCOPED_TRACE(speed);
    const VecX u = perturbed(rods.model, VecX::Zero(rods.q.size()), speed, 0.0, 5);
    Tolerances tol;
    tol.step = 1e-8;
    tol.hessian = 2e-5;
    expect_force_conforms(term, rods.model, rods.frames, rods.q, u, 0.0, tol, workspace.get());
  }
}

TEST(SelfFriction, SlidingPairFeelsMuTimesNormalForceBalanced) {
  ContactParameters p = parameters();
  auto rods = testing::make_two_rods(0.024);
  const SelfFriction term(rods.edges, p, testing::make_two_rods(1.0).q);
  VecX u = VecX::Zero(rods.q.size());
  for (int i = 0; i < 4; ++i)
    u.segment<3>(3 * i) = Vec3(2.0, 0.0, 0.0);  // A slides along x at 200 nu
  const ForceEval f = evaluate_force(term, rods.model, rods.frames, rods.q, u, 0.0, 1, 0, false);
  Vec3 on_a = Vec3::Zero(), on_b = Vec3::Zero();
  for (int i = 0; i < 4; ++i) on_a += f.force.segment<3>(3 * i);
  for (int i = 4; i < 8; ++i) on_b += f.force.segment<3>(3 * i);
  const Vec12 x =
      SelfContact(rods.edges, p, testing::make_two_rods(1.0).q).pairs().stencil(rods.q, {1, 4});
  const double normal =
      -p.stiffness *
      smooth_penalty(imc_pair_contact(x, 0.025, p, false).gap, p.distance_tolerance).slope;
  // the tangential slip is along x up to the tilt of the normal (rods nearly perpendicular)
  EXPECT_NEAR(on_a.norm(), p.friction * normal, 1e-3 * p.friction * normal);
  EXPECT_LT(on_a.x(), 0.0);
  EXPECT_LE((on_a + on_b).norm(), 1e-12 * on_a.norm());
}

TEST(SelfContact, CandidatesFollowTheStateAndItsMotion) {
  const ContactParameters p = parameters();
  auto far =
      testing::make_two_rods(0.025 + 3 * p.distance_tolerance);  // gap 3 delta: not a candidate
  const SelfContact term(far.edges, p, far.q);
  const auto workspace = term.make_workspace(far.model);
  EXPECT_TRUE(term.candidates(*workspace).empty());
  State state;
  state.q = far.q;
  state.u = VecX::Zero(far.q.size());
  EXPECT_FALSE(term.update_stencils(far.model, state, workspace.get()));
  // moving at 0.1 m/s towards each other: after a step of 0.01 s the allowance is delta + 2 mm
  for (int i = 0; i < 4; ++i) state.u[3 * i + 2] = -0.1;
  state.time = 0.01;
  EXPECT_TRUE(term.update_stencils(far.model, state, workspace.get()));
  const auto& candidates = term.candidates(*workspace);
  EXPECT_TRUE(std::binary_search(candidates.begin(), candidates.end(), EdgePair{1, 4}));
  // evaluating a pair in contact that is not a candidate gives its force but no Hessian entry
  state.u.setZero();
  state.time = 0.02;
  EXPECT_TRUE(term.update_stencils(far.model, state, workspace.get()));
  auto near = testing::make_two_rods(0.024);
  const EnergyEval e =
      evaluate_energy(term, near.model, near.frames, near.q, true, workspace.get());
  EXPECT_GT(e.gradient.norm(), 0.0);
  EXPECT_EQ(e.hessian.norm(), 0.0);
  EXPECT_EQ(term.missed_pairs(*workspace), 1);
}

TEST(BroadPhase, FindsExactlyTheOverlappingBoxesOfRandomEdges) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int num_nodes = 400;
  VecX positions(3 * num_nodes);
  for (int i = 0; i < 3 * num_nodes; ++i) positions[i] = 0.3 * unit(rng);
  std::vector<std::array<int, 2>> edges;
  std::vector<double> margin;
  for (int i = 0; i + 1 < num_nodes; i += 2) {
    // short random edges: second node near the first
    positions.segment<3>(3 * (i + 1)) =
        positions.segment<3>(3 * i) + 0.03 * Vec3(unit(rng), unit(rng), unit(rng));
    edges.push_back({i, i + 1});
    margin.push_back(0.01 * unit(rng));
  }
  edges.push_back({0, 3});  // shares node 0 with edge 0: never paired with it
  margin.push_back(0.01);
  BroadPhase broad;
  std::vector<EdgePair> found;
  broad.find_pairs(positions, edges, margin, found);
  std::vector<EdgePair> expected;
  for (int a = 0; a < int(edges.size()); ++a)
    for (int b = a + 1; b < int(edges.size()); ++b) {
      if (edges[a][0] == edges[b][0] || edges[a][0] == edges[b][1] || edges[a][1] == edges[b][0] ||
          edges[a][1] == edges[b][1])
        continue;
      bool overlap = true;
      for (int c = 0; c < 3; ++c) {
        const double la =
            std::min(positions[3 * edges[a][0] + c], positions[3 * edges[a][1] + c]) - margin[a];
        const double ua =
            std::max(positions[3 * edges[a][0] + c], positions[3 * edges[a][1] + c]) + margin[a];
        const double lb =
            std::min(positions[3 * edges[b][0] + c], positions[3 * edges[b][1] + c]) - margin[b];
        const double ub =
            std::max(positions[3 * edges[b][0] + c], positions[3 * edges[b][1] + c]) + margin[b];
        overlap = overlap && la <= ub && lb <= ua;
      }
      if (overlap) expected.push_back({a, b});
    }
  EXPECT_GT(expected.size(), 10u);
  EXPECT_EQ(found, expected);
}

}  // namespace
}  // namespace tendril::contact
