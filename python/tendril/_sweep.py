"""Parameter sweeps over --set overrides on local processes or a Dask distributed cluster.

Each point builds the scene with its overrides, runs it into a temporary run directory on the
worker, evaluates the observables there and returns one row; the client collects the rows into a
pandas DataFrame and, with `out`, into `out/sweep.csv` (rewritten atomically after every point, so
an interrupted sweep resumes from it without running finished points again).
"""
import concurrent.futures
import concurrent.futures.process
import itertools
import json
import multiprocessing
import os
import pathlib
import pickle
import tempfile
import time
import uuid

STATUS_COLUMNS = ["point", "overrides", "status", "message", "wall_time"]


def _value_text(value):
    """The YAML text of an override value (JSON is YAML); strings are passed as written."""
    return value if isinstance(value, str) else json.dumps(value)


def grid_points(grid):
    """The points of `grid` as a list of {key.path: value}: a dict {key: [values]} gives every
    combination (the first key varies slowest); a list gives its entries (dicts, or lists of
    "key=value" strings)."""
    if isinstance(grid, dict):
        keys = list(grid)
        return [dict(zip(keys, combo)) for combo in itertools.product(*(list(grid[k]) for k in keys))]
    points = []
    for p in grid:
        if isinstance(p, dict):
            points.append(dict(p))
        else:
            points.append(dict(item.split("=", 1) for item in p))
    return points


def overrides_text(point):
    """The identity of a point: its overrides "k1=v1;k2=v2" (how resume recognises it)."""
    return ";".join(f"{k}={_value_text(v)}" for k, v in point.items())


class Final:
    """An observable: the last saved frame of a run array at `index`, e.g. Final("positions", (-1, 2))
    is the tip's z [m]. Picklable by reference (it lives in tendril), so any worker can evaluate it."""

    def __init__(self, array, index=()):
        self.array, self.index = array, tuple(index) if isinstance(index, (tuple, list)) else (index,)

    def __call__(self, run):
        return run[self.array][-1][self.index]

    def __repr__(self):
        return f"Final({self.array!r}, {self.index!r})"


class RunObservable:
    """An observable: run.json info.observables[name] of a run, NaN when the run has none (a scene
    without an observables key). ROBOT_OBSERVABLES holds the four a robot scene writes."""

    def __init__(self, name):
        self.name = name

    def __call__(self, run):
        return run.info.get("observables", {}).get(self.name, float("nan"))

    def __repr__(self):
        return f"RunObservable({self.name!r})"


# speed [m/s], head and tail rotation rates [rad/s], efficiency [-]: the columns of `tendril sweep`
ROBOT_OBSERVABLES = {name: RunObservable(name)
                     for name in ("speed", "head_rotation_rate", "tail_rotation_rate", "efficiency")}


class SweepFailed(RuntimeError):
    """Every point of a sweep failed (sweep.csv is written all the same); `frame` holds the rows."""

    def __init__(self, frame):
        first = frame["message"].iloc[0] if len(frame) else ""
        super().__init__(f"all {len(frame)} points of the sweep failed; the first: {first}")
        self.frame = frame


def _observable_value(name, spec, run):
    if callable(spec):
        return float(spec(run))
    summary = run.info.get("observables", {})
    if spec not in summary:
        raise KeyError(f"observable '{name}': run.json info.observables has no '{spec}' "
                       f"(has: {', '.join(sorted(summary)) or 'nothing: the scene has no observables key'})")
    return float(summary[spec])


def run_point(scene, point, observables, scratch=None):
    """Runs one point (in a worker) and returns its row: status "completed" or "failed" with the
    reason (bad input, a failed run, an observable that raised), the observables and the wall time."""
    import tendril  # the worker's own import

    start = time.perf_counter()
    row = {"status": "failed", "message": ""}
    overrides = [f"{k}={_value_text(v)}" for k, v in point.items()]
    try:
        if isinstance(scene, dict):
            sim = tendril.Simulation.from_dict(scene, overrides)
        else:
            sim = tendril.Simulation.from_file(str(scene), overrides)
        with tempfile.TemporaryDirectory(prefix="tendril-sweep-", dir=scratch) as tmp:
            result = sim.run(pathlib.Path(tmp) / "run")
            run = tendril.read_run(result.path)
            values = {name: _observable_value(name, spec, run) for name, spec in observables.items()}
        if result.ok:
            row.update(status="completed", **values)
        else:
            row.update(message=result.message, **values)
    except Exception as e:  # reported in the row: a failed point never ends the sweep
        row["message"] = f"{type(e).__name__}: {e}"
    row["wall_time"] = time.perf_counter() - start
    return row


def _run_pickled(payload):
    """A task (run_point by default) on arguments pickled with cloudpickle (so observables may be
    lambdas)."""
    task, args = pickle.loads(payload)
    return task(*args)


def _dumps(args):
    try:
        import cloudpickle
        return cloudpickle.dumps(args)
    except ImportError:
        return pickle.dumps(args)


def _normalise_observables(observables):
    if observables is None:
        return {}
    if isinstance(observables, dict):
        return dict(observables)
    return {name: name for name in observables}


def _frame(points, rows, observables):
    import pandas

    records = []
    for k, p in enumerate(points):
        row = rows.get(k)
        record = {"point": k, **p, "overrides": overrides_text(p)}
        if row is None:
            record.update(status="pending", message="")
        else:
            record.update(row)
        records.append(record)
    columns = ["point", *points[0].keys()] if points else ["point"]
    columns += ["status", "message", *observables, "wall_time", "overrides"]
    df = pandas.DataFrame.from_records(records)
    return df.reindex(columns=[c for c in columns if c in df.columns] +
                      [c for c in df.columns if c not in columns])


def _write_csv(df, out):
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "sweep.csv.tmp"
    df.to_csv(tmp, index=False)
    os.replace(tmp, out / "sweep.csv")


def _finished_rows(out, points, observables):
    """Rows of points that completed in an earlier sweep into `out` (matched by their overrides)."""
    import pandas

    csv = out / "sweep.csv"
    if not csv.exists():
        return {}
    old = pandas.read_csv(csv, keep_default_na=False, float_precision="round_trip")
    by_overrides = {r["overrides"]: r for r in old.to_dict("records") if r.get("status") == "completed"}
    rows = {}
    for k, p in enumerate(points):
        r = by_overrides.get(overrides_text(p))
        if r is not None and all(name in r for name in observables):
            # an empty cell: an observable the run did not have (RunObservable's NaN)
            rows[k] = {"status": "completed", "message": "", "wall_time": float(r["wall_time"]),
                       **{name: float(r[name]) if r[name] != "" else float("nan") for name in observables}}
    return rows


class Executor:
    """Runs points of a scene on local processes (`workers` of them, default os.cpu_count(); the pool lives
    as long as the executor) or as tasks of a dask.distributed.Client (`retries` retries of a task whose
    worker failed). Shared by sweep and fit (tendril/_fit.py), so a fit's runs scale out as a sweep's do."""

    def __init__(self, client=None, workers=None, retries=2):
        self.client, self.workers, self.retries = client, workers, retries
        self.pool = None

    def __enter__(self):
        if self.client is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers or os.cpu_count(),
                                                               mp_context=multiprocessing.get_context("spawn"))
        return self

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def run(self, scene, points, observables, scratch=None, task=run_point):
        """Yields (index into points, row) as the points finish (see run_point, or `task`, a module-level
        function of the same arguments and row); a point whose worker died (or whose task failed on every
        try) gives a failed row."""
        if self.client is None:
            futures = {self.pool.submit(_run_pickled, _dumps((task, (scene, p, observables, scratch)))): k
                       for k, p in enumerate(points)}
            for future in concurrent.futures.as_completed(futures):
                yield futures[future], _result_row(future)
        else:
            from distributed import as_completed

            token = uuid.uuid4().hex[:8]
            futures = {self.client.submit(task, scene, p, observables, scratch, key=f"tendril-point-{k}-{token}",
                                          retries=self.retries, pure=False): k for k, p in enumerate(points)}
            for future in as_completed(list(futures)):
                yield futures[future], _result_row(future)


def _result_row(future):
    try:
        return future.result()
    except Exception as e:  # the worker process died, or the task failed on every try (e.g. KilledWorker)
        message = f"{type(e).__name__}: {e}"
        if isinstance(e, concurrent.futures.process.BrokenProcessPool):
            message += (" (a script that runs a local sweep must start it under `if __name__ == \"__main__\":`; "
                        "each worker process imports the script)")
        return {"status": "failed", "message": message, "wall_time": float("nan")}


def sweep(scene, grid, observables=None, client=None, out=None, workers=None, retries=2, progress=None,
          scratch=None):
    """Runs `scene` (a scene file path, readable by every worker, or a dict) at every point of `grid`
    (see grid_points) and returns a pandas DataFrame, one row per point: "point", the swept keys,
    "status" ("completed" or "failed"), "message" (why it failed), the observables, "wall_time" [s]
    and "overrides" (the point's --set text).

    observables: {column: spec} or a list of names; a spec is a name in run.json info.observables
    (e.g. "speed" of the flagellated robot) or a callable taking the point's tendril.Run.
    client: None runs on local processes (`workers` of them, default os.cpu_count()); a
    dask.distributed.Client runs every point as a task on its cluster (`retries` retries of a task
    whose worker failed; Dask itself reschedules the tasks of a worker that dies).
    out: a folder for sweep.csv; a sweep into the same folder resumes: completed points are kept.
    progress: None or a callable(row dict) called as each point finishes.
    scratch: the folder on the workers for each point's temporary run directory (default: the
    system's temporary folder); a worker that dies mid-run leaves its directory there.
    Raises SweepFailed (after writing sweep.csv) when every point failed.
    """
    observables = _normalise_observables(observables)
    points = grid_points(grid)
    out = pathlib.Path(out) if out is not None else None
    rows = _finished_rows(out, points, observables) if out is not None else {}
    todo = [k for k in range(len(points)) if k not in rows]

    def finished(k, row):
        rows[k] = row
        if out is not None:
            _write_csv(_frame(points, rows, observables), out)
        if progress is not None:
            progress({"point": k, **points[k], **row})

    with Executor(client=client, workers=workers, retries=retries) as executor:
        for k, row in executor.run(scene, [points[k] for k in todo], observables, scratch):
            finished(todo[k], row)
    df = _frame(points, rows, observables)
    if out is not None:
        _write_csv(df, out)
    if len(df) and (df["status"] == "failed").all():
        raise SweepFailed(df)
    return df
