#pragma once
/// Checks that bad input is reported as tendril::InputError with a message that names the key path,
/// the value and what is allowed.

#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "tendril/core/error.hpp"

namespace tendril::testing {

/// Expects f() to throw an InputError whose message contains every fragment.
template <class F>
void expect_input_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    FAIL() << "no InputError thrown";
  } catch (const InputError& e) {
    const std::string what = e.what();
    for (const auto& frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << what << "\n  lacks: " << frag;
  }
}

}  // namespace tendril::testing
