"""A copy of the dbt project configured for a scenario's own tables, as a user adds a table:
var cdc_tables in the copy's dbt_project.yml, then `cdc-dbt scaffold` writes the per-table
models. Test scenarios whose tables the shipped project does not have build the copy
(run_dbt(..., project_dir=copy)), and so does the per-table benchmark (benchmarks.tables);
the project itself is never written."""

from __future__ import annotations

import contextlib
import io
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from python_udfs import scaffold

PROJECT_DIR = Path(__file__).resolve().parents[1]
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


def project_with_tables(
    dest: Path, cdc_tables: Mapping[str, Any], extra_vars: Mapping[str, Any] | None = None
) -> Path:
    """The project copied to `dest` with var cdc_tables set to `cdc_tables` (and `extra_vars`
    set beside it) and scaffolded (the shipped tables' generated files and unit tests
    removed, the given tables' written)."""
    for folder in COPIED:
        if (PROJECT_DIR / folder).is_dir():
            shutil.copytree(PROJECT_DIR / folder, dest / folder)
    project = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())
    project["vars"]["cdc_tables"] = dict(cdc_tables)
    project["vars"].update(extra_vars or {})
    (dest / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    with contextlib.redirect_stdout(io.StringIO()) as written:
        status = scaffold.main([], project_dir=dest)
    if status != 0:
        raise RuntimeError(f"cdc-dbt scaffold failed in {dest}:\n{written.getvalue()}")
    # hand-written unit tests of shipped tables the copy no longer has
    for unit_tests in (dest / "models" / "marts").glob("*/_*__unit_tests.yml"):
        if unit_tests.parent.name not in cdc_tables:
            unit_tests.unlink()
    return dest
