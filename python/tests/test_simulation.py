"""The rod Simulation from Python: construction, stepping, views aliasing the C++ state, controls,
run directories, and the same trajectory as the CLI bit for bit."""
import subprocess
import threading

import numpy as np
import pytest

import tendril
from conftest import cantilever


def test_constructors_agree(repo):
    # the same scene from a file, from YAML text and from a dict gives the same state after a step
    path = repo / "examples/cantilever_gravity.yaml"
    a = tendril.Simulation.from_file(path, {"duration": 0.01})
    b = tendril.Simulation.from_yaml(path.read_text(), ["duration=0.01"])
    import yaml
    c = tendril.Simulation.from_dict(yaml.safe_load(path.read_text()), {"duration": 0.01})
    for s in (a, b, c):
        r = s.step()
        assert isinstance(r, tendril.StepReport) and r.ok and r.status == tendril.StepStatus.converged
    assert np.array_equal(a.state.q, b.state.q) and np.array_equal(a.state.q, c.state.q)
    assert a.total_steps == 10 and a.steps_taken == 1 and not a.finished
    assert a.dt == pytest.approx(1e-3) and a.duration == pytest.approx(0.01)


def test_step_report_and_energies():
    sim = tendril.Simulation.from_dict(cantilever())
    e0 = sim.energies()
    assert list(e0)[-1] == "kinetic" and e0["kinetic"] == 0.0
    r = sim.step()
    assert r.iterations >= 1 and r.dt == pytest.approx(1e-3) and r.message == ""
    assert len(r.residual_history) >= 1 and r.final_residual == r.residual_history[-1]
    assert r.dt_halvings == 0 and r.regularized_iterations >= 0 and len(r.line_search_steps) >= 1
    # one factorization per iteration that does not reuse one (no chord steps here, no shift needed)
    assert r.chord_iterations == 0 and r.regularized_iterations == 0 and r.factorizations == r.iterations
    # what ended the solve: the residual test (within the tolerance) or the round-off floor
    assert r.criterion in (tendril.StopCriterion.residual, tendril.StopCriterion.round_off)
    assert r.tolerance > 0 and r.round_off_excess >= 0
    if r.criterion == tendril.StopCriterion.residual:
        assert r.final_residual <= r.tolerance
    e1 = sim.energies()
    assert e1["kinetic"] > 0 and set(e1) == set(e0)


def test_state_views_alias_the_cpp_state():
    sim = tendril.Simulation.from_dict(cantilever(num_nodes=5))
    n, e = sim.num_nodes, sim.num_edges
    q, u, x, th = sim.state.q, sim.state.u, sim.state.positions, sim.state.twists
    assert q.shape == (sim.num_dofs,) == (3 * n + e,) and x.shape == (n, 3) and th.shape == (e,)
    assert q.dtype == np.float64 and not q.flags.owndata and x.base is not None
    # the views share memory with each other (no copies)
    assert np.shares_memory(q, x) and np.shares_memory(q, th) and np.shares_memory(u, sim.state.velocities)
    sim.step()
    # views taken before the step see the new state (the storage does not move)
    assert np.array_equal(q, sim.state.q) and sim.state.time == pytest.approx(1e-3)
    assert x[-1, 2] < 0 and u[3 * (n - 1) + 2] < 0
    # a write through a view is what the next step starts from: a tip velocity upwards changes the step
    ref = tendril.Simulation.from_dict(cantilever(num_nodes=5))
    ref.step()
    u[3 * (n - 1) + 2] += 1.0
    x_before = x[-1, 2]
    sim.step()
    ref.step()
    assert sim.state.positions[-1, 2] > ref.state.positions[-1, 2]
    assert sim.state.positions[-1, 2] > x_before - 1e-3  # moved up, not down as under gravity alone
    # whole-array assignment through the property
    sim.state.u = np.zeros(sim.num_dofs)
    assert not sim.state.u.any()
    sim.state.positions = sim.state.positions + [0.0, 0.0, 1e-3]


def test_bad_assignments_raise():
    sim = tendril.Simulation.from_dict(cantilever(num_nodes=5))
    q0 = sim.state.q.copy()
    with pytest.raises(ValueError, match=r"state.q: got shape \(3,\); allowed: \(19,\)"):
        sim.state.q = np.zeros(3)
    with pytest.raises(TypeError, match="state.u: got dtype <U1"):
        sim.state.u = np.array(["a"] * sim.num_dofs)
    with pytest.raises(TypeError, match="state.positions: got dtype complex128"):
        sim.state.positions = np.zeros((5, 3), dtype=complex)
    with pytest.raises(ValueError):
        sim.state.positions[:] = np.zeros(4)  # numpy's own broadcasting check on the view
    with pytest.raises(AttributeError):
        sim.state.time = 1.0
    assert np.array_equal(sim.state.q, q0)  # nothing half-written


def test_controls_change_the_equilibrium():
    # a rod with natural curvature bends: raising kappa_bar through the view bends the free tip further
    # (mat_dismech 7.1: the PneuNet is a rod whose natural curvature is actuated)
    scene = cantilever(num_nodes=11, duration=1.0, dt=0.05)
    scene["forces"] = {}
    scene["integrator"] = {"type": "static", "dt": 0.05}
    sim = tendril.Simulation.from_dict(scene)
    kappa = sim.controls.natural_curvature
    assert kappa.shape == (9, 2) and not kappa.any()
    assert sim.controls.natural_twist.shape == (9,) and sim.controls.rest_length.shape == (10,)
    assert sim.controls.hinge_natural_angle.shape == (0,)
    x = sim.state.positions  # a view across static solves too
    sim.step()
    assert abs(sim.state.positions[-1, 2]) < 1e-9
    kappa[:, 0] = 0.1  # integrated curvature per spring [-]
    sim.step()
    z1 = sim.state.positions[-1, 2]
    assert abs(z1) > 0.1
    sim.controls.natural_curvature = np.full((9, 2), [0.2, 0.0])
    sim.step()
    assert abs(sim.state.positions[-1, 2]) > abs(z1) and np.array_equal(x, sim.state.positions)
    # rest lengths 10 % longer: the 9 free edges of length h stretch by 0.1 h each (the clamped first
    # edge stays), so the straight tip moves out by 0.9 h
    sim.controls.natural_curvature = np.zeros((9, 2))
    h = sim.controls.rest_length[0]
    sim.controls.rest_length = sim.controls.rest_length * 1.1
    sim.step()
    assert sim.state.positions[-1, 0] == pytest.approx(1.0 + 0.9 * h, rel=1e-9)
    assert sim.state.positions[-1, 2] == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="controls.natural_twist: got shape"):
        sim.controls.natural_twist = np.zeros(3)


def test_hinge_angles_steer_a_shell(repo):
    # the parachute's canopy (hinge bending): natural dihedral angles set from Python
    # between steps change the canopy's shape, and the view has one angle per hinge
    plain = tendril.Simulation.from_file(repo / "examples/parachute.yaml", {"duration": 0.05})
    bent = tendril.Simulation.from_file(repo / "examples/parachute.yaml", {"duration": 0.05})
    angles = bent.controls.hinge_natural_angle.copy()  # the property is a view of the model
    assert angles.ndim == 1 and angles.size > 0
    bent.controls.hinge_natural_angle = angles + 0.2
    assert np.allclose(bent.controls.hinge_natural_angle, angles + 0.2)
    for sim in (plain, bent):
        while not sim.finished:
            assert sim.step().ok
    assert np.abs(bent.state.positions - plain.state.positions).max() > 1e-4


def test_run_and_read_run(tmp_dir):
    sim = tendril.Simulation.from_dict(cantilever())
    seen = []
    result = sim.run(tmp_dir / "run", progress=seen.append)
    assert isinstance(result, tendril.RunResult) and result.ok and result.steps == 20 and result.frames == 21
    assert result.message == "" and all(p.duration == pytest.approx(0.02) and p.iterations >= 1 for p in seen)
    assert [p.step for p in seen] == list(range(1, 21)) and seen[-1].total_steps == 20
    assert seen[-1].time == pytest.approx(0.02) and isinstance(seen[0], tendril.Progress)
    run = tendril.read_run(result.path)
    assert run.directory == result.path
    assert run.kind == "rod" and run.status == "completed" and run.meta["status"] == "completed"
    assert run["positions"].shape == (21, 6, 3) and run["step_status"].dtype == np.int64
    assert np.array_equal(run["positions"][-1], sim.state.positions)
    assert run.info["energy_terms"][-1] == "kinetic"
    # no output folder: runs without writing
    again = tendril.Simulation.from_dict(cantilever())
    r = again.run()
    assert r.ok and str(r.path) in ("", ".") and np.array_equal(again.state.q, sim.state.q)


def test_progress_exception_ends_run(tmp_dir):
    sim = tendril.Simulation.from_dict(cantilever())

    def stop(p):
        if p.step == 3:
            raise KeyboardInterrupt("stop here")

    with pytest.raises(KeyboardInterrupt, match="stop here"):
        sim.run(tmp_dir / "run", progress=stop)
    assert sim.steps_taken == 3
    assert not (tmp_dir / "run").exists()  # the partial run is kept as run.failed, never as run
    assert tendril.read_run(tmp_dir / "run.failed").status == "failed"


def test_python_and_cli_trajectories_identical(repo, cli, tmp_dir):
    # the CLI's run and Python's step-by-step loop give the same frames, bit for bit
    scene = repo / "examples/helix_gravity.yaml"
    overrides = ["duration=0.05"]
    subprocess.run([cli, "run", str(scene), "--out", str(tmp_dir / "cli")] + sum([["--set", o] for o in overrides], []),
                   check=True, capture_output=True)
    cli_run = tendril.read_run(tmp_dir / "cli")
    sim = tendril.Simulation.from_file(scene, overrides)
    frames = [sim.state.positions.copy()]
    times = [sim.state.time]
    while not sim.finished:
        assert sim.step().ok
        frames.append(sim.state.positions.copy())
        times.append(sim.state.time)
    keep = [times.index(t) for t in cli_run["frame_time"]]
    assert len(keep) == len(cli_run["frame_time"]) > 2
    assert np.array_equal(np.array(frames)[keep], cli_run["positions"])
    py_run = tendril.Simulation.from_file(scene, overrides).run(tmp_dir / "py")
    assert np.array_equal(tendril.read_run(py_run.path)["twists"], cli_run["twists"])


def test_run_releases_the_gil():
    # while a thread runs a simulation, the main thread keeps running Python and sees it part-way
    # (with the GIL held for the whole run it could only see 0 steps or all of them; how often it looks
    # depends on the machine's load, so only one intermediate count is required)
    sim = tendril.Simulation.from_dict(cantilever(num_nodes=30, duration=2.0))
    t = threading.Thread(target=sim.run)
    seen = set()
    t.start()
    while t.is_alive():
        seen.add(sim.steps_taken)
    t.join()
    assert sim.steps_taken == 2000
    assert len(seen - {0, 2000}) >= 1


def test_threads_step_separate_simulations_alike():
    sims = [tendril.Simulation.from_dict(cantilever(num_nodes=20, duration=0.05)) for _ in range(2)]
    threads = [threading.Thread(target=s.run) for s in sims]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sims[0].finished and np.array_equal(sims[0].state.q, sims[1].state.q)


def plate(nodes_x, nodes_y, bending="midedge"):
    """A static solve of a plate 0.1 m long (nodes_x along x), clamped by its first two columns, under gravity."""
    width = 0.1 * (nodes_y - 1) / (nodes_x - 1)
    return {"duration": 0,
            "shells": [{"geometry": {"type": "rectangle", "length": 0.1, "width": width, "nodes_x": nodes_x,
                                     "nodes_y": nodes_y, "pattern": "right"},
                        "material": {"E": 1.0e9, "nu": 0.3, "density": 1200, "thickness": 0.002},
                        "clamp": {"side": "x_min", "rows": 2}, "bending": bending}],
            "forces": {"gravity": [0, 0, -9.81]}, "integrator": {"type": "static"}}


def test_automatic_linear_solver_weighs_memory():
    # the band of a 2D mesh grows as N^1.5, the sparse fill about as N log N: on a square 50 x 50 mid-edge
    # plate (14,501 free DOFs) the band would store 2.15 times the entries of the sparse L (above the 2
    # the choice allows), within 3.5 times its work (3.1), and the automatic choice is the sparse LDL^T;
    # a strip of 41 x 11 nodes (1.6 times) and a rod (bandwidth about 10) keep the band
    chosen = {}
    for name, scene in [("square", plate(50, 50)), ("strip", plate(41, 11)), ("rod", cantilever(num_nodes=2000))]:
        report = tendril.Simulation.from_dict(scene).step()
        assert report.ok, name
        chosen[name] = report.linear_solver
    assert chosen == {"square": "sparse_ldlt", "strip": "banded_ldlt", "rod": "banded_ldlt"}
