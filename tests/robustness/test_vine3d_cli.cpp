// `tendril` on 3D vine scenes (a top-level `vine3d:`): bad input is refused with exit 2 naming the
// key, the value and what is allowed, before anything is written; a run that fails (joint drift of
// explicit springs too stiff for dt) ends with exit 1 and its partial record in <out>.failed naming
// the step; a signal ends a run as every other run (128 + signal, "interrupted", every step done
// has its row and its frame).
#include <gtest/gtest.h>

#include <csignal>

#include "support/cli_process.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;

using Vine3dCli = CliTest;

std::string steered() {
  return (fs::path(TENDRIL_EXAMPLES_DIR) / "vine_3d_steered.yaml").string();
}

TEST_F(Vine3dCli, BadInputExitsTwoNamingTheKeyAndWritesNothing) {
  struct Case {
    std::vector<std::string> set;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases = {
      {{"vine3d.half_length=0"}, {"vine3d.half_length", "got 0", "> 0"}},
      {{"vine3d.obstacles=[{shape: sphere, center: [0, 0, 0], radius: 0.05}]"},
       {"vine3d.obstacles[0]", "from the base", "clear of the base"}},
      {{"vine3d.initial_state.positions=[[0, 0, 0]]", "vine3d.initial_state.rotations=[[0, 0, 0]]"},
       {"vine3d.initial_state.positions", "1 rows", "10 rows (one per body)"}},
      {{"vine3d.initial_state.positions=[[0, 0, 0]]"}, {"vine3d.initial_state.rotations", "both"}},
      {{"vine3d.steering.table=[[0, 1]]"}, {"vine3d.steering.table", "11"}},
      {{"vine3d.grwoth={rate: 1}"}, {"grwoth", "growth"}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.set.front());
    for (const char* command : {"validate", "run"}) {
      std::vector<std::string> args = {command, steered()};
      for (const std::string& set : c.set) args.insert(args.end(), {"--set", set});
      if (std::string(command) == "run") args.insert(args.end(), {"--out", "out"});
      const CliResult r = run_cli(args, dir_);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      for (const std::string& part : c.parts)
        EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(dir_ / "out"));
      EXPECT_FALSE(fs::exists(dir_ / "out.failed"));
    }
  }
  const CliResult ok = run_cli({"validate", steered()}, dir_);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.err.find("valid (3D vine scene, 10 bodies"), std::string::npos) << ok.err;
}

TEST_F(Vine3dCli, FailedRunKeepsItsRecordNamingTheStep) {
  const CliResult r =
      run_cli({"run", steered(), "--out", "out", "--set", "vine3d.springs=explicit"}, dir_);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("joint drift"), std::string::npos) << r.err;
  const io::RunData run = io::read_run(dir_ / "out.failed");
  EXPECT_EQ(run.status, "failed");
  const auto done = run.meta["reached"]["steps"].as<std::size_t>();
  EXPECT_NE(r.err.find("run failed: step " + std::to_string(done + 1)), std::string::npos) << r.err;
  EXPECT_EQ(io::read_npy(dir_ / "out.failed" / "step_time.npy").shape[0], done + 1);
}

TEST_F(Vine3dCli, SignalMarksTheRunInterrupted) {
  for (const int signal : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(signal);
    const CliResult r = run_cli({"run", steered(), "--out", "out", "--set",
                                 "vine3d.steps=100000000", "--set", "vine3d.save_every=1"},
                                dir_, interrupt_once_written("body_position.npy", signal));
    EXPECT_EQ(r.exit_code, 128 + signal) << r.err;
    EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out"));
    const io::RunData run = io::read_run(dir_ / "out.failed");
    EXPECT_EQ(run.status, "interrupted");
    const auto steps = run.meta["reached"]["steps"].as<std::size_t>();
    EXPECT_EQ(run.array("step_time").shape[0], steps);
    EXPECT_EQ(run.array("frame_time").shape[0], steps + 1);
    EXPECT_EQ(run.array("body_orientation").shape[0], steps + 1);
    fs::remove_all(dir_ / "out.failed");
  }
}

}  // namespace
}  // namespace tendril::robustness
