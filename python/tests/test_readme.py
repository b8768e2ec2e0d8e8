"""The README's Python snippet, taken from README.md and run as a script (so the text cannot drift from
what works): the simulation and the local sweep complete; without its `__main__` guard the sweep's
points all fail, and the script says why and exits non-zero."""
import os
import re
import subprocess
import sys

import pandas


def readme_snippet(repo):
    readme = (repo / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def run_script(text, repo, tmp_dir):
    script = tmp_dir / "readme_snippet.py"
    script.write_text(text)
    if not (tmp_dir / "examples").exists():  # the snippet's relative paths, its outputs in tmp_dir
        (tmp_dir / "examples").symlink_to(repo / "examples")
    return subprocess.run([sys.executable, str(script)], cwd=tmp_dir, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def test_readme_python_snippet_runs_as_a_script(repo, tmp_dir):
    out = run_script(readme_snippet(repo), repo, tmp_dir)
    assert out.returncode == 0, out.stdout + out.stderr
    df = pandas.read_csv(tmp_dir / "runs/sweep/sweep.csv")
    assert list(df["flagellated_robot.motor_rpm"]) == [50, 100, 150]
    assert (df["status"] == "completed").all() and (df["speed"] > 0).all(), df


def test_without_the_main_guard_the_script_says_why_it_failed(repo, tmp_dir):
    lines = readme_snippet(repo).splitlines()
    guard = next(i for i, line in enumerate(lines) if line.startswith('if __name__ == "__main__":'))
    unguarded = "\n".join(lines[:guard] + [line[4:] for line in lines[guard + 1:]]) + "\n"
    out = run_script(unguarded, repo, tmp_dir)
    assert out.returncode != 0
    assert "SweepFailed: all 3 points of the sweep failed" in out.stderr, out.stderr
    assert "BrokenProcessPool" in out.stderr and 'under `if __name__ == "__main__":`' in out.stderr, out.stderr
