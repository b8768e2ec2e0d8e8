#!/usr/bin/python3
"""Draws docs/images/material_frame_t0.svg: the initial material frame rule of docs/conventions.md.

Left: the default rule, m1 = +z projected onto the plane normal to the first edge's tangent t, for
rods in several directions (m2 = t x m1). Right: a rod along +x with `m1: [0, 1, 1]` and
`natural_curvature: [k, 0]` curls in the plane of t and m1 (its stress-free polygon, k L = 2).
Run: /usr/bin/python3 scripts/material_frame_figure.py (needs python3-matplotlib).
"""
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

Z = np.array([0.0, 0.0, 1.0])


def initial_director(t, up=Z):
    """The rule of tendril::initial_director (src/tendril/geometry/kinematics.cpp)."""
    t = t / np.linalg.norm(t)
    if np.linalg.norm(np.cross(up, t)) <= 1e-6 * np.linalg.norm(up):
        up = np.eye(3)[np.argmin(np.abs(up))]
    a = up - up.dot(t) * t
    return a / np.linalg.norm(a)


def arrow(ax, p, v, colour, label=None):
    ax.quiver(*p, *v, color=colour, arrow_length_ratio=0.25, linewidth=1.8, label=label)


fig = plt.figure(figsize=(10, 4.6))
ax = fig.add_subplot(1, 2, 1, projection="3d")
directions = [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0.6, -0.8, 0), (1, 1, 1.2), (-0.3, 0.2, -1), (0, 0, 1)]
labelled = False
for d in directions:
    t = np.array(d, float)
    t /= np.linalg.norm(t)
    m1 = initial_director(t)
    m2 = np.cross(t, m1)
    ax.plot(*np.c_[np.zeros(3), t], color="0.3", linewidth=4)
    mid = 0.75 * t
    arrow(ax, mid, 0.35 * m1, "tab:red", None if labelled else "m1")
    arrow(ax, mid, 0.35 * m2, "tab:blue", None if labelled else "m2 = t x m1")
    labelled = True
ax.text(0, 0, 1.15, "vertical: m1 = +x", fontsize=8)
ax.set_title("default: m1 = +z made normal to the first edge", fontsize=10)
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.set_zlabel("z")
ax.set_box_aspect((1, 1, 1))
ax.legend(loc="upper left", fontsize=8)

ax = fig.add_subplot(1, 2, 2, projection="3d")
k, length, edges = 2.0, 1.0, 20
m1 = np.array([0.0, 1.0, 1.0]) / np.sqrt(2.0)
points = [np.zeros(3)]
dl = length / edges
for j in range(edges):
    points.append(points[-1] + dl * (np.cos(j * k * dl) * np.array([1.0, 0, 0]) + np.sin(j * k * dl) * m1))
points = np.array(points)
ax.plot([0, length], [0, 0], [0, 0], color="0.7", linewidth=3, linestyle="--", label="initial (straight along +x)")
ax.plot(*points.T, color="0.2", linewidth=3, label="natural shape, natural_curvature [k, 0]")
arrow(ax, np.zeros(3), 0.4 * m1, "tab:red", "m1 from the key m1: [0, 1, 1]")
ax.set_title("m1: [0, 1, 1] chooses the bending plane", fontsize=10)
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.set_zlabel("z")
ax.set_box_aspect((1, 1, 1))
ax.set_xlim(0, 1)
ax.set_ylim(-0.25, 0.75)
ax.set_zlim(-0.25, 0.75)
ax.legend(loc="upper left", fontsize=8)

out = pathlib.Path(__file__).resolve().parent.parent / "docs" / "images" / "material_frame_t0.svg"
fig.tight_layout()
fig.savefig(out, metadata={"Date": None})
print(out)
