#include "tendril/core/model_workspace.hpp"

#include "tendril/core/term.hpp"

namespace tendril {

ModelWorkspace::ModelWorkspace(const Model& model) {
  for (const auto& energy : model.energies) {
    energy_terms_.push_back(energy.get());
    energies_.push_back(energy->make_workspace(model));
  }
  for (const auto& force : model.forces) {
    force_terms_.push_back(force.get());
    forces_.push_back(force->make_workspace(model));
  }
}

const TermWorkspace* ModelWorkspace::of(const void* term) const {
  for (std::size_t t = 0; t < energy_terms_.size(); ++t)
    if (energy_terms_[t] == term) return energies_[t].get();
  for (std::size_t t = 0; t < force_terms_.size(); ++t)
    if (force_terms_[t] == term) return forces_[t].get();
  return nullptr;
}

}  // namespace tendril
