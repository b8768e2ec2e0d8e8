// libFuzzer harness over fit files and their CSV data (issue 24): an input is a fit file, a line
// "%%", and its CSV data (data.csv beside it, with rod.yaml and vine.yaml, two small scenes a fit
// file may name). The fit file is read (its scene, parameters, CSV columns and frames checked) and,
// for the vine methods, every measured frame is observed on the scene's initial state as a fit
// would. Any input must end in success or an InputError. How to build and run: fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_files.hpp"
#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/vine_observation.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace {

using namespace tendril;

constexpr const char* kRodScene = R"(duration: 0.01
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 0.1, num_nodes: 5}
    clamp: start
    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: 0.001}
forces: {gravity: [0, 0, -9.81]}
integrator: {dt: 1.0e-3}
)";

constexpr const char* kVineScene = R"(vine:
  bodies: 6
  half_length: 0.02
  stiffness: [0.05]
  damping: [1.0e-5]
  dt: 0.01
  steps: 5
)";

void read_and_observe(const std::string& input) {
  const auto split = input.find("\n%%\n");
  fuzz::write_fuzz_file("data.csv", split == std::string::npos ? "" : input.substr(split + 4));
  const fit::FitFile f =
      fit::read_fit_file(fuzz::write_fuzz_file("fit.yaml", input.substr(0, split)));
  if (!fit::is_vine_method(f.method)) return;
  const vine::VineScene scene = vine::load_vine_scene_file(f.scene);
  for (const fit::MeasuredFrame& frame : f.frames) {
    MatX points;
    fit::observe_vine(scene.model, scene.initial.q, fit::Observation::points,
                      static_cast<int>(frame.points.rows()), points, nullptr);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool setup = [] {
    io::scene_limits().max_file_bytes = 1 << 16;
    io::scene_limits().max_nodes = 20'000;
    input_file_limits().max_data_file_bytes = 1 << 16;
    input_file_limits().read_timeout_seconds = 1;  // an input naming /dev/stdin waits 1 s, not 10
    fuzz::write_fuzz_file("rod.yaml", kRodScene);
    fuzz::write_fuzz_file("vine.yaml", kVineScene);
    return true;
  }();
  (void)setup;
  try {
    read_and_observe(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const InputError&) {
    // bad input, reported as such: the expected outcome for most inputs
  }
  return 0;
}
