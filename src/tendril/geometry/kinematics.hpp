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

/// Per framed edge (rod edges, then the joint edges of rod-shell joints; core/model.hpp
/// framed_edge_*) and per bend-twist spring (rod springs, then joint springs).
struct Kinematics {
  std::vector<Vec3> edge;                  ///< e^j = x_{n1} - x_{n0} [m] (#edges)
  std::vector<double> edge_length;         ///< |e^j| [m] (#edges)
  std::vector<Vec3> tangent;               ///< t^j = e^j / |e^j| (#edges)
  std::vector<Vec3> reference_director_1;  ///< a_1^j, transported from the accepted frame (#edges)
  std::vector<Vec3> reference_director_2;  ///< a_2^j = t^j x a_1^j (#edges)
  std::vector<Vec3> material_director_1;   ///< m_1^j = cos(theta) a_1 + sin(theta) a_2 (#edges)
  std::vector<Vec3> material_director_2;   ///< m_2^j = -sin(theta) a_1 + cos(theta) a_2 (#edges)
  std::vector<double> reference_twist;     ///< m_ref^k [rad] (#bend-twist springs)
  /// h^j = (t x t_acc) / (|e| (1 + t_acc . t)) [1/m] with t_acc the accepted tangent: when e^j
  /// changes by de, the transported reference frame turns about t^j by h^j . de on top of the
  /// Levi-Civita (twist-free) transport, the holonomy of the finite transport step. Zero when t =
  /// t_acc. Needed for exact derivatives at Newton trial points
  /// (docs/physics/rods.md#exact-derivatives). (#edges)
  std::vector<Vec3> transport_rotation_gradient;
  /// n_avg x e_hat of each mid-edge shell edge at the last accepted step; the mid-edge energy
  /// measures against it only where xi is fixed (held from t = 0) (Z)
  std::vector<Vec3> shell_edge_tau_accepted;
  /// n_avg x e_hat of each mid-edge shell edge at q, or for a fixed xi (a clamped edge) the
  /// accepted frame, so that it keeps its frame from t = 0; becomes tau^{k,0} when the step is
  /// accepted (Z)
  std::vector<Vec3> shell_edge_tau;
};

/// Default "up" vector of the initial frames: a_1 is +z projected onto the plane normal to the
/// tangent.
inline const Vec3 kDefaultDirectorUp = Vec3::UnitZ();
/// |u x t| / |u| below which a hint u counts as parallel to the tangent t (about 1e-6 rad).
inline constexpr double kParallelHintSine = 1e-6;

/// Whether a_1 can be taken from hint u for unit tangent t: u is not within kParallelHintSine of
/// +-t.
bool director_hint_usable(const Vec3& t, const Vec3& u);

/// The initial reference director a_1 for unit tangent t from hint u
/// (docs/conventions.md#material-frame-at-t--0): u projected onto the plane normal to t and
/// normalised. Continuous in t except where t is parallel to u; when director_hint_usable(t, u) is
/// false, the coordinate axis least aligned with u is projected instead.
Vec3 initial_director(const Vec3& t, const Vec3& u = kDefaultDirectorUp);

/// Builds reference frames for a fresh configuration q (at t = 0). Seeds: every edge with a
/// non-zero RodNetwork::initial_director_hint gets a_1 = initial_director(t, hint); from the seeds
/// a_1 is space-parallel transported along chains (nodes where two edges meet), then through
/// joints; each part reached by no seed gets initial_director(t) (+z) on its first edge and is
/// transported from there. The joint edges of rod-shell joints come last: a_1 = initial_director(t,
/// n_avg), the shell's mean unit normal at the edge (a geometric choice: symmetric joints get
/// symmetric frames).
void initialize_frames(const Model& model, const VecX& q, RodFrames& frames);

/// Fills `kin` at configuration q, transporting the reference frames in `accepted`
/// (from the last accepted step) to the new tangents. Reuses kin's storage.
void compute_kinematics(const Model& model, const RodFrames& accepted, const VecX& q,
                        Kinematics& kin);

/// The parts of compute_kinematics, for an evaluation split over threads (NewtonSystem):
/// resize_kinematics first; then compute_edge_kinematics and compute_shell_edge_kinematics on
/// disjoint ranges of framed edges and mid-edge shell edges, in any order or at once; then
/// compute_reference_twist on disjoint ranges of framed springs (it reads the tangents and
/// reference directors of the spring's edges). Each part writes only the entries of its own range.
void resize_kinematics(const Model& model, const RodFrames& accepted, Kinematics& kin);
void compute_edge_kinematics(const Model& model, const RodFrames& accepted, const VecX& q,
                             std::size_t first, std::size_t last, Kinematics& kin);
void compute_shell_edge_kinematics(const Model& model, const VecX& q, std::size_t first,
                                   std::size_t last, Kinematics& kin);
void compute_reference_twist(const Model& model, const RodFrames& accepted, std::size_t first,
                             std::size_t last, Kinematics& kin);

/// Makes the frames of `kin` the accepted ones (at the end of a successful step).
void accept_frames(const Kinematics& kin, RodFrames& frames);

}  // namespace tendril
