"""Issue 8: `tendril plot RUN` writes RUN/plots by default, and that run folder can still be
replaced by a new run (`tendril run --out RUN`): plots.json lists the PNG files tendril plot wrote,
and a plots folder holding exactly those is replaced with the run. A file the user adds there makes
the folder foreign again: the new run is refused (exit 2) and the file is kept.
Usage: check_plot_folder.py TENDRIL SCENE.yaml
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def main(tendril, scene):
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp) / "run"

        def run():
            return subprocess.run([tendril, "run", scene, "--out", str(run_dir), "--set", "duration=0.01"],
                                  capture_output=True, text=True)

        assert run().returncode == 0
        subprocess.run([tendril, "plot", str(run_dir)], check=True, capture_output=True)
        plots = run_dir / "plots"
        marker = json.loads((plots / "plots.json").read_text())
        assert marker["format"] == "tendril-plots", marker
        assert sorted(p.name for p in plots.iterdir()) == sorted(marker["files"]), marker
        assert "energies.png" in marker["files"], marker

        replaced = run()
        assert replaced.returncode == 0, replaced.stderr
        assert not plots.exists(), "the earlier run's plots were replaced with it"

        subprocess.run([tendril, "plot", str(run_dir)], check=True, capture_output=True)
        (plots / "notes.txt").write_text("mine")
        refused = run()
        assert refused.returncode == 2, refused.stderr
        assert "plots" in refused.stderr, refused.stderr
        assert (plots / "notes.txt").read_text() == "mine"
        print("plots folder: replaced with the run; refused with a user file in it")


if __name__ == "__main__":
    main(*sys.argv[1:])
