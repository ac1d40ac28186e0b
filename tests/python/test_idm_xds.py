"""The XDS documents of the IDM JDBC publisher (seed 002, spec C.5) on the shipped event log.

One `dbt build` of fct_idm_jdbc_xds_documents and its parents (their data tests; the model's unit
tests run in the sample build). The five reference documents are copied verbatim from seed 002 (the
XML under tables 5-16 to 5-20, records 101-111 of seeds/idm_jdbc/event_log.csv). The seed prints
them with spaces between elements and a trailing space inside <association>; whitespace at the
edges of text is insignificant here (both sides are canonicalised with strip_text=True), everything
else must match exactly.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "idm_xds"

# Seed 002, verbatim (tables 5-16 to 5-20).
SEED_DOCUMENTS = {
    (101, 102, 103): (
        '<add class-name="usr"> <association>idu=1,table=usr,schema=indirect </association>'
        ' <add-attr attr-name="fname"> <value type="string">Jack</value> </add-attr>'
        ' <add-attr attr-name="lname"> <value type="string">Frost</value> </add-attr>'
        ' <add-attr attr-name="photo"> <value type="octet">qqo=</value> </add-attr> </add>'
    ),
    (104, 105, 106): (
        '<modify class-name="usr"> <association>idu=1,table=usr,schema=indirect </association>'
        ' <modify-attr attr-name="fname"> <remove-value> <value type="string">Jack</value>'
        ' </remove-value> <add-value> <value type="string">John</value> </add-value>'
        ' </modify-attr> <modify-attr attr-name="lname"> <remove-value>'
        ' <value type="string">Frost</value> </remove-value> <add-value>'
        ' <value type="string">Doe</value> </add-value> </modify-attr>'
        ' <modify-attr attr-name="photo"> <remove-value> <value type="octet">qqo=</value>'
        ' </remove-value> <add-value> <value type="octet">u7s=</value> </add-value>'
        " </modify-attr> </modify>"
    ),
    (107, 108, 109): (
        '<modify class-name="usr"> <association>idu=1,table=usr,schema=indirect </association>'
        ' <modify-attr attr-name="fname"> <remove-all-values/> <add-value>'
        ' <value type="string">John</value> </add-value> </modify-attr>'
        ' <modify-attr attr-name="lname"> <remove-all-values/> <add-value>'
        ' <value type="string">Doe</value> </add-value> </modify-attr>'
        ' <modify-attr attr-name="photo"> <remove-all-values/> <add-value>'
        ' <value type="octet">u7s=</value> </add-value> </modify-attr> </modify>'
    ),
    (110,): (
        '<delete class-name="usr"> <association>idu=1,table=usr,schema=indirect </association>'
        " </delete>"
    ),
    (111,): (
        '<modify class-name="usr"> <association>idu=1,table=usr,schema=indirect </association>'
        ' <modify-attr attr-name="fname"> <remove-all-values/> <add-value>'
        ' <value type="string">John</value> </add-value> </modify-attr>'
        ' <modify-attr attr-name="lname"> <remove-all-values/> <add-value>'
        ' <value type="string">Doe</value> </add-value> </modify-attr>'
        ' <modify-attr attr-name="photo"> <remove-all-values/> <add-value>'
        ' <value type="octet">u7s=</value> </add-value> </modify-attr> </modify>'
    ),
}


def _canonical(document: str) -> str:
    """Well-formedness first (ET.fromstring raises), then C14N without text-edge whitespace."""
    ET.fromstring(document)
    return ET.canonicalize(xml_data=document, strip_text=True)


@pytest.fixture(scope="module")
def documents(run_dbt: Callable[..., Any], spark: Any) -> dict[tuple[int, ...], dict[str, Any]]:
    # the IDM seeds first: the staging reads them as its source (not a ref), so the build's
    # selection does not bring them, and this process may not have run the sample build
    run_dbt(["seed", "--select", "path:seeds/idm_jdbc"], schema=SCHEMA)
    # its data tests, not its three dbt unit tests: their rows are fixed, not these seeds,
    # and the sample build (test_pipeline_sample.py) runs every unit test of the project
    run_dbt(
        ["build", "--select", "+fct_idm_jdbc_xds_documents", "--exclude", "test_type:unit"],
        schema=SCHEMA,
    )
    rows = spark.sql(f"select * from {SCHEMA}.fct_idm_jdbc_xds_documents").collect()
    return {tuple(row["record_ids"]): row.asDict() for row in rows}


def _group_of(documents: dict[tuple[int, ...], dict[str, Any]], record_id: int) -> dict[str, Any]:
    found = [row for ids, row in documents.items() if record_id in ids]
    assert len(found) == 1, f"record {record_id} is in {len(found)} groups"
    return found[0]


@pytest.mark.parametrize("record_ids", list(SEED_DOCUMENTS), ids=str)
def test_seed_examples_match_the_seed_documents(
    documents: dict[tuple[int, ...], dict[str, Any]], record_ids: tuple[int, ...]
) -> None:
    assert record_ids in documents, f"no group with exactly the records {record_ids}"
    row = documents[record_ids]
    assert row["is_published"] is True
    assert row["xds_document"] is not None
    assert _canonical(row["xds_document"]) == _canonical(SEED_DOCUMENTS[record_ids])


def test_every_document_is_well_formed_xml(
    documents: dict[tuple[int, ...], dict[str, Any]],
) -> None:
    built = {ids: row["xds_document"] for ids, row in documents.items() if row["xds_document"]}
    assert len(built) >= 10
    for ids, document in built.items():
        try:
            ET.fromstring(document)
        except ET.ParseError as error:  # pragma: no cover - the message is the point
            pytest.fail(f"records {ids}: not well-formed ({error}): {document}")


@pytest.mark.parametrize(
    ("record_id", "reason"),
    [
        (204, "superseded"),  # R1: the pending type 8 (205) on the same field wins
        (205, "superseded"),  # R2: the pending type 6 (206) on the same row wins
        (206, "queryback_target_deleted"),  # R3: idu=7 is deleted by 207
        (207, "loopback"),  # perpetrator IDMDRV is the driver's own account
    ],
)
def test_spec_example_groups_are_not_published(
    documents: dict[tuple[int, ...], dict[str, Any]], record_id: int, reason: str
) -> None:
    row = _group_of(documents, record_id)
    assert row["is_published"] is False
    assert row["not_published_reason"] == reason


def test_quoted_compound_key_is_published_with_its_logged_association(
    documents: dict[tuple[int, ...], dict[str, Any]],
) -> None:
    row = _group_of(documents, 209)
    assert row["is_published"] is True
    assert row["not_published_reason"] is None
    root = ET.fromstring(row["xds_document"])
    assert (root.tag, root.get("class-name")) == ("add", "acct")
    assert root.findtext("association") == 'k1="A+B"+k2=7,table=acct,schema=indirect'
    assert [(attr.get("attr-name"), attr.findtext("value")) for attr in root.iter("add-attr")] == [
        ("note", "x")
    ]


def test_special_characters_in_a_key_survive_escaping(
    documents: dict[tuple[int, ...], dict[str, Any]],
) -> None:
    # record 211 logs k1=", ; ' + \" = \\ < >"+k2=8: every XML special character at once.
    row = _group_of(documents, 211)
    root = ET.fromstring(row["xds_document"])
    assert root.findtext("association") == (
        'k1=", ; \' + \\" = \\\\ < >"+k2=8,table=acct,schema=indirect'
    )
