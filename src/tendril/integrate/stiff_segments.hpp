#pragma once
/// Rotation-aware Newton updates of near-rigid rod parts (docs/physics/time_integration.md, "Stiff
/// parts that rotate"). A Newton step d is linear in the positions, so a stiff segment that has to
/// turn by an angle theta is stretched by about l theta^2 / 2 at y + d, and with EA f times the
/// rest of the rod the line search rejects the step. Here each stiff segment's part of d is split
/// into the infinitesimal rigid motion that fits it best (translation t, rotation vector w about
/// the centroid c) and the rest delta, and the trial point moves the segment along the curve
///   x_i(a) = c + a t + R(a w) (x_i - c + a delta_i),
/// which has the same tangent d at a = 0 (so Armijo's test and quadratic convergence are unchanged)
/// but turns the segment, and the non-rigid rest of its step with it, instead of stretching it. A
/// segment includes the soft edges that meet its edges at a spring with stiff bending: their
/// direction turns with the segment and their stretch (in delta) turns with it. A group whose edges
/// meet at a spring that bends softly (stiff stretching alone) is not rigid but a chain of
/// inextensible links: each edge e (nodes' step difference de) turns by its own rotation w_e = e x
/// de / |e|^2 about its parent node, breadth first from a root node. Free bodies (free_bodies) are
/// rigid groups of whole rod components. Twist DOFs and the other nodes move on the straight line.

#include <array>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class StiffSegments {
 public:
  StiffSegments() = default;
  /// The connected groups of rod edges whose stretch stiffness EA is at least `ratio` times the
  /// median EA of all rod edges (ratio 0: none), and of the pairs of edges that meet at a spring
  /// whose bending stiffness min(EI_1, EI_2) is at least `ratio` times the median over all springs
  /// (a zero median marks nothing). Stiff edges are those of stiff EA and those whose every spring
  /// bends stiffly. Groups with a fixed DOF on a stiff edge are left out: they are held by their
  /// clamp, and moving them would move fixed DOFs; a fixed node of one of the soft edges is left
  /// out of its group (it stays). A group with a soft spring between two of its edges is a chain
  /// (see the file comment).
  StiffSegments(const Model& model, double ratio);
  /// The free bodies: each connected group of rod edges with no fixed DOF on its nodes and no node
  /// of a shell (or of a rod-shell joint edge) is a group, however stiff. The line search turns
  /// them when the straight step and the stiff segments' curve fail (a rigid rotation of any body).
  static StiffSegments free_bodies(const Model& model);

  bool empty() const { return groups_.empty(); }
  /// Node indices of each group.
  const std::vector<std::vector<int>>& groups() const { return groups_; }

  /// Fits the rigid motion (t, w) of every rigid group to the step `d` at the configuration `y`
  /// (#dofs).
  void fit(const VecX& y, const VecX& d);
  /// trial = y + a d plus, on every group's nodes, R(a w) (r_i + a delta_i) - r_i - a w x r_i - a
  /// delta_i (r_i = x_i - c, delta_i = d_i - t - w x r_i); every chain's nodes turned link by link
  /// (turn_chain).
  void trial(const VecX& y, const VecX& d, double a, VecX& trial) const;

 private:
  struct Motion {
    Vec3 centroid = Vec3::Zero();     ///< c [m]
    Vec3 translation = Vec3::Zero();  ///< t [m]
    Vec3 rotation = Vec3::Zero();     ///< w [rad]
  };
  /// Groups the connected `grouped` rod edges (#edges); a group is left out if a node of one of its
  /// `stiff_edge`s is fixed, or if one of its nodes is `held` (#nodes, or empty); fixed nodes leave
  /// the groups that are kept.
  void collect_groups(const Model& model, const std::vector<char>& grouped,
                      const std::vector<char>& stiff_edge, const std::vector<char>& held);

  /// Makes a chain of every group that is not rigid (a spring between two of its edges that is not
  /// `stiff_spring`): the breadth-first links (parent, child) from a root node (parent -1) over its
  /// `grouped` edges; a rigid group has no links.
  void link_chains(const Model& model, const std::vector<char>& grouped,
                   const std::vector<char>& stiff_spring);
  /// A chain's nodes after `trial` moved them on the line: the root stays there, every child is
  /// placed at its parent plus its edge e turned by its own rotation a w = a e x de / |e|^2 with
  /// its change of length a (e . de / |e|^2) e turned along (de: the difference of the two nodes'
  /// steps).
  static void turn_chain(const VecX& y, const VecX& d, double a,
                         const std::vector<std::array<int, 2>>& links, VecX& trial);

  std::vector<std::vector<int>> groups_;
  std::vector<std::vector<std::array<int, 2>>>
      links_;                    ///< a chain's links, empty for a rigid group (#groups)
  std::vector<Motion> motions_;  ///< of the last fit (#groups)
};

}  // namespace tendril
