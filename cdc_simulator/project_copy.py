"""A copy of the repository's sample project (samples/) configured for a scenario's own
tables, as a user adds a table to a project of theirs: var cdc_tables in the copy's
dbt_project.yml, then `cdc-dbt scaffold` writes the per-table models. The copy uses the
cdc_history package, the repository root, as the sample project does: installed in its
dbt_packages/ as `cdc-dbt deps` installs a `local:` package, a link (install_package). Test
scenarios whose tables the sample project does not have build the copy
(run_dbt(..., project_dir=copy)), and so does the per-table benchmark (benchmarks.tables);
neither the sample project nor the package is ever written."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from python_udfs import scaffold
from python_udfs.package_files import dbt_package_files

PROJECT_DIR = Path(__file__).resolve().parents[1]
# the repository's sample project, a user of the package
SAMPLES_DIR = PROJECT_DIR / "samples"
PACKAGE_NAME = "cdc_history"
# what dbt and the scaffold read of the sample project; never target/, logs/, dbt_packages/
COPIED = ("models", "macros", "seeds")


def install_package(project: Path, package: Path = PROJECT_DIR) -> None:
    """The package installed in `project` as `cdc-dbt deps` installs a `local:` package: a
    link dbt_packages/cdc_history to its folder (kept when it is one already)."""
    link = project / "dbt_packages" / PACKAGE_NAME
    if link.is_symlink() and link.resolve() == package.resolve():
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    # made beside it and renamed over it: two test processes may install it at once
    made = link.with_name(f".{PACKAGE_NAME}.{os.getpid()}")
    os.symlink(package.resolve(), made, target_is_directory=True)
    os.replace(made, link)


def copy_package(project: Path) -> None:
    """The package installed in `project` as a copy of its files (what the wheel holds,
    `dbt_package_files`), for a scenario that changes the package's code."""
    package = project / "dbt_packages" / PACKAGE_NAME
    for relative in dbt_package_files(PROJECT_DIR):
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(PROJECT_DIR / relative, package / relative)


def project_with_tables(
    dest: Path,
    cdc_tables: Mapping[str, Any],
    extra_vars: Mapping[str, Any] | None = None,
    package_copy: bool = False,
) -> Path:
    """The sample project copied to `dest` with var cdc_tables set to `cdc_tables` (and
    `extra_vars` set beside it), the package installed (a link to the repository, or with
    `package_copy` a copy of its files) and scaffolded (the sample tables' generated files
    and unit tests removed, the given tables' written)."""
    for folder in COPIED:
        if (SAMPLES_DIR / folder).is_dir():
            shutil.copytree(SAMPLES_DIR / folder, dest / folder)
    shutil.copytree(PROJECT_DIR / "profiles", dest / "profiles")
    project = yaml.safe_load((SAMPLES_DIR / "dbt_project.yml").read_text())
    project["vars"]["cdc_tables"] = dict(cdc_tables)
    project["vars"].update(extra_vars or {})
    (dest / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    packages = {"packages": [{"local": str(PROJECT_DIR)}]}
    (dest / "packages.yml").write_text(yaml.safe_dump(packages, sort_keys=False))
    if package_copy:
        copy_package(dest)
    else:
        install_package(dest)
    with contextlib.redirect_stdout(io.StringIO()) as written:
        status = scaffold.main([], project_dir=dest)
    if status != 0:
        raise RuntimeError(f"cdc-dbt scaffold failed in {dest}:\n{written.getvalue()}")
    # hand-written unit tests of sample tables the copy no longer has
    for unit_tests in (dest / "models" / "marts").glob("*/_*__unit_tests.yml"):
        if unit_tests.parent.name not in cdc_tables:
            unit_tests.unlink()
    return dest
