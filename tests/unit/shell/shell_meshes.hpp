#pragma once
/// Shell meshes and models shared by the shell unit tests.

#include <cmath>
#include <random>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/shell_builder.hpp"

namespace tendril::test {

/// An irregular, curved mesh: the alternating 5 x 4 rectangle with nodes jittered in the plane by
/// up to 15 % of the spacing and lifted onto a curved surface with random bumps (fixed seed).
inline io::TriangleMesh irregular_mesh(unsigned seed) {
  io::TriangleMesh mesh = io::rectangle_mesh(1.2, 0.9, 5, 4, io::MeshPattern::alternating);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (Vec3& x : mesh.nodes) {
    x.x() += 0.15 * 0.3 * unit(rng);
    x.y() += 0.15 * 0.3 * unit(rng);
    x.z() = 0.3 * std::sin(2.0 * x.x()) * std::cos(1.5 * x.y()) + 0.03 * unit(rng);
  }
  return mesh;
}

inline ShellInput shell_input(const io::TriangleMesh& mesh, ShellBending bending,
                              ShellMembrane membrane) {
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {.youngs_modulus = 2.0, .poisson_ratio = 0.3, .density = 1.0, .thickness = 0.4};
  input.bending = bending;
  input.membrane = membrane;
  return input;
}

/// A shell model with its rest configuration and frames.
struct BuiltShell {
  Model model;
  VecX q;
  RodFrames frames;
};

inline BuiltShell build(const io::TriangleMesh& mesh, ShellBending bending,
                        ShellMembrane membrane) {
  BuiltShell s;
  s.model = build_shell_model(mesh.nodes, {shell_input(mesh, bending, membrane)});
  s.q = rest_configuration(s.model);
  initialize_frames(s.model, s.q, s.frames);
  return s;
}

}  // namespace tendril::test
