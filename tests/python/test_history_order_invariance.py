"""Order invariance, for every history option (docs/history-options.md): the same changes
landed in one batch, or spread over several batches in random order with a run after each,
give the same history, row for row.

The changes come from the simulator (inserts, updates of random column subsets, NULLs,
deletes, delete and re-insert, key updates, multi-change transactions) over the employees
table. Every option set of OPTIONS gets two tables fed the same change-table rows: `<set>_one`
all in batch 1, `<set>_many` each change-table row in a randomly drawn batch (an update's B
and U rows each their own draw), rows shuffled within and over files. So changes arrive
late, in any order, after changes that follow them, and an update's before-image lands
before it (quarantined as an orphan until the update lands), with it or after it (the
update's images and its change-log row gain it then); every run folds what it finds. After
the last run both tables' dim_<table>_history and dim_<table>_current must be equal (the
load time column aside), and so must their rows of the Qlik change log (the log rewrites
the buckets of the rows each run stages, `int_qlik_ct__changes_logged`), with no
before-image left in quarantine; and the `<set>_one` tables must differ from one another
wherever their options say they should (else the options would not have been exercised).

Bitemporal history (docs/history-options.md, "Bitemporal history") on two option sets: business-time
answers must not depend on batching, system-time answers must follow the batches. So after every run
the fixture keeps what dim_<table>_history and `<table>_as_of(point)` said then, with the run's load
time K_i; at the end, for both arrivals, the versions dim_<table>_history_bitemporal holds as known
at K_i must be that run's history, row for row, and `<table>_as_of(point, K_i)` that run's answers
(for the set whose versions are its states); the versions known now must be equal between the two
arrivals.

Property-based over the simulator's seeds: each run draws a seed (or takes CDC_ORDER_SEED),
and every assertion names it, so a failure is reproduced with that seed. A drawn seed is kept
only if its changes can exercise every option (an update of nothing but `notes`, which the
tracking options absorb; an update that sets `manager_id` or `notes` to NULL, which the NULL
options ignore): about one seed in seven lacks one of them (15 of seeds 0 to 99), and the
check that the options were exercised would fail on it. It must also leave live rows (the
current states are compared, and counted against the simulator's final state). The scenario is one
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
from cdc_simulator.qlik_ct import CtRow, emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, simulate

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "history_order"
BATCHES = 3
CHANGES, KEYS = 120, 14


def can_exercise_the_options(seed: int) -> bool:
    """The seed's changes hold an update of `notes` alone and an update that sets
    `manager_id` or `notes` to NULL (see the module docstring), and leave live rows (a seed
    whose last TRUNCATE or deletes empty the table would compare two empty current states)."""
    names = [column.name for column in EMPLOYEES.columns]
    notes_only = nulled = False
    sim = simulate(CHANGES, keys=KEYS, seed=seed, tables=(EMPLOYEES,))
    if not sim.final["employees"]:
        return False
    for change in sim.changes:
        if change.op != "U" or change.before is None or change.after is None:
            continue
        old, new = (
            dict(zip(names, change.before, strict=True)),
            dict(zip(names, change.after, strict=True)),
        )
        notes_only |= {name for name in names if old[name] != new[name]} <= {"notes"}
        nulled |= any(
            new[name] is None and old[name] is not None for name in ("manager_id", "notes")
        )
    return notes_only and nulled


def draw_seed() -> int:
    draw = random.SystemRandom()
    while not can_exercise_the_options(seed := draw.randrange(1_000_000)):
        pass
    return seed


SEED = int(os.environ.get("CDC_ORDER_SEED") or draw_seed())
# suppress_duplicate_updates alone is not here: the simulator writes no update that changes
# nothing (Replicate does not either), so alone it would equal no option; it is in oi_all and
# in test_history_options.py. No-option histories are proven by the proof tests. Six tables:
# the embedded Derby metastore stores a view's text in 32,700 characters, and the Qlik union
# views take about 3,900 a table (docs/cdc-dbt.md, "Embedded Derby and view text").
OPTIONS: dict[str, dict[str, Any]] = {
    "oi_track": {"track_history_except_columns": ["notes"]},
    "oi_nulls": {"ignore_null_updates": ["manager_id", "notes"], "bitemporal": True},
    "oi_all": {
        "track_history_columns": ["employee_id", "first_name", "salary", "manager_id"],
        "ignore_null_updates": True,
        "suppress_duplicate_updates": True,
        "bitemporal": True,
    },
}
BITEMPORAL = [
    f"{name}_{arrival}"
    for name, options in sorted(OPTIONS.items())
    if options.get("bitemporal")
    for arrival in ("one", "many")
]
# the history's columns, as dim_<table>_history_bitemporal has them too
HISTORY_COLUMNS = "* except (valid_to_bucket)"
KNOWN_COLUMNS = "* except (known_from, known_to, is_known_now, version_hash)"
TABLES = {
    f"{name}_{arrival}": {"source_system": "qlik_ct", "key_columns": ["employee_id"], **options}
    for name, options in OPTIONS.items()
    for arrival in ("one", "many")
}
SPECS = [replace(EMPLOYEES, name=name) for name in TABLES]


def batches_of(rows: list[CtRow], rng: random.Random) -> list[list[CtRow]]:
    """Each change-table row in a randomly drawn batch (the baseline lands with batch 1)."""
    batches: list[list[CtRow]] = [[] for _ in range(BATCHES)]
    for row in rows:
        batches[rng.randrange(BATCHES)].append(row)
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


def rows_of(spark: Any, query: str) -> list[tuple[object, ...]]:
    """A query's rows as tuples, in a stable order (NULLs included)."""
    return sorted((tuple(row) for row in spark.sql(query).collect()), key=repr)


def points_of(sim: Any) -> list[str]:
    """Four points spread over the changes (just after the first change, a quarter, half and
    three quarters of them) that fall between the same changes in every table: the
    renumbered change_seq of the change (`renumbered`) with the table's digits 99."""
    changes = sorted(change.change_seq for change in sim.changes)
    chosen = [changes[int(len(changes) * share)] for share in (0.0, 0.25, 0.5, 0.75)]
    return [f"{seq[:16]}{int(seq[16:]):017d}99" for seq in chosen]


def said_then(spark: Any, table: str, points: list[str]) -> dict[str, Any]:
    """What the warehouse says of a bitemporal table right after a run: its load time, its
    history, and its as_of at each point."""
    return {
        "known_at": spark.sql(
            f"select cast(max(loaded_at) as string) from {SCHEMA}.int_{table}__change_images"
        ).first()[0],
        "history": rows_of(spark, f"select {HISTORY_COLUMNS} from {SCHEMA}.dim_{table}_history"),
        "as_of": {
            point: rows_of(
                spark, f"select * except (previous_image) from {SCHEMA}.{table}_as_of('{point}')"
            )
            for point in points
        },
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> dict[str, Any]:
    """The three runs of both arrivals; a run that fails names the seed too."""
    try:
        return runs_of_both_arrivals(tmp_path_factory, spark, run_dbt)
    except Exception as error:
        raise AssertionError(f"seed {SEED} (CDC_ORDER_SEED): the runs failed: {error}") from error


def runs_of_both_arrivals(
    tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any
) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("history_order")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    sim = simulate(CHANGES, keys=KEYS, seed=SEED, tables=(EMPLOYEES,))
    rng = random.Random(SEED)
    every_row = emit(sim.changes, (EMPLOYEES,))["employees"]
    spread = batches_of(every_row, rng)
    points = points_of(sim)
    said: dict[str, list[dict[str, Any]]] = {}
    for index in range(BATCHES):
        rows: dict[str, list[Any]] = {}
        for name in TABLES:
            if name.endswith("_one"):
                chosen = every_row if index == 0 else []
            else:
                chosen = spread[index]
            rows[name] = renumbered(chosen, name)
        baseline = {name: sim.baseline["employees"] for name in TABLES} if index == 0 else None
        write_parquet(root, rows, baseline, tables=SPECS, files=2, shuffle=True, seed=SEED + index)
        run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root), project_dir=project)
        for table in BITEMPORAL:
            said.setdefault(table, []).append(said_then(spark, table, points))
    return {"sim": sim, "spread": [len(batch) for batch in spread], "said": said}


@pytest.mark.parametrize("option_set", sorted(OPTIONS))
@pytest.mark.parametrize("model", ["history", "current"])
def test_one_batch_and_shuffled_batches_give_the_same_history(
    built: dict[str, Any], spark: Any, option_set: str, model: str
) -> None:
    one = compared(f"dim_{option_set}_one_{model}")
    many = compared(f"dim_{option_set}_many_{model}")
    rows = spark.sql(one).count()
    if model == "current":
        live = len(built["sim"].final["employees"])
        assert rows == live, f"seed {SEED} (CDC_ORDER_SEED): {rows} current rows, {live} live"
    else:
        assert rows > 0, f"seed {SEED} (CDC_ORDER_SEED): an empty history"
    assert difference(spark, one, many) == [], (
        f"seed {SEED} (CDC_ORDER_SEED), changes per batch {built['spread']}: "
        f"dim_{option_set}_one_{model} and dim_{option_set}_many_{model} differ"
    )


# each row as JSON text (maps cannot be compared by `except all`)
LOGGED = (
    "select to_json(struct(*)) as row_json from (select * except (change_id, source_table,"
    " source_table_norm, order_key, raw_key, raw_source, loaded_at, log_bucket),"
    " substr(order_key, 1, 33) as order_key"
    " from {schema}.int_qlik_ct__changes_logged where source_table = '{table}')"
)


@pytest.mark.parametrize("option_set", sorted(OPTIONS))
def test_one_batch_and_shuffled_batches_give_the_same_change_log(
    built: dict[str, Any], spark: Any, option_set: str
) -> None:
    """The log holds every change once with its before-image, however the rows arrived: a
    before-image landed after its update was paired in the run that staged it (that run
    rewrote the update's bucket of the log). The change id, the table's names, the raw key
    and the load time aside (they name the table or its change numbers), and the order key
    without the table's digits."""
    one = LOGGED.format(schema=SCHEMA, table=f"{option_set}_one")
    many = LOGGED.format(schema=SCHEMA, table=f"{option_set}_many")
    assert spark.sql(one).count() > 0, f"seed {SEED} (CDC_ORDER_SEED): an empty change log"
    assert difference(spark, one, many) == [], (
        f"seed {SEED} (CDC_ORDER_SEED), rows per batch {built['spread']}: the change log of "
        f"{option_set}_one and {option_set}_many differ"
    )
    orphans = spark.sql(
        f"select count(*) from {SCHEMA}.fct_cdc_quarantine"
        f" where landed_table like '%{option_set}_many%'"
    ).first()[0]
    assert orphans == 0, f"seed {SEED}: {option_set}_many keeps {orphans} rows in quarantine"


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


@pytest.mark.parametrize("table", BITEMPORAL)
def test_the_bitemporal_history_known_at_each_run_is_that_runs_history(
    built: dict[str, Any], spark: Any, table: str
) -> None:
    """System time follows the batches: the versions known at run i's load time are the
    history as run i left it, and as_of(point, K_i) answers as as_of(point) did then (for
    oi_nulls, whose versions are its states; oi_all's versions absorb later states)."""
    for index, then in enumerate(built["said"][table]):
        known_at = then["known_at"]
        known = rows_of(
            spark,
            f"select {KNOWN_COLUMNS} from {SCHEMA}.dim_{table}_history_bitemporal"
            f" where known_from <= timestamp '{known_at}'"
            f" and (known_to is null or known_to > timestamp '{known_at}')",
        )
        message = f"seed {SEED} (CDC_ORDER_SEED), {table} after run {index + 1} ({known_at})"
        assert known == then["history"], message
        if table.startswith("oi_nulls"):
            for point, rows in then["as_of"].items():
                answered = rows_of(
                    spark,
                    f"select * except (previous_image)"
                    f" from {SCHEMA}.{table}_as_of('{point}', '{known_at}')",
                )
                assert answered == rows, f"{message}, as_of('{point}', known_at)"


@pytest.mark.parametrize("option_set", sorted({name.rsplit("_", 1)[0] for name in BITEMPORAL}))
def test_business_time_known_now_does_not_depend_on_batching(
    built: dict[str, Any], spark: Any, option_set: str
) -> None:
    """The versions known now are equal for one batch and shuffled batches (the load time,
    change ids and the table's digits of the order keys aside, as for the histories)."""
    one, many = (
        compared(f"dim_{option_set}_{arrival}_history_bitemporal").replace(
            "select * except (", "select * except (known_from, known_to, version_hash, "
        )
        + " where is_known_now"
        for arrival in ("one", "many")
    )
    assert spark.sql(one).count() > 0, f"seed {SEED} (CDC_ORDER_SEED): nothing known now"
    assert difference(spark, one, many) == [], f"seed {SEED} (CDC_ORDER_SEED): {option_set}"
