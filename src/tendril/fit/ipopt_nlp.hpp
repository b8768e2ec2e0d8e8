#pragma once
/// IPOPT on the joint estimation's nonlinear program (fit/estimation_nlp.hpp): the problem's values
/// evaluated once per new point, the Jacobian on demand, IPOPT's iterations reported to the
/// options' progress callback. Only ipopt_nlp.cpp includes IPOPT. Internal to src/tendril/fit.

#include "tendril/core/types.hpp"
#include "tendril/fit/estimation_nlp.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit::detail {

/// Multiplier estimates for IPOPT's warm start (warm_start_init_point): lambda (one per constraint,
/// IPOPT's sign: L = f + lambda . g) and the bound multipliers z_L, z_U >= 0 (one per variable).
struct IpoptWarmStart {
  VecX lambda, z_lower, z_upper;
};

/// Runs IPOPT on `problem` from `start` (with `warm`'s multipliers, if given, as a warm start;
/// after a trust-region pass, options.trust_region_iterations > 0, the point is not pushed into the
/// bounds' interior and the barrier parameter starts at 1e-6); fills the result's status,
/// iterations and time and returns IPOPT's last point (empty if it gave none).
VecX solve_with_ipopt(EstimationNlp& problem, const JointEstimationOptions& options,
                      const VecX& start, JointEstimationResult& result, IpoptWarmStart warm = {});

}  // namespace tendril::fit::detail
