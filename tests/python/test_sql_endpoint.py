"""The SQL endpoint: `cdc-dbt serve` and the `thrift` target, with real clients over loopback.

`cdc-dbt serve` runs as a subprocess on a free loopback port, with a metastore of its own
(embedded Derby: the server holds it, as a build would). Then, all over TCP:

1. `cdc-dbt build --target thrift` builds a tiny landed Qlik table through the endpoint
   (dbt-spark `method: thrift`, PyHive): the on-run-start guard finds the Python UDFs in the
   server's session (single-session mode), the models that call them build, and dbt's data
   and unit tests run through the endpoint and pass (every node reported in run_results.json,
   none failed or skipped);
2. beeline (the JDBC client pyspark ships) calls a Python UDF and reads `employees_as_of(point)`;
3. PyHive reads `employees_as_of(point)` at several points, equal to the simulator's state;
4. SIGTERM stops the server by itself (exit code 0), within a bound.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from loopback import free_port

from cdc_simulator.project_copy import SAMPLES_DIR
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, Simulation, simulate

pytestmark = [pytest.mark.e2e]

PROJECT_DIR = Path(__file__).resolve().parents[2]
SCHEMA = "endpoint"
SERVER_START_SECONDS = 240
BUILD_SECONDS = 600
STOP_SECONDS = 60
DBT_VARS: dict[str, Any] = {
    "qlik_ct_landing": "files",
    "qlik_ct_landing_format": "parquet",
    "qlik_ct_schema": f"{SCHEMA}_raw",
    "cdc_tables": {
        "employees": {
            "source_system": "qlik_ct",
            "source_schema": "HR",
            "key_columns": ["employee_id"],
        },
    },
}


def environment(local_dir: Path, port: int) -> dict[str, str]:
    return {
        **os.environ,
        "CDC_LOCAL_DIR": str(local_dir),
        "CDC_SCHEMA": SCHEMA,
        "CDC_WARM_UP": "0",
        "CDC_SPARK_MASTER": "local[2]",
        "CDC_SHUFFLE_PARTITIONS": "2",
        "CDC_THRIFT_HOST": "127.0.0.1",
        "CDC_THRIFT_PORT": str(port),
        "DBT_TARGET_PATH": str(local_dir / "target"),
        "DBT_LOG_PATH": str(local_dir / "logs"),
    }


class Server:
    def __init__(self, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.process, self.port, self.log = process, port, log

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@pytest.fixture(scope="module")
def simulation() -> Simulation:
    return simulate(40, keys=12, seed=20261123, tables=(EMPLOYEES,))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    local_dir = tmp_path_factory.mktemp("endpoint_local")
    port = free_port()
    log = local_dir / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "python_udfs.cli", "serve", "--port", str(port)],
            cwd=SAMPLES_DIR,
            env=environment(local_dir, port),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    running = Server(process, port, log)
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while "cdc-dbt serve: listening on" not in log.read_text(errors="replace"):
            assert process.poll() is None, f"cdc-dbt serve exited early:\n{running.tail()}"
            assert time.monotonic() < deadline, f"cdc-dbt serve not up:\n{running.tail()}"
            time.sleep(0.5)
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def built(server: Server, simulation: Simulation, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tiny landing built and tested through the endpoint: `cdc-dbt build --target thrift`."""
    root = tmp_path_factory.mktemp("endpoint_landing")
    write_parquet(
        root, emit(simulation.changes, (EMPLOYEES,)), simulation.baseline, tables=(EMPLOYEES,)
    )
    client_dir = tmp_path_factory.mktemp("endpoint_client")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "python_udfs.cli",
            "build",
            "--target",
            "thrift",
            "--vars",
            json.dumps({**DBT_VARS, "qlik_ct_landing_root": str(root)}),
        ],
        cwd=SAMPLES_DIR,
        env=environment(client_dir, server.port),
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "Completed successfully" in result.stdout
    nodes = json.loads((client_dir / "target" / "run_results.json").read_text())["results"]
    statuses: dict[str, list[str]] = {}
    for node in nodes:
        kind = node["unique_id"].split(".")[0]
        statuses.setdefault(kind, []).append(node["status"])
    # models and the tests of their columns, run by the server's session
    assert statuses.get("model") and set(statuses["model"]) == {"success"}, statuses
    assert statuses.get("test") and set(statuses["test"]) == {"pass"}, statuses
    assert statuses.get("unit_test") and set(statuses["unit_test"]) == {"pass"}, statuses
    # the thrift target starts no Spark of its own: no metastore in the client's folder
    assert not (client_dir / "metastore_db").exists()


def expected_rows(simulation: Simulation, point: str) -> list[tuple[str, ...]]:
    state = simulation.state_at(point)["employees"]
    return sorted(tuple(str(value) for value in row) for row in state.values())


def as_of_query(point: str) -> str:
    assert point.isdigit(), f"not a change sequence: {point!r}"  # pasted into SQL
    columns = ", ".join(EMPLOYEES.column_names)
    return f"select {columns} from {SCHEMA}.employees_as_of('{point}')"


def beeline(server: Server, statements: str) -> list[str]:
    """Run statements with the beeline that pyspark ships; the output's CSV lines."""
    import pyspark

    spark_home = Path(pyspark.__file__).parent
    command = spark_home / "bin" / "beeline"
    assert command.is_file(), f"pyspark ships no beeline at {command}"
    result = subprocess.run(
        [
            str(command),
            "-u",
            f"jdbc:hive2://127.0.0.1:{server.port}/{SCHEMA}",
            "-n",
            "cdc",
            "--silent=true",
            "--showHeader=false",
            "--outputformat=csv2",
            "-e",
            statements,
        ],
        env={**os.environ, "SPARK_HOME": str(spark_home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    # --silent still echoes the prompt with the statement: keep the result lines only; csv2
    # with quoting off brackets a value with NUL characters
    return [
        line.replace("\x00", "")
        for line in result.stdout.splitlines()
        if not line.startswith("0: jdbc:")
    ]


def test_beeline_sees_the_python_udfs_and_the_table_function(
    server: Server, built: None, simulation: Simulation
) -> None:
    point = simulation.changes[25].change_seq
    lines = beeline(
        server,
        "select decode_change_mask(unhex('06'), 8) as mask;"
        f" select count(*) from ({as_of_query(point)}) as rows_at_point;",
    )
    assert lines[0] == '{"positions":[1,2],"error":null}', lines
    assert lines[1] == str(len(expected_rows(simulation, point))), lines


def test_pyhive_reads_as_of_at_several_points(
    server: Server, built: None, simulation: Simulation
) -> None:
    from pyhive import hive

    points = [change.change_seq for change in simulation.changes[5::12]]
    connection = hive.connect(host="127.0.0.1", port=server.port, username="cdc")
    try:
        cursor = connection.cursor()
        for point in points:
            cursor.execute(as_of_query(point))
            got = sorted(tuple(str(value) for value in row) for row in cursor.fetchall())
            assert got == expected_rows(simulation, point), point
    finally:
        connection.close()


def test_sigterm_stops_the_server(server: Server, built: None) -> None:
    server.process.send_signal(signal.SIGTERM)
    try:
        code = server.process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"cdc-dbt serve still running {STOP_SECONDS} s after SIGTERM")
    assert code == 0, server.tail()
    assert "cdc-dbt serve: stopping" in server.tail()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        assert probe.connect_ex(("127.0.0.1", server.port)) != 0, "the port still answers"
