"""Builds the _tendril extension with the project's CMake (release, no tests or benchmarks) for the
Python running pip, and puts it into the package (pyproject.toml has the metadata)."""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        "-DTENDRIL_BUILD_TESTS=OFF", "-DTENDRIL_BUILD_BENCHMARKS=OFF",
                        f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_tendril", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = next((build / "python").glob("_tendril*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[Extension("tendril._tendril", sources=[])], cmdclass={"build_ext": CMakeBuild})
