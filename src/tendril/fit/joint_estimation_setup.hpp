#pragma once
/// Pieces shared by the joint estimation's formulations (fit/vine_joint_estimation.cpp, the step
/// map's; fit/vine_transcribed_estimation.cpp, the transcribed one): input checks, the model's
/// weights R, the damping bound, the measurement residual of a frame and the constrained
/// Gauss-Newton uncertainties. Internal to src/tendril/fit.

#include <vector>

#include <Eigen/SparseCore>

#include "tendril/core/types.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit::detail {

/// The trust-region pass's penalty: joint, growth and contact rows weigh as residuals with this
/// fraction of the model's sigmas (sigma_q for positions, sigma_v for the rows in velocity units).
inline constexpr double kPenaltySigma = 1e-2;

/// Throws InputError (key paths under joint_estimation, vine) for frames that are empty or not
/// increasing, sigmas or a tolerance that are not finite and > 0, a guess without K, C > 0, a model
/// the formulations do not handle, or a known contact whose point, obstacle or steps are out of
/// range.
void check_estimation_input(const vine::VineModel& model, const std::vector<MeasuredFrame>& frames,
                            const JointEstimationOptions& options);

/// R's diagonal (2n): 1/sigma_q^2, 1/sigma_q^2, 1/sigma_theta^2 per body, then 1/sigma_v^2,
/// 1/sigma_v^2, 1/sigma_omega^2 per body.
VecX model_residual_weights(const vine::VineModel& model, const JointEstimationOptions& options);

/// The upper bound on C [N m s/rad]: options.damping_max, or if <= 0 with the paper's explicit
/// springs min_i I_i / Delta t (JointEstimationOptions::damping_max), else +inf.
double damping_upper_bound(const vine::VineModel& model, const JointEstimationOptions& options);

/// p(q) - p_hat of one measured frame, flattened (2 (P or 1): x, y of each point) [m], and, if
/// asked, dp/dq (2 (P or 1) x n).
VecX frame_residual(const vine::VineModel& model, const VecX& q, Observation observation,
                    const MeasuredFrame& frame, MatX* dpoints);

/// The objective sum_frames |p(q_i) - p_hat_i|^2 / sigma_p^2 + sum_i r_i^T R r_i of both
/// formulations, whose x starts with Z_i = (q_i, v_i) at 2n i and holds r_i (2n each) from
/// `first_residual`; Z_0 is the first frame's step, N = `steps`. With `gradient`: d/dx (sized as
/// x); `data`, `model`: the parts.
double estimation_objective(const vine::VineModel& model, const std::vector<MeasuredFrame>& frames,
                            const JointEstimationOptions& options, const VecX& weights, int steps,
                            int first_residual, const VecX& x, VecX* gradient, double* data,
                            double* model_term);

/// One-sigma uncertainties of the variables first_parameter .. first_parameter + count - 1 from the
/// KKT matrix [H, A^T; A, 0] (nv + nc square; H from the lower triangle `hessian_lower`, A from
/// `jacobian`, whose rows listed in `inactive_rows` are left out, i.e. get an identity); +inf where
/// singular or the variance is not positive.
VecX constrained_sigmas(int nv, int nc,
                        const std::vector<Eigen::Triplet<double, int>>& hessian_lower,
                        const std::vector<Eigen::Triplet<double, int>>& jacobian,
                        const std::vector<int>& inactive_rows, int first_parameter, int count);

}  // namespace tendril::fit::detail
