#!/usr/bin/env python3
"""Writes examples/README.md, the gallery of the example scenes: one row per `examples/*.yaml` with a
small picture (its run's last frame, made by `tendril render --png` into docs/images/gallery/), its
description and the features it shows (read from the scene's keys).

    scripts/make_gallery.py [--tendril build/release/apps/cli/tendril]   # runs, renders, writes
    scripts/make_gallery.py --check     # exit 1 if examples/README.md or a picture is out of step

`--check` runs nothing: it rebuilds the page's text from the scenes and compares it with the file,
and checks that every picture exists (tests/docs: docs.gallery).
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

import yaml

REPO = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
PICTURES = REPO / "docs" / "images" / "gallery"
WIDTH, HEIGHT = 320, 200


def features(scene):
    """What a scene shows, from its keys (docs/scene_reference.md)."""
    out = []
    if "vine" in scene:
        vine = scene["vine"]
        out.append("planar vine robot, one QP per step")
        if vine.get("obstacles"):
            out.append("obstacles")
        return out
    if "vine3d" in scene:
        vine = scene["vine3d"]
        out.append("3D vine robot, one QP per step")
        out += [label for key, label in (("steering", "steering"), ("obstacles", "obstacles"))
                if vine.get(key)]
        if vine.get("gravity"):
            out.append("gravity")
        return out
    if "flagellated_robot" in scene:
        out += ["rod network with rigid parts", "motor (natural twist)", "Resistive Force Theory"]
    rods = scene.get("rods", [])
    if rods:
        out.append(f"{len(rods)} rod{'s' if len(rods) > 1 else ''}")
    if scene.get("joints"):
        out.append("joints")
    for shell in scene.get("shells", []):
        out.append(f"{shell.get('bending', 'hinge')} shell")
    if any("natural_curvature" in r for r in rods) or scene.get("actuation"):
        out.append("actuation (rest shape)")
    if any(s.get("hinge_actuation") for s in scene.get("shells", [])):
        out.append("actuation (hinge angles)")
    forces = scene.get("forces", {})
    names = {"gravity": "gravity", "point_loads": "point loads", "viscous": "viscous drag",
             "aerodynamic_drag": "aerodynamic drag", "buoyancy": "buoyancy", "rft": "RFT"}
    out += [label for key, label in names.items() if key in forces]
    contact = scene.get("contact", {})
    if "ground" in contact:
        out.append("ground contact" + (" with friction" if contact["ground"].get("friction") else ""))
    if contact.get("self", {}).get("enabled", "self" in contact):
        out.append("self- and body contact")
    if contact.get("obstacles"):
        out.append("rigid obstacles")
    out.append(scene.get("integrator", {}).get("type", "implicit_euler").replace("_", " "))
    return out


def scenes():
    for path in sorted(EXAMPLES.glob("*.yaml")):
        yield path.stem, yaml.safe_load(path.read_text())


def page():
    rows = ["# Examples", "",
            "Scenes that reproduce the papers' figures and show Tendril's features; each is run by the",
            "tests (`tests/regression`). Run one with `tendril run examples/NAME.yaml --out runs/NAME`",
            "(`docs/tutorial.md`). Python examples are in `python/`, fit files in `fit/`. This page and",
            "its pictures are written by `scripts/make_gallery.py`.", "",
            "| | scene | what it shows |", "|---|---|---|"]
    for name, scene in scenes():
        picture = f"![{name}](../docs/images/gallery/{name}.png)"
        description = str(scene.get("description", "")).replace("|", "\\|")
        rows.append(f"| {picture} | `{name}.yaml`: {description} | {', '.join(features(scene))} |")
    return "\n".join(rows) + "\n"


def render(tendril, name, scratch):
    """Runs examples/NAME.yaml and renders its last frame to docs/images/gallery/NAME.png."""
    run = scratch / name
    subprocess.run([tendril, "run", str(EXAMPLES / f"{name}.yaml"), "--out", str(run)], check=True,
                   stdout=subprocess.DEVNULL)
    PICTURES.mkdir(parents=True, exist_ok=True)
    subprocess.run([tendril, "render", str(run), "--png", str(PICTURES / f"{name}.png"),
                    "--width", str(WIDTH), "--height", str(HEIGHT)], check=True,
                   stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tendril", default=str(REPO / "build/release/apps/cli/tendril"))
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    readme = EXAMPLES / "README.md"
    if args.check:
        problems = [] if readme.exists() and readme.read_text() == page() else [
            f"{readme} is out of step with the scenes: run scripts/make_gallery.py"]
        problems += [f"missing picture docs/images/gallery/{name}.png" for name, _ in scenes()
                     if not (PICTURES / f"{name}.png").exists()]
        print("\n".join(problems) or f"gallery: {sum(1 for _ in scenes())} examples in step")
        return 1 if problems else 0
    with tempfile.TemporaryDirectory(prefix="tendril-gallery-") as scratch:
        for name, _ in scenes():
            print(f"{name} ...", flush=True)
            render(args.tendril, name, pathlib.Path(scratch))
    readme.write_text(page())
    print(f"wrote {readme} and {PICTURES}/*.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
