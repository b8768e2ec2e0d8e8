#pragma once
/// The fit file of `tendril fit FIT.yaml` (docs/physics/fitting.md, keys in docs/scene_reference.md
/// under "Fit files"): the scene, the fitted parameters (scene key paths with initial value, bounds
/// and scale), the measurements (a CSV whose `variables` columns are experiment settings and whose
/// observable columns are compared with run observables) and the method with its options. Read
/// through its own schema table, so bad input names the key, the value and file:line:column.

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/fit/run_least_squares.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/io/json.hpp"
#include "tendril/io/schema.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine3d/shooting_fit3d.hpp"

namespace tendril::fit {

/// The keys of a fit file.
const io::SchemaTable& fit_file_schema();

struct FitFile {
  std::filesystem::path path;   ///< the fit file
  std::filesystem::path scene;  ///< the scene file (relative paths resolved against the fit file)
  std::string method;           ///< a name of fit_methods() (fit_methods.hpp)
  std::vector<FitParameter> parameters;
  /// vine methods: what each parameter's key names (vine_shooting_fit.hpp)
  std::vector<VineParameter> vine_parameters;
  std::filesystem::path data_csv;  ///< the measurements
  std::vector<std::string>
      variables;  ///< CSV columns that are scene key paths (the experiments' settings)
  std::vector<std::string>
      columns;            ///< the CSV column of each observable (as MeasurementTable::observables)
  MeasurementTable data;  ///< observables in SI (column values times their factor)
  std::vector<MeasuredFrame>
      frames;  ///< vine methods: measured centre-line points per simulation step [m]
  /// vine3d_shooting: the tracked joint points (base, bodies' proximal ends, tip) per step [m]
  std::vector<vine3d::TrackedFrame3> tracked_points;
  RunFitOptions options;
  JointEstimationOptions
      estimation;     ///< joint_estimation: its options (bounds and scales from the parameters)
  int jobs = 0;       ///< runs at once (0: all local cores)
  io::Json resolved;  ///< the fit file as read, defaults filled in
  io::Json track;     ///< data.track's conversions (fit/track_import.hpp; null without)
  /// the start is the data's first frame (data.track's start): vine_shooting estimates it
  bool measured_start = false;
};

/// Reads and checks a fit file: every key against the schema, the parameters (real-valued keys of
/// the scene's schema, bounds containing the initial value; joint_estimation: vine.stiffness and
/// vine.damping; vine_shooting: the keys of vine_parameter_keys(); vine3d_shooting:
/// vine3d.stiffness and vine3d.damping, fit/vine3d_fit_file.hpp), the CSV columns, the method's
/// options (a key of another method is refused), and the scene itself with the parameters at their
/// initial values and each experiment's settings (and joint_estimation's known contacts against
/// it). InputError otherwise.
FitFile read_fit_file(const std::filesystem::path& file);

/// True for the methods that fit a vine scene's K and C to measured frames (vine_shooting,
/// joint_estimation).
bool is_vine_method(const std::string& method);

/// vine_shooting's parameter keys and what each fits: vine.stiffness, vine.damping,
/// vine.growth.rate (a constant rate), vine.growth.schedule[i] (the rate of row i),
/// vine.rest_angles[0] (the base heading), vine.contact.radius, and the inflated-beam law's
/// identifiable vine.inflated_beam.collapse_moment (M_c = pi p r^3) and
/// vine.inflated_beam.wrinkling_angle (theta_w = l eps_w / r).
std::string vine_parameter_keys();

/// A vine method's scene with `settings` and the parameters at their initial values
/// (set_vine_parameter); InputError (check_vine_parameters) for a parameter the scene's model does
/// not have.
vine::VineScene vine_scene_at_initial_values(const FitFile& file, const RunSettings& settings);

}  // namespace tendril::fit
