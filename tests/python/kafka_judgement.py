"""The Qlik Kafka copies' judgement worked out in Python from the decoded messages, to check
`int_qlik_kafka__message_copies_judged` against, whichever way a run wrote it (judged again
whole, or appended to: qlik_kafka_judgement_plan).

The rules (spec B.7, B.8), written from the spec, not from the model's SQL: per table, the
valid messages in message order (message time: changeSequence time, else the Kafka
timestamp; then changeSequence, NULL first; partition; offset); a REFRESH message not right
after another REFRESH starts a batch (numbered from 1; 0 before the first); a batch's time is
its first message's; a REFRESH row is a reload when its batch's time is after the table's
first CDC message. A change is (operation, changeSequence) for CDC, (REFRESH, batch, key)
for REFRESH; its copies are numbered in staging order (staged_at, landed table, partition,
offset); the change is conflicting when its first run staged more than one value, a later
copy with another value than the first is late_conflicting, another copy an exact_copy.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

PLACE = ("landed_table", "kafka_partition", "kafka_offset", "value_hash")
JUDGEMENT = (
    "refresh_batch",
    "refresh_batch_at",
    "first_change_at",
    "change_identity",
    "is_reload",
    "copy_number",
    "first_staged_at",
    "duplicate_status",
)
# copied from the decoded message, for int_qlik_kafka__transaction_boundaries
CARRIED = (
    "change_seq_at",
    "transaction_id",
    "transaction_event_counter",
    "is_transaction_last_event",
)


def _nulls_first(value: Any) -> tuple[bool, Any]:
    return (value is not None, value)


def judge(messages: list[dict[str, Any]]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Each valid decoded message's judgement, by its place (PLACE)."""
    by_table: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for message in messages:
        at = message["change_seq_at"] or message["kafka_timestamp"]
        by_table[message["source_table"]].append({**message, "message_at": at})
    judged: list[dict[str, Any]] = []
    for rows in by_table.values():
        rows.sort(
            key=lambda m: (
                _nulls_first(m["message_at"]),
                _nulls_first(m["change_seq"]),
                m["kafka_partition"],
                m["kafka_offset"],
            )
        )
        changes_at = [
            m["message_at"]
            for m in rows
            if m["operation"] != "REFRESH" and m["message_at"] is not None
        ]
        first_change_at = min(changes_at) if changes_at else None
        batch, previous = 0, None
        batch_times: dict[int, list[Any]] = defaultdict(list)
        for message in rows:
            if message["operation"] == "REFRESH" and previous != "REFRESH":
                batch += 1
            previous = message["operation"]
            message["refresh_batch"] = batch
            if message["message_at"] is not None:
                batch_times[batch].append(message["message_at"])
        batch_at = {number: min(times) for number, times in batch_times.items()}
        for message in rows:
            refresh = message["operation"] == "REFRESH"
            message["refresh_batch_at"] = batch_at.get(message["refresh_batch"])
            message["first_change_at"] = first_change_at
            message["change_identity"] = (
                f"REFRESH|{message['refresh_batch']}|{message['pk_string']}"
                if refresh
                else f"{message['operation']}|{message['change_seq']}"
            )
            message["is_reload"] = (
                refresh
                and first_change_at is not None
                and message["refresh_batch_at"] is not None
                and message["refresh_batch_at"] > first_change_at
            )
            judged.append(message)
    copies: dict[tuple[Any, Any], list[dict[str, Any]]] = defaultdict(list)
    for message in judged:
        copies[(message["source_table"], message["change_identity"])].append(message)
    for change in copies.values():
        change.sort(
            key=lambda m: (
                m["staged_at"],
                m["landed_table"],
                m["kafka_partition"],
                m["kafka_offset"],
            )
        )
        first = change[0]
        first_run_values = {m["value_hash"] for m in change if m["staged_at"] == first["staged_at"]}
        for number, message in enumerate(change, start=1):
            message["copy_number"] = number
            message["first_staged_at"] = first["staged_at"]
            if len(first_run_values) > 1:
                message["duplicate_status"] = "conflicting"
            elif message["value_hash"] != first["value_hash"]:
                message["duplicate_status"] = "late_conflicting"
            elif number > 1:
                message["duplicate_status"] = "exact_copy"
            else:
                message["duplicate_status"] = "first"
    return {tuple(m[c] for c in PLACE): {c: m[c] for c in JUDGEMENT + CARRIED} for m in judged}


def judgement_differences(spark: Any, schema: str) -> list[str]:
    """Where `<schema>.int_qlik_kafka__message_copies_judged` differs from judge() over the
    valid messages of `<schema>.int_qlik_kafka__messages_decoded` (empty when it equals)."""
    decoded = [
        row.asDict()
        for row in spark.sql(
            "select source_table, operation, change_seq, kafka_timestamp, pk_string, staged_at, "
            + ", ".join(CARRIED)
            + ", "
            + ", ".join(PLACE)
            + f" from {schema}.int_qlik_kafka__messages_decoded where is_valid"
        ).collect()
    ]
    expected = judge(decoded)
    table = {
        tuple(row[c] for c in PLACE): {c: row[c] for c in JUDGEMENT + CARRIED}
        for row in spark.sql(
            f"select {', '.join(PLACE + JUDGEMENT + CARRIED)}"
            f" from {schema}.int_qlik_kafka__message_copies_judged"
        ).collect()
    }
    rows = spark.sql(f"select count(*) from {schema}.int_qlik_kafka__message_copies_judged")
    differences = []
    if rows.first()[0] != len(table):
        differences.append(f"{rows.first()[0]} judgements for {len(table)} places")
    for place in sorted(set(expected) | set(table), key=str):
        if expected.get(place) != table.get(place):
            differences.append(
                f"{place}: expected {expected.get(place)}, judged {table.get(place)}"
            )
    return differences
