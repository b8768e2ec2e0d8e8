"""Every YAML example of docs/scene_reference.md (generated from the schema tables' examples) is a
scene that `tendril validate` accepts and `tendril run` completes.
Usage: check_reference_examples.py SCENE_REFERENCE_MD TENDRIL
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def main(reference, tendril):
    examples = re.findall(r"For example:\n\n```yaml\n(.*?)```", Path(reference).read_text(), re.S)
    assert examples, f"no examples in {reference}"
    failures = []
    with tempfile.TemporaryDirectory(prefix="tendril-reference-") as scratch:
        for k, text in enumerate(examples):
            scene = Path(scratch) / f"example_{k}.yaml"
            scene.write_text(text)
            for command in (["validate", str(scene)], ["run", str(scene), "--out", f"{scene}.run"]):
                result = subprocess.run([tendril, *command], capture_output=True, text=True)
                if result.returncode != 0:
                    failures.append(f"example {k} ({text.splitlines()[0]}...): tendril {command[0]} "
                                    f"exited {result.returncode}: {result.stderr.strip()}")
    print("\n".join(failures) or f"{len(examples)} examples validated and run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
