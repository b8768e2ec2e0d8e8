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


FIT_SCENE = {
    "vine3d": {"bodies": 5, "half_length": 0.02, "tube_diameter": 0.02, "mass": 2e-3, "stiffness": [0.02],
               "damping": [2e-4], "springs": "implicit", "gravity": [0, -3, -9.81], "dt": 0.005,
               "steps": 200, "growth": {"rate": 0.05}},
}


def test_step_derivative_du_matches_central_differences():
    sim = tendril.Vine3dSimulation.from_dict(FIT_SCENE)
    assert not sim.derivatives().ok  # no step yet
    for _ in range(20):
        assert sim.step().ok
    rates = np.full(2, 0.025)
    d = sim.derivatives()
    assert isinstance(d, tendril.Vine3dStepDerivatives) and d.ok and d.active_inequalities == 0
    assert d.dx_dx.shape == (60, 60) and d.dx_dK.shape == (60, 3) and d.dx_dC.shape == (60, 3)
    assert d.dx_du.shape == (60, 2)
    # the last step's tip-body centre moved by central differences of its joint rates
    start = tendril.Vine3dSimulation.from_dict(FIT_SCENE)
    for _ in range(19):
        start.step()
    h = 1e-6
    for j in range(2):
        sides = []
        for sign in (1, -1):
            s = tendril.Vine3dSimulation.from_dict(FIT_SCENE)
            for _ in range(19):
                s.step()
            u = rates.copy()
            u[j] += sign * h
            assert s.step(u).ok
            sides.append(s.positions().ravel())
        fd = (sides[0] - sides[1]) / (2 * h)
        rows = [12 * i + k for i in range(5) for k in range(3)]
        assert np.allclose(d.dx_du[rows, j], fd, rtol=0, atol=1e-6 * np.abs(fd).max())


def test_shooting_fit_recovers_k_and_c_from_noisy_points_within_four_sigma():
    truth = tendril.Vine3dSimulation.from_dict(FIT_SCENE)
    rng = np.random.default_rng(7)
    noise = 2e-4  # [m] per coordinate
    frames = []
    for f in range(1, 13):
        for _ in range(10):
            assert truth.step().ok
        frames.append((10 * f, truth.centerline() + rng.normal(0.0, noise, (6, 3))))
    sim = tendril.Vine3dSimulation.from_dict(FIT_SCENE)
    fit = sim.fit_stiffness_damping(frames, stiffness=0.04, damping=6e-4)
    assert isinstance(fit, tendril.Vine3dShootingFit) and fit.converged
    assert sim.steps_taken == 0  # the simulation is the fit's start, not advanced
    assert abs(fit.stiffness - 0.02) < 4 * fit.stiffness_sigma
    assert abs(fit.damping - 2e-4) < 4 * fit.damping_sigma
    # the standard errors resolve the parameters, and the residual is the noise
    assert fit.stiffness_sigma < 0.1 * fit.stiffness and fit.damping_sigma < 0.5 * fit.damping
    assert fit.rms_error == pytest.approx(noise * np.sqrt(3), rel=0.2)


def test_shooting_fit_bad_input_names_the_key():
    sim = tendril.Vine3dSimulation.from_dict(FIT_SCENE)
    with pytest.raises(ValueError, match="fit.stiffness"):
        sim.fit_stiffness_damping([(10, np.zeros((6, 3)))], stiffness=0.0, damping=1e-4)
    with pytest.raises(ValueError, match=r"fit.frames\[0\].points"):
        sim.fit_stiffness_damping([(10, np.zeros((2, 3)))], stiffness=0.02, damping=1e-4)


def test_fit_vine_runs_the_vine3d_shooting_example_and_recovers_k_and_c(repo):
    # examples/fit/vine3d_swinging.yaml: points of a run with K = 0.02 N m/rad, C = 2e-4 N m s/rad
    # and 0.2 mm of noise (examples/fit/vine3d/track_points.py), fitted from 0.04 and 6e-4
    lines = []
    result = tendril.fit_vine(repo / "examples/fit/vine3d_swinging.yaml", progress=lines.append)
    assert result["converged"] and result["method"] == "vine3d_shooting"
    truth = {"vine3d.stiffness": 0.02, "vine3d.damping": 2e-4}
    assert [p["key"] for p in result["parameters"]] == list(truth)
    for p in result["parameters"]:
        assert p["identifiable"] and abs(p["value"] - truth[p["key"]]) < 3 * p["sigma"], p
    assert result["noise_sigma"] == pytest.approx(2e-4, rel=0.15)
    assert len(lines) >= result["iterations"] + 1 and lines[0].iteration == 0
