#!/usr/bin/env python3
"""Checks that every C++ file in git follows .clang-format (docs/conventions.md, "Layout and checks").

Runs Debian's clang-format 14 in dry-run mode on each tracked *.cpp, *.hpp and *.h file of the tree
(or on the files named after the root) and lists the files it would change, with the first line that
differs. Exit 1 when any file is not formatted; format it with `clang-format -i FILE`.
Usage: scripts/check_format.py [repository root] [file ...]
"""
import pathlib
import shutil
import subprocess
import sys

SUFFIXES = (".cpp", ".hpp", ".h")


def tracked_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True,
                            text=True, check=True).stdout.split("\0")
    return [name for name in listed if name.endswith(SUFFIXES)]


def first_difference(original, formatted):
    for number, (a, b) in enumerate(zip(original.splitlines(), formatted.splitlines()), start=1):
        if a != b:
            return number
    return min(len(original.splitlines()), len(formatted.splitlines())) + 1


def unformatted(root, names):
    for name in names:
        path = root / name
        original = path.read_text(encoding="utf-8")
        formatted = subprocess.run(["clang-format", f"--assume-filename={path}"], input=original,
                                   capture_output=True, text=True, cwd=root, check=True).stdout
        if formatted != original:
            yield name, first_difference(original, formatted)


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
