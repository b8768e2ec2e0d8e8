#pragma once
/// What a video of the vine robot observes of a simulated configuration q (vine paper eq. 16,
/// p(q)): P points evenly spaced by arc length along the centre line (base, joints, tip), or the
/// tip alone, with their exact derivative with respect to q. Shared by both fits of
/// docs/physics/fitting.md.

#include "tendril/core/types.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::fit {

/// What is compared with the measurement at each frame.
enum class Observation {
  points,  ///< P points evenly spaced by arc length along the simulated centre line (P as measured)
  tip,     ///< the tip only (the last measured point)
};

/// The observed points at q ((P or 1) x 2) [m] and, if `dpoints` is given, d vec(points) / dq
/// (2 (P or 1) x 3 #bodies; row 2k + c = component c of point k).
void observe_vine(const vine::VineModel& model, const VecX& q, Observation observation,
                  int measured_points, MatX& points, MatX* dpoints);

/// sum_k weights_k d2 vec(points)_k / dq2 (3 #bodies square, symmetric): the observation's
/// curvature contracted with `weights` (2 (P or 1)), by forward AutoDiff of the exact Jacobian
/// above.
MatX observation_curvature(const vine::VineModel& model, const VecX& q, Observation observation,
                           int measured_points, const VecX& weights);

}  // namespace tendril::fit
