#pragma once
/// The growth-rate control input u(t) of the vine robot (paper eq. 6): the total rate [m/s] at
/// which the robot lengthens, given as a constant, piecewise-constant segments or a table
/// interpolated linearly (e.g. read from a CSV file). Held constant beyond the last sample.
/// docs/physics/vine.md#growth-eq-6-14

#include <string>
#include <vector>

namespace tendril::vine {

class GrowthSchedule {
 public:
  enum class Interpolation { hold, linear };

  GrowthSchedule() = default;
  /// u(t) = rate [m/s] for all t.
  static GrowthSchedule constant(double rate);
  /// u(t) = rates[i] for times[i] <= t < times[i+1] (times ascending, times[0] is the start).
  static GrowthSchedule piecewise(std::vector<double> times, std::vector<double> rates,
                                  const std::string& key);
  /// u(t) interpolated linearly between samples (times ascending).
  static GrowthSchedule table(std::vector<double> times, std::vector<double> rates,
                              const std::string& key);

  /// u(t) [m/s].
  double rate(double time) const;

  /// The samples' rates (a fit's parameters): #samples, rate i [m/s], and setting it.
  int num_samples() const { return static_cast<int>(rates_.size()); }
  double sample_rate(int i) const { return rates_[i]; }
  void set_sample_rate(int i, double rate) { rates_[i] = rate; }
  /// du(t)/d rate_i: 1 or 0 for held samples, the interpolation weight for a table [-].
  double rate_weight(double time, int i) const;

 private:
  GrowthSchedule(std::vector<double> times, std::vector<double> rates, Interpolation interp,
                 const std::string& key);
  std::vector<double> times_{0.0};  ///< sample times [s] (#samples)
  std::vector<double> rates_{0.0};  ///< u at the samples [m/s] (#samples)
  Interpolation interp_ = Interpolation::hold;
};

}  // namespace tendril::vine
