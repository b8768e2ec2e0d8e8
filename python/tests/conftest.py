"""Shared fixtures of the Python tests: the repository, the CLI and small scenes."""
import os
import pathlib
import tempfile

import pytest

REPO = pathlib.Path(os.environ.get("TENDRIL_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def repo():
    return REPO


@pytest.fixture
def cli():
    """The `tendril` executable (TENDRIL_CLI, set by ctest, or the release build's)."""
    path = os.environ.get("TENDRIL_CLI", str(REPO / "build/release/apps/cli/tendril"))
    if not os.path.exists(path):
        pytest.skip(f"the tendril CLI is not built ({path})")
    return path


def cantilever(num_nodes=6, duration=0.02, dt=1e-3):
    """A small cantilever under gravity (examples/cantilever_gravity.yaml, fewer nodes) as a dict."""
    return {
        "duration": duration,
        "rods": [{
            "geometry": {"type": "straight", "start": [0, 0, 0], "direction": [1, 0, 0], "length": 1.0,
                         "num_nodes": num_nodes},
            "clamp": "start",
            "material": {"E": 1.0e7, "nu": 0.5, "density": 1273.52, "radius": 0.005},
        }],
        "forces": {"gravity": [0, 0, -9.81]},
        "integrator": {"type": "implicit_euler", "dt": dt},
    }


@pytest.fixture
def tmp_dir():
    """A temporary folder removed after the test (pytest's tmp_path folders outlive it)."""
    with tempfile.TemporaryDirectory(prefix="tendril-test-") as d:
        yield pathlib.Path(d)
