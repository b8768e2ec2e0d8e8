// libFuzzer harness over the geometry files a scene names (issue 24): the first byte picks the kind
// (a rod from a MAT-DiSMech file, a shell from a MAT-DiSMech file, a shell from a Wavefront OBJ
// file), the rest is the file; the scene naming it is loaded and, if small, stepped once. Any input
// must end in success or an InputError. How to build and run: fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_files.hpp"
#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

using namespace tendril;

constexpr int kMaxSteppedNodes =
    500;  ///< larger models are loaded, not stepped (each input stays fast)

/// A scene that builds its rod or shell from `file`, of kind `kind` % 3.
std::string scene_naming(const std::string& file, std::uint8_t kind) {
  const std::string rod_material =
      "    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: 0.001}\n";
  const std::string shell_material =
      "    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.01}\n";
  switch (kind % 3) {
    case 0:
      return "duration: 0.001\nrods:\n  - geometry: {type: file, file: " + file + "}\n" +
             rod_material;
    case 1:
      return "duration: 0.001\nshells:\n  - geometry: {type: file, file: " + file + "}\n" +
             shell_material;
    default:
      return "duration: 0.001\nshells:\n  - geometry: {type: obj, file: " + file + "}\n" +
             shell_material;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool limits_set = [] {
    input_file_limits().max_data_file_bytes = 1 << 16;
    input_file_limits().read_timeout_seconds = 1;  // an input naming /dev/stdin waits 1 s, not 10
    return true;
  }();
  (void)limits_set;
  if (size == 0) return 0;
  const std::string file =
      fuzz::write_fuzz_file("geometry.txt",
                            std::string(reinterpret_cast<const char*>(data) + 1, size - 1))
          .string();
  try {
    sim::Simulation simulation(
        sim::load_rod_scene_text(scene_naming(file, data[0]), {}, "fuzz.yaml"));
    if (simulation.model().dofs.num_nodes <= kMaxSteppedNodes) simulation.step();
  } catch (const InputError&) {
    // bad input, reported as such: the expected outcome for most inputs
  }
  return 0;
}
