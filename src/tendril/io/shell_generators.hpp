#pragma once
/// Triangle-mesh generators for shells (docs/physics/shells.md#meshes): rectangles with a choice of
/// mesh pattern, regular hexagons, discs. All lie in the plane z = 0 with triangles
/// counter-clockwise seen from +z (unit normal +z). Arguments are checked by the scene reader;
/// these functions assume valid input.

#include <array>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::io {

struct TriangleMesh {
  std::vector<Vec3> nodes;  ///< x_i [m] (#nodes)
  std::vector<std::array<int, 3>>
      triangles;  ///< (x_0, x_1, x_2) counter-clockwise about +z (#triangles)
};

enum class MeshPattern {
  right,        ///< every grid cell cut by the same diagonal (from (i, j) to (i + 1, j + 1))
  alternating,  ///< the diagonal alternates like a checkerboard (crossed, "union jack" style)
  equilateral,  ///< odd rows shifted by half a cell, with a node at both ends: equilateral
                ///< triangles when the row spacing is sqrt(3)/2 of the node spacing; straight
                ///< sides; mirror symmetric about every row
};

/// The rectangle [0, length] x [0, width] with `nodes_x` nodes along x and `nodes_y` rows of nodes
/// along y (equilateral: even rows have nodes_x nodes, odd rows nodes_x + 1).
TriangleMesh rectangle_mesh(double length, double width, int nodes_x, int nodes_y,
                            MeshPattern pattern);

/// A regular hexagon of side `side` [m] centred at the origin, two corners on the x axis, cut into
/// 6 n^2 equilateral triangles (n = `divisions` along each side).
TriangleMesh hexagon_mesh(double side, int divisions);

/// A disc of radius R [m] centred at the origin: the hexagon mesh with `rings` divisions with each
/// ring of nodes moved radially onto the circle of radius R k / rings.
TriangleMesh disc_mesh(double radius, int rings);

}  // namespace tendril::io
