"""`cdc-dbt scaffold` (python_udfs/scaffold.py): the project's templates rendered into a
temporary project, description preservation, --check, removal of stale generated files and
refused table names. No Spark, no dbt."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from python_udfs import cli, scaffold

PROJECT_DIR = Path(__file__).resolve().parents[2]

SYSTEMS = {
    "qlik_ct": {"images_complete": True},
    "idm_jdbc": {"images_complete": False},
}
TABLES: dict[str, Any] = {
    "hr": {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": ["emp_id"],
        "columns": {
            "emp_id": {"type": "int", "description": "Employee number."},
            "emp_name": {"type": "string", "description": 'Name: "as typed".'},
        },
    },
    "ledger": {"source_system": "qlik_ct", "key_columns": ["entry_id", "line"]},
    "person": {
        "source_system": "idm_jdbc",
        "source_schema": "indirect",
        "key_columns": ["pid"],
        "columns": {"pid": "int", "nick": "string"},
        "snapshot_table": "person_copy",
    },
    "badge": {
        "source_system": "idm_jdbc",
        "key_columns": ["badge_id"],
        "columns": {"badge_id": "string"},
    },
}
HR_FILES = {
    "models/intermediate/change_images/int_hr__change_images.sql",
    "models/marts/hr/dim_hr_history.sql",
    "models/marts/hr/dim_hr_current.sql",
    "models/marts/hr/dim_hr_as_of.sql",
    "models/marts/hr/dim_hr_changes.sql",
    "models/marts/hr/dim_hr_live.sql",
    "models/marts/hr/_hr__models.yml",
    "models/staging/qlik_ct/stg_qlik_ct__hr.sql",
    "models/staging/qlik_ct/stg_qlik_ct__hr_baseline.sql",
}
SYSTEM_FILES = {
    "models/intermediate/change_images/_change_images__models.yml",
    "models/staging/qlik_ct/_qlik_ct__models.yml",
    "models/staging/qlik_ct/_qlik_ct__sources.yml",
    "models/staging/idm_jdbc/_idm_jdbc__models.yml",
    "models/staging/idm_jdbc/_idm_jdbc__sources.yml",
}

Project = Callable[..., Path]


def _write_project(root: Path, tables: Mapping[str, Any]) -> None:
    document = {
        "name": "scaffold_test",
        "vars": {"cdc_source_systems": SYSTEMS, "cdc_tables": dict(tables)},
    }
    (root / "dbt_project.yml").write_text(yaml.safe_dump(document, sort_keys=False))


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A project holding this repository's templates and the given cdc_tables."""

    def make(tables: Mapping[str, Any] = TABLES) -> Path:
        shutil.copytree(PROJECT_DIR / "scaffold", tmp_path / "scaffold", dirs_exist_ok=True)
        _write_project(tmp_path, tables)
        return tmp_path

    return make


def run(root: Path, *args: str) -> int:
    return scaffold.main(list(args), project_dir=root)


def models_of(path: Path) -> dict[str, dict[str, str]]:
    """model -> {column: description} of a generated YAML file."""
    document = yaml.safe_load(path.read_text())
    return {
        model["name"]: {column["name"]: column["description"] for column in model["columns"]}
        for model in document["models"]
    }


# ---------- rendering


def test_renders_every_file_of_every_table(project: Project) -> None:
    root = project()
    assert run(root) == 0
    written = set(scaffold.generated_files_on_disk(root))
    assert written >= HR_FILES | SYSTEM_FILES
    assert "models/staging/idm_jdbc/stg_idm_jdbc__person_copy.sql" in written
    assert not any("stg_idm_jdbc__badge" in path for path in written), "badge has no snapshot"
    assert not any("stg_qlik_ct__person" in path for path in written), "qlik files for idm"
    for table in ("hr", "ledger", "person", "badge"):
        assert f"models/marts/{table}/dim_{table}_history.sql" in written


@pytest.mark.parametrize(
    ("path", "body"),
    [
        pytest.param(
            "models/intermediate/change_images/int_hr__change_images.sql",
            "{{ cdc_history.table_change_images('hr') }}",
            id="change images",
        ),
        pytest.param(
            "models/marts/hr/dim_hr_history.sql",
            "{{ cdc_history.history_from_changes('hr') }}",
            id="history",
        ),
        pytest.param(
            "models/marts/hr/dim_hr_current.sql",
            "{{ cdc_history.current_state('hr') }}",
            id="current state",
        ),
        pytest.param(
            "models/marts/hr/dim_hr_as_of.sql",
            "{{ cdc_history.point_in_time('hr') }}",
            id="point in time",
        ),
        pytest.param(
            "models/staging/qlik_ct/stg_qlik_ct__hr.sql",
            "{{ cdc_history.stage_qlik_change_table('hr') }}",
            id="qlik change table",
        ),
        pytest.param(
            "models/staging/qlik_ct/stg_qlik_ct__hr_baseline.sql",
            "{{ cdc_history.stage_qlik_full_load('hr') }}",
            id="qlik full load",
        ),
    ],
)
def test_sql_models_are_one_macro_call_under_the_header(
    project: Project, path: str, body: str
) -> None:
    root = project()
    run(root)
    header, rest = (root / path).read_text().split("\n", 1)
    assert header.startswith("{# generated by cdc-dbt scaffold from ")
    assert header.endswith(".sql.j2 #}")
    assert len(header) <= 80, "sqlfluff's line length"
    assert rest == body + "\n"


def test_yaml_keeps_dbt_jinja_and_describes_every_model(project: Project) -> None:
    root = project()
    run(root)
    text = (root / "models/marts/hr/_hr__models.yml").read_text()
    assert text.startswith("# generated by cdc-dbt scaffold from _all/models.yml.j2")
    assert "{{ doc('pk_string') }}" in text
    document = yaml.safe_load(text)
    models = {model["name"]: model for model in document["models"]}
    assert set(models) == {
        "dim_hr_history",
        "dim_hr_current",
        "dim_hr_as_of",
        "dim_hr_changes",
        "dim_hr_live",
    }
    for model in models.values():
        assert model["description"].startswith("One row per "), "the grain comes first"
    # each test checks its model's key too: no primary_key beside them
    history_tests = models["dim_hr_history"]["data_tests"]
    assert [next(iter(test)) for test in history_tests] == ["cdc_history.validity_is_contiguous"]
    current = models["dim_hr_current"]
    assert current["data_tests"] == [
        {
            "cdc_history.matches_point_in_time": {
                "arguments": {"table_name": "hr", "also": ["dim_hr_live"]}
            }
        },
    ]
    assert current["columns"][0] == {"name": "pk_string", "description": "{{ doc('pk_string') }}"}
    # the declared per-table layer: every table's images in intermediate/, one file
    shared = root / "models/intermediate/change_images/_change_images__models.yml"
    layer = {model["name"]: model for model in yaml.safe_load(shared.read_text())["models"]}
    assert set(layer) == {f"int_{table}__change_images" for table in TABLES}
    hr_images = layer["int_hr__change_images"]
    assert {
        "cdc_history.column_contract": {
            "arguments": {"columns": "cdc_table_image_columns", "table_name": "hr"}
        }
    } in hr_images["data_tests"]
    images = [column["name"] for column in hr_images["columns"]]
    assert images == [
        "change_id", "source_system", "source_table", "order_scope", "order_key",
        "effective_at", "pk_string", "image_oper", "is_before_image", "row_exists",
        "emp_id", "emp_name", "image_complete", "present_columns", "loaded_at",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("table", "column", "description"),
    [
        pytest.param("hr", "emp_name", 'Name: "as typed".', id="declared with a description"),
        pytest.param("hr", "emp_id", "Employee number.", id="declared key with a description"),
        pytest.param("person", "nick", "{{ doc('data_column') }}", id="declared as a type only"),
        pytest.param("person", "pid", "{{ doc('key_column') }}", id="key declared as a type"),
        pytest.param("ledger", "line", "{{ doc('key_column') }}", id="undeclared: the key only"),
    ],
)
def test_data_column_descriptions(
    project: Project, table: str, column: str, description: str
) -> None:
    root = project()
    run(root)
    for model, columns in models_of(root / f"models/marts/{table}/_{table}__models.yml").items():
        assert columns[column] == description, model


def test_format_files_list_each_table_of_their_format(project: Project) -> None:
    root = project()
    run(root)
    sources = yaml.safe_load((root / "models/staging/qlik_ct/_qlik_ct__sources.yml").read_text())
    names = [table["name"] for table in sources["sources"][0]["tables"]]
    assert names == ["hr__ct", "hr", "ledger__ct", "ledger"]
    staging = models_of(root / "models/staging/qlik_ct/_qlik_ct__models.yml")
    assert list(staging) == [
        "stg_qlik_ct__hr",
        "stg_qlik_ct__hr_baseline",
        "stg_qlik_ct__ledger",
        "stg_qlik_ct__ledger_baseline",
        "stg_qlik_ct__landed_files",  # the format's own, listed once
    ]
    idm = yaml.safe_load((root / "models/staging/idm_jdbc/_idm_jdbc__sources.yml").read_text())
    assert [table["name"] for table in idm["sources"][0]["tables"]] == ["event_log", "person_copy"]


# ---------- preservation


def test_descriptions_written_in_generated_yaml_are_kept(project: Project) -> None:
    root = project()
    run(root)
    marts = root / "models/marts/ledger/_ledger__models.yml"
    text = marts.read_text()
    # describe a key column and add a data column in one model of the generated file
    text = text.replace(
        "      - name: line\n        description: \"{{ doc('key_column') }}\"\n",
        "      - name: line\n        description: Line of the entry.\n"
        "      - name: amount\n        description: 'Amount: in cents.'\n",
        1,
    )
    marts.write_text(text)
    assert run(root, "--check") == 1
    assert run(root) == 0
    for path in (marts, root / "models/staging/qlik_ct/_qlik_ct__models.yml"):
        for model, columns in models_of(path).items():
            if "ledger" in model:
                assert columns["line"] == "Line of the entry.", model
                assert columns["amount"] == "Amount: in cents.", model
    assert run(root, "--check") == 0, "preserving is stable"


def test_declared_description_wins_over_the_generated_yaml(project: Project) -> None:
    root = project()
    run(root)
    marts = root / "models/marts/hr/_hr__models.yml"
    marts.write_text(marts.read_text().replace('"Employee number."', '"Edited."'))
    run(root)
    assert {columns["emp_id"] for columns in models_of(marts).values()} == {"Employee number."}


def test_hand_written_files_are_adopted_only_when_asked(project: Project) -> None:
    root = project()
    hand_written = root / "models/marts/ledger/_ledger__models.yml"
    hand_written.parent.mkdir(parents=True)
    hand_written.write_text(
        "version: 2\nmodels:\n  - name: dim_ledger_history\n    columns:\n"
        "      - name: entry_id\n        description: Entry number.\n"
        "      - name: memo\n        description: Free text.\n"
    )
    assert run(root) == 2
    assert not (root / "models/marts/hr").exists(), "nothing written when refused"
    assert run(root, "--check") == 1
    assert run(root, "--adopt") == 0
    columns = models_of(hand_written)["dim_ledger_current"]
    assert list(columns)[1:4] == ["line", "entry_id", "memo"], "a missing key comes first"
    assert columns["entry_id"] == "Entry number."
    assert columns["memo"] == "Free text."


# ---------- --check, stale files


def test_check_lists_missing_differing_and_stale_files(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project()
    assert run(root, "--check") == 1
    assert "missing:      models/marts/hr/dim_hr_history.sql" in capsys.readouterr().err
    run(root)
    assert run(root, "--check") == 0
    (root / "models/marts/hr/dim_hr_as_of.sql").unlink()
    history = root / "models/marts/hr/dim_hr_history.sql"
    history.write_text(history.read_text() + "-- edited\n")
    _write_project(root, {name: TABLES[name] for name in ("hr", "ledger", "person")})
    capsys.readouterr()
    assert run(root, "--check") == 1
    err = capsys.readouterr().err
    assert "missing:      models/marts/hr/dim_hr_as_of.sql" in err
    assert "differs:      models/marts/hr/dim_hr_history.sql" in err
    assert "stale:        models/marts/badge/dim_badge_history.sql" in err
    assert (root / "models/marts/badge/dim_badge_history.sql").exists(), "--check writes nothing"


def test_files_of_a_table_no_longer_configured_are_removed(project: Project) -> None:
    root = project()
    run(root)
    hand_written = root / "models/marts/person/assert_something.sql"
    hand_written.write_text("select 1 as hand_written\n")
    _write_project(root, {name: TABLES[name] for name in ("hr", "person")})
    assert run(root) == 0
    on_disk = set(scaffold.generated_files_on_disk(root))
    assert not (root / "models/marts/ledger").exists(), "emptied folder removed"
    assert not (root / "models/marts/badge").exists()
    assert not any("ledger" in path for path in on_disk)
    assert hand_written.exists(), "a file without the header is never removed"
    assert (root / "models/marts/person/dim_person_history.sql").exists()
    staging = models_of(root / "models/staging/qlik_ct/_qlik_ct__models.yml")
    assert list(staging) == [
        "stg_qlik_ct__hr",
        "stg_qlik_ct__hr_baseline",
        "stg_qlik_ct__landed_files",
    ]


def test_a_format_without_tables_keeps_no_files(project: Project) -> None:
    root = project()
    run(root)
    _write_project(root, {"hr": TABLES["hr"]})
    run(root)
    assert not (root / "models/staging/idm_jdbc").exists()


def test_a_template_with_when_renders_only_for_tables_that_set_the_option(
    project: Project,
) -> None:
    """`[# output: ... when bitemporal #]`: the bitemporal models and their YAML exist for a
    table with bitemporal true only; taking the option off removes them."""
    tables = {**TABLES, "hr": {**TABLES["hr"], "bitemporal": True}}
    root = project(tables)
    assert run(root) == 0
    written = set(scaffold.generated_files_on_disk(root))
    assert "models/intermediate/history_known/int_hr__history_known.sql" in written
    assert "models/marts/hr/dim_hr_history_bitemporal.sql" in written
    assert not any("ledger__history_known" in path for path in written)
    assert not any("ledger_history_bitemporal" in path for path in written)
    known = models_of(root / "models/intermediate/history_known/_history_known__models.yml")
    assert list(known) == ["int_hr__history_known"]
    assert "dim_hr_history_bitemporal" in models_of(root / "models/marts/hr/_hr__models.yml")
    assert "dim_ledger_history_bitemporal" not in models_of(
        root / "models/marts/ledger/_ledger__models.yml"
    )
    _write_project(root, TABLES)
    assert run(root) == 0
    assert not (root / "models/intermediate/history_known").exists()
    assert "dim_hr_history_bitemporal" not in models_of(root / "models/marts/hr/_hr__models.yml")


def test_one_table_only(project: Project) -> None:
    root = project()
    assert run(root, "--table", "person") == 0
    written = set(scaffold.generated_files_on_disk(root))
    assert "models/marts/person/dim_person_current.sql" in written
    assert "models/staging/idm_jdbc/_idm_jdbc__models.yml" in written
    assert not any("/hr" in path or "qlik_ct" in path for path in written)
    assert run(root, "--table", "person", "--check") == 0
    assert run(root, "--table", "nobody") == 2


def test_vars_override_the_project(project: Project) -> None:
    root = project()
    assert (
        run(root, "--vars", "{cdc_tables: {solo: {source_system: qlik_ct, key_columns: [k]}}}") == 0
    )
    marts = {
        path.split("/")[2] for path in scaffold.generated_files_on_disk(root) if "marts" in path
    }
    assert marts == {"solo"}


# ---------- refused configuration


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Employees", id="upper case"),
        pytest.param("emp-list", id="hyphen"),
        pytest.param("1emp", id="digit first"),
        pytest.param("emp list", id="space"),
        pytest.param("emp;drop", id="semicolon"),
        pytest.param("../emp", id="path"),
        pytest.param("emp'", id="quote"),
        pytest.param("emp\n", id="trailing line feed"),
        pytest.param("_emp", id="underscore first"),
    ],
)
def test_table_names_with_special_characters_are_refused(
    project: Project, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    root = project({name: {"source_system": "qlik_ct", "key_columns": ["k"]}})
    assert run(root) == 2
    err = capsys.readouterr().err
    assert repr(name) in err
    assert "^[a-z][a-z0-9_]*$" in err
    assert not (root / "models").exists()


def test_the_table_name_rule_is_the_one_dbt_parse_applies() -> None:
    """`cdc-dbt scaffold` and `dbt parse` (cdc_table_config through cdc_is_table_name) refuse
    the same table names: the macro's pattern is the scaffold's, and both match whole names
    (a trailing line feed does not pass). test_config_validation.py runs the dbt side on
    names the scaffold refuses."""
    macro = (PROJECT_DIR / "macros" / "cdc" / "cdc_is_table_name.sql").read_text()
    [pattern] = re.findall(r"modules\.re\.fullmatch\('([^']*)', name\)", macro)
    assert f"^{pattern}$" == scaffold.TABLE_NAME.pattern
    for name in ("employees", "order_lines", "t2", "a_"):
        assert scaffold.check_table_name(name) == name
        assert re.fullmatch(pattern, name)
    for name in ("Employees", "_emp", "emp\n", "1emp", "emp-list", ""):
        assert re.fullmatch(pattern, name) is None
        with pytest.raises(scaffold.ScaffoldError, match=re.escape("^[a-z][a-z0-9_]*$")):
            scaffold.check_table_name(name)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param({"key_columns": ["k"]}, "has no source_system", id="no source system"),
        pytest.param(
            {"source_system": "ogg_json", "key_columns": ["k"]},
            "not registered in var cdc_source_systems",
            id="unknown source system",
        ),
        pytest.param({"source_system": "qlik_ct"}, "needs key_columns", id="no key"),
        pytest.param(
            {
                "source_system": "idm_jdbc",
                "key_columns": ["k"],
                "columns": {"k": "int"},
                "snapshot_table": "k-copy",
            },
            "snapshot_table name 'k-copy' must match",
            id="placeholder value used in a file name",
        ),
        pytest.param(
            {"source_system": "qlik_ct", "key_columns": ["k"], "columns": {"a b": "int"}},
            "column name 'a b' must match",
            id="column name",
        ),
    ],
)
def test_bad_table_settings_are_refused(
    project: Project, capsys: pytest.CaptureFixture[str], config: dict[str, Any], message: str
) -> None:
    root = project({"tbl": config})
    assert run(root) == 2
    assert message in capsys.readouterr().err


def test_a_template_must_name_its_output(project: Project) -> None:
    root = project()
    (root / "scaffold/qlik_ct/oops.sql.j2").write_text("select 1\n")
    (root / "scaffold/qlik_ct/_partial.yml.j2").write_text("no directive: a partial\n")
    with pytest.raises(scaffold.ScaffoldError, match=r"oops\.sql\.j2: the first line must be"):
        scaffold.find_templates(root)


def test_a_new_format_brings_its_own_templates(project: Project) -> None:
    root = project({"feed": {"source_system": "ogg_json", "key_columns": ["id"]}})
    document = yaml.safe_load((root / "dbt_project.yml").read_text())
    document["vars"]["cdc_source_systems"]["ogg_json"] = {"images_complete": False}
    (root / "dbt_project.yml").write_text(yaml.safe_dump(document))
    (root / "scaffold/ogg_json").mkdir()
    (root / "scaffold/ogg_json/stg.sql.j2").write_text(
        "[# output: models/staging/ogg_json/stg_ogg_json__{table}.sql #]\n"
        "{{ stage_ogg_json('[[ table.name ]]') }}\n"
    )
    assert run(root) == 0
    staged = (root / "models/staging/ogg_json/stg_ogg_json__feed.sql").read_text()
    assert staged.endswith("{{ stage_ogg_json('feed') }}\n")
    history = models_of(root / "models/marts/feed/_feed__models.yml")
    assert "dim_feed_history" in history


# ---------- the entry point


def test_cdc_dbt_scaffold_starts_no_spark(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project()

    def no_spark(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("scaffold must not start Spark")

    monkeypatch.setattr(cli, "build_spark_session", no_spark)
    monkeypatch.setattr(cli, "project_dir", lambda: root)
    assert cli.main(["scaffold"]) == 0
    assert cli.main(["scaffold", "--check"]) == 0


@pytest.mark.parametrize(
    ("topic", "expected"),
    [
        pytest.param("kafka_sales_customer", "kafka_sales_customer", id="an identifier: itself"),
        pytest.param("Sales_Customer", "Sales_Customer", id="case kept"),
        pytest.param("src.sales-customers", "topic_src_sales_customers", id="dot and hyphen"),
        pytest.param("src.o'sales-customer", "topic_src_o_sales_customer", id="a quote"),
        pytest.param("1.customers", "topic_1_customers", id="a digit first"),
        pytest.param("a..b--c", "topic_a_b_c", id="a run of other characters is one _"),
        pytest.param("ünï", "topic__n_", id="non-ASCII letters"),
    ],
)
def test_kafka_landed_table_name(topic: str, expected: str) -> None:
    """The source table the scaffold writes for a topic: the macro
    qlik_kafka_landed_table_name's name (the Kafka proof's JSON Lines build checks that the
    two agree on topics with a dot, a hyphen and a quote)."""
    assert scaffold.kafka_landed_table_name(topic) == expected


def test_kafka_sources_name_a_topic_by_its_landed_table(tmp_path: Path) -> None:
    for folder in ("scaffold", "models", "macros"):
        shutil.copytree(PROJECT_DIR / folder, tmp_path / folder)
    project = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())
    project["vars"]["cdc_tables"] = {
        "customer": {
            "source_system": "qlik_kafka",
            "topic": "src.sales-customers",
            "key_columns": ["id"],
            "columns": {"id": "int"},
        }
    }
    (tmp_path / "dbt_project.yml").write_text(yaml.safe_dump(project, sort_keys=False))
    assert scaffold.main([], project_dir=tmp_path) == 0
    sources = yaml.safe_load(
        (tmp_path / "models/staging/qlik_kafka/_qlik_kafka__sources.yml").read_text()
    )
    names = [table["name"] for table in sources["sources"][0]["tables"]]
    assert names == ["metadata", "topic_src_sales_customers"]


def test_a_users_project_reads_the_package_defaults_under_its_own_vars(tmp_path: Path) -> None:
    """A project of a user's own (cdc-dbt init) repeats no registry: the scaffold reads the
    package's defaults (as cdc_var does), the project's own vars over them."""
    (tmp_path / "dbt_project.yml").write_text(
        yaml.safe_dump(
            {
                "name": "mine",
                "vars": {"cdc_tables": {"t": {"source_system": "idm_jdbc"}}, "as_of": "x"},
            }
        )
    )
    found = scaffold.load_vars(tmp_path)
    ours = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())["vars"]
    assert found["cdc_source_systems"] == ours["cdc_source_systems"]
    # a format's setting, by the var name that overrides it, at its registry default
    assert found["qlik_ct_schema"] == ours["cdc_source_systems"]["qlik_ct"]["settings"]["schema"]
    assert found["as_of"] == "x"
    assert found["cdc_tables"] == {"t": {"source_system": "idm_jdbc"}}
