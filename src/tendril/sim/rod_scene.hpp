#pragma once
/// Rod scenes: the schema table of rod scene keys and the loader that turns a scene into a Model
/// (through the rod area's builder), the initial State and the integrator settings.
/// Key reference: docs/scene_reference.md (generated from rod_scene_schema()); conventions
/// (clamp at the midpoint of the first edge, material frame, DOF layout): docs/conventions.md.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/options.hpp"
#include "tendril/io/json.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/sim/media_scene.hpp"

namespace tendril::sim {

/// Largest count a rod scene may ask for (docs/limits.md): nodes of all rods together, and Newton
/// iterations or load steps per solve. Checked when the scene is read, before anything is
/// allocated.
constexpr int kMaxNodes = 1'000'000;
constexpr int kMaxIterations = 100'000;

/// The keys of rod scenes (rods, joints, boundary conditions, forces, integrator, output).
const io::SchemaTable& rod_scene_schema();
/// The schema a rod scene is read with: the common keys plus rod_scene_schema().
io::Schema rod_schema();

enum class Solve { implicit_euler, implicit_midpoint, static_equilibrium };

/// Everything a Simulation needs, built from a scene.
struct RodScene {
  Model model;
  VecX q_initial;  ///< DOFs at t = 0 (#dofs)
  VecX u_initial;  ///< velocities at t = 0 [m/s, rad/s] (#dofs; `initial_conditions`)
  std::vector<std::vector<int>>
      rod_nodes;  ///< model node index of each rod's nodes (#rods x its nodes)
  std::vector<std::vector<int>>
      rod_edges;  ///< model edge index of each rod's edges (#rods x its edges)
  std::vector<std::vector<int>>
      shell_nodes;  ///< model node index of each shell's nodes (#shells x its nodes)
  Solve solve = Solve::implicit_euler;
  DynamicsOptions dynamics;                   ///< used by implicit_euler / implicit_midpoint
  StaticOptions statics;                      ///< used by static_equilibrium
  double dt = 1e-3;                           ///< time step, or spacing of quasi-static solves [s]
  double duration = 0.0;                      ///< T [s]
  int output_every_steps = 1;                 ///< save a frame every this many steps
  std::optional<double> output_interval;      ///< or whenever t crosses a multiple of this [s]
  std::optional<ObservableSpec> observables;  ///< robot observables to record (`observables`)
  std::filesystem::path
      restart_run;          ///< run folder to continue from (`restart.run`; empty: start at t = 0)
  long restart_frame = -1;  ///< its saved frame (`restart.frame`; < 0 from the end)
  std::string description;
  io::Json resolved;  ///< the scene as used (defaults filled in, overrides applied)
};

/// The scene's name of model node `node`: "rods[2].nodes[7]" or "shells[0].nodes[12]" (a node
/// shared by a rod and a shell is named by its rod), or "" for an index the scene does not list.
std::string scene_node_name(const RodScene& scene, int node);

/// Rigid motion of clamped DOFs from t = 0: x(t) = c + v t + R(omega t) (x(0) - c) for the nodes,
/// theta(t) = theta(0) + (omega . t_0) t for the twist DOFs (t_0 the tangent of each twisted edge
/// at t = 0).
PrescribedMotion clamp_motion(std::vector<int> nodes, std::vector<int> twist_dofs,
                              std::vector<Vec3> tangents, const Vec3& velocity, const Vec3& omega,
                              const Vec3& center);

/// Reads a parsed rod scene (built with rod_schema()), validates every key (InputError with the
/// key path and value) and builds the Model. Unknown or unused keys are errors.
RodScene load_rod_scene(io::Scene& scene);
/// Parses a YAML/JSON file, applies "key.path=value" overrides and loads it.
RodScene load_rod_scene_file(const std::filesystem::path& file,
                             const std::vector<std::string>& overrides = {});
/// The same for a scene given as YAML text; `origin` names it in error messages.
RodScene load_rod_scene_text(const std::string& text,
                             const std::vector<std::string>& overrides = {},
                             const std::string& origin = "scene");

}  // namespace tendril::sim
