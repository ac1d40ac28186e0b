"""Comparing what the pipeline built with the independent model's state (cdc_simulator):
typed, keyed by the key columns, every difference listed. Shared by the end-to-end proofs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cdc_simulator.table_model import UTC, Key, Row, TableSpec


def key_text(spec: TableSpec, key: Key) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in zip(spec.key_columns, key, strict=True))


def normalized(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


def fetch_state(spark: Any, spec: TableSpec, relation: str) -> tuple[dict[Key, Row], list[str]]:
    """The rows of `relation` (data columns only, by name) keyed by key, plus type problems."""
    columns = ", ".join(spec.column_names)
    frame = spark.sql(f"select {columns} from {relation}")
    problems = [
        f"column {field.name} is {field.dataType.simpleString()}, expected {column.spark_type}"
        for field, column in zip(frame.schema.fields, spec.columns, strict=True)
        if field.dataType.simpleString() != column.spark_type
    ]
    state: dict[Key, Row] = {}
    for record in frame.toArrow().to_pylist():
        row = tuple(normalized(record[name]) for name in spec.column_names)
        key = spec.key_of(row)
        if key in state:
            problems.append(f"key {key_text(spec, key)} appears more than once")
        state[key] = row
    return state, problems


def state_difference(
    spec: TableSpec,
    expected: Mapping[Key, Row],
    actual: Mapping[Key, Row],
    problems: list[str],
    limit: int = 10,
) -> list[str]:
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    differing = sorted(key for key in set(expected) & set(actual) if expected[key] != actual[key])
    lines = list(problems)
    lines += [f"missing {key_text(spec, key)}: expected {expected[key]}" for key in missing[:limit]]
    lines += [f"unexpected {key_text(spec, key)}: got {actual[key]}" for key in extra[:limit]]
    for key in differing[:limit]:
        columns = [
            f"{name} expected {want!r} got {got!r}"
            for name, want, got in zip(spec.column_names, expected[key], actual[key], strict=True)
            if want != got
        ]
        lines.append(f"differs at {key_text(spec, key)}: " + "; ".join(columns))
    counts = (len(missing), len(extra), len(differing))
    if any(counts):
        lines.insert(0, "{} missing, {} unexpected, {} differing keys".format(*counts))
    return lines


def check(
    spark: Any, spec: TableSpec, relation: str, expected: Mapping[Key, Row], label: str
) -> list[str]:
    actual, problems = fetch_state(spark, spec, relation)
    lines = state_difference(spec, expected, actual, problems)
    if not lines:
        return []
    return [f"{relation} ({label}), {len(expected)} rows expected:", *(f"  {x}" for x in lines)]


def check_tables(
    spark: Any,
    tables: Sequence[TableSpec],
    relation: str,
    expected: Mapping[str, Mapping[Key, Row]],
    label: str,
) -> list[str]:
    """`check` for each table: `relation` is a template with {table}, `expected` the model's
    state per table name."""
    failures: list[str] = []
    for spec in tables:
        failures += check(spark, spec, relation.format(table=spec.name), expected[spec.name], label)
    return failures


@dataclass(frozen=True)
class Expectation:
    """One relation (a table, a view, a table function call, a subquery in parentheses)
    and the model's state it must hold."""

    relation: str
    expected: Mapping[Key, Row]
    label: str


def check_all(
    spark: Any, spec: TableSpec, expectations: Sequence[Expectation], per_query: int = 8
) -> list[str]:
    """`check` for many relations of one table's shape (the same table function at many
    points, say), `per_query` relations a query: a union of the relations' data columns, each
    branch tagged with its position, read once and split by the tag. A query a relation costs
    seconds of planning and a Spark job each; a union of a few costs little more than one (a
    union of a hundred views takes longer to plan than the queries one by one). The answers
    are the same as `check`'s, relation by relation. The column types are checked on the
    union, so its branches must be one relation's shape: give relations of one table
    function, or of one table, in a call."""
    failures: list[str] = []
    for start in range(0, len(expectations), per_query):
        failures += _check_union(spark, spec, expectations[start : start + per_query])
    return failures


def _check_union(spark: Any, spec: TableSpec, expectations: Sequence[Expectation]) -> list[str]:
    columns = ", ".join(spec.column_names)
    union = " union all ".join(
        f"select {position} as check_position, {columns} from {expectation.relation}"
        for position, expectation in enumerate(expectations)
    )
    frame = spark.sql(union)
    problems = [
        f"column {field.name} is {field.dataType.simpleString()}, expected {column.spark_type}"
        for field, column in zip(frame.schema.fields[1:], spec.columns, strict=True)
        if field.dataType.simpleString() != column.spark_type
    ]
    states: list[dict[Key, Row]] = [{} for _ in expectations]
    duplicates: list[list[str]] = [[] for _ in expectations]
    for record in frame.toArrow().to_pylist():
        position = record["check_position"]
        row = tuple(normalized(record[name]) for name in spec.column_names)
        key = spec.key_of(row)
        if key in states[position]:
            duplicates[position].append(f"key {key_text(spec, key)} appears more than once")
        states[position][key] = row
    failures: list[str] = []
    for expectation, actual, repeated in zip(expectations, states, duplicates, strict=True):
        lines = state_difference(spec, expectation.expected, actual, problems + repeated)
        if lines:
            failures += [
                f"{expectation.relation} ({expectation.label}), "
                f"{len(expectation.expected)} rows expected:",
                *(f"  {x}" for x in lines),
            ]
    return failures
