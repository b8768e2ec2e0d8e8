#pragma once
/// The steps of load_rod_scene (rod_scene.hpp), one per scene section, and what they share: the
/// rods as read, their numbering in the model and the scene's shells. Internal to the sim area:
/// rod_scene.cpp (rods, joints, rest shapes), rod_scene_geometry.cpp (geometry and material of a
/// rod), rod_scene_conditions.cpp (boundary and initial conditions), rod_scene_forces.cpp (loads)
/// and rod_scene_integrator.cpp (time span, integrator, output).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tendril/forces/point_load.hpp"
#include "tendril/io/rod_generators.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/sim/media_scene.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/shell_scene.hpp"

namespace tendril::sim {

/// One `rods` entry as read.
struct RodInput {
  io::Polyline line;
  std::size_t file_triangles =
      0;  // triangles of its geometry file (for a shell naming the same file)
  std::string clamp;
  std::optional<Vec2> natural_curvature;  // [1/m]
  std::optional<double> natural_twist;    // [rad/m]
};

/// The rod's node and edge lists; `file_triangles` is set to the triangles of a geometry file,
/// which the rod leaves to a shell naming the same file (0 for other geometries).
io::Polyline read_geometry(const io::SceneNode& g, bool clamped_at_start,
                           const std::filesystem::path& base, std::size_t& file_triangles);
/// A rod's `material`: E, nu or G, density, and a radius or a section {A, I1, I2, J}.
RodMaterial read_material(const io::SceneNode& m);
/// A MAT-DiSMech file holding rods and triangles (mat_dismech 6.1) must be named by a rod entry
/// (for its *Edges) and by a shell entry (for its *Triangles): a part nobody reads is an error, not
/// left out.
void check_shared_geometry_files(const std::vector<io::SceneNode>& rods,
                                 const std::vector<RodInput>& rod_inputs,
                                 const std::vector<io::SceneNode>& shell_entries,
                                 const std::vector<SceneShell>& shells);

/// A constant vector under `key` or a piecewise-linear `table` of rows [t, x, y, z] (one of them)
/// (`rate`: the vector under `key` times t instead).
ForceHistory history(const io::SceneNode& p, const char* key, bool rate = false);

/// A rod scene being loaded into `out`: each step reads one section of the scene, in the order
/// load_rod_scene calls them (later steps use what earlier ones built). Every key is checked where
/// it is read (InputError naming it).
struct RodSceneLoader {
  RodSceneLoader(io::Scene& parsed, RodScene& result);

  /// `duration` and the `restart` frame the run continues from.
  void read_time_span();
  /// `rods`: geometry, material, natural shape and first director of each, numbered globally in
  /// order; then the `shells` as read (their meshes and materials).
  void read_rods();
  /// `joints`: merges coincident nodes of different rods; one model node per joint class.
  void join_rods();
  /// The rods' `stiffness_overrides` of edges or nodes.
  void read_stiffness_overrides();
  /// The rod model, then the shells' nodes and triangles (shell_scene.cpp), and the rest state.
  void build_model();
  /// Natural curvature / twist given per rod (else from the initial shape) or per spring
  /// (`rest_shape`): integrated per spring.
  void set_natural_shapes();
  /// The rods' clamps and their `clamp_motion`.
  void add_clamps();
  /// `boundary_conditions`: fixed nodes, twists and components, moving nodes.
  void add_boundary_conditions();
  /// `initial_conditions`: node velocities, twist angles and rates.
  void read_initial_conditions();
  /// `forces`: gravity, point loads, surface loads, point moments, follower loads.
  void add_forces(const io::SceneNode& forces);
  /// `contact`, with each rod's radius (sqrt(A / pi) for a general section).
  void add_contact_terms();
  /// Media forces, actuation schedules, robot observables (media_scene.cpp).
  void add_media_and_actuation(const io::SceneNode& forces);
  /// `integrator`: the kind of solve and its options, the step count checked against `duration`.
  void read_integrator();
  /// `output`: the interval or step count between saved frames.
  void read_output();

  /// The rod index under `at`.rod, checked against the scene's rods.
  int rod_index(const io::SceneNode& at) const;
  /// Nodes of rod r.
  int rod_size(int r) const;
  /// Edges of rod r.
  int rod_edge_count(int r) const;
  /// Fixes the three position DOFs of model node n.
  void fix_node(int n);

  io::Scene& scene;
  io::SceneNode root;  ///< the scene's root map
  RodScene& out;
  Model& model;
  std::vector<io::SceneNode> rods;           ///< the `rods` entries
  std::vector<io::SceneNode> shell_entries;  ///< the `shells` entries
  RodNetworkInput net;
  std::vector<RodInput> rod_inputs;
  std::vector<int> node_offset, edge_offset;  ///< each rod's first node and edge in `net`
  int num_rods = 0;
  std::vector<SceneShell> shells;
  SceneRods scene_rods;
};

}  // namespace tendril::sim
