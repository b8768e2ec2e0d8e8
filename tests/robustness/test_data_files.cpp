// Issue 24: every file a scene or fit file names (geometry files, CSV tables, schedules, fit data)
// is read with the limits of the scene file (docs/limits.md): an endless device is refused at the
// data-file limit, a FIFO without a writer after the timeout, a byte-order mark is skipped alike in
// every kind of file, and bad fit data is refused naming the file and line with nothing left
// behind.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>

#include "support/cli_process.hpp"
#include "support/input_error.hpp"
#include "tendril/actuation/schedule.hpp"
#include "tendril/core/bounded_file.hpp"
#include "tendril/io/mat_dismech_geometry.hpp"
#include "tendril/io/obj_mesh.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRodMaterial =
    "    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: 0.001}\n";
constexpr const char* kShellMaterial =
    "    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.01}\n";

class DataFiles : public CliTest {
 protected:
  /// `tendril validate` of `scene` (written to scene.yaml in the test folder).
  CliResult validate(const std::string& scene) {
    write_text(dir_ / "scene.yaml", scene);
    return run_cli({"validate", "scene.yaml"}, dir_);
  }
};

/// A fit of the wall-growth vine's K and C (as examples/fit/vine_wall_growth.yaml) to the frames in
/// `csv`.
std::string vine_fit(const std::string& csv) {
  const fs::path scene = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_wall_growth.yaml";
  return "scene: " + scene.string() +
         "\nmethod: vine_shooting\nparameters:\n  - {key: vine.stiffness, initial: 0.05, lower: "
         "0}\n"
         "  - {key: vine.damping, initial: 1.0e-5, lower: 0}\ndata:\n  csv: " +
         csv + "\n  frames: {step: step, x: x, y: y}\n";
}

/// The message of a refused endless file: the key, the file and the limit, found quickly in bounded
/// memory.
void expect_refused_at_the_limit(const CliResult& r, const std::string& key) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string limit = std::to_string(input_file_limits().max_data_file_bytes);
  for (const std::string& part : {key, std::string("/dev/zero"), "more than " + limit + " bytes"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  // 128 MiB of zeros read and refused: a fraction of a second of CPU, the text held once (without
  // the limit the reader grew without end: 16.8 GB)
  EXPECT_LT(r.cpu_seconds, 5.0);
  EXPECT_LT(r.peak_kb, 1024 * 1024);
}

TEST_F(DataFiles, EndlessDeviceAsGeometryIsRefusedAtTheLimit) {
  expect_refused_at_the_limit(
      validate(std::string("duration: 0.01\nrods:\n  - geometry: {type: file, file: /dev/zero}\n") +
               kRodMaterial),
      "rods[0].geometry.file");
  expect_refused_at_the_limit(
      validate(
          std::string("duration: 0.01\nshells:\n  - geometry: {type: obj, file: /dev/zero}\n") +
          kShellMaterial),
      "shells[0].geometry.file");
}

TEST_F(DataFiles, EndlessDeviceAsScheduleOrVineCsvIsRefusedAtTheLimit) {
  expect_refused_at_the_limit(
      validate(std::string(kSmallRod) + "actuation: [{quantity: natural_twist, nodes: [2], "
                                        "schedule: {type: file, file: /dev/zero}}]\n"),
      "actuation[0].schedule.file");
  const std::string vine = (fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml").string();
  const std::vector<std::pair<std::string, std::string>> vine_files = {
      {"vine.steering.csv=/dev/zero", "vine.steering.csv"},
      {"vine.initial_state.centerline_csv=/dev/zero", "vine.initial_state.centerline_csv"}};
  for (const auto& [set, key] : vine_files)
    expect_refused_at_the_limit(run_cli({"validate", vine, "--set", set}, dir_), key);
}

TEST_F(DataFiles, EndlessDeviceAsVine3dMeshIsRefusedAtTheLimit) {
  expect_refused_at_the_limit(
      validate("vine3d:\n  bodies: 3\n  half_length: 0.01\n  stiffness: [0.05]\n  steps: 1\n"
               "  obstacles: [{shape: mesh, file: /dev/zero}]\n"),
      "vine3d.obstacles[0].file");
}

TEST_F(DataFiles, EndlessDeviceAsFitDataIsRefusedAtTheLimit) {
  write_text(dir_ / "fit.yaml", vine_fit("/dev/zero"));
  const CliResult r = run_cli({"fit", "fit.yaml", "--out", "out", "--no-plot"}, dir_);
  expect_refused_at_the_limit(r, "data.csv");
  EXPECT_EQ(entries(dir_), (std::vector<std::string>{"fit.yaml", "fixed.yaml", "rod.yaml"}));
}

TEST_F(DataFiles, FifoWithoutWriterAsGeometryOrCsvIsRefusedAfterTheTimeout) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int saved = input_file_limits().read_timeout_seconds;
  input_file_limits().read_timeout_seconds = 1;  // the same code path as the 10 s default, faster
  tendril::testing::expect_input_error(
      [&] { io::read_mat_dismech_geometry(fifo, "rods[0].geometry.file"); },
      {"rods[0].geometry.file", "fifo", "nothing to read for 1 s"});
  tendril::testing::expect_input_error([&] { io::read_obj_mesh(fifo, "shells[0].geometry.file"); },
                                       {"shells[0].geometry.file", "nothing to read for 1 s"});
  tendril::testing::expect_input_error([&] { csv_schedules(fifo, "vine.steering.csv"); },
                                       {"vine.steering.csv", "nothing to read for 1 s"});
  input_file_limits().read_timeout_seconds = saved;
}

TEST_F(DataFiles, ByteOrderMarkIsSkippedInGeometryAndCsvAlike) {
  const std::string bom = "\xEF\xBB\xBF";
  // a MAT-DiSMech file saved by an editor that writes a byte-order mark (once refused at its first
  // line)
  write_text(dir_ / "rod.txt",
             bom + "*Nodes\n0, 0, 0\n0.05, 0, 0\n0.1, 0, 0\n*Edges\n1, 2\n2, 3\n");
  const CliResult r =
      validate(std::string("duration: 0.01\nrods:\n  - geometry: {type: file, file: rod.txt}\n") +
               "    clamp: start\n" + kRodMaterial);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("3 nodes, 2 edges"), std::string::npos) << r.err;
  // a schedule without a header: with the mark its first row is a row of numbers, not a header that
  // is dropped (the mark once made "0, 0" a header: the schedule was 2 at every t)
  write_text(dir_ / "schedule.csv", bom + "0, 0\n1, 2\n");
  const std::vector<Schedule> s = csv_schedules(dir_ / "schedule.csv");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_DOUBLE_EQ(s[0](0.5), 1.0);  // halfway between (0, 0) and (1, 2)
}

TEST_F(DataFiles, FitFrameWithOnePointIsRefusedNamingFileAndLine) {
  write_text(dir_ / "fit.yaml", vine_fit("points.csv"));
  // step 0 has two points, step 1 only one (line 4): a frame cannot be resampled along one point
  write_text(dir_ / "points.csv", "step,x,y\n0,0,0\n0,0.1,0\n1,0.1,0.01\n");
  const CliResult r = run_cli({"fit", "fit.yaml", "--out", "out", "--no-plot"}, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // once SIGABRT (134) in resample_polyline
  for (const char* part : {"points.csv line 4", "data.frames.step", "at least 2 points"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
  // nothing half-written: no out, out.failed or out.tmp-*
  EXPECT_EQ(entries(dir_),
            (std::vector<std::string>{"fit.yaml", "fixed.yaml", "points.csv", "rod.yaml"}));
}

}  // namespace
}  // namespace tendril::robustness
