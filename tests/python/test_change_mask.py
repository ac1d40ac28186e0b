"""The reference change-mask decoder (spec A.5, A.13, B.5, B.9)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from python_udfs.change_mask import (
    MAX_MASK_BYTES,
    ChangeMaskError,
    change_mask_columns,
    decode_change_mask,
    decode_hex_change_mask,
    encode_change_mask,
    encode_hex_change_mask,
    hex_mask_bytes,
)

# Spec A.13: HR.EMPLOYEES__ct, 7 default header columns, then the data columns.
EMPLOYEES_CT = (
    "header__change_seq",
    "header__change_oper",
    "header__change_mask",
    "header__stream_position",
    "header__operation",
    "header__transaction_id",
    "header__timestamp",
    "EMPLOYEE_ID",
    "FIRST_NAME",
    "SALARY",
)
MAX_BITS = MAX_MASK_BYTES * 8


@pytest.mark.parametrize(
    ("mask", "bit_count", "expected"),
    [
        pytest.param(bytes.fromhex("8003"), 10, [7, 8, 9], id="A.13 insert 8003"),
        pytest.param(bytes.fromhex("0002"), 10, [9], id="A.13 update 0002"),
        pytest.param(bytes.fromhex("80"), 10, [7], id="A.13 delete 80, zero byte trimmed"),
        pytest.param(b"", 10, [], id="A.13 before image, empty mask"),
        pytest.param(None, 10, None, id="null mask stays null"),
        pytest.param(None, -1, None, id="null mask, whatever the count"),
        pytest.param(b"\x01", 1, [0], id="bit 0 is the low bit of byte 0"),
        pytest.param(b"\x80", 8, [7], id="bit 7 is the high bit of byte 0"),
        pytest.param(b"\x00\x01", 9, [8], id="byte 1 holds bits 15..8"),
        pytest.param(b"\x00\x00", 0, [], id="untrimmed all-zero mask"),
        pytest.param(b"\x00" * 3, 1, [], id="zero bytes beyond the count are fine"),
        pytest.param(b"", 0, [], id="empty mask, no columns"),
        pytest.param(b"\xff", 8, list(range(8)), id="full byte"),
        pytest.param(b"\x00" * 127 + b"\x80", MAX_BITS, [MAX_BITS - 1], id="128 bytes, last bit"),
    ],
)
def test_decode_change_mask(mask: bytes | None, bit_count: int, expected: list[int] | None) -> None:
    assert decode_change_mask(mask, bit_count) == expected


@pytest.mark.parametrize(
    ("mask", "bit_count", "message"),
    [
        pytest.param(
            b"\x00\x10", 10, "bit 12 set but the table has 10 columns", id="bit beyond count"
        ),
        pytest.param(b"\x00\x04", 10, "bit 10 set but the table has 10 columns", id="bit = count"),
        pytest.param(b"\x05", 1, "bit 2 set but the table has 1 column", id="names highest bit"),
        pytest.param(b"\x01", 0, "bit 0 set but the table has 0 columns", id="no columns"),
        pytest.param(b"\x00" * 129, 2000, "mask longer than 128 bytes", id="129 zero bytes"),
        pytest.param(b"\x01", -1, "column count -1 is negative", id="negative count"),
        pytest.param(b"", -5, "column count -5 is negative", id="negative count, empty mask"),
        pytest.param(b"\xff" * 129, -1, "column count -1 is negative", id="count checked first"),
    ],
)
def test_decode_change_mask_errors(mask: bytes, bit_count: int, message: str) -> None:
    with pytest.raises(ChangeMaskError) as raised:
        decode_change_mask(mask, bit_count)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("mask", "expected"),
    [
        pytest.param(
            bytes.fromhex("8003"), ["EMPLOYEE_ID", "FIRST_NAME", "SALARY"], id="A.13 insert"
        ),
        pytest.param(bytes.fromhex("0002"), ["SALARY"], id="A.13 update"),
        pytest.param(bytes.fromhex("80"), ["EMPLOYEE_ID"], id="A.13 delete, key only"),
        pytest.param(b"", [], id="A.13 before image"),
        pytest.param(None, None, id="null"),
    ],
)
def test_change_mask_columns(mask: bytes | None, expected: list[str] | None) -> None:
    assert change_mask_columns(mask, EMPLOYEES_CT) == expected


def test_change_mask_columns_rejects_a_bit_beyond_the_columns() -> None:
    with pytest.raises(ChangeMaskError, match="bit 10 set but the table has 10 columns"):
        change_mask_columns(b"\x00\x04", EMPLOYEES_CT)


@pytest.mark.parametrize(
    ("text", "byte_order", "expected"),
    [
        pytest.param("0102", "little", b"\x01\x02", id="little: byte 0 first"),
        pytest.param("0102", "big", b"\x02\x01", id="big: most significant first"),
        pytest.param("abCD", "little", b"\xab\xcd", id="either case"),
        pytest.param("", "little", b"", id="empty little"),
        pytest.param("", "big", b"", id="empty big"),
        pytest.param("0B", "big", b"\x0b", id="one byte is the same either way"),
    ],
)
def test_hex_mask_bytes(text: str, byte_order: str, expected: bytes) -> None:
    assert hex_mask_bytes(text, byte_order) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("ABC", "odd-length hex mask", id="odd length"),
        pytest.param("0", "odd-length hex mask", id="one digit"),
        pytest.param("0G", "non-hex character in mask", id="G"),
        pytest.param("0x0B", "non-hex character in mask", id="0x prefix"),
        pytest.param("0B 01", "non-hex character in mask", id="space"),
        pytest.param("0B\n", "non-hex character in mask", id="trailing newline"),
        pytest.param("é0", "non-hex character in mask", id="non-ASCII letter"),
        pytest.param("١٢", "non-hex character in mask", id="non-ASCII digits"),
        pytest.param("XYZ", "non-hex character in mask", id="non-hex wins over odd"),
    ],
)
def test_hex_mask_bytes_errors(text: str, message: str) -> None:
    for byte_order in ("little", "big"):
        with pytest.raises(ChangeMaskError) as raised:
            hex_mask_bytes(text, byte_order)
        assert str(raised.value) == message


@pytest.mark.parametrize("byte_order", ["LITTLE", "middle", ""])
def test_unknown_byte_order(byte_order: str) -> None:
    message = f"unknown byte order '{byte_order}' (expected 'little' or 'big')"
    with pytest.raises(ValueError) as raised:
        hex_mask_bytes("01", byte_order)
    assert str(raised.value) == message
    assert not isinstance(raised.value, ChangeMaskError)
    with pytest.raises(ValueError, match="unknown byte order"):
        decode_hex_change_mask("01", 8, byte_order)
    with pytest.raises(ValueError, match="unknown byte order"):
        encode_hex_change_mask([0], byte_order)


@pytest.mark.parametrize(
    ("text", "bit_count", "byte_order", "expected"),
    [
        pytest.param("04", 3, "little", [2], id="B.9 update 04: ordinal 3 EMAIL"),
        pytest.param("01", 3, "little", [0], id="B.9 delete 01: ordinal 1 ID"),
        pytest.param("07", 3, "little", [0, 1, 2], id="B.9 column mask 07: all present"),
        pytest.param("0B", 10, "little", [0, 1, 3], id="S1 0B: ordinals 1, 2, 4"),
        pytest.param("0b", 10, "little", [0, 1, 3], id="lower case"),
        pytest.param("05", 3, "little", [0, 2], id="B.5 observed column mask 05"),
        pytest.param("00", 3, "little", [], id="B.8 all-zero update mask"),
        pytest.param("", 3, "little", [], id="empty text"),
        pytest.param(None, 3, "little", None, id="null"),
        pytest.param(None, 3, "middle", None, id="null, whatever the byte order"),
        pytest.param("0102", 16, "little", [0, 9], id="little 0102"),
        pytest.param("0102", 16, "big", [1, 8], id="big 0102"),
        pytest.param("0200", 10, "little", [1], id="little, trailing zero byte"),
        pytest.param("0002", 10, "big", [1], id="big, leading zero byte"),
        pytest.param("0B", 10, "big", [0, 1, 3], id="big, one byte"),
    ],
)
def test_decode_hex_change_mask(
    text: str | None, bit_count: int, byte_order: str, expected: list[int] | None
) -> None:
    assert decode_hex_change_mask(text, bit_count, byte_order) == expected


@pytest.mark.parametrize(
    ("text", "bit_count", "byte_order", "message"),
    [
        pytest.param("08", 3, "little", "bit 3 set but the table has 3 columns", id="B.8 stale"),
        pytest.param(
            "0001", 8, "little", "bit 8 set but the table has 8 columns", id="little 0001"
        ),
        pytest.param("0100", 8, "big", "bit 8 set but the table has 8 columns", id="big 0100"),
        pytest.param("0", 9, "little", "odd-length hex mask", id="odd length"),
        pytest.param("zz", 9, "little", "non-hex character in mask", id="non-hex"),
        pytest.param("00" * 129, 9, "little", "mask longer than 128 bytes", id="too long"),
        pytest.param("00" * 129, 9, "big", "mask longer than 128 bytes", id="too long, big"),
        pytest.param("zz", -1, "little", "non-hex character in mask", id="text before count"),
        pytest.param("00", -1, "little", "column count -1 is negative", id="negative count"),
    ],
)
def test_decode_hex_change_mask_errors(
    text: str, bit_count: int, byte_order: str, message: str
) -> None:
    with pytest.raises(ChangeMaskError) as raised:
        decode_hex_change_mask(text, bit_count, byte_order)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("positions", "trim", "length", "expected"),
    [
        pytest.param([7, 8, 9], True, None, bytes.fromhex("8003"), id="A.13 insert"),
        pytest.param([9], True, None, bytes.fromhex("0002"), id="A.13 update"),
        pytest.param([7], True, None, bytes.fromhex("80"), id="A.13 delete, trimmed"),
        pytest.param([7], False, 2, bytes.fromhex("8000"), id="A.13 delete, fixed width"),
        pytest.param([7], True, 2, bytes.fromhex("80"), id="trim after padding"),
        pytest.param([], True, None, b"", id="no bits, trimmed"),
        pytest.param([], False, 3, b"\x00" * 3, id="no bits, fixed width"),
        pytest.param([3, 3, 0], True, None, b"\x09", id="duplicates and any order"),
    ],
)
def test_encode_change_mask(
    positions: list[int], trim: bool, length: int | None, expected: bytes
) -> None:
    assert encode_change_mask(positions, trim=trim, length=length) == expected


@pytest.mark.parametrize(
    ("positions", "byte_order", "trim", "length", "expected"),
    [
        pytest.param([0, 9], "little", True, None, "0102", id="little"),
        pytest.param([1, 8], "big", True, None, "0102", id="big"),
        pytest.param([0, 1, 3], "little", True, None, "0B", id="upper case"),
        pytest.param([1], "little", False, 2, "0200", id="little padded at the end"),
        pytest.param([1], "big", False, 2, "0002", id="big padded at the front"),
        pytest.param([], "big", True, None, "", id="empty"),
    ],
)
def test_encode_hex_change_mask(
    positions: list[int], byte_order: str, trim: bool, length: int | None, expected: str
) -> None:
    assert encode_hex_change_mask(positions, byte_order, trim=trim, length=length) == expected


@pytest.mark.parametrize(
    ("positions", "length", "message"),
    [
        pytest.param([-1], None, "bit position -1 is negative", id="negative position"),
        pytest.param([8], 1, "bit 8 does not fit in 1 bytes", id="length too short"),
    ],
)
def test_encode_change_mask_errors(positions: list[int], length: int | None, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        encode_change_mask(positions, length=length)
    assert str(raised.value) == message


position_sets = st.sets(st.integers(0, MAX_BITS - 1), max_size=64)
byte_orders = st.sampled_from(["little", "big"])


@given(positions=position_sets, extra_columns=st.integers(0, 16), data=st.data())
def test_round_trip(positions: set[int], extra_columns: int, data: st.DataObject) -> None:
    """Any position set decodes back from its trimmed and its padded mask."""
    bit_count = min(max(positions, default=-1) + 1 + extra_columns, MAX_BITS)
    expected = sorted(positions)
    trimmed = encode_change_mask(positions)
    assert trimmed == b"" or trimmed[-1] != 0
    assert decode_change_mask(trimmed, bit_count) == expected
    length = data.draw(st.integers(len(trimmed), MAX_MASK_BYTES), label="length")
    padded = encode_change_mask(positions, trim=False, length=length)
    assert len(padded) == length
    assert padded.rstrip(b"\x00") == trimmed
    assert decode_change_mask(padded, bit_count) == expected


@given(positions=position_sets, byte_order=byte_orders, pad=st.integers(0, 4))
def test_hex_round_trip(positions: set[int], byte_order: str, pad: int) -> None:
    expected = sorted(positions)
    trimmed = encode_hex_change_mask(positions, byte_order)
    assert trimmed == trimmed.upper()
    assert decode_hex_change_mask(trimmed, MAX_BITS, byte_order) == expected
    assert decode_hex_change_mask(trimmed.lower(), MAX_BITS, byte_order) == expected
    length = min(len(trimmed) // 2 + pad, MAX_MASK_BYTES)
    padded = encode_hex_change_mask(positions, byte_order, trim=False, length=length)
    assert len(padded) == 2 * length
    assert decode_hex_change_mask(padded, MAX_BITS, byte_order) == expected


@given(mask=st.binary(max_size=MAX_MASK_BYTES + 2), bit_count=st.integers(0, MAX_BITS + 8))
def test_hex_of_bytes_agrees_with_bytes(mask: bytes, bit_count: int) -> None:
    """Little-endian hex text is the byte array written byte 0 first (spec A.5, B.5)."""
    assert hex_mask_bytes(mask.hex(), "little") == mask
    assert hex_mask_bytes(mask.hex(), "big") == mask[::-1]
    try:
        expected: list[int] | str | None = decode_change_mask(mask, bit_count)
    except ChangeMaskError as error:
        expected = str(error)
    try:
        actual: list[int] | str | None = decode_hex_change_mask(mask.hex(), bit_count)
    except ChangeMaskError as error:
        actual = str(error)
    assert actual == expected


@given(mask=st.binary(max_size=MAX_MASK_BYTES), bit_count=st.integers(0, MAX_BITS))
def test_decoded_positions_are_the_set_bits(mask: bytes, bit_count: int) -> None:
    """Checked against a bit-by-bit reading of the spec A.5 layout."""
    set_bits = [n for n in range(len(mask) * 8) if mask[n // 8] >> (n % 8) & 1]
    if set_bits and set_bits[-1] >= bit_count:
        with pytest.raises(ChangeMaskError, match=f"bit {set_bits[-1]} set"):
            decode_change_mask(mask, bit_count)
    else:
        assert decode_change_mask(mask, bit_count) == set_bits
