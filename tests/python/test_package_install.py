"""End to end, as a new user takes the package up (issue 27's proof): build the wheel, install
it into a fresh virtual environment, `cdc-dbt init` a project in a temporary folder, configure
two tables of two formats (a Qlik change table and its full load, landed as CSV, and full
snapshots), land a few rows as files, `cdc-dbt deps`, `cdc-dbt scaffold`, `cdc-dbt build`, and
query `<table>_as_of` at several points; then upgrade: a newer wheel (another version, a
changed macro) installed over it, `deps`, `scaffold`, a new file landed, `build` again, and
every earlier point still answers as before while the new change is there.

Every command runs in a subprocess of the new environment's `cdc-dbt`, with none of this
checkout's variables: the package, its dbt files and its templates come from the wheel (a test
checks `python_udfs` is imported from the environment, not from the checkout). The
environment has no pip of its own and reaches its dependencies (dbt, pyspark) through a .pth
file naming the test run's site-packages, where nothing of this project is importable: its
editable install is a finder the .pth does not run. Building the wheel needs pip to reach a
package index for setuptools (pip's build isolation), as every set-up here does.

The values are the nasty ones real sources hold: a quote written twice, a comma and a
newline inside a value, `; ' + = \\ < >` in text, an empty string against NULL, 50,000
characters. The expected states are written out by hand from the rows below.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml

from cdc_simulator.qlik_ct import HEADER_COLUMNS, OPERATIONS, csv_field
from python_udfs.change_mask import encode_hex_change_mask

pytestmark = [pytest.mark.e2e]

PROJECT_DIR = Path(__file__).resolve().parents[2]
# variables of this checkout's runs that would point the user's commands back at it
CHECKOUT_VARIABLES = (
    "CDC_PROJECT_DIR",
    "CDC_LOCAL_DIR",
    "CDC_TEST_LOCAL_DIR",
    "DBT_PROJECT_DIR",
    "DBT_PROFILES_DIR",
    "DBT_TARGET_PATH",
    "DBT_LOG_PATH",
    "PYSPARK_PYTHON",
    "PYSPARK_DRIVER_PYTHON",
    "PYTHONPATH",
    "CDC_VENV",
    "CDC_CODE_FINGERPRINT",
    "VIRTUAL_ENV",
)
# ordinals of the data columns (after the seven header columns): staff_id, name, note
STAFF_ID, NAME, NOTE = 7, 8, 9
TRICKY_NAME = 'O\'Neil; + = \\ < > "x"'
QUOTED_NAME = 'Bo "B", Lee'
LONG_NAME = "x" * 50_000
POINTS = {
    "09:00": "2024-03-01 09:00:00",
    "10:30": "2024-03-01 10:30:00",
    "11:30": "2024-03-01 11:30:00",
    "12:30": "2024-03-01 12:30:00",
    "day 2": "2024-03-02 12:00:00",
    "day 3": "2024-03-03 12:00:00",
}
# staff_id -> (name, note) at each point, before the upgrade's new change
STAFF_BEFORE = {
    "09:00": {1: ("Ann", "plain"), 2: (QUOTED_NAME, "two\nlines")},
    "10:30": {1: ("Ann", "plain"), 2: (QUOTED_NAME, "two\nlines"), 3: (TRICKY_NAME, "")},
    "11:30": {1: ("Ann M", "plain"), 2: (QUOTED_NAME, "two\nlines"), 3: (TRICKY_NAME, "")},
    "12:30": {1: ("Ann M", "plain"), 3: (TRICKY_NAME, "")},
    "day 2": {1: ("Ann M", "plain"), 3: (TRICKY_NAME, "")},
    "day 3": {1: ("Ann M", "plain"), 3: (TRICKY_NAME, "")},
}
# the upgrade's new file: staff 4 inserted on day 3 at 09:00, its note NULL
STAFF_AFTER = {
    **STAFF_BEFORE,
    "day 3": {1: ("Ann M", "plain"), 3: (TRICKY_NAME, ""), 4: (LONG_NAME, None)},
}
# sku -> (title, price) at each point
PRICES = {
    "09:00": {"A1": ("Kettle", "19.90"), "B2": ('Toast, "er"', "29.90")},
    "day 2": {"A1": ("Kettle", "17.50")},
}


def _change(seq: int, oper: str, at: str, row: list[str | None], mask: str) -> list[str | None]:
    day, time = at.split(" ")
    digits = (day + time).replace("-", "").replace(":", "")
    return [
        f"{digits}{seq:021d}",
        oper,
        mask,
        f"lsn:{seq:08d}",
        OPERATIONS[oper],
        f"{seq:032X}",
        at,
        *row,
    ]


def write_csv(path: Path, header: list[str], rows: list[list[str | None]]) -> None:
    """A CSV file as Replicate's file target writes it (the simulator's csv_field): a NULL
    is an unquoted empty field, an empty string a quoted one ("")."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [",".join(header), *(",".join(csv_field(value) for value in row) for row in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")


def land_first_files(landing: Path) -> None:
    all_columns = encode_hex_change_mask([STAFF_ID, NAME, NOTE])
    write_csv(
        landing / "qlik_ct" / "staff" / "part-00001.csv",
        ["staff_id", "name", "note"],
        [["1", "Ann", "plain"], ["2", QUOTED_NAME, "two\nlines"]],
    )
    write_csv(
        landing / "qlik_ct" / "staff__ct" / "part-00001.csv",
        [*HEADER_COLUMNS, "staff_id", "name", "note"],
        [
            _change(1, "I", "2024-03-01 10:00:00", ["3", TRICKY_NAME, ""], all_columns),
            _change(2, "B", "2024-03-01 11:00:00", ["1", "Ann", "plain"], ""),
            _change(
                2,
                "U",
                "2024-03-01 11:00:00",
                ["1", "Ann M", "plain"],
                encode_hex_change_mask([NAME]),
            ),
            _change(
                3,
                "D",
                "2024-03-01 12:00:00",
                ["2", QUOTED_NAME, "two\nlines"],
                encode_hex_change_mask([STAFF_ID]),
            ),
        ],
    )
    write_csv(
        landing / "full_snapshot" / "prices" / "part-00001.csv",
        ["extracted_at", "sku", "title", "price"],
        [
            ["2024-03-01 00:00:00", "A1", "Kettle", "19.90"],
            ["2024-03-01 00:00:00", "B2", 'Toast, "er"', "29.90"],
            ["2024-03-02 00:00:00", "A1", "Kettle", "17.50"],
        ],
    )


def land_upgrade_file(landing: Path) -> None:
    write_csv(
        landing / "qlik_ct" / "staff__ct" / "part-00002.csv",
        [*HEADER_COLUMNS, "staff_id", "name", "note"],
        [
            _change(
                4,
                "I",
                "2024-03-03 09:00:00",
                ["4", LONG_NAME, None],
                encode_hex_change_mask([STAFF_ID, NAME, NOTE]),
            )
        ],
    )


TABLES: dict[str, Any] = {
    "staff": {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": ["staff_id"],
        "column_types": {"staff_id": "int"},
    },
    "prices": {
        "source_system": "full_snapshot",
        "source_schema": "SHOP",
        "snapshot_column": "extracted_at",
        "key_columns": ["sku"],
        "columns": {"sku": "string", "title": "string", "price": "decimal(10,2)"},
    },
}


class UserEnvironment:
    """A fresh virtual environment with the wheel installed, and the user's project."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.venv = root / "venv"
        self.project = root / "my_cdc"
        self.python = self.venv / "bin" / "python"
        self.env = {k: v for k, v in os.environ.items() if k not in CHECKOUT_VARIABLES}
        self.env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{self.env.get('PATH', '')}"
        self.env["VIRTUAL_ENV"] = str(self.venv)

    def create(self) -> None:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(self.venv)], check=True)
        site = Path(
            subprocess.run(
                [
                    str(self.python),
                    "-c",
                    "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                ],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        )
        (site / "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    def install(self, wheel: Path) -> None:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                str(self.python),
                "install",
                "--no-deps",
                "--force-reinstall",
                "--no-index",
                "--quiet",
                str(wheel),
            ],
            check=True,
        )

    def run(self, *args: str, cwd: Path | None = None, timeout: float = 600) -> str:
        result = subprocess.run(
            [str(self.venv / "bin" / "cdc-dbt"), *args],
            cwd=cwd or self.project,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert result.returncode == 0, (
            f"cdc-dbt {' '.join(args)}:\n{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
        )
        return result.stdout

    def query(self, sql: str) -> list[dict[str, Any]]:
        out = self.run("show", "--inline", sql, "--output", "json", "--limit", "1000", "--quiet")
        return json.loads(out[out.index("{") :])["show"]


def build_wheel(source: Path, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
        check=True,
        timeout=300,
    )
    (wheel,) = out.glob("*.whl")
    return wheel


def newer_source(root: Path) -> Path:
    """A copy of this checkout's tracked files, version 0.1.1, with a macro changed (what an
    upgrade brings: the kept views and tables must be built again)."""
    source = root / "source_next"
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=PROJECT_DIR, check=True, capture_output=True)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (PROJECT_DIR / name).is_file():
            shutil.copy2(PROJECT_DIR / name, target)
    pyproject = source / "pyproject.toml"
    text = pyproject.read_text()
    assert 'version = "0.1.0"' in text
    pyproject.write_text(text.replace('version = "0.1.0"', 'version = "0.1.1"', 1))
    macro = source / "macros" / "cdc" / "cdc_var.sql"
    macro.write_text(macro.read_text() + "{#- changed in 0.1.1 -#}\n")
    return source


def staff_and_prices(user: UserEnvironment) -> dict[str, Any]:
    """Every point's rows of both tables' point-in-time functions, in one query."""
    parts = []
    for label, point in POINTS.items():
        parts.append(
            f"select 'staff' as t, '{label}' as p, cast(staff_id as string) as k, name as a,"
            f" note as b from {{{{ target.schema }}}}.staff_as_of('{point}')"
        )
        parts.append(
            f"select 'prices' as t, '{label}' as p, sku as k, title as a,"
            f" cast(price as string) as b from {{{{ target.schema }}}}.prices_as_of('{point}')"
        )
    rows = user.query(" union all ".join(parts))
    states: dict[str, Any] = {}
    for row in rows:
        table = states.setdefault(row["t"], {}).setdefault(row["p"], {})
        key = int(row["k"]) if row["t"] == "staff" else row["k"]
        table[key] = (row["a"], row["b"])
    return states


def installed(user: UserEnvironment) -> list[str]:
    """Where the environment imports python_udfs from, and the installed version (run
    outside the checkout: a working directory on sys.path would find it)."""
    return subprocess.run(
        [
            str(user.python),
            "-c",
            "import python_udfs, importlib.metadata as m;"
            " print(python_udfs.__file__); print(m.version('cdc-history'))",
        ],
        env=user.env,
        cwd=user.root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory) -> UserEnvironment:
    root = tmp_path_factory.mktemp("package_install")
    user = UserEnvironment(root)
    user.create()
    user.install(build_wheel(PROJECT_DIR, root / "dist_0.1.0"))
    return user


def test_a_new_user_builds_and_upgrades_from_the_wheel(user: UserEnvironment) -> None:
    located = installed(user)
    assert located[0].startswith(str(user.venv)), located
    assert located[1] == "0.1.0"

    user.run("init", str(user.project), cwd=user.root)
    project_file = user.project / "dbt_project.yml"
    project = yaml.safe_load(project_file.read_text())
    packages = yaml.safe_load((user.project / "packages.yml").read_text())["packages"]
    assert Path(packages[0]["local"]).is_relative_to(user.venv), "the installed package"
    landing = user.project / "landing"
    project["vars"]["qlik_ct_landing_format"] = "csv"
    project["vars"]["full_snapshot_landing_format"] = "csv"
    project["vars"]["cdc_tables"] = TABLES
    project_file.write_text(yaml.safe_dump(project, sort_keys=False))
    land_first_files(landing)

    user.run("deps")
    scaffolded = user.run("scaffold")
    assert (user.project / "models" / "marts" / "staff" / "dim_staff_history.sql").is_file()
    assert "written" in scaffolded
    assert not (user.project / "scaffold").exists(), "templates come from the package"
    user.run("build")

    first = staff_and_prices(user)
    assert first["staff"] == STAFF_BEFORE
    assert first["prices"]["09:00"] == PRICES["09:00"]
    assert first["prices"]["day 2"] == first["prices"]["day 3"] == PRICES["day 2"]

    # the upgrade: a newer wheel over the old one, the package linked again, the files
    # generated again, a new change landed, the project built again
    newer = build_wheel(newer_source(user.root), user.root / "dist_0.1.1")
    user.install(newer)
    assert installed(user)[1] == "0.1.1"
    user.run("deps")
    user.run("scaffold")
    user.run("scaffold", "--check")
    land_upgrade_file(landing)
    built = user.run("build")
    assert "ERROR=0" in built

    second = staff_and_prices(user)
    assert second["staff"] == STAFF_AFTER, "nothing lost, the new change there"
    assert second["prices"] == first["prices"]
