"""Parse and format NetIQ IDM `table_key` values (spec C.4; canonical key strings, spec F.2).

Grammar (spec C.4, seed 002):

    <table-key>             ::= <unique-row-identifier> { "+" <unique-row-identifier> }
    <unique-row-identifier> ::= <primary-key-column-name> "=" <value>

A value containing any of , ; ' + " = \\ < > is wrapped in double quotes; inside the quotes `"` is
written `\\"` and `\\` is written `\\\\`, and these are the only escapes. Examples: `idu=1`,
`pkey1=value1+pkey2=value2`, `k1="A+B"+k2=7`, and `pkey=", ; ' + \\" = \\\\ < >"` for the value
`, ; ' + " = \\ < >`.

Where the grammar is silent, this module decides (spec C.4 "Parser", F.2):

* Scan left to right. Outside quotes `+` ends an identifier and the first `=` ends the column
  name. A value that starts with `"` runs to the next unescaped `"`, which must be followed by
  `+` or the end of the key. Only a value can be quoted; a column name never is.
* Nothing is trimmed: whitespace belongs to the name or value it is in (`idu= 1` has the value
  " 1"). `table_key_warnings` flags it, because `idu= 1` and `idu=1` are different keys to IDM.
* Column names are returned as written (case preserved); they may not contain a special
  character (which includes `"`). Names are compared case-insensitively only when looking for
  repeated columns, and repeats are a warning, not an error.
* `a=` and `a=""` both denote the empty string; quoting a value that needs no quotes is allowed.
* "Leading or trailing whitespace" in the quoting rule (spec F.2) means one of the six ASCII
  whitespace characters `KEY_WHITESPACE` (space, tab, line feed, vertical tab, form feed,
  carriage return) at either end; other Unicode spaces (U+00A0, U+2003, ...) are ordinary
  characters. `needs_quotes` is the rule; macros/cdc/cdc_quote_key_value.sql implements the
  same character class in SQL, and tests/python/test_key_quoting.py holds the two equal.
* Positions in error messages are 0-based offsets in characters (code points) of the key.

This module is the readable reference: strict (it raises `TableKeyError`) and pure Python.
`table_key_batch` is the vectorized twin that Spark runs; tests hold the two equal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

SPECIAL_CHARACTERS = ",;'+\"=\\<>"

KEY_WHITESPACE = " \t\n\v\f\r"
"""The characters that count as leading or trailing whitespace in the quoting rule (spec F.2):
ASCII space, U+0009..U+000D. Spark's trim() strips only spaces, Python's strip() all Unicode
whitespace; both sides name these six explicitly instead."""

EMPTY_TABLE_KEY = "empty table_key"

_SPECIAL = re.compile("[" + re.escape(SPECIAL_CHARACTERS) + "]")
_NAME_END = re.compile("[=+]")
_QUOTED_STOP = re.compile(r'["\\]')
_NUMERIC_WITH_SPACES = re.compile(r"[-.\d\s]*\d[-.\d\s]*")


class TableKeyError(ValueError):
    """A `table_key` that does not follow the grammar; the message is a short quarantine reason."""


class _Identifier(NamedTuple):
    """One <unique-row-identifier>: its column, its (unescaped) value, and how it was written."""

    column: str
    value: str
    quoted: bool


def parse_table_key(text: str | None) -> list[tuple[str, str]] | None:
    """The (column, value) pairs of a `table_key`, in key order (spec C.4); None stays None.

    Raises TableKeyError, whose message names the 0-based character position of the problem,
    for: an empty key, an empty identifier (`a=1++b=2`, a leading or trailing `+`), an empty
    column name (`=1`), a special character in a column name, a missing `=`, an unterminated
    quote, an escape other than `\\"` and `\\\\`, text after a closing quote, and an unquoted
    value that contains a special character.
    """
    if text is None:
        return None
    return [(identifier.column, identifier.value) for identifier in _scan(text)]


def table_key_warnings(text: str | None) -> list[str]:
    """Non-fatal findings in a valid key, in key order (spec C.4 padding, C.8); [] for None.

    Each is a spelling that makes one row's key differ textually from what another trigger may
    write for the same row, which IDM processes as a different key (ordering hazard):

    * "whitespace in column name 'idu '": any whitespace in a column name;
    * "whitespace in unquoted value of idu": an unquoted value with leading or trailing
      whitespace, or a numeric one with whitespace inside (`1 000`);
    * "empty unquoted value of idu": `idu=` (the canonical form, spec F.2, is `idu=""`);
    * "unnecessary quotes around value of idu": `idu="1"` (canonical: `idu=1`);
    * "repeated column name 'IDU'": a column already named, compared case-insensitively.

    Raises TableKeyError for a malformed key, as `parse_table_key` does.
    """
    if text is None:
        return []
    warnings: list[str] = []
    seen: set[str] = set()
    for column, value, quoted in _scan(text):
        if any(character.isspace() for character in column):
            warnings.append(f"whitespace in column name {column!r}")
        if quoted:
            if not needs_quotes(value):
                warnings.append(f"unnecessary quotes around value of {column}")
        elif value == "":
            warnings.append(f"empty unquoted value of {column}")
        elif value != value.strip() or (
            any(character.isspace() for character in value)
            and _NUMERIC_WITH_SPACES.fullmatch(value)
        ):
            warnings.append(f"whitespace in unquoted value of {column}")
        folded = column.casefold()
        if folded in seen:
            warnings.append(f"repeated column name {column!r}")
        seen.add(folded)
    return warnings


def format_table_key(pairs: Sequence[tuple[str, str]]) -> str:
    """The `table_key` of these (column, value) pairs; the inverse of `parse_table_key`.

    A value is quoted exactly when `needs_quotes` says so (the canonical form of spec F.2);
    inside quotes `"` and `\\` are escaped.
    Column names are written as given. Raises ValueError for no pairs, an empty column name or
    one with a special character, and a null value (spec F.2 `null_key_value`).
    """
    if not pairs:
        raise ValueError("a table_key needs at least one column")
    return "+".join(
        f"{_checked_column(column)}={_format_value(column, value)}" for column, value in pairs
    )


def needs_quotes(value: str) -> bool:
    """Whether a key value is written in double quotes (spec F.2): it is empty, starts or ends
    with a `KEY_WHITESPACE` character, or contains a special character. The one definition of
    the rule; cdc_quote_key_value (SQL) implements the same and is tested equal to it."""
    return value == "" or value != value.strip(KEY_WHITESPACE) or _SPECIAL.search(value) is not None


def quote_key_value(value: str) -> str:
    """One key value as a canonical key string writes it (spec F.2): as it is, or in double
    quotes with `"` and `\\` escaped when `needs_quotes`. The SQL twin is cdc_quote_key_value."""
    if not needs_quotes(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _scan(text: str) -> list[_Identifier]:
    """The identifiers of `text`, left to right; raises TableKeyError at the first problem."""
    if text == "":
        raise TableKeyError(EMPTY_TABLE_KEY)
    end = len(text)
    identifiers: list[_Identifier] = []
    start = 0
    while True:
        found = _NAME_END.search(text, start)
        name_end = end if found is None else found.start()
        at_separator = name_end == end or text[name_end] == "+"
        column = text[start:name_end]
        if column == "":
            raise TableKeyError(
                f"empty identifier at {start}" if at_separator else f"empty column name at {start}"
            )
        special = _SPECIAL.search(column)
        if special is not None:
            raise TableKeyError(
                f"special character {_shown(special.group())} in column name at "
                f"{start + special.start()}"
            )
        if at_separator:
            raise TableKeyError(f"missing '=' after column name at {name_end}")

        value_start = name_end + 1
        if value_start < end and text[value_start] == '"':
            value, after = _quoted_value(text, value_start)
            if after < end and text[after] != "+":
                raise TableKeyError(f"text after closing quote at {after}")
            identifiers.append(_Identifier(column, value, quoted=True))
        else:
            plus = text.find("+", value_start)
            after = end if plus < 0 else plus
            value = text[value_start:after]
            special = _SPECIAL.search(value)
            if special is not None:
                raise TableKeyError(
                    f"unquoted special character {_shown(special.group())} at "
                    f"{value_start + special.start()}"
                )
            identifiers.append(_Identifier(column, value, quoted=False))
        if after == end:
            return identifiers
        start = after + 1


def _quoted_value(text: str, opening: int) -> tuple[str, int]:
    """(value, position after the closing quote) of the quoted value opened at `opening`."""
    parts: list[str] = []
    position = opening + 1
    while True:
        found = _QUOTED_STOP.search(text, position)
        if found is None:
            raise TableKeyError(f"unterminated quote starting at {opening}")
        stop = found.start()
        parts.append(text[position:stop])
        if text[stop] == '"':
            return "".join(parts), stop + 1
        if stop + 1 == len(text):
            raise TableKeyError(f"unterminated quote starting at {opening}")
        escaped = text[stop + 1]
        if escaped not in '"\\':
            raise TableKeyError(
                f'bad escape {_shown_escape(escaped)} at {stop} (only \\" and \\\\ are allowed)'
            )
        parts.append(escaped)
        position = stop + 2


def _shown(character: str) -> str:
    """A special character in quotes for a message: ';' but "'"."""
    return f'"{character}"' if character == "'" else f"'{character}'"


def _shown_escape(character: str) -> str:
    r"""A backslash and the character after it: \x, or \ followed by U+000A if unprintable."""
    if character.isprintable():
        return "\\" + character
    return f"\\ followed by U+{ord(character):04X}"


def _checked_column(column: str) -> str:
    if column == "":
        raise ValueError("empty column name")
    special = _SPECIAL.search(column)
    if special is not None:
        raise ValueError(f"special character {_shown(special.group())} in column name {column!r}")
    return column


def _format_value(column: str, value: str | None) -> str:
    if value is None:
        raise ValueError(f"null value for key column {column}")
    return quote_key_value(value)
