"""Plots a `tendril sweep` (or `python3 -m tendril sweep`) CSV like granular_flagella Fig. 6 and 7: speed v,
head rotation rate omega_h and efficiency eta against the first swept key, one curve per combination of
the other keys.
Usage: plot_sweep.py SWEEP_CSV OUT_PNG   (Debian python3-matplotlib)."""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from plot_run import fit_titles, number  # shipped next to this script


def main(path, out):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    # the swept keys: the columns between "point" and "status" (tendril sweep and python3 -m tendril sweep)
    columns = list(rows[0].keys()) if rows else []
    keys = columns[1:columns.index("status")] if "status" in columns else []
    if not keys:
        raise SystemExit("no swept key in " + path)
    # the x axis: a motor speed key if swept, else the first key with several values; curves: the
    # other keys with several values (keys held at one value only label the title)
    varied = [k for k in keys if len({r[k] for r in rows}) > 1] or keys[:1]
    speed_keys = [k for k in varied if "rpm" in k or "rate" in k]
    x_key = speed_keys[0] if speed_keys else varied[0]
    group_keys = [k for k in varied if k != x_key]
    rpm = "rpm" in x_key
    groups = {}
    for r in rows:
        if r["status"] != "completed":
            continue
        groups.setdefault(tuple(r[k] for k in group_keys), []).append(r)
    panels = [("speed", "v [mm/s]", 1e3, "Fig. 6(a)"),
              ("head_rotation_rate", "omega_h [rpm]" if rpm else "omega_h [rad/s]",
               60 / (2 * math.pi) if rpm else 1.0, "Fig. 6(b)"),
              ("efficiency", "efficiency eta [-]", 1.0, "Fig. 7")]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    for (column, label, scale, title), ax in zip(panels, axes):
        for group, members in sorted(groups.items()):
            members.sort(key=lambda r: number(r[x_key]))
            xs = [number(r[x_key]) for r in members]
            ys = [number(r[column]) * scale for r in members]
            name = ", ".join(f"{k.split('.')[-1]}={v}" for k, v in zip(group_keys, group)) or "simulation"
            ax.plot(xs, ys, "o-", label=name)
        ax.set_xlabel(x_key.split(".")[-1] + (" [rpm]" if rpm else ""))
        ax.set_ylabel(label)
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
    if rpm:  # the paper's experiment: v ~ 0.6 mm/s for n = 2 at 250 rpm (granular_flagella V-B, Fig. 5b)
        axes[0].plot([250], [0.6], "k^", label="experiment, n = 2 (V-B)")
    axes[0].legend(fontsize=8)
    failed = sum(1 for r in rows if r["status"] != "completed")
    held = ", ".join(f"{k.split('.')[-1]}={rows[0][k]}" for k in keys if k not in varied)
    fig.suptitle(f"{path}: {len(rows)} points, {failed} failed" + (f" ({held})" if held else ""))
    fit_titles(fig)
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
