"""The step report's substeps and the contact and reaction quantities a run folder saves
(contact_active, contact_min_gap, contact_forces, reactions) from Python, against closed forms."""
import math

import numpy as np
import pytest

import tendril
from conftest import cantilever

# a sphere (R = 2 mm) moving at 5 m/s (5 mm, 2.5 radii, per step at dt 1e-3 s) hits a thin rod
# lying on the ground between two of its nodes
IMPACT = """
duration: 0.05
rods:
  - geometry: {type: straight, start: [-0.03, 0, 0.0005], end: [0.03, 0, 0.0005], num_nodes: 7}
    material: {E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005}
forces: {gravity: [0, 0, -9.8]}
contact:
  stiffness: 1.0e4
  distance_tolerance: 1.0e-4
  ground: {}
  obstacles: [{shape: sphere, center: [0.005, -0.01, 0.002], radius: 0.002, path: [[0, 0, 0, 0], [1, 0, 5, 0]]}]
integrator: {type: implicit_euler, dt: 1.0e-3}
"""


def test_substeps_of_a_fast_impact():
    sim = tendril.Simulation.from_yaml(IMPACT)
    split = 0
    for step in range(50):
        r = sim.step()
        assert r.ok, r.message
        assert r.substeps >= 1 and sim.state.time == pytest.approx((step + 1) * 1e-3, abs=1e-12)
        if r.substeps > 1:
            split += 1
            # the substeps are shorter than the user's dt, and at least one was halved
            assert r.dt < sim.dt and r.dt_halvings >= 1
        else:
            assert r.dt == pytest.approx(sim.dt)
    assert split > 0


def test_contact_statistics_and_forces_of_a_rod_on_the_ground():
    # a static rod (r = 1 mm, 5 nodes, held in x and y) resting on the ground under gravity: the
    # contact forces carry exactly its weight, the smallest gap is the lowest node's height minus r
    r, length, density, g = 0.001, 0.1, 1000.0, 9.81
    held = [{"node": i, "components": ["x", "y"]} for i in range(5)]
    scene = {
        "duration": 0,
        "rods": [{"geometry": {"type": "straight", "start": [0, 0, r], "end": [length, 0, r], "num_nodes": 5},
                  "material": {"E": 1.0e6, "nu": 0.3, "density": density, "radius": r}}],
        "boundary_conditions": {"fixed_dofs": held, "fixed_twists": [{"edges": [0]}]},
        "forces": {"gravity": [0, 0, -g]},
        "contact": {"stiffness": 100, "distance_tolerance": 1e-4, "ground": {}},
        "integrator": {"type": "static"},
    }
    sim = tendril.Simulation.from_dict(scene)
    assert sim.step().ok
    weight = density * math.pi * r**2 * length * g
    forces = sim.contact_forces()
    assert forces.shape == (5, 3)
    assert forces[:, 2].sum() == pytest.approx(weight, rel=1e-6)
    assert np.abs(forces[:, :2]).max() == 0.0
    stats = sim.contact_statistics()
    assert isinstance(stats, tendril.ContactStatistics) and stats.active == 5
    assert stats.min_gap == pytest.approx(sim.state.positions[:, 2].min() - r, abs=1e-15)
    assert stats.min_gap < 0  # the weight presses the rod into the penalty
    # no contact: nothing active, the smallest gap infinite
    free = tendril.Simulation.from_dict(cantilever())
    assert free.contact_statistics().active == 0 and math.isinf(free.contact_statistics().min_gap)


def test_reactions_of_a_rod_held_at_its_ends_carry_its_weight():
    # a rod held at both end nodes sagging under gravity (static): the z reactions at the held nodes
    # sum to its weight m g, and the twist held at edge 0 carries no moment
    scene = cantilever(num_nodes=6)
    del scene["rods"][0]["clamp"]
    scene["boundary_conditions"] = {"fixed_nodes": [{"nodes": [0, -1]}], "fixed_twists": [{"edges": [0]}]}
    scene["integrator"] = {"type": "static"}
    scene["duration"] = 0
    sim = tendril.Simulation.from_dict(scene)
    assert sim.step().ok
    n = sim.num_nodes
    dofs = np.array(sim.reaction_dofs)
    assert list(dofs) == [0, 1, 2, 3 * (n - 1), 3 * (n - 1) + 1, 3 * (n - 1) + 2, 3 * n]
    reactions = sim.reactions()
    material = scene["rods"][0]["material"]
    weight = material["density"] * math.pi * material["radius"]**2 * 1.0 * 9.81
    assert reactions[[2, 5]].sum() == pytest.approx(weight, rel=1e-9)
    assert abs(reactions[6]) < 1e-12
