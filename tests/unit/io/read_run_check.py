"""Reads a tendril-run directory with numpy alone and checks the test run's contents.

Usage: read_run_check.py RUN_DIR   (written by test_npy_run.cpp: positions (3, 4, 3), iterations (3,))
"""
import json
import sys

import numpy as np

run = sys.argv[1]
meta = json.load(open(f"{run}/run.json"))
assert meta["format"] == "tendril-run" and meta["format_version"] in (1, 2), meta
arrays = {a["name"]: np.load(f"{run}/{a['file']}") for a in meta["arrays"]}
for a in meta["arrays"]:
    assert list(arrays[a["name"]].shape) == a["shape"], (a, arrays[a["name"]].shape)
x = arrays["positions"]
assert x.dtype == np.float64 and x.shape == (3, 4, 3), x.shape
assert np.array_equal(x.reshape(3, 12), 100.0 * np.arange(3)[:, None] + np.arange(12)[None, :])
k = arrays["iterations"]
assert k.dtype == np.int64 and list(k) == [1, 2, 3], k
print("ok")
