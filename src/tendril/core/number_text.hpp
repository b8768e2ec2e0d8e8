#pragma once
/// A number as it appears in messages and tables: printf's %g with `significant` digits.

#include <string>

namespace tendril {

/// `value` with `significant` significant digits (%g: fixed or exponent form, trailing zeros
/// dropped).
std::string number_text(double value, int significant = 6);

}  // namespace tendril
