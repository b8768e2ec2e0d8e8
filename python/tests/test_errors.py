"""Bad input from Python raises tendril.InputError (a ValueError) with the CLI's message and key path."""
import subprocess

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
