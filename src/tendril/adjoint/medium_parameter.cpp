#include "tendril/adjoint/medium_parameter.hpp"

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/rft.hpp"

namespace tendril::adjoint {
namespace {

const HeadDrag& head_drag_at(const Model& model, std::size_t force_index) {
  const auto* head = force_index < model.forces.size()
                         ? dynamic_cast<const HeadDrag*>(model.forces[force_index].get())
                         : nullptr;
  if (!head)
    throw InputError("force_index", std::to_string(force_index),
                     "the index of a head_drag term in Model::forces");
  return *head;
}

/// A head drag parameter: `set` writes the value into the term's parameters.
Parameter head_drag_parameter(const Model& model, std::size_t force_index, const std::string& name,
                              double HeadDragParameters::*member) {
  const HeadDrag& head = head_drag_at(model, force_index);
  Parameter p;
  p.name = name;
  p.value = head.parameters().*member;
  p.apply = [force_index, member](Model& m, double value) {
    const HeadDrag& term = head_drag_at(m, force_index);
    HeadDragParameters changed = term.parameters();
    changed.*member = value;
    m.forces[force_index] = std::make_shared<HeadDrag>(term.node(), term.edge(), changed);
  };
  return p;
}

/// The motor's added twist: the actuator `base`, then (rate shift) t on each of `springs`.
class ShiftedRate final : public Actuator {
 public:
  ShiftedRate(std::shared_ptr<const Actuator> base, std::vector<int> springs, double shift)
      : base_(std::move(base)), springs_(std::move(springs)), shift_(shift) {}
  std::string_view name() const override { return base_->name(); }
  void apply(double t, RodNetwork& rods) const override {
    base_->apply(t, rods);
    for (int s : springs_) rods.springs[static_cast<std::size_t>(s)].natural_twist += shift_ * t;
  }

 private:
  std::shared_ptr<const Actuator> base_;
  std::vector<int> springs_;
  double shift_;  ///< [rad/s]
};

}  // namespace

Parameter medium_mu(const Model& model, double mu) {
  if (!(std::isfinite(mu) && mu > 0.0))
    throw InputError("mu", number_text(mu), "the model's medium constant mu > 0 [Pa s]");
  bool found = false;
  for (const auto& f : model.forces)
    found = found || dynamic_cast<const ResistiveForce*>(f.get()) ||
            dynamic_cast<const HeadDrag*>(f.get());
  if (!found)
    throw InputError("forces", std::to_string(model.forces.size()) + " terms",
                     "an rft or head_drag term (the medium mu acts through them)");
  const std::vector<std::shared_ptr<const ForceTerm>> base = model.forces;
  return {"mu", mu, [base, mu](Model& m, double value) {
            const double scale = value / mu;
            for (std::size_t j = 0; j < base.size(); ++j) {
              if (const auto* rft = dynamic_cast<const ResistiveForce*>(base[j].get())) {
                const RftCoefficients& eta = rft->coefficients();
                m.forces[j] = std::make_shared<ResistiveForce>(
                    *rft, RftCoefficients{scale * eta.tangential, scale * eta.normal});
              } else if (const auto* head = dynamic_cast<const HeadDrag*>(m.forces[j].get())) {
                // the term as it is now: C1 and C2 set by earlier parameters are kept
                HeadDragParameters changed = head->parameters();
                changed.mu = value;
                m.forces[j] = std::make_shared<HeadDrag>(head->node(), head->edge(), changed);
              }
            }
          }};
}

Parameter head_drag_c1(const Model& model, std::size_t force_index) {
  return head_drag_parameter(model, force_index, "C1", &HeadDragParameters::shape_factor_force);
}

Parameter head_drag_c2(const Model& model, std::size_t force_index) {
  return head_drag_parameter(model, force_index, "C2", &HeadDragParameters::shape_factor_torque);
}

Parameter motor_rpm(const Model& model, std::size_t actuator_index) {
  const auto* schedule =
      actuator_index < model.actuators.size()
          ? dynamic_cast<const RestShapeSchedule*>(model.actuators[actuator_index].get())
          : nullptr;
  if (!schedule || schedule->quantity() != RestQuantity::natural_twist ||
      schedule->targets().empty())
    throw InputError("actuator_index", std::to_string(actuator_index),
                     "the index of a natural-twist schedule in Model::actuators");
  const double per_rpm = 2.0 * std::numbers::pi / 60.0;  // [rad/s per rpm]
  std::vector<RodNetwork> at(3, model.rods);
  for (int t = 0; t < 3; ++t) schedule->apply(t, at[static_cast<std::size_t>(t)]);
  const auto turned = [&](int t, int s) {
    return at[static_cast<std::size_t>(t)].springs[static_cast<std::size_t>(s)].natural_twist -
           at[static_cast<std::size_t>(t) - 1].springs[static_cast<std::size_t>(s)].natural_twist;
  };
  const double rate = turned(1, schedule->targets().front());  // [rad/s]
  for (int s : schedule->targets())
    for (int t = 1; t < 3; ++t)
      if (!(std::abs(turned(t, s) - rate) <= 1e-12 * std::max(1.0, std::abs(rate))))
        throw InputError("actuator_index", std::to_string(actuator_index),
                         "a motor: natural twists that turn at one constant rate (" +
                             number_text(turned(t, s)) + " rad/s against " + number_text(rate) +
                             ")");
  const std::shared_ptr<const Actuator> base = model.actuators[actuator_index];
  const std::vector<int> springs = schedule->targets();
  const double rpm = rate / per_rpm;
  return {"motor_rpm", rpm, [=](Model& m, double value) {
            m.actuators[actuator_index] =
                std::make_shared<ShiftedRate>(base, springs, (value - rpm) * per_rpm);
          }};
}

}  // namespace tendril::adjoint
