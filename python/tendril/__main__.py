"""`python3 -m tendril sweep SCENE --set key=v1,v2 ... [--scheduler tcp://HOST:8786]`: the sweep of
`tendril sweep` (same grid syntax) through tendril.sweep, on local processes or a Dask cluster.
Writes OUT/sweep.csv (resumable: a rerun into the same OUT skips completed points), with the columns of
`tendril sweep`'s CSV. Exit code: 0 if every point completed, 1 if some (or all: said on stderr) failed,
2 for bad arguments."""
import argparse
import sys

from ._sweep import ROBOT_OBSERVABLES, SweepFailed, sweep


def split_values(text):
    """v1,v2,... split at commas outside brackets (so [0, 0, -9.81] stays one value)."""
    values, current, depth = [], "", 0
    for c in text:
        depth += (c in "[{") - (c in "]}")
        if c == "," and depth == 0:
            values.append(current.strip())
            current = ""
        else:
            current += c
    values.append(current.strip())
    return values


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m tendril")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sweep", help="run a scene over a grid of --set values")
    s.add_argument("scene")
    s.add_argument("--set", action="append", default=[], metavar="KEY=V1,V2,...", help="a swept key")
    s.add_argument("--observable", action="append", default=[], metavar="NAME",
                   help="a run.json info.observables value to collect (repeatable; default: speed, "
                        "head_rotation_rate, tail_rotation_rate and efficiency, empty for a scene without them)")
    s.add_argument("--out", default="sweep", help="folder of sweep.csv")
    s.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786 (default: local processes)")
    s.add_argument("--jobs", type=int, help="local processes (default: all cores)")
    args = parser.parse_args(argv)

    grid = {}
    for i, assignment in enumerate(args.set):
        key, eq, values = assignment.partition("=")
        if not eq or not key:
            parser.error(f"--set[{i}]: got {assignment!r}; allowed: key.path=v1,v2,...")
        grid[key] = split_values(values)
    client = None
    if args.scheduler:
        import distributed
        client = distributed.Client(args.scheduler)
    try:
        df = sweep(args.scene, grid, args.observable or ROBOT_OBSERVABLES, client=client, out=args.out,
                   workers=args.jobs, progress=lambda row: print(
                       f"point {row['point']}: {row['status']}"
                       f"{'' if row['status'] == 'completed' else ': ' + row['message']}", flush=True))
    except SweepFailed as e:
        print(f"error: {e} (rows in {args.out}/sweep.csv)", file=sys.stderr)
        return 1
    finally:
        if client is not None:
            client.close()
    failed = int((df["status"] != "completed").sum())
    print(f"{len(df)} points ({failed} failed) in {args.out}/sweep.csv")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
