"""A sweep of the flagellated robot (granular_flagella Fig. 6: speed against motor speed) on a Dask
LocalCluster with two worker processes, as a pandas DataFrame, a CSV and a plot.

The same call runs on a real cluster: start `dask scheduler` and `dask worker tcp://HOST:8786` on the
machines and pass `--scheduler tcp://HOST:8786` (docs/python.md).

    python3 examples/python/sweep_dask.py [--duration 10] [--out runs/flagella_sweep] [--scheduler ADDR]
"""
import argparse
import pathlib

import tendril

SCENE = pathlib.Path(__file__).resolve().parents[1] / "flagellated_robot.yaml"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="simulated time per point [s]")
    parser.add_argument("--out", default="runs/flagella_sweep", help="folder for sweep.csv and sweep.png")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    args = parser.parse_args()

    import distributed
    if args.scheduler:
        client = distributed.Client(args.scheduler)
    else:
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                           dashboard_address=None,
                                           local_directory=str(pathlib.Path(args.out) / "dask-worker-space"))
        client = distributed.Client(cluster)
    grid = {"flagellated_robot.motor_rpm": [50, 100, 150, 200], "duration": [args.duration]}
    df = tendril.sweep(SCENE, grid, ["speed", "head_rotation_rate", "efficiency"], client=client, out=args.out,
                       progress=lambda row: print(f"point {row['point']}: {row['status']}", flush=True))
    client.close()
    print(df.drop(columns=["overrides"]).to_string(index=False))
    if not (df["status"] == "completed").all():
        raise SystemExit("some points failed")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(df["flagellated_robot.motor_rpm"], df["speed"] * 1e3, "o-")
    ax.set_xlabel("motor speed [rpm]"), ax.set_ylabel("robot speed [mm/s]")
    ax.set_title(f"flagellated robot, {args.duration:g} s runs")
    png = pathlib.Path(args.out) / "sweep.png"
    fig.savefig(png, dpi=100, bbox_inches="tight")
    print(f"wrote {pathlib.Path(args.out) / 'sweep.csv'} and {png}")


if __name__ == "__main__":
    main()
