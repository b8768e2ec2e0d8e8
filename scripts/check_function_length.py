#!/usr/bin/env python3
"""Checks that no function in src/ and apps/ is longer than LIMIT lines (docs/conventions.md).

Functions are found by universal-ctags (their first and last line). Scene schema tables (one row per
key) are exempt. The functions still to be split are listed in TO_SPLIT with their length today: the
check fails when a new function goes over the limit, when a listed one grows, or when a listed one
is split (so that the list only shrinks). Usage: scripts/check_function_length.py [repository root]
"""
import json
import pathlib
import subprocess
import sys

LIMIT = 120

# Schema tables: one entry per scene key, read as a table, not as logic.
SCHEMA_TABLES = {"rod_scene_schema", "shell_scene_schema", "media_scene_schema", "make_table",
                 "fit_file_schema"}

# (file, function) -> its length in lines today; each is to become one function per step.
TO_SPLIT = {}


def function_lengths(root):
    """Yields (path, name, first line, length) for every function ctags finds below src/ and apps/."""
    command = ["ctags", "--languages=C++", "--kinds-C++=f", "--fields=+ne", "--output-format=json",
               "--exclude=node_modules", "-o", "-", "-R",
               "src", "apps"]
    out = subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        tag = json.loads(line)
        if "end" in tag:
            yield tag["path"], tag["name"], tag["line"], tag["end"] - tag["line"] + 1


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    problems = []
    longest = {}  # listed (file, function) -> its longest definition (overloads share a name)
    for path, name, line, length in function_lengths(root):
        key = (path, name)
        if key in TO_SPLIT:
            longest[key] = max(longest.get(key, 0), length)
        elif length > LIMIT and name not in SCHEMA_TABLES:
            problems.append(f"{path}:{line}: {name} is {length} lines (limit {LIMIT})")
    for (path, name), listed in sorted(TO_SPLIT.items()):
        length = longest.get((path, name))
        if length is None:
            problems.append(f"{path}: {name} not found: remove it from TO_SPLIT")
        elif length > listed:
            problems.append(f"{path}: {name} grew to {length} lines (listed at {listed}, to be "
                            f"split below {LIMIT})")
        elif length <= LIMIT:
            problems.append(f"{path}: {name} is now {length} lines: remove it from TO_SPLIT")
    for problem in problems:
        print(problem)
    print(f"function length: {len(problems)} problem(s); {len(TO_SPLIT)} function(s) still to split")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
