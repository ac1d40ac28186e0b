"""The registered SQL functions run the vectorized decoders and agree with the reference."""

from __future__ import annotations

import random
from typing import Any

import pytest
from chispa import assert_df_equality
from test_change_mask_batch import reference_hex_row, reference_row
from test_table_key_batch import reference_row as table_key_reference_row

from python_udfs.change_mask import encode_change_mask
from python_udfs.spark import REGISTERED_UDFS
from python_udfs.table_key import SPECIAL_CHARACTERS, format_table_key

pytestmark = pytest.mark.spark

MASK_RESULT = "struct<positions: array<int>, error: string>"


def test_every_udf_is_registered(spark: Any) -> None:
    assert set(REGISTERED_UDFS) >= {"decode_change_mask", "decode_hex_change_mask"}
    for name in REGISTERED_UDFS:
        assert spark.catalog.functionExists(name), name


def test_the_project_checks_for_every_registered_function() -> None:
    """The on-run-start guard (assert_udfs_registered) checks the names cdc_python_udfs
    lists: every function register_udfs registers, no other."""
    import re
    from pathlib import Path

    macro = Path(__file__).parents[2] / "macros" / "landing" / "cdc_python_udfs.sql"
    listed = re.findall(r"'([a-z_]+)'", macro.read_text())
    assert sorted(listed) == sorted(REGISTERED_UDFS)


def test_the_listing_digest_on_spark_is_the_python_one(spark: Any, tmp_path: Any) -> None:
    """cdc_landed_listing_digest, as a run's fingerprint of a landed-file list calls it (one
    array of folders, quotes in a name), gives python_udfs.landed_files.listing_digest."""
    from python_udfs.landed_files import listing_digest

    folder = tmp_path / 'it\'s "landed"'
    folder.mkdir()
    (folder / "part-0.parquet").write_bytes(b"PAR1")
    folders = [str(folder), str(tmp_path / "missing")]
    row = spark.sql(
        "select cdc_landed_listing_digest(array(:first, :second)) as digest,"
        " cdc_landed_listing_digest(cast(null as array<string>)) as none",
        args={"first": folders[0], "second": folders[1]},
    ).collect()[0]
    assert row.digest == listing_digest(folders)
    assert row.none is None


# (case, SQL expression, (positions, error)); one query runs them all, to keep Spark quick.
SQL_EXAMPLES = [
    ("A.13 I", "decode_change_mask(unhex('8003'), 10)", ([7, 8, 9], None)),
    ("A.13 U", "decode_change_mask(unhex('0002'), 10)", ([9], None)),
    ("A.13 D", "decode_change_mask(unhex('80'), 10)", ([7], None)),
    ("A.13 B", "decode_change_mask(unhex(''), 10)", ([], None)),
    ("null mask", "decode_change_mask(cast(null as binary), 10)", (None, None)),
    (
        "bit beyond count",
        "decode_change_mask(unhex('0010'), 10)",
        (None, "bit 12 set but the table has 10 columns"),
    ),
    ("B.9 04", "decode_hex_change_mask('04', 3, 'little')", ([2], None)),
    ("S1 0B", "decode_hex_change_mask('0B', 10, 'little')", ([0, 1, 3], None)),
    ("big 0102", "decode_hex_change_mask('0102', 16, 'big')", ([1, 8], None)),
    ("odd length", "decode_hex_change_mask('ABC', 16, 'little')", (None, "odd-length hex mask")),
]


def test_sql_examples(spark: Any) -> None:
    columns = ", ".join(f"{sql} as c{n}" for n, (_, sql, _) in enumerate(SQL_EXAMPLES))
    [row] = spark.sql(f"select {columns}").collect()
    actual = {case: (row[n].positions, row[n].error) for n, (case, _, _) in enumerate(SQL_EXAMPLES)}
    assert actual == {case: expected for case, _, expected in SQL_EXAMPLES}


def generated_rows(count: int, seed: int = 13) -> list[tuple[Any, ...]]:
    """(id, mask, bit_count, hex mask, byte order) rows: mostly valid, some null or invalid."""
    rng = random.Random(seed)
    rows = []
    for row_id in range(count):
        bit_count = rng.choice([0, 1, 3, 8, 10, 17, 64, 1024])
        positions = (
            {rng.randrange(bit_count) for _ in range(rng.randint(0, 4))} if bit_count else set()
        )
        encoded = encode_change_mask(positions)
        if rng.random() < 0.2:
            encoded += bytes(rng.randint(1, 2))  # untrimmed: zero bytes at the end
        mask: bytes | None = encoded
        kind = rng.random()
        if kind < 0.1:
            mask = None
        elif kind < 0.2:
            mask = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 3)))
        elif kind < 0.23:
            mask = bytes(129)
        text = None if mask is None else mask.hex()
        if text is not None and rng.random() < 0.1:
            text = rng.choice([text + "0", text + "g", " " + text])
        byte_order = rng.choice(["little", "little", "big", "middle", None])
        count_or_null = None if rng.random() < 0.03 else bit_count
        rows.append((row_id, mask, count_or_null, text, byte_order))
    return rows


def test_udfs_equal_the_reference(spark: Any) -> None:
    rows = generated_rows(300)
    source = spark.createDataFrame(
        rows, "id int, mask binary, bit_count int, hex_mask string, byte_order string"
    ).repartition(3)
    actual = source.selectExpr(
        "id",
        "decode_change_mask(mask, bit_count) as decoded",
        "decode_hex_change_mask(hex_mask, bit_count, byte_order) as hex_decoded",
    ).orderBy("id")
    expected = spark.createDataFrame(
        [
            (
                row_id,
                reference_row(mask, bit_count),
                reference_hex_row(text, bit_count, byte_order),
            )
            for row_id, mask, bit_count, text, byte_order in rows
        ],
        f"id int, decoded {MASK_RESULT}, hex_decoded {MASK_RESULT}",
    )
    assert_df_equality(actual, expected, ignore_nullable=True)


TABLE_KEY_RESULT = "struct<pairs: array<struct<column: string, value: string>>, error: string>"


def generated_table_keys(count: int, seed: int = 17) -> list[tuple[int, str | None]]:
    """(id, table_key) rows: typical and quoted keys, plus null, mangled and junk keys."""
    rng = random.Random(seed)
    alphabet = [*SPECIAL_CHARACTERS, " ", "\n", "a", "b", "1", "é", "名"]
    rows: list[tuple[int, str | None]] = []
    for row_id in range(count):
        kind = rng.random()
        key: str | None
        if kind < 0.3:
            key = f"idu={rng.randrange(10**6)}"
        elif kind < 0.5:
            key = f"pkey1=v{rng.randrange(100)}+pkey2=w{rng.randrange(100)}"
        elif kind < 0.7:
            pairs = [
                (rng.choice(["k1", "K2", "名前", "col x"]), "".join(rng.choices(alphabet, k=3)))
                for _ in range(rng.randint(1, 3))
            ]
            key = format_table_key(pairs)
        elif kind < 0.8:
            key = None
        else:
            key = "".join(rng.choices([*alphabet, "=", "+", '"', "k"], k=rng.randint(0, 8)))
        if key and rng.random() < 0.1:
            cut = rng.randrange(len(key))
            key = key[:cut] + rng.choice(alphabet) + key[cut + 1 :]
        rows.append((row_id, key))
    return rows


# (case, table_key, (pairs, error)); one query runs them all, to keep Spark quick.
TABLE_KEY_EXAMPLES = [
    (
        "seed compound",
        "pkey1=value1+pkey2=value2",
        ([("pkey1", "value1"), ("pkey2", "value2")], None),
    ),
    ("seed special", r'''pkey=", ; ' + \" = \\ < >"''', ([("pkey", ", ; ' + \" = \\ < >")], None)),
    ("F.2 example", 'k1="A+B"+k2=7', ([("k1", "A+B"), ("k2", "7")], None)),
    ("null key", None, (None, None)),
    ("double plus", "a=1++b=2", (None, "empty identifier at 4")),
    ("bad escape", 'a="\\n"', (None, 'bad escape \\n at 3 (only \\" and \\\\ are allowed)')),
]


def test_parse_table_key_sql_examples(spark: Any) -> None:
    keys = {f"k{n}": key for n, (_, key, _) in enumerate(TABLE_KEY_EXAMPLES)}
    columns = ", ".join(f"parse_table_key(cast(:{name} as string)) as {name}" for name in keys)
    [row] = spark.sql(f"select {columns}", args=keys).collect()
    actual = {
        case: (
            row[n].pairs and [(pair.column, pair.value) for pair in row[n].pairs],
            row[n].error,
        )
        for n, (case, _, _) in enumerate(TABLE_KEY_EXAMPLES)
    }
    assert actual == {case: expected for case, _, expected in TABLE_KEY_EXAMPLES}


def test_parse_table_key_equals_the_reference(spark: Any) -> None:
    rows = generated_table_keys(400)
    source = spark.createDataFrame(rows, "id int, table_key string").repartition(3)
    actual = source.selectExpr("id", "parse_table_key(table_key) as parsed").orderBy("id")
    expected = spark.createDataFrame(
        [(row_id, table_key_reference_row(key)) for row_id, key in rows],
        f"id int, parsed {TABLE_KEY_RESULT}",
    )
    assert_df_equality(actual, expected, ignore_nullable=True)


def test_warm_up_calls_every_registered_udf(spark: Any) -> None:
    """The background warm-up of cdc-dbt runs (a failure there is swallowed, so it is checked
    here) and touches every registered row UDF. The table functions (cdc_landed_files) are
    left out: they read a landed folder once per run, which the warm-up has none of."""
    from python_udfs.session import WARM_UP_QUERY, warm_up
    from python_udfs.spark import SQL_UDFS

    warm_up(spark)
    assert SQL_UDFS
    for udf in SQL_UDFS:
        assert f"{udf.name}(" in WARM_UP_QUERY, udf.name


def test_the_session_maps_the_class_archive_when_there_is_one(spark: Any) -> None:
    """The session the tests share started as a `cdc-dbt` command's does: with the class
    archive (an AOT cache on Java 25) the set-up created (bin/test creates it before
    pytest), its JVM has the archive mapped in memory, which it does only when the archive
    matched its class path and settings (a mismatched one is ignored in silence). Skipped,
    saying so, without an archive (CDC_CLASS_ARCHIVE=off, or pytest run without the
    set-up)."""
    from pathlib import Path

    from python_udfs.class_archive import archive_enabled, archive_path
    from python_udfs.session import spark_settings

    settings = spark_settings(Path(__file__).resolve().parents[2] / "profiles", "local")[1]
    path = archive_path(settings)
    if not archive_enabled() or path is None or not path.is_file():
        pytest.skip(f"no class archive at {path} (bin/test creates it)")
    jvm = spark.sparkContext._jvm
    runtime = jvm.java.lang.management.ManagementFactory.getRuntimeMXBean()
    arguments = str(runtime.getInputArguments())
    # Java 25+: an AOT cache (python_udfs/java_runtime.py installs 25); before: CDS
    option = "-XX:AOTCache" if path.suffix == ".aot" else "-XX:SharedArchiveFile"
    assert f"{option}={path}" in arguments
    pid = jvm.java.lang.ProcessHandle.current().pid()
    assert str(path) in Path(f"/proc/{pid}/maps").read_text(), "the archive is not mapped"
