#pragma once
/// 3D vine-robot scene files: a top-level `vine3d:` map (keys in vine3d_scene_schema(), documented
/// in docs/scene_reference.md) read into a Vine3dModel and an initial Vine3dState
/// (docs/physics/vine3d.md#scenes). The `tendril` command runs scenes with a top-level `vine3d:`
/// key as a Vine3dRun (vine3d_run.hpp) through io::run.
///
///   io::Scene scene = io::Scene::from_file(file, vine3d::vine3d_schema(), overrides);
///   vine3d::Vine3dScene s = vine3d::load_vine3d_scene(scene);   // InputError on bad input

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/io/json.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/schema.hpp"
#include "tendril/vine3d/vine3d_model.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {

/// The keys of the `vine3d:` map.
const io::SchemaTable& vine3d_scene_schema();
/// common_schema() + vine3d_scene_schema().
io::Schema vine3d_schema();

struct Vine3dScene {
  Vine3dModel model;
  Vine3dState initial;  ///< state at the start (t = 0, or a saved frame's)
  long steps = 0;       ///< steps to run
  int save_every = 1;   ///< save a frame every this many steps (frame 0 is the initial state)
  io::Json resolved;    ///< the scene as used
  Vine3dWarmStart warm_start;  ///< the QP warm start of the first step (restart from a run)
};

/// Reads and checks a parsed scene: unknown or unused keys, sizes, non-finite values, zero-length
/// bodies, a start whose joints do not meet (a broken chain), obstacles that enclose the base or
/// hold a body at the start all throw InputError naming the key path, the value and what is
/// allowed.
Vine3dScene load_vine3d_scene(io::Scene& scene);
/// Parses `file` (overrides "key.path=value" applied) and loads it.
Vine3dScene load_vine3d_scene_file(const std::filesystem::path& file,
                                   const std::vector<std::string>& overrides = {});

struct SavedVine3dState {
  Vine3dState state;           ///< positions, orientations, velocities and t of the frame
  Vine3dWarmStart warm_start;  ///< empty if the run did not save it
};

/// Frame `frame` (< 0: counted from the end) of the 3D vine run in `run_dir`, for `model`. Throws
/// InputError at `key` if the folder is not a readable vine3d run of as many bodies, at
/// `frame_key` if it has no such frame.
SavedVine3dState read_saved_state(const std::filesystem::path& run_dir, long frame,
                                  const Vine3dModel& model, const std::string& key,
                                  const std::string& frame_key);

}  // namespace tendril::vine3d
