#include "tendril/adjoint/energy_objective.hpp"

#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "tendril/adjoint/parameter_residual.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::adjoint {
namespace {

void check_step(int step) {
  if (step < 0) throw InputError("step", std::to_string(step), "a state index >= 0");
}

/// E_el at `state` on `model` (actuated at the state's time); its gradient dE/dq (#dofs) into
/// `gradient` if not null.
double elastic_energy_at(const Model& model, const State& state, VecX* gradient) {
  Model actuated = model;
  actuated_rods(model, state.time, actuated.rods);
  Kinematics kin;
  compute_kinematics(actuated, state.frames, state.q, kin);
  if (gradient) gradient->setZero(model.dofs.size());
  EnergyOutput out{0.0, gradient, nullptr};
  const EvalInput in{actuated, state.q, state.u, state.time, kin};
  for (const auto& energy : actuated.energies)
    if (!energy->is_external_load()) energy->accumulate(in, out);
  return out.energy;
}

/// The run's model and, per parameter, the models of the fourth-order central difference of an
/// energy in it at fixed state (points p + c d, d = |p| / 4, so that p - 2 d keeps the sign).
struct EnergyModels {
  EnergyModels(const Model& model, const std::vector<Parameter>& parameters)
      : run(with_parameters(model, parameters)), stencil(difference_stencil(4)) {
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      const double p = parameters[i].value;
      steps.push_back(0.25 * (p != 0.0 ? std::abs(p) : 1.0));
      moved.emplace_back();
      for (double c : stencil.offsets)
        moved.back().push_back(with_moved_parameter(model, parameters, i, c * steps.back()));
    }
  }
  /// Adds d energy(model, state)/dp_i at the fixed state into dp[i] for every parameter.
  void add_parameter_gradient(const std::function<double(const Model&)>& energy, VecX& dp) const {
    for (std::size_t i = 0; i < moved.size(); ++i) {
      double derivative = 0.0;
      for (std::size_t j = 0; j < moved[i].size(); ++j)
        derivative += stencil.weights[j] * energy(moved[i][j]);
      dp[static_cast<Eigen::Index>(i)] += derivative / steps[i];
    }
  }
  Model run;
  Stencil stencil;
  std::vector<double> steps;              ///< d_i
  std::vector<std::vector<Model>> moved;  ///< per parameter, at p + c_j d_i
};

}  // namespace

double kinetic_energy(const Model& model, const State& state) {
  return 0.5 * state.u.dot(model.mass.cwiseProduct(state.u));
}

double elastic_energy(const Model& model, const State& state) {
  return elastic_energy_at(model, state, nullptr);
}

Objective kinetic_energy(const Model& model, int step, const std::vector<Parameter>& parameters) {
  check_step(step);
  const auto models = std::make_shared<const EnergyModels>(model, parameters);
  Objective o;
  o.at_state = [step, models](int k, const State& s, VecX&, VecX& du) {
    if (k != step) return 0.0;
    du += models->run.mass.cwiseProduct(s.u);
    return kinetic_energy(models->run, s);
  };
  o.parameter_gradient = [step, models](int k, const State& s, VecX& dp) {
    if (k != step) return;
    models->add_parameter_gradient([&s](const Model& m) { return kinetic_energy(m, s); }, dp);
  };
  return o;
}

Objective elastic_energy(const Model& model, int step, const std::vector<Parameter>& parameters) {
  check_step(step);
  const auto models = std::make_shared<const EnergyModels>(model, parameters);
  Objective o;
  o.at_state = [step, models](int k, const State& s, VecX& dq, VecX&) {
    if (k != step) return 0.0;
    VecX gradient;
    const double energy = elastic_energy_at(models->run, s, &gradient);
    dq += gradient;
    return energy;
  };
  // a turn phi of edge e's reference frame is a twist of the edge (the frame angle's fact 1)
  o.frame_angle_gradient = [step, models](int k, const State& s, VecX& dphi) {
    if (k != step) return;
    VecX gradient;
    elastic_energy_at(models->run, s, &gradient);
    for (Eigen::Index e = 0; e < dphi.size(); ++e)
      dphi[e] += gradient[models->run.dofs.twist(static_cast<int>(e))];
  };
  o.parameter_gradient = [step, models](int k, const State& s, VecX& dp) {
    if (k != step) return;
    models->add_parameter_gradient([&s](const Model& m) { return elastic_energy(m, s); }, dp);
  };
  return o;
}

}  // namespace tendril::adjoint
