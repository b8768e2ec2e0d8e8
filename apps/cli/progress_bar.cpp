#include "progress_bar.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace tendril::cli {

ProgressBar::ProgressBar(std::string iterations_name)
    : enabled_(::isatty(STDERR_FILENO) == 1), iterations_name_(std::move(iterations_name)) {}

namespace {

/// "1h02m", "3m05s", "12s": the time left at the mean rate so far ("?" before the first step).
std::string eta_text(double fraction, double elapsed) {
  if (!(fraction > 0.0) || fraction > 1.0) return "?";
  const long s = static_cast<long>(elapsed * (1.0 - fraction) / fraction + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s % 3600 / 60);
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%lds", s);
  return buf;
}

}  // namespace

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
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r[%s] %3.0f%%  t = %.4g / %.4g s  %d %s  ETA %s  ", bar.c_str(), 100.0 * fraction, time,
               duration, iterations, iterations_name_.c_str(), eta_text(fraction, elapsed).c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace tendril::cli
