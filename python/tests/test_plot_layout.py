"""`tendril plot`'s figures (plot_run.py) keep every title inside the figure: a scene with a long
description (a sentence, as the examples' are) gets a wrapped title, not one clipped at the edges."""
import importlib.util
import subprocess

DESCRIPTION = ("Parachute: hexagon canopy, six rope rods, payload point mass, aerodynamic drag, "
               "released from rest at 10 m (mat_dismech Fig. 6)")


def test_plot_titles_lie_inside_their_figures(repo, cli, tmp_dir, monkeypatch):
    run = tmp_dir / "run"
    out = subprocess.run([cli, "run", str(repo / "examples/cantilever_gravity.yaml"), "--set", "duration=0.02",
                          "--set", f'description="{DESCRIPTION}"', "--out", str(run)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    spec = importlib.util.spec_from_file_location("plot_run", repo / "apps/cli/plot_run.py")
    plot_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot_run)
    figures = []
    # keep each figure as written (plot_run closes each after saving it)
    monkeypatch.setattr(plot_run.plt, "close", lambda fig: figures.append(fig) if hasattr(fig, "canvas") else None)
    plot_run.main(str(run), str(tmp_dir / "plots"), "-1")
    assert len(figures) >= 3
    for fig in figures:
        renderer = fig.canvas.get_renderer()
        titles = [ax.title for ax in fig.axes] + ([fig._suptitle] if fig._suptitle is not None else [])
        for title in titles:
            if not title.get_text():
                continue
            box = title.get_window_extent(renderer)
            assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height, \
                (title.get_text(), box, fig.bbox)
    assert any(" ".join(ax.title.get_text().split()) == DESCRIPTION for fig in figures for ax in fig.axes)
