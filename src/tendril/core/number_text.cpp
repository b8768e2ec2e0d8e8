#include "tendril/core/number_text.hpp"

#include <cstdio>

namespace tendril {

std::string number_text(double value, int significant) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
  return buffer;
}

}  // namespace tendril
