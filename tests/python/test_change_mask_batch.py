"""The vectorized decoders equal the reference, row by row (spec A.5, B.5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from python_udfs.change_mask import (
    MAX_MASK_BYTES,
    ChangeMaskError,
    decode_change_mask,
    encode_change_mask,
    hex_mask_bytes,
)
from python_udfs.change_mask_batch import (
    NULL_BIT_COUNT,
    NULL_BYTE_ORDER,
    RESULT_TYPE,
    decode_change_mask_batch,
    decode_hex_change_mask_batch,
)

Row = dict[str, Any]
NULL_ROW: Row = {"positions": None, "error": None}


def reference_row(mask: bytes | None, bit_count: int | None) -> Row:
    """What the batch must say for one row, from the reference (plus the null-count rule)."""
    if mask is None:
        return NULL_ROW
    if bit_count is None:
        return {"positions": None, "error": NULL_BIT_COUNT}
    try:
        return {"positions": decode_change_mask(mask, bit_count), "error": None}
    except ChangeMaskError as error:
        return {"positions": None, "error": str(error)}


def reference_hex_row(text: str | None, bit_count: int | None, byte_order: str | None) -> Row:
    if text is None:
        return NULL_ROW
    if byte_order is None:
        return {"positions": None, "error": NULL_BYTE_ORDER}
    try:
        mask = hex_mask_bytes(text, byte_order)
    except ValueError as error:
        return {"positions": None, "error": str(error)}
    return reference_row(mask, bit_count)


@pytest.mark.parametrize(
    ("masks", "bit_count", "expected"),
    [
        pytest.param(
            [bytes.fromhex("8003"), b"", bytes.fromhex("0002"), bytes.fromhex("80")],
            10,
            [[7, 8, 9], [], [9], [7]],
            id="A.13 I, B, U, D",
        ),
        pytest.param([None, b"\x01"], 1, [None, [0]], id="null mask"),
        pytest.param([b"\x00\x10"], 10, ["bit 12 set but the table has 10 columns"], id="bit"),
        pytest.param([b"\x00" * 129], 8, ["mask longer than 128 bytes"], id="too long"),
        pytest.param([b"\x01", None], [None, None], [NULL_BIT_COUNT, None], id="null count"),
        pytest.param([b""], [-2], ["column count -2 is negative"], id="negative count"),
        pytest.param([], 3, [], id="no rows"),
    ],
)
def test_decode_change_mask_batch(
    masks: list[bytes | None], bit_count: int | list[int | None], expected: list[Any]
) -> None:
    counts = bit_count if isinstance(bit_count, int) else pa.array(bit_count, pa.int32())
    result = decode_change_mask_batch(pa.array(masks, pa.binary()), counts)
    assert result.type == RESULT_TYPE
    assert result.null_count == 0
    assert [
        row["error"] if row["error"] is not None else row["positions"] for row in result.to_pylist()
    ] == expected


@pytest.mark.parametrize(
    ("texts", "byte_order", "expected"),
    [
        pytest.param(["04", "01", "07"], "little", [[2], [0], [0, 1, 2]], id="B.9"),
        pytest.param(["0B", "0b"], "little", [[0, 1, 3], [0, 1, 3]], id="S1 0B"),
        pytest.param(["0102", "0102"], ["little", "big"], [[0, 9], [1, 8]], id="both orders"),
        pytest.param(["01", "01"], [None, "big"], [NULL_BYTE_ORDER, [0]], id="null order"),
        pytest.param(
            ["01", None],
            "Big",
            ["unknown byte order 'Big' (expected 'little' or 'big')", None],
            id="unknown order",
        ),
        pytest.param(
            ["0", "0x01", ""],
            "big",
            ["odd-length hex mask", "non-hex character in mask", []],
            id="bad text",
        ),
    ],
)
def test_decode_hex_change_mask_batch(
    texts: list[str | None], byte_order: str | list[str | None], expected: list[Any]
) -> None:
    orders = byte_order if isinstance(byte_order, str) else pa.array(byte_order, pa.string())
    result = decode_hex_change_mask_batch(pa.array(texts, pa.string()), 16, orders)
    assert result.type == RESULT_TYPE
    assert [
        row["error"] if row["error"] is not None else row["positions"] for row in result.to_pylist()
    ] == expected


def test_null_slot_with_data_is_still_null() -> None:
    """Arrow lets a null slot span bytes; they must not be decoded or reported."""
    offsets = np.array([0, 2, 4], dtype=np.int32)
    data = np.frombuffer(b"\xff\xff\x01\x00", dtype=np.uint8)
    validity = np.packbits([False, True], bitorder="little")
    masks = pa.Array.from_buffers(
        pa.binary(), 2, [pa.py_buffer(validity), pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    assert decode_change_mask_batch(masks, 3).to_pylist() == [
        NULL_ROW,
        reference_row(b"\x01\x00", 3),
    ]


def test_chunked_input() -> None:
    masks = pa.chunked_array([[b"\x01"], [None, b"\x02"]], pa.binary())
    counts = pa.chunked_array([[8, 8], [8]], pa.int32())
    assert decode_change_mask_batch(masks, counts).to_pylist() == [
        {"positions": [0], "error": None},
        NULL_ROW,
        {"positions": [1], "error": None},
    ]


bit_counts = st.integers(0, MAX_MASK_BYTES * 8 + 8)


@st.composite
def masks_and_counts(draw: st.DrawFn) -> tuple[bytes | None, int | None]:
    """A (mask, column count) row: mostly decodable, plus every kind of bad row."""
    bit_count = draw(st.one_of(bit_counts, st.sampled_from([0, 1, 7, 8, 9, 10])))
    kind = draw(st.sampled_from(["valid", "padded", "random", "long", "null", "empty", "count"]))
    if kind in ("valid", "padded"):
        positions = draw(st.sets(st.integers(0, max(bit_count - 1, 0)), max_size=12))
        positions = {p for p in positions if p < bit_count}
        mask = encode_change_mask(positions)
        if kind == "padded":
            mask += bytes(draw(st.integers(0, 4)))
        return mask[:MAX_MASK_BYTES], bit_count
    if kind == "random":
        return draw(st.binary(max_size=5)), bit_count
    if kind == "long":
        size = draw(st.integers(MAX_MASK_BYTES - 1, MAX_MASK_BYTES + 2))
        return draw(st.binary(min_size=size, max_size=size)), bit_count
    if kind == "null":
        return None, draw(st.one_of(st.none(), bit_counts))
    if kind == "empty":
        return b"", bit_count
    return draw(st.binary(max_size=3)), draw(st.one_of(st.none(), st.integers(-3, -1)))


def sliced(values: list[Any], kind: pa.DataType, draw: Callable[..., Any], junk: Any) -> pa.Array:
    """The values as an Arrow array, sometimes a slice of a longer one (non-zero offset)."""
    before = draw(st.lists(st.one_of(st.none(), st.just(junk)), max_size=3))
    after = draw(st.lists(st.one_of(st.none(), st.just(junk)), max_size=3))
    whole = pa.array([*before, *values, *after], kind)
    return whole.slice(len(before), len(values))


@given(
    rows=st.lists(masks_and_counts(), max_size=40),
    large=st.booleans(),
    per_row=st.booleans(),
    data=st.data(),
)
def test_batch_equals_reference(
    rows: list[tuple[bytes | None, int | None]], large: bool, per_row: bool, data: st.DataObject
) -> None:
    masks = [mask for mask, _ in rows]
    if per_row:
        counts = [count for _, count in rows]
        count_arg: pa.Array | int = sliced(counts, pa.int32(), data.draw, 5)
    else:
        fixed = data.draw(bit_counts, label="bit_count")
        counts = [fixed] * len(rows)
        count_arg = fixed
    kind = pa.large_binary() if large else pa.binary()
    mask_arg = sliced(masks, kind, data.draw, b"\xff" * 200)
    expected = [reference_row(mask, count) for mask, count in zip(masks, counts, strict=True)]
    assert decode_change_mask_batch(mask_arg, count_arg).to_pylist() == expected


@st.composite
def hex_rows(draw: st.DrawFn) -> tuple[str | None, int | None, str | None]:
    """A (text, column count, byte order) row: mostly decodable hex, plus bad rows."""
    bit_count = draw(st.one_of(bit_counts, st.sampled_from([0, 3, 8, 9, 16])))
    byte_order: str | None = draw(st.sampled_from(["little", "big"]))
    kind = draw(st.sampled_from(["bytes", "text", "long", "null", "order", "count"]))
    text: str | None
    if kind == "bytes":
        text = draw(st.binary(max_size=5)).hex()
        text = draw(st.sampled_from([text, text.upper()]))
    elif kind == "text":
        text = draw(st.text(alphabet="0123456789abcdefABCDEFxg é١", max_size=7))
    elif kind == "long":
        size = draw(st.integers(MAX_MASK_BYTES - 1, MAX_MASK_BYTES + 1))
        text = draw(st.binary(min_size=size, max_size=size)).hex()
    elif kind == "null":
        text = None
    elif kind == "order":
        text = draw(st.binary(max_size=3)).hex()
        byte_order = draw(st.sampled_from([None, "", "LITTLE", "middle", "it's"]))
    else:
        text = draw(st.binary(max_size=3)).hex()
        return text, draw(st.one_of(st.none(), st.integers(-3, -1))), byte_order
    return text, bit_count, byte_order


@given(
    rows=st.lists(hex_rows(), max_size=40),
    large=st.booleans(),
    per_row=st.booleans(),
    data=st.data(),
)
def test_hex_batch_equals_reference(
    rows: list[tuple[str | None, int | None, str | None]],
    large: bool,
    per_row: bool,
    data: st.DataObject,
) -> None:
    texts = [text for text, _, _ in rows]
    kind = pa.large_string() if large else pa.string()
    text_arg = sliced(texts, kind, data.draw, "zz")
    if per_row:
        counts = [count for _, count, _ in rows]
        orders = [order for _, _, order in rows]
        count_arg: pa.Array | int = sliced(counts, pa.int32(), data.draw, 1)
        order_arg: pa.Array | str = sliced(orders, pa.string(), data.draw, "bad")
    else:
        fixed_count = data.draw(bit_counts, label="bit_count")
        fixed_order = data.draw(st.sampled_from(["little", "big", "middle"]), label="order")
        counts, orders = [fixed_count] * len(rows), [fixed_order] * len(rows)
        count_arg, order_arg = fixed_count, fixed_order
    expected = [
        reference_hex_row(text, count, order)
        for text, count, order in zip(texts, counts, orders, strict=True)
    ]
    assert decode_hex_change_mask_batch(text_arg, count_arg, order_arg).to_pylist() == expected
