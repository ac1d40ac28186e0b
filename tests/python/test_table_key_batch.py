"""The vectorized `table_key` parser equals the reference, row by row (spec C.4)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from python_udfs.table_key import (
    SPECIAL_CHARACTERS,
    TableKeyError,
    format_table_key,
    parse_table_key,
)
from python_udfs.table_key_batch import RESULT_TYPE, parse_table_key_batch

Row = dict[str, Any]
NULL_ROW: Row = {"pairs": None, "error": None}


def reference_row(key: str | None) -> Row:
    """What the batch must say for one key, from the reference parser."""
    try:
        pairs = parse_table_key(key)
    except TableKeyError as error:
        return {"pairs": None, "error": str(error)}
    if pairs is None:
        return NULL_ROW
    return {"pairs": [{"column": c, "value": v} for c, v in pairs], "error": None}


def pairs_or_error(result: pa.StructArray) -> list[Any]:
    return [
        row["error"]
        if row["error"] is not None
        else row["pairs"] and [(pair["column"], pair["value"]) for pair in row["pairs"]]
        for row in result.to_pylist()
    ]


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        pytest.param(
            ["idu=1", "pk_empno=1", "pkey1=value1+pkey2=value2"],
            [[("idu", "1")], [("pk_empno", "1")], [("pkey1", "value1"), ("pkey2", "value2")]],
            id="seed examples, all on the fast path",
        ),
        pytest.param(
            [r'''pkey=", ; ' + \" = \\ < >"''', 'k1="A+B"+k2=7', "idu=1"],
            [[("pkey", ", ; ' + \" = \\ < >")], [("k1", "A+B"), ("k2", "7")], [("idu", "1")]],
            id="quoted keys go through the reference",
        ),
        pytest.param(
            [None, "idu=1", None],
            [None, [("idu", "1")], None],
            id="null keys stay null",
        ),
        pytest.param(
            ["a=1++b=2", "", "idu= 1", "a=b;c", "a="],
            [
                "empty identifier at 4",
                "empty table_key",
                [("idu", " 1")],
                "unquoted special character ';' at 3",
                [("a", "")],
            ],
            id="invalid keys carry the reference message",
        ),
        pytest.param(["名前=値+é=ü"], [[("名前", "値"), ("é", "ü")]], id="non-ASCII"),
        pytest.param(["a=x\ny+b=\n"], [[("a", "x\ny"), ("b", "\n")]], id="newlines"),
        pytest.param([], [], id="no rows"),
    ],
)
def test_parse_table_key_batch(keys: list[str | None], expected: list[Any]) -> None:
    result = parse_table_key_batch(pa.array(keys, pa.string()))
    assert result.type == RESULT_TYPE
    assert result.null_count == 0
    assert pairs_or_error(result) == expected


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(pa.array(["a=1", None, "b=2+c="], pa.large_string()), id="large_string"),
        pytest.param(pa.chunked_array([["a=1"], [None, 'b="2"']], pa.string()), id="chunked"),
        pytest.param(pa.array(["x", "a=1", "b=;", None, "y"]).slice(1, 3), id="sliced"),
        pytest.param(pa.nulls(3), id="null-typed"),
        pytest.param(pa.array([None, None], pa.string()), id="all null"),
    ],
)
def test_input_kinds(keys: pa.Array | pa.ChunkedArray) -> None:
    result = parse_table_key_batch(keys)
    assert result.type == RESULT_TYPE
    assert result.to_pylist() == [reference_row(key) for key in keys.to_pylist()]


# Text weighted toward the grammar: separators, quotes, escapes, specials, whitespace.
GRAMMAR_CHARACTERS = [*SPECIAL_CHARACTERS, "+", "=", '"', "\\", " ", "\n", "a", "1", "é", "名"]
grammar_text = st.text(
    alphabet=st.one_of(st.sampled_from(GRAMMAR_CHARACTERS), st.characters(codec="utf-8"))
)
columns = st.text(
    alphabet=st.one_of(
        st.sampled_from(["a", "_", " ", "é"]),
        st.characters(codec="utf-8", exclude_characters=SPECIAL_CHARACTERS),
    ),
    min_size=1,
    max_size=6,
)
valid_keys = st.lists(st.tuples(columns, grammar_text), min_size=1, max_size=4).map(
    format_table_key
)
simple_keys = st.lists(
    st.tuples(columns, st.text(alphabet="abc1 é", max_size=4)), min_size=1, max_size=4
).map(lambda pairs: "+".join(f"{column}={value}" for column, value in pairs))


@st.composite
def mutated_keys(draw: st.DrawFn) -> str:
    """A valid key with one character inserted, deleted or replaced: mostly invalid."""
    key = draw(st.one_of(valid_keys, simple_keys))
    position = draw(st.integers(0, len(key)))
    character = draw(st.sampled_from(GRAMMAR_CHARACTERS))
    edit = draw(st.sampled_from(["insert", "delete", "replace"]))
    if edit == "insert":
        return key[:position] + character + key[position:]
    if edit == "delete":
        return key[:position] + key[position + 1 :]
    return key[:position] + character + key[position + 1 :]


keys = st.one_of(st.none(), grammar_text, valid_keys, simple_keys, mutated_keys())


@given(rows=st.lists(keys, max_size=40), large=st.booleans(), data=st.data())
def test_batch_equals_reference(rows: list[str | None], large: bool, data: st.DataObject) -> None:
    before = data.draw(st.lists(st.one_of(st.none(), st.just("junk=+")), max_size=3))
    after = data.draw(st.lists(st.one_of(st.none(), st.just("x=1")), max_size=3))
    kind = pa.large_string() if large else pa.string()
    whole = pa.array([*before, *rows, *after], kind)
    result = parse_table_key_batch(whole.slice(len(before), len(rows)))
    assert result.type == RESULT_TYPE
    assert result.to_pylist() == [reference_row(key) for key in rows]


@given(rows=st.lists(simple_keys, min_size=1, max_size=40))
def test_fast_path_alone_equals_reference(rows: list[str]) -> None:
    assert parse_table_key_batch(pa.array(rows, pa.string())).to_pylist() == [
        reference_row(key) for key in rows
    ]
