"""tendril.sweep on local processes: failures reported per point, resume, observables."""
import subprocess
import sys

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
    # every point failed: the sweep says so (SweepFailed, with the rows)
    with pytest.raises(tendril.SweepFailed, match="all 1 points of the sweep failed") as failed:
        tendril.sweep(scene, [["duration=0.1"]], ["nope"], workers=1)
    bad = failed.value.frame
    assert bad.loc[0, "status"] == "failed" and "observable 'nope'" in bad.loc[0, "message"]


def test_cli_and_python_sweep_csvs_have_the_same_columns(repo, cli, tmp_dir):
    # `tendril sweep` and `python3 -m tendril sweep` on the same grid: the same columns, the same rows
    scene = str(repo / "examples/flagellated_robot.yaml")
    sets = ["--set", "duration=0.3", "--set", "output.interval=0.1", "--set", "flagellated_robot.motor_rpm=50,100"]
    for command in ([cli, "sweep", scene, "--no-plot"], [sys.executable, "-m", "tendril", "sweep", scene]):
        name = "cli" if command[0] == cli else "python"
        out = subprocess.run([*command, *sets, "--jobs", "2", "--out", str(tmp_dir / name)], capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
    by_cli, by_python = (pandas.read_csv(tmp_dir / name / "sweep.csv", keep_default_na=False)
                         for name in ("cli", "python"))
    assert list(by_cli.columns) == list(by_python.columns) == [
        "point", "duration", "output.interval", "flagellated_robot.motor_rpm", "status", "message", "speed",
        "head_rotation_rate", "tail_rotation_rate", "efficiency", "wall_time", "overrides"]
    # the CLI's CSV holds 9 significant digits, the Python module's full doubles
    pandas.testing.assert_frame_equal(by_cli.drop(columns="wall_time"), by_python.drop(columns="wall_time"), rtol=1e-8)


@pytest.mark.parametrize("command", ["cli", "python"])
def test_a_sweep_whose_points_all_fail_says_so(repo, cli, tmp_dir, command):
    scene = str(repo / "examples/cantilever_gravity.yaml")
    start = [cli, "sweep", scene, "--no-plot"] if command == "cli" else [sys.executable, "-m", "tendril", "sweep",
                                                                          scene]
    out = subprocess.run([*start, "--set", "rods.0.material.E=-1,-2", "--jobs", "1", "--out", str(tmp_dir / "s")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "all 2 points of the sweep failed; the first: " in out.stderr and "rods[0].material.E: got -1" in out.stderr
