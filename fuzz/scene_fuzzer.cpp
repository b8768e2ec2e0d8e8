// libFuzzer harness over the scene loader and one step (issue 8): any input must end in success or
// an InputError; a crash, a sanitizer report, any other exception, a leak, a timeout or memory past
// -rss_limit_mb is a finding. Rod scenes are loaded and stepped once through sim::Simulation, vine
// scenes (top-level `vine:`) through vine::VineStepper. How to build and run: fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace {

using namespace tendril;

/// Models larger than this are loaded (the loader is what is fuzzed) but not stepped, so each input
/// stays fast; the scene size limits are lowered for the same reason.
constexpr int kMaxSteppedNodes = 2000;
constexpr int kMaxSteppedBodies = 500;

void load_and_step(const std::string& text) {
  io::Scene scene = io::Scene::from_text(text, io::Schema{}, {}, "fuzz.yaml");
  if (scene.has_top_level("vine")) {
    scene.use_schema(vine::vine_schema());
    const vine::VineScene v = vine::load_vine_scene(scene);
    if (v.model.num_bodies > kMaxSteppedBodies) return;
    vine::VineStepper stepper(v.model);
    vine::VineState state = v.initial;
    stepper.step(state);
    return;
  }
  scene.use_schema(sim::rod_schema());
  sim::Simulation simulation(sim::load_rod_scene(scene));
  if (simulation.model().dofs.num_nodes > kMaxSteppedNodes) return;
  simulation.step();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool limits_set = [] {
    io::scene_limits().max_file_bytes = 1 << 16;
    io::scene_limits().max_nodes = 20'000;
    return true;
  }();
  (void)limits_set;
  try {
    load_and_step(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const InputError&) {
    // bad input, reported as such: the expected outcome for most inputs
  }
  return 0;
}
