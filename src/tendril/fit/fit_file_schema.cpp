// The fit file's schema table (keys in docs/scene_reference.md, "Fit files"): the scene, the
// parameters, the measurements and the options of every method (joint_estimation's from
// fit/joint_estimation_fit_file.hpp).
#include <string>
#include <vector>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/joint_estimation_fit_file.hpp"
#include "tendril/fit/run_observables.hpp"
#include "tendril/fit/track_import.hpp"
#include "tendril/io/schema_keys.hpp"

namespace tendril::fit {

using io::KeyType;
using namespace io::keys;

namespace {

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const FitMethod& m : fit_methods()) names.push_back(m.name);
  return names;
}

/// `a` then `b`.
std::vector<io::KeySpec> joined(std::vector<io::KeySpec> a, std::vector<io::KeySpec> b) {
  for (io::KeySpec& k : b) a.push_back(std::move(k));
  return a;
}

/// `table` with `keys` appended.
io::SchemaTable with_keys(io::SchemaTable table, std::vector<io::KeySpec> keys) {
  for (io::KeySpec& k : keys) table.keys.push_back(std::move(k));
  return table;
}

}  // namespace

/// The section's example on the reference page (a test runs it from the repository's root:
/// tests/docs).
constexpr const char* kFitExample =
    R"yaml(description: "C1, C2, mu of the granular medium from the flagellated robot's speed and head rotation"
scene: examples/flagellated_robot.yaml
settings: [duration=3]
method: finite_difference_lm
parameters:
  - {key: flagellated_robot.C1, initial: 3.0, lower: 0.5, upper: 10}
  - {key: flagellated_robot.C2, initial: 0.05, lower: 0.005, upper: 0.5}
  - {key: flagellated_robot.mu, initial: 5.0, lower: 1, upper: 20}
data:
  csv: examples/fit/flagellated_robot_n2.csv
  variables: [flagellated_robot.tails, flagellated_robot.motor_rpm]
  observables:
    - {column: v_mm_per_s, observable: speed, factor: 1e-3, sigma: 1e-5}
    - {column: omega_h_rad_per_s, observable: head_rotation_rate, sigma: 0.1}
)yaml";

const io::SchemaTable& fit_file_schema() {
  static const io::SchemaTable table = with_keys(
      io::SchemaTable{
          "Fit files",
          "The file of `tendril fit FIT.yaml` (docs/physics/fitting.md): the scene, the fitted "
          "parameters, the "
          "measurements and the method. Relative paths are resolved against the fit file.",
          {
              {.path = "scene",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "The scene file whose parameters are fitted."},
              {.path = "settings",
               .type = KeyType::StringList,
               .default_value = kOpt,
               .unit = "",
               .doc =
                   "Overrides key.path=value applied to every run (as `--set`, e.g. duration=3)."},
              choice("method", "finite_difference_lm", method_names(),
                     "finite_difference_lm: bounded Levenberg-Marquardt over whole runs of a rod "
                     "scene, Jacobian by "
                     "finite differences of runs evaluated in parallel. adjoint_lm: the same, "
                     "Jacobian from the exact derivatives of each run (forward sensitivities, or "
                     "the adjoint for implicit midpoint and quasi-static scenes; the keys and "
                     "observables of docs/physics/fitting.md). vine_shooting: the vine's "
                     "uniform K and C "
                     "(vine.stiffness, vine.damping), growth rates, base heading, contact radius "
                     "or the inflated-beam law's M_c and theta_w by single shooting with exact "
                     "sensitivities. "
                     "joint_estimation: the vine's K and C with its trajectory, the paper's eq. 16 "
                     "solved by IPOPT. vine3d_shooting: a 3D vine scene's uniform K and C "
                     "(vine3d.stiffness, vine3d.damping) from tracked 3D joint points by single "
                     "shooting with exact sensitivities."),
              {.path = "parameters",
               .type = KeyType::List,
               .default_value = kReq,
               .unit = "",
               .doc = "The fitted parameters, one map each."},
              {.path = "parameters[].key",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "A real-valued scene key path, as `--set` takes it (e.g. "
                      "flagellated_robot.C1). vine_shooting: vine.stiffness, vine.damping, "
                      "vine.growth.rate, vine.growth.schedule[i] (row i's rate), "
                      "vine.rest_angles[0] (the base heading), vine.contact.radius, "
                      "vine.inflated_beam.collapse_moment (M_c = pi p r^3 [N m]) or "
                      "vine.inflated_beam.wrinkling_angle (theta_w = l eps_w / r [rad]); "
                      "joint_estimation: vine.stiffness, then vine.damping, then optionally "
                      "vine.growth.rate or vine.growth.schedule[i], vine.rest_angles[0] and "
                      "vine.contact.radius (with known contacts), without bounds or scale; "
                      "vine3d_shooting: vine3d.stiffness and vine3d.damping."},
              real("parameters[].initial", kReq, "as the key", "Start value, within the bounds."),
              real("parameters[].lower", kOpt, "as the key", "Lower bound (default: none)."),
              real("parameters[].upper", kOpt, "as the key", "Upper bound (default: none)."),
              positive("parameters[].scale", kOpt, "as the key",
                       "Typical magnitude: the fit works in value / scale (default: |initial|, or "
                       "1 if it is 0)."),
              node("data", KeyType::Map, "The measurements."),
              {.path = "data.csv",
               .type = KeyType::String,
               .default_value = kOpt,
               .unit = "",
               .doc = "CSV file with a header line; one row per experiment (lines starting with # "
                      "are comments). Required unless data.track is given."},
              {.path = "data.variables",
               .type = KeyType::StringList,
               .default_value = kOpt,
               .unit = "",
               .doc = "Columns that are scene key paths: each row's values are set on the scene "
                      "for its run."},
              {.path = "data.observables",
               .type = KeyType::List,
               .default_value = kOpt,
               .unit = "",
               .doc = "finite_difference_lm, adjoint_lm (required): the measured columns, one map "
                      "each; an "
                      "empty cell is not measured."},
              {.path = "data.observables[].column",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "The CSV column."},
              {.path = "data.observables[].observable",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "The run observable it measures: " + run_observable_syntax() +
                      " (robot observables: run.json info.observables, docs/output_format.md)."},
              positive("data.observables[].factor", "1", "-",
                       "Multiplies the column to SI units (e.g. 1e-3 for mm/s)."),
              positive("data.observables[].sigma", kOpt, "SI unit of the observable",
                       "Measurement error: residuals are (simulated - measured) / sigma. Given for "
                       "every observable, "
                       "the uncertainties are (J^T J)^-1 with these errors; otherwise (default: "
                       "the RMS of the "
                       "column, a weight only) they are scaled by the residual's s^2."),
              node("data.frames", KeyType::Map,
                   "vine_shooting, joint_estimation, vine3d_shooting (required): the CSV holds "
                   "measured centre-line points, one row per point, base to tip within each frame "
                   "(vine3d_shooting: in any order, by their point column)."),
              {.path = "data.frames.step",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "Column of the simulation step a point's frame is taken at (0: the start)."},
              integer("data.frames.step_offset", "0", -1e9,
                      "Subtracted from the step column (1 for 1-based steps)."),
              {.path = "data.frames.x",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "Column of x."},
              {.path = "data.frames.y",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "Column of y."},
              {.path = "data.frames.z",
               .type = KeyType::String,
               .default_value = kOpt,
               .unit = "",
               .doc = "vine3d_shooting (required): column of z."},
              {.path = "data.frames.point",
               .type = KeyType::String,
               .default_value = kOpt,
               .unit = "",
               .doc = "vine3d_shooting (required): column of the joint point's index, 0 the base, "
                      "i the proximal end of body i, n the tip of the n bodies; every frame has "
                      "each once."},
              positive("data.frames.factor", "1", "-",
                       "Multiplies x and y (and z) to metres (e.g. 1e-3 for mm)."),
              node("options", KeyType::Map,
                   "Solver options; a key that the method does not use is refused (each key's "
                   "description names its methods)."),
              integer("options.max_iterations", kOpt, 1,
                      "Most iterations: of Levenberg-Marquardt (Jacobians; default 30), of IPOPT "
                      "with joint_estimation "
                      "(default 500)."),
              positive("options.difference_step", "1e-3", "-",
                       "finite_difference_lm: forward-difference step in value / scale, times "
                       "max(1, |value / scale|)."),
              positive(
                  "options.step_tolerance", "1e-6", "-",
                  "finite_difference_lm, adjoint_lm, vine_shooting, vine3d_shooting: converged "
                  "when a step in value / scale (vine_shooting, vine3d_shooting: in ln K, "
                  "ln C) is below this."),
              positive(
                  "options.cost_tolerance", "1e-10", "-",
                  "finite_difference_lm, adjoint_lm, vine_shooting: converged when an accepted "
                  "step "
                  "lowers the cost by less than this "
                  "fraction."),
              positive("options.gradient_tolerance", "1e-10", "-",
                       "finite_difference_lm, adjoint_lm: converged when the projected gradient is "
                       "below this."),
              integer(
                  "options.jobs", "0", 0,
                  "finite_difference_lm, adjoint_lm: runs at once on worker threads (0: all local "
                  "cores; "
                  "--jobs overrides)."),
          },
          kFitExample},
      joined(joint_estimation_option_keys(), track_import_keys()));
  return table;
}

}  // namespace tendril::fit
