"""Plots a `tendril fit` directory: the objective per accepted iteration with the fitted values and
their one-sigma uncertainties (a parameter the fit does not identify is marked so), and per observable
the measured against the simulated values at the fitted parameters (one point per experiment, the
line y = x).
Usage: plot_fit.py FIT_DIR OUT_PNG   (Debian python3-matplotlib; reads fit.json, history.csv, residuals.csv)."""
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from plot_run import number  # shipped next to this script


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def parameter_lines(folder):
    """One line per fitted parameter: value +- sigma, and NOT IDENTIFIABLE where fit.json says so."""
    with open(os.path.join(folder, "fit.json")) as f:
        fit = json.load(f)
    lines = []
    for p in fit.get("parameters", []):
        sigma = p["sigma"] if isinstance(p["sigma"], (int, float)) else math.inf
        text = f"{p['key']} = {p['value']:.4g} +- {sigma:.2g}"
        lines.append(text if p.get("identifiable", True) else text + "  NOT IDENTIFIABLE")
    return lines


def main(folder, out):
    history = [r for r in rows(os.path.join(folder, "history.csv")) if r.get("accepted", "1") == "1"]
    residuals = rows(os.path.join(folder, "residuals.csv"))
    observables = [c[:-len("_measured")] for c in (residuals[0] if residuals else {}) if c.endswith("_measured")]
    fig, axes = plt.subplots(1, 1 + len(observables), figsize=(4.2 * (1 + len(observables)), 3.6))
    axes = list(axes) if len(observables) else [axes]
    axes[0].semilogy([number(r["iteration"]) for r in history], [number(r["objective"]) for r in history], "o-")
    axes[0].set_xlabel("iteration")
    axes[0].set_ylabel("objective 1/2 |r|^2")
    axes[0].set_title("convergence")
    axes[0].text(0.02, 0.02, "\n".join(parameter_lines(folder)), transform=axes[0].transAxes, fontsize=7,
                 va="bottom", color="black")
    for ax, name in zip(axes[1:], observables):
        m = [number(r[name + "_measured"]) for r in residuals]
        s = [number(r[name + "_simulated"]) for r in residuals]
        ax.plot(m, s, "o")
        finite = [v for v in m + s if math.isfinite(v)]
        if finite:
            lo, hi = min(finite), max(finite)
            ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
        ax.set_xlabel(f"measured {name} [SI]")
        ax.set_ylabel(f"simulated {name} [SI]")
        ax.set_title(name)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
