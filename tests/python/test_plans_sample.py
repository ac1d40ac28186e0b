"""What Spark makes of every model's query (issue 25): `EXPLAIN` of each model of the shared
sample build (conftest sample_build: all five formats' sample tables).

No model moves every row into one task.

A window with no partition key, or a global sort or limit, makes Spark gather all its input
in one partition (`Exchange SinglePartition`): on a cluster, one task then holds a whole
landing however many executors there are. So does a window (or a join) partitioned only by
columns with one value per table or per trail (SCOPE_COLUMNS: `partition by source_table`,
`partition by order_scope`): the exchange hashes every row of a table to one partition.
Such an exchange is harmless only where it gathers a summary, not rows: the partial results
of an aggregate with no grouping (a max, a count) or an aggregate grouped by keys that make
one row per part of a landing (ALLOWED_SUMMARY_KEYS: GoldenGate carries trail order across
its 16 MiB trail segments from one row per segment, macros/goldengate/goldengate_trail_segment.sql;
a running maximum is carried across order segments the same way, macros/cdc/cdc_running_max.sql)
or, under a partitioning by scope, one row per table. Any other such exchange fails, naming
the model and the operator under it; a model that had to keep one would be named in ALLOWED
with the reason (none has to).

The plans are Spark's own (the physical plan of each model's compiled SQL), so the test sees
what a cluster would run, not what the SQL looks like; a model whose run found nothing new
(cdc_nothing_new) has no query and is skipped. Each model is planned once (`model_plans`)
for both checks: the plan's text is what `EXPLAIN` prints, and its code is what `EXPLAIN
CODEGEN` prints. Adaptive execution is off while planning, as it would plan the stages only as
it runs them; it adds no exchange of its own, so its initial plan has the same ones.

No model's generated code fails to compile. The test session runs without Java code
generation (conftest: faster on tiny data), so planning here turns it on for each model's
plan and compiles every whole-stage subtree as `cdc-dbt` runs them: a subtree Janino
cannot compile (Spark then logs `ERROR CodeGenerator: Failed to compile the generated Java
code` and runs the stage without whole-stage codegen) shows as a subtree without byte-code
statistics (maxMethodCodeSize:-1).

And no stage runs un-JIT-compiled: HotSpot never compiles a method of more than 8000 bytes of
byte code to machine code, so a whole-stage method that large runs in the JVM's byte-code
interpreter (GoldenGate judging took three times as long, BENCHMARKS.md section 8). The
profile sets `spark.sql.codegen.hugeMethodLimit` to 8000, so Spark runs such a stage without
whole-stage codegen; the test fails, naming the models that have such a method and its
size, if the session the profile builds would run them under a larger limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

# grouping keys of an aggregate whose rows are one per part of a landing, not one per row
ALLOWED_SUMMARY_KEYS = frozenset({"trail_seqno", "trail_segment", "order_segment"})
# columns with one value per landing, trail or table: an exchange partitioned by these alone
# puts a whole table (or a whole trail) in one partition, as a window over it would
SCOPE_COLUMNS = frozenset(
    {
        "order_scope",
        "source_system",
        "source_instance",
        "source_schema",
        "source_table",
        "source_table_norm",
        "source_table_name",
        "landed_table",
        "form",
    }
)
# model name -> why its single-partition exchange must stay (none today)
ALLOWED: dict[str, str] = {}

AGGREGATES = ("HashAggregate", "ObjectHashAggregate", "SortAggregate")
NOTHING_NEW = "as cdc_nothing_new where false"
# HotSpot's -XX:HugeMethodLimit: byte code size above which a method is never JIT-compiled
HOTSPOT_HUGE_METHOD_LIMIT = 8000


def _operator(line: str) -> tuple[int, str]:
    """(depth, operator text) of one line of a plan tree: the depth is where the operator's
    name starts; the tree drawing and whole-stage codegen ids are dropped."""
    match = re.match(r"^([\s:|+\-]*)(?:\*\(\d+\)\s*)?(.*)$", line)
    assert match is not None
    return len(match.group(1)), match.group(2)


def _grouping_keys(operator: str) -> set[str] | None:
    """The column names an aggregate groups by, or None when `operator` is no aggregate."""
    if not operator.startswith(AGGREGATES):
        return None
    keys = re.search(r"keys=\[([^\]]*)\]", operator)
    if keys is None or not keys.group(1).strip():
        return set()
    names = {re.sub(r"#\d+L?$", "", key.strip()) for key in keys.group(1).split(",")}
    if "_groupingexpression" in names:
        # Spark groups by an expression (a segment computed from a column) under this name
        # and gives it its alias in the output: the output's names that are no key
        output = re.search(r"output=\[([^\]]*)", operator)
        listed = output.group(1) if output else ""
        aliases = set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)#\d+", listed))
        names = (names - {"_groupingexpression"}) | (aliases & ALLOWED_SUMMARY_KEYS) - names
        if not aliases & ALLOWED_SUMMARY_KEYS:
            names.add("_groupingexpression")
    return names


def _exchange_scope(operator: str) -> frozenset[str] | None:
    """What an exchange operator gathers by: frozenset() for `Exchange SinglePartition`, the
    partitioning's column names for a hash partitioning by SCOPE_COLUMNS alone, None for any
    other operator or partitioning."""
    if operator.startswith("Exchange SinglePartition"):
        return frozenset()
    partitioning = re.match(r"Exchange hashpartitioning\((.*), \d+\)", operator)
    if partitioning is None:
        return None
    columns = frozenset(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)#\d+L?", partitioning.group(1)))
    return columns if columns and columns <= SCOPE_COLUMNS else None


def single_partition_gathers(plan: str) -> list[str]:
    """The operators below each exchange of `plan` that puts every row of a landing, a trail
    or a table in one partition (`Exchange SinglePartition`, or a hash partitioning by
    SCOPE_COLUMNS alone) and that gather rows, not a summary: anything but an aggregate with no
    grouping or grouped by ALLOWED_SUMMARY_KEYS (and, under a partitioning by scope, by scope
    columns: one row per table)."""
    lines = [line for line in plan.splitlines() if line.strip()]
    found = []
    for index, line in enumerate(lines):
        depth, operator = _operator(line)
        scope = _exchange_scope(operator)
        if scope is None:
            continue
        # the exchange's one child is the next line drawn deeper than it
        child = next(
            (op for d, op in map(_operator, lines[index + 1 :]) if d > depth),
            "(nothing)",
        )
        keys = _grouping_keys(child)
        if keys is None or not keys <= ALLOWED_SUMMARY_KEYS | scope:
            found.append(child[:160])
    return found


@dataclass(frozen=True)
class Plan:
    """One model's physical plan: its text (as `EXPLAIN` prints it) and its whole-stage
    subtrees with their generated code, compiled (as `EXPLAIN CODEGEN` prints them)."""

    text: str
    codegen: str


# how `cdc-dbt` runs (code generation on, as the profile leaves it) and how the plans are
# read (adaptive execution off: the plan is whole before it runs)
PLANNING = {
    "spark.sql.codegen.wholeStage": "true",
    "spark.sql.codegen.factoryMode": "FALLBACK",
    "spark.sql.adaptive.enabled": "false",
}


@contextmanager
def planning(spark: Any) -> Iterator[None]:
    """The session's settings as PLANNING has them, put back after."""
    saved = {key: spark.conf.get(key) for key in PLANNING}
    try:
        for key, value in PLANNING.items():
            spark.conf.set(key, value)
        yield
    finally:
        for key, value in saved.items():
            spark.conf.set(key, value)


def plan_of(spark: Any, query: str) -> Plan:
    """`query` planned once (inside `planning`), its code generated and compiled."""
    physical = spark.sql(query)._jdf.queryExecution().executedPlan()
    debug = spark._jvm.org.apache.spark.sql.execution.debug.package
    return Plan(text=physical.toString(), codegen=debug.codegenString(physical))


def test_the_plan_reader_finds_a_window_without_partition_key(spark: Any) -> None:
    """The reader itself: a window ordered over a whole table is found, the same window
    partitioned is not, a global max is a summary, and so is a count per trail segment; a
    row_number over a grouping by something else is found; so is a window partitioned by a
    table's scope alone (its name, its order scope), but not one partitioned by a key beside it
    or one over a summary per segment of the scope."""
    spark.range(1000).selectExpr(
        "id",
        "id % 7 as trail_seqno",
        "id % 3 as k",
        "concat('t', id % 2) as source_table",
        "concat('ogg:', id % 1) as order_scope",
        "id div 100 as order_segment",
    ).createOrReplaceTempView("plan_reader_rows")

    def gathers(sql: str) -> list[str]:
        with planning(spark):
            return single_partition_gathers(plan_of(spark, sql).text)

    assert gathers("select sum(id) over (order by id) from plan_reader_rows")
    assert not gathers("select sum(id) over (partition by k order by id) from plan_reader_rows")
    assert not gathers("select max(id) from plan_reader_rows")
    assert not gathers(
        "select trail_seqno, sum(n) over (order by trail_seqno) from "
        "(select trail_seqno, count(*) as n from plan_reader_rows group by trail_seqno)"
    )
    assert gathers(
        "select k, row_number() over (order by k) from "
        "(select k, count(*) as n from plan_reader_rows group by k)"
    )
    # a window partitioned by a table's scope alone holds the whole table in one task; with a
    # key beside it, or over a summary of one row per segment of the scope, it does not
    assert gathers(
        "select max(id) over (partition by source_table order by id) from plan_reader_rows"
    )
    assert gathers(
        "select sum(id) over (partition by order_scope, source_table order by id) "
        "from plan_reader_rows"
    )
    assert not gathers(
        "select max(id) over (partition by source_table, k order by id) from plan_reader_rows"
    )
    assert not gathers(
        "select order_scope, max(m) over (partition by order_scope order by order_segment) from "
        "(select order_scope, order_segment, max(id) as m from plan_reader_rows "
        "group by order_scope, order_segment)"
    )
    # a segment computed in the grouping (Spark's _groupingexpression) counts by its alias
    assert not gathers(
        "select order_scope, max(m) over (partition by order_scope order by order_segment) from "
        "(select order_scope, id div 50 as order_segment, max(id) as m from plan_reader_rows "
        "group by order_scope, id div 50)"
    )
    assert gathers(
        "select order_scope, max(m) over (partition by order_scope order by bucket) from "
        "(select order_scope, id div 50 as bucket, max(id) as m from plan_reader_rows "
        "group by order_scope, id div 50)"
    )


@pytest.fixture(scope="module")
def model_queries(sample_build: Any) -> dict[str, str]:
    """Each model of the sample build with its compiled query (those that found nothing new
    have none)."""
    queries = {
        result.node.name: result.node.compiled_code
        for result in sample_build.result.results
        if result.node.resource_type == "model"
        and result.node.compiled_code
        and NOTHING_NEW not in result.node.compiled_code
    }
    assert len(queries) >= 100, f"only {len(queries)} models: is the sample build complete?"
    return queries


@pytest.fixture(scope="module")
def model_plans(spark: Any, model_queries: dict[str, str]) -> dict[str, Plan]:
    """Each model planned once with code generation on; the session's settings put back."""
    with planning(spark):
        return {name: plan_of(spark, query) for name, query in model_queries.items()}


def test_no_model_gathers_every_row_in_one_partition(model_plans: dict[str, Plan]) -> None:
    """Every model of the sample build of all five formats, by its plan. (Before the running
    maxima and Kafka's message order were taken per segment, this found the GoldenGate and
    OpenEdge change logs' effective_at and Kafka's REFRESH batches, which ordered a whole trail
    or table in one task, and every model reading GoldenGate's log, then a view.)"""
    offenders = {}
    for name, plan in model_plans.items():
        gathers = single_partition_gathers(plan.text)
        if gathers and name not in ALLOWED:
            offenders[name] = gathers
    assert not offenders, "models whose plan gathers every row in one partition:\n" + "\n".join(
        f"  {name}: {gathers}" for name, gathers in sorted(offenders.items())
    )


def uncompiled_subtrees(codegen: str) -> list[str]:
    """The headers of the whole-stage subtrees in `EXPLAIN CODEGEN` output that did not
    compile (no byte-code statistics: maxMethodCodeSize -1)."""
    return re.findall(r"== Subtree \d+ / \d+ \(maxMethodCodeSize:-1[^\n]*", codegen)


def largest_method(codegen: str) -> int:
    """The byte-code size of the largest method of any whole-stage subtree in `EXPLAIN
    CODEGEN` output (-1 when none compiled)."""
    sizes = re.findall(r"maxMethodCodeSize:(-?\d+)", codegen)
    return max((int(size) for size in sizes), default=-1)


def test_no_model_fails_code_generation(spark: Any, model_plans: dict[str, Plan]) -> None:
    """Every model of the sample build, its plan compiled with code generation on."""
    failed, too_long, compiled = {}, {}, 0
    huge_method_limit = int(spark.conf.get("spark.sql.codegen.hugeMethodLimit"))
    for name, plan in model_plans.items():
        compiled += plan.codegen.count("== Subtree ")
        if uncompiled_subtrees(plan.codegen):
            failed[name] = uncompiled_subtrees(plan.codegen)
        if largest_method(plan.codegen) > HOTSPOT_HUGE_METHOD_LIMIT:
            too_long[name] = largest_method(plan.codegen)
    assert compiled >= 100, f"only {compiled} whole-stage subtrees: was code generation on?"
    assert not failed, f"models whose generated code does not compile: {failed}"
    assert not too_long or huge_method_limit <= HOTSPOT_HUGE_METHOD_LIMIT, (
        f"spark.sql.codegen.hugeMethodLimit is {huge_method_limit}: these models have whole-stage"
        f" methods HotSpot will not JIT-compile (bytes): {too_long}"
    )
