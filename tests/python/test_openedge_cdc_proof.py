"""End-to-end proof for OpenEdge CDC (spec D): simulated tracking and change tables in,
`dbt build`, point-in-time state out.

The truth is `cdc_simulator`: the seeded table model of three tables, captured by the policies
of the shipped configuration: customer (level 3: before and after images), item (level 2: after
images only, an extent field) and visit (level 0: tracking rows only, so the lake knows which
`_Recid`s exist). `cdc_simulator.openedge_cdc` writes what OpenEdge would (spec D), one unit of
rows per captured operation, a share of change records split in two (spec D.7: plain,
`_Fragment` and `_ArrayIndex` splits). Landed as Parquet files in three batches:

* batch 1: most units, shuffled, but WITHOUT a few late units, the continuation records of two
  split records (their first records are there: held, never applied half) and the change
  records of one unit whose tracking row is there (held);
* batch 2: the next units, the late units and the missing parts, exact re-deliveries of batch-1
  rows (collapse to one);
* batch 3: the newest units.

After batch 1 the latest state must equal the model's state over the units delivered whole,
and the held parts must be in the quarantine; after batch 3 `<table>_as_of(point)` and the
history versions valid at the point must equal the model's state at many points, by
`_Change-Sequence` and by time, and every deleted version (a delete, the old key of a key
update) must show the state it ends. A second scenario lands the merged form (what OpenEdge SQL
returns: no split records) with the 12.2 field names, once, and must answer the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from state_check import Expectation, check, check_all

from cdc_simulator.openedge_cdc import (
    CUSTOMER,
    DEFAULT_POLICIES,
    ITEM,
    RECID_SPEC,
    VISIT,
    Emitted,
    Unit,
    emit,
    recid_state,
    write_parquet,
)
from cdc_simulator.table_model import (
    Key,
    Row,
    Simulation,
    TableSpec,
    format_time_point,
    replay,
    simulate,
)

SEED = 20240311
CHANGES = 360
KEYS = 40
SCHEMA = "proof_oe"
# the format's models in the package (by its folders) and the tables' in the sample project
SELECT = [
    "--select",
    "cdc_history.staging.openedge_cdc",
    "cdc_history.intermediate.openedge_cdc",
    "path:models/staging/openedge_cdc",
    "int_oe_customer__change_images",
    "int_item__change_images",
    "int_visit__change_images",
    "path:models/marts/oe_customer",
    "path:models/marts/item",
    "path:models/marts/visit",
]
VALUE_TABLES = (CUSTOMER, ITEM)
# the simulator's table names -> the shipped cdc_tables names (the OpenEdge customer is
# configured as oe_customer, with change_table cdc_customer: the Kafka sample has a customer)
CONFIGURED = {"customer": "oe_customer", "item": "item", "visit": "visit"}


def dbt_vars(root: Path, release: str = "12.8") -> dict[str, object]:
    return {
        "openedge_cdc_landing": "files",
        "openedge_cdc_landing_root": str(root),
        "openedge_cdc_landing_format": "parquet",
        "openedge_cdc_schema": f"{SCHEMA}_raw",
        "openedge_cdc_release": release,
    }


@dataclass
class Point:
    table: str
    label: str
    value: str
    expected: dict[Key, Row]


@dataclass
class Scenario:
    sim: Simulation
    emitted: Emitted
    batch_1: list[Unit]
    late: list[Unit]
    held_splits: list[Unit]
    held_records: list[Unit]
    batch_2: list[Unit]
    batch_3: list[Unit]
    duplicates: list[Unit]
    points: list[Point] = field(default_factory=list)


def unit_keys(unit: Unit, spec: TableSpec) -> set[Key]:
    if unit.change is None:
        return set()
    return {k for k in (unit.change.key_before(spec), unit.change.key_after(spec)) if k}


def held_back_candidates(units: list[Unit]) -> list[Unit]:
    """Units of the second half of batch 1 that no later batch-1 unit of the table touches
    (by key or `_Recid`), and not key updates: the state batch 1 implies is unambiguous."""
    specs = {spec.name: spec for spec in (CUSTOMER, ITEM, VISIT)}
    out = []
    for index in range(len(units) // 2, len(units) - 1):
        unit = units[index]
        if unit.change is None or unit.table == "visit":
            continue
        spec = specs[unit.table]
        if unit.change.is_key_update(spec):
            continue
        keys = unit_keys(unit, spec)
        later = [u for u in units[index + 1 :] if u.table == unit.table]
        if any(unit_keys(u, spec) & keys or u.recid == unit.recid for u in later):
            continue
        out.append(unit)
    return out


def build_scenario(split_share: float = 0.2) -> Scenario:
    sim = simulate(CHANGES, keys=KEYS, seed=SEED, tables=(CUSTOMER, ITEM, VISIT))
    emitted = emit(sim, DEFAULT_POLICIES, split_share=split_share, seed=SEED)
    rng = random.Random(SEED)
    units = emitted.units
    cut_1, cut_2 = int(len(units) * 0.7), int(len(units) * 0.85)
    range_1 = units[:cut_1]
    candidates = held_back_candidates(range_1)
    splits = [u for u in candidates if {"fragment", "array"} & set(u.split_kinds)]
    held_splits = rng.sample(splits, min(2, len(splits)))
    rest = [u for u in candidates if u not in held_splits and u.records]
    held_records = rng.sample(rest, 1)
    rest = [u for u in rest if u not in held_records]
    late = rng.sample(rest, 3)
    held_back = {id(u) for u in [*held_splits, *held_records, *late]}
    batch_1 = [u for u in range_1 if id(u) not in held_back]
    duplicates = rng.sample(batch_1, 6)
    scenario = Scenario(
        sim,
        emitted,
        batch_1,
        late,
        held_splits,
        held_records,
        units[cut_1:cut_2],
        units[cut_2:],
        duplicates,
    )
    scenario.points = choose_points(scenario)
    return scenario


def value_state(sim: Simulation, units: list[Unit], table: str) -> dict[Key, Row]:
    """The model's state of a level-2/3 table after the changes of `units` (whole units)."""
    changes = [u.change for u in units if u.table == table and u.change is not None]
    return replay(sim.tables, sim.baseline, changes)[table]


def state_at_sequence(scenario: Scenario, table: str, sequence: int) -> dict[Key, Row]:
    units = [u for u in scenario.emitted.units if u.table == table and u.sequence <= sequence]
    if table == "visit":
        return recid_state(units, table)
    return value_state(scenario.sim, units, table)


def choose_points(scenario: Scenario) -> list[Point]:
    """Change sequences that probe the hard cases per table, and commit times across tables."""
    sim, units = scenario.sim, scenario.emitted.units
    points: list[Point] = []

    def add(table: str, label: str, matches: list[Unit]) -> None:
        assert matches, f"no unit for point '{label}' of {table}; change SEED"
        unit = matches[len(matches) // 2]
        value = str(unit.sequence)
        points.append(Point(table, label, value, state_at_sequence(scenario, table, unit.sequence)))

    for spec in (CUSTOMER, ITEM, VISIT):
        mine = [u for u in units if u.table == spec.name and u.change is not None]
        add(spec.name, "right after a delete", [u for u in mine if u.operation == 2])
        add(spec.name, "right after a create", [u for u in mine if u.operation == 1])
        if spec is not VISIT:
            moves = [u for u in mine if u.change and u.change.is_key_update(spec)]
            add(spec.name, "right after a key update", moves)
            if any(u.split_kinds for u in units):  # the raw form, not the merged one
                add(spec.name, "on a split record", [u for u in mine if u.split_kinds])
            add(spec.name, "on an update", [u for u in mine if u.operation == 4])
    late = [*scenario.late, *scenario.held_splits]
    for unit in late[:2]:
        points.append(
            Point(
                unit.table,
                "on a late unit",
                str(unit.sequence),
                state_at_sequence(scenario, unit.table, unit.sequence),
            )
        )
    moments = sorted({u.commit_time for u in units if u.change is not None})
    for moment in (moments[len(moments) // 3], moments[2 * len(moments) // 3]):
        text = format_time_point(moment)
        state = sim.state_at_time(text)
        for spec in VALUE_TABLES:
            points.append(Point(spec.name, f"time {text}", text, state[spec.name]))
        visits = [u for u in units if u.commit_time <= moment]
        points.append(Point("visit", f"time {text}", text, recid_state(visits, "visit")))
    return points


def land(root: Path, units: list[Unit], part: int, *, release: str = "12.8") -> None:
    tracking = [u.tracking for u in units]
    records: dict[str, list[dict[str, object]]] = {}
    for unit in units:
        records.setdefault(unit.table, []).extend(unit.records)
    write_parquet(root, tracking, records, part=part, release=release, seed=SEED + part)


def land_batch_1(root: Path, scenario: Scenario) -> None:
    units = list(scenario.batch_1)
    partial = []
    for unit in scenario.held_splits:  # the first records only
        partial.append(
            Unit(
                **{**unit.__dict__, "records": [r for r in unit.records if not is_continuation(r)]}
            )
        )
    for unit in scenario.held_records:  # the tracking row only
        partial.append(Unit(**{**unit.__dict__, "records": []}))
    land(root, [*units, *partial], part=1)


def land_batch_2(root: Path, scenario: Scenario) -> None:
    missing = [
        Unit(**{**unit.__dict__, "records": [r for r in unit.records if is_continuation(r)]})
        for unit in scenario.held_splits
    ]
    held = [
        Unit(**{**unit.__dict__, "tracking": None, "records": unit.records})
        for unit in scenario.held_records
    ]
    units = [*scenario.batch_2, *scenario.late, *scenario.duplicates]
    tracking = [u.tracking for u in [*units, *missing] if u.tracking is not None]
    records: dict[str, list[dict[str, object]]] = {}
    for unit in [*units, *missing, *held]:
        records.setdefault(unit.table, []).extend(unit.records)
    write_parquet(root, tracking, records, part=2, seed=SEED + 2)


def is_continuation(record: dict[str, object]) -> bool:
    return record["_Continuation-Position"] != 0


def test_openedge_scenario_is_well_formed() -> None:
    """The generator half, without Spark: every probe exists, the held parts are real splits,
    the batches deliver every unit, and the emitter keeps the spec D rules."""
    scenario = build_scenario()
    units = scenario.emitted.units
    delivered = [
        *scenario.batch_1,
        *scenario.late,
        *scenario.held_splits,
        *scenario.held_records,
        *scenario.batch_2,
        *scenario.batch_3,
    ]
    assert sorted(map(id, delivered)) == sorted(map(id, units))
    assert len(scenario.held_splits) == 2
    for unit in scenario.held_splits:
        assert len(unit.records) >= 2 and {"fragment", "array"} & set(unit.split_kinds)
    kinds = {kind for unit in units for kind in unit.split_kinds}
    assert kinds == {"plain", "fragment", "array"}, kinds
    for unit in units:
        by_operation: dict[int, int] = {}
        for record in unit.records:
            assert record["_Change-Sequence"] == unit.sequence
            operation = cast(int, record["_Operation"])
            by_operation[operation] = by_operation.get(operation, 0) + 1
        level = {"customer": 3, "item": 2, "visit": 0}[unit.table]
        if level == 0:
            assert not unit.records
        elif unit.operation == 4:
            assert (3 in by_operation) == (level == 3) and 4 in by_operation
        else:
            assert set(by_operation) == {unit.operation}
    for table in ("customer", "item", "visit"):
        sequences = [u.sequence for u in units if u.table == table]
        assert sequences == sorted(set(sequences)), f"{table}: _Change-Sequence not increasing"
    # the model's final state, replayed from the units, is the simulation's
    for spec in VALUE_TABLES:
        assert value_state(scenario.sim, units, spec.name) == scenario.sim.final[spec.name]
    assert len(recid_state(units, "visit")) == len(scenario.sim.final["visit"])
    labels = {(p.table, p.label) for p in scenario.points}
    assert ("customer", "right after a key update") in labels
    assert ("item", "on a split record") in labels
    assert len({(p.table, p.value) for p in scenario.points}) == len(scenario.points)


@pytest.mark.e2e
@pytest.mark.spark
def test_openedge_cdc_proves_point_in_time_state(tmp_path: Path, spark: Any, run_dbt: Any) -> None:
    scenario = build_scenario()
    sim = scenario.sim
    root = tmp_path / "landing"

    land_batch_1(root, scenario)
    # `run` for the early batches, `build` (with the data tests) for the last: the tests
    # check the final state, and each `build` of them costs a minute on two cores
    run_dbt(["run", *SELECT], schema=SCHEMA, vars=dbt_vars(root))
    failures: list[str] = []
    for spec in VALUE_TABLES:
        failures += check(
            spark,
            spec,
            f"{SCHEMA}.{CONFIGURED[spec.name]}_as_of('latest')",
            value_state(sim, scenario.batch_1, spec.name),
            "after batch 1: late units and held parts not applied",
        )
    failures += check(
        spark,
        RECID_SPEC,
        f"{SCHEMA}.visit_as_of('latest')",
        recid_state(scenario.batch_1, "visit"),
        "after batch 1 (level 0)",
    )
    held = spark.sql(
        f"select source_table, raw_key, reason from {SCHEMA}.int_openedge_cdc__rows_quarantined"
    ).collect()
    for unit in [*scenario.held_splits, *scenario.held_records]:
        reasons = [
            row.reason
            for row in held
            if row.source_table == CONFIGURED[unit.table]
            and row.raw_key == f"_Change-Sequence={unit.sequence}"
        ]
        if not reasons or not reasons[0].startswith("held: "):
            failures.append(f"{unit.table} {unit.sequence}: not held after batch 1: {reasons}")
    assert not failures, "\n".join(failures)

    land_batch_2(root, scenario)
    run_dbt(["run", *SELECT], schema=SCHEMA, vars=dbt_vars(root))
    land(root, scenario.batch_3, part=3)
    run_dbt(["build", *SELECT], schema=SCHEMA, vars=dbt_vars(root))

    quarantined = spark.sql(
        f"select reason from {SCHEMA}.int_openedge_cdc__rows_quarantined"
    ).collect()
    assert not quarantined, f"all parts arrived, yet quarantined: {quarantined[:5]}"
    failures += check_points(spark, scenario, SCHEMA)
    assert not failures, "\n".join(failures)
    left_out_steps_stop_on_an_image_they_need(spark)


def left_out_steps_stop_on_an_image_they_need(spark: Any) -> None:
    """The answers above came from as-of functions and histories that leave out the state
    merge's steps a table's images need none of (cdc_state_images): visit has no key move
    (no lineage steps), and every customer image carries every column (level 3: no merge at
    all), as each images table recorded at its last write; the lineage steps of customer and
    item follow chains no longer than their recorded K images. An image of such a kind written
    after the functions were created (here by hand), or a chain of key moves longer than the
    steps follow, stops the query naming the table, rather than giving a state merged without
    it. Run last: it leaves the tables changed."""
    from pyspark.sql import functions as F

    recorded = ("cdc.partial_images", "cdc.key_moves", "cdc.key_move_count")

    def kinds(table: str) -> dict[str, str]:
        rows = spark.sql(f"show tblproperties {SCHEMA}.int_{table}__change_images").collect()
        return {row[0]: row[1] for row in rows if row[0] in recorded}

    def key_moves(table: str) -> str:
        images = spark.table(f"{SCHEMA}.int_{table}__change_images")
        return str(images.where(F.col("image_oper") == "K").count())

    assert kinds("visit") == {
        "cdc.partial_images": "true",
        "cdc.key_moves": "false",
        "cdc.key_move_count": "0",
    }
    assert kinds("oe_customer") == {
        "cdc.partial_images": "false",
        "cdc.key_moves": "true",
        "cdc.key_move_count": key_moves("oe_customer"),
    }
    assert kinds("item") == {
        "cdc.partial_images": "true",
        "cdc.key_moves": "true",
        "cdc.key_move_count": key_moves("item"),
    }
    # a chain one move longer than item's lineage steps follow: fewer steps than var
    # key_move_chain_limit's six (64 moves) only below 33 K images
    moves = int(kinds("item")["cdc.key_move_count"])
    assert 0 < moves <= 32, moves
    followed = 2 ** (moves - 1).bit_length()
    images = f"{SCHEMA}.int_item__change_images"
    template = (
        spark.table(images).where((F.col("image_oper") == "U") & ~F.col("is_before_image")).limit(1)
    )
    last = spark.table(images).agg(F.max("order_key")).first()[0]
    chain = [
        (f"chain {move}", f"{last}~{move:03d}", oper, f"chained={move - (oper == 'K')}")
        for move in range(1, followed + 2)
        for oper in ("K", "U")
    ]
    moved = spark.createDataFrame(
        chain, "moved_change string, moved_order_key string, moved_oper string, moved_pk string"
    )
    template.crossJoin(moved).withColumns(
        {
            "change_id": F.col("moved_change"),
            "order_key": F.col("moved_order_key"),
            "image_oper": F.col("moved_oper"),
            "row_exists": F.col("moved_oper") == "U",
            "pk_string": F.col("moved_pk"),
        }
    ).select(*spark.table(images).columns).write.insertInto(images)
    with pytest.raises(
        Exception,
        match=f"int_item__change_images holds a chain of more than {followed} key moves written",
    ):
        spark.sql(f"select * from {SCHEMA}.item_as_of('latest')").collect()
    written = {
        "visit": (F.col("image_oper").isin("I", "U"), {"image_oper": F.lit("K")}, "a key move"),
        "oe_customer": (
            F.col("image_oper") == "U",
            {"image_complete": F.lit(False)},
            "an image lacking columns",
        ),
    }
    for table, (which, changed, what) in written.items():
        images = f"{SCHEMA}.int_{table}__change_images"
        row = spark.table(images).where(which & ~F.col("is_before_image")).limit(1)
        row.withColumns(changed).write.insertInto(images)
        with pytest.raises(Exception, match=f"int_{table}__change_images holds {what}"):
            spark.sql(f"select * from {SCHEMA}.{table}_as_of('latest')").collect()


def check_points(spark: Any, scenario: Scenario, schema: str) -> list[str]:
    specs = {"customer": CUSTOMER, "item": ITEM, "visit": RECID_SPEC}
    failures: list[str] = []
    # per table, one query for the table function at every point and one for the history
    # versions valid at each point (check_all)
    for table, spec in specs.items():
        at_points: list[Expectation] = []
        in_history: list[Expectation] = []
        for point in (point for point in scenario.points if point.table == table):
            label = f"{point.label} ({point.value})"
            relation = f"{schema}.{CONFIGURED[point.table]}_as_of('{point.value}')"
            at_points.append(Expectation(relation, point.expected, label))
            if point.value.isdigit():
                order_key = point.value.rjust(20, "0")
                history = (
                    f"(select * from {schema}.dim_{CONFIGURED[point.table]}_history"
                    " where not is_deleted"
                    f" and valid_from_order_key <= '{order_key}'"
                    f" and coalesce(valid_to_order_key > '{order_key}', true))"
                )
                in_history.append(Expectation(history, point.expected, f"history at {label}"))
        failures += check_all(spark, spec, at_points)
        failures += check_all(spark, spec, in_history)
        failures += tombstones_show_the_last_state(spark, spec, CONFIGURED[table], schema)
    final = scenario.sim.final
    for spec in VALUE_TABLES:
        current = f"{schema}.dim_{CONFIGURED[spec.name]}_current"
        failures += check(spark, spec, current, final[spec.name], "end")
    failures += check(
        spark,
        RECID_SPEC,
        f"{schema}.dim_visit_current",
        recid_state(scenario.emitted.units, "visit"),
        "end (level 0)",
    )
    return failures


def tombstones_show_the_last_state(spark: Any, spec: Any, table: str, schema: str) -> list[str]:
    """The versions checked at points are the live ones; a deleted version (a delete, or the
    old key of a key update: `K`) must show the state it ends, its key's previous version,
    key columns included. (At level 2 an update that moved the key has no before image: its
    `K` version once showed every column NULL.)"""
    columns = ", ".join(f"`{name}`" for name in spec.column_names)
    wrong = spark.sql(
        f"""
        select change_op, count(*) as versions, min(pk_string) as example
        from (
            select
                change_op,
                is_deleted,
                pk_string,
                struct({columns}) as shown,
                lag(struct({columns})) over (
                    partition by pk_string order by valid_from_order_key
                ) as ended
            from {schema}.dim_{table}_history
        )
        where is_deleted and change_op in ('D', 'K') and not (shown <=> ended)
        group by change_op
        """
    ).collect()
    return [
        f"{table}: {row.versions} {row.change_op} versions do not show the state they end"
        f" (e.g. {row.example})"
        for row in wrong
    ]


@pytest.mark.e2e
@pytest.mark.spark
def test_openedge_cdc_merged_form_with_12_2_names(tmp_path: Path, spark: Any, run_dbt: Any) -> None:
    """What OpenEdge SQL returns (split records already merged), with the 12.2 tracking field
    names, in one batch: the same answers at every point."""
    scenario = build_scenario(split_share=0.0)
    assert not any(unit.split_kinds for unit in scenario.emitted.units)
    root = tmp_path / "landing"
    land(root, scenario.emitted.units, part=1, release="12.2")
    schema = f"{SCHEMA}_merged"
    run_dbt(["build", *SELECT], schema=schema, vars=dbt_vars(root, release="12.2"))
    failures = check_points(spark, scenario, schema)
    assert not failures, "\n".join(failures)
