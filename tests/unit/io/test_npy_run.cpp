// npy appending and reading back, run directories (temporary name, rename, failure path),
// and reading a run with numpy alone (fails when python3 or numpy is missing).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/mat_dismech_geometry.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::io {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return testing::scratch_dir("io_test") / name;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Npy, AppendedFramesReadBack) {
  const fs::path file = scratch("a.npy");
  {
    NpyAppender a(file, NpyType::Float64, {2, 3});
    for (int f = 0; f < 5; ++f) {
      std::vector<double> frame(6);
      for (int i = 0; i < 6; ++i) frame[i] = f * 10 + i + 0.5;
      a.append(frame);
    }
  }
  const NpyArray r = read_npy(file);
  ASSERT_EQ(r.shape, (std::vector<std::size_t>{5, 2, 3}));
  EXPECT_DOUBLE_EQ(r.data[0], 0.5);
  EXPECT_DOUBLE_EQ(r.data[4 * 6 + 5], 45.5);
  // header is 64-byte aligned and the file size matches
  EXPECT_EQ((fs::file_size(file) - 5 * 6 * 8) % 64, 0u);
}

TEST(Npy, ScalarFramesAndInt64) {
  const fs::path file = scratch("b.npy");
  {
    NpyAppender a(file, NpyType::Int64, {});
    for (std::int64_t k = 0; k < 3; ++k) a.append(std::span<const std::int64_t>(&k, 1));
  }
  const NpyArray r = read_npy(file);
  ASSERT_EQ(r.shape, (std::vector<std::size_t>{3}));
  EXPECT_EQ(r.type, NpyType::Int64);
  EXPECT_DOUBLE_EQ(r.data[2], 2.0);
}

TEST(RunDirectory, FinishRenamesAndReplaces) {
  const fs::path out = scratch("run_ok");
  fs::create_directories(out);
  // an earlier run: its run.json lists every file in the folder
  std::ofstream(out / "run.json")
      << "{\"format\": \"tendril-run\", \"files\": [\"old.npy\", \"run.json\"]}\n";
  std::ofstream(out / "old.npy") << "old";
  {
    RunDirectory run(out, "test", Json::object());
    EXPECT_TRUE(fs::exists(run.temporary_path()));
    EXPECT_TRUE(fs::exists(out / "old.npy"));  // the old output is untouched while running
    auto& x = run.add_array("x", NpyType::Float64, {2}, "m", "test positions");
    const double v[2] = {1, 2};
    x.append(v);
    EXPECT_EQ(run.finish(), out);
  }
  EXPECT_FALSE(fs::exists(out / "old.npy"));
  const std::string meta = slurp(out / "run.json");
  EXPECT_NE(meta.find("\"format\": \"tendril-run\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"status\": \"completed\""), std::string::npos);
  EXPECT_NE(meta.find("\"shape\": [1, 2]"), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"files\": [\"x.npy\", \"run.json\"]"), std::string::npos) << meta;
  EXPECT_EQ(read_npy(out / "x.npy").shape, (std::vector<std::size_t>{1, 2}));
}

TEST(RunDirectory, RefusesToReplaceOtherFilesOrTheCurrentDirectory) {
  const fs::path out = scratch("not_a_run");
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "keep me";
  testing::expect_input_error([&] { RunDirectory run(out, "test", Json::object()); },
                              {"--out", "not_a_run", "not a tendril run", "thesis.tex"});
  EXPECT_TRUE(fs::exists(out / "thesis.tex"));
  testing::expect_input_error([] { RunDirectory run(".", "test", Json::object()); },
                              {"--out", "not the current directory or one of its parents"});
  testing::expect_input_error(
      [] { RunDirectory run(fs::current_path().parent_path(), "test", Json::object()); },
      {"--out", "not the current directory or one of its parents"});
}

TEST(RunDirectory, FailureKeepsOutputAndWritesFailedDirectory) {
  const fs::path out = scratch("run_bad");
  RunDirectory(out, "test", Json::object()).finish();  // an earlier run
  fs::path failed;
  {
    RunDirectory run(out, "test", Json::object());
    run.add_array("x", NpyType::Float64, {1}, "m", "x");
    failed = run.fail("step 3 did not converge");
  }
  EXPECT_NE(slurp(out / "run.json").find("\"status\": \"completed\""), std::string::npos);
  EXPECT_EQ(failed.filename().string(), "run_bad.failed");
  const std::string meta = slurp(failed / "run.json");
  EXPECT_NE(meta.find("\"status\": \"failed\""), std::string::npos);
  EXPECT_NE(meta.find("step 3 did not converge"), std::string::npos);
}

TEST(RunDirectory, UnwoundRunIsMarkedFailed) {
  const fs::path out = scratch("run_unwound");
  try {
    RunDirectory run(out, "test", Json::object());
    throw std::runtime_error("boom");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(fs::exists(out));
  fs::path failed = out;
  failed += ".failed";
  const std::string meta = slurp(failed / "run.json");
  EXPECT_NE(meta.find("\"status\": \"failed\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("ended before it was finished"), std::string::npos) << meta;
}

TEST(MatDismechGeometry, ReadsSectionsOneBased) {
  const fs::path file = scratch("geom.txt");
  std::ofstream(file) << "# a bent rod\n*Nodes\n0, 0, 0\n0.1, 0, 0\n0.1 0.1 0\n*Edges\n1, 2\n2, "
                         "3\n*Triangles\n1, 2, 3\n";
  const MatDismechGeometry g = read_mat_dismech_geometry(file);
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_DOUBLE_EQ(g.nodes[2].y(), 0.1);
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.edges[1], (std::array<int, 2>{1, 2}));
  ASSERT_EQ(g.triangles.size(), 1u);
  EXPECT_EQ(g.triangles[0], (std::array<int, 3>{0, 1, 2}));
}

TEST(MatDismechGeometry, DanglingIndexNamesLine) {
  const fs::path file = scratch("geom_bad.txt");
  std::ofstream(file) << "*Nodes\n0, 0, 0\n1, 0, 0\n*Edges\n1, 2\n2, 3\n";
  try {
    read_mat_dismech_geometry(file);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("geom_bad.txt:6"), std::string::npos) << what;
    EXPECT_NE(what.find("got 3"), std::string::npos) << what;
    EXPECT_NE(what.find("1..2"), std::string::npos) << what;
  }
}

// The run format is readable with numpy alone: the script checks shapes, dtypes and values. A
// machine without python3 or numpy fails here (scripts/setup.sh installs python3-numpy).
TEST(RunDirectory, ReadableWithNumpyAlone) {
  const std::string python = TENDRIL_PYTHON3;
  ASSERT_TRUE(fs::exists(python)) << "no python3 found when configuring (" << python
                                  << "); run scripts/setup.sh";
  const std::string has_numpy = python + " -c \"import numpy\"";
  ASSERT_EQ(std::system(has_numpy.c_str()), 0)
      << python << " has no numpy; run scripts/setup.sh (python3-numpy)";
  const fs::path out = scratch("run_numpy");
  {
    RunDirectory run(out, "test", Json::object());
    auto& x = run.add_array("positions", NpyType::Float64, {4, 3}, "m", "node positions");
    auto& it = run.add_array("iterations", NpyType::Int64, {}, "-", "Newton iterations", "step");
    for (int f = 0; f < 3; ++f) {
      std::vector<double> frame(12);
      for (int i = 0; i < 12; ++i) frame[i] = 100.0 * f + i;
      x.append(frame);
      const std::int64_t k = f + 1;
      it.append(std::span<const std::int64_t>(&k, 1));
    }
    run.finish();
  }
  const std::string cmd = python + " " + TENDRIL_READ_RUN_CHECK + " " + out.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace tendril::io

namespace tendril::io {
namespace {

TEST(Npy, AFailedWriteIsReportedNotIgnored) {
  // /dev/full accepts the open and fails every write with ENOSPC, like a full disk
  if (!std::filesystem::exists("/dev/full")) GTEST_FAIL() << "/dev/full is missing on this machine";
  NpyAppender array("/dev/full", NpyType::Float64, {2});
  const double frame[2] = {1.0, 2.0};
  try {
    for (int i = 0; i < 10000; ++i) array.append(frame);  // fails once the stream buffer is flushed
    array.close();
    FAIL() << "no error for a failed write";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("write failed"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tendril::io
