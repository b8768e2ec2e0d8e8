#include "tendril/vine/step_derivatives.hpp"

#include "tendril/vine/step_kkt.hpp"

namespace tendril::vine {

StepDerivatives step_derivatives(const VineStepper& stepper, double active_threshold) {
  StepDerivatives out;
  StepKkt kkt;
  if (!linearise_step(stepper, active_threshold, kkt)) return out;
  out.active_inequalities = kkt.active_inequalities;
  const int n = kkt.n, pins = kkt.pins, np = kkt.prismatic;
  const int col_v = kkt.col_v, col_k = kkt.col_k, col_c = kkt.col_c, col_u = kkt.col_u;
  const double dt = stepper.model().dt;
  const double m_ref = stepper.mass_scale();
  const MatX& x = kkt.dx;

  const auto dv = x.topRows(n);
  out.dv_dq = dv.middleCols(0, n);
  out.dv_dv = dv.middleCols(col_v, n);
  out.dv_dK = dv.middleCols(col_k, pins);
  out.dv_dC = dv.middleCols(col_c, pins);
  out.dv_du = dv.middleCols(col_u, np);
  out.dv_drest = dv.middleCols(kkt.col_rest, pins);
  out.dv_dradius = dv.col(kkt.col_radius);
  out.dv_dlaw = dv.middleCols(kkt.col_law, 2);
  out.dq_dq = MatX::Identity(n, n) + dt * out.dv_dq;
  out.dq_dv = dt * out.dv_dv;
  out.dq_dK = dt * out.dv_dK;
  out.dq_dC = dt * out.dv_dC;
  out.dq_du = dt * out.dv_du;
  out.dq_drest = dt * out.dv_drest;
  out.dq_dradius = dt * out.dv_dradius;
  out.dq_dlaw = dt * out.dv_dlaw;
  // the bilateral contacts' rows follow the joint rows; impulse = m_ref lambda
  const int nb = stepper.num_bilateral_contacts();
  const auto dheld = x.middleRows(n + 2 * stepper.model().num_bodies, nb) * m_ref;
  out.dheld_dq = dheld.middleCols(0, n);
  out.dheld_dv = dheld.middleCols(col_v, n);
  out.dheld_dK = dheld.middleCols(col_k, pins);
  out.dheld_dC = dheld.middleCols(col_c, pins);
  out.ok = true;
  return out;
}

}  // namespace tendril::vine
