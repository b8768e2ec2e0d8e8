// Stiffness contrasts in stretching, bending or twisting, alone or together (issue 23): the
// benchmark cantilever (L 1 m, r 5 mm, E 1e7 Pa, 26 nodes, clamped at x = 0) under gravity whose
// middle edges 10-14 (x in [0.4, 0.6] m) are f = 1e2 .. 1e10 times stiffer in EA only ("stretch"),
// in the EI of the springs touching them only ("bend"), in their GJ only ("twist") or in all three
// ("all"), as the scene's stiffness_overrides by edges give them (a spring between a stiff and a
// soft edge takes the mean (1 + f) / 2). Every solve, static (the full load from the straight rod)
// and dynamic (implicit Euler, 300 steps of 1e-3 s), must take about as many Newton iterations as
// the plain rod (at most 10 more).
//
// References (independent of the stiff parts' solver): the rod hangs in its plane x-z, so
// - a twist contrast changes nothing (nothing twists it): the plain rod's answer;
// - a stretch contrast only removes the stretch of edges 10-14 (at most T l / EA with the tension T
//   below the rod's weight m g, l = 0.04 m): within 5 m g l / EA of the plain rod's answer, as a
//   rigid motion of the outer part at most that far;
// - a bending contrast makes the segment straight in the limit. Its compliance adds a deflection
//   bounded by the Euler-Bernoulli estimate B / f of test_rotating_stiff_parts.cpp (the segment
//   carries at most the moment q L_o^2 / 2 of the outer rod, L_o = 0.6 m, over L_s = 0.2 m, swung
//   over L_r = 0.4 m: B = q L_o^2 L_s L_r / (2 EI)); the answers at f and at 1e10 differ by at
//   most 1.01 B / f (x 2 dynamic: a suddenly applied load at most doubles the static response), and
//   for the stretch and twist kinds the plain rod's answer is the reference above.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

constexpr int kNodes = 26;
constexpr int kFirstStiff = 10, kLastStiff = 14;  ///< stiff edges 10-14 (nodes 10-15)
constexpr int kSteps = 300;                       ///< dynamic run: 0.3 s of 1e-3 s steps
const std::vector<double> kFactors = {1e2, 1e4, 1e7, 1e10};

enum class Kind { stretch, bend, twist, all };

std::string name(Kind kind) {
  switch (kind) {
    case Kind::stretch:
      return "stretch";
    case Kind::bend:
      return "bend";
    case Kind::twist:
      return "twist";
    case Kind::all:
      return "all";
  }
  return "";
}

/// The clamped benchmark rod under gravity with edges 10-14 `factor` times stiffer in `kind`.
test::BuiltRod contrasted_rod(Kind kind, double factor) {
  test::BuiltRod rod = test::clamped_benchmark_rod(kNodes);
  Model& model = rod.model;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  auto edge_factor = [&](int e) { return e >= kFirstStiff && e <= kLastStiff ? factor : 1.0; };
  if (kind == Kind::stretch || kind == Kind::all)
    for (int e = 0; e + 1 < kNodes; ++e) model.rods.stretch_stiffness[e] *= edge_factor(e);
  for (BendTwistSpring& spring : model.rods.springs) {
    const double f = 0.5 * (edge_factor(spring.node - 1) + edge_factor(spring.node));
    if (kind == Kind::bend || kind == Kind::all) {
      spring.bend_stiffness_1 *= f;
      spring.bend_stiffness_2 *= f;
    }
    if (kind == Kind::twist || kind == Kind::all) spring.twist_stiffness *= f;
  }
  return rod;
}

/// Largest distance between corresponding nodes [m].
double max_node_distance(const VecX& a, const VecX& b) {
  double largest = 0.0;
  for (int i = 0; i < kNodes; ++i)
    largest = std::max(largest, (a.segment<3>(3 * i) - b.segment<3>(3 * i)).norm());
  return largest;
}

/// B of the file comment [m] (the bending bound is B / f).
double bending_bound(const Model& model) {
  const double q = 9.81 * model.mass[3 * 5] / model.rods.rest_length[5];  // weight per length [N/m]
  const double bend = model.rods.springs[5].bend_stiffness_1;             // EI [N m^2]
  return q * 0.6 * 0.6 * 0.2 * 0.4 / (2.0 * bend);
}

/// 5 m g l / EA at f = 1 [m] (the stretch bound is this / f).
double stretch_bound(const Model& model) {
  double weight = 0.0;
  for (int i = 0; i < kNodes; ++i) weight += 9.81 * model.mass[3 * i];
  return 5.0 * weight * model.rods.rest_length[kFirstStiff] /
         model.rods.stretch_stiffness[kFirstStiff];
}

struct Solve {
  VecX q;
  int iterations = 0;  ///< static: the solve's; dynamic: the largest of a step
  double mean = 0.0;   ///< dynamic: per step
};

Solve solve_static(const test::BuiltRod& rod, const std::string& what) {
  State state = test::rest_state(rod);
  StaticSolver solver(rod.model, StaticOptions{}, rod.q);
  const StaticReport report = solver.solve(state);
  EXPECT_TRUE(report.ok()) << what << ": " << report.message;
  EXPECT_EQ(report.load_stages, 1) << what;
  return {state.q, report.iterations, static_cast<double>(report.iterations)};
}

Solve solve_dynamic(const test::BuiltRod& rod, const std::string& what) {
  DynamicsOptions options;
  options.dt = 1e-3;
  State state = test::rest_state(rod);
  TimeStepper stepper(rod.model, options, rod.q);
  Solve out;
  int total = 0;
  for (int k = 0; k < kSteps; ++k) {
    const StepReport report = stepper.step(state);
    if (!report.ok()) {
      ADD_FAILURE() << what << ", step " << k << ": " << report.message;
      break;
    }
    EXPECT_EQ(report.dt_halvings, 0) << what << ", step " << k;
    total += report.iterations;
    out.iterations = std::max(out.iterations, report.iterations);
  }
  out.q = state.q;
  out.mean = static_cast<double>(total) / kSteps;
  return out;
}

void check_contrasts(bool dynamic) {
  auto solve = [&](Kind kind, double factor) {
    const std::string what =
        name(kind) + " x " + std::to_string(factor) + (dynamic ? " dynamic" : " static");
    const test::BuiltRod rod = contrasted_rod(kind, factor);
    return dynamic ? solve_dynamic(rod, what) : solve_static(rod, what);
  };
  const test::BuiltRod plain_rod = contrasted_rod(Kind::all, 1.0);
  const Solve plain = solve(Kind::all, 1.0);
  const double scale = dynamic ? 2.0 : 1.0;
  std::printf("plain rod: %d Newton iterations (mean %.2f)\n", plain.iterations, plain.mean);
  for (Kind kind : {Kind::stretch, Kind::bend, Kind::twist, Kind::all}) {
    const Solve limit = solve(kind, 1e10);
    for (double factor : kFactors) {
      const Solve s = factor == 1e10 ? limit : solve(kind, factor);
      const double to_plain = max_node_distance(s.q, plain.q),
                   to_limit = max_node_distance(s.q, limit.q);
      std::printf(
          "%-7s f %.0e: %d Newton iterations (mean %.2f), distance to the plain rod %.3e m, to f = "
          "1e10 %.3e m\n",
          name(kind).c_str(), factor, s.iterations, s.mean, to_plain, to_limit);
      EXPECT_LE(s.iterations, plain.iterations + 10) << name(kind) << " " << factor;
      if (dynamic) {
        EXPECT_LE(s.mean, plain.mean + 1.0) << name(kind) << " " << factor;
      }
      // the answer (the tolerances' 1e-9 m: both solves stop within the force tolerance)
      if (kind == Kind::twist) {
        EXPECT_LE(to_plain, 1e-9) << factor;
      }
      if (kind == Kind::stretch) {
        EXPECT_LE(to_plain, scale * stretch_bound(plain_rod.model) + 1e-9) << factor;
      }
      if (kind == Kind::bend || kind == Kind::all) {
        EXPECT_LE(to_limit, 1.01 * scale * bending_bound(plain_rod.model) / factor + 1e-9)
            << name(kind) << " " << factor;
      }
    }
  }
}

TEST(StiffnessContrasts, StaticSolveTakesAboutThePlainRodsIterations) {
  check_contrasts(false);
}

TEST(StiffnessContrasts, ImplicitEulerStepsTakeAboutThePlainRodsIterations) {
  check_contrasts(true);
}

}  // namespace
}  // namespace tendril
