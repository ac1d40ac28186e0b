"""Is the embedded Derby metastore already booted by another process? Asked before Spark starts.

Embedded Derby lets one process in. A second Spark that boots the same database does not fail
at once: Hive retries, logs thousands of lines, and the real cause ("Another instance of Derby
may have already booted the database") ends up buried. So `cdc-dbt` asks first: a booted
Derby database holds an exclusive lock on `<database>/dbex.lck` (Java's FileChannel.tryLock,
an fcntl record lock on Linux and macOS), which this module probes without keeping. A lock
file left behind by a crashed process holds no lock and is not reported.

A holder may be on its way out: a command that has just ended (its JVM releases Derby a moment
after its Python returned, unless it is `cdc-dbt`, which waits for that). So the check waits,
bounded (CDC_METASTORE_WAIT_SECONDS, default 20), for the lock to go before reporting it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path

CONNECTION_URL = "spark.hadoop.javax.jdo.option.ConnectionURL"
_DERBY_URL = re.compile(r"jdbc:derby:(?P<rest>.*)", re.IGNORECASE)
_SYSTEM_HOME = re.compile(r"-Dderby\.system\.home=(\S+)")
WAIT_VARIABLE = "CDC_METASTORE_WAIT_SECONDS"
DEFAULT_WAIT_SECONDS = 20.0


def derby_database(settings: Mapping[str, str]) -> Path | None:
    """The embedded Derby database directory the session settings point at, or None when the
    metastore is not embedded Derby (a metastore service, PostgreSQL, Derby over network)."""
    url = settings.get(CONNECTION_URL)
    if url is None or settings.get("spark.hadoop.hive.metastore.uris"):
        return None
    match = _DERBY_URL.fullmatch(url.strip())
    if match is None or match.group("rest").startswith("//"):
        return None
    parts = match.group("rest").split(";")
    name = parts[0]
    for attribute in parts[1:]:
        key, _, value = attribute.partition("=")
        if key.strip().lower() == "databasename":
            name = value
    if not name or name.startswith("memory:"):
        return None
    path = Path(name)
    if not path.is_absolute():
        home = _SYSTEM_HOME.search(settings.get("spark.driver.extraJavaOptions", ""))
        path = Path(home.group(1) if home else os.getcwd()) / path
    return path


def held_by_another_process(database: Path) -> bool:
    """True when another process has the database booted (holds dbex.lck's lock)."""
    lock_file = database / "dbex.lck"
    try:
        handle = os.open(lock_file, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EAGAIN):
            return True
        raise
    else:
        fcntl.lockf(handle, fcntl.LOCK_UN)
        return False
    finally:
        os.close(handle)


def wait_seconds(environ: Mapping[str, str] = os.environ) -> float:
    """How long to wait for another process to release the metastore: CDC_METASTORE_WAIT_SECONDS
    (a number of seconds, 0: do not wait), default 20. ValueError for anything else."""
    text = environ.get(WAIT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_WAIT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise ValueError(f"{WAIT_VARIABLE} must be a number of seconds (0 or more), got {text!r}")
    return seconds


def wait_until_released(
    database: Path,
    timeout: float,
    poll: float = 0.25,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """True as soon as no other process holds the database (at once when none does); False
    when one still holds it after `timeout` seconds, probing every `poll` seconds."""
    deadline = clock() + timeout
    while held_by_another_process(database):
        left = deadline - clock()
        if left <= 0:
            return False
        sleep(min(poll, left))
    return True


def lock_message(database: Path, waited: float = 0.0) -> str:
    """The one line cdc-dbt prints when the metastore is taken (and stayed taken `waited`
    seconds)."""
    still = f", still after {waited:g} s ({WAIT_VARIABLE})" if waited > 0 else ""
    return (
        f"cdc-dbt: another process (a build, a test run, a notebook) has the embedded metastore "
        f"{database} open{still}, and embedded Derby lets one process in: wait for it to end, "
        f"give this run its own CDC_LOCAL_DIR, or share a metastore database between processes "
        f"(docs/running-on-a-cluster.md: CDC_METASTORE_URL or CDC_METASTORE_URIS)"
    )
