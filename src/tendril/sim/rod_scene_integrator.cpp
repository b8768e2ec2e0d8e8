// The time span, `integrator` and `output` of a rod scene (rod_scene_loader.hpp).
#include <fmt/format.h>

#include "tendril/sim/rod_scene_loader.hpp"

namespace tendril::sim {
namespace {

/// The section integrator.newton (`n`) for a solve of kind `solve`.
NewtonOptions read_newton_options(const io::SceneNode& n, Solve solve) {
  NewtonOptions newton;
  newton.force_tolerance = n.real("force_tolerance");
  newton.force_tolerance_abs = n.real("force_tolerance_abs");
  newton.step_tolerance = n.real("step_tolerance");
  // absent: the options' own default for the kind of solve (30 dynamic, 100 static)
  if (n.has("max_iterations"))
    newton.max_iterations = n.integer("max_iterations");
  else if (solve == Solve::static_equilibrium)
    newton.max_iterations = StaticOptions{}.newton.max_iterations;
  newton.line_search.enabled = n.boolean("line_search");
  newton.chord_contraction = n.real("chord_contraction");
  newton.stopping = parse_stopping_rule(n.text("stopping"), n.child_path("stopping"));
  if (newton.stopping == StoppingRule::dismech) {
    const io::SceneNode d = n.map("dismech");
    newton.dismech = {d.real("force_tolerance"), d.real("relative_tolerance"),
                      d.real("velocity_tolerance")};
  } else if (n.has("dismech")) {
    n.fail("dismech", "only with integrator.newton.stopping: dismech");
  }
  newton.linear_solver =
      parse_linear_solver(n.text("linear_solver"), n.child_path("linear_solver"));
  newton.threads = n.integer("threads");
  return newton;
}

}  // namespace

void RodSceneLoader::read_time_span() {
  out.duration = root.real("duration");
  if (!root.has("restart")) return;
  const io::SceneNode restart = root.map("restart");
  out.restart_run = scene.base_directory() / restart.text("run");
  out.restart_frame = restart.integer("frame");
}

void RodSceneLoader::read_integrator() {
  const io::SceneNode integ = root.map("integrator");
  const std::string type = integ.text("type");
  out.solve = type == "implicit_euler"      ? Solve::implicit_euler
              : type == "implicit_midpoint" ? Solve::implicit_midpoint
                                            : Solve::static_equilibrium;
  out.dt = integ.real("dt");
  const NewtonOptions newton = read_newton_options(integ.map("newton"), out.solve);
  if (out.solve == Solve::static_equilibrium) {
    out.statics.initial_load_steps = integ.integer("static_load_steps");
    out.statics.max_load_steps = integ.integer("static_max_load_steps");
    if (out.statics.max_load_steps < out.statics.initial_load_steps)
      integ.fail("static_max_load_steps",
                 fmt::format(">= static_load_steps ({})", out.statics.initial_load_steps));
    out.statics.newton = newton;
    if (integ.has("initial_guess"))
      integ.fail("initial_guess", "only for time stepping (implicit_euler, implicit_midpoint)");
    out.statics.validate("integrator.");
    if (!out.u_initial.isZero())
      root.fail("initial_conditions", "non-zero velocities or twist rates",
                "no initial velocities with integrator.type static (an equilibrium has none)");
  } else {
    out.dynamics.scheme =
        out.solve == Solve::implicit_euler ? Scheme::implicit_euler : Scheme::implicit_midpoint;
    out.dynamics.dt = out.dt;
    out.dynamics.max_dt_halvings = integ.integer("max_dt_halvings");
    out.dynamics.initial_guess =
        parse_initial_guess(integ.text("initial_guess"), "integrator.initial_guess");
    // the penalty's stiff rise evaluated at the midpoint configuration is not energy-stable: an
    // impact can leave a body with more energy than it had (docs/physics/contact.md); contact steps
    // with implicit Euler
    if (out.solve == Solve::implicit_midpoint && root.has("contact"))
      integ.fail("type", "implicit_midpoint",
                 "implicit_euler or static with contact (the midpoint rule gains energy on contact "
                 "impacts; "
                 "docs/physics/contact.md)");
    if (out.solve == Solve::implicit_midpoint)
      out.dynamics.midpoint_alpha = integ.real("midpoint_alpha");
    else if (integ.has("midpoint_alpha"))
      integ.fail("midpoint_alpha", "only with type implicit_midpoint");
    out.dynamics.newton = newton;
    out.dynamics.validate("integrator.");
    if (!(out.duration > 0.0)) root.fail("duration", "a duration > 0 for a dynamic simulation");
  }
  // the step count must be representable (and a run of more steps is a mistake, not a plan)
  constexpr double kMaxSteps = 1e9;
  if (out.duration / out.dt > kMaxSteps)
    root.fail("duration",
              fmt::format("at most {:g} steps of integrator.dt = {:g} s", kMaxSteps, out.dt));
}

void RodSceneLoader::read_output() {
  const io::SceneNode output = root.map("output");
  if (output.has("interval"))
    out.output_interval = output.real("interval");
  else
    out.output_every_steps = output.integer("every_steps");
}

}  // namespace tendril::sim
