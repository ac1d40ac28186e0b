"""One quoting rule for key values (spec F.2): the SQL macro cdc_quote_key_value quotes exactly
as python_udfs.table_key.quote_key_value does, whitespace being KEY_WHITESPACE on both sides."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import jinja2
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from python_udfs.table_key import KEY_WHITESPACE, SPECIAL_CHARACTERS, needs_quotes, quote_key_value

MACRO_FILE = Path(__file__).resolve().parents[2] / "macros" / "cdc" / "cdc_quote_key_value.sql"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("7", "7", id="plain"),
        pytest.param("", '""', id="empty"),
        pytest.param("A+B", '"A+B"', id="F.2 example"),
        pytest.param("John Smith", "John Smith", id="inner space"),
        pytest.param(" 1", '" 1"', id="leading space"),
        pytest.param("\t1", '"\t1"', id="leading tab"),
        pytest.param("1\t", '"1\t"', id="trailing tab"),
        pytest.param("1\n", '"1\n"', id="trailing line feed"),
        pytest.param("\r1", '"\r1"', id="leading carriage return"),
        pytest.param("1\v", '"1\v"', id="trailing vertical tab"),
        pytest.param("\f1", '"\f1"', id="leading form feed"),
        pytest.param("a\tb", "a\tb", id="inner tab"),
        pytest.param("\u00a01", "\u00a01", id="no-break space is not whitespace here"),
        pytest.param("1\u2003", "1\u2003", id="em space is not whitespace here"),
        pytest.param("1\x85", "1\x85", id="next line is not whitespace here"),
        pytest.param('"', '"\\""', id="quote escaped"),
        pytest.param("\\", '"\\\\"', id="backslash escaped"),
        pytest.param("a'b", '"a\'b"', id="single quote"),
    ],
)
def test_quote_key_value(value: str, expected: str) -> None:
    assert quote_key_value(value) == expected


def test_key_whitespace_is_the_ascii_six() -> None:
    assert sorted(KEY_WHITESPACE) == [chr(code) for code in (9, 10, 11, 12, 13, 32)]
    assert [needs_quotes(f"x{space}") for space in KEY_WHITESPACE] == [True] * 6


# ---------- the SQL macro, rendered from its file and run on the test session


def _raise_compiler_error(message: str) -> NoReturn:
    raise AssertionError(message)


def quote_expression(column: str) -> str:
    """cdc_quote_key_value(column) rendered by plain jinja2 from the macro file."""
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    environment.globals["exceptions"] = type(
        "Exceptions", (), {"raise_compiler_error": staticmethod(_raise_compiler_error)}
    )
    module = environment.from_string(MACRO_FILE.read_text()).module
    return str(module.cdc_quote_key_value(column))  # type: ignore[attr-defined]


def sql_quoted(spark: Any, values: Sequence[str | None]) -> list[str | None]:
    """cdc_quote_key_value of every value, in one query."""
    frame = spark.createDataFrame(list(enumerate(values)), "position int, value string")
    rows = frame.selectExpr("position", f"{quote_expression('value')} as quoted").collect()
    by_position = {row.position: row.quoted for row in rows}
    return [by_position[position] for position in range(len(values))]


def differences(values: Sequence[str], actual: Sequence[str | None]) -> list[str]:
    return [
        f"{value!r}: sql {sql!r}, python {quote_key_value(value)!r}"
        for value, sql in zip(values, actual, strict=True)
        if sql != quote_key_value(value)
    ]


# Weighted toward what the rule looks at: every special character, ASCII whitespace, Unicode
# spaces that are not KEY_WHITESPACE, and plain characters.
RULE_CHARACTERS = [
    *SPECIAL_CHARACTERS,
    *KEY_WHITESPACE,
    "\u00a0",
    "\u2003",
    "\u3000",
    "\x85",
    "\u2028",
    "\x00",
    "a",
    "1",
    "é",
    "名",
]
key_values = st.text(
    alphabet=st.one_of(st.sampled_from(RULE_CHARACTERS), st.characters(codec="utf-8")),
    max_size=8,
)


@pytest.mark.spark
def test_sql_examples_match_python(spark: Any) -> None:
    values = [
        "",
        "7",
        " 7",
        "7 ",
        *(f"{space}7" for space in KEY_WHITESPACE),
        *(f"7{space}" for space in KEY_WHITESPACE),
        "\u00a07",
        "7\u2003",
        *SPECIAL_CHARACTERS,
        "a\\\"b'",
    ]
    actual = sql_quoted(spark, [*values, None])
    assert actual[-1] is None, "a null value stays null"
    assert differences(values, actual[:-1]) == []


@pytest.mark.spark
@settings(
    max_examples=4,
    deadline=None,
    # one query per example; no shrinking: the message already lists every differing value
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(values=st.lists(key_values, min_size=300, max_size=500))
def test_sql_quotes_as_python(spark: Any, values: list[str]) -> None:
    assert differences(values, sql_quoted(spark, values)) == []
