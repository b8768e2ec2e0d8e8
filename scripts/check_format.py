#!/usr/bin/env python3
"""Checks that every C++ file in git follows .clang-format (docs/conventions.md, "Layout and checks").

Runs Debian's clang-format 14 in dry-run mode on every tracked *.cpp, *.hpp and *.h file of the tree
(or on the files named after the root) and lists the files it would change, with the first line that
differs. Exit 1 when any file is not formatted; format it with `clang-format -i FILE`.
Usage: scripts/check_format.py [repository root] [file ...]
"""
import pathlib
import re
import shutil
import subprocess
import sys

SUFFIXES = (".cpp", ".hpp", ".h")
# clang-format --dry-run: "FILE:LINE:COLUMN: warning: code should be clang-formatted [...]"
VIOLATION = re.compile(r"^(.+?):(\d+):\d+: (?:warning|error): code should be clang-formatted")


def tracked_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True,
                            text=True, check=True).stdout.split("\0")
    return [name for name in listed if name.endswith(SUFFIXES)]


def unformatted(root, names):
    """(file, first line clang-format would change) of each file of `names` that is not formatted:
    one clang-format process in dry-run mode for all files (it reports every change it would make)."""
    result = subprocess.run(["clang-format", "--dry-run", *names], capture_output=True, text=True,
                            cwd=root)
    first = {}
    for line in result.stderr.splitlines():
        match = VIOLATION.match(line)
        if match and match.group(1) not in first:
            first[match.group(1)] = int(match.group(2))
    if result.returncode != 0 and not first:
        raise SystemExit(f"check_format: clang-format failed: {result.stderr.strip()}")
    return sorted(first.items())


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else ".").resolve()
    if shutil.which("clang-format") is None:
        print("check_format: clang-format is not installed (scripts/setup.sh installs it)")
        return 1
    names = argv[2:] or tracked_files(root)
    problems = list(unformatted(root, names))
    for name, line in problems:
        print(f"{name}:{line}: not formatted (clang-format -i {name})")
    print(f"format: {len(problems)} of {len(names)} file(s) not formatted")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
