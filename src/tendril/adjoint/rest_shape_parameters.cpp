#include "tendril/adjoint/rest_shape_parameters.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril::adjoint {

/// The Poisson ratio's tangent on the shells: the CST Lame moduli from E = 2 mu (1 + nu0), the
/// bending stiffnesses by (1 - nu0^2) / (1 - nu^2) and the mid-edge metric by dG/dnu = (B - A),
/// B_ij - A_ij = |t_i|^2 |t_j|^2 - (t_i . t_j)^2 = |e_i x e_j|^2 = (2 A_bar)^2 for i != j.
void poisson_tangent_on_shells(Model& m, double nu0, double nu, double t) {
  const double shear = (1.0 + nu0) / (1.0 + nu) * (1.0 - t / (1.0 + nu));
  const double plate = 1.0 - nu * nu;
  const double bending = (1.0 - nu0 * nu0) / plate * (1.0 + t * 2.0 * nu / plate);
  for (MembraneTriangle& tri : m.shells.membrane_triangles) {
    const double e = 2.0 * tri.lame_mu * (1.0 + nu0);
    tri.lame_mu *= shear;
    tri.lame_lambda = e * nu / plate + t * e * (1.0 + nu * nu) / (plate * plate);
  }
  for (ShellHinge& h : m.shells.hinges) h.stiffness *= bending;
  for (MidEdgeTriangle& tri : m.shells.midedge_triangles) {
    const auto& nodes = m.shells.triangles[static_cast<std::size_t>(tri.triangle)];
    const auto x = [&](int k) { return m.rest_positions.segment<3>(3 * nodes[k]); };
    const double twice_area = triangle_normal(x(0), x(1), x(2)).norm();
    tri.stiffness *= bending;
    tri.metric += (nu - nu0 + t) * twice_area * twice_area * (Mat3::Ones() - Mat3::Identity());
  }
}

Parameter rest_length_scale(const Model& model, double scale) {
  if (!(std::isfinite(scale) && scale > 0.0) || model.rods.edges.empty() ||
      !model.shells.joint_edges.empty())
    throw InputError("rest_length_scale", number_text(scale),
                     "a scale > 0 (1: as built) of a model with rods and without rod-shell joints");
  Parameter p;
  p.name = "rest_length_scale";
  p.value = scale;
  p.tangent = [scale](Model& m, double value, double t) {
    // every l times value / scale, moved along the tangent of 1/l: 1/l(t) = (1 - t / value) / l
    const double factor = value / scale / (1.0 - t / value);
    for (double& l : m.rods.rest_length) l *= factor;
    for (BendTwistSpring& s : m.rods.springs) s.voronoi_length *= factor;
  };
  p.apply = [tangent = p.tangent](Model& m, double value) { tangent(m, value, 0.0); };
  return p;
}

namespace {

/// `index` as an index into `count` things (InputError `key` naming `what` otherwise).
std::size_t checked_index(const char* key, int index, std::size_t count, const std::string& what) {
  if (index < 0 || static_cast<std::size_t>(index) >= count)
    throw InputError(key, std::to_string(index),
                     what + " index in [0, " + std::to_string(count) + ")");
  return static_cast<std::size_t>(index);
}

/// Where a shell edge's natural weight lives in one of its mid-edge triangles.
struct EdgeWeight {
  std::size_t triangle;  ///< index into ShellMesh::midedge_triangles
  int k;                 ///< the edge's local index in it
};

/// The entries of shell edge `edge` in its two mid-edge triangles (fewer for a boundary edge or
/// hinge bending).
std::vector<EdgeWeight> edge_weights(const Model& model, int edge) {
  std::vector<EdgeWeight> out;
  const auto& shells = model.shells;
  for (std::size_t i = 0; i < shells.midedge_triangles.size(); ++i) {
    const auto t = static_cast<std::size_t>(shells.midedge_triangles[i].triangle);
    for (int k = 0; k < 3; ++k)
      if (shells.triangle_edges[t][static_cast<std::size_t>(k)] == edge) out.push_back({i, k});
  }
  return out;
}

/// The sum of the rest angles beta_bar^k = -w_bar^k / c^k of a shell edge's two triangles.
double natural_fold(const Model& model, const std::vector<EdgeWeight>& weights) {
  double fold = 0.0;
  for (const EdgeWeight& w : weights) {
    const MidEdgeTriangle& t = model.shells.midedge_triangles[w.triangle];
    fold -= t.natural_weight[w.k] / t.coefficient[w.k];
  }
  return fold;
}

}  // namespace

Parameter edge_rest_length(const Model& model, int edge) {
  const std::size_t e = checked_index("edge", edge, model.rods.rest_length.size(), "a rod edge");
  Parameter p;
  p.name = "edge_" + std::to_string(edge) + ".rest_length";
  p.value = model.rods.rest_length[e];
  // 1/l moved along its tangent at l = value: 1/l(t) = 1/value - t/value^2
  p.tangent = [e](Model& m, double value, double t) {
    m.rods.rest_length[e] = value / (1.0 - t / value);
  };
  p.apply = [e](Model& m, double value) { m.rods.rest_length[e] = value; };
  return p;
}

Parameter hinge_natural_angle(const Model& model, int hinge) {
  const std::size_t h = checked_index("hinge", hinge, model.shells.hinges.size(), "a shell hinge");
  return {"hinge_" + std::to_string(hinge) + ".natural_angle", model.shells.hinges[h].natural_angle,
          [h](Model& m, double value) { m.shells.hinges[h].natural_angle = value; }};
}

Parameter midedge_natural_fold(const Model& model, int edge) {
  const std::vector<EdgeWeight> weights = edge_weights(model, edge);
  if (weights.size() != 2)
    throw InputError("edge", std::to_string(edge),
                     "a shell edge between two mid-edge bending triangles");
  return {"shell_edge_" + std::to_string(edge) + ".natural_fold", natural_fold(model, weights),
          [weights](Model& m, double value) {
            const double half = 0.5 * (value - natural_fold(m, weights));
            for (const EdgeWeight& w : weights) {
              MidEdgeTriangle& t = m.shells.midedge_triangles[w.triangle];
              t.natural_weight[w.k] -= t.coefficient[w.k] * half;
            }
          }};
}

Parameter poisson_ratio(const Model& model, double poisson_ratio) {
  if (!(poisson_ratio > -1.0 && poisson_ratio <= 0.5))
    throw InputError("poisson_ratio", number_text(poisson_ratio),
                     "the model's Poisson ratio in (-1, 0.5]");
  if (!model.shells.joint_edges.empty())
    throw InputError("poisson_ratio", number_text(poisson_ratio),
                     "a model without rod-shell joints");
  Parameter p;
  p.name = "poisson_ratio";
  p.value = poisson_ratio;
  p.degree = model.shells.midedge_triangles.empty() ? 1 : 2;
  p.tangent = [nu0 = poisson_ratio](Model& m, double nu, double t) {
    const double twist = (1.0 + nu0) / (1.0 + nu) * (1.0 - t / (1.0 + nu));  // GJ ~ 1 / (1 + nu)
    scale_rod_stiffnesses(m.rods, 1.0, 1.0, twist);
    poisson_tangent_on_shells(m, nu0, nu, t);
  };
  p.apply = [tangent = p.tangent](Model& m, double value) { tangent(m, value, 0.0); };
  return p;
}

}  // namespace tendril::adjoint
