"""The code fingerprint that lets a run keep an unchanged view or table
(python_udfs/code_fingerprint.py, macros/materializations/): it follows every file a
definition, its hooks or the UDFs it calls can depend on, and nothing else (no Spark, under
a second)."""

from __future__ import annotations

from pathlib import Path

import pytest

from python_udfs.code_fingerprint import ENV_NAME, code_fingerprint, set_code_fingerprint
from python_udfs.session import spark_settings


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "dbt_project.yml").write_text("name: p\nmodel-paths: [models]\n")
    for path, text in {
        "models/a.sql": "select 1 as a",
        "models/_a.yml": "version: 2\n",
        "macros/m.sql": "{% macro m() %}1{% endmacro %}",
        "macros/docs.md": "{% docs d %}x{% enddocs %}",
    }.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    "changed",
    ["dbt_project.yml", "models/a.sql", "models/_a.yml", "macros/m.sql", "macros/docs.md"],
)
def test_any_change_to_the_code_changes_it(project: Path, changed: str) -> None:
    before = code_fingerprint(project, ["run"])
    path = project / changed
    path.write_text(path.read_text() + "\n# changed\n")
    assert code_fingerprint(project, ["run"]) != before


def test_a_new_or_removed_file_or_an_installed_package_changes_it(project: Path) -> None:
    before = code_fingerprint(project, ["run"])
    (project / "macros" / "n.sql").write_text("")
    with_new = code_fingerprint(project, ["run"])
    assert with_new != before
    (project / "macros" / "n.sql").unlink()
    assert code_fingerprint(project, ["run"]) == before
    package = project / "dbt_packages" / "utils"
    (package / "macros").mkdir(parents=True)
    (package / "dbt_project.yml").write_text("name: utils\n")
    with_package = code_fingerprint(project, ["run"])
    assert with_package != before
    (package / "macros" / "u.sql").write_text("{% macro u() %}{% endmacro %}")
    assert code_fingerprint(project, ["run"]) not in (before, with_package)


def test_a_change_inside_a_linked_local_package_changes_it(project: Path, tmp_path: Path) -> None:
    """`dbt deps` installs a `local:` package (ours, in a user's project) as a symbolic link:
    upgrading the package behind the link must build the kept views and tables again."""
    package = tmp_path.parent / f"{tmp_path.name}_package"
    (package / "macros").mkdir(parents=True)
    (package / "macros" / "p.sql").write_text("{% macro p() %}1{% endmacro %}")
    (package / "dbt_project.yml").write_text("name: cdc_history\n")
    (project / "dbt_packages").mkdir()
    (project / "dbt_packages" / "cdc_history").symlink_to(package, target_is_directory=True)
    before = code_fingerprint(project, ["run"])
    (package / "macros" / "p.sql").write_text("{% macro p() %}2{% endmacro %}")
    assert code_fingerprint(project, ["run"]) != before


def test_a_package_is_read_through_its_own_paths_only(project: Path, tmp_path: Path) -> None:
    """The repository's package holds the sample project that links to it (samples/ and its
    dbt_packages/cdc_history -> the repository): the package's own model and macro paths
    are read, not the rest of its folder, and the link back is not followed round."""
    package = tmp_path.parent / f"{tmp_path.name}_repository"
    (package / "macros").mkdir(parents=True)
    (package / "macros" / "p.sql").write_text("{% macro p() %}1{% endmacro %}")
    (package / "dbt_project.yml").write_text("name: cdc_history\n")
    (package / "notes").mkdir()
    (package / "notes" / "n.sql").write_text("select 1")
    samples = package / "samples"
    (samples / "models").mkdir(parents=True)
    (samples / "dbt_project.yml").write_text("name: samples\n")
    (samples / "dbt_packages").mkdir()
    (samples / "dbt_packages" / "cdc_history").symlink_to(package, target_is_directory=True)
    before = code_fingerprint(samples, ["run"])
    (package / "notes" / "n.sql").write_text("select 2")  # no dbt path of the package
    assert code_fingerprint(samples, ["run"]) == before
    (package / "macros" / "p.sql").write_text("{% macro p() %}2{% endmacro %}")
    assert code_fingerprint(samples, ["run"]) != before


def test_vars_change_it_and_other_arguments_do_not(project: Path) -> None:
    plain = code_fingerprint(project, ["run"])
    assert code_fingerprint(project, ["build", "--select", "x", "--threads", "2"]) == plain
    with_vars = code_fingerprint(project, ["run", "--vars", '{"as_of": "1"}'])
    assert with_vars != plain
    assert code_fingerprint(project, ["run", '--vars={"as_of": "1"}']) == with_vars
    assert code_fingerprint(project, ["run", "--vars", '{"as_of": "2"}']) != with_vars


@pytest.mark.parametrize(
    ("args", "environ"),
    [
        (["run", "--empty"], {}),
        (["run"], {"DBT_EMPTY": "true"}),
        (["build", "--sample", "3 days"], {}),
        (["run", "--sample=3 days"], {}),
        (["run"], {"DBT_SAMPLE": "3 days"}),
        (["run", "--defer", "--state", "prod"], {}),
        (["run", "--state", "prod"], {"DBT_DEFER": "1"}),
        (["run", "--defer"], {"DBT_STATE": "prod"}),
        (["run", "--event-time-start", "2024-01-01"], {}),
    ],
)
def test_an_option_that_changes_what_models_read_changes_it(
    project: Path, args: list[str], environ: dict[str, str]
) -> None:
    """A run with --empty, a sample or deferral writes what a plain run would not: its writes
    must not pass for this code's, or the next plain run would keep them (the incremental
    skip, kept tables and views)."""
    plain = code_fingerprint(project, ["run"], {})
    assert code_fingerprint(project, args, environ) != plain


def test_options_that_only_select_or_switch_off_leave_it(project: Path) -> None:
    plain = code_fingerprint(project, ["run"], {})
    for args, environ in (
        (["run", "--no-empty"], {}),
        (["run", "--no-empty"], {"DBT_EMPTY": "true"}),
        (["run"], {"DBT_EMPTY": "false"}),
        (["run", "--select", "state:modified", "--state", "prod"], {}),
        (["run", "--state", "prod", "--favor-state"], {}),
        (["run", "--defer", "--no-defer", "--state", "prod"], {}),
        (["run"], {"DBT_STATE": "prod", "DBT_DEFER": "0"}),
    ):
        assert code_fingerprint(project, args, environ) == plain, (args, environ)
    with_state = code_fingerprint(project, ["run", "--defer", "--state", "a"], {})
    assert code_fingerprint(project, ["run", "--defer", "--state", "b"], {}) != with_state


# the shipped profile's embedded target, as the profile renders it (cdc-dbt passes these)
SHIPPED_SETTINGS = spark_settings(Path(__file__).resolve().parents[2] / "profiles", "local")[1]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("spark.sql.session.timeZone", "Europe/Berlin"),
        ("spark.sql.ansi.enabled", "true"),
        ("spark.sql.mapKeyDedupPolicy", "EXCEPTION"),
        ("spark.sql.caseSensitive", "true"),
        ("spark.sql.legacy.timeParserPolicy", "LEGACY"),
    ],
)
def test_a_spark_setting_that_changes_what_queries_return_changes_it(
    project: Path, key: str, value: str
) -> None:
    """A table or view written under another time zone or ANSI mode holds other answers (a
    view keeps the settings it was created under): a run under a changed profile must not
    keep it, nor skip an incremental model as up to date."""
    assert SHIPPED_SETTINGS["spark.sql.session.timeZone"] == "UTC"
    shipped = code_fingerprint(project, ["run"], {}, SHIPPED_SETTINGS)
    assert shipped != code_fingerprint(project, ["run"], {})
    changed = {**SHIPPED_SETTINGS, key: value}
    assert code_fingerprint(project, ["run"], {}, changed) != shipped


def test_settings_that_decide_only_how_or_where_a_query_runs_leave_it(project: Path) -> None:
    """Tuning a run (its shuffle partitions, adaptive execution, code generation, file
    splits, memory, the warehouse folder, the metastore's connection) rebuilds nothing; the
    order of the settings does not matter, and a session with none of the other kind has a
    plain run's digest."""
    shipped = code_fingerprint(project, ["run"], {}, SHIPPED_SETTINGS)
    tuned = {
        **SHIPPED_SETTINGS,
        "spark.sql.shuffle.partitions": "400",
        "spark.sql.warehouse.dir": "/elsewhere/warehouse",
        "spark.sql.adaptive.enabled": "false",
        "spark.sql.codegen.wholeStage": "false",
        "spark.sql.files.maxPartitionBytes": "64m",
        "spark.sql.autoBroadcastJoinThreshold": "-1",
        "spark.driver.memory": "16g",
        "spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:postgresql://metastore/hive",
    }
    assert code_fingerprint(project, ["run"], {}, tuned) == shipped
    reordered = dict(reversed(list(SHIPPED_SETTINGS.items())))
    assert code_fingerprint(project, ["run"], {}, reordered) == shipped
    only_tuning = {key: value for key, value in tuned.items() if key not in SHIPPED_SETTINGS}
    assert code_fingerprint(project, ["run"], {}, only_tuning) == code_fingerprint(
        project, ["run"], {}
    )


def test_data_and_other_files_do_not_change_it(project: Path) -> None:
    before = code_fingerprint(project, ["run"])
    (project / "target").mkdir()
    (project / "target" / "manifest.json").write_text("{}")
    (project / "models" / "notes.txt").write_text("not code")
    (project / "README.md").write_text("readme")
    assert code_fingerprint(project, ["run"]) == before


def test_it_is_set_where_the_materialization_reads_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_NAME, raising=False)
    set_code_fingerprint(project, ["run"])
    import os

    assert os.environ[ENV_NAME] == code_fingerprint(project, ["run"])
    assert len(os.environ[ENV_NAME]) == 32
    set_code_fingerprint(project, ["run"], settings=SHIPPED_SETTINGS)
    assert os.environ[ENV_NAME] == code_fingerprint(project, ["run"], settings=SHIPPED_SETTINGS)


def test_a_change_to_a_python_udf_changes_it(
    project: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table that calls a UDF is kept only while the UDFs' source is what it was."""
    import python_udfs.code_fingerprint as module

    package = tmp_path_factory.mktemp("python_udfs")
    (package / "udf.py").write_text("def f(x):\n    return x\n")
    monkeypatch.setattr(module, "_UDF_PACKAGE", package)
    before = code_fingerprint(project, ["run"])
    assert code_fingerprint(project, ["run"]) == before
    (package / "udf.py").write_text("def f(x):\n    return x + 1\n")
    assert code_fingerprint(project, ["run"]) != before
    (package / "udf.py").write_text("def f(x):\n    return x\n")
    (package / "cache.pyc").write_bytes(b"\0compiled")
    assert code_fingerprint(project, ["run"]) == before
