#pragma once
/// A one-line progress bar on stderr, drawn only when stderr is a terminal.

#include <chrono>

namespace tendril::cli {

class ProgressBar {
 public:
  ProgressBar();
  /// Redraws at most every 0.1 s (and always at completion): fraction in [0, 1], t and T [s].
  void update(double fraction, double time, double duration, int iterations);
  /// Ends the line if anything was drawn.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace tendril::cli
