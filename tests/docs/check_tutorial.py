"""Runs docs/tutorial.md as a newcomer would and checks that the text is what the program does.

- A fenced `yaml` block introduced by a line ending in "`examples/NAME.yaml`:" must equal that file,
  so the scenes the text shows are the files the tests run.
- A fenced `console` block holds commands (`$ command`) each followed by the output it prints. Each
  command runs with bash in one scratch folder (the repository's `examples/` linked into it, the
  build's `tendril` first on PATH, the release build's Python module importable); the exit code must
  be 0 and the printed lines (stdout, then stderr) must match the text, where a line `...` stands for
  any number of lines and `[...]` inside a line for any text.
- A fenced `python` block introduced by a line ending in "`NAME.py`:" is written to that file in the
  scratch folder, so a later `$ python3 NAME.py` runs it.
Usage: check_tutorial.py TUTORIAL_MD REPOSITORY TENDRIL PYTHON_BUILD_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def blocks(text):
    """Yields (language, the line before the block, the block's lines) for each fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"```(\w*)", lines[i].strip())
        if not m:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        yield m.group(1), before, lines[i + 1:end]
        i = end + 1


def line_matches(pattern, line):
    parts = [re.escape(p) for p in pattern.split("[...]")]
    return re.fullmatch(".*".join(parts), line) is not None


def output_matches(expected, actual):
    """True if the printed lines match the expected ones (`...` is any number of lines)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(output_matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and output_matches(expected[1:], actual[1:])


def commands(block):
    """Splits a console block into (command, expected output lines)."""
    out = []
    for line in block:
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, f"output before any command: {line!r}"
            out[-1][1].append(line)
    return out


def run(command, cwd, env):
    result = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=600)
    printed = (result.stdout + result.stderr).splitlines()
    return result.returncode, [line.rstrip() for line in printed]


def main(tutorial, repo, tendril, python_build):
    repo = Path(repo)
    text = Path(tutorial).read_text()
    env = dict(os.environ, PATH=f"{Path(tendril).parent}:/usr/bin:{os.environ['PATH']}",
               PYTHONPATH=f"{repo / 'python'}:{python_build}", MPLBACKEND="Agg")
    failures, checked = [], 0
    with tempfile.TemporaryDirectory(prefix="tendril-tutorial-") as scratch:
        (Path(scratch) / "examples").symlink_to(repo / "examples")
        for language, before, block in blocks(text):
            named = re.search(r"`([\w./-]+)`:\s*$", before)
            if language == "yaml" and named:
                checked += 1
                if (repo / named.group(1)).read_text().splitlines() != block:
                    failures.append(f"{named.group(1)} differs from the tutorial's block")
            elif language == "python" and named:
                (Path(scratch) / named.group(1)).write_text("\n".join(block) + "\n")
            elif language == "console":
                for command, expected in commands(block):
                    checked += 1
                    code, printed = run(command, scratch, env)
                    if code != 0 or not output_matches(expected, printed):
                        failures.append(f"$ {command}\n  exit {code}; printed:\n    "
                                        + "\n    ".join(printed) + "\n  expected:\n    "
                                        + "\n    ".join(expected))
    for failure in failures:
        print(failure)
    print(f"tutorial: {checked} checks, {len(failures)} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
