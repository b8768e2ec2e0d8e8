#pragma once
/// The workspaces of a Model's terms (core/term_workspace.hpp), one per term that makes one, in the
/// Model's order: everything evaluating the model writes besides its outputs. One simulation owns
/// one (sim::Simulation, or a NewtonSystem built without one) and keeps it for the whole run: the
/// contact terms' candidate pairs and the time of their last update are per-simulation state here
/// (a restart restores what the next step depends on: carried_values()).

#include <cstddef>
#include <memory>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/term_workspace.hpp"

namespace tendril {

class ModelWorkspace {
 public:
  /// Asks every energy and force of `model` for its workspace (null for a term without one).
  explicit ModelWorkspace(const Model& model);
  /// The workspace of model.energies[t] / model.forces[t] (null if the term has none).
  TermWorkspace* energy(std::size_t t) { return energies_[t].get(); }
  TermWorkspace* force(std::size_t t) { return forces_[t].get(); }
  /// The workspace of `term`, one of the model's energies or forces (null if it has none or is
  /// not one of them).
  const TermWorkspace* of(const void* term) const;
  /// The values every term of `model` (the Model this was made for) carries from step to step
  /// (TermBase::carried_size), in the Model's order; restore_carried_values() sets them back.
  std::vector<double> carried_values(const Model& model) const;
  void restore_carried_values(const Model& model, const std::vector<double>& values);
  /// Number of values carried_values() returns.
  static std::size_t carried_size(const Model& model);

 private:
  std::vector<const void*> energy_terms_, force_terms_;  ///< the terms, to look them up (of())
  std::vector<std::unique_ptr<TermWorkspace>> energies_, forces_;
};

}  // namespace tendril
