#!/usr/bin/env python3
"""Checks that the pages under docs/ read as a reference, not a diary (docs/conventions.md, issue 30).

A page must not name a date of work (a full date such as 2026-11-24, or a time of day in UTC), the
machine's load while measuring ("load average"), a branch, a work session or who tried what
("the lead", "we tried", a helper's branch): the history stays in git. A paper's year is a citation and is not matched
(only full dates are). ALLOWED lists the few lines that match a pattern without being history, each
with its reason. Usage: scripts/check_docs.py [repository root]
"""
import pathlib
import re
import sys

PATTERNS = [
    (re.compile(r"\b20[0-9][0-9]-[01][0-9]-[0-3][0-9]\b"), "a date"),
    (re.compile(r"\b[0-2][0-9]:[0-5][0-9](-[0-2][0-9]:[0-5][0-9])? UTC\b"), "a time of day"),
    (re.compile(r"load average", re.IGNORECASE), "the load while measuring"),
    (re.compile(r"\bbranch(es)? `|\bthis branch\b|\bon branch\b", re.IGNORECASE), "a branch"),
    (re.compile(r"\bsessions?\b", re.IGNORECASE), "a work session"),
    (re.compile(r"\bhelpers?'s? (branch|work|run|tried|found)\b|\bthe lead\b|\bwe tried\b", re.IGNORECASE),
     "who worked on it"),
]

# (page, text on the line) -> why the match is not history
ALLOWED = {
    ("docs/performance.md", '"Quiet" means nothing else running (load average below 1)'):
        "defines the measuring condition, not a moment",
}


def findings(root):
    """Yields (page, line number, what, line) for every line of docs/**/*.md that names history."""
    for page in sorted((root / "docs").rglob("*.md")):
        relative = page.relative_to(root).as_posix()
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            if any(path == relative and text in line for path, text in ALLOWED):
                continue
            for pattern, what in PATTERNS:
                if pattern.search(line):
                    yield relative, number, what, line.strip()
                    break


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1])
    found = list(findings(root))
    for relative, number, what, line in found:
        print(f"{relative}:{number}: names {what} (docs are a reference; the history stays in git): {line}")
    print(f"{len(found)} line(s) of docs/ name dates, load, branches or sessions")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
