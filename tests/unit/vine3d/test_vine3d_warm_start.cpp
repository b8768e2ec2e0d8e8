// Warm starts across contact-pattern changes
// (docs/physics/vine3d.md#warm-starts-across-contact-changes): when a step's (body, obstacle) pairs
// differ from the last step's, its QP starts from the active flags of the rows of the pairs that
// stay, matched by body and obstacle, the new pairs' rows inactive; and set_warm_start refuses
// pairs and flags that do not fit the model.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/example_path.hpp"
#include "support/input_error.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

/// The flags of `before` on the rows of `pairs`: a pair's rows_per_pair flags if `before` has the
/// same (body, obstacle) pair, else zeros.
std::vector<char> flags_by_pair(const Vine3dWarmStart& before,
                                const std::vector<ContactPair>& pairs, std::size_t rows_per_pair) {
  std::vector<char> flags;
  for (const ContactPair& p : pairs) {
    const auto it = std::find(before.pairs.begin(), before.pairs.end(), p);
    for (std::size_t r = 0; r < rows_per_pair; ++r)
      flags.push_back(it == before.pairs.end()
                          ? 0
                          : before.active[rows_per_pair * (it - before.pairs.begin()) + r]);
  }
  return flags;
}

struct ChangeSteps {
  int count = 0;               // steps whose pairs changed with active rows before
  int dual = 0;                // of them, those whose active rows were the dual method's (flags 2)
  int carried_iterations = 0;  // their QP iterations as stepped
  int cold_iterations = 0;     // and from a cold start
};

/// Steps `scene`; at every step whose pairs change with active rows before it, a new stepper
/// started from the pairs that step ends with and the flags of the last step's rows mapped onto
/// them by pair (flags_by_pair) takes the same step bit for bit, and one started cold counts its
/// QP iterations.
ChangeSteps expect_changes_start_from_the_kept_rows(const Vine3dScene& scene, int steps) {
  Vine3dStepper stepper(scene.model);
  const auto rows_per_pair = static_cast<std::size_t>(3 * stepper.rows_per_point());
  Vine3dState state = scene.initial;
  ChangeSteps out;
  for (int k = 0; k < steps; ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    const Vine3dWarmStart before = stepper.warm_start();
    Vine3dState mapped_state = state, cold_state = state;
    const Vine3dStepReport a = stepper.step(state);
    EXPECT_TRUE(a.ok());
    if (!a.ok()) return out;
    const std::vector<ContactPair>& pairs = stepper.warm_start().pairs;
    if (pairs == before.pairs || std::count(before.active.begin(), before.active.end(), 0) ==
                                     static_cast<long>(before.active.size()))
      continue;
    Vine3dStepper mapped(scene.model), cold(scene.model);
    mapped.set_warm_start({pairs, flags_by_pair(before, pairs, rows_per_pair)});
    cold.set_warm_start({pairs, {}});
    const Vine3dStepReport b = mapped.step(mapped_state), c = cold.step(cold_state);
    EXPECT_TRUE(b.ok() && c.ok());
    EXPECT_EQ(b.qp_iterations, a.qp_iterations);
    EXPECT_EQ(mapped_state.velocity, state.velocity);
    ++out.count;
    out.dual += std::find(before.active.begin(), before.active.end(), 2) != before.active.end();
    out.carried_iterations += a.qp_iterations;
    out.cold_iterations += c.qp_iterations;
  }
  return out;
}

/// The table example (a plane, a sunk sphere and a box) with friction `mu`: pairs appear and
/// vanish while the plane's rows hold the vine; every change starts from the kept rows, in fewer
/// QP iterations in total than cold starts.
ChangeSteps expect_the_table_carries_the_kept_rows(const std::string& mu) {
  const Vine3dScene scene = load_vine3d_scene_file(
      testing::example_path("vine_3d_table_obstacles.yaml"), {"vine3d.contact.friction=" + mu});
  const ChangeSteps changes = expect_changes_start_from_the_kept_rows(scene, scene.steps);
  EXPECT_GE(changes.count, 2);
  EXPECT_LT(changes.carried_iterations, changes.cold_iterations);
  return changes;
}

TEST(Vine3dWarmStart, APairChangeStartsFromTheActiveRowsOfThePairsThatStay) {
  expect_the_table_carries_the_kept_rows("0");
}

TEST(Vine3dWarmStart, WithFrictionThePyramidRowsAndTheDualWorkingSetAreCarried) {
  const ChangeSteps changes = expect_the_table_carries_the_kept_rows("0.3");
  EXPECT_GE(changes.dual, 1);
}

TEST(Vine3dWarmStart, PairsOrFlagsThatDoNotFitTheModelAreRefused) {
  const Vine3dScene scene =
      load_vine3d_scene_file(testing::example_path("vine_3d_table_obstacles.yaml"), {});
  Vine3dStepper stepper(scene.model);  // 12 bodies, 3 obstacles, friction: 12 rows per pair
  testing::expect_input_error(
      [&] {
        stepper.set_warm_start({{{0, 3}}, {}});
      },
      {"warm_start.pairs[0]", "obstacle 3", "obstacles 0 to 2"});
  testing::expect_input_error(
      [&] {
        stepper.set_warm_start({{{12, 0}}, {}});
      },
      {"warm_start.pairs[0]", "body 12", "bodies 0 to 11"});
  testing::expect_input_error(
      [&] {
        stepper.set_warm_start({{{2, 1}, {1, 0}}, {}});
      },
      {"warm_start.pairs[1]", "(body 1, obstacle 0)", "order"});
  testing::expect_input_error(
      [&] {
        stepper.set_warm_start({{{1, 0}}, std::vector<char>(4, 0)});
      },
      {"warm_start.active", "4 flags", "12"});
}

}  // namespace
}  // namespace tendril::vine3d
