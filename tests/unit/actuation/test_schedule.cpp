// Schedules of rest quantities: constant rate (motor), sinusoid, piecewise-linear table, CSV file.
#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/actuation/schedule.hpp"

namespace tendril {
namespace {

namespace fs = std::filesystem;

/// A CSV file in a fresh temporary directory, removed with the object.
struct TempCsv {
  fs::path dir = fs::temp_directory_path() / ("tendril_csv_" + std::to_string(::getpid()));
  fs::path file = dir / "schedule.csv";
  explicit TempCsv(const std::string& text) {
    fs::create_directories(dir);
    std::ofstream(file) << text;
  }
  ~TempCsv() { fs::remove_all(dir); }
};

TEST(Schedule, ConstantRateIsAMotor) {
  const Schedule motor = constant_rate(0.3, 2.0 * std::numbers::pi);
  EXPECT_DOUBLE_EQ(motor(0.0), 0.3);
  EXPECT_DOUBLE_EQ(motor(0.5), 0.3 + std::numbers::pi);
}

TEST(Schedule, Sinusoid) {
  const Schedule s = sinusoid(1.0, 0.5, 2.0, 0.25);
  for (double t : {0.0, 0.1, 0.37})
    EXPECT_DOUBLE_EQ(s(t), 1.0 + 0.5 * std::sin(2.0 * std::numbers::pi * 2.0 * t + 0.25));
}

TEST(Schedule, TableInterpolatesAndHoldsItsEnds) {
  const Schedule s = table_schedule({0.0, 1.0, 3.0}, {0.0, 2.0, -2.0});
  EXPECT_DOUBLE_EQ(s(-1.0), 0.0);
  EXPECT_DOUBLE_EQ(s(0.25), 0.5);
  EXPECT_DOUBLE_EQ(s(2.0), 0.0);
  EXPECT_DOUBLE_EQ(s(9.0), -2.0);
}

TEST(Schedule, CsvColumnsWithHeaderAndComments) {
  const TempCsv csv("t, kappa_a, kappa_b\n# a comment\n0, 0, 1\n\n1.0, 0.2, 3\n2.0; 0.4; 5\n");
  const std::vector<Schedule> s = csv_schedules(csv.file);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_DOUBLE_EQ(s[0](0.5), 0.1);
  EXPECT_DOUBLE_EQ(s[1](1.5), 4.0);
  EXPECT_DOUBLE_EQ(s[1](5.0), 5.0);
}

TEST(Schedule, BadInputNamesKeyOrLineAndValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  testing::expect_input_error(
      [] {
        table_schedule({0.0, 2.0, 1.0}, {0, 0, 0});
      },
      {"times[2]", "1", "increasing"});
  testing::expect_input_error([&] { table_schedule({0.0, nan}, {0, 0}); }, {"times[1]", "nan"});
  testing::expect_input_error([&] { table_schedule({0.0, 1.0}, {0, nan}); }, {"values[1]"});
  testing::expect_input_error([] { sinusoid(0.0, 1.0, -2.0, 0.0); }, {"frequency", "-2"});
  {
    const TempCsv csv("0, 1\n2, 2\n1, 3\n");
    testing::expect_input_error([&] { csv_schedules(csv.file); },
                                {"schedule.csv:3", "1, 3", "increasing"});
  }
  {
    const TempCsv csv("t, v\n0, 1\n1, x\n");
    testing::expect_input_error([&] { csv_schedules(csv.file); }, {"schedule.csv:3", "1, x"});
  }
  {
    const TempCsv csv("0, 1\n1, nan\n");
    testing::expect_input_error([&] { csv_schedules(csv.file); }, {"schedule.csv:2", "finite"});
  }
}

}  // namespace
}  // namespace tendril
