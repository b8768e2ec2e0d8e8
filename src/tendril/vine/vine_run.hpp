#pragma once
/// A vine scene's run as an io::Stepper (io/stepper.hpp): the stepper and state of a VineScene,
/// stepped `vine.steps` times, its frames saved every `vine.save_every` steps, driven by io::run
/// as a rod or shell simulation is. The run directory (kind "vine") holds the arrays listed at
/// run_vine (vine_scene.hpp) and qp_warm_start (run_restart.hpp).

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tendril/vine/run_restart.hpp"
#include "tendril/vine/vine_run_base.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

class VineRun : public VineRunBase<VineScene, VineStepper, VineState, VineStepReport> {
 public:
  /// Builds the stepper (InputError for a bad model) and starts from the scene's initial state and
  /// QP warm start. Steps that fail (a QP not solved, joint drift or an energy blow-up, which leave
  /// the state as it was, or a non-finite state or impulse) say why in the report's message.
  explicit VineRun(VineScene scene);

  std::string_view iterations_name() const override { return "contact iterations"; }
  std::string_view kind() const override { return "vine"; }
  std::unique_ptr<io::RunRecord> begin_record(io::RunDirectory& run) override;

  /// Normal impulse of every (contact element, obstacle) pair at the last step, element-major
  /// [N s].
  const std::vector<double>& last_normal_impulses() const { return normal_; }

 protected:
  std::string check_step() override;

 private:
  std::vector<double> normal_;
};

}  // namespace tendril::vine
