"""var cdc_tables is checked against var cdc_source_systems while dbt parses, at the first model
parsed (cdc_validate_config: cdc_table_config, cdc_validate_tables), and so are the vars used as
identifiers (cdc_validate_vars) and each format's landing settings (reader options, Kafka
topics): a mistaken or hostile entry stops `dbt parse` and `dbt build` with a message naming the
macro, the table or var and the problem. Parsing opens no Spark connection. That the shipped
configuration parses is proved by test_manifest.py, whose every test reads the manifest of that
parse (its fixture fails when the parse does), so it is not parsed a second time here."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from cdc_simulator.project_copy import SAMPLES_DIR, install_package
from python_udfs.var_defaults import package_defaults

PROJECT_DIR = Path(__file__).resolve().parents[2]
# the package's vars (the format registry, each format's settings by their var names) and the
# sample project's tables
SHIPPED_VARS = package_defaults()
SHIPPED_TABLES: dict[str, Any] = yaml.safe_load((SAMPLES_DIR / "dbt_project.yml").read_text())[
    "vars"
]["cdc_tables"]
QLIK_KEYS = (
    "source_system, key_columns, source_schema, column_types, column_encodings, lob_columns, "
    "images_complete, columns, duplicate_resolution, track_history_columns, "
    "track_history_except_columns, "
    "ignore_null_updates, suppress_duplicate_updates, bitemporal"
)
NOT_AN_IDENTIFIER = (
    "is not an identifier (^[A-Za-z_][A-Za-z0-9_]*$); names reach SQL as identifiers"
)
# the table-name rule, the same as cdc-dbt scaffold's (test_scaffold.py)
NOT_A_TABLE_NAME = (
    "must match ^[a-z][a-z0-9_]*$ (lower case letters, digits and underscores, a letter "
    "first): it becomes part of model and file names"
)


def run_dbt(tmp_path: Path, command: str, variables: dict[str, Any] | None = None) -> Any:
    """dbt <command> in-process on the sample project, writing only under tmp_path."""
    from dbt.cli.main import dbtRunner

    install_package(SAMPLES_DIR)
    args = [
        command,
        "--project-dir",
        str(SAMPLES_DIR),
        "--profiles-dir",
        str(PROJECT_DIR / "profiles"),
        "--target-path",
        str(tmp_path / "target"),
        "--log-path",
        str(tmp_path / "logs"),
        "--no-partial-parse",
        "--quiet",
    ]
    if variables is not None:
        args += ["--vars", json.dumps(variables)]
    return dbtRunner().invoke(args)


def error_message(result: Any) -> str:
    """The message of the error that stopped dbt, as raised (str() re-indents its lines)."""
    return str(getattr(result.exception, "msg", result.exception))


def tables_with(table_name: str, entry: dict[str, Any] | None) -> dict[str, Any]:
    """The shipped cdc_tables with one entry replaced (or added); None removes it."""
    tables = copy.deepcopy(SHIPPED_TABLES)
    if entry is None:
        tables.pop(table_name)
    else:
        tables[table_name] = entry
    return tables


def changed(table_name: str, **settings: Any) -> dict[str, Any]:
    """The shipped entry of table_name with settings changed; a setting of None is removed."""
    entry = copy.deepcopy(SHIPPED_TABLES[table_name])
    for key, value in settings.items():
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = value
    return tables_with(table_name, entry)


def registry_with(source_system: str, **settings: Any) -> dict[str, Any]:
    """Var cdc_source_systems as shipped, one format's entry with settings changed."""
    systems = copy.deepcopy(SHIPPED_VARS["cdc_source_systems"])
    systems[source_system].update(settings)
    return {"cdc_source_systems": systems}


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        pytest.param(
            {"cdc_tables": changed("employees", key_column=["employee_id"])},
            "cdc_table_config: table 'employees' in var cdc_tables has unknown key "
            f"'key_column'; allowed keys for source_system qlik_ct: {QLIK_KEYS}",
            id="unknown key",
        ),
        pytest.param(
            {"cdc_tables": changed("order_lines", key_columns=None)},
            "cdc_table_config: table 'order_lines' in var cdc_tables lacks required key "
            "'key_columns' (source_system qlik_ct requires: source_system, key_columns)",
            id="missing key_columns",
        ),
        pytest.param(
            {"cdc_tables": changed("price_list", snapshot_column=None)},
            "full_snapshot: cdc_tables.price_list needs snapshot_column (the column naming "
            "each row's snapshot): only files mode can take the snapshot from the file name "
            "(full_snapshot_landing is 'seeds')",
            id="full snapshot without its snapshot column outside files mode",
        ),
        pytest.param(
            {
                "cdc_tables": tables_with(
                    "price_list_copy",
                    {
                        "source_system": "full_snapshot",
                        "key_columns": ["sku"],
                        "columns": {"sku": "string"},
                        "landed_table": "PRICE_LIST_EXTRACTS",
                        "snapshot_column": "extracted_at",
                    },
                )
            },
            "full_snapshot: cdc_tables.price_list and cdc_tables.price_list_copy both land in "
            "'PRICE_LIST_EXTRACTS' (landed_table, default the table's name): give each table "
            "its own",
            id="two full-snapshot tables in one landed table",
        ),
        pytest.param(
            {"cdc_tables": changed("price_list", snapshot_column="extracted at")},
            "cdc_identifier: cdc_tables.price_list.snapshot_column is 'extracted at', which is "
            "not an identifier",
            id="full snapshot column that is not an identifier",
        ),
        pytest.param(
            {"cdc_tables": changed("price_list", snapshot_id="sequence")},
            "full_snapshot: cdc_tables.price_list.snapshot_id must be time or version, "
            "got 'sequence'",
            id="full snapshot id neither time nor version",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", columns=None)},
            "cdc_table_config: table 'acct' in var cdc_tables lacks required key 'columns' "
            "(source_system idm_jdbc requires: source_system, key_columns, columns)",
            id="idm table without columns",
        ),
        pytest.param(
            {
                "cdc_tables": tables_with(
                    "trail_t", {"source_system": "ogg_trail", "key_columns": ["k"]}
                )
            },
            "cdc_table_config: table 'trail_t' in var cdc_tables: source_system 'ogg_trail' is "
            "not registered in var cdc_source_systems (registered: full_snapshot, goldengate, "
            "idm_jdbc, openedge_cdc, qlik_ct, qlik_kafka)",
            id="unregistered system, no model reads the table",
        ),
        pytest.param(
            {
                "cdc_tables": tables_with(
                    "kafka_t", {"source_system": "qlik_kafka", "key_columns": ["k"]}
                )
            },
            "cdc_table_config: table 'kafka_t' in var cdc_tables lacks required key 'columns' "
            "(source_system qlik_kafka requires: source_system, key_columns, columns)",
            id="qlik_kafka table without its columns",
        ),
        pytest.param(
            {
                "cdc_tables": tables_with(
                    "x; drop", {"source_system": "qlik_ct", "key_columns": ["k"]}
                )
            },
            "cdc_table_config: table 'x; drop' in var cdc_tables: the table name "
            + NOT_A_TABLE_NAME,
            id="table name x; drop",
        ),
        pytest.param(
            {
                "cdc_tables": tables_with(
                    "Employees2", {"source_system": "qlik_ct", "key_columns": ["k"]}
                )
            },
            "cdc_table_config: table 'Employees2' in var cdc_tables: the table name "
            + NOT_A_TABLE_NAME,
            id="table name in upper case, which cdc-dbt scaffold refuses too",
        ),
        pytest.param(
            {"cdc_tables": changed("employees", key_columns=["employee'id"])},
            "cdc_table_config: table 'employees' in var cdc_tables: key_columns name "
            f"'employee'id' {NOT_AN_IDENTIFIER}",
            id="key column with a quote",
        ),
        pytest.param(
            {"cdc_tables": changed("employees", key_columns=[])},
            "cdc_table_config: table 'employees' in var cdc_tables: key_columns must be a "
            "non-empty list of column names in key order",
            id="empty key_columns",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", columns={"k1": "string", "k2": "int", "x y": "string"})},
            "cdc_table_config: table 'acct' in var cdc_tables: columns name 'x y' "
            + NOT_AN_IDENTIFIER,
            id="column name with a space",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", columns={"k1": "string", "k2": "int) --"})},
            "cdc_table_config: table 'acct' in var cdc_tables: type 'int) --' of column k2 is "
            "not a Spark type name",
            id="column type that ends the cast",
        ),
        pytest.param(
            {"cdc_tables": changed("usr", key_columns=["idu", "uid"])},
            "cdc_table_config: table 'usr' in var cdc_tables: key column 'uid' is not among "
            "its columns (idu, fname, lname, photo)",
            id="key column not declared",
        ),
        pytest.param(
            {"cdc_tables": changed("usr", snapshot_table="usr_snapshot\n")},
            "cdc_table_config: table 'usr' in var cdc_tables: snapshot_table 'usr_snapshot\n' "
            + NOT_A_TABLE_NAME,
            id="snapshot table with a trailing line feed",
        ),
        pytest.param(
            {
                "cdc_source_systems": {
                    **SHIPPED_VARS["cdc_source_systems"],
                    "qlik_ct": {"images_complete": "yes", "required_keys": [], "optional_keys": []},
                }
            },
            "cdc_source_system_config: var cdc_source_systems.qlik_ct.images_complete must be "
            "true or false, got 'yes'",
            id="registry entry with a non-boolean",
        ),
        pytest.param(
            {
                "cdc_source_systems": {
                    **SHIPPED_VARS["cdc_source_systems"],
                    "idm_jdbc": {
                        **SHIPPED_VARS["cdc_source_systems"]["idm_jdbc"],
                        "transactions_marked": "no",
                    },
                }
            },
            "cdc_source_system_config: var cdc_source_systems.idm_jdbc.transactions_marked "
            "must be true or false, got 'no'",
            id="registry entry with a non-boolean transactions_marked",
        ),
        pytest.param(
            registry_with("qlik_ct", settings={"Landing": "files", "schema": "raw_qlik_ct"}),
            "cdc_source_system_config: var cdc_source_systems.qlik_ct.settings must map each "
            "setting's name (lower case, ^[a-z][a-z0-9_]*$; var qlik_ct_<name> overrides it) "
            "to its default, got 'Landing'",
            id="registry settings with a name not lower case",
        ),
        pytest.param(
            registry_with(
                "goldengate",
                settings={
                    **SHIPPED_VARS["cdc_source_systems"]["goldengate"]["settings"],
                    "landing": "files",
                    "landing_root": "/landing",
                    "landing_format": "avro",
                },
            ),
            "cdc_validate_landing: goldengate_landing_format must be parquet or json or csv, "
            "got 'avro'",
            id="a format's settings read from the project's registry entry",
        ),
        pytest.param(
            {"qlik_ct_schema": "raw; drop table x"},
            "cdc_identifier: var qlik_ct_schema is 'raw; drop table x', which is not an "
            "identifier (^[A-Za-z_][A-Za-z0-9_]*$); it reaches SQL as an identifier",
            id="schema var",
        ),
        pytest.param(
            {"idm_jdbc_columns": {**SHIPPED_VARS["idm_jdbc_columns"], "status": "st`atus"}},
            "cdc_identifier: var idm_jdbc_columns.status is 'st`atus', which is not an identifier",
            id="event log column var with a backtick",
        ),
        pytest.param(
            {"idm_jdbc_schema": "raw' --"},
            "cdc_identifier: var idm_jdbc_schema is 'raw' --', which is not an identifier",
            id="IDM schema var with a quote",
        ),
        pytest.param(
            {"openedge_cdc_schema": "raw.x; drop"},
            "cdc_identifier: var openedge_cdc_schema is 'raw.x; drop', which is not an identifier",
            id="OpenEdge schema var (checked with the other formats' schemas)",
        ),
        pytest.param(
            {"goldengate_schema": "raw x"},
            "cdc_identifier: var goldengate_schema is 'raw x', which is not an identifier",
            id="GoldenGate schema var with a space",
        ),
        pytest.param(
            {"full_snapshot_schema": "raw`x"},
            "cdc_identifier: var full_snapshot_schema is 'raw`x', which is not an identifier",
            id="full snapshot schema var with a backtick",
        ),
        pytest.param(
            {"openedge_cdc_tracking_table": "tracking' --"},
            "cdc_identifier: var openedge_cdc_tracking_table is 'tracking' --', which is not an "
            "identifier",
            id="OpenEdge tracking table var with a quote",
        ),
        pytest.param(
            {"idm_jdbc_event_log": "log`; drop"},
            "cdc_identifier: var idm_jdbc_event_log is 'log`; drop', which is not an identifier",
            id="event log table var with a backtick",
        ),
        pytest.param(
            {
                "cdc_tables": changed(
                    "acct", track_history_columns=["note"], track_history_except_columns=["note"]
                )
            },
            "cdc_history_options: table 'acct' in var cdc_tables: set track_history_columns "
            "or track_history_except_columns, not both",
            id="both tracking options",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", track_history_except_columns=["notes"])},
            "cdc_history_options: table 'acct' in var cdc_tables: track_history_except_columns "
            "names 'notes', which is not one of its columns (k1, k2, note)",
            id="untracked column that does not exist",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", ignore_null_updates=["k2"])},
            "cdc_history_options: table 'acct' in var cdc_tables: ignore_null_updates names "
            "key column 'k2'; a key column is always tracked and never NULL in an update",
            id="NULL updates ignored on a key column",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", suppress_duplicate_updates="yes")},
            "cdc_history_options: table 'acct' in var cdc_tables: suppress_duplicate_updates "
            "must be true or false, got 'yes'",
            id="duplicate suppression not a boolean",
        ),
        pytest.param(
            {"cdc_tables": changed("acct", bitemporal="on")},
            "cdc_history_options: table 'acct' in var cdc_tables: bitemporal must be true or "
            "false, got 'on'",
            id="bitemporal not a boolean",
        ),
        pytest.param(
            {"cdc_tables": changed("employees", duplicate_resolution="latest")},
            "cdc_table_config: table 'employees' in var cdc_tables: duplicate_resolution must "
            "be quarantine or latest_load, got 'latest'",
            id="duplicate resolution not a known rule",
        ),
        pytest.param(
            {
                "cdc_tables": changed(
                    "employees", duplicate_resolution="latest_load", bitemporal=True
                )
            },
            "cdc_table_config: table 'employees' in var cdc_tables: duplicate_resolution "
            "latest_load and bitemporal cannot be set together yet",
            id="latest load kept on a bitemporal table",
        ),
        pytest.param(
            {"qlik_ct_header_prefix": "h'"},
            "cdc_identifier: var qlik_ct_header_prefix + change_seq is 'h'change_seq', which is "
            "not an identifier",
            id="header prefix with a quote",
        ),
        pytest.param(
            {"cdc_tables": changed("documents", column_encodings={"attachment": "hex') --"})},
            "cdc_table_config: table 'documents' in var cdc_tables: column_encodings of column "
            "attachment must be hex or base64",
            id="column encoding that is SQL",
        ),
        pytest.param(
            {"cdc_tables": changed("ogg_document", column_encodings={"attachment": "utf8"})},
            "cdc_table_config: table 'ogg_document' in var cdc_tables: column_encodings of "
            "column attachment must be hex or base64",
            id="goldengate column encoding not hex or base64",
        ),
        pytest.param(
            {"cdc_tables": changed("order_item", column_encodings={"label": "base64' --"})},
            "cdc_table_config: table 'order_item' in var cdc_tables: column_encodings of "
            "column label must be hex or base64",
            id="kafka column encoding that is SQL",
        ),
        pytest.param(
            {"cdc_tables": changed("usr", column_encodings={"photo": "Hex"})},
            "cdc_table_config: table 'usr' in var cdc_tables: column_encodings of column "
            "photo must be hex or base64",
            id="idm column encoding not hex or base64",
        ),
        pytest.param(
            {"cdc_tables": changed("ogg_order", column_encodings={"status": "hex"})},
            "cdc_table_config: table 'ogg_order' in var cdc_tables: column_encodings names "
            "status, which is not a binary column (typed string)",
            id="column encoding of a column that is not binary",
        ),
        pytest.param(
            {"cdc_tables": changed("usr", column_encodings={"picture": "hex"})},
            "cdc_table_config: table 'usr' in var cdc_tables: column_encodings names picture, "
            "which is not among its columns (idu, fname, lname, photo)",
            id="column encoding of an undeclared column",
        ),
        pytest.param(
            {"cdc_tables": changed("oe_customer", column_encodings={"name": "hex"})},
            "cdc_table_config: table 'oe_customer' in var cdc_tables has unknown key "
            "'column_encodings'",
            id="column encodings where the format carries no binary text",
        ),
        pytest.param(
            {
                "qlik_ct_landing_format": "csv",
                "qlik_ct_landing_csv_options": {"sep ',') location '/x' --": ";"},
            },
            "cdc_landing_reader_options: 'sep ',') location '/x' --' in var "
            "qlik_ct_landing_csv_options is not a reader option name",
            id="CSV reader option name that is SQL",
        ),
        pytest.param(
            {"qlik_ct_landing_format": "csv", "qlik_ct_landing_csv_options": {"header": "false"}},
            "cdc_landing_reader_options: landed CSV files must start with a header record",
            id="CSV without header",
        ),
        pytest.param(
            {
                "qlik_kafka_landing": "tables",
                "cdc_tables": changed("customer", topic="src.sales-customers"),
            },
            "qlik_kafka_checked_topic: cdc_tables.customer.topic is 'src.sales-customers', "
            "which is not an identifier (^[A-Za-z_][A-Za-z0-9_]*$); with qlik_kafka_landing "
            "'tables' a topic is the name of a landed table. In files mode "
            "(qlik_kafka_landing: files) a topic is a folder and any folder name works",
            id="Kafka topic with a dot, tables landing",
        ),
        pytest.param(
            {"cdc_tables": changed("customer", topic="sales-customers")},
            "qlik_kafka_checked_topic: cdc_tables.customer.topic is 'sales-customers', which is "
            "not an identifier (^[A-Za-z_][A-Za-z0-9_]*$); with qlik_kafka_landing 'seeds' a "
            "topic is the name of a landed table",
            id="Kafka topic with a hyphen, seeds landing",
        ),
        pytest.param(
            {"qlik_kafka_landing": "tables", "qlik_kafka_metadata_topic": "meta'data"},
            "qlik_kafka_checked_topic: var qlik_kafka_metadata_topic is 'meta'data', which is "
            "not an identifier",
            id="Kafka metadata topic with a quote, tables landing",
        ),
        *(
            pytest.param(
                {
                    "qlik_kafka_landing": "files",
                    "qlik_kafka_landing_root": "/landing",
                    "cdc_tables": changed("customer", topic=topic),
                },
                f"qlik_kafka_checked_topic: cdc_tables.customer.topic is '{topic}', which is "
                "not a usable folder name: in files mode a topic is the folder "
                "<qlik_kafka_landing_root>/<topic>/, so it must not be empty, . or .., nor hold "
                "a slash, a backslash, a control character, a colon or any of *?[]{}",
                id=f"Kafka topic {label}, files landing",
            )
            for topic, label in [
                ("../customers", "that leaves the root"),
                ("..", "that is the parent folder"),
                ("", "that is empty"),
                ("sales\\customers", "with a backslash"),
                ("sales:customers", "with a colon"),
                ("sales-*", "that is a glob"),
                ("sales\ncustomers", "with a line feed"),
            ]
        ),
        pytest.param(
            {
                "qlik_kafka_landing": "files",
                "qlik_kafka_landing_root": "/landing",
                "cdc_tables": changed("customer", topic="src.sales"),
                "qlik_kafka_metadata_topic": "src-sales",
            },
            "qlik_kafka_landed_tables: topics 'src.sales' and 'src-sales' would both be landed "
            "as table topic_src_sales (qlik_kafka_landed_table_name); rename one of them",
            id="Kafka topics landed under one table name",
        ),
        pytest.param(
            {
                "cdc_source_systems": {
                    **SHIPPED_VARS["cdc_source_systems"],
                    "goldengate": {
                        **SHIPPED_VARS["cdc_source_systems"]["goldengate"],
                        "source_system_values": ["ogg_trail", "OGG-JSON"],
                    },
                }
            },
            "cdc_source_system_config: var cdc_source_systems.goldengate.source_system_values "
            "must be a non-empty list of lower case names (^[a-z][a-z0-9_]*$), got "
            "'['ogg_trail', 'OGG-JSON']'",
            id="registry entry whose log values are not names",
        ),
        pytest.param(
            {
                "cdc_source_systems": {
                    **SHIPPED_VARS["cdc_source_systems"],
                    "qlik_kafka": {
                        **SHIPPED_VARS["cdc_source_systems"]["qlik_kafka"],
                        "column_encoding_default": "base32",
                    },
                }
            },
            "cdc_source_system_config: var cdc_source_systems.qlik_kafka.column_encoding_default "
            "must be hex or base64, got 'base32'",
            id="registry entry with an unknown binary text encoding",
        ),
        pytest.param(
            {
                "cdc_source_systems": {
                    **SHIPPED_VARS["cdc_source_systems"],
                    "qlik_ct": {
                        **SHIPPED_VARS["cdc_source_systems"]["qlik_ct"],
                        "images_ignore_inputs": "int_qlik_ct__changes_logged",
                    },
                }
            },
            "cdc_source_system_config: var cdc_source_systems.qlik_ct.images_ignore_inputs "
            "must be a list of model names, got 'int_qlik_ct__changes_logged'",
            id="registry entry whose ignored inputs are not a list",
        ),
        pytest.param(
            registry_with("qlik_kafka", hooks=["change_images", "table_columns", "landed_tables"]),
            "cdc_validate_format_hooks: var cdc_source_systems.qlik_kafka: the macro "
            "qlik_kafka_landed_table_name is a hook the shared macros call only when declared: "
            "add landed_table_name to its hooks",
            id="registry entry leaving a hook of the format out",
        ),
        pytest.param(
            registry_with(
                "openedge_cdc", hooks=["change_images", "landed_tables", "table_columns"]
            ),
            "cdc_validate_format_hooks: var cdc_source_systems.openedge_cdc.hooks declares "
            "table_columns, but no macro openedge_cdc_table_columns exists",
            id="registry entry declaring a hook the format lacks",
        ),
        pytest.param(
            registry_with("idm_jdbc", hooks=["change_images", "landed_table"]),
            "cdc_source_system_config: var cdc_source_systems.idm_jdbc.hooks must be a list of "
            "the hooks the format provides, of change_images, table_columns, landed_tables, "
            "landed_table_name, landing_formats, validate_vars, table_replaces_staged, "
            "quarantine_members; got '['change_images', 'landed_table']'",
            id="registry entry naming no hook",
        ),
        pytest.param(
            {"qlik_ct_landing": "file"},
            "cdc_validate_landing: var qlik_ct_landing must be seeds, tables or files, got 'file'",
            id="landing mode misspelt (it would read as tables)",
        ),
        pytest.param(
            {"openedge_cdc_landing": "files"},
            "cdc_validate_landing: openedge_cdc_landing is 'files' but openedge_cdc_landing_root "
            "is empty; pass --vars '{openedge_cdc_landing_root: /path/to/landing}'",
            id="files mode without a landing root",
        ),
        pytest.param(
            {
                "qlik_kafka_landing": "files",
                "qlik_kafka_landing_root": "/landing",
                "qlik_kafka_landing_format": "csv",
            },
            "cdc_validate_landing: qlik_kafka_landing_format must be parquet or json, got 'csv'",
            id="Kafka topics landed as CSV (its own list of formats)",
        ),
        pytest.param(
            {
                "goldengate_landing": "files",
                "goldengate_landing_root": "/landing",
                "goldengate_landing_format": "avro",
            },
            "cdc_validate_landing: goldengate_landing_format must be parquet or json or csv, "
            "got 'avro'",
            id="GoldenGate landed as Avro",
        ),
        pytest.param(
            {
                "full_snapshot_landing": "files",
                "full_snapshot_landing_root": "/landing",
                "full_snapshot_landing_format": "json",
            },
            "cdc_validate_landing: full_snapshot_landing_format must be parquet or csv, got 'json'",
            id="full snapshots landed as JSON (the default list of formats)",
        ),
        pytest.param(
            {"key_move_chain_limit": 0},
            "cdc_key_move_chain_limit: var key_move_chain_limit must be a whole number of at "
            "least 1, got 0",
            id="key move chain limit below one",
        ),
        pytest.param(
            {"cdc_tables_per_statement": 0},
            "cdc_tables_per_statement: var cdc_tables_per_statement must be a whole number of "
            "at least 1, got 0",
            id="tables per statement below one",
        ),
        pytest.param(
            {"cdc_tables_per_statement": 2.5},
            "cdc_tables_per_statement: var cdc_tables_per_statement must be a whole number of "
            "at least 1, got 2.5",
            id="tables per statement not whole",
        ),
    ],
)
def test_mistaken_config_stops_parse(
    tmp_path: Path, variables: dict[str, Any], message: str
) -> None:
    """Every check stops the parse at the first model parsed (cdc_validate_config, called by
    cdc_table_config and cdc_source_systems_enabled), about 2.5 s into it here, not after every
    model has been parsed (the on-run-start hooks are parsed last)."""
    result = run_dbt(tmp_path, "parse", variables)
    assert not result.success
    assert message in error_message(result)
    assert "Compilation Error in model " in str(result.exception)


def test_column_encodings_parse_for_every_format_carrying_binary_text(tmp_path: Path) -> None:
    """column_encodings (hex | base64) is a key of goldengate, qlik_kafka and idm_jdbc tables
    too, not only of Qlik change tables."""
    tables = copy.deepcopy(SHIPPED_TABLES)
    tables["ogg_document"]["column_encodings"] = {"attachment": "hex"}
    tables["order_item"]["column_encodings"] = {"label": "base64"}
    tables["usr"]["column_encodings"] = {"PHOTO": "hex"}
    result = run_dbt(tmp_path, "parse", {"cdc_tables": tables})
    assert result.success, result.exception


def test_mistaken_config_stops_build_before_anything_runs(tmp_path: Path) -> None:
    """Plain dbt build (no Spark here): it stops while parsing, before connecting or running."""
    result = run_dbt(tmp_path, "build", {"cdc_tables": changed("employees", extra=1)})
    assert not result.success
    assert "cdc_table_config: table 'employees' in var cdc_tables has unknown key 'extra'" in (
        error_message(result)
    )
    assert not (tmp_path / "target" / "run_results.json").exists()
