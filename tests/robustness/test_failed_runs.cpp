// Issue 8: a fully fixed network runs; a run that cannot go on (a non-finite state or residual, an
// output that cannot be written, a signal) ends as "failed" or "interrupted" in <out>.failed with
// the step it reached, leaves no temporary folder, and says so in its exit code; so does a fit
// stopped by a signal.
#include <gtest/gtest.h>

#include <csignal>

#include "support/cli_process.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;

class FailedRuns : public CliTest {
 protected:
  /// True if no "<name>.tmp-*" folder is left in the test folder.
  bool no_temporary_left() const {
    for (const std::string& e : entries(dir_))
      if (e.find(".tmp-") != std::string::npos) return false;
    return true;
  }
  /// A run to "out" that ended early: only out.failed, with `status` and the step reached, no temp
  /// folder.
  void expect_ended_early(const std::string& status) const {
    EXPECT_FALSE(fs::exists(dir_ / "out"));
    const std::string meta = slurp(dir_ / "out.failed" / "run.json");
    EXPECT_NE(meta.find("\"status\": \"" + status + "\""), std::string::npos) << meta;
    EXPECT_NE(meta.find("\"reached\""), std::string::npos) << meta;
    EXPECT_TRUE(no_temporary_left());
  }
};

TEST_F(FailedRuns, FullyFixedNetworkRunsAndNothingMoves) {
  const CliResult r = run_cli({"run", "fixed.yaml", "--out", "out"}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(dir_ / "out" / "run.json").find("\"status\": \"completed\""), std::string::npos);
  const io::NpyArray x = io::read_npy(dir_ / "out" / "positions.npy");
  ASSERT_EQ(x.shape.size(), 3u);
  ASSERT_GT(x.shape[0], 1u);
  const std::size_t frame = x.shape[1] * 3;
  for (std::size_t i = frame; i < x.data.size(); ++i) EXPECT_EQ(x.data[i], x.data[i % frame]) << i;
}

TEST_F(FailedRuns, InfiniteLoadIsReportedFailed) {
  const CliResult r =
      run_cli({"run", "rod.yaml", "--out", "out", "--set", "forces.gravity=[0, 0, -1e308]"}, dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("(non_finite)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(rods[0].nodes["), std::string::npos)
      << r.err;  // the scene's name for the node
  expect_ended_early("failed");
}

TEST_F(FailedRuns, SignalMarksTheRunInterrupted) {
  // long enough to be running when the signal comes (about 10 s if it never came)
  const CliResult r = run_cli({"run", "rod.yaml", "--out", "out", "--set", "duration=1000"}, dir_,
                              interrupt_once_written("positions.npy"));
  EXPECT_EQ(r.exit_code, 128 + SIGINT) << r.err;
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  expect_ended_early("interrupted");
}

TEST_F(FailedRuns, HangupAndBrokenPipeMarkTheRunInterrupted) {
  // a closed terminal (SIGHUP) or a reader that went away (SIGPIPE) ends the run as SIGTERM does
  // (they once killed it, leaving out.tmp-* and no out.failed)
  for (const int signal : {SIGHUP, SIGPIPE}) {
    const CliResult r = run_cli({"run", "rod.yaml", "--out", "out", "--set", "duration=1000"}, dir_,
                                interrupt_once_written("positions.npy", signal));
    EXPECT_EQ(r.exit_code, 128 + signal) << r.err;
    EXPECT_NE(r.err.find("stopped by signal " + std::to_string(signal)), std::string::npos)
        << r.err;
    expect_ended_early("interrupted");
    fs::remove_all(dir_ / "out.failed");
  }
}

TEST_F(FailedRuns, SignalMarksAVineRunInterrupted) {
  // the vine goes through the same run loop (io/run_loop.hpp): a signal ends it after the current
  // step
  const fs::path scene = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r = run_cli({"run", scene.string(), "--out", "out", "--set",
                               "vine.steps=100000000", "--set", "vine.save_every=1"},
                              dir_, interrupt_once_written("body_pose.npy"));
  EXPECT_EQ(r.exit_code, 128 + SIGINT) << r.err;
  EXPECT_NE(r.err.find("stopped by signal"), std::string::npos) << r.err;
  expect_ended_early("interrupted");
  // the frames saved before the signal are all there: one per step done, plus the initial state
  const std::string meta = slurp(dir_ / "out.failed" / "run.json");
  const io::NpyArray t = io::read_npy(dir_ / "out.failed" / "frame_time.npy");
  EXPECT_NE(meta.find("\"steps\": " + std::to_string(t.shape[0] - 1)), std::string::npos) << meta;
}

TEST_F(FailedRuns, RodAndVineRunsThatEndEarlyKeepAlikeRecords) {
  // both go through io::run (io/stepper.hpp): interrupted, every step done has its row and its
  // saved frame (one per step here, and the initial one); failed, the failed step's row is kept
  // too and the message names that step
  const std::string vine = (fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml").string();
  const auto reached = [&](const fs::path& run) {
    return io::read_run(run).meta["reached"]["steps"].as<std::size_t>();
  };
  const auto rows = [&](const fs::path& run, const char* array) {
    return io::read_npy(run / array).shape[0];
  };
  struct Case {
    std::vector<std::string> interrupted, failed;
    const char* frame_array;
  };
  const std::vector<Case> cases = {
      {{"run", "rod.yaml", "--set", "duration=1000", "--set", "output.interval=1e-320"},
       {"run", "rod.yaml", "--set", "forces.gravity=[0, 0, -1e308]"},
       "positions.npy"},
      {{"run", vine, "--set", "vine.steps=100000000", "--set", "vine.save_every=1"},
       {"run", vine, "--set", "vine.mass=1e308", "--set", "vine.steps=20"},
       "body_pose.npy"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.frame_array);
    std::vector<std::string> args = c.interrupted;
    args.insert(args.end(), {"--out", "out"});
    const CliResult r = run_cli(args, dir_, interrupt_once_written(c.frame_array));
    ASSERT_EQ(r.exit_code, 128 + SIGINT) << r.err;
    const std::size_t steps = reached(dir_ / "out.failed");
    EXPECT_EQ(rows(dir_ / "out.failed", "step_time.npy"), steps);
    EXPECT_EQ(rows(dir_ / "out.failed", "frame_time.npy"), steps + 1);
    fs::remove_all(dir_ / "out.failed");
    args = c.failed;
    args.insert(args.end(), {"--out", "out"});
    const CliResult f = run_cli(args, dir_);
    ASSERT_EQ(f.exit_code, 1) << f.err;
    const std::size_t done = reached(dir_ / "out.failed");
    EXPECT_EQ(rows(dir_ / "out.failed", "step_time.npy"), done + 1);
    EXPECT_NE(f.err.find("run failed: step " + std::to_string(done + 1)), std::string::npos)
        << f.err;
    fs::remove_all(dir_ / "out.failed");
  }
}

TEST_F(FailedRuns, SignalMarksAFitInterrupted) {
  // `tendril fit` over whole runs (the robot's medium fit, 3 s runs with their sensitivities, a few
  // seconds in all): the runs not yet started fail and the fit stops at its next progress line, as
  // `tendril run` reports a run
  const fs::path fit_file = fs::path(TENDRIL_EXAMPLES_DIR) / "fit" / "flagellated_robot_n2.yaml";
  CliOptions o;
  o.while_running = [&](int pid) {
    for (const std::string& e : entries(dir_))
      if (e.find("out.tmp-") == 0) {
        ::kill(pid, SIGINT);
        return true;
      }
    return false;
  };
  const CliResult r =
      run_cli({"fit", fit_file.string(), "--out", "out", "--no-plot", "--jobs", "2"}, dir_, o);
  EXPECT_EQ(r.exit_code, 128 + SIGINT) << r.err;
  EXPECT_NE(r.err.find("fit interrupted by signal 2"), std::string::npos) << r.err;
  expect_ended_early("interrupted");
}

TEST_F(FailedRuns, TemporaryFolderOfAKilledRunIsRemovedByTheNextRun) {
  // SIGKILL cannot be caught: the killed run's "out.tmp-<pid>-0" stays until the next run to "out"
  CliOptions o;
  o.while_running = [&](int pid) {
    for (const std::string& e : entries(dir_))
      if (e.find("out.tmp-") == 0 && fs::exists(dir_ / e / "positions.npy")) {
        ::kill(pid, SIGKILL);
        return true;
      }
    return false;
  };
  const CliResult killed =
      run_cli({"run", "rod.yaml", "--out", "out", "--set", "duration=1000"}, dir_, o);
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << killed.err;
  std::string left;
  for (const std::string& e : entries(dir_))
    if (e.find("out.tmp-") == 0) left = e;
  ASSERT_FALSE(left.empty()) << "the killed run left no temporary folder";
  // a folder of the same form holding a file a run never writes is not removed
  fs::create_directories(dir_ / "out.tmp-999999999-0");
  write_text(dir_ / "out.tmp-999999999-0" / "notes.txt", "mine");

  const CliResult next = run_cli({"run", "rod.yaml", "--out", "out"}, dir_);
  ASSERT_EQ(next.exit_code, 0) << next.err;
  EXPECT_FALSE(fs::exists(dir_ / left));
  EXPECT_NE(slurp(dir_ / "out" / "run.json")
                .find("\"removed_temporaries_of_killed_runs\": [\"" + left + "\"]"),
            std::string::npos);
  EXPECT_EQ(slurp(dir_ / "out.tmp-999999999-0" / "notes.txt"), "mine");
}

TEST_F(FailedRuns, WriteFailureIsReportedFailedWithNothingHalfWritten) {
  // a file size limit makes the growing arrays' writes fail like a full disk does (EFBIG / ENOSPC)
  CliOptions o;
  o.file_size_limit = 20000;
  const CliResult r = run_cli(
      {"run", "rod.yaml", "--out", "out", "--set", "duration=10", "--set", "integrator.dt=0.01"},
      dir_, o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  expect_ended_early("failed");
}

TEST_F(FailedRuns, NothingWritableLeavesNothing) {
  CliOptions o;
  o.file_size_limit = 0;  // not even run.json can be written
  const CliResult r = run_cli({"run", "rod.yaml", "--out", "out"}, dir_, o);
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_FALSE(fs::exists(dir_ / "out.failed" / "run.json"));
  EXPECT_TRUE(no_temporary_left());
}

TEST_F(FailedRuns, TinyOutputIntervalSavesEveryStep) {
  const CliResult r =
      run_cli({"run", "rod.yaml", "--out", "out", "--set", "output.interval=1e-320"}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(io::read_npy(dir_ / "out" / "frame_time.npy").shape[0],
            11u);  // 10 steps + the initial state
}

TEST_F(FailedRuns, VineWithHugeMassFails) {
  const fs::path scene = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r = run_cli({"run", scene.string(), "--out", "vine", "--set", "vine.mass=1e308",
                               "--set", "vine.steps=20"},
                              dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(slurp(dir_ / "vine.failed" / "run.json").find("\"status\": \"failed\""),
            std::string::npos);
}

TEST_F(FailedRuns, FrictionJamOfAVineSaysWhatToChange) {
  // the runtime scene with mu = 0.5: the tip wedges against the first circle (docs/physics/vine.md)
  const fs::path scene = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r = run_cli({"run", scene.string(), "--out", "vine", "--set",
                               "vine.contact.friction=0.5", "--set", "vine.contact.model=point"},
                              dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("energy blow-up"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("jam"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vine.growth.control: force_limited"), std::string::npos) << r.err;
  // with force-limited growth the same vine stalls at the circle and the run completes
  const CliResult stalled =
      run_cli({"run", scene.string(), "--out", "vine", "--set", "vine.contact.friction=0.5",
               "--set", "vine.contact.model=point", "--set", "vine.growth.control=force_limited",
               "--set", "vine.growth.force=0.5"},
              dir_);
  EXPECT_EQ(stalled.exit_code, 0) << stalled.err;
}

TEST_F(FailedRuns, ExplicitSpringVineThatBlowsUpFails) {
  const fs::path scene = fs::path(TENDRIL_EXAMPLES_DIR) / "vine_runtime.yaml";
  const CliResult r =
      run_cli({"run", scene.string(), "--out", "vine", "--set", "vine.springs=explicit", "--set",
               "vine.stiffness=[1e9]", "--set", "vine.steps=200"},
              dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(slurp(dir_ / "vine.failed" / "run.json").find("\"status\": \"failed\""),
            std::string::npos);
}

}  // namespace
}  // namespace tendril::robustness
