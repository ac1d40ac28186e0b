"""A copy of the dbt project configured for a scenario's own tables, as a user adds a table:
var cdc_tables in the copy's dbt_project.yml, then `cdc-dbt scaffold` writes the per-table
models. Scenarios whose tables the shipped project does not have build the copy
(run_dbt(..., project_dir=copy)); the project itself is never written."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from python_udfs import scaffold

PROJECT_DIR = Path(__file__).resolve().parents[2]
# what dbt and the scaffold read; never target/, logs/, .local/ or the Python tests
COPIED = (
    "models",
    "macros",
    "seeds",
    "scaffold",
    "profiles",
    "tests/generic",
    "tests/intermediate",
)


def project_with_tables(dest: Path, cdc_tables: Mapping[str, Any]) -> Path:
    """The project copied to `dest` with var cdc_tables set to `cdc_tables` and scaffolded
    (the shipped tables' generated files and unit tests removed, the given tables' written)."""
    for folder in COPIED:
        if (PROJECT_DIR / folder).is_dir():
            shutil.copytree(PROJECT_DIR / folder, dest / folder)
    project = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())
    project["vars"]["cdc_tables"] = dict(cdc_tables)
    (dest / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    assert scaffold.main([], project_dir=dest) == 0, "cdc-dbt scaffold failed"
    # hand-written unit tests of shipped tables the copy no longer has
    for unit_tests in (dest / "models" / "marts").glob("*/_*__unit_tests.yml"):
        if unit_tests.parent.name not in cdc_tables:
            unit_tests.unlink()
    return dest
