"""The wheel carries the dbt package (docs/package.md): python_udfs/package_files.py selects
its files (every macro, the hand-written models and tests, the scaffold templates,
dbt_project.yml and the default profile; no file `cdc-dbt scaffold` generated, no seed, no
Python test), and a wheel built from a copy of the repository holds exactly those under
python_udfs/dbt_package/.

Time budget: about 5 s (one `pip wheel` of a copy of the repository, with build isolation:
pip installs setuptools into a temporary environment; 3.7 s alone on the AMD EPYC,
2026-12-02; the rest under a second).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from python_udfs import package_files, scaffold
from python_udfs.package_files import dbt_package_dir, dbt_package_files, scaffold_templates_dir

PROJECT_DIR = Path(__file__).resolve().parents[2]
PACKAGE_PREFIX = "python_udfs/dbt_package/"


def _selected() -> set[str]:
    return {path.as_posix() for path in dbt_package_files(PROJECT_DIR)}


def _files(folder: str) -> set[str]:
    return {
        path.relative_to(PROJECT_DIR).as_posix()
        for path in (PROJECT_DIR / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_generated_mark_is_the_scaffold_header() -> None:
    assert package_files.GENERATED_MARK == scaffold.HEADER_TEXT


def test_no_generated_file_no_sample_file_no_python_test() -> None:
    selected = _selected()
    # the package's own folders hold no generated file: the sample tables' are the sample
    # project's (samples/), as a user's tables' are their project's
    generated = {
        name
        for folder in package_files.PACKAGE_FOLDERS
        for name in _files(folder)
        if package_files.is_generated(PROJECT_DIR / name)
    }
    assert generated == set()
    sample_generated = [
        name for name in _files("samples/models") if package_files.is_generated(PROJECT_DIR / name)
    ]
    assert "samples/models/marts/employees/dim_employees_history.sql" in sample_generated
    # of the sample project only its settings (init's commented examples)
    assert [name for name in selected if name.startswith("samples/")] == ["samples/dbt_project.yml"]
    assert not [name for name in selected if name.startswith(("seeds/", "docs/", "tests/python/"))]
    assert all(Path(name).suffix != ".pyc" for name in selected)


def test_a_generated_file_is_left_out(tmp_path: Path) -> None:
    """A file `cdc-dbt scaffold` wrote into the package's folders (a table configured in the
    package's own dbt_project.yml by mistake) is not carried."""
    root = tmp_path / "repository"
    (root / "models" / "marts" / "t").mkdir(parents=True)
    (root / "dbt_project.yml").write_text("name: cdc_history\n")
    (root / "models" / "marts" / "cdc.sql").write_text("select 1\n")
    generated = root / "models" / "marts" / "t" / "dim_t_history.sql"
    generated.write_text(f"{{# {scaffold.HEADER_TEXT} marts/history.sql #}}\nselect 1\n")
    assert package_files.is_generated(generated)
    assert [p.as_posix() for p in dbt_package_files(root)] == [
        "dbt_project.yml",
        "models/marts/cdc.sql",
    ]


def test_every_macro_template_and_project_file() -> None:
    selected = _selected()
    macros = _files("macros")
    assert len(macros) > 200
    assert macros <= selected
    assert _files("scaffold") <= selected
    assert {"dbt_project.yml", "profiles/profiles.yml"} <= selected
    # hand-written models and tests stay (the change log, a generic test)
    assert "models/marts/cdc/fct_cdc_changes.sql" in selected
    assert any(name.startswith("tests/generic/") for name in selected)
    # nothing outside the dbt package's folders
    tops = {name.split("/")[0] for name in selected}
    assert tops == {
        "dbt_project.yml",
        "macros",
        "models",
        "tests",
        "scaffold",
        "profiles",
        "samples",
    }


def test_the_checkout_is_the_package_dir() -> None:
    assert dbt_package_dir() == PROJECT_DIR
    assert scaffold_templates_dir() == PROJECT_DIR / "scaffold"


def test_an_installed_package_dir_comes_first(tmp_path: Path) -> None:
    """package_files.py beside a python_udfs/dbt_package/ (a wheel install) points there."""
    module_dir = tmp_path / "python_udfs"
    (module_dir / "dbt_package").mkdir(parents=True)
    shutil.copy(PROJECT_DIR / "python_udfs" / "package_files.py", module_dir)
    spec = importlib.util.spec_from_file_location(
        "installed_files", module_dir / "package_files.py"
    )
    assert spec is not None and spec.loader is not None
    installed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(installed)
    # without its dbt_project.yml the folder is not taken for the package
    assert installed.dbt_package_dir() == tmp_path
    (module_dir / "dbt_package" / "dbt_project.yml").write_text("name: cdc_history\n")
    assert installed.dbt_package_dir() == module_dir / "dbt_package"
    assert installed.scaffold_templates_dir() == module_dir / "dbt_package" / "scaffold"


def test_the_wheel_holds_the_dbt_package(tmp_path: Path) -> None:
    """`pip wheel` of a copy of the repository: python_udfs/dbt_package/ holds the selection,
    and no Python package of that name."""
    source = tmp_path / "source"
    shutil.copytree(
        PROJECT_DIR,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            ".local",
            "dbt_packages",
            "target",
            "logs",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".*_cache",
            ".hypothesis",
        ),
    )
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("cdc_history-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    carried = {name[len(PACKAGE_PREFIX) :] for name in names if name.startswith(PACKAGE_PREFIX)}
    assert carried == {path.as_posix() for path in dbt_package_files(source)}
    assert carried == _selected()
    assert "python_udfs/cli.py" in names
    assert "python_udfs/package_files.py" in names
    assert not [name for name in carried if name.endswith(".py")]
