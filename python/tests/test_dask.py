"""tendril.sweep on a real Dask cluster on 127.0.0.1: a LocalCluster that loses a worker mid-sweep, and the
documented `dask scheduler` / `dask worker ADDRESS` processes driven by `python3 -m tendril sweep`."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pandas
import pytest

import tendril
from conftest import cantilever

TIP_Z = {"tip_z": tendril.Final("positions", (-1, 2))}  # the tip's z at the end [m]


def test_dask_cluster_survives_a_killed_worker(tmp_dir):
    distributed = pytest.importorskip("distributed")
    scene = cantilever(num_nodes=12, duration=0.3)
    grid = {"rods.0.material.E": [1e7, 2e7, 3e7, 4e7], "rods.0.material.density": [1000.0, 1300.0]}
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, local_directory=str(tmp_dir))
    with cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        assert len(pids) == 2
        killed = []

        def kill_one(row):
            if not killed:  # after the first point: both workers are busy with the next ones
                victim = sorted(pids.values())[0]
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        # the killed worker's temporary run directory stays in tmp_dir (removed after the test)
        remote = tendril.sweep(scene, grid, TIP_Z, client=client, progress=kill_one, scratch=str(tmp_dir))
        assert killed and killed[0] not in client.run(os.getpid).values()
    local = tendril.sweep(scene, grid, TIP_Z, workers=2)
    assert len(remote) == 8 and (remote["status"] == "completed").all()
    pandas.testing.assert_frame_equal(remote.drop(columns="wall_time"), local.drop(columns="wall_time"))


@pytest.fixture
def scheduler(tmp_dir):
    """The documented commands: `dask scheduler` and `dask worker ADDRESS` as processes on 127.0.0.1 (free
    ports), the worker in its own folder (tmp_dir/worker, not the client's); yields the scheduler's address
    and stops both."""
    dask = shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command (python3-distributed) is not installed")
    file = tmp_dir / "scheduler.json"
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(300):
            if file.exists() and file.stat().st_size > 0:
                break
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        (tmp_dir / "worker").mkdir()
        worker = [dask, "worker", address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
                  "--local-directory", str(tmp_dir)]
        procs.append(subprocess.Popen(worker, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      cwd=tmp_dir / "worker", env={**os.environ, "TMPDIR": str(tmp_dir)}))
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
            p.wait(timeout=30)


def test_cli_sweep_on_dask_scheduler_and_worker_processes(repo, cli, tmp_dir, scheduler):
    # `python3 -m tendril sweep --scheduler ADDRESS` pointed at the cluster
    scene = repo / "examples/cantilever_gravity.yaml"
    out = subprocess.run([sys.executable, "-m", "tendril", "sweep", str(scene), "--set", "duration=0.01",
                          "--set", "rods.0.material.E=1e7,2e7,-3", "--scheduler", scheduler,
                          "--out", str(tmp_dir / "sweep")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr  # one point failed
    df = pandas.read_csv(tmp_dir / "sweep" / "sweep.csv")
    assert list(df["status"]) == ["completed", "completed", "failed"]
    assert "rods[0].material.E: got -3" in df.loc[2, "message"]
    # the same sweep from the `tendril` command, which hands it to the Python module on the cluster
    out = subprocess.run([cli, "sweep", str(scene), "--set", "duration=0.01", "--set", "rods.0.material.E=1e7,2e7,-3",
                          "--scheduler", scheduler, "--out", str(tmp_dir / "cli_sweep"), "--no-plot"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr  # one point failed
    cli_df = pandas.read_csv(tmp_dir / "cli_sweep" / "sweep.csv")
    assert list(cli_df["status"]) == ["completed", "completed", "failed"]
    assert cli_df.drop(columns="wall_time").equals(df.drop(columns="wall_time"))


def test_cli_sweep_with_scheduler_gives_the_local_sweep(repo, cli, tmp_dir, scheduler):
    # `tendril sweep --scheduler` from the repository with a relative scene path (the worker runs in another
    # folder): the CSV of the local `tendril sweep`, observables included, and the plot
    sets = ["--set", "duration=0.3", "--set", "output.interval=0.1", "--set", "flagellated_robot.motor_rpm=50,100"]
    scene = "examples/flagellated_robot.yaml"
    for name, extra in (("dask", ["--scheduler", scheduler]), ("local", ["--jobs", "2"])):
        out = subprocess.run([cli, "sweep", scene, *sets, *extra, "--out", str(tmp_dir / name)], cwd=repo,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        assert (tmp_dir / name / "sweep.png").stat().st_size > 0
    remote, local = (pandas.read_csv(tmp_dir / name / "sweep.csv", keep_default_na=False) for name in ("dask", "local"))
    assert list(remote.columns) == list(local.columns)
    assert list(remote["status"]) == ["completed", "completed"]
    observables = ["speed", "head_rotation_rate", "tail_rotation_rate", "efficiency"]
    assert all(remote[c].map(np.isfinite).all() for c in observables)
    # the local CSV holds 9 significant digits (tendril sweep), the Python module's full doubles
    pandas.testing.assert_frame_equal(remote.drop(columns="wall_time"), local.drop(columns="wall_time"), rtol=1e-8)
