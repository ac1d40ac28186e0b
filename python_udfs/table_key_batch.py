"""Vectorized IDM `table_key` parsing over whole Arrow arrays (spec C.4); what Spark runs.

`parse_table_key_batch` returns one struct per input row, `{pairs, error}`:

* null key: pairs null, error null (unknown stays unknown);
* valid key: pairs = the (column, value) structs in key order, error null;
* anything else: pairs null and error = the message `table_key.parse_table_key` raises.

The rules are those of the readable reference `python_udfs.table_key`, and tests hold the two
equal. Nothing here raises for any string; a bad key becomes an error message, because Spark
would fail the whole query.

Fast path, without a per-row Python loop: a key that matches `SIMPLE_KEY` (no quote, no empty
identifier or column name, exactly one `=` per identifier, no other special character) is
split with pyarrow.compute on `+`, then each identifier on its `=`. Only the other rows (keys
with a `"`, and invalid keys, both rare) go through the reference parser one by one.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from python_udfs.table_key import SPECIAL_CHARACTERS, TableKeyError, parse_table_key

PAIR_TYPE = pa.struct([pa.field("column", pa.string()), pa.field("value", pa.string())])
PAIRS_TYPE = pa.list_(PAIR_TYPE)
RESULT_TYPE = pa.struct([pa.field("pairs", PAIRS_TYPE), pa.field("error", pa.string())])

# RE2 syntax; a negated class matches any character but these, newlines and non-ASCII included.
_PLAIN = "[^" + SPECIAL_CHARACTERS.replace("\\", "\\\\") + "]"
_IDENTIFIER = f"{_PLAIN}+={_PLAIN}*"
SIMPLE_KEY = f"^{_IDENTIFIER}(?:\\+{_IDENTIFIER})*$"


def parse_table_key_batch(keys: pa.Array | pa.ChunkedArray) -> pa.StructArray:
    """`parse_table_key` for every row of a string array, as `RESULT_TYPE` structs."""
    keys = _as_string_array(keys)
    rows = len(keys)
    valid = _flags(pc.is_valid(keys))
    simple = _flags(pc.match_substring_regex(keys, SIMPLE_KEY))
    fast = _split_simple(keys if simple.all() else keys.filter(pa.array(simple)))

    slow_rows = np.flatnonzero(valid & ~simple)
    if slow_rows.size == 0 and simple.all():
        return pa.StructArray.from_arrays(
            [fast, pa.nulls(rows, pa.string())], fields=list(RESULT_TYPE)
        )

    slow_pairs: list[list[dict[str, str]] | None] = []
    slow_errors: list[str | None] = []
    for key in keys.take(pa.array(slow_rows, pa.int64())).to_pylist():
        try:
            pairs = parse_table_key(key)
        except TableKeyError as error:
            slow_pairs.append(None)
            slow_errors.append(str(error))
        else:
            slow_pairs.append([{"column": column, "value": value} for column, value in pairs or []])
            slow_errors.append(None)

    fast_rows = np.flatnonzero(simple)
    pair_slot = np.full(rows, -1, dtype=np.int64)
    pair_slot[fast_rows] = np.arange(fast_rows.size)
    pair_slot[slow_rows] = fast_rows.size + np.arange(slow_rows.size)
    all_pairs = pa.concat_arrays([fast, pa.array(slow_pairs, PAIRS_TYPE)])
    error_slot = np.full(rows, -1, dtype=np.int64)
    error_slot[slow_rows] = np.arange(slow_rows.size)
    return pa.StructArray.from_arrays(
        [
            pc.take(all_pairs, pa.array(pair_slot, mask=pair_slot < 0)),
            pc.take(pa.array(slow_errors, pa.string()), pa.array(error_slot, mask=error_slot < 0)),
        ],
        fields=list(RESULT_TYPE),
    )


def _split_simple(keys: pa.Array) -> pa.ListArray:
    """The pairs of keys that all match `SIMPLE_KEY` (no nulls), as a `PAIRS_TYPE` array."""
    identifiers = pc.split_pattern(keys, "+")
    halves = pc.split_pattern(identifiers.flatten(), "=", max_splits=1)
    pairs = pa.StructArray.from_arrays(
        [
            pc.list_element(halves, 0).cast(pa.string()),
            pc.list_element(halves, 1).cast(pa.string()),
        ],
        fields=list(PAIR_TYPE),
    )
    offsets = identifiers.offsets
    if offsets.type != pa.int32():
        offsets = offsets.cast(pa.int32())
    return pa.ListArray.from_arrays(offsets, pairs, type=PAIRS_TYPE)


def _as_string_array(keys: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The keys as one string or large_string array (null-typed and other arrays are cast)."""
    if isinstance(keys, pa.ChunkedArray):
        keys = keys.combine_chunks()
    if pa.types.is_string(keys.type) or pa.types.is_large_string(keys.type):
        return keys
    return keys.cast(pa.string())


def _flags(booleans: pa.Array) -> np.ndarray:
    flags: np.ndarray = pc.fill_null(booleans, False).to_numpy(zero_copy_only=False)
    return flags
