"""tendril.fit: the least-squares fit over whole runs driven from Python, its finite-difference runs
evaluated through tendril.sweep's executor. The same fit (the flagellated robot's head drag C1 from its
speed at two motor speeds, data simulated at the paper's C1 = 2.420) on local processes, on a real Dask
LocalCluster of two worker processes on 127.0.0.1 and by the `tendril fit` command gives the same result:
the runs are deterministic and the algorithm is the one C++ implementation."""
import json
import math
import subprocess

import pandas
import pytest

import tendril

ROBOT = {"duration": 1.0, "flagellated_robot": {"tails": 2, "motor_rpm": 100},
         "integrator": {"type": "implicit_euler", "dt": 0.01}, "output": {"interval": 1.0}}
C1 = [{"key": "flagellated_robot.C1", "initial": 3.0, "lower": 0.5, "upper": 10.0}]


@pytest.fixture
def robot_data(tmp_dir):
    scene = tmp_dir / "robot.yaml"
    scene.write_text(json.dumps(ROBOT))  # JSON is YAML
    truth = tendril.sweep(str(scene), {"flagellated_robot.motor_rpm": [150, 250]}, ["speed"], workers=2)
    assert (truth["status"] == "completed").all()
    data = pandas.DataFrame({"flagellated_robot.motor_rpm": [150, 250], "v": list(truth["speed"])})
    return scene, data


def test_fit_on_local_processes_recovers_c1(robot_data):
    scene, data = robot_data
    lines = []
    r = tendril.fit(str(scene), C1, data, ["flagellated_robot.motor_rpm"], {"v": "speed"}, workers=2,
                    progress=lines.append)
    assert r.converged, r.message
    assert abs(r.values["flagellated_robot.C1"] - 2.42) < 1e-5 * 2.42
    assert len(lines) == len(r.history) and r.history["objective"].iloc[-1] == r.cost
    assert r.runs == r.history["runs"].iloc[-1]
    assert list(r.simulated.columns) == ["v"] and r.simulated.shape == (2, 1)
    # a bad column is a clear error
    with pytest.raises(KeyError, match="no column 'speed'"):
        tendril.fit(str(scene), C1, data, ["flagellated_robot.motor_rpm"], {"speed": "speed"})


def test_fit_on_a_dask_cluster_equals_the_local_fit_and_the_cli(robot_data, tmp_dir, cli):
    distributed = pytest.importorskip("distributed")
    scene, data = robot_data
    local = tendril.fit(str(scene), C1, data, ["flagellated_robot.motor_rpm"], {"v": "speed"}, workers=2)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, local_directory=str(tmp_dir))
    with cluster, distributed.Client(cluster) as client:
        remote = tendril.fit(str(scene), C1, data, ["flagellated_robot.motor_rpm"], {"v": "speed"}, client=client,
                             scratch=str(tmp_dir))
    assert remote.converged, remote.message
    assert remote.values == local.values and remote.runs == local.runs
    pandas.testing.assert_frame_equal(remote.history, local.history)
    # `tendril fit` with the same fit as a file: its own thread pool, the same runs, the same result
    data.to_csv(tmp_dir / "data.csv", index=False)
    (tmp_dir / "fit.yaml").write_text(
        "scene: robot.yaml\nparameters:\n  - {key: flagellated_robot.C1, initial: 3.0, lower: 0.5, upper: 10}\n"
        "data:\n  csv: data.csv\n  variables: [flagellated_robot.motor_rpm]\n"
        "  observables:\n    - {column: v, observable: speed}\n")
    out = subprocess.run([cli, "fit", str(tmp_dir / "fit.yaml"), "--out", str(tmp_dir / "fit"), "--jobs", "2",
                          "--no-plot"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads((tmp_dir / "fit" / "fit.json").read_text())
    assert result["converged"] and result["runs"] == local.runs
    assert math.isclose(result["parameters"][0]["value"], local.values["flagellated_robot.C1"], rel_tol=1e-12)


def test_gradient_method_gives_the_finite_difference_estimate(tmp_dir):
    """method="adjoint_lm" (the runs' exact derivatives from C++) fits C1, C2 and mu of the robot to its speed
    and head rotation rate at three motor speeds (simulated at the paper's values): the same estimate as the
    finite-difference method through the executor, with fewer runs."""
    scene = tmp_dir / "robot.yaml"
    scene.write_text(json.dumps(ROBOT))
    rpm = [100, 175, 250]
    truth = tendril.sweep(str(scene), {"flagellated_robot.motor_rpm": rpm}, ["speed", "head_rotation_rate"],
                          workers=2)
    assert (truth["status"] == "completed").all()
    data = pandas.DataFrame({"flagellated_robot.motor_rpm": rpm, "v": list(truth["speed"]),
                             "omega": list(truth["head_rotation_rate"])})
    parameters = [{"key": "flagellated_robot.C1", "initial": 3.0, "lower": 0.5, "upper": 10.0},
                  {"key": "flagellated_robot.C2", "initial": 0.05, "lower": 0.005, "upper": 0.5},
                  {"key": "flagellated_robot.mu", "initial": 5.0, "lower": 1.0, "upper": 20.0}]
    observables = {"v": "speed", "omega": "head_rotation_rate"}
    sigma = {"v": 1e-5, "omega": 0.1}
    fd = tendril.fit(str(scene), parameters, data, ["flagellated_robot.motor_rpm"], observables, sigma=sigma,
                     workers=2)
    lines = []
    gradient = tendril.fit(ROBOT, parameters, data, ["flagellated_robot.motor_rpm"], observables, sigma=sigma,
                           workers=2, method="adjoint_lm", progress=lines.append, scratch=str(tmp_dir))
    assert fd.converged, fd.message
    assert gradient.converged, gradient.message
    for key, value in fd.values.items():
        assert abs(gradient.values[key] - value) < 1e-2 * fd.sigma[key], key
        assert math.isclose(gradient.sigma[key], fd.sigma[key], rel_tol=1e-2), key
    assert gradient.runs < fd.runs and len(lines) == len(gradient.history)
    assert list(gradient.simulated.columns) == ["v", "omega"]
    with pytest.raises(ValueError, match="observables\\['v'\\]: method adjoint_lm takes observable names"):
        tendril.fit(str(scene), parameters, data, ["flagellated_robot.motor_rpm"], {"v": lambda run: 0.0},
                    method="adjoint_lm")
    with pytest.raises(ValueError, match="method: got 'newton'"):
        tendril.fit(str(scene), parameters, data, ["flagellated_robot.motor_rpm"], observables, method="newton")


CANTILEVER = """
duration: 0.04
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 1.0, num_nodes: 11}
    clamp: start
    material: {E: 1.0e7, nu: 0.5, density: 1273.52, radius: 0.005}
forces: {gravity: [0, 0, -9.81]}
integrator: {type: implicit_euler, dt: 2.0e-3, newton: {force_tolerance: 1.0e-12}}
"""


@pytest.mark.parametrize("method", ["finite_difference_lm", "adjoint_lm"])
def test_node_coordinates_recover_a_cantilevers_modulus(tmp_dir, method):
    """The tip's coordinates at 20 and 40 ms of a cantilever swinging down under gravity, read here from a
    run stepped in Python at E = 1e7 Pa (a run of each tip load), fitted by both methods from E = 2e7 Pa:
    the node observables "rods[0].nodes[10].z@t" as a fit file names them."""
    scene = tmp_dir / "cantilever.yaml"
    scene.write_text(CANTILEVER)
    loads = [0.0, 0.02]
    rows = []
    for f in loads:
        sim = tendril.Simulation.from_file(scene, {"forces.point_loads": [{"node": -1, "force": [0, 0, f]}]})
        tip = {}
        for step in range(1, 21):
            assert sim.step().ok
            if step in (10, 20):
                tip[step] = sim.state.positions[10].copy()
        rows.append({"forces.point_loads": json.dumps([{"node": -1, "force": [0, 0, f]}]),
                     "z20": tip[10][2], "z40": tip[20][2], "x40": tip[20][0]})
    data = pandas.DataFrame(rows)
    observables = {"z20": "rods[0].nodes[10].z@0.02", "z40": "rods[0].nodes[10].z@0.04",
                   "x40": "rods[0].nodes[10].x@0.04"}
    E = [{"key": "rods[0].material.E", "initial": 2e7, "lower": 1e6, "upper": 1e8}]
    r = tendril.fit(str(scene), E, data, ["forces.point_loads"], observables, workers=2, method=method)
    assert r.converged, r.message
    assert r.values["rods[0].material.E"] == pytest.approx(1e7, rel=1e-6)
    assert list(r.simulated.columns) == ["z20", "z40", "x40"]
    if method == "finite_difference_lm":
        with pytest.raises(ValueError, match="every observable is a name"):
            tendril.fit(str(scene), E, data, ["forces.point_loads"], {**observables, "x40": lambda run: 0.0})
