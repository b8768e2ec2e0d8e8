// The `tendril` command: run, validate and document scenes.
//   tendril run SCENE [--out DIR] [--set key.path=value ...]
//   tendril validate SCENE [--set key.path=value ...]
//   tendril schema [--markdown]
//   tendril modes SCENE [--count N] [--shapes FILE.npy] [--buckling] [--set key.path=value ...]
//   tendril sweep SCENE --set key.path=v1,v2,... [--out DIR] [--jobs N]   (sweep_command.cpp)
//   tendril fit FIT.yaml [--out DIR] [--jobs N]                             (fit_command.cpp)
// Scenes with a top-level `vine:` key are run by the vine simulator (vine/vine_run.hpp), with
// `vine3d:` by the 3D vine simulator (vine3d/vine3d_run.hpp), others by the rod and shell
// simulation; `run` drives either through the same io::run (io/stepper.hpp). Exit codes
// (kExitCodes, shown by --help; docs/limits.md): 0 success, 1 a run that failed (numerically, or
// its output could not be written), 2 bad input or an internal error, 128 + signal for a run or fit
// stopped by SIGINT (130), SIGTERM (143), SIGHUP (129) or SIGPIPE (141).

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "progress_bar.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/core/printable_text.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/sim/contact_scene.hpp"
#include "tendril/sim/natural_modes.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/shell_scene.hpp"
#include "tendril/sim/simulation.hpp"
#include "tendril/vine/vine_run.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine3d/vine3d_run.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"

namespace {

namespace fs = std::filesystem;
using namespace tendril;

constexpr int kExitFailedRun = 1;
constexpr int kExitBadInput = 2;
constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0    success\n"
    "  1    the run failed (a step did not converge, a non-finite state, its output could not be\n"
    "       written); what was written is kept in <out>.failed with status \"failed\"\n"
    "  2    bad input (scene, options, files; the message names the key path), or an internal "
    "error\n"
    "  130  the run or fit was stopped by SIGINT (Ctrl-C); 143 by SIGTERM, 129 by SIGHUP, 141 by "
    "SIGPIPE\n"
    "       (128 + the signal); kept in <out>.failed with status \"interrupted\"\n"
    "Size limits: docs/limits.md.";

/// Every schema table, in the order of the reference page.
std::vector<const io::SchemaTable*> all_tables() {
  return {&io::common_schema(),           &sim::rod_scene_schema(),   &sim::contact_scene_schema(),
          &sim::media_scene_schema(),     &sim::shell_scene_schema(), &vine::vine_scene_schema(),
          &vine3d::vine3d_scene_schema(), &fit::fit_file_schema()};
}

/// The simulator a scene is for: its top-level key.
enum class SceneKind { rod, vine, vine3d };

/// Parses the scene file once (overrides applied) with the schema of its simulator: a top-level
/// `vine:` key selects the vine simulator, `vine3d:` the 3D vine simulator, anything else the rod
/// simulation.
io::Scene read_scene(const fs::path& scene_file, const std::vector<std::string>& overrides,
                     SceneKind& kind) {
  io::Scene scene = io::Scene::from_file(scene_file, io::Schema{}, overrides);
  kind = scene.has_top_level("vine")     ? SceneKind::vine
         : scene.has_top_level("vine3d") ? SceneKind::vine3d
                                         : SceneKind::rod;
  scene.use_schema(kind == SceneKind::vine     ? vine::vine_schema()
                   : kind == SceneKind::vine3d ? vine3d::vine3d_schema()
                                               : sim::rod_schema());
  return scene;
}

/// The simulation of a parsed scene (read_scene): a VineRun for a vine scene, a Vine3dRun for a 3D
/// vine scene, the rod and shell Simulation otherwise.
std::unique_ptr<io::Stepper> make_simulation(io::Scene& scene, SceneKind kind) {
  if (kind == SceneKind::vine) return std::make_unique<vine::VineRun>(vine::load_vine_scene(scene));
  if (kind == SceneKind::vine3d)
    return std::make_unique<vine3d::Vine3dRun>(vine3d::load_vine3d_scene(scene));
  return std::make_unique<sim::Simulation>(sim::load_rod_scene(scene));
}

/// Runs `simulation` into `out` with a progress bar and reports how it ended (exit code).
int report_run(const fs::path& scene_file, io::Stepper& simulation, const fs::path& out) {
  cli::ProgressBar bar(std::string(simulation.iterations_name()));
  const io::RunResult result = io::run(simulation, out, [&](const io::RunProgress& p) {
    bar.update(static_cast<double>(p.step) / static_cast<double>(p.total_steps), p.time, p.duration,
               p.iterations);
  });
  bar.finish();
  if (!result.ok) {
    std::fprintf(stderr, "error: run %s: %s\n  %s\n", result.signal ? "interrupted" : "failed",
                 printable(result.message, 2000).c_str(),
                 result.path.empty() ? "nothing could be kept (the output could not be written)"
                                     : ("partial output kept in " + result.path.string()).c_str());
    return result.signal ? 128 + result.signal : kExitFailedRun;
  }
  std::printf("%s: %ld steps, %ld frames written to %s\n", scene_file.string().c_str(),
              result.steps, result.frames, result.path.string().c_str());
  return 0;
}

int run_command(const fs::path& scene_file, fs::path out,
                const std::vector<std::string>& overrides) {
  io::install_stop_handlers();
  if (out.empty()) out = fs::path("runs") / scene_file.stem();
  SceneKind kind = SceneKind::rod;
  io::Scene scene = read_scene(scene_file, overrides, kind);
  const std::unique_ptr<io::Stepper> simulation = make_simulation(scene, kind);
  return report_run(scene_file, *simulation, out);
}

int validate_command(const fs::path& scene_file, const std::vector<std::string>& overrides) {
  SceneKind kind = SceneKind::rod;
  io::Scene parsed = read_scene(scene_file, overrides, kind);
  if (kind == SceneKind::vine) {
    vine::validate_scene(parsed);
    std::printf("%s: valid (vine scene)\n", scene_file.string().c_str());
    return 0;
  }
  if (kind == SceneKind::vine3d) {
    const vine3d::Vine3dScene scene = vine3d::load_vine3d_scene(parsed);
    std::printf("%s: valid (3D vine scene, %d bodies, %zu obstacles)\n",
                scene_file.string().c_str(), scene.model.num_bodies, scene.model.obstacles.size());
    return 0;
  }
  const sim::RodScene scene = sim::load_rod_scene(parsed);
  std::printf("%s: valid (%d nodes, %zu edges, %zu bend-twist springs)\n",
              scene_file.string().c_str(), scene.model.dofs.num_nodes,
              scene.model.rods.edges.size(), scene.model.rods.springs.size());
  return 0;
}

/// Natural frequencies (and mode shapes into `shapes_file`, a (#dofs, count) .npy) of a scene about
/// its initial state, or about its static solution at the end of a static scene; with `buckling`,
/// the linear buckling load factors of that static solution instead.
int modes_command(const fs::path& scene_file, int count, const fs::path& shapes_file, bool buckling,
                  const std::vector<std::string>& overrides) {
  SceneKind kind = SceneKind::rod;
  io::Scene parsed = read_scene(scene_file, overrides, kind);
  if (kind != SceneKind::rod)
    throw InputError("scene", scene_file.string() + " (a vine scene)",
                     "a rod or shell scene (modes of rods, rod networks and shells)");
  sim::Simulation simulation(sim::load_rod_scene(parsed));
  if (buckling && simulation.scene().solve != sim::Solve::static_equilibrium)
    throw InputError("integrator.type", "a dynamic scene",
                     "static (--buckling linearises about the static solution)");
  const State unloaded = simulation.state();
  std::string about = "the initial state (t = 0)";
  if (simulation.scene().solve == sim::Solve::static_equilibrium) {
    const io::RunResult result = simulation.run("");
    if (!result.ok) {
      std::fprintf(stderr, "%s: the static solve failed: %s\n", scene_file.string().c_str(),
                   result.message.c_str());
      return kExitFailedRun;
    }
    about = "the static solution at t = " + number_text(simulation.state().time) + " s";
  }
  if (buckling) {
    const std::vector<double> factors =
        sim::buckling_load_factors(simulation.model(), unloaded, simulation.state(), count);
    std::printf(
        "%s: linear buckling load factors about %s (the scene's loads times lambda buckle it)\n",
        scene_file.string().c_str(), about.c_str());
    std::printf("%6s %16s\n", "mode", "lambda [-]");
    for (std::size_t k = 0; k < factors.size(); ++k)
      std::printf("%6zu %16.8g\n", k + 1, factors[k]);
    if (factors.empty())
      std::printf("no positive load factor: these loads do not buckle the structure\n");
    return 0;
  }
  const sim::NaturalModes modes = sim::natural_modes(simulation.model(), simulation.state(), count);
  std::printf("%s: %d lowest natural modes about %s\n", scene_file.string().c_str(), count,
              about.c_str());
  std::printf("%6s %16s %16s\n", "mode", "omega [rad/s]", "f [Hz]");
  for (int k = 0; k < count; ++k)
    std::printf("%6d %16.8g %16.8g\n", k + 1, modes.omega[static_cast<std::size_t>(k)],
                modes.omega[static_cast<std::size_t>(k)] / (2.0 * 3.14159265358979323846));
  if (!shapes_file.empty()) {
    // one row per DOF (q layout, docs/conventions.md), one column per mode
    const auto dofs = static_cast<std::size_t>(modes.shapes.rows());
    if (shapes_file.has_parent_path()) fs::create_directories(shapes_file.parent_path());
    io::NpyAppender shapes(shapes_file, io::NpyType::Float64, {static_cast<std::size_t>(count)});
    for (std::size_t d = 0; d < dofs; ++d) {
      const VecX row = modes.shapes.row(static_cast<Eigen::Index>(d)).transpose();
      shapes.append(std::span<const double>(row.data(), static_cast<std::size_t>(count)));
    }
    shapes.close();
    std::printf("mode shapes (%zu DOFs x %d modes, zero on fixed DOFs): %s\n", dofs, count,
                shapes_file.string().c_str());
  }
  return 0;
}

/// An InputError when argv[1] is a word that names no subcommand (CLI11 would only say that a
/// subcommand is required): the word, the subcommands and the nearest one.
void check_subcommand_name(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  const std::string word = argv[1];
  if (std::find(names.begin(), names.end(), word) != names.end()) return;
  const std::string near = io::closest_name(word, names);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw InputError("command", word,
                   "one of " + list + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tendril: simulation of soft robots built from slender parts"};
  app.require_subcommand(1);
  app.set_version_flag("--version", io::tendril_version());
  app.footer(kExitCodes);

  std::string scene_file, out_dir;
  std::vector<std::string> overrides;
  CLI::App* run =
      app.add_subcommand("run", "Run a scene and write a run directory (docs/output_format.md)");
  run->add_option("scene", scene_file, "Scene file (YAML or JSON)")->required();
  run->add_option("--out", out_dir, "Output directory (default: runs/<scene name>)")
      ->check(cli::kNonEmptyPath);
  run->add_option("--set", overrides,
                  "Override a scene value: key.path=value (e.g. rods.0.material.E=2e7)");

  CLI::App* validate = app.add_subcommand("validate", "Check a scene without running it");
  validate->add_option("scene", scene_file, "Scene file (YAML or JSON)")->required();
  validate->add_option("--set", overrides, "Override a scene value: key.path=value");
  io::SceneLimits& limits = io::scene_limits();
  for (CLI::App* sub : {run, validate}) {
    sub->add_option("--max-scene-bytes", limits.max_file_bytes,
                    "Largest scene file accepted [bytes]")
        ->capture_default_str();
    sub->add_option("--max-scene-nodes", limits.max_nodes,
                    "Most YAML nodes of a scene, aliases expanded")
        ->capture_default_str();
  }

  int mode_count = 6;
  std::string shapes_file;
  CLI::App* modes = app.add_subcommand("modes",
                                       "Natural frequencies and mode shapes of a rod, shell or "
                                       "rod-shell scene about its initial state "
                                       "(static scenes: about the static solution)");
  modes->add_option("scene", scene_file, "Scene file (YAML or JSON)")->required();
  modes->add_option("--count", mode_count, "Number of modes (lowest first; default 6)");
  modes->add_option("--shapes", shapes_file,
                    "Write the mode shapes to this .npy file (#dofs x count)");
  bool buckling = false;
  modes->add_flag("--buckling", buckling,
                  "Linear buckling load factors of a static scene's solution instead");
  modes->add_option("--set", overrides, "Override a scene value: key.path=value");

  bool markdown = false;
  CLI::App* schema = app.add_subcommand(
      "schema",
      "Print the scene reference generated from the schema tables (plain text: a line per key)");
  schema->add_flag("--markdown", markdown,
                   "Markdown instead (the content of docs/scene_reference.md)");

  const std::vector<cli::Command> viewer_commands = {
      cli::add_export_command(app), cli::add_plot_command(app),  cli::add_view_command(app),
      cli::add_render_command(app), cli::add_sweep_command(app), cli::add_fit_command(app)};

  try {
    check_subcommand_name(app, argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }

  try {
    if (*run) return run_command(scene_file, out_dir, overrides);
    if (*validate) return validate_command(scene_file, overrides);
    if (*modes) return modes_command(scene_file, mode_count, shapes_file, buckling, overrides);
    for (const cli::Command& c : viewer_commands)
      if (*c.app) return c.run();
    std::fputs(
        (markdown ? io::schema_markdown(all_tables()) : io::schema_text(all_tables())).c_str(),
        stdout);
    return 0;
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "error: out of memory (see docs/limits.md for the size limits)\n");
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: internal error: %s\n", printable(e.what(), 2000).c_str());
    return kExitBadInput;
  } catch (...) {
    std::fprintf(stderr, "error: internal error (an unknown exception)\n");
    return kExitBadInput;
  }
}
