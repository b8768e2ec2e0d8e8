"""Least-squares fits of scene parameters to measured observables over whole runs, with the runs of
each finite-difference Jacobian evaluated through tendril.sweep's executor: local processes by default,
or a Dask distributed cluster with `client` (docs/python.md, docs/physics/fitting.md). The algorithm is
the C++ one of `tendril fit` (fit/run_least_squares.hpp: bounded Levenberg-Marquardt in value / scale,
uncertainty from the Gauss-Newton Hessian); only the evaluation of the runs happens here (with a node
coordinate among the observables, each worker runs its point with `tendril fit`'s evaluator). With
method="adjoint_lm" the runs and their exact derivatives come from the C++ evaluator of `tendril fit`'s
gradient method (threads of this process, one run per point and experiment, no finite differences).
"""
import math
import time

from ._sweep import Executor, _normalise_observables, _value_text, run_point

try:
    from . import _tendril
except ImportError:
    import _tendril


class FitResult:
    """What tendril.fit returns: `values` and `sigma` ({key: value}; sigma +inf where the data do not
    determine a parameter), `covariance` (numpy, parameters in the given order), `converged`, `message`
    (the solver's reason), `iterations`, `runs`, `initial_cost`, `cost`, `history` (a pandas DataFrame:
    iteration, objective, constraint_violation, step, damping, runs and the values) and `simulated`
    (the observables at the fitted values, one row per experiment, a DataFrame)."""

    def __init__(self, keys, columns, native):
        import pandas

        self.native = native
        self.converged, self.message = native.converged, native.message
        self.iterations, self.runs = native.iterations, native.runs
        self.initial_cost, self.cost = native.initial_cost, native.cost
        self.values = {k: float(v) for k, v in zip(keys, native.values)}
        self.sigma = {k: float(s) for k, s in zip(keys, native.sigma)}
        self.covariance = native.covariance
        self.history = pandas.DataFrame.from_records(
            [{"iteration": h.iteration, "objective": h.objective, "constraint_violation": h.constraint_violation,
              "step": h.step_norm, "damping": h.damping, "runs": h.runs, **dict(zip(keys, h.values))}
             for h in native.history])
        # empty when the start failed
        self.simulated = pandas.DataFrame(native.simulated.reshape(-1, len(columns)), columns=columns)

    def __repr__(self):
        values = ", ".join(f"{k} = {v:.7g} +- {self.sigma[k]:.3g}" for k, v in self.values.items())
        return f"FitResult({values}; {self.message})"


def _parameter(p):
    if isinstance(p, _tendril.FitParameter):
        return p
    initial = float(p["initial"])
    scale = float(p.get("scale", abs(initial) if initial != 0 else 1.0))
    return _tendril.FitParameter(p["key"], initial, float(p.get("lower", -math.inf)), float(p.get("upper", math.inf)),
                                 scale)


def _columns(data):
    """{column: list of cells} from a pandas DataFrame, a dict of columns or a list of row dicts."""
    if hasattr(data, "to_dict") and hasattr(data, "columns"):
        return {c: list(data[c]) for c in data.columns}
    if isinstance(data, dict):
        return {c: list(v) for c, v in data.items()}
    rows = list(data)
    return {c: [r.get(c) for r in rows] for c in (rows[0].keys() if rows else [])}


def _scene_file(scene, scratch):
    """The scene as a file path: a dict is written as JSON (which is YAML) into a temporary folder."""
    import json
    import os
    import tempfile

    if not isinstance(scene, dict):
        return str(scene), None
    folder = tempfile.TemporaryDirectory(dir=scratch)
    path = os.path.join(folder.name, "scene.yaml")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path, folder


def _is_node_coordinate(spec):
    """True for an observable named as a scene node's coordinate, "rods[i].nodes[j].x@t"."""
    return isinstance(spec, str) and ".nodes[" in spec


def _scene_point(scene, point, observables, scratch=None):
    """Runs one point in a worker with the evaluator of `tendril fit` (fit::run_scene: no run folder, the
    observables by name, node coordinates included) and returns its row as run_point does."""
    start = time.perf_counter()
    path, folder = _scene_file(scene, scratch)
    try:
        outcome = _tendril.run_scene(path, [f"{k}={_value_text(v)}" for k, v in point.items()],
                                     list(observables.values()))
    finally:
        if folder is not None:
            folder.cleanup()
    row = {"status": "completed" if outcome.ok else "failed", "message": outcome.message}
    row.update(zip(observables, outcome.values))
    row["wall_time"] = time.perf_counter() - start
    return row


def _fit_with_derivatives(scene, params, table, specs, opts, workers, progress, scratch):
    """method="adjoint_lm": the C++ evaluator of the runs and their derivatives on `workers` threads."""
    import os

    for column, spec in specs.items():
        if not isinstance(spec, str):
            raise ValueError(f"observables['{column}']: method adjoint_lm takes observable names (a robot "
                             "observable or a node coordinate such as 'rods[0].nodes[10].z@0.5'), not a callable")
    table.observables = list(specs.values())  # the names the C++ runs give, in the columns' order
    path, folder = _scene_file(scene, scratch)
    try:
        return _tendril.fit_runs_with_derivatives(params, table, path, workers or os.cpu_count() or 1, opts,
                                                  progress or (lambda line: None))
    finally:
        if folder is not None:
            folder.cleanup()


def _run_task(specs):
    """The executor's task of finite_difference_lm: run_point (a run folder and its run.json, callables
    allowed), or _scene_point where an observable is a node coordinate (every one a name then)."""
    if not any(_is_node_coordinate(spec) for spec in specs.values()):
        return run_point
    for column, spec in specs.items():
        if not isinstance(spec, str):
            raise ValueError(f"observables['{column}']: with a node coordinate among the observables, every "
                             "observable is a name (a robot observable or a node coordinate such as "
                             "'rods[0].nodes[10].z@0.5'), not a callable")
    return _scene_point


def fit(scene, parameters, data, variables, observables, sigma=None, settings=(), client=None, workers=None,
        retries=2, options=None, progress=None, scratch=None, method="finite_difference_lm"):
    """Fits `parameters` of `scene` (a scene file path, readable by every worker, or a dict) to `data`.

    parameters: a list of {"key": scene key path, "initial": value, "lower", "upper", "scale"} (bounds
    optional; scale defaults to |initial|) or tendril.FitParameter.
    data: a pandas DataFrame (or a dict of columns, or a list of row dicts), one row per experiment.
    variables: the columns that are scene key paths (each row's values are set on the scene for its run).
    observables: {column: spec}, a spec as in tendril.sweep (a name in run.json info.observables such as
    "speed", or a callable taking the run), or a scene node's coordinate at a time, "rods[i].nodes[j].x@t"
    or "shells[i].nodes[j].z@t" (as a fit file names it; then every spec is a name and the runs are those
    of `tendril fit`, without a run folder); the column holds the measurement in the spec's SI unit, NaN
    or None where not measured.
    sigma: {column: measurement error}; residuals are (simulated - measured) / sigma. Given for every
    column, the uncertainties are (J^T J)^-1 with these errors; otherwise (default: the RMS of the
    column, a weight only) they are scaled by the residual's s^2.
    settings: "key=value" overrides applied to every run (e.g. "duration=3").
    client / workers / retries / scratch: the executor, as in tendril.sweep (a process pool that lives for
    the whole fit, or the Dask cluster of `client`).
    options: {name: value} of tendril.RunFitOptions (max_iterations, difference_step, step_tolerance,
    cost_tolerance, gradient_tolerance, initial_damping, max_rejections).
    progress: None or a callable(tendril.FitIteration) called after each iteration.
    method: "finite_difference_lm" (the Jacobian by differences of runs through the executor) or "adjoint_lm"
    (the exact Jacobian of each run, forward sensitivities or the adjoint, computed in this process on
    `workers` threads; observables are names as a fit file gives them, including node coordinates
    "rods[i].nodes[j].x@t"; client and retries do not apply).
    Returns a FitResult."""
    import numpy

    if method not in ("finite_difference_lm", "adjoint_lm"):
        raise ValueError(f"method: got {method!r}; allowed: 'finite_difference_lm' or 'adjoint_lm'")
    params = [_parameter(p) for p in parameters]
    specs = _normalise_observables(observables)
    columns = _columns(data)
    for c in list(variables) + list(specs):
        if c not in columns:
            raise KeyError(f"data has no column '{c}' (has: {', '.join(columns)})")
    rows = len(next(iter(columns.values()))) if columns else 0
    table = _tendril.MeasurementTable()
    table.observables = list(specs)
    table.experiments = [list(settings) + [f"{v}={columns[v][i]}" for v in variables] for i in range(rows)]
    measured = numpy.array([[numpy.nan if columns[c][i] is None else float(columns[c][i]) for c in specs]
                            for i in range(rows)], dtype=float).reshape(rows, len(specs))
    table.measured = measured
    scales = []
    for k, c in enumerate(specs):
        if sigma is not None and c in sigma:
            scales.append(float(sigma[c]))
        else:
            column = measured[:, k][numpy.isfinite(measured[:, k])]
            scales.append(float(numpy.sqrt(numpy.mean(column ** 2))) if column.size else 1.0)
    table.sigma = numpy.array(scales)
    opts = _tendril.RunFitOptions()
    opts.absolute_sigma = sigma is not None and all(c in sigma for c in specs)
    for name, value in (options or {}).items():
        if not hasattr(opts, name):
            raise KeyError(f"options: no option '{name}'")
        setattr(opts, name, value)

    if method == "adjoint_lm":
        native = _fit_with_derivatives(scene, params, table, specs, opts, workers, progress, scratch)
        return FitResult([p.key for p in params], list(specs), native)
    task = _run_task(specs)
    with Executor(client=client, workers=workers, retries=retries) as executor:
        def evaluate(batch):
            points = [dict(s.split("=", 1) for s in run) for run in batch]
            outcomes = [None] * len(points)
            for k, row in executor.run(scene, points, specs, scratch, task):
                ok = row.get("status") == "completed"
                values = [float(row.get(c, math.nan)) for c in specs] if ok else []
                outcomes[k] = _tendril.RunOutcome(ok, row.get("message", ""), values)
            return outcomes

        native = _tendril.fit_runs(params, table, evaluate, opts, progress or (lambda line: None))
    return FitResult([p.key for p in params], list(specs), native)
