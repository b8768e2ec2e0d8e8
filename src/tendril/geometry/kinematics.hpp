#pragma once
/// Quantities derived from q once per evaluation and shared by all terms: edge vectors,
/// tangents, reference frames time-parallel transported from the last accepted step,
/// material frames, reference twist (mat_dismech 3.2; Bergou et al. 2010, sec. 4-5).

#include <vector>

#include <Eigen/Geometry>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

struct Kinematics {
  std::vector<Vec3> edge;                 ///< e^j = x_{n1} - x_{n0} [m] (#edges)
  std::vector<double> edge_length;        ///< |e^j| [m] (#edges)
  std::vector<Vec3> tangent;              ///< t^j = e^j / |e^j| (#edges)
  std::vector<Vec3> reference_director_1; ///< a_1^j, transported from the accepted frame (#edges)
  std::vector<Vec3> reference_director_2; ///< a_2^j = t^j x a_1^j (#edges)
  std::vector<Vec3> material_director_1;  ///< m_1^j = cos(theta) a_1 + sin(theta) a_2 (#edges)
  std::vector<Vec3> material_director_2;  ///< m_2^j = -sin(theta) a_1 + cos(theta) a_2 (#edges)
  std::vector<double> reference_twist;    ///< m_ref^k [rad] (#bend-twist springs)
  /// h^j = (t x t_acc) / (|e| (1 + t_acc . t)) [1/m] with t_acc the accepted tangent: when e^j changes
  /// by de, the transported reference frame turns about t^j by h^j . de on top of the Levi-Civita
  /// (twist-free) transport, the holonomy of the finite transport step. Zero when t = t_acc.
  /// Needed for exact derivatives at Newton trial points (docs/physics/rods.md#exact-derivatives). (#edges)
  std::vector<Vec3> transport_rotation_gradient;
  /// tau^{k,0} of each mid-edge shell edge at the last accepted step, held fixed within a step (Z)
  std::vector<Vec3> shell_edge_tau_accepted;
  /// n_avg x e_hat of each mid-edge shell edge at q; becomes tau^{k,0} when the step is accepted (Z)
  std::vector<Vec3> shell_edge_tau;
};

/// Builds reference frames for a fresh configuration q (at t = 0): a_1 perpendicular to each
/// tangent, chosen by space-parallel transport along each rod where possible.
void initialize_frames(const Model& model, const VecX& q, RodFrames& frames);

/// Fills `kin` at configuration q, transporting the reference frames in `accepted`
/// (from the last accepted step) to the new tangents. Reuses kin's storage.
void compute_kinematics(const Model& model, const RodFrames& accepted, const VecX& q, Kinematics& kin);

/// Makes the frames of `kin` the accepted ones (at the end of a successful step).
void accept_frames(const Kinematics& kin, RodFrames& frames);

}  // namespace tendril
