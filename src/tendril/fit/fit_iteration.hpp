#pragma once
/// One line of a fit's progress, whatever the method (`tendril fit` prints it and writes it into
/// history.csv): an iteration of Levenberg-Marquardt (fit/sparse_levenberg_marquardt.hpp; accepted
/// steps and rejected trials alike) or of IPOPT (joint_estimation).

#include <limits>

#include "tendril/core/types.hpp"

namespace tendril::fit {

struct FitIteration {
  int iteration = 0;  ///< accepted steps so far (IPOPT: its iteration counter)
  /// C at the current point (joint_estimation: its chi-square objective); a rejected trial: the
  /// trial's cost (+inf where the model is not defined there)
  double objective = 0.0;
  /// largest bound violation (0: bounds are kept by projection; joint_estimation: IPOPT's inf_pr)
  double constraint_violation = 0.0;
  double step_norm = 0.0;  ///< |dz|_inf of the step (trial) in the solver's variables, 0 at the
                           ///< start (IPOPT: alpha_pr)
  double damping = 0.0;    ///< lambda of the step (IPOPT: the Hessian regularisation delta_w)
  long runs = 0;           ///< runs (or model evaluations) so far
  VecX values;             ///< the parameters at this line's point (a rejected trial: the trial's)
  /// Dual infeasibility (joint_estimation: IPOPT's inf_du); NaN for the methods without one
  double dual_infeasibility = std::numeric_limits<double>::quiet_NaN();
  bool restoration =
      false;  ///< joint_estimation: an iteration of IPOPT's restoration phase (its log's "r")
  bool accepted =
      true;  ///< false: a rejected trial (the cost did not fall enough, or the model failed there)
  bool trust_region = false;  ///< joint_estimation: a step of the trust-region pass before IPOPT
};

}  // namespace tendril::fit
