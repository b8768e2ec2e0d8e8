#pragma once
/// Linear natural modes of a model about a configuration: K v = omega^2 M v on the free DOFs, with
/// K = d2E/dq2 - dF/dq (all energies and force terms at u = 0, symmetrised) and M the lumped mass.
/// docs/physics/rods.md#natural-modes. Used by `tendril modes` and the frequency validation tests.

#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/types.hpp"

namespace tendril::sim {

struct NaturalModes {
  std::vector<double> omega;  ///< angular frequencies omega_k [rad/s], ascending (#modes); negative:
                              ///< -sqrt(-lambda) for an unstable direction (lambda = omega^2 < 0)
  MatX shapes;                ///< mode shapes v_k over all DOFs, zero on fixed ones, M-normalised (#dofs x #modes)
};

/// The `count` lowest modes about `state` (its q, time and accepted frames). Throws InputError when a
/// free DOF has no mass (shell xi DOFs) or `count` exceeds the free DOFs. Dense: O(n^3) in the free DOFs.
NaturalModes natural_modes(const Model& model, const State& state, int count);

}  // namespace tendril::sim
