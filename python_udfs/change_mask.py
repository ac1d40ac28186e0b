"""Decode Qlik change masks into column positions (spec A.5 change tables, B.5 Kafka messages).

A change mask is a little-endian bit array: byte 0 holds bits 7..0 (bit 0 is its least
significant bit), byte 1 holds bits 15..8, and so on. Trailing zero bytes may be missing, so a
short mask means "the remaining bits are 0", and an empty mask means "no bit set" (spec A.5
rule 3). A mask is at most 128 bytes long, so it covers at most 1024 columns (spec A.5).

* Change tables (spec A.5): bit N is change-table column ordinal N, header columns included.
* Kafka messages (spec B.5): the mask is hex text; bit k is data-column ordinal k + 1.

This module is the readable reference: strict (it raises `ChangeMaskError`) and pure Python.
`change_mask_batch` is the vectorized twin that Spark runs; tests hold the two equal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

MAX_MASK_BYTES = 128
BYTE_ORDERS = ("little", "big")

# Fixed quarantine reasons, shared with change_mask_batch.
MASK_TOO_LONG = f"mask longer than {MAX_MASK_BYTES} bytes"
NON_HEX_MASK = "non-hex character in mask"
ODD_LENGTH_MASK = "odd-length hex mask"

_HEX_TEXT = re.compile(r"[0-9A-Fa-f]*")


class ChangeMaskError(ValueError):
    """A mask that cannot be decoded; the message is a short quarantine reason."""


def _bit_out_of_range(bit: int, bit_count: int) -> str:
    noun = "column" if bit_count == 1 else "columns"
    return f"bit {bit} set but the table has {bit_count} {noun}"


def _negative_bit_count(bit_count: int) -> str:
    return f"column count {bit_count} is negative"


def _unknown_byte_order(byte_order: str) -> str:
    return f"unknown byte order '{byte_order}' (expected 'little' or 'big')"


def decode_change_mask(mask: bytes | None, bit_count: int) -> list[int] | None:
    """Positions of the set bits, ascending (spec A.5 rules 2 and 3, A.12 "bit beyond count").

    `bit_count` is the number of columns the mask may refer to: every change-table column,
    headers included, for change tables; the data columns for Kafka messages. A null mask stays
    null (unknown), whatever `bit_count` is; an empty mask means no column changed.

    Raises ChangeMaskError when `bit_count` is negative, the mask is longer than 128 bytes, or a
    bit at or beyond `bit_count` is set (the message names the highest such bit).
    """
    if mask is None:
        return None
    if bit_count < 0:
        raise ChangeMaskError(_negative_bit_count(bit_count))
    if len(mask) > MAX_MASK_BYTES:
        raise ChangeMaskError(MASK_TOO_LONG)
    bits = int.from_bytes(mask, byteorder="little")
    if bits.bit_length() > bit_count:
        raise ChangeMaskError(_bit_out_of_range(bits.bit_length() - 1, bit_count))
    return [position for position in range(bits.bit_length()) if bits >> position & 1]


def change_mask_columns(mask: bytes | None, column_names: Sequence[str]) -> list[str] | None:
    """Names of the columns whose bit is set, in column order (spec A.5, worked example A.13).

    `column_names` lists every column the mask covers, in ordinal order (for change tables the
    header columns first). Raises ChangeMaskError as `decode_change_mask` does.
    """
    positions = decode_change_mask(mask, len(column_names))
    if positions is None:
        return None
    return [column_names[position] for position in positions]


def _check_byte_order(byte_order: str) -> None:
    if byte_order not in BYTE_ORDERS:
        raise ValueError(_unknown_byte_order(byte_order))


def hex_mask_bytes(text: str, byte_order: str = "little") -> bytes:
    """The mask bytes (byte 0 first) written as hex text (spec A.5 hex landing, B.5).

    "little" (the seed's reading, the default): the text is the byte array, byte 0 first, so
    "0102" is byte 0 = 0x01, byte 1 = 0x02 (bits 0 and 9). "big": the text is one hexadecimal
    number, most significant byte first, so "0102" is bits 1 and 8. Either case of hex digit is
    accepted; "" is the empty mask.

    Raises ValueError for an unknown byte order, ChangeMaskError for a character that is not a
    hex digit (whitespace and "0x" included) or an odd number of digits.
    """
    _check_byte_order(byte_order)
    if _HEX_TEXT.fullmatch(text) is None:
        raise ChangeMaskError(NON_HEX_MASK)
    if len(text) % 2:
        raise ChangeMaskError(ODD_LENGTH_MASK)
    raw = bytes.fromhex(text)
    return raw if byte_order == "little" else raw[::-1]


def decode_hex_change_mask(
    text: str | None, bit_count: int, byte_order: str = "little"
) -> list[int] | None:
    """Positions of the set bits of a hex text mask (spec B.5; B.9: "04" is bit 2).

    Kafka's bit k is data-column ordinal k + 1: "0B" gives [0, 1, 3], ordinals 1, 2 and 4.
    A null text stays null. Raises what `hex_mask_bytes`, then `decode_change_mask`, raise.
    """
    if text is None:
        return None
    return decode_change_mask(hex_mask_bytes(text, byte_order), bit_count)


def encode_change_mask(
    positions: Iterable[int], *, trim: bool = True, length: int | None = None
) -> bytes:
    """The little-endian mask with exactly these bits set; the inverse of `decode_change_mask`.

    The mask is `length` bytes long (zero-padded), or as short as the highest bit allows when
    `length` is None; `trim` then drops the trailing zero bytes, as Qlik may (spec A.5 rule 3).
    So `trim=False, length=n` is the fixed-width form and the defaults give the shortest form.

    Raises ValueError for a negative position or a `length` too short for the highest bit.
    """
    bits = 0
    for position in positions:
        if position < 0:
            raise ValueError(f"bit position {position} is negative")
        bits |= 1 << position
    needed = (bits.bit_length() + 7) // 8
    if length is None:
        length = needed
    elif length < needed:
        raise ValueError(f"bit {bits.bit_length() - 1} does not fit in {length} bytes")
    if trim:
        length = needed
    return bits.to_bytes(length, byteorder="little")


def encode_hex_change_mask(
    positions: Iterable[int],
    byte_order: str = "little",
    *,
    trim: bool = True,
    length: int | None = None,
) -> str:
    """`encode_change_mask` written as uppercase hex text in `byte_order` (see hex_mask_bytes)."""
    _check_byte_order(byte_order)
    raw = encode_change_mask(positions, trim=trim, length=length)
    return (raw if byte_order == "little" else raw[::-1]).hex().upper()
