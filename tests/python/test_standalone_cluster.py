"""The `cluster` target on a real Spark standalone cluster, equal to a local build row for row.

A master and one worker start on loopback from the Spark that pyspark ships (`spark-class
org.apache.spark.deploy.master.Master` / `...worker.Worker`). A tiny landed Qlik table is
built twice into one metastore (embedded Derby in a folder of this test, one process at a
time): `cdc-dbt run --target cluster` with `spark://127.0.0.1:<port>` (schema cl_cluster), the
driver in the cdc-dbt process, one executor on the worker running the project's Python; then
`cdc-dbt run` on the local target (schema cl_local), in whose process the comparisons run
after it (one process and Spark start fewer). Then:

- images, history, current state, change log and `employees_as_of` at several points are
  equal row for row (the columns that say when a row was loaded aside);
- the Python UDFs ran in the executor: its log on the worker shows python_udfs.zip fetched and
  Python workers' timings (`ArrowPythonUDTFRunner: Times: total = ...`, logged for the Python
  table function cdc_landed_files; the scalar Arrow UDFs log no such line). In client mode a
  standalone driver runs no tasks, so every UDF call, decode_change_mask included, ran on the
  worker, and the outputs equal the local build's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from interpreted import NO_CODEGEN_JAVA_OPTIONS, PROFILE_JAVA_OPTIONS
from loopback import free_port

from benchmarks.standalone_cluster import Cluster
from cdc_simulator.project_copy import SAMPLES_DIR
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, Simulation, simulate

pytestmark = [pytest.mark.e2e]

PROJECT_DIR = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "kill_driver.py"
LOCAL, CLUSTER = "cl_local", "cl_cluster"
START_SECONDS = 120
BUILD_SECONDS = 900
TABLES: dict[str, Any] = {
    "employees": {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": ["employee_id"],
    },
}
COMPARED = {
    "int_employees__change_images": "select * except (loaded_at)",
    "dim_employees_history": "select * except (change_loaded_at)",
    "dim_employees_current": "select * except (change_loaded_at)",
    "fct_cdc_changes": "select * except (loaded_at)",
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("standalone")
    port = free_port()
    running = Cluster(f"spark://127.0.0.1:{port}", folder / "work", folder, START_SECONDS)
    running.work_dir.mkdir()
    try:
        running.start_master(port)
        running.start_worker(cores=1, memory="1500m")
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def simulation() -> Simulation:
    return simulate(40, keys=12, seed=20261125, tables=(EMPLOYEES,))


def environment(local_dir: Path, schema: str) -> dict[str, str]:
    """The local build's: without Java code generation (interpreted.py), the cluster's
    keeps Spark's defaults; equal answers either way."""
    return {
        **os.environ,
        "CDC_LOCAL_DIR": str(local_dir),
        "CDC_SCHEMA": schema,
        "CDC_WARM_UP": "0",
        "CDC_SPARK_MASTER": "local[1]",
        "CDC_SHUFFLE_PARTITIONS": "2",
        "CDC_DRIVER_MEMORY": "1g",
        "CDC_DRIVER_JAVA_OPTIONS": NO_CODEGEN_JAVA_OPTIONS,
        "SPARK_LOCAL_IP": "127.0.0.1",
        "DBT_TARGET_PATH": str(local_dir / "target"),
        "DBT_LOG_PATH": str(local_dir / "logs"),
    }


def cluster_environment(local_dir: Path, schema: str, cluster: Cluster) -> dict[str, str]:
    """The cluster target on the same metastore and warehouse as the local build."""
    return {
        **environment(local_dir, schema),
        "CDC_TARGET": "cluster",
        "CDC_SPARK_MASTER": cluster.master_url,
        "CDC_SPARK_APP_NAME": "cdc-history-cluster-test",
        "CDC_WAREHOUSE_DIR": str(local_dir / "warehouse"),
        "CDC_METASTORE_URL": f"jdbc:derby:;databaseName={local_dir}/metastore_db;create=true",
        # the metastore's home, and the JIT setting the target has by default
        "CDC_DRIVER_JAVA_OPTIONS": f"-Dderby.system.home={local_dir} {PROFILE_JAVA_OPTIONS}",
        "CDC_EXECUTOR_PYTHON": sys.executable,
        "CDC_EXECUTOR_MEMORY": "1g",
        "CDC_EXECUTOR_CORES": "1",
        "CDC_CORES_MAX": "1",
        "CDC_THREADS": "1",
    }


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DRIVER), *args],
        cwd=SAMPLES_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
    )


@pytest.fixture(scope="module")
def builds(
    cluster: Cluster, simulation: Simulation, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    local_dir = tmp_path_factory.mktemp("cluster_local")
    landing = tmp_path_factory.mktemp("cluster_landing")
    write_parquet(
        landing, emit(simulation.changes, (EMPLOYEES,)), simulation.baseline, tables=(EMPLOYEES,)
    )
    dbt_vars = json.dumps(
        {
            "qlik_ct_landing": "files",
            "qlik_ct_landing_root": str(landing),
            "qlik_ct_landing_format": "parquet",
            "qlik_ct_schema": "cl_raw",
            "cdc_tables": TABLES,
        }
    )
    points = [change.change_seq for change in simulation.changes[5::10]]
    assert all(point.isdigit() for point in points), points  # pasted into SQL
    queries = {name: f"{select} from {{schema}}.{name}" for name, select in COMPARED.items()} | {
        f"employees_as_of('{point}')": f"select * from {{schema}}.employees_as_of('{point}')"
        for point in [*points, "latest"]
    }
    statements = [
        arg
        for query in queries.values()
        for schema in (LOCAL, CLUSTER)
        for arg in (
            "--after",
            f"select to_json(struct(*)) as row from ({query.format(schema=schema)}) order by 1",
        )
    ]
    dbt = ["--kill-after", "-", "run", "--vars", dbt_vars]
    # the cluster build, then the local build and the comparisons in the local build's process
    for env, args in (
        (cluster_environment(local_dir, CLUSTER, cluster), dbt),
        (environment(local_dir, LOCAL), statements + dbt),
    ):
        result = run(env, *args)
        assert result.returncode == 0, (
            f"{env['CDC_SCHEMA']}: " + result.stdout[-4000:] + result.stderr[-3000:]
        )
    [printed] = [line for line in result.stdout.splitlines() if line.startswith("after [")]
    rows = json.loads(printed.removeprefix("after "))
    return {
        name: (rows[2 * position], rows[2 * position + 1]) for position, name in enumerate(queries)
    }


def test_cluster_build_equals_the_local_build(builds: dict[str, Any]) -> None:
    empty = [name for name, (local, _) in builds.items() if not local and "as_of" not in name]
    assert not empty, f"empty in the local build: {empty}"
    differing = [name for name, (local, remote) in builds.items() if local != remote]
    assert not differing, f"the cluster build differs from the local build: {differing}"


def test_python_udfs_ran_in_the_executor(cluster: Cluster, builds: dict[str, Any]) -> None:
    assert sorted(cluster.work_dir.glob("app-*")), f"no application ran ({cluster.work_dir})"
    logs = cluster.executor_logs()
    assert "python_udfs.zip" in logs, "the executor never fetched python_udfs.zip"
    assert "PythonUDTFRunner: Times: total" in logs, "no Python worker ran in the executor"
