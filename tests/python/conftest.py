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


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook; `-p no:xdist` runs without it
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With pytest-xdist (bin/test), every test module is one unit of work, kept in one
    process so its module fixtures build once; the modules that read the shared sample build
    (`*_sample.py`) are one unit together, so `sample_build` runs once."""
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "sample modules" if path.endswith("_sample.py") else path

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
    Each scenario passes its own schema so scenarios never see each other's tables.
    """
    import json

    from dbt.cli.main import dbtRunner

    def run(
        args: Sequence[str],
        *,
        schema: str,
        vars: dict[str, object] | None = None,
        expect_success: bool = True,
    ) -> object:
        os.environ["CDC_SCHEMA"] = schema
        full = [
            *args,
            "--project-dir",
            str(PROJECT_DIR),
            "--profiles-dir",
            str(PROJECT_DIR / "profiles"),
            "--target",
            "local",
        ]
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
