"""Where the dbt package's files are: installed from the wheel, or this checkout."""

from __future__ import annotations

from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent


def dbt_package_dir() -> Path:
    """The installed `python_udfs/dbt_package` when it exists, else this repository's root
    (a checkout or an editable install)."""
    installed = PACKAGE_ROOT / "dbt_package"
    return installed if installed.is_dir() else PACKAGE_ROOT.parent
