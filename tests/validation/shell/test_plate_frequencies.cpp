// Natural frequencies of a simply supported square Kirchhoff plate (side a, thickness h):
// omega_mn = pi^2 (m^2 + n^2) / a^2 sqrt(D / (rho h)), D = E h^3 / (12 (1 - nu^2)) (the Navier
// solution; Leissa, Vibration of Plates, NASA SP-160, 1969, ch. 4, all sides simply supported):
// lambda = omega a^2 sqrt(rho h / D) = 2 pi^2, 5 pi^2, 5 pi^2, 8 pi^2 for the four lowest modes.
// The mid-edge shell has mass on its nodes only; its xi DOFs are eliminated by static condensation
// in sim::natural_modes (the solver of `tendril modes`).
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/geometry/kinematics.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/shell_builder.hpp"
#include "tendril/sim/natural_modes.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double side = 1.0, thickness = 0.01, youngs = 1e9, poisson = 0.3, density = 1000.0;
constexpr double lambda_exact[4] = {2 * kPi * kPi, 5 * kPi* kPi, 5 * kPi* kPi, 8 * kPi* kPi};

/// lambda = omega a^2 sqrt(rho h / D) of the four lowest modes on a `nodes` x `nodes` grid with its
/// boundary nodes fixed (simply supported: the edges' mid-edge xi stay free, so no moment there).
std::vector<double> lowest_lambdas(int nodes) {
  const io::TriangleMesh mesh =
      io::rectangle_mesh(side, side, nodes, nodes, io::MeshPattern::alternating);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {youngs, poisson, density, thickness};
  input.bending = ShellBending::midedge;
  Model model = build_shell_model(mesh.nodes, {input});
  for (int i = 0; i < model.dofs.num_nodes; ++i) {
    const Vec3& x = mesh.nodes[static_cast<std::size_t>(i)];
    if (x.x() < 1e-9 || x.y() < 1e-9 || x.x() > side - 1e-9 || x.y() > side - 1e-9)
      for (int d : model.dofs.node_dofs(i)) model.fixed[static_cast<std::size_t>(d)] = 1;
  }
  State state;
  state.q = rest_configuration(model);
  state.u = VecX::Zero(state.q.size());
  initialize_frames(model, state.q, state.frames);
  const sim::NaturalModes modes = sim::natural_modes(model, state, 4);
  const double d = youngs * std::pow(thickness, 3) / (12.0 * (1.0 - poisson * poisson));
  std::vector<double> lambda;
  for (double omega : modes.omega)
    lambda.push_back(omega * side * side * std::sqrt(density * thickness / d));
  return lambda;
}

TEST(PlateFrequencies, SimplySupportedSquareMatchesLeissa) {
  const std::vector<double> coarse = lowest_lambdas(11), fine = lowest_lambdas(21);
  for (int k = 0; k < 4; ++k) {
    const double e_coarse = coarse[k] / lambda_exact[k] - 1, e_fine = fine[k] / lambda_exact[k] - 1;
    // Richardson: with second-order errors, (4 lambda_h/2 - lambda_h) / 3 cancels the h^2 term
    const double extrapolated = (4 * fine[k] - coarse[k]) / 3,
                 e_extrapolated = extrapolated / lambda_exact[k] - 1;
    std::printf(
        "mode %d: lambda %.4f (10 cells) %.4f (20 cells) -> %.4f, exact %.4f: %+.2f %%, %+.2f %%, "
        "%+.3f %%\n",
        k + 1, coarse[k], fine[k], extrapolated, lambda_exact[k], 100 * e_coarse, 100 * e_fine,
        100 * e_extrapolated);
    // second order in the mesh size (as the rod's CantileverFrequencies), and the extrapolated
    // value within a quarter of the static plate test's 2 % (test_plates.cpp)
    EXPECT_GT(std::log2(std::abs(e_coarse / e_fine)), 1.7) << "mode " << k + 1;
    EXPECT_NEAR(e_extrapolated, 0.0, 0.005) << "mode " << k + 1;
  }
  // modes (1, 2) and (2, 1) of the square have the same frequency (the mesh turned by 90 degrees is
  // a mirror image of itself)
  EXPECT_NEAR(fine[1], fine[2], 1e-9 * fine[1]);
}

}  // namespace
}  // namespace tendril
