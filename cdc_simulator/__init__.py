"""An independent "truth" for the pipeline: a seeded simulator of keyed tables and their changes.

`table_model` holds the tables and the operations applied to them (and answers "what did the
table look like after change p?"); `qlik_ct` writes what Qlik Replicate would land for those
operations (spec A). Pure Python and pyarrow: no pyspark import anywhere in this package.
"""

from __future__ import annotations

from cdc_simulator.table_model import (
    DEFAULT_TABLES,
    EMPLOYEES,
    ORDER_LINES,
    Change,
    ChangeGenerator,
    ColumnSpec,
    OperationMix,
    Simulation,
    TableSpec,
    simulate,
)

__all__ = [
    "DEFAULT_TABLES",
    "EMPLOYEES",
    "ORDER_LINES",
    "Change",
    "ChangeGenerator",
    "ColumnSpec",
    "OperationMix",
    "Simulation",
    "TableSpec",
    "simulate",
]
