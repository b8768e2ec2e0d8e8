#pragma once
/// Shell scenes (schema table: shell_scene_schema(); docs/scene_reference.md,
/// docs/physics/shells.md): triangle meshes from generators, MAT-DiSMech files and OBJ files, shell
/// materials and models, clamps, fixed nodes, initial velocities, rod-shell joints, point masses,
/// buoyancy and aerodynamic drag. Called by load_rod_scene (rod_scene.cpp) once the rods are built.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/shell_builder.hpp"
#include "tendril/sim/media_scene.hpp"

namespace tendril::sim {

const io::SchemaTable& shell_scene_schema();

/// One `shells` entry as read before the model is built.
struct SceneShell {
  io::TriangleMesh mesh;         ///< nodes [m] (translated by `origin`) and shell-local triangles
  ShellInput input;              ///< material, models; triangles (model node indices) once added
  std::string mat_dismech_file;  ///< `geometry.file` of a MAT-DiSMech file (type file), else ""
  std::size_t mat_dismech_edges =
      0;  ///< rod edges in that file (a rod naming the same file takes them)
};

/// Reads the meshes and materials of the `shells` entries (InputError naming the key, or the file,
/// line and value for mesh files); relative file names are resolved against `base`.
std::vector<SceneShell> read_scene_shells(const std::vector<io::SceneNode>& entries,
                                          const std::filesystem::path& base);

/// Adds the shells to `model`, which holds the scene's rods and nothing else yet: the shell nodes
/// after the rod nodes (joint nodes are the rod's node), triangles, terms
/// (shell/shell_builder.hpp), clamps and fixed nodes. Grows q_initial and u_initial to the new DOF
/// count (u_initial: the shells' `velocity`). Returns the model node of each shell node (#shells x
/// its nodes).
std::vector<std::vector<int>> add_scene_shells(const std::vector<io::SceneNode>& entries,
                                               std::vector<SceneShell>& shells,
                                               const SceneRods& rods, Model& model, VecX& q_initial,
                                               VecX& u_initial);

/// The shell index under `at`.shell, checked against the scene's shells (InputError naming the
/// key).
int shell_index(const io::SceneNode& at, const std::vector<std::vector<int>>& shell_nodes);
/// The model node of node `node` (negative: from the end) of shell `at`.shell (InputError naming
/// the key).
int shell_node(const io::SceneNode& at, const std::vector<std::vector<int>>& shell_nodes, int node);
/// Each model node of `shell` with its share of the shell's rest area: a third of every adjacent
/// triangle's [m^2] (the lumping of the shell's mass, shell/shell_builder.hpp).
std::vector<std::pair<int, double>> shell_node_areas(const SceneShell& shell, const Model& model);

/// `point_masses`, `forces.buoyancy` and `forces.aerodynamic_drag` -> model masses, energies and
/// forces.
void load_shell_forces(const io::SceneNode& root, const SceneRods& rods,
                       const std::vector<SceneShell>& shells,
                       const std::vector<std::vector<int>>& shell_nodes, Model& model);

}  // namespace tendril::sim
