#pragma once
/// A one-line progress bar on stderr, drawn only when stderr is a terminal: fraction, simulated
/// time, the solver iterations of the last step and the estimated time left.

#include <chrono>
#include <string>

namespace tendril::cli {

class ProgressBar {
 public:
  /// `iterations_name` says what the iterations count ("Newton iterations", "contact iterations").
  explicit ProgressBar(std::string iterations_name);
  /// Redraws at most every 0.1 s (and always at completion): fraction in [0, 1], t and T [s].
  void update(double fraction, double time, double duration, int iterations);
  /// Ends the line if anything was drawn.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = false;
  bool drawn_ = false;
  std::string iterations_name_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace tendril::cli
