"""`tendril export RUN --vtk DIR` read back with the real VTK reader (python3-vtk9).

Runs the export, then checks every frame listed in run.pvd: point counts, cell counts, the
positions and the twist / body-angle fields equal the .npy data, strain and displacement equal
their definitions (docs/visualisation.md) recomputed here with numpy, and the .pvd times equal
frame_time, and every field docs/visualisation.md lists for the run's kind is there.
Usage: check_vtk_export.py TENDRIL RUN_DIR OUT_DIR VISUALISATION_MD
"""
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

from documented import rod_fields

# the vine runs' fields, documented in the text below the rod table
VINE_FIELDS = {"body_angle": "cells", "body_velocity": "cells"}
VINE3D_FIELDS = {"body_orientation": "cells", "body_velocity": "cells"}


def main(tendril, run_dir, out_dir, doc):
    run_dir, out_dir = Path(run_dir), Path(out_dir)
    shutil.rmtree(out_dir, ignore_errors=True)
    try:
        subprocess.run([tendril, "export", str(run_dir), "--vtk", str(out_dir)], check=True)
        check(run_dir, out_dir, doc)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def check_documented_fields(poly, fields):
    """Every documented field is in the frame's point or cell data, as documented."""
    for name, where in fields.items():
        data = poly.GetPointData() if where == "points" else poly.GetCellData()
        assert data.GetArray(name) is not None, f"documented field {name} ({where}) not exported"


def check(run_dir, out_dir, doc):
    meta = json.loads((run_dir / "run.json").read_text())
    fields = {"rod": rod_fields(doc), "vine": VINE_FIELDS, "vine3d": VINE3D_FIELDS}[meta["kind"]]
    arrays = {a["name"]: np.load(run_dir / a["file"]) for a in meta["arrays"]}
    times = arrays["frame_time"]
    datasets = ET.parse(out_dir / "run.pvd").getroot().find("Collection").findall("DataSet")
    assert len(datasets) == len(times) > 1, (len(datasets), len(times))
    np.testing.assert_array_equal([float(d.get("timestep")) for d in datasets], times)

    for f, d in enumerate(datasets):
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(str(out_dir / d.get("file")))
        reader.Update()
        poly = reader.GetOutput()
        points = vtk_to_numpy(poly.GetPoints().GetData())
        cell = lambda name: vtk_to_numpy(poly.GetCellData().GetArray(name))
        check_documented_fields(poly, fields)
        if meta["kind"] == "rod":
            x = arrays["positions"]
            edges = np.array(meta["info"]["edges"])
            assert poly.GetNumberOfPoints() == meta["info"]["num_nodes"] == x.shape[1]
            assert poly.GetNumberOfLines() == len(edges) == meta["info"]["num_edges"]
            np.testing.assert_array_equal(points, x[f])
            np.testing.assert_array_equal(cell("twist")[:len(edges)], arrays["twists"][f])
            length = lambda p: np.linalg.norm(p[edges[:, 1]] - p[edges[:, 0]], axis=1)
            np.testing.assert_allclose(cell("strain")[:len(edges)], length(x[f]) / length(x[0]) - 1, rtol=0, atol=1e-12)
            disp = vtk_to_numpy(poly.GetPointData().GetArray("displacement"))
            np.testing.assert_allclose(disp, x[f] - x[0], rtol=0, atol=1e-15)
            if meta["scene"].get("rods"):
                assert cell("radius")[0] == meta["scene"]["rods"][0]["material"]["radius"]
            # connectivity of each line cell is its edge, of each polygon its triangle
            lines = vtk_to_numpy(poly.GetLines().GetConnectivityArray()).reshape(-1, 2)
            np.testing.assert_array_equal(lines, edges)
            triangles = np.array(meta["info"].get("triangles", []), dtype=np.int64).reshape(-1, 3)
            assert poly.GetNumberOfPolys() == len(triangles)
            if len(triangles):
                polys = vtk_to_numpy(poly.GetPolys().GetConnectivityArray()).reshape(-1, 3)
                np.testing.assert_array_equal(polys, triangles)
                assert np.isnan(cell("strain")[len(edges):]).all()  # edge fields carry no value on triangles
        elif meta["kind"] == "vine3d":
            line = arrays["centerline"]
            assert poly.GetNumberOfPoints() == line.shape[1]
            assert poly.GetNumberOfLines() == line.shape[1] - 1
            np.testing.assert_array_equal(points, line[f])
            np.testing.assert_array_equal(cell("body_orientation"), arrays["body_orientation"][f])
            np.testing.assert_array_equal(cell("body_velocity"), arrays["body_velocity"][f])
        else:
            line, pose = arrays["centerline"], arrays["body_pose"]
            assert poly.GetNumberOfPoints() == line.shape[1]
            assert poly.GetNumberOfLines() == pose.shape[1]
            np.testing.assert_array_equal(points[:, :2], line[f])
            np.testing.assert_array_equal(points[:, 2], 0)
            np.testing.assert_array_equal(cell("body_angle"), pose[f, :, 2])
    print(f"{run_dir.name}: {len(datasets)} frames read back by vtkXMLPolyDataReader {vtk.vtkVersion.GetVTKVersion()}")


if __name__ == "__main__":
    main(*sys.argv[1:])
