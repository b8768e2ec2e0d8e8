// Issue 8, "--out deletes files it does not own": a folder is replaced only if it holds exactly the
// files its run.json lists; a symbolic link is never followed or replaced; a folder in the way is
// refused naming what is there, with the user's files intact; a temporary name that exists is
// never reused or removed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>

#include "support/cli_process.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;

class OutFolder : public CliTest {
 protected:
  CliResult run(const std::string& out) {
    return run_cli({"run", "fixed.yaml", "--out", out}, dir_);
  }
};

TEST_F(OutFolder, ForeignFolderIsRefusedAndKept) {
  fs::create_directories(dir_ / "thesis");
  write_text(dir_ / "thesis" / "thesis.tex", "keep me");
  const CliResult r = run("thesis");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("thesis.tex"), std::string::npos) << r.err;  // says what is in the way
  EXPECT_EQ(slurp(dir_ / "thesis" / "thesis.tex"), "keep me");
  EXPECT_EQ(entries(dir_), (std::vector<std::string>{"fixed.yaml", "rod.yaml", "thesis"}));
}

TEST_F(OutFolder, FolderWhoseRunJsonOnlyNamesTheFormatIsRefused) {
  // the old rule replaced any folder whose run.json contained "format": "tendril-run"
  fs::create_directories(dir_ / "fake");
  write_text(dir_ / "fake" / "run.json", "{\"format\": \"tendril-run\"}\n");
  write_text(dir_ / "fake" / "data.csv", "1,2,3\n");
  const CliResult r = run("fake");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("data.csv"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "fake" / "data.csv"), "1,2,3\n");
}

TEST_F(OutFolder, EarlierRunIsReplacedButNotWithAnExtraFile) {
  ASSERT_EQ(run("out").exit_code, 0);
  const auto run_files = entries(dir_ / "out");
  ASSERT_EQ(run("out").exit_code, 0);  // an earlier run holding only its own files is replaced
  EXPECT_EQ(entries(dir_ / "out"), run_files);
  fs::copy_file(dir_ / "fixed.yaml",
                dir_ / "out" / "fixed.yaml");  // the user keeps the scene with the run
  const CliResult r = run("out");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("fixed.yaml"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "out" / "fixed.yaml"), kFullyFixedRod);
  fs::remove(dir_ / "out" / "fixed.yaml");
  fs::create_directories(dir_ / "out" / "plots");  // a subfolder is not a run's file either
  EXPECT_EQ(run("out").exit_code, 2);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "plots"));
}

TEST_F(OutFolder, SymbolicLinkIsRefusedAndKept) {
  ASSERT_EQ(run("real").exit_code, 0);
  fs::create_directory_symlink("real", dir_ / "link");
  const auto before = entries(dir_ / "real");
  const CliResult r = run("link");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "link")));
  EXPECT_EQ(entries(dir_ / "real"), before);
}

TEST_F(OutFolder, ExistingTemporaryNamesAreNeverReusedOrRemoved) {
  // names a run of this process would pick first, and the old "<out>.tmp-<pid>" form
  const std::string pid = std::to_string(::getpid());
  for (const std::string& suffix : {".tmp-" + pid, ".tmp-" + pid + "-0"}) {
    fs::create_directories(dir_ / ("out" + suffix));
    write_text(dir_ / ("out" + suffix) / "mine.txt", "user data");
  }
  {
    io::RunDirectory run(dir_ / "out", "test", io::Json::object());
    EXPECT_EQ(run.temporary_path().filename().string(), "out.tmp-" + pid + "-1");
    run.finish();
  }
  EXPECT_EQ(slurp(dir_ / ("out.tmp-" + pid) / "mine.txt"), "user data");
  EXPECT_EQ(slurp(dir_ / ("out.tmp-" + pid + "-0") / "mine.txt"), "user data");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "run.json"));
}

TEST_F(OutFolder, FileInTheWayIsRefused) {
  write_text(dir_ / "out", "a file");
  const CliResult r = run("out");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(slurp(dir_ / "out"), "a file");
}

TEST_F(OutFolder, EmptyOutIsRefused) {
  // it once wrote to runs/rod silently: an empty --out is a mistake (a variable that was not set)
  for (const char* command : {"run", "fit", "sweep", "plot"}) {
    const CliResult r = run_cli({command, "rod.yaml", "--out", ""}, dir_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("an empty path"), std::string::npos) << r.err;
  }
  EXPECT_EQ(entries(dir_), (std::vector<std::string>{"fixed.yaml", "rod.yaml"}));
}

TEST_F(OutFolder, RunOfMoreThanAGigabyteIsWarnedWithItsEstimate) {
  // 10^7 steps of the 5-node rod, every one saved; stopped once it has written something
  const CliResult r = run_cli({"run", "rod.yaml", "--out", "out", "--set", "duration=1e4"}, dir_,
                              interrupt_once_written("positions.npy"));
  EXPECT_EQ(r.exit_code, 128 + SIGINT) << r.err;
  const std::string warning = "warning: this run will write about ";
  const auto at = r.err.find(warning);
  ASSERT_NE(at, std::string::npos) << r.err;
  const double estimate_gb = std::stod(r.err.substr(at + warning.size()));
  // the reference: what the interrupted run wrote, array by array, scaled to 10^7 steps (an array
  // of one row per step) or 10^7 + 1 frames (one per saved frame, the initial one included)
  const std::string meta = slurp(dir_ / "out.failed" / "run.json");
  const auto steps_at = meta.find("\"steps\": ");
  ASSERT_NE(steps_at, std::string::npos) << meta;
  const std::size_t steps = std::stoul(meta.substr(steps_at + 9));
  ASSERT_GT(steps, 10u);
  double bytes = 0.0;
  for (const fs::directory_entry& f : fs::directory_iterator(dir_ / "out.failed")) {
    if (f.path().extension() != ".npy") continue;
    const io::NpyArray a = io::read_npy(f.path());
    ASSERT_TRUE(a.shape[0] == steps || a.shape[0] == steps + 1) << f.path();
    bytes +=
        8.0 * static_cast<double>(a.size() / a.shape[0]) * (a.shape[0] == steps ? 1e7 : 1e7 + 1);
  }
  EXPECT_GT(estimate_gb, 1.0);
  EXPECT_NEAR(estimate_gb, bytes / 1e9, 0.005 * bytes / 1e9) << r.err;  // printed to 3 digits
  // a small run is not warned about
  const CliResult small = run_cli({"run", "rod.yaml", "--out", "small"}, dir_);
  EXPECT_EQ(small.exit_code, 0) << small.err;
  EXPECT_EQ(small.err.find("warning:"), std::string::npos) << small.err;
}

}  // namespace
}  // namespace tendril::robustness
