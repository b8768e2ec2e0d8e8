// Options validation: every bad field throws InputError naming the field (with the caller's
// prefix).
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "tendril/core/error.hpp"
#include "tendril/integrate/options.hpp"

namespace tendril {
namespace {

std::string bad_key(const std::function<void()>& validate) {
  try {
    validate();
  } catch (const InputError& e) {
    return e.key_path();
  }
  return "(accepted)";
}

TEST(Options, DefaultsAreValid) {
  EXPECT_NO_THROW(DynamicsOptions{}.validate());
  EXPECT_NO_THROW(StaticOptions{}.validate());
}

TEST(Options, BadFieldsAreNamed) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto dynamics = [](auto change) {
    DynamicsOptions o;
    change(o);
    return bad_key([&] { o.validate("integrator."); });
  };
  EXPECT_EQ(dynamics([](auto& o) { o.dt = 0.0; }), "integrator.dt");
  EXPECT_EQ(dynamics([&](auto& o) { o.dt = nan; }), "integrator.dt");
  EXPECT_EQ(dynamics([](auto& o) { o.max_dt_halvings = -1; }), "integrator.max_dt_halvings");
  EXPECT_EQ(dynamics([](auto& o) { o.midpoint_alpha = 0.4; }), "integrator.midpoint_alpha");
  EXPECT_EQ(dynamics([&](auto& o) { o.midpoint_alpha = nan; }), "integrator.midpoint_alpha");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.force_tolerance = -1.0; }),
            "integrator.newton.force_tolerance");
  EXPECT_EQ(dynamics([&](auto& o) { o.newton.force_tolerance_abs = nan; }),
            "integrator.newton.force_tolerance_abs");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.step_tolerance = -1e-3; }),
            "integrator.newton.step_tolerance");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.max_iterations = 0; }),
            "integrator.newton.max_iterations");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.singular_pivot_tolerance = 1.0; }),
            "integrator.newton.singular_pivot_tolerance");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.stiff_segment_ratio = 0.5; }),
            "integrator.newton.stiff_segment_ratio");
  EXPECT_EQ(dynamics([&](auto& o) { o.newton.stiff_segment_ratio = nan; }),
            "integrator.newton.stiff_segment_ratio");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.chord_contraction = 0.6; }),
            "integrator.newton.chord_contraction");
  EXPECT_EQ(dynamics([&](auto& o) { o.newton.chord_contraction = nan; }),
            "integrator.newton.chord_contraction");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.threads = 0; }), "integrator.newton.threads");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.threads = NewtonOptions::kMaxThreads + 1; }),
            "integrator.newton.threads");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.threads = NewtonOptions::kMaxThreads; }), "(accepted)");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.dismech.force_tolerance = -1e-4; }),
            "integrator.newton.dismech.force_tolerance");
  EXPECT_EQ(dynamics([&](auto& o) { o.newton.dismech.relative_tolerance = nan; }),
            "integrator.newton.dismech.relative_tolerance");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.dismech.velocity_tolerance = -1.0; }),
            "integrator.newton.dismech.velocity_tolerance");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.line_search.armijo = 0.7; }),
            "integrator.newton.line_search.armijo");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.line_search.shrink = 1.0; }),
            "integrator.newton.line_search.shrink");
  EXPECT_EQ(dynamics([](auto& o) { o.newton.line_search.min_step = 0.0; }),
            "integrator.newton.line_search.min_step");
  StaticOptions s;
  s.max_load_steps = 0;
  EXPECT_EQ(bad_key([&] { s.validate(); }), "max_load_steps");
  s = StaticOptions{};
  s.initial_load_steps = 0;
  EXPECT_EQ(bad_key([&] { s.validate("static."); }), "static.initial_load_steps");
}

TEST(Options, MessageGivesValueAndAllowedRange) {
  DynamicsOptions o;
  o.dt = -0.5;
  try {
    o.validate();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.value(), "-0.5");
    EXPECT_NE(std::string(e.what()).find("> 0"), std::string::npos);
  }
}

TEST(Options, NamesRoundTrip) {
  EXPECT_EQ(parse_scheme("implicit_midpoint", "k"), Scheme::implicit_midpoint);
  EXPECT_EQ(parse_linear_solver(to_string(LinearSolverKind::banded_ldlt), "k"),
            LinearSolverKind::banded_ldlt);
  try {
    parse_scheme("rk4", "integrator.scheme");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "integrator.scheme");
    EXPECT_NE(e.allowed().find("implicit_euler"), std::string::npos);
  }
}

}  // namespace
}  // namespace tendril
