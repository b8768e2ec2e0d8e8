#pragma once
/// Time schedules of one rest quantity v(t) (natural curvature, natural twist, rest length; units
/// of the quantity): a constant rate (a motor), a sinusoid (a travelling wave when the phase varies
/// along the rod), a piecewise-linear table, or the columns of a CSV file (mat_dismech 6.1: "a text
/// file with time-varying values of natural curvature/twist"). See docs/physics/actuation.md.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tendril {

/// v(t): the value of a rest quantity at time t [s].
using Schedule = std::function<double(double t)>;

/// v(t) = start + rate t (granular_flagella IV-E: the motor, tau_bar_h(t) = omega_T t).
Schedule constant_rate(double start, double rate);

/// v(t) = mean + amplitude sin(2 pi frequency t + phase); frequency f [Hz], phase [rad].
/// InputError ("amplitude", "frequency", "phase", "mean") for non-finite values or f < 0.
Schedule sinusoid(double mean, double amplitude, double frequency, double phase);

/// Piecewise linear through (times[k], values[k]), held constant outside (InputError "times[k]",
/// "values[k]" for decreasing or non-finite entries).
Schedule table_schedule(std::vector<double> times, std::vector<double> values);

/// The schedules in a CSV file: rows "t, v_1, v_2, ..." (comma or whitespace separated; an optional
/// header row, blank lines and lines starting with '#' are skipped); one schedule per value column,
/// piecewise linear in t. InputError naming the file and line for text that is not a number, rows
/// of different lengths, or times that do not increase. The file (named at scene key `key`, "" for
/// none) is read with the data-file limits (core/bounded_file.hpp).
std::vector<Schedule> csv_schedules(const std::filesystem::path& file, const std::string& key = "");

}  // namespace tendril
