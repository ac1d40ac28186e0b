"""A build killed anywhere, then rerun, ends exactly where a clean build of the same files ends.

Real processes, real SIGKILL: `kill_driver.py` runs `cdc-dbt run` and kills itself the
moment dbt reports a chosen model finished. The scenario has its own metastore (embedded
Derby lets one process in, and the pytest session holds its own), so every step is a
subprocess. Four processes, each killed at its end or running to the end: a process runs
several steps in one Spark session where nothing kills it between them (each process costs
a Spark start, a cold JVM's warm-up and the metastore's and Python workers' start, about 35
of a killed run's 50 s): the first build, the second batch's landing and the first kill in
one; the third batch's staging and the SQL that sets up step 3 in the final build's, and the
clean run and the comparison of step 4 after it, in another schema of the same process. The
processes run without Java code generation (interpreted.py: 9 % faster here).

1. a first build of a landed Qlik batch (Parquet), then a second batch lands;
2. the incremental run is killed after each kind of write in turn: the appending staging,
   the incremental typed images (the state path of the change log), the partitioned history
   (each killed run selects the killed model and its ancestors). Each rerun starts from what
   the last kill left;
3. two kills inside a write, which no event marks, are set up by hand in the state such a
   kill leaves: a history whose partition overwrite died half-way (its write started, a
   bucket gone) and a staging append that died half-way (a third batch staged by a run of
   its staging model alone, then half of the new file's rows taken out and the write marked
   as started). The first would be taken for a valid history, the second would make the
   file's other rows count as staged: both silently wrong without the write guard;
4. a final build (with the data tests), and a clean run of the same files into another
   schema: staging, images, histories, current state, change log, quarantine and
   `<table>_as_of` at several points must be equal row for row (columns that record when a
   row was loaded aside).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from interpreted import NO_CODEGEN_JAVA_OPTIONS

from cdc_simulator.project_copy import SAMPLES_DIR
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, ORDER_LINES, simulate
from python_udfs.metastore_lock import held_by_another_process

pytestmark = [pytest.mark.e2e]

PROJECT_DIR = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "kill_driver.py"
TABLES = (EMPLOYEES, ORDER_LINES)
KILLED, CLEAN = "killed", "clean"
RAW = "kill_raw"
# one boundary per kind of write: an appending staging model, an incremental images model,
# a partitioned history (views and full table rebuilds leave nothing half-done)
BOUNDARIES = (
    "model.cdc_samples.stg_qlik_ct__employees",
    "model.cdc_samples.int_employees__change_images",
    "model.cdc_samples.dim_employees_history",
)
PROJECT_TABLES: dict[str, Any] = {
    "employees": {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": ["employee_id"],
    },
    "order_lines": {
        "source_system": "qlik_ct",
        "source_schema": "SALES",
        "key_columns": ["order_id", "line_no"],
    },
}

# what is compared: every output, minus the columns that say when a row was loaded
COMPARED = {
    "stg_qlik_ct__{t}": "select * except (loaded_at, landed_file, landed_file_modified_at)",
    "int_{t}__change_images": "select * except (loaded_at)",
    "dim_{t}_history": "select * except (change_loaded_at)",
    "dim_{t}_current": "select * except (change_loaded_at)",
}
LOG = {
    "fct_cdc_changes": "select * except (loaded_at)",
    "fct_cdc_quarantine": "select * except (loaded_at, quarantine_id)",
}


def sql_dump(query: str) -> str:
    """A query whose rows come back as sorted JSON text (comparable across schemas)."""
    return f"select to_json(struct(*)) as row from ({query}) order by 1"


def environment(local_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "CDC_LOCAL_DIR": str(local_dir),
        "CDC_WARM_UP": "0",
        "CDC_SPARK_MASTER": "local[2]",
        "CDC_SHUFFLE_PARTITIONS": "2",
        "CDC_DRIVER_JAVA_OPTIONS": NO_CODEGEN_JAVA_OPTIONS,
        # the scenario's own target folder: its runs share one partial parse
        "DBT_TARGET_PATH": str(local_dir / "target"),
        "DBT_LOG_PATH": str(local_dir / "logs"),
    }


def wait_for_metastore(local_dir: Path) -> None:
    """After a SIGKILL the JVM notices its parent is gone and exits; wait for its lock."""
    deadline = time.monotonic() + 60
    while held_by_another_process(local_dir / "metastore_db"):
        assert time.monotonic() < deadline, "the killed build's JVM still holds the metastore"
        time.sleep(0.5)


def step(
    root: Path,
    schema: str,
    kill_after: str = "-",
    command: str = "run",
    select: str | None = None,
    land: tuple[Path, Path] | None = None,
    before: tuple[str, ...] = (),
    after: tuple[str, ...] = (),
) -> list[str]:
    """kill_driver's arguments for one step: `cdc-dbt <command>` of the scenario's landing into
    `schema`, killed after `kill_after` unless `-`. `run` by default: a killed build's tests
    would never run, and the data tests run once, in the final build of the killed schema
    (`command="build"`). A killed run selects only the model it is killed after and that
    model's ancestors (`+model`): the models a full run might take first are not what the kill
    is about, and each costs seconds. `land`: (from, to) folders, the files moved first.
    `select`: the models of a step not killed, when not all.
    `before` and `after`: SQL statements run in the same process before and after dbt."""
    dbt_vars = {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "parquet",
        "qlik_ct_schema": RAW,
        "cdc_tables": PROJECT_TABLES,
        "history_bucket_length": 12,
    }
    args = ["--schema", schema]
    if land is not None:
        args += ["--land", str(land[0]), str(land[1])]
    args += [arg for s in before for arg in ("--before", s)]
    args += [arg for s in after for arg in ("--after", s)]
    args += ["--kill-after", kill_after, command, "--exclude", "test_type:unit"]
    args += ["--vars", json.dumps(dbt_vars)]
    if kill_after != "-":
        args += ["--select", "+" + kill_after.rsplit(".", 1)[-1]]
    elif select is not None:
        args += ["--select", select]
    return args


def process(local_dir: Path, *steps: list[str]) -> dict[str, list[list[list[str]]]]:
    """One kill_driver process running the steps in order (killed if the last names a model).
    Returns the rows its statements printed: {"before": [...], "after": [...]}, one entry per
    step that had such statements, in order."""
    wait_for_metastore(local_dir)
    args = list(steps[0])
    for later in steps[1:]:
        args += ["--then", *later]
    last = steps[-1]
    kill_after = last[last.index("--kill-after") + 1]
    result = subprocess.run(
        [sys.executable, str(DRIVER), *args],
        cwd=SAMPLES_DIR,
        env=environment(local_dir),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if kill_after == "-":
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    else:
        assert result.returncode == -9, (
            f"expected a kill after {kill_after}: " + result.stdout[-3000:] + result.stderr[-2000:]
        )
    printed: dict[str, list[list[list[str]]]] = {"before": [], "after": []}
    for line in result.stdout.splitlines():
        group, _, rows = line.partition(" ")
        if group in printed and rows.startswith("["):
            printed[group].append(json.loads(rows))
    return printed


@pytest.fixture(scope="module")
def scenario(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[list[str], list[str]]]:
    """Every compared relation and point in time: (killed, clean) rows as JSON texts."""
    local_dir = tmp_path_factory.mktemp("kill_local")
    root = tmp_path_factory.mktemp("kill_landing")
    sim = simulate(160, keys=24, seed=20241124, tables=TABLES)
    changes = sim.changes
    first, second, third = changes[:80], changes[80:130], changes[130:]
    write_parquet(root, emit(first, TABLES), sim.baseline, tables=TABLES, files=2, seed=1)
    # the second batch is written now (its part files numbered after the first's) and held
    # aside; the first process lands it after its first build, then is killed
    pending = tmp_path_factory.mktemp("kill_pending")
    written = write_parquet(
        root, emit(second, TABLES), tables=TABLES, files=2, shuffle=True, seed=2
    )
    for path in (path for paths in written.values() for path in paths):
        held = pending / path.relative_to(root)
        held.parent.mkdir(parents=True, exist_ok=True)
        path.rename(held)
    first_kill, *later_kills = BOUNDARIES
    process(
        local_dir,
        step(root, KILLED),
        step(root, KILLED, kill_after=first_kill, land=(pending, root)),
    )
    assert not any(path.is_file() for path in pending.rglob("*")), "the second batch never landed"
    for boundary in later_kills:
        process(local_dir, step(root, KILLED, kill_after=boundary))

    # a history overwrite that died half-way: its write began, one bucket is gone
    history = f"{KILLED}.dim_order_lines_history"
    table_dir = local_dir / "warehouse" / f"{KILLED}.db" / "dim_order_lines_history"
    assert table_dir.is_dir(), f"no managed table folder {table_dir}"
    closed = sorted(
        bucket
        for bucket in table_dir.glob("valid_to_bucket=*")
        if bucket.name != "valid_to_bucket=current"
    )
    assert closed, "the history has no closed bucket to lose; change the seed"
    for path in closed[0].iterdir():
        path.unlink()
    # a staging append that died half-way: the third batch's file is staged (a run of the
    # staging model alone, first in the final process: stopped or killed after that model,
    # the state is the same, as the project has no on-run-end hook), then half of its rows
    # are taken out again and the write is marked as begun and never finished, with the mark
    # it would have recorded (the newest loaded_at before it). One process sets up both
    # half-done writes (the history's only needs its property, read at its next write); a
    # SQL variable carries the mark into the table properties.
    assert "on-run-end" not in (PROJECT_DIR / "dbt_project.yml").read_text(), (
        "an on-run-end hook: stage the third batch in a run killed after its staging model"
    )
    staged = f"{KILLED}.stg_qlik_ct__order_lines"
    write_parquet(root, emit(third, TABLES), tables=TABLES, files=1, seed=3)
    set_properties = (
        f"alter table {staged} set tblproperties ('cdc.write' = 'started', "
        "'cdc.write.mark_column' = 'loaded_at', 'cdc.write.mark' = '"
    ).replace("'", "''")
    # run first in the process of the killed schema's final build
    setup = (
        f"alter table {history} set tblproperties ('cdc.write' = 'started')",
        "declare or replace variable mark string",
        f"set var mark = (select cast(max(loaded_at) as string) from {staged}"
        f" where loaded_at < (select max(loaded_at) from {staged}))",
        f"select count(*) as staged from {staged} where loaded_at > cast(mark as timestamp)",
        f"create table {KILLED}.half using parquet as select * from {staged} "
        "where loaded_at <= cast(mark as timestamp) or xxhash64(raw_key) % 2 = 0",
        f"insert overwrite table {staged} select * from {KILLED}.half",
        f"drop table {KILLED}.half",
        f"execute immediate '{set_properties}' || mark || ''')'",
        # the Java options reached the session (interpreted.py)
        "set spark.sql.codegen.wholeStage",
    )
    # then, in the same process, the clean build of the same files and every comparison
    compared = comparisons(sim)
    statements = tuple(
        sql_dump(query.format(schema=schema))
        for query in compared.values()
        for schema in (KILLED, CLEAN)
    )
    printed = process(
        local_dir,
        step(root, KILLED, select="stg_qlik_ct__order_lines"),
        step(root, KILLED, command="build", before=setup),
        step(root, CLEAN, after=statements),
    )
    _, _, _, [newer], *_, [codegen] = printed["before"][0]
    assert json.loads(codegen)["value"] == "false", codegen
    assert json.loads(newer)["staged"] > 0, "the killed run staged nothing of the third batch"
    [results] = printed["after"]
    return {
        name: (results[2 * position], results[2 * position + 1])
        for position, name in enumerate(compared)
    }


def queries() -> dict[str, str]:
    found = {}
    for table in ("employees", "order_lines"):
        for template, select in COMPARED.items():
            name = template.format(t=table)
            found[name] = f"{select} from {{schema}}.{name}"
    for name, select in LOG.items():
        found[name] = f"{select} from {{schema}}.{name}"
    return found


def comparisons(sim: Any) -> dict[str, str]:
    """Every compared relation and point in time, by name: a query of `{schema}`."""
    compared = dict(queries())
    points = [change.change_seq for change in sim.changes[::40]] + ["latest"]
    for point in points:
        for table in ("employees", "order_lines"):
            compared[f"{table}_as_of('{point}')"] = (
                f"select * from {{schema}}.{table}_as_of('{point}')"
            )
    return compared


def test_rerun_after_kills_equals_a_clean_build(
    scenario: dict[str, tuple[list[str], list[str]]],
) -> None:
    dumps = scenario
    differing = [name for name, (killed, clean) in dumps.items() if killed != clean]
    # the simulated changes are all valid: only the quarantine may be empty
    empty = [
        name
        for name, (_, clean) in dumps.items()
        if not clean and name != "fct_cdc_quarantine" and "as_of" not in name
    ]
    assert not empty, f"empty in the clean build: {empty}"
    assert not differing, f"the rerun after the kills differs from a clean build: {differing}"
