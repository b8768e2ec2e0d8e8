#pragma once
/// What evaluating a term writes, kept apart from the term so that a Model's terms are read-only
/// and several simulations of one Model may step on several threads (core/term.hpp).

namespace tendril {

/// One term's workspace: the scratch of an evaluation (element values from prepare(), a broad
/// phase's buffers) and the state the term carries from step to step in a simulation (a changing
/// stencil set and the time of its last update). A term that needs one creates it
/// (Energy/ForceTerm::make_workspace); whoever evaluates the model owns it (ModelWorkspace,
/// core/model_workspace.hpp: the NewtonSystem, or the Simulation that steps it) and reuses it for
/// every evaluation, so the hot loops allocate nothing.
class TermWorkspace {
 public:
  virtual ~TermWorkspace() = default;
};

}  // namespace tendril
