"""GoldenGate's trail models written by trail file (issue 25): a run that stages the trail's
next records rewrites the reassembled, sequenced and judged records from the first trail file
those records can change, keeps the files before it, and ends with the tables a whole build
gives.

The trail is `cdc_simulator.goldengate`'s for the proof's tables (chunk chains, B-then-A
pairs, multi-record transactions, a file rollover every 80 records), landed in three batches
cut in trail order: the first ends inside a transaction that began in the file before the
second batch's first record (so the second run must go back a file), the second ends inside a
chunk chain (so the third must go back to where the chain's transaction began). After each
run the first rewritten file is read from the compiled model and compared with the one worked
out here from the records alone (the nearest file at or before the batch's first record
whose previous record is not a chunk to be continued and closes its transaction); after the
third run the files before it are checked untouched (their Parquet files the same), and the
four tables (reassembled, sequenced, judged and the change log) are compared row for row with a full
refresh of them. The trail staging of each later run reads only the files not staged yet: its
compiled filter names exactly the files (path and modification time) the table held before the
run, and the records it stages come from the new batch's file alone.

Time budget: about 2 minutes (three dbt runs of the GoldenGate models and a full refresh of
four of them, in a project copy with the proof's four tables).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from test_goldengate_proof import OPTIONS, SEED, TABLES, dbt_vars

from cdc_simulator.goldengate import (
    Producer,
    TrailRecord,
    message_table,
    trail_table,
    write_landing,
)
from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.table_model import simulate

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "goldengate_increments"
CHANGES = 360
MODELS = (
    "int_goldengate__trail_chunks_reassembled",
    "int_goldengate__trail_records_sequenced",
    "int_goldengate__changes_judged",
    "int_goldengate__changes_logged",
)
PARTITIONED = MODELS
SKEWED = 3  # the record whose IO time is a day late: a whole change, in the first file


def trail() -> list[TrailRecord]:
    """The trail in order, one early record's IO time a day late (a clock that jumped): the
    change log's effective_at, a running maximum, holds that time from there on, in the
    rewritten files too, so the carry from the files kept is needed."""
    sim = simulate(CHANGES, keys=40, seed=SEED, tables=TABLES)
    producer = Producer(sim, OPTIONS, seed=SEED)
    records = sorted(
        (record for unit in producer.units for record in unit.records),
        key=lambda record: record.position,
    )
    records[SKEWED] = replace(records[SKEWED], io_time=records[SKEWED].io_time + timedelta(days=1))
    return records


def closes(record: TrailRecord) -> bool:
    return record.continued != "Y" and record.trans_ind in (2, 3)


def batch_cuts(records: list[TrailRecord]) -> tuple[int, int]:
    """Where the second and third batches begin (indexes into the trail)."""
    first_file = records[0].seqno
    second = next(
        index
        for index in range(1, len(records))
        if records[index].seqno > first_file + 1
        and records[index].seqno != records[index - 1].seqno
        and not closes(records[index - 1])
        and records[index - 1].trans_ind != 3
    )
    third = next(
        index
        for index in range(second + 1, len(records))
        if records[index].seqno > records[second].seqno + 1 and records[index - 1].continued == "Y"
    )
    return second, third


def first_file_to_write(records: list[TrailRecord], start: int) -> int:
    """The file a run rewrites from when records[start:] are new: the nearest file at or before
    the first new record's whose previous record ends a whole chain and its transaction."""
    candidates = [
        record.seqno
        for index, record in enumerate(records[: start + 1])
        if index == 0 or (record.seqno != records[index - 1].seqno and closes(records[index - 1]))
    ]
    return max(seqno for seqno in candidates if seqno <= records[start].seqno)


STAGING = "stg_goldengate__trail_records"


def compiled_code(result: Any, model: str) -> str:
    """The SQL the run compiled for the model (it must have run)."""
    for run_result in result.result.results:
        if run_result.node.name == model:
            return str(run_result.node.compiled_code or "")
    raise AssertionError(f"{model} did not run")


def compiled_start(result: Any, model: str) -> int | None:
    """The first trail file the run's compiled model rewrote (None: whole)."""
    found = re.search(r"trail_seqno >= (\d+)", compiled_code(result, model))
    return int(found.group(1)) if found else None


def files_skipped(code: str) -> set[str] | None:
    """The files (path@modification time) the staging's compiled filter leaves unread
    (cdc_files_not_staged), None when it reads every file."""
    found = re.search(r"file_modification_time as string\)\) not in \(([^)]*)\)", code)
    if found is None:
        return None
    return {text.replace("''", "'") for text in re.findall(r"'((?:[^']|'')*)'", found.group(1))}


def staged_files(spark: Any) -> set[str]:
    """The files the trail staging holds records of, as cdc_files_not_staged lists them."""
    return {
        row[0]
        for row in spark.sql(
            "select distinct concat(landed_file, '@', cast(landed_file_modified_at as string))"
            f" from {SCHEMA}.{STAGING} where landed_file is not null"
        ).collect()
    }


def partition_files(spark: Any, model: str) -> dict[str, set[str]]:
    """The Parquet files of each trail-file partition of the model's table."""
    location = next(
        row.data_type
        for row in spark.sql(f"describe formatted {SCHEMA}.{model}").collect()
        if row.col_name == "Location"
    )
    root = Path(location.removeprefix("file:"))
    return {
        folder.name: {file.name for file in folder.glob("*.parquet")}
        for folder in root.iterdir()
        if folder.is_dir() and folder.name.startswith("trail_seqno=")
    }


def file_of(partition: str) -> int:
    """The trail file of a partition folder's name (-1: the rows without one)."""
    value = partition.split("=", 1)[1]
    return -1 if value == "__HIVE_DEFAULT_PARTITION__" else int(value)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("goldengate_increments")
    root = work / "landing"
    settings = dbt_vars(root)
    settings["goldengate_schema"] = f"{SCHEMA}_raw"
    project = project_with_tables(work / "project", settings["cdc_tables"])  # type: ignore[arg-type]
    records = trail()
    second, third = batch_cuts(records)
    batches = [records[:second], records[second:third], records[third:]]
    select = ["--select", "+int_goldengate__changes_canonical"]
    starts: list[int | None] = []
    before_third: dict[str, dict[str, set[str]]] = {}
    # per run: the staged files before it, the files its staging left unread, the files of
    # the records it staged
    staging_reads: list[tuple[set[str], set[str] | None, set[str]]] = []
    write_landing(root / "ogg_json_messages", message_table([]), files=1, seed=SEED)
    for number, batch in enumerate(batches, start=1):
        write_landing(
            root / "ogg_trail_records",
            trail_table(batch),
            files=1,
            seed=SEED + number,
            first_file=10 * number,
        )
        if number == 3:
            before_third = {model: partition_files(spark, model) for model in PARTITIONED}
        staged_before = staged_files(spark) if number > 1 else set()
        result = run_dbt(["run", *select], schema=SCHEMA, vars=settings, project_dir=project)
        staging_reads.append(
            (
                staged_before,
                files_skipped(compiled_code(result, STAGING)),
                staged_files(spark) - staged_before,
            )
        )
        starts.append(compiled_start(result, MODELS[0]))
        for model in PARTITIONED[1:]:
            assert compiled_start(result, model) == starts[-1], (model, number)
    after_third = {model: partition_files(spark, model) for model in PARTITIONED}
    for model in MODELS:
        spark.sql(
            f"create table {SCHEMA}.{model}__incremental using parquet as"
            f" select * from {SCHEMA}.{model}"
        )
    run_dbt(
        ["run", "--full-refresh", "--select", *MODELS],
        schema=SCHEMA,
        vars=settings,
        project_dir=project,
    )
    return {
        "spark": spark,
        "records": records,
        "cuts": (second, third),
        "starts": starts,
        "before_third": before_third,
        "after_third": after_third,
        "staging_reads": staging_reads,
    }


def test_the_batches_cut_a_transaction_and_a_chunk_chain(runs: dict[str, Any]) -> None:
    records: list[TrailRecord] = runs["records"]
    second, third = runs["cuts"]
    assert not closes(records[second - 1]) and records[third - 1].continued == "Y"
    # so both later runs must go back before the file of their first record
    assert first_file_to_write(records, second) < records[second].seqno
    assert first_file_to_write(records, third) < records[third].seqno


def test_each_run_rewrites_from_the_first_file_its_records_can_change(
    runs: dict[str, Any],
) -> None:
    records: list[TrailRecord] = runs["records"]
    second, third = runs["cuts"]
    assert runs["starts"] == [
        None,
        first_file_to_write(records, second),
        first_file_to_write(records, third),
    ]


def test_the_files_before_it_are_kept(runs: dict[str, Any]) -> None:
    start = runs["starts"][2]
    for model in PARTITIONED:
        before, after = runs["before_third"][model], runs["after_third"][model]
        kept = {name for name in before if file_of(name) < start}
        rewritten = {name for name in after if file_of(name) >= start}
        assert kept and rewritten, (model, sorted(before))
        for name in kept:
            assert after[name] == before[name], (model, name)
        for name in rewritten & before.keys():
            assert after[name] != before[name], (model, name)


def test_the_staging_reads_only_the_files_not_staged_yet(runs: dict[str, Any]) -> None:
    (_, first_skipped, first_new), *later = runs["staging_reads"]
    # the first run reads the one landed file; each later run skips every file staged before
    # it and stages the records of its own batch's file only
    assert first_skipped is None and len(first_new) == 1, runs["staging_reads"][0]
    assert len(later) == 2
    for number, (staged_before, skipped, new) in enumerate(later, start=2):
        assert skipped == staged_before and len(staged_before) == number - 1, number
        assert len(new) == 1 and not new & staged_before, (number, new)


def test_the_late_clock_carries_into_the_rewritten_files(runs: dict[str, Any]) -> None:
    records: list[TrailRecord] = runs["records"]
    skewed = records[SKEWED]
    assert skewed.continued == "N" and skewed.rec_count == 1
    assert skewed.io_time > max(record.io_time for record in records[SKEWED + 1 :])
    found = (
        runs["spark"]
        .sql(
            "select count(*), min(rewritten.effective_at) = max(rewritten.effective_at),"
            " max(rewritten.effective_at) = max(skewed.op_ts)"
            f" from {SCHEMA}.int_goldengate__changes_logged__incremental as rewritten"
            f" cross join {SCHEMA}.int_goldengate__changes_logged__incremental as skewed"
            f" where rewritten.trail_seqno >= {runs['starts'][2]}"
            f" and skewed.order_key = '{skewed.order_key}'"
        )
        .collect()[0]
    )
    assert found[0] > 0 and found[1] and found[2], found


@pytest.mark.parametrize("model", MODELS)
def test_the_tables_equal_a_whole_build(runs: dict[str, Any], model: str) -> None:
    spark = runs["spark"]
    rows = f"select to_json(struct(*)) as row from {SCHEMA}.{model}"
    kept = f"select to_json(struct(*)) as row from {SCHEMA}.{model}__incremental"
    whole_count = spark.sql(f"select count(*) from {SCHEMA}.{model}").collect()[0][0]
    assert whole_count > 0
    missing = spark.sql(f"{rows} except all {kept}").collect()
    extra = spark.sql(f"{kept} except all {rows}").collect()
    assert not missing and not extra, (missing[:3], extra[:3])
