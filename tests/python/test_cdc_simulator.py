"""The simulator obeys the change-table rules (seed S0, spec A.2-A.7) and its model agrees with
a naive replay of what it writes. No Spark: masks are decoded here with int.from_bytes."""

from __future__ import annotations

import csv
import random
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

import pyarrow.dataset as ds
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cdc_simulator import qlik_ct
from cdc_simulator.qlik_ct import HEADER_COUNT, write_csv, write_parquet
from cdc_simulator.table_model import (
    DEFAULT_TABLES,
    DOCUMENTS,
    EPOCH,
    ORDER_LINES,
    UTC,
    Change,
    ChangeGenerator,
    ColumnSpec,
    Key,
    Row,
    Simulation,
    State,
    TableSpec,
    format_time_point,
    parse_time_point,
    simulate,
    widened,
)

# the repository's sample project: its tables (cdc_tables) and its seeds
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"
SPECS = {spec.name: spec for spec in DEFAULT_TABLES}
# the simulator's change-table rows (cdc_simulator.qlik_ct.CtRow, typed tuple[object, ...]),
# read here field by field: each field's type is the one its column carries
CtRow = tuple[Any, ...]


def emit(*args: Any, **kwargs: Any) -> dict[str, list[CtRow]]:
    """cdc_simulator.qlik_ct.emit, its rows typed for reading field by field (CtRow)."""
    return qlik_ct.emit(*args, **kwargs)


@pytest.fixture(scope="module")
def sim() -> Simulation:
    return simulate(3000, keys=40, seed=7)


@pytest.fixture(scope="module")
def rows(sim: Simulation) -> dict[str, list[CtRow]]:
    return emit(sim.changes, sim.tables)


def bits(mask: bytes) -> set[int]:
    value = int.from_bytes(mask, "little")
    return {position for position in range(value.bit_length()) if value >> position & 1}


def data_bits(spec: TableSpec, positions: Iterable[int]) -> set[int]:
    return {HEADER_COUNT + position for position in positions}


def all_rows(rows: dict[str, list[CtRow]]) -> list[tuple[str, CtRow]]:
    return [(name, row) for name, table_rows in rows.items() for row in table_rows]


def naive_replay(
    tables: tuple[TableSpec, ...],
    baseline: State,
    rows: dict[str, list[CtRow]],
    upto: str | None = None,
) -> State:
    """Apply I/U/D rows in change_seq order (B ignored; a U whose B has another key moves it)."""
    state: State = {}
    for spec in tables:
        table: dict[Key, Row] = dict(baseline[spec.name])
        ordered = sorted(rows[spec.name], key=lambda row: (row[0], row[1] != "B"))
        before_key = {row[0]: spec.key_of(row[HEADER_COUNT:]) for row in ordered if row[1] == "B"}
        for row in ordered:
            seq, oper, data = row[0], row[1], tuple(row[HEADER_COUNT:])
            if upto is not None and seq > upto:
                break
            key = spec.key_of(data)
            if oper == "I":
                assert key not in table, f"{seq}: insert over live key {key}"
                table[key] = data
            elif oper == "U":
                del table[before_key[seq]]
                table[key] = data
            elif oper == "D":
                del table[key]
        state[spec.name] = table
    return state


# ---------------------------------------------------------------------------------------------
# table definitions


def test_tables_match_the_dbt_project() -> None:
    config = yaml.safe_load((SAMPLES_DIR / "dbt_project.yml").read_text())
    configured = config["vars"]["cdc_tables"]
    qlik = {
        name: table for name, table in configured.items() if table["source_system"] == "qlik_ct"
    }
    specs = {**SPECS, DOCUMENTS.name: DOCUMENTS}
    assert set(qlik) == set(specs)
    for name, table in qlik.items():
        assert tuple(table["key_columns"]) == specs[name].key_columns, name
        if "columns" in table:
            declared = {column: spec["type"] for column, spec in table["columns"].items()}
            assert declared == {c.name: c.spark_type for c in specs[name].columns}, name


def test_order_lines_key_order_differs_from_column_order() -> None:
    assert ORDER_LINES.key_columns == ("order_id", "line_no")
    assert ORDER_LINES.key_positions == (1, 0)
    assert ORDER_LINES.key_of((3, 5_000_000_001, "s", 1, Decimal("1.00"), None)) == (
        5_000_000_001,
        3,
    )


@pytest.mark.parametrize(
    ("column", "spark_type"),
    [
        pytest.param(ColumnSpec("a", "int32"), "int", id="int32"),
        pytest.param(ColumnSpec("a", "int64"), "bigint", id="int64"),
        pytest.param(ColumnSpec("a", "decimal(12,2)"), "decimal(12,2)", id="decimal"),
        pytest.param(ColumnSpec("a", "timestamp"), "timestamp", id="timestamp"),
    ],
)
def test_spark_type_names(column: ColumnSpec, spark_type: str) -> None:
    assert column.spark_type == spark_type


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(lambda: ColumnSpec("a", "float"), id="unknown type"),
        pytest.param(lambda: ColumnSpec("a", "decimal(2,5)"), id="scale above precision"),
        pytest.param(
            lambda: TableSpec("t", (ColumnSpec("a", "int32", nullable=True),), ("a",)),
            id="nullable key",
        ),
        pytest.param(lambda: TableSpec("t", (ColumnSpec("a", "int32"),), ("b",)), id="no key"),
    ],
)
def test_invalid_definitions_raise(bad: object) -> None:
    with pytest.raises(ValueError):
        bad()  # type: ignore[operator]


# ---------------------------------------------------------------------------------------------
# the emitted rows obey the rules


def test_change_seq_is_35_digits_with_a_valid_time_part(rows: dict[str, list[CtRow]]) -> None:
    for _, row in all_rows(rows):
        seq = row[0]
        assert isinstance(seq, str) and len(seq) == 35 and seq.isdigit(), seq
        moment = datetime.strptime(seq[:14], "%Y%m%d%H%M%S")
        assert moment.year == 2024, seq


def test_non_before_image_change_seqs_strictly_increase_across_tables(
    sim: Simulation, rows: dict[str, list[CtRow]]
) -> None:
    emitted = [row[0] for _, row in all_rows(rows) if row[1] != "B"]
    assert len(emitted) == len(set(emitted)) == len(sim.changes)
    in_change_order = [change.change_seq for change in sim.changes]
    assert in_change_order == sorted(emitted)
    assert all(a < b for a, b in pairwise(in_change_order))


def test_before_images_pair_with_their_update(rows: dict[str, list[CtRow]]) -> None:
    for name, table_rows in rows.items():
        opers = Counter((row[0], row[1]) for row in table_rows)
        assert max(opers.values()) == 1, f"{name}: duplicate (change_seq, oper)"
        for position, row in enumerate(table_rows):
            if row[1] == "B":
                after = table_rows[position + 1]
                assert (after[0], after[1]) == (row[0], "U"), f"{name}: lone B {row[0]}"
                assert after[5] == row[5], "B and U in different transactions"
                assert row[2] == b"", "before image masks are empty"
            if row[1] == "U":
                assert table_rows[position - 1][:2] == (row[0], "B"), f"U without B {row[0]}"


def test_change_numbers_advance_by_two_for_an_update(sim: Simulation) -> None:
    previous = None
    for change in sim.changes:
        assert change.change_seq.endswith(f"{change.change_number:019d}")
        if previous is not None:
            step = change.change_number - previous
            assert step >= (2 if change.op == "U" else 1), change.change_seq
        previous = change.change_number


def test_update_masks_are_exactly_the_changed_columns(rows: dict[str, list[CtRow]]) -> None:
    updates = 0
    for name, table_rows in rows.items():
        spec = SPECS[name]
        before_images = {row[0]: row for row in table_rows if row[1] == "B"}
        for row in table_rows:
            if row[1] != "U":
                continue
            before = before_images[row[0]][HEADER_COUNT:]
            after = row[HEADER_COUNT:]
            changed = [p for p, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
            assert changed, f"{name} {row[0]}: an update that changes nothing was written"
            assert bits(row[2]) == data_bits(spec, changed), f"{name} {row[0]}"
            updates += 1
    assert updates > 500


def test_delete_masks_are_key_only(rows: dict[str, list[CtRow]]) -> None:
    for name, table_rows in rows.items():
        spec = SPECS[name]
        for row in table_rows:
            if row[1] == "D":
                assert bits(row[2]) == data_bits(spec, spec.key_positions), f"{name} {row[0]}"


def test_insert_masks_are_all_data_columns(rows: dict[str, list[CtRow]]) -> None:
    for name, table_rows in rows.items():
        spec = SPECS[name]
        everything = data_bits(spec, range(len(spec.columns)))
        for row in table_rows:
            if row[1] == "I":
                assert bits(row[2]) == everything, f"{name} {row[0]}"


def test_header_columns(rows: dict[str, list[CtRow]]) -> None:
    for _, row in all_rows(rows):
        assert qlik_ct.OPERATIONS[row[1]] == row[4]
        assert len(row[5]) == 32 and row[5] == row[5].upper() and int(row[5], 16) >= 0
        assert isinstance(row[3], str) and row[3]
        assert row[6].tzinfo is not None


@pytest.mark.parametrize(
    ("policy", "expect_trimmed", "expect_full"),
    [
        pytest.param("random", True, True, id="random: both forms"),
        pytest.param("always", True, False, id="always trimmed"),
        pytest.param("never", False, True, id="never trimmed"),
    ],
)
def test_trailing_zero_bytes_of_masks(
    sim: Simulation, policy: str, expect_trimmed: bool, expect_full: bool
) -> None:
    trimmed = full = 0
    for name, table_rows in emit(sim.changes, sim.tables, trim=policy).items():
        width = qlik_ct.mask_length(SPECS[name])
        for row in table_rows:
            mask = row[2]
            if row[1] == "B":
                assert mask == b""
                continue
            if len(mask) < width:
                assert mask[-1:] != b"\x00"
                trimmed += 1
            elif mask[-1:] == b"\x00":
                full += 1
    assert (trimmed > 0) == expect_trimmed and (full > 0) == expect_full, (trimmed, full)


def test_every_scenario_occurs(sim: Simulation, rows: dict[str, list[CtRow]]) -> None:
    found: Counter[str] = Counter()
    transactions = sim.transactions()
    found["multi-change transaction"] = sum(len(t) > 1 for t in transactions)
    found["transactions sharing a commit time"] = sum(
        a[0].commit_time == b[0].commit_time for a, b in pairwise(transactions)
    )
    found["placeholder timestamp"] = sum(change.timestamp == EPOCH for change in sim.changes)
    deleted: set[tuple[str, Key]] = set()
    for change in sim.changes:
        spec = SPECS[change.table]
        if change.is_key_update(spec):
            found["key update"] += 1
            old, new = change.key_before(spec), change.key_after(spec)
            assert old is not None and new is not None
            if len(old) > 1 and sum(a != b for a, b in zip(old, new, strict=True)) == 1:
                found["composite key update of one column"] += 1
        if change.op == "D":
            deleted.add((change.table, spec.key_of(change.row)))
        if change.op == "I" and (change.table, spec.key_of(change.row)) in deleted:
            found["re-insert of a deleted key"] += 1
        if change.op == "U":
            assert change.before is not None and change.after is not None
            for old_value, new_value in zip(change.before, change.after, strict=True):
                if old_value is not None and new_value is None:
                    found["update to NULL"] += 1
                if old_value is None and new_value is not None:
                    found["update from NULL"] += 1
    found["same-value assignment"] = sim.stats["same_value_assignments"]
    found["no-op update dropped"] = sim.stats["noop_updates_dropped"]
    for name in ("employees", "order_lines"):
        found[f"changes to {name}"] = sum(change.table == name for change in sim.changes)
    missing = [scenario for scenario, count in found.items() if count == 0]
    assert not missing, f"never generated: {missing}"


def test_a13_worked_example() -> None:
    """Spec A.13: masks 8003 (insert), 0002 (salary update), 80 (delete, trimmed)."""
    spec = TableSpec(
        "hr",
        (
            ColumnSpec("employee_id", "int32"),
            ColumnSpec("first_name", "string"),
            ColumnSpec("salary", "int32"),
        ),
        ("employee_id",),
    )
    at = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

    def change(op: str, number: int, minutes: int, before: Row | None, after: Row | None) -> Change:
        moment = at + timedelta(minutes=minutes)
        seq = f"{moment:%Y%m%d%H%M%S}00{number:019d}"
        return Change("hr", op, seq, number, moment, "A" * 32, before, after, moment, "1")

    ann, richer = (10, "Ann", 1000), (10, "Ann", 1200)
    emitted: list[CtRow] = [
        row
        for item in (
            change("I", 101, 0, None, ann),
            change("U", 103, 5, ann, richer),
            change("D", 104, 10, richer, None),
        )
        for row in qlik_ct.change_rows(item, spec, trim="always")
    ]
    assert [(row[0][-3:], row[1], row[2].hex()) for row in emitted] == [
        ("101", "I", "8003"),
        ("103", "B", ""),
        ("103", "U", "0002"),
        ("104", "D", "80"),
    ]


# ---------------------------------------------------------------------------------------------
# the model agrees with a naive replay of the emitted rows


def test_state_at_agrees_with_naive_replay(sim: Simulation, rows: dict[str, list[CtRow]]) -> None:
    points = [change.change_seq for change in sim.changes[:: max(1, len(sim.changes) // 40)]]
    for point in [*points, sim.changes[-1].change_seq]:
        assert sim.state_at(point) == naive_replay(sim.tables, sim.baseline, rows, point), point


def test_final_state_is_the_generators_live_state(sim: Simulation) -> None:
    assert sim.state_at() == sim.state_at("latest") == sim.final


def test_baseline_is_the_state_before_the_first_change(sim: Simulation) -> None:
    first = sim.changes[0]
    before_first = str(int(first.change_seq) - 1).zfill(35)
    assert sim.state_at(before_first) == sim.baseline
    assert {name: len(rows) for name, rows in sim.baseline.items()} == {
        "employees": 20,
        "order_lines": 20,
    }


def test_state_at_time_includes_every_transaction_of_that_hundredth(sim: Simulation) -> None:
    transactions = sim.transactions()
    shared = next(
        index
        for index in range(len(transactions) - 1)
        if transactions[index][0].commit_time == transactions[index + 1][0].commit_time
    )
    moment = transactions[shared][0].commit_time
    last_at_moment = max(
        change.change_seq for change in sim.changes if change.commit_time == moment
    )
    text = format_time_point(moment)
    assert parse_time_point(text) == moment
    assert sim.state_at_time(text) == sim.state_at(last_at_moment)
    assert sim.state_at_time(moment - timedelta(microseconds=1)) == sim.state_with(
        lambda change: change.commit_time < moment
    )


def test_same_seed_same_changes_other_seed_other_changes() -> None:
    first, again, other = (simulate(200, keys=10, seed=seed) for seed in (3, 3, 4))
    assert first.changes == again.changes and first.baseline == again.baseline
    assert first.changes != other.changes


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    count=st.integers(min_value=1, max_value=120),
    keys=st.integers(min_value=2, max_value=12),
)
def test_any_seed_replays_to_the_model(seed: int, count: int, keys: int) -> None:
    run = simulate(count, keys=keys, seed=seed)
    assert len(run.changes) == count
    emitted = emit(run.changes, run.tables, trim="random")
    assert run.final == naive_replay(run.tables, run.baseline, emitted)
    point = run.changes[random.Random(seed).randrange(count)].change_seq
    assert run.state_at(point) == naive_replay(run.tables, run.baseline, emitted, point)


# ---------------------------------------------------------------------------------------------
# files


def read_parquet_rows(folder: Path) -> list[CtRow]:
    table = ds.dataset(folder, format="parquet").to_table()
    return [tuple(row.values()) for row in table.to_pylist()]


def test_parquet_landing_batches_append(tmp_path: Path, sim: Simulation) -> None:
    head, tail = sim.changes[:1000], sim.changes[1000:1200]
    first = emit(head, sim.tables)
    written = write_parquet(
        tmp_path, first, sim.baseline, files=3, shuffle=True, duplicates=0.05, seed=1
    )
    assert [path.name for path in written["employees__ct"]] == [
        "part-00000.parquet",
        "part-00001.parquet",
        "part-00002.parquet",
    ]
    schema = ds.dataset(tmp_path / "order_lines__ct", format="parquet").schema
    assert [str(field.type) for field in schema] == [
        "string",
        "string",
        "binary",
        "string",
        "string",
        "string",
        "timestamp[us, tz=UTC]",
        "int32",
        "int64",
        "string",
        "int32",
        "decimal128(12, 2)",
        "timestamp[us, tz=UTC]",
    ]
    for name, spec in SPECS.items():
        landed = read_parquet_rows(tmp_path / f"{name}__ct")
        assert set(landed) == set(first[name])
        assert len(landed) == len(first[name]) + round(len(first[name]) * 0.05)
        assert landed[:20] != first[name][:20], "rows were not shuffled"
        baseline = read_parquet_rows(tmp_path / name)
        assert {spec.key_of(row): row for row in baseline} == sim.baseline[name]

    before = {path: path.read_bytes() for path in written["employees__ct"]}
    second = emit(tail, sim.tables)
    appended = write_parquet(tmp_path, second, files=2, seed=2)
    assert [path.name for path in appended["employees__ct"]] == [
        "part-00003.parquet",
        "part-00004.parquet",
    ]
    assert "employees" not in appended, "no baseline given, none written"
    assert all(path.read_bytes() == content for path, content in before.items())
    landed = read_parquet_rows(tmp_path / "employees__ct")
    assert set(landed) == set(first["employees"]) | set(second["employees"])


def test_csv_landing(tmp_path: Path, sim: Simulation) -> None:
    batch = emit(sim.changes[:300], sim.tables)
    write_csv(tmp_path, batch, sim.baseline)
    with (tmp_path / "order_lines__ct" / "part-00000.csv").open(encoding="utf-8") as handle:
        landed = list(csv.reader(handle))
    header, body = landed[0], landed[1:]
    assert header == list(qlik_ct.ct_column_names(ORDER_LINES))
    assert len(body) == len(batch["order_lines"])
    for text, row in zip(body, batch["order_lines"], strict=True):
        assert text[0] == row[0]
        assert text[2] == row[2].hex().upper()
        assert bytes.fromhex(text[2]) == row[2]
        assert datetime.fromisoformat(text[6]).replace(tzinfo=UTC) == row[6]
        for value, original in zip(text[HEADER_COUNT:], row[HEADER_COUNT:], strict=True):
            assert (value == "") == (original is None)
        assert Decimal(text[11]) == row[11]
    with (tmp_path / "employees" / "part-00000.csv").open(encoding="utf-8") as handle:
        baseline = list(csv.DictReader(handle))
    assert {int(row["employee_id"]) for row in baseline} == {
        key[0] for key in sim.baseline["employees"]
    }


def test_cli_streams_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "landing"
    code = qlik_ct.main(
        [
            "--out", str(out), "--changes", "3000", "--keys", "50", "--seed", "5",
            "--rows-per-file", "1000", "--row-group-size", "400", "--duplicates", "0.01",
            "--shuffle",
        ]
    )  # fmt: skip
    assert code == 0
    assert "changes/s" in capsys.readouterr().out
    reference = simulate(3000, keys=50, seed=5)
    expected = emit(reference.changes, reference.tables)
    for name in SPECS:
        files = sorted((out / f"{name}__ct").iterdir())
        assert len(files) > 1, "files roll over after --rows-per-file rows"
        landed = read_parquet_rows(out / f"{name}__ct")
        assert set(landed) == set(expected[name])
        assert len(landed) > len(expected[name])
        assert len(read_parquet_rows(out / name)) == 25
    code = qlik_ct.main(
        ["--out", str(tmp_path / "csv"), "--changes", "10", "--keys", "4", "--format", "csv"]
    )
    assert code == 0
    assert (
        (tmp_path / "csv" / "employees__ct" / "part-00000.csv")
        .read_text()
        .startswith("header__change_seq,header__change_oper,header__change_mask,")
    )


def test_cli_lands_a_later_batch_continuing_the_stream(tmp_path: Path) -> None:
    """--append-out: the same stream goes on, so landing both batches is landing all changes."""
    out, later = tmp_path / "landing", tmp_path / "later"
    code = qlik_ct.main(
        [
            "--out", str(out), "--changes", "1500", "--keys", "40", "--seed", "9",
            "--append-out", str(later), "--append-changes", "300",
        ]
    )  # fmt: skip
    assert code == 0
    generator = ChangeGenerator(DEFAULT_TABLES, seed=9, keys=40)
    expected_first = emit(generator.changes(1500))
    expected_second = emit(generator.changes(300))
    for name in SPECS:
        first = read_parquet_rows(out / f"{name}__ct")
        second = read_parquet_rows(later / f"{name}__ct")
        assert (first, second) == (expected_first[name], expected_second[name])
        assert max(row[0] for row in first) < min(row[0] for row in second)
        assert not (later / name).exists(), "a later batch carries no full load"


def test_widened_tables_add_fixed_width_text_columns(tmp_path: Path) -> None:
    tables = widened(DEFAULT_TABLES, 3, 25)
    for plain, wide in zip(DEFAULT_TABLES, tables, strict=True):
        assert wide.column_names == (*plain.column_names, "attr_01", "attr_02", "attr_03")
        assert wide.key_columns == plain.key_columns
    counts = qlik_ct.generate_landing(tmp_path, changes=400, keys=20, seed=3, tables=tables)
    assert counts["changes"] == 400
    values = ds.dataset(tmp_path / "employees__ct").to_table(columns=["attr_02"]).column(0)
    present = [value for value in values.to_pylist() if value is not None]
    assert present and {len(value) for value in present} == {25}
    assert len(set(present)) > 20, "values vary"
    with pytest.raises(ValueError, match="width"):
        widened(DEFAULT_TABLES, 1, 0)
    with pytest.raises(ValueError, match="width"):
        ColumnSpec("n", "int32", width=4)


@pytest.mark.parametrize(
    ("value", "field"),
    [
        pytest.param(None, "", id="NULL is an empty field"),
        pytest.param("", '""', id="an empty string is quoted"),
        pytest.param('Q"T', '"Q""T"', id="a quote is doubled inside quotes"),
        pytest.param("a,b", '"a,b"', id="a comma is quoted"),
        pytest.param("x\r\ny", '"x\r\ny"', id="a line break is quoted"),
        pytest.param("plain", "plain", id="plain text is bare"),
        pytest.param(b"\x01\xff", "01FF", id="bytes are uppercase hex"),
        pytest.param(b"", "", id="an empty mask is an empty field"),
    ],
)
def test_csv_fields_are_written_as_replicate_writes_them(value: object, field: str) -> None:
    assert qlik_ct.csv_field(value) == field


def test_vendor_csv_reads_back_with_rfc_4180(tmp_path: Path) -> None:
    """Python's csv module (RFC 4180) reads every hostile value back, "" apart from NULL."""
    import csv

    from cdc_simulator.table_model import HOSTILE_TEXTS

    rows = [(text, None) for text in HOSTILE_TEXTS]
    path = tmp_path / "t.csv"
    path.write_text(
        "".join(",".join(qlik_ct.csv_field(v) for v in row) + "\n" for row in rows),
        encoding="utf-8",
        newline="",
    )
    with path.open(newline="", encoding="utf-8") as handle:
        back = list(csv.reader(handle))
    assert [row[0] for row in back] == list(HOSTILE_TEXTS)
