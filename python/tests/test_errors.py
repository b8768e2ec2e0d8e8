"""Bad input from Python raises tendril.InputError (a ValueError) with the CLI's message and key path."""
import subprocess

import numpy as np
import pytest

import tendril
from conftest import cantilever


def test_input_error_carries_key_path_and_cli_message(repo, cli):
    scene = repo / "examples/cantilever_gravity.yaml"
    with pytest.raises(tendril.InputError) as e:
        tendril.Simulation.from_file(scene, ["rods.0.material.E=-5"])
    assert isinstance(e.value, ValueError)
    assert e.value.key_path == "rods[0].material.E" and e.value.value == "-5" and e.value.allowed
    cli_out = subprocess.run([cli, "run", str(scene), "--set", "rods.0.material.E=-5"], capture_output=True, text=True)
    assert cli_out.returncode == 2
    assert cli_out.stderr.strip() == f"error: {e.value}"


def test_unknown_key_from_dict():
    scene = cantilever()
    scene["integrator"]["tolerance_typo"] = 1
    with pytest.raises(tendril.InputError) as e:
        tendril.Simulation.from_dict(scene)
    assert "integrator.tolerance_typo" in e.value.key_path


def test_missing_file_and_bad_yaml():
    with pytest.raises(tendril.InputError, match="no_such_scene.yaml"):
        tendril.Simulation.from_file("no_such_scene.yaml")
    with pytest.raises(tendril.InputError):
        tendril.Simulation.from_yaml("rods: [unclosed")


def test_bad_overrides_type():
    with pytest.raises(TypeError, match="overrides: got a str"):
        tendril.Simulation.from_dict(cantilever(), "duration=1")


def test_read_run_errors(tmp_dir):
    with pytest.raises(tendril.InputError, match="run.json"):
        tendril.read_run(tmp_dir)


def test_step_after_the_end_says_the_run_has_ended():
    sim = tendril.Simulation.from_dict(cantilever(duration=0.002))
    sim.step()
    sim.step()
    q = sim.state.q.copy()
    # once: "dt: got 0" from the stepper
    with pytest.raises(tendril.InputError, match=r"the run has ended at t = 0\.002 s"):
        sim.step()
    assert np.array_equal(sim.state.q, q) and sim.steps_taken == 2


def test_custom_force_returning_nan_is_named():
    def broken(q, u, t):
        F = np.zeros(len(q))
        F[4] = np.nan
        return F

    sim = tendril.Simulation.from_dict(cantilever(), forces=[tendril.CustomForce(broken, name="sensor")])
    # once: a failed step blaming "the energy (0 J)"
    with pytest.raises(ValueError, match=r"custom force 'sensor' returned F: got nan at flat index 4; allowed: finite"):
        sim.step()
    assert sim.state.time == 0.0


@pytest.mark.parametrize("overrides, message", [
    (["duration=0.01", 5], r"overrides\[1\]: got an int 5; allowed: a \"key.path=value\" string"),
    (7, r"overrides: got an int 7; allowed: a list"),
    ({"duration": {1, 2}}, r"overrides\['duration'\]: got a set \{1, 2\}; allowed: a str"),
])
def test_bad_override_types_name_key_value_and_allowed(overrides, message):
    # once: pybind11's "Unable to cast Python instance of type <class 'int'> to C++ type"
    with pytest.raises(TypeError, match=message):
        tendril.Simulation.from_dict(cantilever(), overrides)
