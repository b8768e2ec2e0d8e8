"""Tendril from Python: rod, vine and 3D vine simulations, run directories, sweeps and fits (docs/python.md).

    import tendril
    sim = tendril.Simulation.from_file("examples/cantilever_gravity.yaml", {"duration": 0.1})
    while not sim.finished:
        report = sim.step()              # releases the GIL
    x = sim.state.positions              # (N, 3) numpy view of the C++ state [m]
"""
import json as _json

try:  # installed with pip: the extension inside the package
    from . import _tendril
except ImportError:  # the CMake build: <build>/python on sys.path (PYTHONPATH or tendril.pth)
    import _tendril

from ._run import Run, read_run
from ._sweep import Final, RunObservable, SweepFailed, sweep
from ._fit import FitResult, fit

# the extension's classes, as tendril.<name>
_NATIVE = ["InputError", "Simulation", "StepReport", "StepStatus", "StopCriterion", "ContactStatistics", "Progress",
           "RunResult", "CustomForce", "RodState", "RodControls", "VineSimulation", "VineStepReport",
           "Vine3dSimulation", "Vine3dStepReport", "Vine3dStepDerivatives", "Vine3dShootingFit",
           "StepDerivatives", "QpStatus", "FitParameter", "RunOutcome", "MeasurementTable", "RunFitOptions",
           "FitIteration", "RunFitResult"]
globals().update({name: getattr(_tendril, name) for name in _NATIVE})


def fit_vine(fit_file, progress=None):
    """Runs the vine fit of a fit file (method vine_shooting or joint_estimation, data.csv frames or a
    tracked video's data.track; or vine3d_shooting, a 3D vine's tracked points;
    docs/physics/fitting.md) as `tendril fit` does, without writing a
    folder, and returns its fit.json as a dict: "converged", "parameters" (each "key", "value",
    "sigma", "identifiable"), "shape_error", the method's own fields. progress(FitIteration) is
    called at every progress line; an exception it raises stops the fit. Bad input raises
    tendril.InputError naming the key."""
    return _json.loads(_tendril.fit_vine_file(str(fit_file), progress))


def _simulation_from_dict(scene, overrides=None, forces=()):
    """A Simulation of a scene given as a dict (the YAML tree); JSON is YAML."""
    return _tendril.Simulation.from_yaml(_json.dumps(scene), overrides, list(forces))


def _vine_from_dict(scene, overrides=None):
    """A VineSimulation of a scene given as a dict."""
    return _tendril.VineSimulation.from_yaml(_json.dumps(scene), overrides)


def _vine3d_from_dict(scene, overrides=None):
    """A Vine3dSimulation of a scene given as a dict."""
    return _tendril.Vine3dSimulation.from_yaml(_json.dumps(scene), overrides)


_tendril.Simulation.from_dict = staticmethod(_simulation_from_dict)
_tendril.Vine3dSimulation.from_dict = staticmethod(_vine3d_from_dict)
_tendril.VineSimulation.from_dict = staticmethod(_vine_from_dict)

__all__ = _NATIVE + ["Run", "read_run", "sweep", "Final", "RunObservable", "SweepFailed", "fit", "FitResult", "fit_vine"]
