#include "tendril/core/model_workspace.hpp"

#include "tendril/core/error.hpp"
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

namespace {

/// Calls visit(term, workspace) for every term of `model` that carries values, in the Model's
/// order.
template <class Workspaces, class Visit>
void visit_carrying(const Model& model, Workspaces& energies, Workspaces& forces, Visit&& visit) {
  for (std::size_t t = 0; t < model.energies.size(); ++t)
    if (model.energies[t]->carried_size() > 0) visit(*model.energies[t], energies[t].get());
  for (std::size_t t = 0; t < model.forces.size(); ++t)
    if (model.forces[t]->carried_size() > 0) visit(*model.forces[t], forces[t].get());
}

}  // namespace

std::size_t ModelWorkspace::carried_size(const Model& model) {
  std::size_t size = 0;
  for (const auto& energy : model.energies) size += energy->carried_size();
  for (const auto& force : model.forces) size += force->carried_size();
  return size;
}

std::vector<double> ModelWorkspace::carried_values(const Model& model) const {
  std::vector<double> values;
  visit_carrying(model, energies_, forces_, [&](const TermBase& term, const TermWorkspace* w) {
    TENDRIL_ASSERT(w != nullptr, "a term carrying values has a workspace");
    values.resize(values.size() + term.carried_size());
    term.save_carried(*w, values.data() + values.size() - term.carried_size());
  });
  return values;
}

void ModelWorkspace::restore_carried_values(const Model& model, const std::vector<double>& values) {
  TENDRIL_ASSERT(values.size() == carried_size(model), "carried values of this model");
  std::size_t at = 0;
  visit_carrying(model, energies_, forces_, [&](const TermBase& term, TermWorkspace* w) {
    TENDRIL_ASSERT(w != nullptr, "a term carrying values has a workspace");
    term.restore_carried(*w, values.data() + at);
    at += term.carried_size();
  });
}

}  // namespace tendril
