"""The reference IDM `table_key` parser and formatter (spec C.4, C.8, F.2; seed 002)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from python_udfs.table_key import (
    SPECIAL_CHARACTERS,
    TableKeyError,
    format_table_key,
    parse_table_key,
    table_key_warnings,
)

SEED_SPECIAL_KEY = r'''pkey=", ; ' + \" = \\ < >"'''
SEED_SPECIAL_VALUE = ", ; ' + \" = \\ < >"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("idu=1", [("idu", "1")], id="seed usr table"),
        pytest.param("pk_empno=1", [("pk_empno", "1")], id="seed view_usr view"),
        pytest.param(
            "pkey1=value1+pkey2=value2",
            [("pkey1", "value1"), ("pkey2", "value2")],
            id="seed compound key",
        ),
        pytest.param(SEED_SPECIAL_KEY, [("pkey", SEED_SPECIAL_VALUE)], id="seed special chars"),
        pytest.param('k1="A+B"+k2=7', [("k1", "A+B"), ("k2", "7")], id="F.2 example"),
        pytest.param(None, None, id="null stays null"),
        pytest.param("a=", [("a", "")], id="empty unquoted value"),
        pytest.param('a=""', [("a", "")], id="empty quoted value"),
        pytest.param("a=+b=2", [("a", ""), ("b", "2")], id="empty value then more"),
        pytest.param('a="1"', [("a", "1")], id="needless quotes are allowed"),
        pytest.param('a="\\""', [("a", '"')], id="escaped quote only"),
        pytest.param('a="\\\\"', [("a", "\\")], id="escaped backslash only"),
        pytest.param('a="\\\\\\""', [("a", '\\"')], id="backslash then quote"),
        pytest.param('a="x"+b="y"', [("a", "x"), ("b", "y")], id="two quoted values"),
        pytest.param("idu= 1", [("idu", " 1")], id="whitespace is kept in values"),
        pytest.param(" idu =1", [(" idu ", "1")], id="whitespace is kept in names"),
        pytest.param("IDU=1+Id=2", [("IDU", "1"), ("Id", "2")], id="case is preserved"),
        pytest.param("a=1+a=2", [("a", "1"), ("a", "2")], id="repeated column is not an error"),
        pytest.param("名前=値+é=ü", [("名前", "値"), ("é", "ü")], id="non-ASCII"),
        pytest.param("a=x\ny\t", [("a", "x\ny\t")], id="control whitespace in value"),
        pytest.param('a="\n"', [("a", "\n")], id="newline in quoted value"),
        pytest.param("a=John Smith", [("a", "John Smith")], id="inner space in text value"),
        pytest.param("a=-1.5e3", [("a", "-1.5e3")], id="signs and dots are not special"),
        pytest.param("a=(x)&[y]{z}|*?!", [("a", "(x)&[y]{z}|*?!")], id="other punctuation"),
    ],
)
def test_parse_table_key(text: str | None, expected: list[tuple[str, str]] | None) -> None:
    assert parse_table_key(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("", "empty table_key", id="empty key"),
        pytest.param("a=1++b=2", "empty identifier at 4", id="double plus"),
        pytest.param("a=1+", "empty identifier at 4", id="trailing plus"),
        pytest.param("+a=1", "empty identifier at 0", id="leading plus"),
        pytest.param("+", "empty identifier at 0", id="plus only"),
        pytest.param("=1", "empty column name at 0", id="no column name"),
        pytest.param("a=1+=2", "empty column name at 4", id="no second column name"),
        pytest.param("=", "empty column name at 0", id="equals only"),
        pytest.param("abcde", "missing '=' after column name at 5", id="no equals"),
        pytest.param("a+b=1", "missing '=' after column name at 1", id="plus before equals"),
        pytest.param("a=1+bc", "missing '=' after column name at 6", id="second without equals"),
        pytest.param("a;b=1", "special character ';' in column name at 1", id="semicolon in name"),
        pytest.param("a'b=1", 'special character "\'" in column name at 1', id="apostrophe"),
        pytest.param('"a"=1', "special character '\"' in column name at 0", id="quoted name"),
        pytest.param("a<b", "special character '<' in column name at 1", id="name before equals"),
        pytest.param('a="x', "unterminated quote starting at 2", id="unterminated"),
        pytest.param('a="', "unterminated quote starting at 2", id="lone quote"),
        pytest.param('a="x\\"', "unterminated quote starting at 2", id="escaped closing quote"),
        pytest.param('a="x\\', "unterminated quote starting at 2", id="backslash at end"),
        pytest.param(
            'k=1+a="12345\\x"',
            'bad escape \\x at 12 (only \\" and \\\\ are allowed)',
            id="bad escape",
        ),
        pytest.param(
            'a="\\n"',
            'bad escape \\n at 3 (only \\" and \\\\ are allowed)',
            id="no C escapes",
        ),
        pytest.param(
            'a="\\\n"',
            'bad escape \\ followed by U+000A at 3 (only \\" and \\\\ are allowed)',
            id="unprintable escape",
        ),
        pytest.param("idu=1;2", "unquoted special character ';' at 5", id="unquoted semicolon"),
        pytest.param("a=b=c", "unquoted special character '=' at 3", id="second equals"),
        pytest.param('a=x"y"', "unquoted special character '\"' at 3", id="quote inside value"),
        pytest.param('a= "x"', "unquoted special character '\"' at 3", id="space before quote"),
        pytest.param("a=\\", "unquoted special character '\\' at 2", id="unquoted backslash"),
        pytest.param("a=it's", 'unquoted special character "\'" at 4', id="unquoted apostrophe"),
        pytest.param('k1="A+B"7+k2=7', "text after closing quote at 8", id="text after quote"),
        pytest.param('a="x" ', "text after closing quote at 5", id="space after quote"),
        pytest.param('a=""""', "text after closing quote at 4", id="doubled quotes"),
        pytest.param("a=1;+b=", "unquoted special character ';' at 3", id="first problem wins"),
    ],
)
def test_parse_table_key_errors(text: str, message: str) -> None:
    with pytest.raises(TableKeyError) as raised:
        parse_table_key(text)
    assert str(raised.value) == message


def test_table_key_error_is_a_value_error() -> None:
    assert issubclass(TableKeyError, ValueError)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("idu=1", [], id="seed, clean"),
        pytest.param(SEED_SPECIAL_KEY, [], id="seed special chars, clean"),
        pytest.param(None, [], id="null"),
        pytest.param("idu= 1", ["whitespace in unquoted value of idu"], id="seed idu= 1"),
        pytest.param("idu=1 ", ["whitespace in unquoted value of idu"], id="trailing space"),
        pytest.param("idu=1 000", ["whitespace in unquoted value of idu"], id="numeric inner"),
        pytest.param("name=John Smith", [], id="text with inner space is fine"),
        pytest.param('idu=" 1"', [], id="quoted padding is deliberate"),
        pytest.param("idu =1", ["whitespace in column name 'idu '"], id="space in name"),
        pytest.param("a=", ["empty unquoted value of a"], id="empty unquoted value"),
        pytest.param('a=""', [], id="empty quoted value is canonical"),
        pytest.param('a="1"', ["unnecessary quotes around value of a"], id="needless quotes"),
        pytest.param('a="a+b"', [], id="needed quotes"),
        pytest.param("a=1+a=2", ["repeated column name 'a'"], id="repeated column"),
        pytest.param("ID=1+id=2", ["repeated column name 'id'"], id="repeated, other case"),
        pytest.param(
            'a= 1+b="2"+A=3',
            [
                "whitespace in unquoted value of a",
                "unnecessary quotes around value of b",
                "repeated column name 'A'",
            ],
            id="several, in key order",
        ),
    ],
)
def test_table_key_warnings(text: str | None, expected: list[str]) -> None:
    assert table_key_warnings(text) == expected


def test_warnings_of_a_malformed_key_raise() -> None:
    with pytest.raises(TableKeyError, match="empty identifier at 4"):
        table_key_warnings("a=1+")


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        pytest.param([("idu", "1")], "idu=1", id="seed usr table"),
        pytest.param(
            [("pkey1", "value1"), ("pkey2", "value2")],
            "pkey1=value1+pkey2=value2",
            id="seed compound key",
        ),
        pytest.param([("pkey", SEED_SPECIAL_VALUE)], SEED_SPECIAL_KEY, id="seed special chars"),
        pytest.param([("k1", "A+B"), ("k2", "7")], 'k1="A+B"+k2=7', id="F.2 example"),
        pytest.param([("a", "")], 'a=""', id="empty value is quoted"),
        pytest.param([("a", " 1")], 'a=" 1"', id="leading whitespace is quoted"),
        pytest.param([("a", "1\t")], 'a="1\t"', id="trailing whitespace is quoted"),
        pytest.param([("a", "John Smith")], "a=John Smith", id="inner whitespace is not"),
        pytest.param([("a", '"')], 'a="\\""', id="quote is escaped"),
        pytest.param([("a", "\\")], 'a="\\\\"', id="backslash is escaped"),
        pytest.param([("Idu", "é")], "Idu=é", id="name case and non-ASCII kept"),
    ],
)
def test_format_table_key(pairs: list[tuple[str, str]], expected: str) -> None:
    assert format_table_key(pairs) == expected
    assert parse_table_key(expected) == pairs


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        pytest.param([], "a table_key needs at least one column", id="no pairs"),
        pytest.param([("", "1")], "empty column name", id="empty column"),
        pytest.param([("a=b", "1")], "special character '=' in column name 'a=b'", id="equals"),
        pytest.param([('"a"', "1")], "special character '\"' in column name '\"a\"'", id="quote"),
        pytest.param([("a", None)], "null value for key column a", id="null value"),
    ],
)
def test_format_table_key_errors(pairs: list[tuple[str, str | None]], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        format_table_key(pairs)  # type: ignore[arg-type]
    assert str(raised.value) == message


# Values: anything, weighted toward the characters the grammar cares about.
GRAMMAR_CHARACTERS = [*SPECIAL_CHARACTERS, " ", "\t", "\n", "\u3000", "é", "名"]
values = st.text(
    alphabet=st.one_of(st.sampled_from(GRAMMAR_CHARACTERS), st.characters(codec="utf-8"))
)
columns = st.text(
    alphabet=st.one_of(
        st.sampled_from([" ", "é", "_"]),
        st.characters(codec="utf-8", exclude_characters=SPECIAL_CHARACTERS),
    ),
    min_size=1,
)
key_pairs = st.lists(st.tuples(columns, values), min_size=1, max_size=6)


@given(pairs=key_pairs)
def test_parse_inverts_format(pairs: list[tuple[str, str]]) -> None:
    assert parse_table_key(format_table_key(pairs)) == pairs


@given(pairs=key_pairs)
def test_format_inverts_parse_on_canonical_keys(pairs: list[tuple[str, str]]) -> None:
    text = format_table_key(pairs)
    assert format_table_key(parse_table_key(text) or []) == text
    assert not [
        warning
        for warning in table_key_warnings(text)
        if warning.startswith(("unnecessary quotes", "empty unquoted"))
    ]


@given(
    text=st.text(
        alphabet=st.one_of(
            st.sampled_from([*GRAMMAR_CHARACTERS, "a", "1"]), st.characters(codec="utf-8")
        )
    )
)
def test_only_table_key_errors_escape(text: str) -> None:
    """Any text parses, or fails with a TableKeyError; a parsed key formats and parses back."""
    try:
        pairs = parse_table_key(text)
    except TableKeyError as error:
        assert str(error)
        return
    assert pairs
    assert parse_table_key(format_table_key(pairs)) == pairs
