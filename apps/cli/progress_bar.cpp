#include "progress_bar.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace tendril::cli {

ProgressBar::ProgressBar() : enabled_(::isatty(STDERR_FILENO) == 1) {}

void ProgressBar::update(double fraction, double time, double duration, int iterations) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && fraction < 1.0 && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  constexpr int width = 40;
  const int filled = static_cast<int>(fraction * width + 0.5);
  const std::string bar = std::string(static_cast<std::size_t>(filled), '#') +
                          std::string(static_cast<std::size_t>(width - filled), '.');
  std::fprintf(stderr, "\r[%s] %3.0f%%  t = %.4g / %.4g s  (%d Newton it.)  ", bar.c_str(), 100.0 * fraction, time,
               duration, iterations);
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace tendril::cli
