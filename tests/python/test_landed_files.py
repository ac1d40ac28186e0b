"""python_udfs.landed_files without Spark: every landed file is listed with its columns, and a
file that Spark would misread or fail on is given a problem instead
(docs/landing-and-quarantine.md, "Landing files").

The files are written here byte by byte (CSV) or with pyarrow (Parquet), so the expected
judgements follow from what each file holds, not from the code under test."""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from python_udfs.landed_files import (
    LandedFile,
    column_differences,
    csv_dialect,
    inspect_folder,
    listing_digest,
)

HEADER = b"header__change_seq,header__change_oper,employee_id,notes\n"


def write(path: Path, data: bytes, mtime: int) -> None:
    path.write_bytes(data)
    os.utime(path, (mtime, mtime))


def by_name(folder: Path, file_format: str, **options: str) -> dict[str, LandedFile]:
    return {f.file_name: f for f in inspect_folder(str(folder), file_format, options)}


def test_csv_files_are_judged_against_the_oldest_readable_file(tmp_path: Path) -> None:
    write(tmp_path / "part-0.csv", b"", 100)  # zero-byte: never the reference
    write(tmp_path / "part-1.csv", HEADER + b'1,I,7,"a ""quoted"" ,\nnote"\n', 200)
    write(tmp_path / "part-2.csv", b"\xef\xbb\xbf" + HEADER + b"2,I,8,\n", 300)  # BOM
    write(tmp_path / "part-3.csv", HEADER, 400)  # header only: no records, still readable
    write(tmp_path / "part-4.csv", b"header__change_seq,employee_id\n3,9\n", 500)
    write(
        tmp_path / "part-5.csv", b"header__change_seq,header__change_oper,notes,employee_id\n", 600
    )
    write(tmp_path / "part-6.csv", b"\xff\xfe\x00bad", 700)  # not UTF-8
    write(tmp_path / "_SUCCESS", b"", 800)  # Spark's hidden files are not the table's
    write(tmp_path / ".part-1.csv.crc", b"xx", 800)
    (tmp_path / "sub").mkdir()
    files = by_name(tmp_path, "csv", escape='"')

    assert set(files) == {f"part-{n}.csv" for n in range(7)}
    assert files["part-0.csv"].problem == "zero-byte file: nothing to read"
    assert files["part-1.csv"].is_reference and files["part-1.csv"].problem is None
    assert files["part-1.csv"].columns == (
        ("header__change_seq", "string"),
        ("header__change_oper", "string"),
        ("employee_id", "string"),
        ("notes", "string"),
    )
    assert files["part-2.csv"].problem is None  # the BOM is not part of the first name
    assert files["part-3.csv"].problem is None
    assert files["part-4.csv"].problem == (
        "csv file does not match the table's columns (those of part-1.csv): "
        "lacks column header__change_oper, notes"
    )
    assert "columns in another order" in str(files["part-5.csv"].problem)
    assert str(files["part-6.csv"].problem).startswith("unreadable csv file: ")
    assert sum(f.is_reference for f in files.values()) == 1


def parquet(path: Path, table: pa.Table, mtime: int) -> None:
    pq.write_table(table, path)
    os.utime(path, (mtime, mtime))


def test_parquet_files_compare_names_and_types(tmp_path: Path) -> None:
    good = pa.table(
        {
            "employee_id": pa.array([1], pa.int32()),
            "salary": pa.array([Decimal("1.50")], pa.decimal128(10, 2)),
        }
    )
    parquet(tmp_path / "a.parquet", good, 100)
    parquet(tmp_path / "b.parquet", good, 200)
    parquet(tmp_path / "c.parquet", good.drop_columns(["salary"]), 300)
    parquet(tmp_path / "d.parquet", good.append_column("extra", pa.array(["x"])), 400)
    parquet(
        tmp_path / "e.parquet",
        pa.table({"employee_id": pa.array(["1"]), "salary": good["salary"]}),
        500,
    )
    write(tmp_path / "f.parquet", (tmp_path / "a.parquet").read_bytes()[:60], 600)  # truncated
    write(tmp_path / "g.parquet", b"", 700)
    files = by_name(tmp_path, "parquet")

    assert files["a.parquet"].is_reference
    assert files["a.parquet"].columns == (
        ("employee_id", "int32"),
        ("salary", "decimal128(10, 2)"),
    )
    assert files["b.parquet"].problem is None
    assert str(files["c.parquet"].problem).endswith("lacks column salary")
    assert str(files["d.parquet"].problem).endswith("has extra column extra")
    assert str(files["e.parquet"].problem).endswith(
        "column employee_id is string, the table's is int32"
    )
    assert str(files["f.parquet"].problem).startswith("unreadable parquet file: ")
    assert files["g.parquet"].problem == "zero-byte file: nothing to read"


def test_a_folder_that_does_not_exist_lists_nothing(tmp_path: Path) -> None:
    assert inspect_folder(str(tmp_path / "missing"), "csv") == []


def test_an_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="file format must be one of"):
        inspect_folder(str(tmp_path), "orc")


def test_a_path_with_quotes_and_spaces_is_listed(tmp_path: Path) -> None:
    folder = tmp_path / 'it\'s a "root"'
    folder.mkdir()
    write(folder / "part 0.csv", b"a,b\n1,2\n", 100)
    [landed] = inspect_folder("file:" + str(folder), "csv")
    assert landed.file_name == "part 0.csv" and landed.problem is None


def test_the_listing_digest_changes_exactly_when_the_listed_files_do(tmp_path: Path) -> None:
    """What a run compares to keep a landed-file list (cdc_landed_listing_digest): each data
    file's name, size and modification time, in every folder asked about, in their order.
    Hidden files and sub-folders are not listed, so they change nothing; a rewrite that
    keeps the size changes the modification time."""
    first, second = tmp_path / "a__ct", tmp_path / "a"
    first.mkdir()
    second.mkdir()
    write(first / "part-0.csv", b"a,b\n1,2\n", 100)
    folders = [str(first), str(second)]
    digests = [listing_digest(folders)]
    assert listing_digest(folders) == digests[0]
    assert listing_digest([str(first), str(tmp_path / "missing")]) == listing_digest(
        [str(first), str(tmp_path / "missing")]
    )

    def changed() -> str | None:
        digest = listing_digest(folders)
        assert digest not in digests
        digests.append(digest)
        return digest

    write(second / "part-0.csv", b"a,b\n", 100)  # a file lands in the second folder
    changed()
    write(first / "part-0.csv", b"a,b\n3,4\n", 200)  # rewritten, same size, later
    changed()
    write(first / "part-0.csv", b"a,b\n3,4,5\n", 200)  # grown, same time
    changed()
    write(first / "part-1.csv", b"", 300)  # a zero-byte file is listed (and kept out)
    changed()
    (first / "part-1.csv").unlink()
    assert listing_digest(folders) == digests[-2]  # back to the listing before it
    write(first / "_SUCCESS", b"", 400)
    write(first / ".part-0.csv.crc", b"x", 400)
    (first / "_temporary").mkdir()
    assert listing_digest(folders) == digests[-2]
    assert listing_digest(list(reversed(folders))) != digests[-2]
    assert listing_digest([]) != listing_digest([str(tmp_path / "missing")])


names = st.lists(
    st.text(alphabet="abcXYZ_1", min_size=1, max_size=4),
    min_size=1,
    max_size=5,
    unique_by=str.lower,
)


@given(names, names)
def test_column_differences_are_empty_exactly_when_the_columns_agree(
    mine: list[str], theirs: list[str]
) -> None:
    columns = [(name, "string") for name in mine]
    reference = [(name, "string") for name in theirs]
    differences = column_differences(columns, reference, compare_types=True)
    assert (differences == []) == ([n.lower() for n in mine] == [n.lower() for n in theirs])


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, {"delimiter": ",", "quotechar": '"', "doublequote": False, "escapechar": "\\"}),
        ({"escape": '"'}, {"delimiter": ",", "quotechar": '"', "doublequote": True}),
        (
            {"sep": ";", "quote": "'", "escape": "'"},
            {"delimiter": ";", "quotechar": "'", "doublequote": True},
        ),
    ],
)
def test_csv_dialect_follows_spark_options(
    options: dict[str, str], expected: dict[str, object]
) -> None:
    assert csv_dialect(options) == expected


JSON_RECORD = b'{"topic": "t", "partition": 0, "offset": 1, "key": null, "value": "{}"}\n'


def test_json_lines_files_are_judged_by_their_first_record(tmp_path: Path) -> None:
    write(tmp_path / "part-0.json", b"", 100)  # zero-byte: never the reference
    write(tmp_path / "part-1.json", JSON_RECORD + b"not json\n", 200)  # later lines: Spark's
    write(
        tmp_path / "part-2.json",
        b'\xef\xbb\xbf\n{"value": "x", "key": "k", "offset": 2, "partition": 1, "topic": "t"}',
        300,
    )  # BOM, a blank first line, fields in another order, no final newline
    write(tmp_path / "part-3.json", b'{"topic": "t", "value": "{}"}\n', 400)
    write(tmp_path / "part-4.json", JSON_RECORD.replace(b'"key"', b'"kee"'), 500)
    write(tmp_path / "part-5.json", b"[1, 2]\n", 600)
    write(tmp_path / "part-6.json", b'{"topic": "t", \n', 700)
    write(tmp_path / "part-7.json", b"\n\n", 800)
    files = by_name(tmp_path, "json")

    assert files["part-0.json"].problem == "zero-byte file: nothing to read"
    assert files["part-1.json"].is_reference and files["part-1.json"].problem is None
    assert files["part-1.json"].columns == tuple(
        (name, "string") for name in ("topic", "partition", "offset", "key", "value")
    )
    assert files["part-2.json"].problem is None, "JSON fields match by name, in any order"
    assert files["part-3.json"].problem == (
        "json file does not match the table's columns (those of part-1.json): "
        "lacks column partition, offset, key"
    )
    assert files["part-4.json"].problem == (
        "json file does not match the table's columns (those of part-1.json): "
        "lacks column key; has extra column kee"
    )
    assert files["part-5.json"].problem == (
        "unreadable json file: first record is not a JSON object"
    )
    assert (files["part-6.json"].problem or "").startswith("unreadable json file: ")
    assert files["part-7.json"].problem == "unreadable json file: no record"
