"""Plots of what a Tendril run records (run directory format: docs/output_format.md).

Called by `tendril plot RUN_DIR [--out DIR] [--node I]` with Debian's /usr/bin/python3 and
python3-matplotlib; writes PNG files into the output directory and prints their names:
  energies.png    energy of each term and their sum over time (rod runs)
  newton.png      Newton iterations, final residual and dt per step (rod runs)
  steps.png       every other per-step array the run records (vine runs: QP iterations, KKT
                  residual, joint error, contact distance, growth rate)
  wall_time.png   wall-clock time per step (when recorded)
  trajectory.png  x, y, z of node I over time (rod runs; default the last node)
  tip_path.png    the vine tip path, the body at a few frames and the obstacles (vine runs)
  contact.png     active contacts and the smallest gap per saved frame, with the smooth zone's
                  width delta (rod runs with contact)
Usage: plot_run.py RUN_DIR OUT_DIR NODE
"""
import json
import math
import sys
import textwrap
from pathlib import Path

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as missing:
    print(f"error: {missing}", file=sys.stderr)
    sys.exit(3)  # the tool is missing (kExitMissingTool in share_files.hpp), not the data


def load(run_dir):
    meta = json.loads((run_dir / "run.json").read_text())
    if meta.get("format") != "tendril-run" or meta.get("format_version") not in (1, 2):
        raise SystemExit(f"error: {run_dir}/run.json: not a tendril-run version 1 or 2 directory")
    arrays, entries = {}, {}
    for a in meta["arrays"]:
        arrays[a["name"]] = np.load(run_dir / a["file"])
        entries[a["name"]] = a
    return meta, arrays, entries


def number(text):
    """A CSV cell as a float (NaN for an empty or non-numeric cell)."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def fit_titles(fig):
    """Wraps each axes title onto lines no wider than its axes, and the figure title onto lines no
    wider than the figure, then lays the figure out so that every title lies inside it (a long scene
    description is not clipped at the figure's edges)."""
    renderer = fig.canvas.get_renderer()

    def wrap(text, width):
        words = " ".join(text.get_text().split())
        chars = len(words)
        while chars > 10 and text.get_window_extent(renderer).width > width:
            chars = int(chars * 0.9)
            text.set_text("\n".join(textwrap.wrap(words, chars)))

    for ax in fig.axes:
        wrap(ax.title, ax.get_window_extent(renderer).width)
    if fig._suptitle is not None:
        wrap(fig._suptitle, 0.95 * fig.bbox.width)
    fig.tight_layout()


def save(fig, out_dir, name, written):
    fit_titles(fig)
    fig.savefig(out_dir / name, dpi=110)
    plt.close(fig)
    written.append(name)


def energies(meta, a, out_dir, written):
    t, e = a["frame_time"], a["energies"]
    fig, ax = plt.subplots(figsize=(7, 4))
    for k, name in enumerate(meta["info"]["energy_terms"]):
        ax.plot(t, e[:, k], label=name)
    ax.plot(t, e.sum(axis=1), "k--", label="total")
    ax.set(xlabel="time [s]", ylabel="energy [J]", title=f"{meta['scene'].get('description', '')}")
    ax.legend()
    save(fig, out_dir, "energies.png", written)


def newton(a, out_dir, written):
    t = a["step_time"]
    fig, axes = plt.subplots(3, 1, figsize=(7, 7), sharex=True)
    axes[0].step(t, a["step_iterations"], where="post")
    axes[0].set(ylabel="Newton iterations")
    axes[1].semilogy(t, np.maximum(a["step_residual"], 1e-300), ".")
    axes[1].set(ylabel="final residual [N]")
    axes[2].plot(t, a["step_dt"], ".")
    axes[2].set(ylabel="dt [s]", xlabel="time [s]")
    failed = a["step_status"] != 0
    if failed.any():
        for ax in axes:
            for x in t[failed]:
                ax.axvline(x, color="r", alpha=0.3)
    save(fig, out_dir, "newton.png", written)


def other_steps(a, entries, out_dir, written, skip):
    names = [n for n, e in entries.items() if e["first_axis"] == "step" and n not in skip and a[n].ndim == 1]
    if not names:
        return
    t = a["step_time"]
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 1.8 * len(names) + 0.6), sharex=True, squeeze=False)
    for ax, n in zip(axes[:, 0], names):
        v = a[n].astype(float)
        finite = np.isfinite(v)
        ax.plot(t[finite], v[finite], ".-", ms=3)
        ax.set_ylabel(f"{n}\n[{entries[n]['unit']}]", fontsize=8)
    axes[-1, 0].set_xlabel("time [s]")
    save(fig, out_dir, "steps.png", written)


def wall_time(a, out_dir, written):
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(a["step_time"], a["step_wall_time"] * 1e3, ".")
    ax.set(xlabel="time [s]", ylabel="wall time per step [ms]",
           title=f"total {a['step_wall_time'].sum():.3g} s over {len(a['step_wall_time'])} steps")
    save(fig, out_dir, "wall_time.png", written)


def trajectory(a, node, out_dir, written):
    x, t = a["positions"], a["frame_time"]
    node = node if node >= 0 else x.shape[1] - 1
    if node >= x.shape[1]:
        raise SystemExit(f"error: --node: got {node}; allowed: a node index in [0, {x.shape[1]})")
    fig, ax = plt.subplots(figsize=(7, 4))
    for k, c in enumerate("xyz"):
        ax.plot(t, x[:, node, k], label=c)
    ax.set(xlabel="time [s]", ylabel="position [m]", title=f"node {node}")
    ax.legend()
    save(fig, out_dir, "trajectory.png", written)


def obstacle_patch(o):
    from matplotlib import patches

    style = dict(color="0.6", alpha=0.8)
    if o["type"] == "circle":
        return patches.Circle(o["center"], o["radius"], **style)
    if o["type"] == "polygon":
        return patches.Polygon(o["vertices"], closed=True, **style)
    if o["type"] == "box":
        w, h = o["size"]
        angle = o.get("angle", 0.0)
        c, s = np.cos(angle), np.sin(angle)
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        return patches.Polygon([(o["center"][0] + c * u - s * v, o["center"][1] + s * u + c * v) for u, v in corners],
                               closed=True, **style)
    if o["type"] == "segment":
        return patches.Polygon([o["a"], o["b"]], closed=False, lw=max(1.0, 2 * o.get("radius", 0) * 200),
                               fill=False, edgecolor="0.6")
    return None


def tip_path(meta, a, out_dir, written):
    line = a["centerline"]  # (F, n+1, 2)
    fig, ax = plt.subplots(figsize=(6, 6))
    for o in meta["scene"]["vine"].get("obstacles", []):
        if o["type"] == "half_plane":
            p, n = np.array(o["point"]), np.array(o["normal"])
            d = np.array([-n[1], n[0]])
            ax.axline(p, p + d, color="0.6", lw=3)
        else:
            patch = obstacle_patch(o)
            if patch is not None:
                ax.add_patch(patch)
    for f in np.unique(np.linspace(0, len(line) - 1, 5).astype(int)):
        ax.plot(line[f, :, 0], line[f, :, 1], "-o", ms=2, alpha=0.4 + 0.6 * f / max(len(line) - 1, 1),
                label=f"t = {a['frame_time'][f]:.3g} s")
    ax.plot(line[:, -1, 0], line[:, -1, 1], "k--", lw=1, label="tip path")
    ax.set(xlabel="x [m]", ylabel="y [m]", aspect="equal", title="vine body and tip path")
    ax.legend(fontsize=8)
    save(fig, out_dir, "tip_path.png", written)


def contact(meta, a, out_dir, written):
    t = a["frame_time"]
    fig, axes = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    axes[0].step(t, a["contact_active"], where="post")
    axes[0].set(ylabel="active contacts")
    gap = a["contact_min_gap"]
    finite = np.isfinite(gap)
    axes[1].plot(t[finite], gap[finite] * 1e3, ".-", ms=3, label="smallest gap g")
    delta = meta["scene"]["contact"].get("distance_tolerance", 1e-3)
    axes[1].axhline(delta * 1e3, color="0.5", ls="--", lw=1, label="delta (contact starts)")
    axes[1].axhline(0, color="k", lw=0.8)
    axes[1].set(ylabel="gap [mm]", xlabel="time [s]")
    axes[1].legend(fontsize=8)
    save(fig, out_dir, "contact.png", written)


def main(run_dir, out_dir, node):
    run_dir, out_dir = Path(run_dir), Path(out_dir)
    meta, a, entries = load(run_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    if meta["kind"] == "rod":
        energies(meta, a, out_dir, written)
        newton(a, out_dir, written)
        trajectory(a, int(node), out_dir, written)
        if "contact_min_gap" in a:
            contact(meta, a, out_dir, written)
    if meta["kind"] == "vine":
        tip_path(meta, a, out_dir, written)
    if "step_wall_time" in a:
        wall_time(a, out_dir, written)
    shown = {"step_time", "step_wall_time"}
    if meta["kind"] == "rod":
        shown |= {"step_iterations", "step_residual", "step_dt", "step_status"}
    other_steps(a, entries, out_dir, written, skip=shown)
    mark_plots(out_dir, written)
    for name in written:
        print(out_dir / name)


def mark_plots(out_dir, written):
    """Writes plots.json listing the PNG files tendril plot wrote into out_dir (with those of an
    earlier plot there): a run folder holding such a plots folder is still replaced by a new run."""
    marker = out_dir / "plots.json"
    files = set(written)
    try:
        old = json.loads(marker.read_text())
        if old.get("format") == "tendril-plots":
            files |= {f for f in old.get("files", []) if isinstance(f, str) and f != "plots.json"}
    except (OSError, ValueError):
        pass
    marker.write_text(json.dumps({"format": "tendril-plots", "files": sorted(files) + ["plots.json"]}) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
