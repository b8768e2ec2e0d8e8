#pragma once
/// The benchmark rod (L 1 m along +x, r 5 mm, E 1e7 Pa, nu 0.5, rho 1273.52 kg/m^3) with
/// `num_nodes` equally spaced nodes, built directly through build_rod_model (no scene file).

#include "tendril/rod/rod_builder.hpp"

namespace tendril::bench {

inline Model benchmark_rod_model(int num_nodes) {
  RodNetworkInput in;
  for (int i = 0; i < num_nodes; ++i)
    in.nodes.emplace_back(static_cast<double>(i) / (num_nodes - 1), 0.0, 0.0);
  for (int i = 0; i + 1 < num_nodes; ++i) in.edges.push_back({i, i + 1});
  RodMaterial m;
  m.youngs_modulus = 1e7;
  m.poisson_ratio = 0.5;
  m.density = 1273.52;
  m.radius = 5e-3;
  in.materials = {m};
  return build_rod_model(in);
}

}  // namespace tendril::bench
