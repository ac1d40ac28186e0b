"""Shared fixtures: one Spark session per pytest process (it takes ~8 s to start), built exactly
as `cdc-dbt` builds it (same profile, same UDF registration), in a metastore of its own.

bin/test runs two processes (pytest-xdist): each has its own Spark session, metastore, warehouse
and dbt target folder; pytest_xdist_make_scheduler keeps each test module in one process, and
the sample modules (`*_sample.py`, readers of `sample_build`) together.

Markers (pyproject.toml): a test that uses the `spark` fixture, directly or through another
fixture (run_dbt, sample_build), must be marked `spark`, and one that runs dbt against Spark in
a subprocess `e2e`; `bin/test --fast` runs the rest, `-m "not spark and not e2e"`. Collection
stops, naming them, when tests use a Spark fixture unmarked."""

from __future__ import annotations

import os
import shutil
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from dbt_common.tests import enable_test_caching
from hypothesis import settings
from time_budgets import budget_unit, budgets

from cdc_simulator.project_copy import SAMPLES_DIR, install_package
from python_udfs.code_fingerprint import set_code_fingerprint
from python_udfs.session import build_spark_session, prepare_environment, spark_settings

PROJECT_DIR = Path(__file__).resolve().parents[2]
# the sample project the tests build, with the package installed as `cdc-dbt deps` installs it
# (a link to the repository; subprocess scenarios run cdc-dbt there too)
install_package(SAMPLES_DIR)
# the pytest-xdist worker this process is (gw0, gw1, ...), or main without xdist
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")


# Hypothesis's 200 ms deadline measures the machine, not the code: on two shared cores an example
# sometimes takes longer once and the test fails as flaky. The examples stay as they are.
settings.register_profile("shared-cores", deadline=None)
settings.load_profile("shared-cores")

# dbt's parse caches, the ones its own adapter test fixtures turn on (dbt.tests.fixtures.project):
# within this process a Jinja text (a macro's block, a file's top-level blocks) is parsed once,
# keyed by the text itself, and the next full `dbt parse` reuses the result instead of lexing
# the 1,400-odd macros of the project and its adapters again (about 3 s a parse: 3.5 to 0.4 s
# for a parse that stops at the first model, 13 to 10 s for a whole one, on the AMD EPYC).
# What dbt renders, compiles and runs is unchanged: the same text gives the same tree.
enable_test_caching()

# The fixtures that start the session's Spark (directly or through the ones that need it).
SPARK_FIXTURES = frozenset({"spark", "run_dbt", "sample_build"})

# Modules whose tests share no module fixture and each take seconds (a `dbt parse` apiece):
# each test is a unit of its own, so the two processes split them.
SPLIT_UNITS = ("test_config_validation.py",)

# The units that take minutes (each builds with dbt or starts servers), longest first as
# measured: handed out before the rest, so neither process ends up alone with a long one.
SLOW_UNITS = (
    "sample modules",
    "test_kill_and_rerun.py",
    "test_postgres_metastore.py",
    "test_qlik_ct_proof.py",
    "test_goldengate_proof.py",
    "test_openedge_cdc_proof.py",
    "test_qlik_kafka_proof.py",
    "test_standalone_cluster.py",
    "test_history_order_invariance.py",
    "test_history_options.py",
    "test_full_snapshot.py",
    "test_duplicate_resolution.py",
    "test_qlik_reload.py",
    "test_goldengate_increments.py",
    "test_landing_vendor_csv.py",
    "test_landing_csv_files.py",
    "test_sql_endpoint.py",
    "test_many_qlik_tables.py",
    "test_idm_xds.py",
    "test_entry_point.py",
    "test_binary_encodings.py",
)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook; `-p no:xdist` runs without it
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With pytest-xdist (bin/test), every test module is one unit of work, kept in one
    process so its module fixtures build once; the modules that read the shared sample build
    (`*_sample.py`) are one unit together, so `sample_build` runs once. The slow units go
    first (SLOW_UNITS), and a process gets its next unit only when it has run the last but
    one test of its current units (a worker keeps one test back until it hears of more), so
    no unit waits queued behind a long one while the other process is free."""
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path.rsplit("/", 1)[-1] in SPLIT_UNITS:
                return nodeid
            return "sample modules" if path.endswith("_sample.py") else path

        def _assign_work_unit(self, node: Any) -> None:
            def rank(scope: str) -> int:
                name = scope.rsplit("/", 1)[-1]
                return SLOW_UNITS.index(name) if name in SLOW_UNITS else len(SLOW_UNITS)

            for scope in sorted(self.workqueue, key=rank):  # stable: the rest keep their order
                self.workqueue.move_to_end(scope)
            super()._assign_work_unit(node)

        def _reschedule(self, node: Any) -> None:
            if not node.shutting_down and self._pending_of(self.assigned_work[node]) > 1:
                return
            super()._reschedule(node)

    return ModuleScheduling(config, log)


# seconds spent per budget unit (test module, or the sample modules together): set-up, call
# and teardown of every test, module fixtures included; gathered where the reports arrive
SPENT: defaultdict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    SPENT[budget_unit(report.nodeid.split("::", 1)[0])] += report.duration


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Each module's time beside its budget (README "Time budgets"), the longest first; the
    modules over budget are named (a report: timings on shared machines are noisy)."""
    if not SPENT:
        return
    table = budgets()
    terminalreporter.section("time per module (budget: README, Tests, Time budgets)")
    over = []
    for unit, seconds in sorted(SPENT.items(), key=lambda item: -item[1]):
        budget = table.get(unit)
        mark = "no budget" if budget is None else f"budget {budget} s"
        if budget is not None and seconds > budget:
            over.append(unit)
            mark += ": OVER"
        terminalreporter.write_line(f"{seconds:8.1f} s  {unit}  ({mark})")
    if over:
        terminalreporter.write_line(f"over budget: {', '.join(over)}")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: every collected test is checked
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that starts Spark without the `spark` marker would run in the fast lane."""
    unmarked = [
        item.nodeid
        for item in items
        if SPARK_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("spark") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "these tests use a Spark fixture (" + ", ".join(sorted(SPARK_FIXTURES)) + ") "
            "but are not marked `spark` (pytestmark or @pytest.mark.spark):\n  "
            + "\n  ".join(unmarked)
        )


@pytest.fixture(scope="session")
def spark_local_dir() -> Path:
    """A private metastore and warehouse for this test process, never the pipeline's own."""
    base = Path(os.environ.get("CDC_TEST_LOCAL_DIR", PROJECT_DIR / ".local" / "pytest"))
    local_dir = base if WORKER == "main" else base.with_name(f"{base.name}-{WORKER}")
    shutil.rmtree(local_dir, ignore_errors=True)
    local_dir.mkdir(parents=True)
    return local_dir


def session_settings() -> dict[str, str]:
    """The Spark settings of the test session: the profile's embedded target, rendered with
    this process's environment (the spark fixture sets it first)."""
    return spark_settings(PROJECT_DIR / "profiles", "local")[1]


@pytest.fixture(scope="session")
def spark(spark_local_dir: Path) -> Iterator[object]:
    os.environ["CDC_LOCAL_DIR"] = str(spark_local_dir)
    os.environ["CDC_SPARK_MASTER"] = os.environ.get("CDC_TEST_SPARK_MASTER", "local[2]")
    os.environ["CDC_SHUFFLE_PARTITIONS"] = "2"
    # dbt's manifest, run results and logs of this process only
    os.environ["DBT_TARGET_PATH"] = str(PROJECT_DIR / "target" / f"pytest-{WORKER}")
    os.environ["DBT_LOG_PATH"] = str(PROJECT_DIR / "logs" / f"pytest-{WORKER}")
    # the project dbt and the cdc-dbt subprocesses of the scenarios run: the sample project
    # (DBT_PROJECT_DIR; subprocesses inherit it)
    prepare_environment(SAMPLES_DIR)
    session = build_spark_session(session_settings())
    # No Java code generation in this session: on the tests' tiny data, compiling each query
    # stage costs more than running it interpreted (the sample build's data tests ran about a
    # third faster without it, BENCHMARKS.md section 11). The answers are the same either way;
    # several subprocess scenarios start their Spark the same way (interpreted.py), the
    # others keep Spark's defaults, as `cdc-dbt` has them. Neither setting is in the
    # profile, so dbt's per-statement settings leave them as set here.
    session.conf.set("spark.sql.codegen.wholeStage", "false")
    session.conf.set("spark.sql.codegen.factoryMode", "NO_CODEGEN")
    yield session
    session.stop()


DbtRunner = Callable[..., object]


@pytest.fixture(scope="session")
def run_dbt(spark: object) -> DbtRunner:
    """Run a dbt command in-process on the test session; fail the test if dbt fails.

    run_dbt(["build"], schema="scenario_x", vars={...}) -> dbtRunnerResult
    Each scenario passes its own schema so scenarios never see each other's tables;
    the project built is the repository's sample project (samples/, a user of the package),
    else project_dir: a copy of it with the scenario's own tables
    (cdc_simulator/project_copy.py).
    """
    import json

    from dbt.cli.main import dbtRunner

    # the settings the session was built with (the spark fixture), as `cdc-dbt` passes them
    settings = session_settings()

    def run(
        args: Sequence[str],
        *,
        schema: str,
        vars: dict[str, object] | None = None,
        expect_success: bool = True,
        project_dir: Path | None = None,
    ) -> object:
        os.environ["CDC_SCHEMA"] = schema
        full = [
            *args,
            "--project-dir",
            str(project_dir or SAMPLES_DIR),
            "--profiles-dir",
            str(PROJECT_DIR / "profiles"),
            "--target",
            "local",
        ]
        if project_dir is not None:
            # a copy of the project (cdc_simulator/project_copy.py) keeps its own manifest and logs
            full += ["--target-path", str(project_dir / "target")]
            full += ["--log-path", str(project_dir / "logs")]
        if vars:
            full += ["--vars", json.dumps(vars)]
        # as `cdc-dbt` does: the code fingerprint that lets a run keep unchanged views
        set_code_fingerprint(project_dir or SAMPLES_DIR, full, settings=settings)
        result = dbtRunner().invoke(full)
        if expect_success:
            assert result.success, f"dbt {' '.join(args)} failed: {result.exception}"
        return result

    return run


@pytest.fixture(scope="session")
def sample_build(run_dbt: DbtRunner) -> object:
    """One `dbt build` of the shipped samples (every format's sample tables, schema
    `sample`), shared by the sample scenarios of every format: one build, not one each."""
    return run_dbt(["build"], schema="sample")
