#pragma once
/// Vine-robot scene files: a top-level `vine:` map (keys in vine_scene_schema(), documented in
/// docs/scene_reference.md) read into a VineModel and an initial VineState, and a run that writes a
/// "tendril-run 2" directory of kind "vine" (docs/output_format.md, arrays listed below).
///
/// The `tendril` command parses scenes with a top-level `vine:` key
/// (io::Scene::has_top_level("vine")) with vine_schema() and runs them as a VineRun (vine_run.hpp)
/// through io::run; the *_file variants parse the file themselves:
///   vine::validate_scene_file(file, overrides)                  -> throws InputError on bad input
///   vine::run_vine(vine::load_vine_scene_file(file), out_dir)   -> io::RunResult

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tendril/io/run_directory.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/schema.hpp"
#include "tendril/vine/initial_state.hpp"
#include "tendril/vine/vine_model.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

/// Most bodies a vine scene may have (docs/limits.md), checked before anything is allocated.
constexpr int kMaxBodies = 100'000;

/// The keys of the `vine:` map.
const io::SchemaTable& vine_scene_schema();
/// common_schema() + vine_scene_schema().
io::Schema vine_schema();

struct VineScene {
  VineModel model;
  VineState initial;   ///< state at t = 0
  long steps = 0;      ///< steps to run
  int save_every = 1;  ///< save a frame every this many steps (frame 0 is the initial state)
  io::Json resolved;   ///< the scene as used
  ProjectionReport projection;  ///< how far the start state was moved onto the constraints
  VineWarmStart warm_start;     ///< the QP warm start of the first step (restart from a run)
};

/// The growth rate u(t) of a `growth` map: `rate` (constant, default 0), `schedule` (piecewise
/// constant rows [t_start, u]) or `table_csv` (a CSV file relative to `base_dir`, interpolated);
/// shared with the 3D vine's scenes (InputError at the map's keys).
GrowthSchedule read_growth(const io::SceneNode& g, const std::filesystem::path& base_dir);
/// The inflated-beam law's tube of an `inflated_beam` map (pressure, wrinkling_strain, radius
/// default tube_diameter / 2, joint_length default 4 half_length, the bending joints' spacing).
InflatedBeam read_inflated_beam(const io::SceneNode& b, double tube_diameter, double half_length);

/// Reads and checks a parsed scene (unknown or unused keys, sizes, NaN, bodies inside obstacles
/// at the start all throw InputError naming the key path).
VineScene load_vine_scene(io::Scene& scene);
/// Parses `file` (overrides "key.path=value" applied) and loads it.
VineScene load_vine_scene_file(const std::filesystem::path& file,
                               const std::vector<std::string>& overrides = {});

/// Checks a scene (parsed with vine_schema()) without running it (throws InputError).
void validate_scene(io::Scene& scene);
void validate_scene_file(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides = {});

/// Runs a loaded scene into `out_dir` (a VineRun through io::run). Arrays (F saved frames, S steps,
/// n bodies, P contact pairs): frame_time (F) [s], body_pose (F, n, 3) [m, m, rad], body_velocity
/// (F, n, 3) [m/s, m/s, rad/s], centerline (F, n + 1, 2) [m], qp_warm_start (F, ...), step_time (S)
/// [s], step_status (S), step_qp_iterations (S), step_kkt_residual (S), step_joint_error (S) [m],
/// step_min_distance (S) [m], contact_normal_impulse (S, P) [N s], growth_rate (S) [m/s],
/// achieved_growth_rate (S) [m/s], step_wall_time (S) [s], step_active_contacts (S),
/// step_contact_pairs (S).
io::RunResult run_vine(const VineScene& scene, const std::filesystem::path& out_dir,
                       const std::function<void(const io::RunProgress&)>& progress = {});

}  // namespace tendril::vine
