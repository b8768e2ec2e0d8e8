#include "tendril/actuation/hinge_angle_schedule.hpp"

#include "tendril/core/error.hpp"

namespace tendril {

HingeAngleSchedule::HingeAngleSchedule(const Model& model, std::vector<int> hinges,
                                       std::vector<Schedule> schedules)
    : hinges_(std::move(hinges)), schedules_(std::move(schedules)) {
  TENDRIL_ASSERT(hinges_.size() == schedules_.size(), "one schedule per hinge");
  for (int k : hinges_) {
    TENDRIL_ASSERT(k >= 0 && k < static_cast<int>(model.shells.hinges.size()),
                   "hinge index out of range");
    initial_.push_back(model.shells.hinges[static_cast<std::size_t>(k)].natural_angle);
  }
}

void HingeAngleSchedule::apply_hinges(double t, std::vector<ShellHinge>& hinges) const {
  for (std::size_t k = 0; k < hinges_.size(); ++k)
    hinges[static_cast<std::size_t>(hinges_[k])].natural_angle = initial_[k] + schedules_[k](t);
}

}  // namespace tendril
