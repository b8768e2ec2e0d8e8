#include "tendril/integrate/options.hpp"

#include <cmath>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril {
namespace {

std::string key(std::string_view prefix, std::string_view field) {
  return std::string(prefix) + std::string(field);
}

void check_range(bool ok, std::string_view prefix, std::string_view field, double value,
                 const char* allowed) {
  if (!ok || std::isnan(value)) throw InputError(key(prefix, field), number_text(value), allowed);
}

template <class Enum, std::size_t N>
Enum parse_enum(std::string_view text, const std::string& key_path, const Enum (&all)[N]) {
  std::string allowed;
  for (Enum e : all) {
    if (to_string(e) == text) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(to_string(e));
  }
  throw InputError(key_path, std::string(text), allowed);
}

}  // namespace

std::string_view to_string(Scheme scheme) {
  return scheme == Scheme::implicit_euler ? "implicit_euler" : "implicit_midpoint";
}
std::string_view to_string(InitialGuess guess) {
  return guess == InitialGuess::inertial ? "inertial" : "previous";
}
std::string_view to_string(Merit merit) {
  return merit == Merit::incremental_potential ? "incremental_potential" : "residual_norm";
}
std::string_view to_string(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::automatic:
      return "automatic";
    case LinearSolverKind::banded_ldlt:
      return "banded_ldlt";
    case LinearSolverKind::sparse_ldlt:
      return "sparse_ldlt";
    case LinearSolverKind::banded_lu:
      return "banded_lu";
    case LinearSolverKind::sparse_lu:
      return "sparse_lu";
  }
  return "unknown";
}

std::string_view to_string(StoppingRule rule) {
  return rule == StoppingRule::tendril ? "tendril" : "dismech";
}

Scheme parse_scheme(std::string_view text, const std::string& key_path) {
  constexpr Scheme all[] = {Scheme::implicit_euler, Scheme::implicit_midpoint};
  return parse_enum(text, key_path, all);
}
InitialGuess parse_initial_guess(std::string_view text, const std::string& key_path) {
  constexpr InitialGuess all[] = {InitialGuess::inertial, InitialGuess::previous};
  return parse_enum(text, key_path, all);
}
Merit parse_merit(std::string_view text, const std::string& key_path) {
  constexpr Merit all[] = {Merit::incremental_potential, Merit::residual_norm};
  return parse_enum(text, key_path, all);
}
LinearSolverKind parse_linear_solver(std::string_view text, const std::string& key_path) {
  constexpr LinearSolverKind all[] = {LinearSolverKind::automatic, LinearSolverKind::banded_ldlt,
                                      LinearSolverKind::sparse_ldlt, LinearSolverKind::banded_lu,
                                      LinearSolverKind::sparse_lu};
  return parse_enum(text, key_path, all);
}

StoppingRule parse_stopping_rule(std::string_view text, const std::string& key_path) {
  constexpr StoppingRule all[] = {StoppingRule::tendril, StoppingRule::dismech};
  return parse_enum(text, key_path, all);
}

void DismechStopping::validate(std::string_view prefix) const {
  check_range(force_tolerance >= 0.0 && std::isfinite(force_tolerance), prefix, "force_tolerance",
              force_tolerance, "a finite number >= 0 [N]");
  check_range(relative_tolerance >= 0.0 && std::isfinite(relative_tolerance), prefix,
              "relative_tolerance", relative_tolerance, "a finite number >= 0");
  check_range(velocity_tolerance >= 0.0 && std::isfinite(velocity_tolerance), prefix,
              "velocity_tolerance", velocity_tolerance, "a finite number >= 0 [m/s]");
}

void LineSearchOptions::validate(std::string_view prefix) const {
  check_range(armijo > 0.0 && armijo < 0.5, prefix, "armijo", armijo, "a number in (0, 0.5)");
  check_range(shrink > 0.0 && shrink < 1.0, prefix, "shrink", shrink, "a number in (0, 1)");
  check_range(min_step > 0.0 && min_step <= 1.0, prefix, "min_step", min_step,
              "a number in (0, 1]");
}

void NewtonOptions::validate(std::string_view prefix) const {
  check_range(force_tolerance >= 0.0 && std::isfinite(force_tolerance), prefix, "force_tolerance",
              force_tolerance, "a finite number >= 0");
  check_range(force_tolerance_abs >= 0.0 && std::isfinite(force_tolerance_abs), prefix,
              "force_tolerance_abs", force_tolerance_abs, "a finite number >= 0 [N]");
  check_range(step_tolerance >= 0.0 && std::isfinite(step_tolerance), prefix, "step_tolerance",
              step_tolerance, "a finite number >= 0");
  check_range(max_iterations >= 1, prefix, "max_iterations", max_iterations, "an integer >= 1");
  check_range(banded_max_bandwidth >= 1, prefix, "banded_max_bandwidth", banded_max_bandwidth,
              "an integer >= 1");
  check_range(singular_pivot_tolerance >= 0.0 && singular_pivot_tolerance < 1.0, prefix,
              "singular_pivot_tolerance", singular_pivot_tolerance, "a number in [0, 1)");
  check_range(max_shift_attempts >= 0, prefix, "max_shift_attempts", max_shift_attempts,
              "an integer >= 0");
  check_range(stiff_segment_ratio == 0.0 ||
                  (stiff_segment_ratio >= 1.0 && std::isfinite(stiff_segment_ratio)),
              prefix, "stiff_segment_ratio", stiff_segment_ratio,
              "0 (off) or a finite number >= 1");
  check_range(chord_contraction >= 0.0 && chord_contraction <= 0.5, prefix, "chord_contraction",
              chord_contraction, "a number in [0, 0.5] (0: off)");
  check_range(threads >= 1 && threads <= kMaxThreads, prefix, "threads", threads,
              "an integer in [1, 64]");
  line_search.validate(key(prefix, "line_search."));
  dismech.validate(key(prefix, "dismech."));
}

void DynamicsOptions::validate(std::string_view prefix) const {
  check_range(dt > 0.0 && std::isfinite(dt), prefix, "dt", dt, "a finite time step > 0 [s]");
  check_range(midpoint_alpha >= 0.5 && midpoint_alpha <= 1.0, prefix, "midpoint_alpha",
              midpoint_alpha, "a number in [0.5, 1]");
  check_range(max_dt_halvings >= 0 && max_dt_halvings <= 30, prefix, "max_dt_halvings",
              max_dt_halvings, "an integer in [0, 30]");
  newton.validate(key(prefix, "newton."));
}

void StaticOptions::validate(std::string_view prefix) const {
  check_range(initial_load_steps >= 1, prefix, "initial_load_steps", initial_load_steps,
              "an integer >= 1");
  check_range(max_load_steps >= initial_load_steps, prefix, "max_load_steps", max_load_steps,
              "an integer >= initial_load_steps");
  newton.validate(key(prefix, "newton."));
}

}  // namespace tendril
