"""Order invariance, for every history option (README "History options"): the same changes
landed in one batch, or spread over several batches in random order with a run after each,
give the same history, row for row.

The changes come from the simulator (inserts, updates of random column subsets, NULLs,
deletes, delete and re-insert, key updates, multi-change transactions) over the employees
table. Every option set of OPTIONS gets two tables fed the same change-table rows: `<set>_one`
all in batch 1, `<set>_many` each change (its B and U rows together) in a randomly drawn
batch, rows shuffled within and over files. So changes arrive late, in any order, after
changes that follow them; every run folds what it finds. After the last run both tables'
dim_<table>_history and dim_<table>_current must be equal (the load time column aside), and
the `<set>_one` tables must differ from one another wherever their options say they should
(else the options would not have been exercised).

Property-based over the simulator's seeds: each run draws a seed (or takes CDC_ORDER_SEED),
and every assertion names it, so a failure is reproduced with that seed. The scenario is one
project copy and three dbt runs (about as costly as one proof test), so one seed per test run.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, Change, simulate

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "history_order"
BATCHES = 3
SEED = int(os.environ.get("CDC_ORDER_SEED") or random.SystemRandom().randrange(1_000_000))
# suppress_duplicate_updates alone is not here: the simulator writes no update that changes
# nothing (Replicate does not either), so alone it would equal no option; it is in oi_all and
# in test_history_options.py. No-option histories are proven by the proof tests. Six tables:
# the embedded Derby metastore stores a view's text in 32,700 characters, and the Qlik union
# views take about 3,900 a table (README "Known limits").
OPTIONS: dict[str, dict[str, Any]] = {
    "oi_track": {"track_history_except_columns": ["notes"]},
    "oi_nulls": {"ignore_null_updates": ["manager_id", "notes"]},
    "oi_all": {
        "track_history_columns": ["employee_id", "first_name", "salary", "manager_id"],
        "ignore_null_updates": True,
        "suppress_duplicate_updates": True,
    },
}
TABLES = {
    f"{name}_{arrival}": {"source_system": "qlik_ct", "key_columns": ["employee_id"], **options}
    for name, options in OPTIONS.items()
    for arrival in ("one", "many")
}
SPECS = [replace(EMPLOYEES, name=name) for name in TABLES]


def batches_of(changes: list[Change], rng: random.Random) -> list[list[Change]]:
    """Each change in a randomly drawn batch (the baseline lands with batch 1)."""
    batches: list[list[Change]] = [[] for _ in range(BATCHES)]
    for change in changes:
        batches[rng.randrange(BATCHES)].append(change)
    return batches


def renumbered(rows: list[Any], table: str) -> list[Any]:
    """A table's change-table rows with change_seqs of their own: Replicate numbers every
    change of a task once, so two tables never share one. The number becomes number * 100 +
    the table's place in TABLES: order kept, the first 33 characters unchanged."""
    place = list(TABLES).index(table)
    return [(f"{row[0][:16]}{int(row[0][16:]) * 100 + place:019d}", *row[1:]) for row in rows]


def dbt_vars(root: Path) -> dict[str, object]:
    return {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "parquet",
        "cdc_tables": TABLES,
    }


def compared(table: str) -> str:
    """The rows of a history or current state, the change's load time and id aside and the
    order keys without the table's two digits (renumbered)."""
    return (
        "select * except (change_loaded_at, change_id, valid_from_order_key,"
        " valid_to_order_key), substr(valid_from_order_key, 1, 33) as valid_from_order_key,"
        f" substr(valid_to_order_key, 1, 33) as valid_to_order_key from {SCHEMA}.{table}"
    )


def difference(spark: Any, left: str, right: str) -> list[Any]:
    """Rows of one query that the other lacks (as multisets), both ways."""
    return (
        spark.sql(f"({left}) except all ({right})").collect()
        + spark.sql(f"({right}) except all ({left})").collect()
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, run_dbt: Any) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("history_order")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    sim = simulate(120, keys=14, seed=SEED, tables=(EMPLOYEES,))
    rng = random.Random(SEED)
    spread = batches_of(sim.changes, rng)
    for index in range(BATCHES):
        rows: dict[str, list[Any]] = {}
        for name in TABLES:
            if name.endswith("_one"):
                chosen = sim.changes if index == 0 else []
            else:
                chosen = spread[index]
            rows[name] = renumbered(emit(chosen, (EMPLOYEES,))["employees"], name)
        baseline = {name: sim.baseline["employees"] for name in TABLES} if index == 0 else None
        write_parquet(root, rows, baseline, tables=SPECS, files=2, shuffle=True, seed=SEED + index)
        run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root), project_dir=project)
    return {"sim": sim, "spread": [len(batch) for batch in spread]}


@pytest.mark.parametrize("option_set", sorted(OPTIONS))
@pytest.mark.parametrize("model", ["history", "current"])
def test_one_batch_and_shuffled_batches_give_the_same_history(
    built: dict[str, Any], spark: Any, option_set: str, model: str
) -> None:
    one = compared(f"dim_{option_set}_one_{model}")
    many = compared(f"dim_{option_set}_many_{model}")
    rows = spark.sql(one).count()
    assert rows > 0
    assert difference(spark, one, many) == [], (
        f"seed {SEED} (CDC_ORDER_SEED), changes per batch {built['spread']}: "
        f"dim_{option_set}_one_{model} and dim_{option_set}_many_{model} differ"
    )


def test_the_options_were_exercised(built: dict[str, Any], spark: Any) -> None:
    """Each option changed this seed's history (changes no option touches would prove
    nothing): with tracking, some live image opened no version (absorbed in place); with
    ignored NULL updates, some version holds another value than its opening image."""
    absorbed = """
        select count(*) from {schema}.int_{table}__change_images as images
        left anti join {schema}.dim_{table}_history as history
            on history.pk_string = images.pk_string
            and history.valid_from_order_key = images.order_key
        where images.row_exists and not images.is_before_image
    """
    counts = {
        table: spark.sql(absorbed.format(schema=SCHEMA, table=f"{table}_one")).first()[0]
        for table in OPTIONS
    }
    message = f"seed {SEED}: live images that opened no version {counts}"
    assert counts["oi_track"] > 0, message
    assert counts["oi_all"] >= counts["oi_track"], message
    assert counts["oi_nulls"] == 0, message
    coalesced = spark.sql(
        f"""
        select count(*) from {SCHEMA}.int_oi_nulls_one__change_images as images
        inner join {SCHEMA}.dim_oi_nulls_one_history as history
            on history.pk_string = images.pk_string
            and history.valid_from_order_key = images.order_key
        where images.image_oper = 'U'
            and not (images.notes <=> history.notes
                and images.manager_id <=> history.manager_id)
        """
    ).first()[0]
    assert coalesced > 0, f"seed {SEED}: no NULL update was ignored"
