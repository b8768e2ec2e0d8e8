"""One way to run (docs/conventions.md#how-a-run-is-driven): tendril.Simulation and tendril.VineSimulation
offer the same run and step surface with the same meanings, and a vine run from Python, whole or restored
from a saved frame, equals the `tendril run` command's bit for bit."""
import subprocess

import numpy as np
import pytest

import tendril
from conftest import cantilever

SURFACE = ["step", "run", "restore", "time", "steps", "steps_taken", "total_steps", "finished", "duration",
           "state"]

VINE = {
    "vine": {"bodies": 6, "half_length": 0.02, "tube_diameter": 0.024, "mass": 0.001, "inertia": 2e-4,
             "stiffness": [0.05], "damping": [1e-4], "heading": 1.2, "dt": 0.01, "steps": 10,
             "growth": {"rate": 0.03}, "initial_state": {"extension": 0.004}},
}


def test_rod_and_vine_simulations_offer_the_same_surface():
    for cls in (tendril.Simulation, tendril.VineSimulation):
        assert [name for name in SURFACE if not hasattr(cls, name)] == [], cls.__name__


@pytest.mark.parametrize("kind", ["rod", "vine"])
def test_step_then_run_alike(kind, tmp_dir):
    # the rod: 20 steps of 1 ms; the vine: 10 steps of 10 ms
    sim = tendril.Simulation.from_dict(cantilever()) if kind == "rod" else tendril.VineSimulation.from_dict(VINE)
    dt, total = (1e-3, 20) if kind == "rod" else (0.01, 10)
    assert sim.steps == 0 and sim.time == 0.0 and not sim.finished and sim.total_steps == total
    assert sim.duration == pytest.approx(total * dt)
    r = sim.step()
    assert r.ok and r.iterations >= 1 and isinstance(r.message, str)
    assert sim.steps == sim.steps_taken == 1 and sim.time == pytest.approx(dt)
    seen = []
    result = sim.run(tmp_dir / kind, progress=seen.append)
    assert result.ok and result.steps == total and sim.finished and sim.steps == total
    assert [p.step for p in seen] == list(range(2, total + 1)) and seen[-1].time == pytest.approx(total * dt)
    assert sim.time == pytest.approx(sim.duration)
    run = tendril.read_run(result.path)
    assert run.kind == kind and run.status == "completed" and len(run["step_time"]) == total - 1
    # restoring a saved frame is for a simulation that has not stepped
    with pytest.raises(tendril.InputError):
        sim.restore(result.path, 0)


def test_failed_vine_step_says_why_as_a_failed_run_does(repo):
    # an infinite mass (as tests/robustness/test_failed_runs.cpp runs it): a step fails (its contact
    # impulse is not finite), is not counted, and the message names it as the failed run's record does
    sim = tendril.VineSimulation.from_file(repo / "examples/vine_runtime.yaml", {"vine.mass": 1e308, "vine.steps": 20})
    while not sim.finished:
        r = sim.step()
        if not r.ok:
            break
    assert not r.ok and r.message.startswith(f"step {sim.steps + 1} at t = ") and sim.steps < 20


def test_vine_run_from_python_equals_the_cli_run(repo, cli, tmp_dir):
    scene = repo / "examples/vine_runtime.yaml"
    overrides = ["vine.steps=30", "vine.save_every=10"]
    subprocess.run([cli, "run", str(scene), "--out", str(tmp_dir / "cli")] + sum([["--set", o] for o in overrides], []),
                   check=True, capture_output=True)
    cli_run = tendril.read_run(tmp_dir / "cli")
    py_run = tendril.read_run(tendril.VineSimulation.from_file(scene, overrides).run(tmp_dir / "py").path)
    for name in ("frame_time", "body_pose", "body_velocity", "qp_warm_start"):
        assert np.array_equal(py_run[name], cli_run[name]), name
    # restored from frame 1 (step 10), the 20 steps left end in the CLI run's last state
    part = tendril.VineSimulation.from_file(scene, ["vine.steps=20", "vine.save_every=10"])
    part.restore(tmp_dir / "cli", 1)
    assert part.time == cli_run["frame_time"][1]
    assert part.run().ok and part.steps == 20
    assert np.array_equal(part.state.q, cli_run["body_pose"][-1].ravel())
