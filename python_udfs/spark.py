"""Spark SQL functions of python_udfs (STYLE 6); the only module that imports pyspark.

Each entry of `SQL_UDFS` becomes a vectorized Arrow UDF: Spark hands it whole Arrow batches of
its arguments and it returns one Arrow array, computed by a `*_batch` module (the decoders)
or row by row (`cdc_landed_listing_digest`, called once a run on one row). The decoders turn
bad values into an `error` field instead of raising, so one bad row never fails a query.

To add a function: write a wrapper taking and returning `pa.Array` (the type hints tell pyspark
it is a scalar Arrow UDF), then list it in `SQL_UDFS` with its SQL name and return type.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql.functions import arrow_udf, udtf

from python_udfs.change_mask_batch import decode_change_mask_batch, decode_hex_change_mask_batch
from python_udfs.landed_files import inspect_folder, listing_digest
from python_udfs.table_key_batch import parse_table_key_batch

MASK_RESULT = "struct<positions: array<int>, error: string>"
TABLE_KEY_RESULT = "struct<pairs: array<struct<column: string, value: string>>, error: string>"


@dataclass(frozen=True)
class SqlUdf:
    """One SQL function: its name, its Spark DDL return type, and the Arrow function it runs."""

    name: str
    return_type: str
    function: Callable[..., pa.Array]


def decode_change_mask(mask: pa.Array, bit_count: pa.Array) -> pa.Array:
    """decode_change_mask(mask BINARY, bit_count INT) -> {positions, error} (spec A.5)."""
    return decode_change_mask_batch(mask, bit_count)


def decode_hex_change_mask(mask: pa.Array, bit_count: pa.Array, byte_order: pa.Array) -> pa.Array:
    """decode_hex_change_mask(mask STRING, bit_count INT, byte_order STRING) (spec A.5, B.5).

    byte_order is 'little' (hex text is byte 0 first, the seed's reading) or 'big'.
    """
    return decode_hex_change_mask_batch(mask, bit_count, byte_order)


def parse_table_key(key: pa.Array) -> pa.Array:
    """parse_table_key(key STRING) -> {pairs: [{column, value}], error} (IDM table_key, spec C.4).

    A null key gives null pairs and a null error; an invalid key null pairs and the reason.
    """
    return parse_table_key_batch(key)


def cdc_landed_listing_digest(folders: pa.Array) -> pa.Array:
    """cdc_landed_listing_digest(folders ARRAY<STRING>) -> STRING: an MD5 of the files the
    folders list, by name, size and modification time (python_udfs.landed_files.listing_digest);
    NULL when the folders are NULL or a modification time is unknown. Runs where Spark runs
    Python, like cdc_landed_files."""
    return pa.array(
        [None if value is None else listing_digest(value) for value in folders.to_pylist()],
        type=pa.string(),
    )


SQL_UDFS: tuple[SqlUdf, ...] = (
    SqlUdf("decode_change_mask", MASK_RESULT, decode_change_mask),
    SqlUdf("decode_hex_change_mask", MASK_RESULT, decode_hex_change_mask),
    SqlUdf("parse_table_key", TABLE_KEY_RESULT, parse_table_key),
    SqlUdf("cdc_landed_listing_digest", "string", cdc_landed_listing_digest),
)

LANDED_FILES_RESULT = (
    "file_name string, file_path string, modified_at timestamp, size_bytes bigint, "
    "column_list string, is_reference boolean, problem string"
)


class LandedFiles:
    """cdc_landed_files(folder STRING, file_format STRING, options_json STRING): a table
    function, one row per file of a landed folder with its columns (JSON [[name, type], ...])
    and the problem that keeps it out (python_udfs.landed_files). Runs where Spark runs Python
    (the executors), so the folder must be readable there."""

    def eval(
        self, folder: str, file_format: str, options_json: str | None
    ) -> Iterator[tuple[object, ...]]:
        options = json.loads(options_json) if options_json else {}
        for landed in inspect_folder(folder, file_format, options):
            yield (
                landed.file_name,
                landed.file_path,
                landed.modified_at,
                landed.size_bytes,
                json.dumps([list(column) for column in landed.columns]),
                landed.is_reference,
                landed.problem,
            )


SQL_TABLE_FUNCTIONS: tuple[tuple[str, type, str], ...] = (
    ("cdc_landed_files", LandedFiles, LANDED_FILES_RESULT),
)

# The dbt project's on-run-start guard checks that these functions exist.
REGISTERED_UDFS: tuple[str, ...] = tuple(udf.name for udf in SQL_UDFS) + tuple(
    name for name, _, _ in SQL_TABLE_FUNCTIONS
)


def register_udfs(spark: SparkSession) -> None:
    """Register every function of `SQL_UDFS` on this session under its SQL name."""
    for udf in SQL_UDFS:
        spark.udf.register(udf.name, arrow_udf(udf.function, udf.return_type))
    for name, handler, return_type in SQL_TABLE_FUNCTIONS:
        spark.udtf.register(name, udtf(handler, returnType=return_type))
