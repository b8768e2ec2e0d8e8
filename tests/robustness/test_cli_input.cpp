// Issue 8: bad input never crashes, never takes unbounded memory or time, and is reported (exit
// code 2) naming where it is; text from the scene is escaped in messages and in run.json.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/cli_process.hpp"
#include "support/input_error.hpp"
#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/printable_text.hpp"
#include "tendril/io/scene.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;

class CliInput : public CliTest {
 protected:
  /// `tendril validate` of a scene text.
  CliResult validate(const std::string& text, std::vector<std::string> extra = {}) {
    write_text(dir_ / "scene.yaml", text);
    std::vector<std::string> args{"validate", "scene.yaml"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, dir_);
  }
};

/// Ten levels of ten aliases each: 10^11 scalars once expanded, 700 bytes of text.
std::string alias_bomb(const std::string& where) {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 10; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  return text + where + ": *a10\n";
}

TEST_F(CliInput, AliasBombIsRefusedQuicklyWithBoundedMemory) {
  for (const std::string where : {"description", "duration"}) {
    const CliResult r = validate(alias_bomb(where));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("aliases are expanded"), std::string::npos) << r.err;
    // well under a second: about 0.03 s of CPU measured (wall time 0.04 s idle, 0.4 s on a loaded
    // machine)
    EXPECT_LT(r.cpu_seconds, 0.5);
    EXPECT_LT(r.peak_kb, 100 * 1024);  // bounded: about 6 MB measured
  }
}

TEST_F(CliInput, DuplicateKeyNamesBothLines) {
  const CliResult r = validate(std::string(kSmallRod) + "duration: 2\n");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("'duration' twice"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scene.yaml:1:1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scene.yaml:10:1"), std::string::npos) << r.err;
}

TEST_F(CliInput, ErrorNamesKeyPathLineAndColumn) {
  std::string text = kSmallRod;
  text.replace(text.find("E: 1.0e6"), 8, "E: -1.0e6");
  const CliResult r = validate(text);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("rods[0].material.E: got -1.0e6"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(at scene.yaml:5:19)"), std::string::npos) << r.err;
}

TEST_F(CliInput, ControlCharactersAndHugeValuesAreNotEchoedRaw) {
  const CliResult r = validate(
      "duration: \"\\e[31mred\\x07\"\n"
      "description: 1\n");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x1B[31mred\\x07"), std::string::npos) << r.err;
  const CliResult huge = validate("duration: 1" + std::string(100000, '0') + "\n");
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_LT(huge.err.size(), 2000u) << huge.err.size();
}

TEST_F(CliInput, NonUtf8TextIsEscapedInRunJson) {
  write_text(dir_ / "scene.yaml", std::string(kFullyFixedRod) + "description: \"caf\xE9 \xFF\"\n");
  const CliResult r = run_cli({"run", "scene.yaml", "--out", "out"}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string meta = slurp(dir_ / "out" / "run.json");
  for (std::size_t i = 0; i < meta.size();) {
    const std::size_t n = utf8_sequence_length(meta, i);
    ASSERT_GT(n, 0u) << "invalid UTF-8 at byte " << i;
    i += n;
  }
  EXPECT_NE(meta.find("caf\\ufffd \\ufffd"), std::string::npos);
}

TEST_F(CliInput, EmptySetValueIsRefused) {
  const CliResult r = run_cli({"run", "rod.yaml", "--out", "out", "--set", "duration="}, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("nothing after '='"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(CliInput, SetValuesObeyTheSceneFileRules) {
  // an alias bomb in a --set value: refused before any alias is expanded (it took 36 s and 6.5 GB)
  std::string bomb = "description=[&a0 [x, x, x, x, x, x, x, x, x, x]";
  for (int i = 1; i <= 10; ++i) {
    bomb += ", &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) bomb += (k ? ", *a" : "*a") + std::to_string(i - 1);
    bomb += "]";
  }
  bomb += "]";
  const CliResult r = run_cli({"validate", "rod.yaml", "--set", bomb}, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--set description"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("aliases are expanded"), std::string::npos) << r.err;
  EXPECT_LT(r.cpu_seconds, 0.5);
  EXPECT_LT(r.peak_kb, 100 * 1024);

  const CliResult twice_in_map =
      run_cli({"validate", "rod.yaml", "--set", "integrator={dt: 1e-3, dt: 2e-3}"}, dir_);
  EXPECT_EQ(twice_in_map.exit_code, 2) << twice_in_map.err;
  EXPECT_NE(twice_in_map.err.find("--set integrator: got the key 'dt' twice in one map"),
            std::string::npos)
      << twice_in_map.err;

  // the same key path twice, in either spelling
  const CliResult twice = run_cli(
      {"validate", "rod.yaml", "--set", "rods.0.material.E=1e6", "--set", "rods[0].material.E=2e6"},
      dir_);
  EXPECT_EQ(twice.exit_code, 2) << twice.err;
  EXPECT_NE(twice.err.find("--set rods[0].material.E: got given twice: 'rods.0.material.E=1e6' and "
                           "'rods[0].material.E=2e6'"),
            std::string::npos)
      << twice.err;
  // a key inside a value set before is a different path and allowed
  EXPECT_EQ(run_cli({"validate", "rod.yaml", "--set", "integrator={dt: 1e-3}", "--set",
                     "integrator.dt=2e-3"},
                    dir_)
                .exit_code,
            0);
}

TEST_F(CliInput, HugeCountsAreRefusedBeforeAllocating) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"rods.0.geometry.num_nodes=2000000000", "rods[0].geometry.num_nodes"},
      {"integrator.newton.max_iterations=2147483647", "integrator.newton.max_iterations"},
      {"integrator.max_dt_halvings=31", "integrator.max_dt_halvings"},
  };
  for (const auto& [set, key] : cases) {
    const CliResult r = run_cli({"validate", "rod.yaml", "--set", set}, dir_);
    EXPECT_EQ(r.exit_code, 2) << set << ": " << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
    EXPECT_LT(r.peak_kb, 100 * 1024) << set;
  }
  const fs::path vine = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r = run_cli({"validate", vine.string(), "--set", "vine.bodies=2000000000"}, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("vine.bodies"), std::string::npos) << r.err;
}

TEST_F(CliInput, VineWithABrokenPinIsRefused) {
  // body 0 half a metre away from the base pin: the first step would pull it back silently
  const fs::path vine = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r = run_cli({"validate", vine.string(), "--set", "vine.bodies=2", "--set",
                               "vine.stiffness=[0.5]", "--set", "vine.damping=[3e-5]", "--set",
                               "vine.initial_state.q=[0.5, 0.5, 0, 0.51333334, 0.5, 0]"},
                              dir_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // refused by the projection onto the constraints (vine/initial_state.hpp), naming the body and
  // the distance
  EXPECT_NE(r.err.find("vine.initial_state"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(body 0) from the nearest one meeting the joint and contact constraints"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("(at "), std::string::npos)
      << r.err;  // a --set value has no place in the file
}

TEST_F(CliInput, EndlessDeviceAndOversizedFileAreRefused) {
  const CliResult zero = run_cli({"validate", "/dev/zero"}, dir_);
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_NE(zero.err.find("--max-scene-bytes"), std::string::npos) << zero.err;
  const CliResult small = run_cli({"validate", "rod.yaml", "--max-scene-bytes", "100"}, dir_);
  EXPECT_EQ(small.exit_code, 2) << small.err;
  EXPECT_EQ(run_cli({"validate", "rod.yaml", "--max-scene-bytes", "1000"}, dir_).exit_code, 0);
}

TEST_F(CliInput, StandardInputIsReadOnce) {
  CliOptions o;
  o.stdin_text = kSmallRod;
  const CliResult r = run_cli({"run", "/dev/stdin", "--out", "out"}, dir_, o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "run.json"));
}

TEST_F(CliInput, FifoWithoutWriterIsRefusedAfterTheTimeout) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int saved = input_file_limits().read_timeout_seconds;
  input_file_limits().read_timeout_seconds = 1;
  tendril::testing::expect_input_error([&] { io::read_scene_file(fifo); },
                                       {"nothing to read for 1 s"});
  input_file_limits().read_timeout_seconds = saved;
}

TEST_F(CliInput, VineTimeStepOfRoundOffIsRefusedWithTheRange) {
  // it once ran and reported an "energy blow-up" at the first step
  const fs::path scene = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r = run_cli({"validate", scene.string(), "--set", "vine.dt=1e-300"}, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  for (const char* part : {"vine.dt", "1e-300", "1e-09"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
  EXPECT_EQ(r.err.find("blow-up"), std::string::npos) << r.err;
}

TEST_F(CliInput, BodiesThatStartIntersectingExitWith2) {
  // a rod edge through a sheet between its nodes, and a rod edge through a sphere between its
  // nodes: refused before anything is written, naming both elements
  const std::string rod = R"(duration: 0.01
rods:
  - geometry: {type: straight, start: [0.04, 0.02, -0.005], end: [0.04, 0.02, 0.015], num_nodes: 2}
    material: {E: 1.0e6, nu: 0.3, density: 1000, radius: 0.001}
)";
  const std::string sheet = R"(shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.1, nodes_x: 3, nodes_y: 3, pattern: right, origin: [0, -0.05, 0.005]}
    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.001}
contact: {self: {}}
)";
  const std::string sphere =
      "contact: {obstacles: [{shape: sphere, center: [0.04, 0.02, 0.005], radius: 0.002}]}\n";
  for (const auto& [scene, parts] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {rod + sheet, {"contact.self", "passes through the triangle shells[0].nodes["}},
           {rod + sphere,
            {"contact.obstacles[0]", "the edge rods[0].nodes[0]-rods[0].nodes[1] overlaps it"}}}) {
    write_text(dir_ / "scene.yaml", scene);
    const CliResult r = run_cli({"run", "scene.yaml", "--out", "out"}, dir_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const std::string& part : parts)
      EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
}

TEST_F(CliInput, VersionAndHelpWithExitCodes) {
  const CliResult help = run_cli({"--help"}, dir_);
  EXPECT_EQ(help.exit_code, 0);
  for (const char* code :
       {"Exit codes:", "  0 ", "  1 ", "  2 ", "  130 ", "129 by SIGHUP, 141 by SIGPIPE"})
    EXPECT_NE(help.err.find(code), std::string::npos) << code << "\n" << help.err;
  const CliResult version = run_cli({"--version"}, dir_);
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.err.find("0."), std::string::npos) << version.err;
}

TEST(PrintableText, EscapesControlAndInvalidBytesAndCuts) {
  EXPECT_EQ(printable("a\x1b[0m\xff\xc3\xa9"), "a\\x1B[0m\\xFF\xc3\xa9");
  EXPECT_EQ(printable(std::string(300, '1'), 10), "1111111111... (300 bytes)");
  EXPECT_EQ(utf8_sequence_length("\xed\xa0\x80", 0), 0u);  // a UTF-16 surrogate
  EXPECT_EQ(utf8_sequence_length("\xc0\xaf", 0), 0u);      // overlong
  EXPECT_EQ(utf8_sequence_length("\xf0\x9f\x98\x80", 0), 4u);
}

// `tendril fit` by adjoint_lm: a component of an [x, y, z] key other than 0, 1, 2 and the kinetic
// energy of a quasi-static scene (whose derivatives are the node positions' and the elastic
// energy's) exit 2 naming the key and the value, with no fit folder.
TEST_F(CliInput, AdjointFitNamesABadKeyComponentAndObservable) {
  std::string rod = kSmallRod;
  rod.replace(rod.find("  dt: 1.0e-3"), 12, "  type: static\n  dt: 1.0e-2");
  write_text(dir_ / "static.yaml", rod);
  write_text(dir_ / "data.csv", "z\n-0.001\n");
  const auto fit = [&](const std::string& key, const std::string& observable) {
    write_text(dir_ / "fit.yaml",
               "scene: static.yaml\nmethod: adjoint_lm\nparameters:\n  - {key: '" + key +
                   "', initial: -9.81}\ndata:\n  csv: data.csv\n  "
                   "observables:\n    - {column: z, observable: '" +
                   observable + "', sigma: 1.0e-4}\n");
    return run_cli({"fit", "fit.yaml", "--out", "out", "--no-plot"}, dir_);
  };
  const CliResult component = fit("forces.gravity[3]", "rods[0].nodes[4].z@0.01");
  EXPECT_EQ(component.exit_code, 2) << component.err;
  EXPECT_NE(component.err.find("parameters[0].key: got forces.gravity[3]; allowed: a component 0, "
                               "1 or 2 of the [x, y, z] key forces.gravity"),
            std::string::npos)
      << component.err;
  const CliResult energy = fit("forces.gravity[2]", "kinetic_energy@0.01");
  EXPECT_EQ(energy.exit_code, 2) << energy.err;
  EXPECT_NE(energy.err.find("observable (method adjoint_lm): got kinetic_energy@0.01; allowed: a "
                            "node coordinate or elastic_energy@t"),
            std::string::npos)
      << energy.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_FALSE(fs::exists(dir_ / "out.failed"));
}

}  // namespace
}  // namespace tendril::robustness
