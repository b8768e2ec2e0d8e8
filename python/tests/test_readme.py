"""The README's Python snippet, taken from README.md and run as a script (so the text cannot drift from
what works): the simulation and the local sweep complete."""
import os
import re
import subprocess
import sys

import pandas


def test_readme_python_snippet_runs_as_a_script(repo, tmp_dir):
    readme = (repo / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    script = tmp_dir / "readme_snippet.py"
    script.write_text(snippet)
    (tmp_dir / "examples").symlink_to(repo / "examples")  # the snippet's relative paths, its outputs in tmp_dir
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_dir, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.returncode == 0, out.stdout + out.stderr
    df = pandas.read_csv(tmp_dir / "runs/sweep/sweep.csv")
    assert list(df["flagellated_robot.motor_rpm"]) == [50, 100, 150]
    assert (df["status"] == "completed").all() and (df["speed"] > 0).all(), df
