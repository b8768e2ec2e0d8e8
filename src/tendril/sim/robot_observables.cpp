#include "tendril/sim/robot_observables.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace tendril::sim {

double fitted_slope(const std::vector<double>& t, const std::vector<double>& y, double t_min) {
  double n = 0.0, st = 0.0, sy = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k)
    if (t[k] >= t_min) n += 1.0, st += t[k], sy += y[k];
  if (n < 2.0) return std::numeric_limits<double>::quiet_NaN();
  const double mt = st / n, my = sy / n;
  double stt = 0.0, sty = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k)
    if (t[k] >= t_min) stt += (t[k] - mt) * (t[k] - mt), sty += (t[k] - mt) * (y[k] - my);
  return stt > 0.0 ? sty / stt : std::numeric_limits<double>::quiet_NaN();
}

const HeadDragParameters* head_drag_parameters(const Model& model) {
  for (const auto& force : model.forces)
    if (const auto* head = dynamic_cast<const HeadDrag*>(force.get())) return &head->parameters();
  return nullptr;
}

double drag_ratio(const HeadDragParameters& p) {
  return 6.0 * p.shape_factor_force / (8.0 * p.shape_factor_torque * p.radius);
}

RobotObservables::RobotObservables(const Model& model, const ObservableSpec& spec, double duration)
    : spec_(spec),
      steady_start_(spec.steady_start.value_or(0.5 * duration)),
      head_nodes_(model.rods.edges[spec.head_edge]) {
  if (const HeadDragParameters* p = head_drag_parameters(model)) drag_ratio_ = drag_ratio(*p);
  // any unit vector not parallel to the axis, made orthogonal
  const Vec3 other = std::abs(spec_.axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  e1_ = (other - other.dot(spec_.axis) * spec_.axis).normalized();
  e2_ = spec_.axis.cross(e1_);
}

double RobotObservables::spin_angle(const Vec3& director,
                                    const std::vector<double>& previous) const {
  double angle = std::atan2(director.dot(e2_), director.dot(e1_));
  if (!previous.empty()) {
    const double two_pi = 2.0 * std::numbers::pi;
    angle += two_pi * std::round((previous.back() - angle) / two_pi);
  }
  return angle;
}

void RobotObservables::record(double t, const VecX& q, const Kinematics& kin) {
  time_.push_back(t);
  // the head edge's midpoint along the axis
  const Vec3 x0 = q.segment<3>(3 * head_nodes_[0]), x1 = q.segment<3>(3 * head_nodes_[1]);
  position_.push_back(0.5 * (x0 + x1).dot(spec_.axis));
  head_angle_.push_back(spin_angle(kin.material_director_1[spec_.head_edge], head_angle_));
  tail_angle_.push_back(spin_angle(kin.material_director_1[spec_.tail_edge], tail_angle_));
}

RobotObservables::Summary RobotObservables::summary() const {
  Summary s{};
  s.steady_start = steady_start_;
  s.samples = 0;
  for (double t : time_) s.samples += t >= steady_start_ ? 1 : 0;
  s.speed = fitted_slope(time_, position_, steady_start_);
  s.head_rotation_rate = std::abs(fitted_slope(time_, head_angle_, steady_start_));
  s.tail_rotation_rate = std::abs(fitted_slope(time_, tail_angle_, steady_start_));
  s.efficiency = drag_ratio_ > 0.0 && s.head_rotation_rate > 0.0
                     ? drag_ratio_ * std::abs(s.speed) / s.head_rotation_rate
                     : std::numeric_limits<double>::quiet_NaN();
  return s;
}

std::vector<std::pair<std::string, double>> RobotObservables::named_values(const Summary& s) {
  return {{"speed", s.speed},
          {"head_rotation_rate", s.head_rotation_rate},
          {"tail_rotation_rate", s.tail_rotation_rate},
          {"efficiency", s.efficiency}};
}

}  // namespace tendril::sim
