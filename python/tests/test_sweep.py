"""tendril.sweep on local processes: failures reported per point, resume, observables."""
import numpy as np
import pandas
import pytest

import tendril
from conftest import cantilever

TIP_Z = {"tip_z": tendril.Final("positions", (-1, 2))}  # the tip's z at the end [m]


def test_local_sweep_failures_and_resume(tmp_dir):
    # static cantilevers: small deflections go as 1/E (Euler-Bernoulli, tip = q L^4 / (8 E I))
    scene = cantilever(num_nodes=8, duration=0.0)
    scene["integrator"] = {"type": "static"}
    grid = {"rods.0.material.E": [1e10, -1.0, 4e10]}
    df = tendril.sweep(scene, grid, TIP_Z, out=tmp_dir, workers=2)
    assert list(df["status"]) == ["completed", "failed", "completed"]
    assert "rods[0].material.E: got -1" in df.loc[1, "message"]
    assert df.loc[0, "tip_z"] / df.loc[2, "tip_z"] == pytest.approx(4.0, rel=0.01) and np.isnan(df.loc[1, "tip_z"])
    # each value is the same as a run in this process
    sim = tendril.Simulation.from_dict(scene, {"rods.0.material.E": 4e10})
    sim.run()
    assert df.loc[2, "tip_z"] == sim.state.positions[-1, 2]
    csv = pandas.read_csv(tmp_dir / "sweep.csv", float_precision="round_trip")
    assert list(csv["status"]) == list(df["status"]) and list(csv["overrides"])[0] == "rods.0.material.E=10000000000.0"
    # resume: the completed points are not run again, the failed one is (and fails again)
    ran = []
    again = tendril.sweep(scene, grid, TIP_Z, out=tmp_dir, workers=2, progress=lambda row: ran.append(row["point"]))
    assert ran == [1]
    pandas.testing.assert_frame_equal(again.drop(columns="wall_time"), df.drop(columns="wall_time"))


def test_resume_after_interruption(tmp_dir):
    # an interrupted sweep: its CSV holds the points finished so far; the rerun completes the rest
    scene = cantilever(num_nodes=6, duration=0.02)
    grid = [{"rods.0.material.E": e} for e in (1e7, 2e7, 3e7)]
    full = tendril.sweep(scene, grid, TIP_Z, workers=1)
    partial = full.copy()
    partial.loc[1:, "status"] = "pending"
    tmp_dir.mkdir(exist_ok=True)
    partial.to_csv(tmp_dir / "sweep.csv", index=False)
    ran = []
    resumed = tendril.sweep(scene, grid, TIP_Z, out=tmp_dir, workers=1, progress=lambda r: ran.append(r["point"]))
    assert sorted(ran) == [1, 2]
    assert list(resumed["tip_z"]) == list(full["tip_z"])


def test_observables_from_run_json_and_errors(repo):
    # the flagellated robot's run.json observables by name (a short run); an unknown name fails the point
    scene = repo / "examples/flagellated_robot.yaml"
    df = tendril.sweep(scene, [["duration=0.3", "output.interval=0.1"]], ["speed"], workers=1)
    assert df.loc[0, "status"] == "completed" and np.isfinite(df.loc[0, "speed"])
    bad = tendril.sweep(scene, [["duration=0.1"]], ["nope"], workers=1)
    assert bad.loc[0, "status"] == "failed" and "observable 'nope'" in bad.loc[0, "message"]
