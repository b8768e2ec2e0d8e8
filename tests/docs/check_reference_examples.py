"""Every YAML example of docs/scene_reference.md (generated from the schema tables' examples) works:
a scene is accepted by `tendril validate` and completed by `tendril run`, a fit file (a top-level
`method:`) is fitted by `tendril fit`. Each runs in a scratch folder beside a link to the repository's
`examples/` (the paths a fit file names are relative to it, as from the repository's root).
Usage: check_reference_examples.py SCENE_REFERENCE_MD TENDRIL REPOSITORY
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def commands(text, scene):
    """The tendril commands that must succeed on the example `text` saved as `scene`."""
    if re.search(r"^method:", text, re.M):
        return [["fit", str(scene), "--out", f"{scene}.fit", "--no-plot", "--jobs", "1"]]
    return [["validate", str(scene)], ["run", str(scene), "--out", f"{scene}.run"]]


def main(reference, tendril, repo):
    examples = re.findall(r"For example:\n\n```yaml\n(.*?)```", Path(reference).read_text(), re.S)
    assert examples, f"no examples in {reference}"
    failures = []
    with tempfile.TemporaryDirectory(prefix="tendril-reference-") as scratch:
        (Path(scratch) / "examples").symlink_to(Path(repo) / "examples")
        for k, text in enumerate(examples):
            scene = Path(scratch) / f"example_{k}.yaml"
            scene.write_text(text)
            for command in commands(text, scene):
                result = subprocess.run([tendril, *command], capture_output=True, text=True)
                if result.returncode != 0:
                    failures.append(f"example {k} ({text.splitlines()[0]}...): tendril {command[0]} "
                                    f"exited {result.returncode}: {result.stderr.strip()}")
    print("\n".join(failures) or f"{len(examples)} examples validated and run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
