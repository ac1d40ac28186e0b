"""The way in: `cdc-dbt` (python_udfs/cli.py, python_udfs/session.py), the set-up script
bin/_bootstrap.sh, and the guard that stops plain `dbt` (macros/landing/assert_udfs_registered).

The session helpers are tested without Spark against the shipped profiles/profiles.yml; the
set-up script and both commands run as subprocesses with an environment of their own.
Time budget: about 2 minutes, most of it three `cdc-dbt` commands back to back (one JVM each,
~30 s) on one small model, and plain `dbt build` stopping at its guard.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cdc_simulator.project_copy import SAMPLES_DIR
from python_udfs.metastore_lock import held_by_another_process
from python_udfs.session import (
    SettingsError,
    prepare_environment,
    spark_settings,
    target_from_args,
    target_method,
    with_loopback_driver,
    with_quiet_start,
)

PROJECT_DIR = Path(__file__).resolve().parents[2]
PROFILES_DIR = PROJECT_DIR / "profiles"
VENV_BIN = Path(sys.executable).parent

# Every variable the profile or prepare_environment reads; each test starts with none set.
PROFILE_VARIABLES = (
    "CDC_TARGET",
    "DBT_TARGET",
    "CDC_SCHEMA",
    "CDC_SPARK_MASTER",
    "CDC_LOCAL_DIR",
    "CDC_SHUFFLE_PARTITIONS",
    "CDC_DRIVER_MEMORY",
    "CDC_WAREHOUSE_DIR",
    "CDC_METASTORE_URL",
    "CDC_SPARK_UI",
    "CDC_THREADS",
    "CDC_SPARK_APP_NAME",
    "CDC_EXECUTOR_MEMORY",
    "CDC_EXECUTOR_CORES",
    "CDC_EXECUTOR_INSTANCES",
    "CDC_K8S_IMAGE",
    "CDC_EXECUTOR_PYTHON",
    "CDC_METASTORE_URIS",
    "CDC_DRIVER_JAVA_OPTIONS",
    "CDC_SPARK_LOG_LEVEL",
    "SPARK_LOCAL_IP",
    "DBT_PROJECT_DIR",
    "DBT_PROFILES_DIR",
    "DBT_LOG_PATH",
    "DBT_TARGET_PATH",
    "PYSPARK_PYTHON",
    "PYSPARK_DRIVER_PYTHON",
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No profile variable set; whatever the test or the code under test sets is undone."""
    for name in PROFILE_VARIABLES:
        monkeypatch.setenv(name, "")  # recorded, so monkeypatch restores the original
        monkeypatch.delenv(name)
    return monkeypatch


# ---------------------------------------------------------------------------------------------
# spark_settings: the profile rendered as dbt renders it


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param(
            {},
            {
                "spark.master": "local[*]",
                "spark.sql.shuffle.partitions": "4",
                "spark.sql.warehouse.dir": ".local/warehouse",
                "spark.hadoop.javax.jdo.option.ConnectionURL": (
                    "jdbc:derby:;databaseName=.local/metastore_db;create=true"
                ),
                "spark.driver.extraJavaOptions": (
                    "-Dderby.system.home=.local -XX:CompileThresholdScaling=4 -XX:+UseParallelGC"
                ),
                "spark.driver.memory": "4g",
                "spark.ui.enabled": "false",
            },
            id="env_var defaults",
        ),
        pytest.param(
            {
                "CDC_SPARK_MASTER": "local[3]",
                "CDC_LOCAL_DIR": "/data/cdc",
                "CDC_SHUFFLE_PARTITIONS": "16",
            },
            {
                "spark.master": "local[3]",
                "spark.sql.shuffle.partitions": "16",
                "spark.sql.warehouse.dir": "/data/cdc/warehouse",
                "spark.hadoop.javax.jdo.option.ConnectionURL": (
                    "jdbc:derby:;databaseName=/data/cdc/metastore_db;create=true"
                ),
                "spark.driver.extraJavaOptions": (
                    "-Dderby.system.home=/data/cdc -XX:CompileThresholdScaling=4 -XX:+UseParallelGC"
                ),
            },
            id="environment overrides, CDC_LOCAL_DIR moves warehouse and metastore",
        ),
        pytest.param(
            {"CDC_DRIVER_JAVA_OPTIONS": "-Xss4m"},
            {"spark.driver.extraJavaOptions": "-Dderby.system.home=.local -Xss4m"},
            id="CDC_DRIVER_JAVA_OPTIONS replaces the JIT and GC settings, the metastore home stays",
        ),
    ],
)
def test_local_target_settings(
    clean_env: pytest.MonkeyPatch, env: dict[str, str], expected: dict[str, str]
) -> None:
    for name, value in env.items():
        clean_env.setenv(name, value)
    target, settings = spark_settings(PROFILES_DIR, "local")
    assert target == "local"
    assert {key: settings.get(key) for key in expected} == expected
    assert settings["spark.sql.session.timeZone"] == "UTC"


def test_the_driver_logs_at_the_chosen_level_from_its_start(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The settings a session is built with name a log4j configuration, written to the local
    folder, at CDC_SPARK_LOG_LEVEL (default ERROR) for the root and for the logger of the
    class that starts pyspark's logging (else Spark prints its log-level hint), and turn off
    the console progress bar; a configuration or a progress-bar setting of the user's stays."""
    local = tmp_path / "a folder"  # a space: the option must stay one option
    local.mkdir()
    _, settings = spark_settings(PROFILES_DIR, "local")
    chosen = with_quiet_start(settings, local)
    written = local / "spark-log4j2.properties"
    assert chosen["spark.driver.extraJavaOptions"] == (
        f"{settings['spark.driver.extraJavaOptions']}"
        f" -Dlog4j2.configurationFile={written.resolve().as_uri()}"
    )
    assert " " not in written.resolve().as_uri()
    assert chosen["spark.ui.showConsoleProgress"] == "false"
    lines = written.read_text().splitlines()
    assert "rootLogger.level = error" in lines
    assert "logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer" in lines
    assert "logger.gateway.level = error" in lines
    # every other setting as it was
    assert {k: v for k, v in chosen.items() if k in settings and "JavaOptions" not in k} == {
        k: v for k, v in settings.items() if "JavaOptions" not in k
    }

    clean_env.setenv("CDC_SPARK_LOG_LEVEL", "warn")
    with_quiet_start(settings, local)
    assert "rootLogger.level = warn" in written.read_text().splitlines()
    # replaced in one step, nothing else left in the folder
    assert [path.name for path in local.iterdir()] == ["spark-log4j2.properties"]

    for option in ("-Dlog4j2.configurationFile", "-Xss4m -Dlog4j.configurationFile"):
        own = {
            "spark.driver.extraJavaOptions": f"{option}=/etc/mine.properties",
            "spark.ui.showConsoleProgress": "true",
        }
        assert with_quiet_start(own, local) == own

    clean_env.setenv("CDC_SPARK_LOG_LEVEL", "loud")
    with pytest.raises(SettingsError, match="CDC_SPARK_LOG_LEVEL is 'LOUD'; it takes one of OFF"):
        with_quiet_start(settings, local)


def test_a_local_mode_driver_listens_on_the_loopback_address_only(
    clean_env: pytest.MonkeyPatch,
) -> None:
    loopback = {"spark.driver.bindAddress": "127.0.0.1", "spark.driver.host": "127.0.0.1"}
    for master in ("local", "local[2]", "local[*]"):
        clean_env.setenv("CDC_SPARK_MASTER", master)
        _, settings = spark_settings(PROFILES_DIR, "local")
        assert with_loopback_driver(settings) == settings | loopback
    # a cluster's executors must reach the driver: its address is Spark's choice
    cluster = {"spark.master": "spark://10.0.0.5:7077"}
    assert with_loopback_driver(cluster) == cluster
    # an address of the user's stays
    for key in loopback:
        own = {"spark.master": "local[*]", key: "10.0.0.9"}
        assert with_loopback_driver(own) == own
    clean_env.setenv("SPARK_LOCAL_IP", "10.0.0.9")
    assert with_loopback_driver({"spark.master": "local[*]"}) == {"spark.master": "local[*]"}


def test_target_defaults_to_the_profile_target(clean_env: pytest.MonkeyPatch) -> None:
    assert spark_settings(PROFILES_DIR)[0] == "local"
    clean_env.setenv("CDC_TARGET", "cluster")
    clean_env.setenv("CDC_SPARK_MASTER", "spark://head:7077")
    clean_env.setenv("CDC_WAREHOUSE_DIR", "hdfs:///warehouse")
    assert spark_settings(PROFILES_DIR)[0] == "cluster"


def test_empty_settings_are_dropped(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("CDC_SPARK_MASTER", "spark://head:7077")
    clean_env.setenv("CDC_WAREHOUSE_DIR", "hdfs:///warehouse")
    _, settings = spark_settings(PROFILES_DIR, "cluster")
    assert settings["spark.master"] == "spark://head:7077"
    assert settings["spark.sql.warehouse.dir"] == "hdfs:///warehouse"
    # CDC_K8S_IMAGE and CDC_METASTORE_URIS default to ''
    assert "spark.kubernetes.container.image" not in settings
    assert "spark.hadoop.hive.metastore.uris" not in settings
    assert all(value != "" for value in settings.values())

    clean_env.setenv("CDC_METASTORE_URIS", "thrift://metastore:9083")
    _, settings = spark_settings(PROFILES_DIR, "cluster")
    assert settings["spark.hadoop.hive.metastore.uris"] == "thrift://metastore:9083"


def test_cluster_target_needs_the_spark_master(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("CDC_WAREHOUSE_DIR", "hdfs:///warehouse")
    with pytest.raises(SettingsError, match="CDC_SPARK_MASTER"):
        spark_settings(PROFILES_DIR, "cluster")


def test_thrift_target_builds_no_session(clean_env: pytest.MonkeyPatch) -> None:
    """`thrift` is dbt through `cdc-dbt serve`: cdc-dbt must not start Spark for it."""
    assert target_method(PROFILES_DIR, "thrift") == ("thrift", "thrift")
    assert target_method(PROFILES_DIR, "local") == ("local", "session")
    with pytest.raises(SettingsError, match="must use method: session"):
        spark_settings(PROFILES_DIR, "thrift")


def test_unknown_target(clean_env: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingsError, match=r"unknown target 'nowhere'.*cluster, local"):
        spark_settings(PROFILES_DIR, "nowhere")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(["build", "--target", "x"], "x", id="--target x"),
        pytest.param(["build", "-t", "x"], "x", id="-t x"),
        pytest.param(["build", "--target=x"], "x", id="--target=x"),
        pytest.param(["test", "--select", "m", "-t", "cluster"], "cluster", id="after other flags"),
        pytest.param(["build"], None, id="no flag"),
        pytest.param(["build", "--target"], None, id="flag without value"),
        pytest.param([], None, id="no arguments"),
    ],
)
def test_target_from_args(args: list[str], expected: str | None) -> None:
    assert target_from_args(args) == expected


def test_prepare_environment_keeps_what_the_user_set(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    mine = {
        "DBT_PROFILES_DIR": str(tmp_path / "my_profiles"),
        "DBT_LOG_PATH": str(tmp_path / "my_logs"),
        "PYSPARK_PYTHON": "/opt/python/bin/python3",
    }
    for name, value in mine.items():
        clean_env.setenv(name, value)
    clean_env.setenv("CDC_LOCAL_DIR", str(tmp_path / "my_local"))
    root = tmp_path / "project"

    prepare_environment(root)

    assert {name: os.environ[name] for name in mine} == mine
    assert os.environ["CDC_LOCAL_DIR"] == str((tmp_path / "my_local").resolve())
    assert (tmp_path / "my_local").is_dir()
    # the rest is defaulted
    assert os.environ["DBT_PROJECT_DIR"] == str(root)
    assert os.environ["DBT_TARGET_PATH"] == str(root / "target")
    assert os.environ["PYSPARK_DRIVER_PYTHON"] == sys.executable


def test_prepare_environment_defaults_the_local_dir_under_the_project(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    prepare_environment(tmp_path)
    assert os.environ["CDC_LOCAL_DIR"] == str((tmp_path / ".local").resolve())
    assert (tmp_path / ".local").is_dir()
    assert os.environ["DBT_PROFILES_DIR"] == str(tmp_path / "profiles")
    assert os.environ["PYSPARK_PYTHON"] == sys.executable


# ---------------------------------------------------------------------------------------------
# bin/_bootstrap.sh with a JAVA_HOME that holds no Java


def test_bootstrap_with_a_java_home_without_java_says_what_to_do(tmp_path: Path) -> None:
    """A JAVA_HOME the user set is used as it is: one naming no Java stops the set-up at
    once (before any environment is made), saying how to use the bundled runtime instead."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("bash", "dirname", "cat", "sed", "head"):
        found = shutil.which(tool)
        assert found, f"{tool} is needed to run the set-up script"
        (tools / tool).symlink_to(found)
    missing = tmp_path / "no-jdk-here"
    env = {"PATH": str(tools), "HOME": str(tmp_path), "JAVA_HOME": str(missing)}

    done = subprocess.run(
        [str(tools / "bash"), "-c", "source bin/_bootstrap.sh"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )

    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines, "no message on stderr"
    assert f"JAVA_HOME is set to {missing}, which holds no bin/java" in lines[0]
    assert "Unset JAVA_HOME" in done.stderr
    assert "17+" in done.stderr


# ---------------------------------------------------------------------------------------------
# the commands, as subprocesses


def command_env(tmp_path: Path) -> dict[str, str]:
    """This process's environment (PATH, Java) with private dbt and Spark state under tmp."""
    env = {name: value for name, value in os.environ.items() if name not in PROFILE_VARIABLES}
    env.update(
        {
            "CDC_LOCAL_DIR": str(tmp_path / "local"),
            "CDC_SCHEMA": "plain_dbt_guard",
            "CDC_SPARK_MASTER": "local[1]",
            "CDC_SHUFFLE_PARTITIONS": "1",
            "DBT_TARGET_PATH": str(tmp_path / "target"),
            "DBT_LOG_PATH": str(tmp_path / "logs"),
            "PYSPARK_PYTHON": sys.executable,
        }
    )
    return env


@pytest.mark.e2e
def test_plain_dbt_stops_before_any_model(tmp_path: Path) -> None:
    (tmp_path / "local").mkdir()
    done = subprocess.run(
        [
            str(VENV_BIN / "dbt"),
            "build",
            "--project-dir",
            str(SAMPLES_DIR),
            "--profiles-dir",
            str(PROFILES_DIR),
        ],
        cwd=tmp_path,
        env=command_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
    )
    output = done.stdout + done.stderr

    assert done.returncode != 0, output
    assert "is not registered in this Spark session" in output, output
    assert "`cdc-dbt build ...`" in output, output
    assert "OK created" not in output, output
    assert "OK loaded" not in output, output


@pytest.mark.parametrize(
    ("callers_session", "marked"),
    [
        pytest.param(False, {"cdc.landed_tables.unread": "true"}, id="a session it starts"),
        pytest.param(True, {}, id="a caller's session (tests, serve): not marked"),
    ],
)
def test_cdc_dbt_marks_only_a_session_it_starts_as_unread(
    clean_env: pytest.MonkeyPatch, callers_session: bool, marked: dict[str, str]
) -> None:
    """The mark that lets the first registration skip `refresh table`
    (cdc_landed_tables_unread) is set on a session cdc-dbt starts for the command, never on
    one the caller already runs, which may have read a landed table (dbt itself faked: the
    mark is set before it runs)."""
    from types import SimpleNamespace

    from python_udfs import cli

    class Conf:
        def __init__(self) -> None:
            self.values: dict[str, str] = {}

        def set(self, key: str, value: str) -> None:
            self.values[key] = value

    session = SimpleNamespace(conf=Conf())
    seen: list[dict[str, str]] = []

    class Runner:
        def __init__(self, callbacks: list[object]) -> None:
            pass

        def invoke(self, args: list[str]) -> SimpleNamespace:
            seen.append(dict(session.conf.values))
            return SimpleNamespace(success=True, exception=None)

    clean_env.setattr(cli, "build_spark_session", lambda _settings: session)
    clean_env.setattr(cli, "start_warm_up", lambda _spark: None)
    clean_env.setattr(cli, "wait_until_released", lambda *_args: True)
    clean_env.setattr(cli, "set_code_fingerprint", lambda *_args, **_kwargs: None)
    clean_env.setattr("dbt.cli.main.dbtRunner", Runner)
    assert cli._run_dbt(SAMPLES_DIR, ["run"], (), in_session=callers_session) == 0
    assert seen == [marked]


def test_cdc_dbt_fingerprints_the_settings_it_builds_the_session_with(
    clean_env: pytest.MonkeyPatch,
) -> None:
    """The code fingerprint takes the Spark settings the command's session is built with (a
    changed time zone or ANSI mode must not keep what the last run wrote; dbt faked)."""
    from types import SimpleNamespace

    from python_udfs import cli

    built: list[dict[str, str]] = []
    fingerprinted: list[object] = []

    class Runner:
        def __init__(self, callbacks: list[object]) -> None:
            pass

        def invoke(self, args: list[str]) -> SimpleNamespace:
            return SimpleNamespace(success=True, exception=None)

    def build(settings: dict[str, str]) -> SimpleNamespace:
        built.append(settings)
        return SimpleNamespace(conf=SimpleNamespace(set=lambda *_args: None))

    clean_env.setattr(cli, "build_spark_session", build)
    clean_env.setattr(cli, "start_warm_up", lambda _spark: None)
    clean_env.setattr(cli, "wait_until_released", lambda *_args: True)
    clean_env.setattr(
        cli, "set_code_fingerprint", lambda *_args, **kwargs: fingerprinted.append(kwargs)
    )
    clean_env.setattr("dbt.cli.main.dbtRunner", Runner)
    assert cli._run_dbt(SAMPLES_DIR, ["run", "--target", "local"], ()) == 0
    assert len(built) == 1 and built[0]["spark.sql.session.timeZone"] == "UTC"
    assert fingerprinted == [{"settings": built[0]}]


def test_cdc_dbt_in_the_package_itself_says_it_would_build_nothing(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The repository's root is the package: `cdc-dbt build` there has no table to build and
    says where the sample project is, before any Spark (build_spark_session would fail)."""
    from python_udfs import cli

    def no_spark(_settings: object) -> None:
        raise AssertionError("no Spark for a build of nothing")

    clean_env.setattr(cli, "build_spark_session", no_spark)
    assert cli._run_dbt(PROJECT_DIR, ["build"], ()) == 2
    said = capsys.readouterr().err
    assert "is the cdc_history dbt package itself, with no table in var cdc_tables" in said
    assert "samples/" in said and "cdc-dbt init <dir>" in said
    # with tables given on the command line it is a build like any other: not stopped here
    tables = "{cdc_tables: {t: {source_system: qlik_ct, key_columns: [id]}}}"
    assert cli._nothing_to_build(PROJECT_DIR, ["build", "--vars", tables]) is None
    assert cli._nothing_to_build(SAMPLES_DIR, ["build"]) is None


def test_cdc_dbt_version_starts_no_spark(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(VENV_BIN / "cdc-dbt"), "--version"],
        cwd=tmp_path,
        env=command_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = done.stdout + done.stderr

    assert done.returncode == 0, output
    assert "1.11" in output, output
    # build_spark_session would write the UDF archive and the metastore here
    assert list((tmp_path / "local").iterdir()) == []


def test_a_wrong_spark_log_level_stops_before_spark(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(VENV_BIN / "cdc-dbt"), "run"],
        cwd=SAMPLES_DIR,
        env={**command_env(tmp_path), "CDC_SPARK_LOG_LEVEL": "verbose"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (
        "cdc-dbt: CDC_SPARK_LOG_LEVEL is 'VERBOSE'; it takes one of"
        " OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL\n"
    )
    assert list((tmp_path / "local").iterdir()) == []


@pytest.mark.e2e
@pytest.mark.spark
def test_commands_back_to_back_on_the_embedded_metastore(tmp_path: Path) -> None:
    """`cdc-dbt run && cdc-dbt test` on the embedded default: each command returns only
    once its JVM has exited and released Derby (checked after each), so the next one gets
    in. The lock check's own wait is off (CDC_METASTORE_WAIT_SECONDS=0), so this proves the
    first half alone; the wait is tested in test_metastore_lock.py. One model with no seed
    behind it and a data test: stg_qlik_ct__landed_files (no rows outside files mode). Two
    commands, not the three of a `run && test && run` day: a third would prove the same
    again for another Spark start."""
    environment = {
        **command_env(tmp_path),
        "CDC_SCHEMA": "back_to_back",
        "CDC_WARM_UP": "0",
        "CDC_METASTORE_WAIT_SECONDS": "0",
    }
    # cautious: not the model's tests that read other (unbuilt, seeded) models
    select = ["--select", "stg_qlik_ct__landed_files", "--indirect-selection", "cautious"]
    database = tmp_path / "local" / "metastore_db"
    summaries = []
    for command in ("run", "test"):
        started = time.monotonic()
        done = subprocess.run(
            [str(VENV_BIN / "cdc-dbt"), command, *select],
            cwd=SAMPLES_DIR,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
        elapsed = time.monotonic() - started
        assert done.returncode == 0, f"cdc-dbt {command}: {done.stderr[-3000:]}"
        assert "another process" not in done.stderr
        assert (database / "dbex.lck").exists(), "the command booted the embedded metastore"
        # released the moment the command returned, not seconds later
        assert not held_by_another_process(database), f"cdc-dbt {command} left Derby open"
        assert elapsed < 150, f"cdc-dbt {command} took {elapsed:.0f} s"
        # Spark says nothing before dbt's first line at the default level (with_quiet_start)
        # and draws no progress bar across dbt's lines
        assert "Running with dbt" in done.stdout.splitlines()[0], done.stdout[:2000]
        for noise in ("log4j profile", "Setting default log level", " WARN ", "[Stage "):
            assert noise not in done.stderr + done.stdout, (noise, done.stderr[:2000])
        summaries += [line for line in done.stdout.splitlines() if "TOTAL=" in line]
    # the three on-run-start hooks and the model, then the hooks and its data test
    assert len(summaries) == 2, summaries
    assert all("PASS=4 WARN=0 ERROR=0" in line for line in summaries), summaries
