"""End-to-end proof for Oracle GoldenGate: simulated trail records and Big Data JSON messages in,
`dbt build`, point-in-time state out (spec E).

The truth is `cdc_simulator`: the seeded table model, written by `cdc_simulator.goldengate` as
Extract writes a trail (inserts, FieldComp and full updates, before images paired with their
after images, key updates as unified 135, GGSPKUpdate 115 and B-then-A records, key-only and
full deletes, long strings in chunk chains, TransInd from the model's transactions, files
rolling over) and as the Big Data JSON formatter writes messages (compressed after images, some
columns flagged `_isMissing`, whole or partial before images, three partitions). Tables: the
project's ogg_order (trail, widened, hostile text), ogg_document (trail: a long body that
arrives in chunks, a date, a timestamp, binary) and ogg_order_json (ogg_order's changes as
JSON messages), with simulated columns.

* batch 1: the records of the first changes WITHOUT a few late ones (each the first or last
  change of its transaction, or a transaction of its own), one chunk chain without its last
  chunk, rows landed twice (exact copies), JSON messages produced twice (new offsets and
  current_ts);
* batch 2: the remaining changes, the late ones, the missing chunk, and copies of batch-1
  records and messages.

After batch 1 `<table>_as_of('latest')` equals the model without the late changes (trail: also
without the held chain's change), the held chain is quarantined as held, and the transactions
flagged `transaction_incomplete` are exactly those a late change or the held chain leaves
open. After batch 2 `<table>_as_of(point)` equals the model at many trail positions (inside a
transaction, after a delete, a late change, key updates, a re-insert, a chunked change, a
B-then-A pair) and at times; `dim_<table>_current` the final state; nothing is quarantined, no
transaction is incomplete, and each change is logged once. Two dbt builds in all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from proof_points import Point, expectations_at, reinsert_positions, time_points
from state_check import check, check_all

from cdc_simulator.goldengate import (
    FIELD_COMP,
    Message,
    Options,
    Producer,
    TrailRecord,
    Unit,
    message_table,
    trail_table,
    write_landing,
)
from cdc_simulator.table_model import (
    Change,
    ColumnSpec,
    Key,
    Simulation,
    State,
    TableSpec,
    replay,
    simulate,
    widened,
)

SEED = 20240304
CHANGES = 320
KEYS = 40
SCHEMA = "goldengate_proof"
BATCH_1_SHARE = 0.6
LATE = 4
ORDER = TableSpec(
    name="ogg_order",
    columns=(
        ColumnSpec("order_id", "int32"),
        ColumnSpec("status", "string", hostile=True),
        ColumnSpec("amount", "decimal(10,2)", nullable=True),
    ),
    key_columns=("order_id",),
)
DOCUMENT = TableSpec(
    name="ogg_document",
    columns=(
        ColumnSpec("doc_id", "int32"),
        ColumnSpec("lang", "string", width=3),
        ColumnSpec("title", "string", nullable=True),
        ColumnSpec("body", "string", nullable=True, width=150),
        ColumnSpec("due_on", "date", nullable=True),
        ColumnSpec("edited_at", "timestamp", nullable=True),
        ColumnSpec("attachment", "binary", nullable=True),
    ),
    key_columns=("lang", "doc_id"),
)
TABLES = (*widened((ORDER,), 3, 5), DOCUMENT)
OPTIONS = Options(source_schema="SALES", chunk_size=60, records_per_file=80, topic="ogg_orders")
JSON_TABLE = "ogg_order_json"


def dbt_vars(root: Path) -> dict[str, object]:
    tables: dict[str, object] = {}
    for spec in TABLES:
        tables[spec.name] = {
            "source_system": "goldengate",
            "source_schema": OPTIONS.source_schema,
            "source_table_name": OPTIONS.table_name(spec),
            "key_columns": list(spec.key_columns),
            "columns": {column.name: {"type": column.spark_type} for column in spec.columns},
        }
    tables[JSON_TABLE] = {**tables[ORDER.name], "form": "json"}  # type: ignore[dict-item]
    return {
        "cdc_tables": tables,
        "goldengate_landing": "files",
        "goldengate_landing_root": str(root),
        "goldengate_landing_format": "parquet",
        "goldengate_schema": "goldengate_proof_raw",
        "goldengate_trail_name": "pt",
        "goldengate_json_name": "ogg_orders",
    }


@dataclass
class Scenario:
    sim: Simulation
    producer: Producer
    trail_1: list[TrailRecord]
    trail_2: list[TrailRecord]
    json_1: list[Message]
    json_2: list[Message]
    trail_after_1: State
    json_after_1: State
    open_after_1: set[str]
    points: list[Point] = field(default_factory=list)


def touched(change: Change, spec: TableSpec) -> set[Key]:
    return {key for key in (change.key_before(spec), change.key_after(spec)) if key is not None}


def holdable(sim: Simulation, units: list[Unit], index: int) -> bool:
    """A change that can arrive late and leave batch 1 unambiguous: not a key update, no later
    batch-1 change touches its keys, and it is the first or last change of its transaction
    (a missing middle record cannot be told from the headers: spec E.3)."""
    change = units[index].change
    if change is None:
        return False
    spec = sim.spec(change.table)
    if change.is_key_update(spec):
        return False
    keys = touched(change, spec)
    for other in units[index + 1 :]:
        if (
            other.change
            and other.change.table == change.table
            and touched(other.change, spec) & keys
        ):
            return False
    transaction = [
        u for u in units if u.change and u.change.transaction_id == change.transaction_id
    ]
    return units[index] in (transaction[0], transaction[-1])


def build_scenario() -> Scenario:
    sim = simulate(CHANGES, keys=KEYS, seed=SEED, tables=TABLES)
    rng = random.Random(SEED)
    producer = Producer(sim, OPTIONS, seed=SEED)
    units = producer.units
    cut, delivered = 0, 0
    for index, unit in enumerate(units):
        if unit.change is None:
            continue
        last = (
            index + 1 == len(units)
            or units[index + 1].change is None
            or (
                units[index + 1].change.transaction_id != unit.change.transaction_id  # type: ignore[union-attr]
            )
        )
        delivered += 1
        if last and delivered >= BATCH_1_SHARE * len(sim.changes):
            cut = index + 1
            break
    batch_1_units = units[:cut]
    candidates = [
        i for i in range(len(batch_1_units) // 2, cut - 1) if holdable(sim, batch_1_units, i)
    ]
    place = {t[0].transaction_id: n for n, t in enumerate(sim.transactions())}

    def apart(index: int, chosen: list[int]) -> bool:
        """Two held-back changes never sit in the same or neighbouring transactions: a gap
        of two transactions' ends would look like one complete transaction."""
        mine = place[units[index].change.transaction_id]  # type: ignore[union-attr]
        return all(
            abs(mine - place[units[other].change.transaction_id]) > 1  # type: ignore[union-attr]
            for other in chosen
        )

    chained = [i for i in candidates if any(r.continued == "Y" for r in units[i].records)]
    assert chained, "no chunk chain can be held; change SEED"
    held = rng.choice(chained)
    late: list[int] = []
    for index in rng.sample(candidates, len(candidates)):
        if len(late) < LATE and apart(index, [held, *late]):
            late.append(index)
    assert len(late) == LATE, "not enough changes to hold back; change SEED"
    late.sort()
    late_units = [units[i] for i in late]
    held_unit = units[held]
    held_last = [r for r in held_unit.records if r.continued == "N"][-1]

    trail_1 = [
        record
        for i, unit in enumerate(batch_1_units)
        if i not in late
        for record in unit.records
        if record is not held_last
    ]
    trail_2 = [
        *(record for unit in units[cut:] for record in unit.records),
        *(record for unit in late_units for record in unit.records),
        held_last,
        *rng.sample(trail_1, 8),
    ]
    orders_name = OPTIONS.table_name(ORDER)
    order_units = {id(u) for u in units if u.records[0].table_name == orders_name}
    late_ids = {id(u) for u in late_units}
    json_1 = [
        u.message
        for u in batch_1_units
        if id(u) in order_units and id(u) not in late_ids and u.message
    ]
    json_1 += [producer.redeliver(m) for m in rng.sample(json_1, 5)]
    json_2 = [
        *(u.message for u in units[cut:] if id(u) in order_units and u.message),
        *(u.message for u in late_units if id(u) in order_units and u.message),
        *(producer.redeliver(m) for m in rng.sample(json_1, 6)),
    ]
    late_seqs = {u.change.change_seq for u in late_units if u.change}
    batch_1_changes = [u.change for u in batch_1_units if u.change]
    trail_model = [
        c for c in batch_1_changes if c.change_seq not in late_seqs and c is not held_unit.change
    ]
    json_model = [c for c in batch_1_changes if c.change_seq not in late_seqs]
    sizes: dict[str, int] = {}
    for change in sim.changes:
        sizes[change.transaction_id] = sizes.get(change.transaction_id, 0) + 1
    open_after_1 = {
        u.change.transaction_id
        for u in [*late_units, held_unit]
        if u.change and sizes[u.change.transaction_id] > 1
    }
    scenario = Scenario(
        sim=sim,
        producer=producer,
        trail_1=trail_1,
        trail_2=trail_2,
        json_1=json_1,
        json_2=json_2,
        trail_after_1=replay(sim.tables, sim.baseline, trail_model),
        json_after_1=replay(sim.tables, sim.baseline, json_model),
        open_after_1=open_after_1,
    )
    scenario.points = choose_points(sim, producer, late_units)
    return scenario


def choose_points(sim: Simulation, producer: Producer, late: list[Unit]) -> list[Point]:
    """Trail positions and times that probe the hard cases, with the model's state at each."""
    units = [unit for unit in producer.units if unit.change is not None]
    transactions = sim.transactions()
    inside = {t[len(t) // 2 - 1].change_seq for t in transactions if len(t) >= 3}
    picked: list[tuple[str, list[Unit]]] = [
        ("inside a multi-change transaction", [u for u in units if u.change.change_seq in inside]),  # type: ignore[union-attr]
        ("right after a delete", [u for u in units[len(units) // 2 :] if u.change.op == "D"]),  # type: ignore[union-attr]
        ("on a late change", late),
        ("right after a chunked change", [u for u in units if len(u.records) > 2]),
        (
            "right after a B-then-A update",
            [
                u
                for u in units
                if any(r.io_type == FIELD_COMP and r.before_after == "B" for r in u.records)
            ],
        ),
    ]
    for spec in sim.tables:
        picked.append(
            (
                f"right after a key update of {spec.name}",
                [u for u in units if u.change.table == spec.name and u.change.is_key_update(spec)],  # type: ignore[union-attr]
            )
        )
    positions = reinsert_positions(sim, [unit.change for unit in units])  # type: ignore[misc]
    picked.append(("right after a re-insert of a deleted key", [units[i] for i in positions]))
    points = []
    for label, matches in picked:
        assert matches, f"the simulation has no change for point '{label}'; change SEED"
        unit = matches[len(matches) // 2]
        assert unit.change is not None
        points.append(Point(label, unit.order_key, sim.state_at(unit.change.change_seq)))
    return points + time_points(sim)


def test_goldengate_proof_scenario_is_well_formed() -> None:
    """The generator half of the proof, without Spark."""
    scenario = build_scenario()
    sim = scenario.sim
    positions_1 = {r.position for r in scenario.trail_1}
    positions_2 = {r.position for r in scenario.trail_2}
    every = {r.position for unit in scenario.producer.units for r in unit.records}
    assert positions_1 | positions_2 == every
    assert positions_1 & positions_2, "some batch-1 records are landed again"
    newest_1 = max(positions_1)
    assert any(p < newest_1 for p in positions_2 - positions_1), "late records"
    assert scenario.trail_after_1 != scenario.json_after_1, "the held chain matters"
    assert scenario.open_after_1, "a late change or the held chain leaves a transaction open"
    assert len(scenario.points) >= 10
    tables = {r.table_name for r in scenario.trail_1}
    assert tables == {OPTIONS.table_name(spec) for spec in TABLES}
    orders_name = OPTIONS.table_name(ORDER)
    assert all(f'"table": "{orders_name}"' in m.value for m in scenario.json_1 + scenario.json_2)
    messages = {m.order_key for m in scenario.json_1 + scenario.json_2}
    order_changes = [c for c in sim.changes if c.table == ORDER.name]
    baseline = len(sim.baseline[ORDER.name])
    assert len(messages) == len(order_changes) + baseline
    assert len(scenario.json_1) + len(scenario.json_2) > len(messages), "messages produced twice"


def land(root: Path, scenario: Scenario, batch: int) -> None:
    records, messages = (
        (scenario.trail_1, scenario.json_1) if batch == 1 else (scenario.trail_2, scenario.json_2)
    )
    write_landing(
        root / "ogg_trail_records",
        trail_table(records),
        files=3,
        duplicates=0.03,
        seed=SEED + batch,
        first_file=10 * batch,
    )
    write_landing(
        root / "ogg_json_messages",
        message_table(messages),
        files=2,
        duplicates=0.03,
        seed=SEED + batch,
        first_file=10 * batch,
    )


@pytest.mark.e2e
@pytest.mark.spark
def test_goldengate_proves_point_in_time_state(tmp_path: Path, spark: Any, run_dbt: Any) -> None:
    scenario = build_scenario()
    root = tmp_path / "landing"
    build = ["build", "--exclude", "test_type:unit"]

    land(root, scenario, 1)
    # `run` for the first batch, `build` (with the data tests) for the last: the tests check
    # the final state, and each `build` of them costs a minute on two cores
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root))
    failures: list[str] = []
    for spec in TABLES:
        failures += check(
            spark,
            spec,
            f"{SCHEMA}.{spec.name}_as_of('latest')",
            scenario.trail_after_1[spec.name],
            "trail after batch 1: late changes and a held chunk not yet landed",
        )
    failures += check(
        spark,
        order_spec(),
        f"{SCHEMA}.{JSON_TABLE}_as_of('latest')",
        scenario.json_after_1[ORDER.name],
        "JSON after batch 1: late messages not yet landed",
    )
    assert not failures, "\n".join(failures)
    reasons = [reason for _key, reason in quarantined(spark)]
    assert len(reasons) == 1 and reasons[0].startswith(
        "trail record held: chunk chain not terminated"
    ), reasons
    assert incomplete_transactions(spark) == scenario.open_after_1

    land(root, scenario, 2)
    run_dbt(build, schema=SCHEMA, vars=dbt_vars(root))
    final = scenario.sim.final
    relations = [(spec, spec.name) for spec in TABLES] + [(order_spec(), JSON_TABLE)]
    for spec, table in relations:
        failures += check_all(
            spark,
            spec,
            expectations_at(scenario.points, f"{SCHEMA}.{table}_as_of", spec.name),
        )
        failures += check(spark, spec, f"{SCHEMA}.dim_{table}_current", final[spec.name], "final")
    assert not failures, "\n".join(failures)
    assert quarantined(spark) == []
    assert incomplete_transactions(spark) == set()
    logged = dict(
        spark.sql(
            f"select source_system, count(*) from {SCHEMA}.fct_cdc_changes group by 1"
        ).collect()
    )
    baseline = sum(len(rows) for rows in scenario.sim.baseline.values())
    assert logged["ogg_trail"] == len(scenario.sim.changes) + baseline, "each change once"
    order_changes = sum(1 for c in scenario.sim.changes if c.table == ORDER.name)
    assert logged["ogg_json"] == order_changes + len(scenario.sim.baseline[ORDER.name])


def order_spec() -> TableSpec:
    """The (widened) ogg_order spec, which ogg_order_json shares."""
    return next(spec for spec in TABLES if spec.name == ORDER.name)


def quarantined(spark: Any) -> list[tuple[str, str]]:
    rows = spark.sql(f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine").collect()
    return sorted((row[0], row[1]) for row in rows)


def incomplete_transactions(spark: Any) -> set[str]:
    rows = spark.sql(
        f"select distinct txn_id from {SCHEMA}.fct_cdc_changes"
        " where array_contains(flags, 'transaction_incomplete')"
    ).collect()
    return {row[0] for row in rows}
