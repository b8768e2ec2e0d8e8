#pragma once
/// The step-derivative tests' contact case: the runtime scene (support/vine_paper_scenes.hpp, 8
/// bodies) with point contact, four pins of distinct K, C and a circle ahead, grown until a contact
/// point presses on it (normal impulse > 1e-6 N s after step 30).

#include <gtest/gtest.h>

#include "support/vine_paper_scenes.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::testing {

inline vine::VineModel runtime_scene_before_a_circle() {
  vine::VineModel m = runtime_scene_model(8);
  m.contact_model = vine::ContactModel::point;
  m.obstacles = {vine::make_circle(Vec2(0.14, 0.02), 0.02)};
  m.stiffness = {0.5, 0.4, 0.3, 0.2};
  m.damping = {1e-3, 2e-3, 3e-3, 4e-3};
  return m;
}

/// Steps `stepper` from `state` until a contact point presses on an obstacle; returns that point
/// (-1 if none within 300 steps). `state` is left at the step before the next one.
inline int grow_until_pressing(vine::VineStepper& stepper, vine::VineState& state) {
  for (int k = 0; k < 300; ++k) {
    if (!stepper.step(state).ok()) return -1;
    for (const vine::ContactInfo& c : stepper.contacts())
      if (c.normal_impulse > 1e-6 && k > 30) return c.point;
  }
  return -1;
}

}  // namespace tendril::testing
