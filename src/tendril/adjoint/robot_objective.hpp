#pragma once
/// Objectives of a swimming robot's run (granular_flagella V; the observables of
/// sim/robot_observables.hpp): its speed v and its head's rotation rate omega_h, each the slope of
/// the least-squares line through the samples at t >= t_s of the run's states,
///   slope = sum_k w_k y_k,   w_k = (t_k - t_mean) / sum_j (t_j - t_mean)^2   (t_k >= t_s, else 0),
/// with y_k the head edge's midpoint along the axis (speed) or the head's unwrapped spin angle (its
/// material director's angle about the axis). Both are sums of per-state terms, as an Objective is.

#include <vector>

#include "tendril/adjoint/objective.hpp"

namespace tendril::adjoint {

/// The states a slope is fitted over: state k of a run of `steps` steps of dt [s] from time
/// `start` [s] is at t_k (accumulated step by step, as the run does), and the fit takes t_k >=
/// `steady_start` [s].
struct SlopeWindow {
  double start = 0.0;
  double dt = 0.0;
  int steps = 0;
  double steady_start = 0.0;
  /// w_k, k = 0..steps (#steps + 1); InputError "steady_start" if fewer than two states are in the
  /// window, "dt"/"steps" for dt <= 0 or steps < 1.
  std::vector<double> weights() const;
};

/// v [m/s]: the slope of s_k = (x_a + x_b)/2 . axis over the window, (x_a, x_b) the nodes of rod
/// edge `head_edge` (InputError "head_edge"), `axis` a unit vector (InputError "axis").
Objective robot_speed(const Model& model, int head_edge, const Vec3& axis,
                      const SlopeWindow& window);

/// The signed rotation rate [rad/s] of the head about `axis`: the slope of the spin angle of the
/// head edge's material director m_1 about the axis (measured from the axis-normal basis of
/// RobotObservables, unwrapped from state to state in the run's order), so that its absolute value
/// is the observable head_rotation_rate. The angle reads the reference frame, so the objective
/// has a frame-angle gradient. Copies share the unwrapping state: one run at a time per objective.
Objective robot_head_rotation(const Model& model, int head_edge, const Vec3& axis,
                              const SlopeWindow& window);

}  // namespace tendril::adjoint
