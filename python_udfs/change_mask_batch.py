"""Vectorized change-mask decoding over whole Arrow arrays (spec A.5, B.5); what Spark runs.

Each function returns one struct per input row, `{positions: list<int32>, error: string}`:

* null mask: positions null, error null (unknown stays unknown);
* decodable mask: the set-bit positions, ascending, and error null;
* anything else: positions null and the error message `change_mask` would raise.

The rules are those of the readable reference `python_udfs.change_mask`, and tests hold the two
equal. Two inputs only a column can carry have their own messages: a null column count
("column count is null") and a null byte order ("byte order is null"). No function here raises
for any value; bad values become error messages, because Spark would fail the whole query.

The work is whole-array numpy: the masks' data buffer is gathered into one flat byte array,
the nonzero bytes are unpacked into bits, and the list offsets come from per-row bit counts.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from python_udfs.change_mask import (
    BYTE_ORDERS,
    MASK_TOO_LONG,
    MAX_MASK_BYTES,
    NON_HEX_MASK,
    ODD_LENGTH_MASK,
)

RESULT_TYPE = pa.struct(
    [pa.field("positions", pa.list_(pa.int32())), pa.field("error", pa.string())]
)
NULL_BIT_COUNT = "column count is null"
NULL_BYTE_ORDER = "byte order is null"

_NOT_HEX = 255
_HEX_VALUE = np.full(256, _NOT_HEX, dtype=np.uint8)
for _digit in "0123456789abcdefABCDEF":
    _HEX_VALUE[ord(_digit)] = int(_digit, 16)


def decode_change_mask_batch(masks: pa.Array, bit_count: pa.Array | int) -> pa.StructArray:
    """`decode_change_mask` for every row of a binary array; `bit_count` per row or for all."""
    masks = _as_bytes_array(masks)
    rows = len(masks)
    valid, starts, lengths, data = _buffers(masks)
    errors = _Errors(valid)
    return _decode(data, starts, lengths, _bit_counts(bit_count, rows), errors)


def decode_hex_change_mask_batch(
    masks: pa.Array, bit_count: pa.Array | int, byte_order: pa.Array | str = "little"
) -> pa.StructArray:
    """`decode_hex_change_mask` for every row of a string array (spec B.5 hex text masks)."""
    masks = _as_bytes_array(masks)
    rows = len(masks)
    valid, starts, lengths, data = _buffers(masks)
    errors = _Errors(valid)
    big = _check_byte_orders(byte_order, rows, errors)

    text, text_rows = _gather(data, starts, np.where(errors.open, lengths, 0))
    nibbles = _HEX_VALUE[text]
    non_hex = np.zeros(rows, dtype=bool)
    non_hex[text_rows[nibbles == _NOT_HEX]] = True
    errors.add(non_hex, NON_HEX_MASK)
    errors.add(lengths % 2 == 1, ODD_LENGTH_MASK)

    converted = errors.open.copy()
    nibbles = nibbles[converted[text_rows]]
    byte_lengths = np.where(converted, lengths // 2, 0)
    mask_bytes = (nibbles[0::2] << 4) | nibbles[1::2]
    byte_starts = np.cumsum(byte_lengths) - byte_lengths
    reverse = big & converted & (byte_lengths > 1)
    if reverse.any():
        byte_rows = np.repeat(np.arange(rows), byte_lengths)
        index = np.arange(mask_bytes.size)
        mirrored = 2 * byte_starts[byte_rows] + byte_lengths[byte_rows] - 1 - index
        mask_bytes = mask_bytes[np.where(reverse[byte_rows], mirrored, index)]
    return _decode(mask_bytes, byte_starts, byte_lengths, _bit_counts(bit_count, rows), errors)


class _Errors:
    """Per-row error messages where the first failed check wins, built without a row loop.

    `open` marks the rows still to check: non-null and without an error so far.
    """

    def __init__(self, valid: np.ndarray) -> None:
        self.open = valid.copy()
        self._rows: list[np.ndarray] = []
        self._messages: list[pa.Array] = []

    def add(self, failed: np.ndarray, message: str | Callable[[np.ndarray], pa.Array]) -> None:
        """Give `message` to the open rows where `failed`; a callable formats it per row."""
        rows = np.flatnonzero(failed & self.open)
        if rows.size == 0:
            return
        self.open[rows] = False
        self._rows.append(rows)
        if isinstance(message, str):
            self._messages.append(pa.repeat(pa.scalar(message, pa.string()), rows.size))
        else:
            self._messages.append(message(rows).cast(pa.string()))

    def array(self) -> pa.Array:
        if not self._rows:
            return pa.nulls(self.open.size, pa.string())
        rows = np.concatenate(self._rows)
        slot = np.full(self.open.size, -1, dtype=np.int64)
        slot[rows] = np.arange(rows.size)
        return pc.take(pa.concat_arrays(self._messages), pa.array(slot, mask=slot < 0))


def _decode(
    data: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    bit_counts: tuple[np.ndarray, np.ndarray],
    errors: _Errors,
) -> pa.StructArray:
    """Check and decode the open rows' masks (row i is data[starts[i]:][:lengths[i]])."""
    counts, counts_present = bit_counts
    rows = starts.size
    errors.add(~counts_present, NULL_BIT_COUNT)
    errors.add(counts < 0, lambda failed: _join("column count ", counts[failed], " is negative"))
    errors.add(lengths > MAX_MASK_BYTES, MASK_TOO_LONG)

    mask_lengths = np.where(errors.open, lengths, 0)
    flat, byte_rows = _gather(data, starts, mask_lengths)
    nonzero = np.flatnonzero(flat)
    byte_rows = byte_rows[nonzero]
    byte_index = nonzero - (np.cumsum(mask_lengths) - mask_lengths)[byte_rows]
    bit_matrix = np.unpackbits(flat[nonzero][:, np.newaxis], axis=1, bitorder="little")
    hit, bit = np.nonzero(bit_matrix)
    positions = byte_index[hit] * 8 + bit
    position_rows = byte_rows[hit]

    per_row = np.bincount(position_rows, minlength=rows)
    highest = np.full(rows, -1, dtype=np.int64)
    has_bits = per_row > 0
    highest[has_bits] = positions[np.cumsum(per_row)[has_bits] - 1]
    errors.add(highest >= counts, lambda failed: _bit_out_of_range(highest[failed], counts[failed]))

    decoded = errors.open
    if not decoded[position_rows].all():
        positions = positions[decoded[position_rows]]
        per_row = np.where(decoded, per_row, 0)
    offsets = np.zeros(rows + 1, dtype=np.int32)
    np.cumsum(per_row, out=offsets[1:])
    lists = pa.Array.from_buffers(
        pa.list_(pa.int32()),
        rows,
        [pa.py_buffer(np.packbits(decoded, bitorder="little")), pa.py_buffer(offsets)],
        children=[pa.array(positions.astype(np.int32), type=pa.int32())],
    )
    return pa.StructArray.from_arrays([lists, errors.array()], fields=list(RESULT_TYPE))


def _bit_out_of_range(highest: np.ndarray, counts: np.ndarray) -> pa.Array:
    noun = pa.array(np.where(counts == 1, " column", " columns"), type=pa.string())
    return _join("bit ", highest, " set but the table has ", counts, noun)


def _join(*parts: str | np.ndarray | pa.Array) -> pa.Array:
    """Concatenate per-row texts; numpy numbers are written in decimal."""
    texts = [
        pc.cast(pa.array(part), pa.string()) if isinstance(part, np.ndarray) else part
        for part in parts
    ]
    return pc.binary_join_element_wise(*texts, "")


def _check_byte_orders(byte_order: pa.Array | str, rows: int, errors: _Errors) -> np.ndarray:
    """Flag null and unknown byte orders as errors; True where a row's text is big-endian."""
    if isinstance(byte_order, str):
        if byte_order in BYTE_ORDERS:
            return np.full(rows, byte_order == "big")
        byte_order = pa.repeat(pa.scalar(byte_order, pa.string()), rows)
    if isinstance(byte_order, pa.ChunkedArray):
        byte_order = byte_order.combine_chunks()
    if not (pa.types.is_string(byte_order.type) or pa.types.is_large_string(byte_order.type)):
        byte_order = byte_order.cast(pa.large_string())
    present = _validity(byte_order)
    little = _flags(pc.equal(byte_order, "little"))
    big = _flags(pc.equal(byte_order, "big"))
    errors.add(~present, NULL_BYTE_ORDER)
    errors.add(
        ~(little | big),
        lambda failed: _unknown_byte_order(pc.take(byte_order, pa.array(failed))),
    )
    return big


def _unknown_byte_order(byte_order: pa.Array) -> pa.Array:
    return _join("unknown byte order '", byte_order, "' (expected 'little' or 'big')")


def _flags(booleans: pa.Array) -> np.ndarray:
    flags: np.ndarray = pc.fill_null(booleans, False).to_numpy(zero_copy_only=False)
    return flags


def _bit_counts(bit_count: pa.Array | int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(count per row as int64, False where the count is null)."""
    if isinstance(bit_count, (int, np.integer)):
        return np.full(rows, int(bit_count), dtype=np.int64), np.ones(rows, dtype=bool)
    if isinstance(bit_count, pa.ChunkedArray):
        bit_count = bit_count.combine_chunks()
    counts = pc.fill_null(pc.cast(bit_count, pa.int64()), 0).to_numpy(zero_copy_only=False)
    return counts, _validity(bit_count)


def _as_bytes_array(masks: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The masks as an array with offsets and a data buffer (binary, string or their large kin)."""
    if isinstance(masks, pa.ChunkedArray):
        masks = masks.combine_chunks()
    kind = masks.type
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return masks
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return masks
    return masks.cast(pa.large_binary())


def _validity(array: pa.Array) -> np.ndarray:
    """True for each non-null row, read from the validity bitmap (offset aware)."""
    if pa.types.is_null(array.type):
        return np.zeros(len(array), dtype=bool)
    bitmap = array.buffers()[0]
    if array.null_count == 0 or bitmap is None:
        return np.ones(len(array), dtype=bool)
    bits = np.unpackbits(np.frombuffer(bitmap, dtype=np.uint8), bitorder="little")
    return bits[array.offset : array.offset + len(array)].astype(bool)


def _buffers(masks: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(valid, start, length) per row and the data buffer, as numpy, without copying data."""
    rows = len(masks)
    _bitmap, offset_buffer, data_buffer = masks.buffers()[:3]
    large = pa.types.is_large_binary(masks.type) or pa.types.is_large_string(masks.type)
    if rows == 0 or offset_buffer is None:
        offsets = np.zeros(rows + 1, dtype=np.int64)
    else:
        offsets = np.frombuffer(
            offset_buffer, dtype=np.int64 if large else np.int32, count=masks.offset + rows + 1
        )[masks.offset :].astype(np.int64)
    data = np.empty(0, dtype=np.uint8)
    if data_buffer is not None and data_buffer.size:
        data = np.frombuffer(data_buffer, dtype=np.uint8)
    valid = _validity(masks)
    lengths = np.where(valid, np.diff(offsets), 0)
    return valid, offsets[:-1], lengths, data


def _gather(
    data: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The rows' bytes back to back (row i is data[starts[i]:][:lengths[i]]) and each one's row."""
    out_starts = np.cumsum(lengths) - lengths
    total = int(lengths.sum())
    byte_rows = np.repeat(np.arange(starts.size), lengths)
    index = np.arange(total, dtype=np.int64) + (starts - out_starts)[byte_rows]
    return data[index], byte_rows
