"""Run directories ("tendril-run 1", docs/output_format.md) read back through the C++ reader."""
import dataclasses
import json
import pathlib

from . import _tendril  # set by __init__ (the extension inside the package or from the build folder)


@dataclasses.dataclass
class Run:
    """A run directory: `arrays` {name: numpy array} (shapes as in docs/output_format.md, e.g.
    positions (F, N, 3) [m]), `meta` the whole run.json, `kind` "rod" or "vine", `status`
    "completed" or "failed"."""
    directory: pathlib.Path
    kind: str
    status: str
    meta: dict
    arrays: dict

    def __getitem__(self, name):
        return self.arrays[name]

    @property
    def info(self):
        """run.json's "info" map (energy term names, observables, ...)."""
        return self.meta.get("info", {})


def read_run(path):
    """Reads a run directory; a damaged one raises tendril.InputError with the CLI's message."""
    data = _tendril._read_run(str(path))
    meta = json.loads((pathlib.Path(data.directory) / "run.json").read_text())
    return Run(pathlib.Path(data.directory), data.kind, data.status, meta, data.arrays)
