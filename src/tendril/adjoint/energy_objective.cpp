#include "tendril/adjoint/energy_objective.hpp"

#include <memory>
#include <string>

#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::adjoint {
namespace {

void check_step(int step) {
  if (step < 0) throw InputError("step", std::to_string(step), "a state index >= 0");
}

/// E_el at `state` and its gradient dE/dq (#dofs) on `model` (actuated at the state's time).
double elastic_energy_at(const Model& model, const State& state, VecX& gradient) {
  Model actuated = model;
  actuated_rods(model, state.time, actuated.rods);
  Kinematics kin;
  compute_kinematics(actuated, state.frames, state.q, kin);
  gradient.setZero(model.dofs.size());
  EnergyOutput out{0.0, &gradient, nullptr};
  const EvalInput in{actuated, state.q, state.u, state.time, kin};
  for (const auto& energy : actuated.energies)
    if (!energy->is_external_load()) energy->accumulate(in, out);
  return out.energy;
}

}  // namespace

Objective kinetic_energy(const Model& model, int step) {
  check_step(step);
  return {[step, mass = model.mass](int k, const State& s, VecX&, VecX& du) {
            if (k != step) return 0.0;
            du += mass.cwiseProduct(s.u);
            return 0.5 * s.u.dot(mass.cwiseProduct(s.u));
          },
          {}};
}

Objective elastic_energy(const Model& model, int step) {
  check_step(step);
  const auto shared = std::make_shared<const Model>(model);
  Objective o;
  o.at_state = [step, shared](int k, const State& s, VecX& dq, VecX&) {
    if (k != step) return 0.0;
    VecX gradient;
    const double energy = elastic_energy_at(*shared, s, gradient);
    dq += gradient;
    return energy;
  };
  // a turn phi of edge e's reference frame is a twist of the edge (the frame angle's fact 1)
  o.frame_angle_gradient = [step, shared](int k, const State& s, VecX& dphi) {
    if (k != step) return;
    VecX gradient;
    elastic_energy_at(*shared, s, gradient);
    for (Eigen::Index e = 0; e < dphi.size(); ++e)
      dphi[e] += gradient[shared->dofs.twist(static_cast<int>(e))];
  };
  return o;
}

}  // namespace tendril::adjoint
