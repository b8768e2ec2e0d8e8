#pragma once
/// Observables of a swimming robot (granular_flagella V): its position along its axis, the spin
/// angles of the head and of the tails about the axis, and from them (fits over the steady part of
/// the run) the speed v, the rotation rates omega_h and omega_t and the efficiency of eq. 18,
///   eta = |F_h| a / |T_h| = 6 pi C1 mu a^2 |v| / (8 pi C2 mu a^3 omega_h) = 6 C1 |v| / (8 C2 a
///   omega_h).
/// Recorded at every step (angles are unwrapped between steps, so they must turn by less than pi
/// per step); written to run directories by Simulation::run (docs/output_format.md).

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/sim/media_scene.hpp"

namespace tendril::sim {

/// Slope b of the least-squares line y = c + b t through the samples with t >= t_min; NaN if fewer
/// than two such samples (or all at one time).
double fitted_slope(const std::vector<double>& t, const std::vector<double>& y, double t_min);

/// The parameters of the model's HeadDrag term (C1, C2, mu, a); null without one.
const HeadDragParameters* head_drag_parameters(const Model& model);

/// eta / (|v| / omega_h) = 6 C1 / (8 C2 a) [1/m] (eq. 18).
double drag_ratio(const HeadDragParameters& p);

class RobotObservables {
 public:
  /// duration: T [s], the default start of the steady part is T / 2. The efficiency needs the
  /// model's HeadDrag term (C1, C2, a); without one it is NaN.
  RobotObservables(const Model& model, const ObservableSpec& spec, double duration);

  /// Records the state at time t [s] (kin: kinematics at q with the accepted frames).
  void record(double t, const VecX& q, const Kinematics& kin);

  struct Summary {
    double speed;               ///< v [m/s], slope of the position along the axis (forward > 0)
    double head_rotation_rate;  ///< omega_h [rad/s] >= 0, |slope| of the head's spin angle
    double tail_rotation_rate;  ///< omega_t [rad/s] >= 0, |slope| of the tails' spin angle
    double efficiency;          ///< eta [-] (eq. 18), NaN without head drag or head rotation
    double steady_start;        ///< fits use t >= this [s]
    int samples;                ///< recorded states used by the fits
  };
  Summary summary() const;

  /// The named values of a summary (speed, head_rotation_rate, tail_rotation_rate, efficiency), as
  /// run.json info.observables and fits (fit/scene_run_evaluator.hpp) name them.
  static std::vector<std::pair<std::string, double>> named_values(const Summary& s);

  double position() const { return position_.back(); }  ///< s = x_head . axis [m] (latest)
  double head_angle() const {
    return head_angle_.back();
  }  ///< unwrapped spin angle of the head [rad]
  double tail_angle() const {
    return tail_angle_.back();
  }  ///< unwrapped spin angle of the tails [rad]
  const ObservableSpec& spec() const { return spec_; }

 private:
  /// Angle of `director` about the axis, unwrapped to within pi of `previous` (if any).
  double spin_angle(const Vec3& director, const std::vector<double>& previous) const;

  ObservableSpec spec_;
  double steady_start_;
  std::array<int, 2> head_nodes_;  ///< nodes of the head edge
  double drag_ratio_ = 0.0;        ///< 6 C1 / (8 C2 a) [1/m], 0 without head drag
  Vec3 e1_, e2_;                   ///< orthonormal basis of the plane normal to the axis
  std::vector<double> time_, position_, head_angle_, tail_angle_;  ///< (#recorded states)
};

}  // namespace tendril::sim
