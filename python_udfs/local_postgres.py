"""A throw-away PostgreSQL on loopback for the `postgres` target's Hive metastore.

    python -m python_udfs.local_postgres start --dir /tmp/cdc-pg --port 55432
    python -m python_udfs.local_postgres stop --dir /tmp/cdc-pg

For trying the shared metastore and for its test, not for production (trust authentication,
loopback only). It uses Debian's PostgreSQL server binaries (package `postgresql`) and the
metastore needs Debian's JDBC driver (package `libpostgresql-jdbc-java`); what is missing is
said with the command that installs it. PostgreSQL refuses to run as root: as root, every
server command runs as the OS user `postgres` (which the Debian package creates) through
`runuser`, and the data folder is handed to that user.
"""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

JDBC_JAR = Path("/usr/share/java/postgresql.jar")
SERVER_USER = "postgres"
DATABASE = "metastore"
ROLE = "cdc"


class MissingPrerequisite(RuntimeError):
    """Something the local PostgreSQL needs is not installed; the message says what to run."""


def server_binaries() -> Path:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    raise MissingPrerequisite(
        "PostgreSQL server binaries (initdb, pg_ctl) not found: "
        "apt-get install postgresql (Debian/Ubuntu), or put them on PATH"
    )


def jdbc_jar() -> Path:
    """The PostgreSQL JDBC driver the metastore loads (CDC_METASTORE_JDBC_JAR overrides)."""
    jar = Path(os.environ.get("CDC_METASTORE_JDBC_JAR", JDBC_JAR))
    if not jar.is_file():
        raise MissingPrerequisite(
            f"the PostgreSQL JDBC driver {jar} is missing: apt-get install "
            "libpostgresql-jdbc-java (Debian/Ubuntu), or set CDC_METASTORE_JDBC_JAR to the jar"
        )
    return jar


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError as error:
        raise MissingPrerequisite(
            f"PostgreSQL does not run as root and there is no OS user {SERVER_USER!r}: "
            "apt-get install postgresql creates it"
        ) from error
    return ["runuser", "-u", SERVER_USER, "--", *command]


@dataclass(frozen=True)
class LocalPostgres:
    data_dir: Path
    port: int

    @property
    def jdbc_url(self) -> str:
        return f"jdbc:postgresql://127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *command: str) -> None:
        result = subprocess.run(
            _as_server_user(list(command)), capture_output=True, text=True, timeout=120
        )
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")

    def start(self) -> LocalPostgres:
        """initdb (first time), start on 127.0.0.1:port, create the metastore database."""
        binaries = server_binaries()
        cluster = self.data_dir / "cluster"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            user = pwd.getpwnam(SERVER_USER)
            os.chown(self.data_dir, user.pw_uid, user.pw_gid)
        fresh = not (cluster / "PG_VERSION").is_file()
        if fresh:
            self._run(
                str(binaries / "initdb"),
                "-D",
                str(cluster),
                "-U",
                ROLE,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
            )
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.data_dir}"
        self._run(
            str(binaries / "pg_ctl"),
            "-D",
            str(cluster),
            "-o",
            options,
            "-l",
            str(self.data_dir / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        if fresh:
            self._run(
                str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", ROLE,
                DATABASE,
            )  # fmt: skip
        return self

    def stop(self) -> None:
        """Fast shutdown (rolls back open transactions), waiting at most 60 s."""
        binaries = server_binaries()
        self._run(
            str(binaries / "pg_ctl"), "-D", str(self.data_dir / "cluster"), "-m", "fast",
            "-w", "-t", "60", "stop",
        )  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m python_udfs.local_postgres")
    parser.add_argument("action", choices=("start", "stop"))
    parser.add_argument("--dir", type=Path, required=True, help="data folder (created)")
    parser.add_argument("--port", type=int, default=55432, help="loopback port (start)")
    options = parser.parse_args(argv)
    server = LocalPostgres(options.dir.resolve(), options.port)
    try:
        if options.action == "start":
            jdbc_jar()
            server.start()
            print(f"export CDC_TARGET=postgres CDC_METASTORE_URL={server.jdbc_url}")
        else:
            server.stop()
    except MissingPrerequisite as error:
        print(f"local_postgres: {error}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
