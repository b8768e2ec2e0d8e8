"""The 3D vine simulator from Python (tendril.Vine3dSimulation): stepping, the bodies' poses, growth
rates per prismatic joint, run folders and restarts, bad input, and the steered example's tip
direction against the closed form of its rest bends (rotations composed with scipy)."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import tendril

SCENE = {
    "vine3d": {"bodies": 6, "half_length": 0.02, "stiffness": [0.05], "damping": [1e-4],
               "springs": "implicit", "gravity": [0, 0, -9.81], "dt": 0.01, "steps": 20,
               "growth": {"rate": 0.03},
               "obstacles": [{"shape": "sphere", "center": [0.3, 0.01, -0.03], "radius": 0.04}]},
}


def rotation(q):
    """scipy's Rotation of (w, x, y, z) quaternions."""
    q = np.atleast_2d(q)
    return Rotation.from_quat(q[:, [1, 2, 3, 0]])


def test_step_poses_and_centerline():
    sim = tendril.Vine3dSimulation.from_dict(SCENE)
    assert sim.model.num_bodies == 6 and sim.model.num_bending == 3 and sim.model.num_prismatic == 3
    assert sim.model.num_obstacles == 1 and sim.model.contact_radius == pytest.approx(0.012)
    assert sim.total_steps == 20 and sim.duration == pytest.approx(0.2)
    r = sim.step()
    assert isinstance(r, tendril.Vine3dStepReport) and r.ok and r.message == ""
    assert r.status == tendril.QpStatus.solved and r.kkt_residual <= 1e-9
    assert r.growth_rate == pytest.approx(0.03, rel=1e-9)
    assert sim.steps_taken == 1 and sim.time == pytest.approx(0.01)
    p, q, v = sim.positions(), sim.orientations(), sim.velocities()
    assert p.shape == (6, 3) and q.shape == (6, 4) and v.shape == (6, 6)
    assert np.allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-12)
    assert v[:, 2].min() < 0  # falling under gravity
    # joint points: the base, then the proximal end of bodies 1..5, then the tip, from the poses
    axes = rotation(q).apply([1.0, 0.0, 0.0])
    c = sim.centerline()
    assert c.shape == (7, 3) and np.array_equal(c[0], [0, 0, 0])
    assert np.allclose(c[1:6], p[1:] - 0.02 * axes[1:], atol=1e-15)
    assert np.allclose(c[6], p[5] + 0.02 * axes[5], atol=1e-15)


def test_growth_rates_per_prismatic_joint():
    sim = tendril.Vine3dSimulation.from_dict(SCENE, {"vine3d.gravity": [0, 0, 0]})
    length = lambda: np.linalg.norm(np.diff(sim.centerline(), axis=0), axis=1).sum()
    before = length()
    r = sim.step(np.array([0.0, 0.0, 0.05]))  # the tip joint only
    assert r.ok and r.growth_rate == pytest.approx(0.05, rel=1e-9)
    # straight vine: it grows by u dt (eq. 14 with lookahead 1 is exact on a straight line)
    assert length() - before == pytest.approx(0.05 * 0.01, rel=1e-9)
    with pytest.raises(ValueError, match="one per prismatic joint"):
        sim.step(np.array([0.1]))


def test_run_folder_and_restart_continue_bit_identically(tmp_path):
    full = tendril.Vine3dSimulation.from_dict(SCENE)
    result = full.run(tmp_path / "full")
    assert result.ok and result.steps == 20 and full.finished
    run = tendril.read_run(tmp_path / "full")
    assert run.kind == "vine3d" and run.arrays["body_orientation"].shape == (21, 6, 4)
    assert run.meta["scene"]["vine3d"]["obstacles"][0]["shape"] == "sphere"
    part = tendril.Vine3dSimulation.from_dict(SCENE, {"vine3d.steps": 8})
    part.restore(tmp_path / "full", 12)
    assert part.time == run.arrays["frame_time"][12]
    assert part.run().ok
    assert np.array_equal(part.positions(), full.positions())
    assert np.array_equal(part.orientations(), full.orientations())
    assert np.array_equal(part.velocities(), full.velocities())


def test_bad_input_names_the_key():
    with pytest.raises(tendril.InputError, match=r"vine3d\.half_length"):
        tendril.Vine3dSimulation.from_dict(SCENE, {"vine3d.half_length": 0})
    with pytest.raises(tendril.InputError, match=r"vine3d\.obstacles\[0\].*from the base"):
        tendril.Vine3dSimulation.from_dict(SCENE, {"vine3d.obstacles": [
            {"shape": "sphere", "center": [0, 0, 0], "radius": 0.1}]})
    with pytest.raises(tendril.InputError, match=r"vine3d\.stifness"):
        tendril.Vine3dSimulation.from_dict(SCENE, {"vine3d.stifness": [1]})


def test_steered_example_reaches_the_closed_form_direction(repo):
    sim = tendril.Vine3dSimulation.from_file(repo / "examples/vine_3d_steered.yaml")
    assert sim.run().ok
    tip = rotation(sim.orientations()[-1]).apply([1.0, 0.0, 0.0])[0]
    bend = Rotation.from_rotvec([0.0, -0.12, 0.16])  # every joint's final rest bend
    target = (bend * bend * bend * bend * bend).apply([1.0, 0.0, 0.0])
    assert np.linalg.norm(tip - target) < 1e-6
