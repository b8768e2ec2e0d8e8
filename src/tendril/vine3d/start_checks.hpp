#pragma once
/// Checks of a 3D vine's starting state against its model, for the scene side to refuse bad input
/// (exit 2) before a run: the chain joined, every prismatic joint of non-zero length, and every
/// body's capsule outside every obstacle (docs/physics/vine3d.md#bad-input). The model's own
/// checks (sizes, values, obstacles enclosing the base) are Vine3dModel::validate.

#include <string>

#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::vine3d {

/// Throws InputError naming `key` and the joint, body or obstacle if: a joint's constraint error
/// |c(q)| exceeds the model's max_joint_error [m; rad for the twist rows] (a broken chain: ends
/// apart, bodies of a prismatic joint not collinear, a twisted joint); a prismatic joint's bodies'
/// centres coincide (|h| <= 1e-12 m: no growth direction); or a body's capsule enters an obstacle
/// (distance below -tolerance [m]).
void check_start(const Vine3dModel& model, const Vine3dState& state,
                 const std::string& key = "initial_state", double tolerance = 1e-9);

}  // namespace tendril::vine3d
