"""`cdc-dbt serve`: a SQL endpoint on the project's own Spark session.

    cdc-dbt serve [--host 127.0.0.1] [--port 10000] [--target local]

Builds the session exactly as `cdc-dbt build` does (the target's `server_side_parameters`,
python_udfs shipped, the Python UDFs registered), then starts Spark's Thrift Server
(HiveServer2 protocol) on it with `HiveThriftServer2.startWithContext` through the JVM
gateway. Single-session mode (`spark.sql.hive.thriftServer.singleSession`) makes every client
connection share this session, so the Python UDFs and temporary functions registered here are
visible to beeline, JDBC/ODBC tools, PyHive and dbt-spark's `thrift` method (target `thrift`).
The server runs until SIGTERM or Ctrl-C, then stops the server and the session.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from python_udfs.metastore_lock import derby_database, held_by_another_process, lock_message
from python_udfs.session import (
    SettingsError,
    build_spark_session,
    prepare_environment,
    spark_settings,
)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 10000
# how long the server may take to accept connections once started
READY_TIMEOUT_SECONDS = 120.0


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="cdc-dbt serve",
        description="Serve the project's Spark session over JDBC/ODBC (Spark Thrift Server).",
    )
    parser.add_argument(
        "--host",
        default=os.environ.get("CDC_THRIFT_HOST", DEFAULT_HOST),
        help="address to listen on (default $CDC_THRIFT_HOST or 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("CDC_THRIFT_PORT", DEFAULT_PORT)),
        help="TCP port (default $CDC_THRIFT_PORT or 10000)",
    )
    parser.add_argument(
        "--target",
        default=None,
        help="the session target whose settings build Spark (default: as cdc-dbt, `local`)",
    )
    return parser.parse_args(list(argv))


def port_open(host: str, port: int) -> bool:
    """Does something accept TCP connections on host:port?"""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        return probe.connect_ex((host, port)) == 0


def hive_settings(host: str, port: int, local_dir: Path) -> dict[str, str]:
    """HiveServer2 settings of the endpoint, set on the session before the server starts."""
    return {
        "hive.server2.transport.mode": "binary",
        "hive.server2.thrift.bind.host": host,
        "hive.server2.thrift.port": str(port),
        # per-query logs and scratch files of the server, beside this session's metastore
        "hive.server2.logging.operation.log.location": str(local_dir / "thrift" / "operation"),
        "hive.exec.local.scratchdir": str(local_dir / "thrift" / "scratch"),
    }


def serve(argv: Sequence[str], root: Path) -> int:
    """Run the endpoint until SIGTERM or SIGINT; 0 on a clean stop."""
    options = parse_args(argv)
    prepare_environment(root)
    try:
        target, settings = spark_settings(root / "profiles", options.target)
    except SettingsError as error:
        print(f"cdc-dbt serve: {error}", file=sys.stderr)
        return 2
    database = derby_database(settings)
    if database is not None and held_by_another_process(database):
        print(lock_message(database), file=sys.stderr)
        return 3
    if port_open(options.host, options.port):
        print(
            f"cdc-dbt serve: {options.host}:{options.port} is already in use; "
            "choose another with --port or CDC_THRIFT_PORT",
            file=sys.stderr,
        )
        return 2
    # static: it must be set when the session is created
    settings = {
        **settings,
        "spark.sql.hive.thriftServer.singleSession": "true",
        # a server's log is no terminal: no progress bars
        "spark.ui.showConsoleProgress": "false",
    }
    spark = build_spark_session(settings)
    local_dir = Path(os.environ["CDC_LOCAL_DIR"])
    for key, value in hive_settings(options.host, options.port, local_dir).items():
        spark.conf.set(key, value)

    stop = threading.Event()

    def request_stop(signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)

    jvm = spark.sparkContext._jvm
    assert jvm is not None
    server_class = jvm.org.apache.spark.sql.hive.thriftserver.HiveThriftServer2
    server = server_class.startWithContext(spark._jsparkSession.sqlContext())
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while not port_open(options.host, options.port):
        if stop.is_set() or time.monotonic() > deadline:
            print(
                f"cdc-dbt serve: the Thrift Server did not listen on {options.host}:"
                f"{options.port} within {READY_TIMEOUT_SECONDS:.0f} s",
                file=sys.stderr,
            )
            server.stop()
            spark.stop()
            return 1
        time.sleep(0.2)
    schema = os.environ.get("CDC_SCHEMA", "cdc")
    print(
        f"cdc-dbt serve: listening on jdbc:hive2://{options.host}:{options.port}/{schema} "
        f"(target {target}, single session, Python UDFs registered); SIGTERM or Ctrl-C stops it",
        flush=True,
    )
    while not stop.wait(1.0):
        pass
    print("cdc-dbt serve: stopping", flush=True)
    server.stop()
    spark.stop()
    return 0
