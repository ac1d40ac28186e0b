"""A format's transaction boundaries worked out in Python from its canonical log, to check
`int_<source_system>__transaction_boundaries` against (Qlik Kafka's reads the copies'
judgement, not the log: qlik_kafka_transaction_boundaries).

The rule (spec F.3, docs/point-in-time.md), written from the spec, not from the model's SQL:
per order scope, the changes that end their transaction (txn_last true) or mark no end
(txn_last NULL), before the scope's first change flagged `transaction_incomplete`; one row
per distinct (order_scope, order_key, effective_at).
"""

from __future__ import annotations

from typing import Any


def boundary_differences(spark: Any, schema: str, source_system: str) -> list[str]:
    """Where `<schema>.int_<source_system>__transaction_boundaries` differs from the rule over
    `<schema>.int_<source_system>__changes_canonical` (empty when it equals)."""
    log = spark.sql(
        "select order_scope, order_key, effective_at, txn_last,"
        " array_contains(flags, 'transaction_incomplete') as incomplete"
        f" from {schema}.int_{source_system}__changes_canonical"
    ).collect()
    first_incomplete: dict[Any, Any] = {}
    for row in log:
        if row.incomplete:
            scope = row.order_scope
            if scope not in first_incomplete or row.order_key < first_incomplete[scope]:
                first_incomplete[scope] = row.order_key
    expected = {
        (row.order_scope, row.order_key, row.effective_at)
        for row in log
        if row.txn_last is not False
        and (
            row.order_scope not in first_incomplete
            or row.order_key < first_incomplete[row.order_scope]
        )
    }
    table = [
        (row[0], row[1], row[2])
        for row in spark.sql(
            "select order_scope, order_key, effective_at"
            f" from {schema}.int_{source_system}__transaction_boundaries"
        ).collect()
    ]
    differences = []
    if len(table) != len(set(table)):
        differences.append(f"{len(table) - len(set(table))} boundaries listed twice")
    differences += [f"missing {row}" for row in sorted(expected - set(table), key=str)]
    differences += [f"not a boundary {row}" for row in sorted(set(table) - expected, key=str)]
    return differences
