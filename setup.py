"""The wheel carries the dbt package (docs/package.md): build_py copies the files
python_udfs/package_files.py selects into python_udfs/dbt_package/. Everything else about
the build is in pyproject.toml.

    python -m pip wheel --no-deps -w dist .

An editable install (`pip install -e .`, what bin/test does) copies nothing: there the dbt
package is the checkout itself (package_files.dbt_package_dir).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _package_files() -> ModuleType:
    """python_udfs/package_files.py, loaded by its path: importing the package would run
    python_udfs/__init__.py, whose dependencies a build environment need not have."""
    spec = importlib.util.spec_from_file_location(
        "_cdc_package_files", ROOT / "python_udfs" / "package_files.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithDbtPackage(build_py):
    """build_py, then the dbt package's files under python_udfs/dbt_package/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        files = _package_files()
        target = Path(self.build_lib) / "python_udfs" / files.DBT_PACKAGE_FOLDER
        # an earlier build's copy may hold files the selection has since left out
        shutil.rmtree(target, ignore_errors=True)
        for relative in files.dbt_package_files(ROOT):
            destination = target / relative
            self.mkpath(str(destination.parent))
            self.copy_file(str(ROOT / relative), str(destination))


setup(cmdclass={"build_py": BuildPyWithDbtPackage})
