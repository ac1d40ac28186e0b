"""Shared fixtures: one Spark session per pytest process (it takes ~8 s to start), built exactly
as `cdc-dbt` builds it (same profile, same UDF registration), in a metastore of its own.

bin/test runs two processes (pytest-xdist): each has its own Spark session, metastore, warehouse
and dbt target folder; pytest_xdist_make_scheduler keeps each test module in one process, and
the sample modules (`*_sample.py`, readers of `sample_build`) together."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from python_udfs.session import build_spark_session, prepare_environment, spark_settings

PROJECT_DIR = Path(__file__).resolve().parents[2]
# the pytest-xdist worker this process is (gw0, gw1, ...), or main without xdist
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")


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
    "test_landing_vendor_csv.py",
    "test_landing_csv_files.py",
    "test_sql_endpoint.py",
    "test_many_qlik_tables.py",
    "test_idm_xds.py",
    "test_entry_point.py",
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


@pytest.fixture(scope="session")
def spark_local_dir() -> Path:
    """A private metastore and warehouse for this test process, never the pipeline's own."""
    base = Path(os.environ.get("CDC_TEST_LOCAL_DIR", PROJECT_DIR / ".local" / "pytest"))
    local_dir = base if WORKER == "main" else base.with_name(f"{base.name}-{WORKER}")
    shutil.rmtree(local_dir, ignore_errors=True)
    local_dir.mkdir(parents=True)
    return local_dir


@pytest.fixture(scope="session")
def spark(spark_local_dir: Path) -> Iterator[object]:
    os.environ["CDC_LOCAL_DIR"] = str(spark_local_dir)
    os.environ["CDC_SPARK_MASTER"] = os.environ.get("CDC_TEST_SPARK_MASTER", "local[2]")
    os.environ["CDC_SHUFFLE_PARTITIONS"] = "2"
    # dbt's manifest, run results and logs of this process only
    os.environ["DBT_TARGET_PATH"] = str(PROJECT_DIR / "target" / f"pytest-{WORKER}")
    os.environ["DBT_LOG_PATH"] = str(PROJECT_DIR / "logs" / f"pytest-{WORKER}")
    prepare_environment(PROJECT_DIR)
    _target, settings = spark_settings(PROJECT_DIR / "profiles", "local")
    session = build_spark_session(settings)
    yield session
    session.stop()


DbtRunner = Callable[..., object]


@pytest.fixture(scope="session")
def run_dbt(spark: object) -> DbtRunner:
    """Run a dbt command in-process on the test session; fail the test if dbt fails.

    run_dbt(["build"], schema="scenario_x", vars={...}) -> dbtRunnerResult
    Each scenario passes its own schema so scenarios never see each other's tables;
    project_dir: a copy of the project with the scenario's own tables (project_copy.py).
    """
    import json

    from dbt.cli.main import dbtRunner

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
            str(project_dir or PROJECT_DIR),
            "--profiles-dir",
            str(PROJECT_DIR / "profiles"),
            "--target",
            "local",
        ]
        if project_dir is not None:
            # a copy of the project (project_copy.py) keeps its own manifest and logs
            full += ["--target-path", str(project_dir / "target")]
            full += ["--log-path", str(project_dir / "logs")]
        if vars:
            full += ["--vars", json.dumps(vars)]
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
