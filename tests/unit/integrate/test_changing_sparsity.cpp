// Changing sparsity (the seam contact needs): a toy term whose stencils are the particle pairs
// closer than a radius at the accepted state, updated between steps. The Newton system re-analyses
// its pattern exactly when the set changed, the trajectory equals that of the same physics on a
// fixed pattern declaring every pair, and an undeclared entry is an exception the caller survives
// with its State unchanged.
#include <algorithm>

#include <gtest/gtest.h>

#include "springs.hpp"
#include "tendril/core/error.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril {
namespace {

constexpr int kParticles = 5;

/// Linear springs F_i = -k (x_i - x_j) between the pairs closer than `radius` at the last accepted
/// state. declare_all: declare every pair once (a fixed pattern) instead of the active ones.
class ProximitySprings final : public ForceTerm {
 public:
  ProximitySprings(double k, double radius, bool declare_all)
      : k_(k), radius_(radius), declare_all_(declare_all) {}
  std::string_view name() const override { return "proximity_springs"; }
  bool has_symmetric_jacobian() const override { return true; }
  void declare_sparsity(const Model&, SparsityBuilder& pattern) const override {
    for (int i = 0; i < kParticles; ++i)
      for (int j = i + 1; j < kParticles; ++j)
        if (declare_all_ ||
            std::find(active_.begin(), active_.end(), std::pair{i, j}) != active_.end())
          pattern.add_stencil(dofs(i, j));
  }
  bool update_stencils(const Model&, const State& state, TermWorkspace*) const override {
    std::vector<std::pair<int, int>> now;
    for (int i = 0; i < kParticles; ++i)
      for (int j = i + 1; j < kParticles; ++j)
        if ((state.q.segment<3>(3 * i) - state.q.segment<3>(3 * j)).norm() < radius_)
          now.emplace_back(i, j);
    const bool changed = now != active_;
    active_ = std::move(now);
    ++updates_;
    return changed && !declare_all_;
  }
  void accumulate(const EvalInput& in, ForceOutput& out) const override {
    for (auto [i, j] : active_) {
      const Vec3 d = in.q.segment<3>(3 * i) - in.q.segment<3>(3 * j);
      if (out.force) {
        out.force->segment<3>(3 * i) -= k_ * d;
        out.force->segment<3>(3 * j) += k_ * d;
      }
      if (out.jacobian) {
        MatN<6> dF;
        dF << -k_ * Mat3::Identity(), k_ * Mat3::Identity(), k_ * Mat3::Identity(),
            -k_ * Mat3::Identity();
        out.jacobian->add(dofs(i, j), dF, out.dq_scale);
      }
    }
  }
  int updates() const { return updates_; }

 private:
  static std::array<int, 6> dofs(int i, int j) {
    return {3 * i, 3 * i + 1, 3 * i + 2, 3 * j, 3 * j + 1, 3 * j + 2};
  }
  double k_, radius_;
  bool declare_all_;
  mutable std::vector<std::pair<int, int>> active_;
  mutable int updates_ = 0;
};

/// Particles on a line, spacing 1 m, and a last one flying past them along -x.
struct FlyBy {
  Model model;
  State state;
  std::shared_ptr<ProximitySprings> springs;
  explicit FlyBy(bool declare_all) {
    VecX x(3 * kParticles);
    for (int i = 0; i < kParticles; ++i) x.segment<3>(3 * i) = Vec3(1.0 * i, 0.0, 0.0);
    x.segment<3>(3 * (kParticles - 1)) = Vec3(kParticles, 0.2, 0.0);
    model = testing::make_particles(x, 1.0);
    springs = std::make_shared<ProximitySprings>(2.0, 0.7, declare_all);
    model.forces.push_back(springs);
    VecX u = VecX::Zero(3 * kParticles);
    u[3 * (kParticles - 1)] = -20.0;
    state = testing::make_state(model, x, u);
  }
};

TEST(ChangingSparsity, PatternFollowsTheStencilsAndMatchesAFixedPattern) {
  FlyBy changing(false), fixed(true);
  DynamicsOptions options;
  options.dt = 0.01;
  TimeStepper a(changing.model, options, changing.state.q);
  TimeStepper b(fixed.model, options, fixed.state.q);
  EXPECT_EQ(a.system().pattern_analyses(), 1);
  int changes = 0;
  std::vector<Eigen::Index> sizes;
  for (int k = 0; k < 40; ++k) {
    const int before = a.system().pattern_analyses();
    ASSERT_TRUE(a.step(changing.state).ok());
    ASSERT_TRUE(b.step(fixed.state).ok());
    if (a.system().pattern_analyses() != before) {
      ++changes;
      sizes.push_back(a.system().pattern().nonZeros());
    }
  }
  // the flying particle passes 4 others: each contact begins and ends once
  EXPECT_GE(changes, 6);
  EXPECT_EQ(b.system().pattern_analyses(), 1) << "a term that reports no change keeps the pattern";
  EXPECT_EQ(changing.springs->updates(), 40) << "one update per step (no halving here)";
  EXPECT_NE(*std::min_element(sizes.begin(), sizes.end()),
            *std::max_element(sizes.begin(), sizes.end()));
  // same physics, different pattern: the same trajectory up to the linear solves' round-off
  EXPECT_LE((changing.state.q - fixed.state.q).norm(), 1e-12 * fixed.state.q.norm());
  EXPECT_LT(changing.state.q[3 * (kParticles - 1)], 0.0) << "it flew past all of them";
}

/// A term that adds a Jacobian entry it never declared.
class UndeclaredCoupling final : public ForceTerm {
 public:
  std::string_view name() const override { return "undeclared"; }
  bool has_symmetric_jacobian() const override { return true; }
  void declare_sparsity(const Model&, SparsityBuilder&) const override {}
  void accumulate(const EvalInput&, ForceOutput& out) const override {
    if (out.jacobian) out.jacobian->add_entry(0, 3, 1.0);
  }
};

TEST(ChangingSparsity, UndeclaredEntryThrowsAndTheStateSurvives) {
  Model model = testing::make_particles(VecX::LinSpaced(6, 0.0, 1.0), 1.0);
  model.forces.push_back(std::make_shared<UndeclaredCoupling>());
  TimeStepper stepper(model, DynamicsOptions{}, model.rest_positions);
  State state = testing::make_state(model, model.rest_positions, VecX::Ones(6));
  const State before = state;
  try {
    stepper.step(state);
    FAIL() << "expected SparsityError";
  } catch (const SparsityError& e) {
    EXPECT_EQ(e.row(), 0);
    EXPECT_EQ(e.col(), 3);
    EXPECT_NE(std::string(e.what()).find("(0, 3)"), std::string::npos);
  }
  EXPECT_EQ(state.q, before.q);
  EXPECT_EQ(state.u, before.u);
  EXPECT_EQ(state.time, before.time);
  StaticSolver statics(model, StaticOptions{}, model.rest_positions);
  EXPECT_THROW(statics.solve(state), SparsityError);
  EXPECT_EQ(state.q, before.q);
}

}  // namespace
}  // namespace tendril
