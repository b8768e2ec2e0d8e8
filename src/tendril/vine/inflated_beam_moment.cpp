#include "tendril/vine/inflated_beam_moment.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::vine {

namespace {

constexpr double kPi = 3.14159265358979323846;
/// Below this taut half-angle beta [rad] the wall integrals use their Taylor series (their closed
/// forms lose digits to cancellation there).
constexpr double kSeriesAngle = 2e-3;

/// g(beta) = sin(beta) - beta cos(beta) (axial balance of the taut wall, per E t kappa r^2 / 2).
double taut_force(double beta) {
  if (beta < kSeriesAngle) {
    const double b2 = beta * beta;
    return beta * b2 * (1.0 / 3.0 - b2 / 30.0 + b2 * b2 / 840.0);
  }
  return std::sin(beta) - beta * std::cos(beta);
}

/// h(beta) = beta - sin(beta) cos(beta) (moment of the taut wall, per E t kappa r^3).
double taut_moment(double beta) {
  if (beta < kSeriesAngle) {
    const double b2 = beta * beta;
    return beta * b2 * (2.0 / 3.0 - 2.0 * b2 / 15.0 + 4.0 * b2 * b2 / 315.0);
  }
  return beta - std::sin(beta) * std::cos(beta);
}

/// h(beta) - 2 g(beta) sin(beta) / beta (tangent stiffness of the wrinkled tube, per E t r^3).
double taut_tangent(double beta) {
  if (beta < kSeriesAngle) {
    const double b2 = beta * beta;
    return beta * b2 * b2 * (2.0 / 45.0 - 2.0 * b2 / 315.0);
  }
  return taut_moment(beta) - 2.0 * taut_force(beta) * std::sin(beta) / beta;
}

/// The taut half-angle beta in (0, pi) with g(beta) = target in (0, pi): safeguarded Newton
/// (g' = beta sin(beta) > 0 on (0, pi)).
double taut_angle(double target) {
  double lo = 0.0, hi = kPi;
  double beta = std::min(std::cbrt(3.0 * target), 0.5 * kPi + 0.5 * std::sqrt(target));
  for (int it = 0; it < 200; ++it) {
    const double residual = taut_force(beta) - target;
    if (std::abs(residual) <= 4e-16 * target) return beta;
    if (residual > 0.0)
      hi = beta;
    else
      lo = beta;
    const double slope = beta * std::sin(beta);
    double next = slope > 0.0 ? beta - residual / slope : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - beta) <= 1e-16 * kPi) return next;
    beta = next;
  }
  return beta;
}

}  // namespace

double InflatedBeam::collapse_moment() const {
  return kPi * pressure * radius * radius * radius;
}
double InflatedBeam::wrinkling_curvature() const {
  return wrinkling_strain / radius;
}
double InflatedBeam::bending_stiffness() const {
  return collapse_moment() / (2.0 * wrinkling_curvature());
}
double InflatedBeam::wrinkling_angle() const {
  return wrinkling_curvature() * joint_length;
}
void InflatedBeam::set_collapse_moment(double collapse_moment) {
  pressure = collapse_moment / (kPi * radius * radius * radius);
}
void InflatedBeam::set_wrinkling_angle(double wrinkling_angle) {
  wrinkling_strain = wrinkling_angle * radius / joint_length;
}

void InflatedBeam::validate(const std::string& prefix) const {
  const auto positive = [&](const char* field, double value) {
    if (!(std::isfinite(value) && value > 0.0))
      throw InputError(prefix + "." + field, fmt::format("{}", value), "a finite value > 0");
  };
  positive("pressure", pressure);
  positive("radius", radius);
  positive("wrinkling_strain", wrinkling_strain);
  positive("joint_length", joint_length);
}

void check_inflated_beam_joints(const InflatedBeam& beam, const std::vector<double>& stiffness,
                                bool refuse_implicit, const std::string& prefix) {
  beam.validate(prefix + ".inflated_beam");
  for (double k : stiffness)
    if (k != 0.0)
      throw InputError(prefix + ".stiffness", fmt::format("{}", k),
                       "no stiffness with bending_law inflated_beam (the law sets the moment)");
  if (refuse_implicit)
    throw InputError(prefix + ".springs", "implicit",
                     "explicit with bending_law inflated_beam (its tangent changes every step)");
}

BendingMoment inflated_beam_moment(const InflatedBeam& beam, double curvature) {
  const double m_c = beam.collapse_moment();
  const double k_w = beam.wrinkling_curvature();
  const double wall = m_c / (2.0 * kPi * k_w);  // E t r^3 [N m^2]
  const double k = std::abs(curvature);
  const double sign = curvature < 0.0 ? -1.0 : 1.0;
  BendingMoment out;
  if (k <= k_w) {  // taut: linear, EI = pi E t r^3
    out.stiffness = kPi * wall;
    out.moment = out.stiffness * curvature;
    out.energy = 0.5 * out.stiffness * curvature * curvature;
    return out;
  }
  const double beta = taut_angle(kPi * k_w / k);
  const double g = taut_force(beta), h = taut_moment(beta);
  const double c = std::cos(beta);
  out.moment = sign * wall * k * h;
  out.stiffness = wall * taut_tangent(beta);
  // d2M/dkappa2 = (dM'/dbeta) / (dkappa/dbeta) = (2 E t r^3 g^2 / beta^2) / (-kappa beta sin / g)
  out.second_derivative =
      -sign * 2.0 * wall * g * g * g / (k * beta * beta * beta * std::sin(beta));
  // W = min over the axial strain of the wall energy minus the end caps' work, from W(0) = 0:
  // E t r^3 kappa^2 (beta - 3 sin cos + 2 beta cos^2) / 2 + M_c kappa cos(beta) + M_c^2/(4 pi E t
  // r^3)
  out.energy = 0.5 * wall * k * k * (h - 2.0 * c * (std::sin(beta) - beta * c)) + m_c * k * c +
               m_c * m_c / (4.0 * kPi * wall);
  return out;
}

BendingMoment inflated_beam_joint_moment(const InflatedBeam& beam, double angle) {
  const double l = beam.joint_length;
  BendingMoment out = inflated_beam_moment(beam, angle / l);
  out.stiffness /= l;
  out.second_derivative /= l * l;
  out.energy *= l;
  return out;
}

InflatedBeamSensitivity inflated_beam_sensitivity(const InflatedBeam& beam, double angle,
                                                  const BendingMoment& law) {
  const double m_c = beam.collapse_moment(), theta_w = beam.wrinkling_angle();
  return {law.moment / m_c, -angle * law.stiffness / theta_w, law.stiffness / m_c,
          -(law.stiffness + angle * law.second_derivative) / theta_w};
}

}  // namespace tendril::vine
