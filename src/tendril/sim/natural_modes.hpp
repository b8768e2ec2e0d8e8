#pragma once
/// Linear natural modes of a model about a configuration: K v = omega^2 M v on the free DOFs, with
/// K = d2E/dq2 - dF/dq (all energies and force terms at u = 0, symmetrised) and M the lumped mass.
/// docs/physics/rods.md#natural-modes. Used by `tendril modes` and the frequency and buckling
/// validation tests.

#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/types.hpp"

namespace tendril::sim {

struct NaturalModes {
  std::vector<double>
      omega;  ///< angular frequencies omega_k [rad/s], ascending (#modes); negative:
              ///< -sqrt(-lambda) for an unstable direction (lambda = omega^2 < 0)
  MatX
      shapes;  ///< mode shapes v_k over all DOFs, zero on fixed ones, M-normalised (#dofs x #modes)
};

/// The `count` lowest modes about `state` (its q, time and accepted frames). Free DOFs without mass
/// (the shells' mid-edge xi) are eliminated by static condensation (Guyan reduction): K_aa - K_ab
/// K_bb^-1 K_ba on the DOFs with mass, and v_b = -K_bb^-1 K_ba v_a in the shapes. Throws InputError
/// when a massless DOF has no stiffness of its own (K_bb not positive definite) or `count` exceeds
/// the free DOFs with mass. Dense: O(n^3) in the free DOFs.
NaturalModes natural_modes(const Model& model, const State& state, int count);

/// Linear buckling of a loaded static state: the smallest `count` positive load factors lambda at
/// which K_0 + lambda K_G is singular, with K_0 the elastic stiffness (energies without the
/// external loads) at `unloaded` and K_G = K(loaded) - K_0 (K with every load, at the equilibrium
/// `loaded`). The loads times lambda_1 are the first buckling load. Ascending; fewer when fewer are
/// positive. Needs supports that hold every rigid motion (K_0 positive definite; else InputError).
std::vector<double> buckling_load_factors(const Model& model, const State& unloaded,
                                          const State& loaded, int count);

}  // namespace tendril::sim
