#pragma once
/// Scene keys of the media forces, actuation schedules, per-spring rest shapes, robot observables
/// and the flagellated-robot generator (schema table: media_scene_schema();
/// docs/scene_reference.md). Called by load_rod_scene (rod_scene.cpp) once the rods are built.

#include <filesystem>
#include <optional>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril::sim {

const io::SchemaTable& media_scene_schema();

/// What the loader knows about the rods when the media keys are read.
struct SceneRods {
  const std::vector<io::SceneNode>& nodes;  ///< the scene's `rods` entries (#rods)
  const std::vector<std::vector<int>>&
      rod_nodes;  ///< model node of each rod node (#rods x its nodes)
  const std::vector<std::vector<int>>&
      rod_edges;                              ///< model edge of each rod edge (#rods x its edges)
  const std::vector<RodMaterial>& materials;  ///< material of each rod (#rods)
};

/// Robot observables asked for by `observables` (model edge indices).
struct ObservableSpec {
  int head_edge = -1;  ///< its midpoint is the robot's position; its material frame the head's spin
  int tail_edge = -1;  ///< an edge that turns with the tails
  Vec3 axis = Vec3::UnitX();           ///< forward direction (unit)
  std::optional<double> steady_start;  ///< fits use t >= this [s] (default: half the duration)
};

/// If the scene has `flagellated_robot`, writes the rods, joints, forces, actuation and observables
/// it generates into the scene (InputError if the file also has one of them). See
/// docs/physics/flagellated_robot.md for the geometry.
void expand_flagellated_robot(io::Scene& scene);

/// forces.viscous_drag, forces.rft, forces.head_drag -> model.forces.
void load_media_forces(const io::SceneNode& forces, const SceneRods& rods, Model& model);

/// `actuation` -> model.actuators; relative CSV paths are resolved against `base`.
void load_actuation(const io::SceneNode& root, const SceneRods& rods,
                    const std::filesystem::path& base, Model& model);

/// `observables`, if present.
std::optional<ObservableSpec> load_observables(const io::SceneNode& root, const SceneRods& rods);

/// A node or edge index written in the scene (negative counts from the end) made 0-based;
/// InputError naming `key` of `at` if it is outside -count..count-1. `what` is "node" or "edge".
int resolve_index(const io::SceneNode& at, const std::string& key, int value, int count,
                  const char* what);

/// The bend-twist springs of rod `rod` at model node `node` whose two edges both belong to that
/// rod.
std::vector<int> springs_of_rod_at(const Model& model, const SceneRods& rods, int rod, int node);

}  // namespace tendril::sim
