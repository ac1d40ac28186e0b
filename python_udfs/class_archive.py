"""The Spark JVM's class archive: Java class-data sharing (CDS) for the driver of every command.

A `cdc-dbt` command starts a fresh JVM, and before its first model that JVM loads and verifies
some twenty thousand classes (Spark, Hive's metastore client, DataNucleus, Derby, Parquet):
about 10 of the 25 s a command pays before it does any work (BENCHMARKS.md section 24). A
dynamic CDS archive (`-XX:ArchiveClassesAtExit`, JDK 13+) holds those classes already parsed
and verified; a JVM started with `-XX:SharedArchiveFile` maps it instead of loading them.
On Java 25 or newer (the runtime the project installs, python_udfs/java_runtime.py) it is an
ahead-of-time cache instead (`-XX:AOTCacheOutput`, then `-XX:AOTCache`; JEP 483, 514, 515):
the classes loaded and linked, and the method profiles of the workload, so the JIT compiler
starts from them: a cold build of the OpenEdge samples used about a quarter less CPU than on
Java 17 with its CDS archive (BENCHMARKS.md section 47).

`create_archive()` (`python -m python_udfs.class_archive`, run by the set-up, bin/_bootstrap.sh,
when the archive is missing) starts a session on a throwaway metastore, runs a workload that
touches what a build touches (the metastore, Parquet tables and views, the Python UDFs and
table function, joins, windows, aggregates) and stops; the JVM writes the archive as it exits.
`with_class_archive()` adds the archive to a session's driver options when it exists.

The archive is a cache, never a requirement: it lives outside the project (CDC_CLASS_ARCHIVE_DIR,
default ~/.cache/cdc-history, about 250 MB), is named by what it depends on (the Java runtime,
pyspark's jars with their sizes and times, the driver's extra class path), and a JVM whose
class path or settings do not match it ignores it and loads its classes as before (its CDS
and AOT messages are turned off, so nothing is printed). CDC_CLASS_ARCHIVE=off leaves it out.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

JAVA_OPTIONS = "spark.driver.extraJavaOptions"
# The settings that decide the driver JVM's class path (the archive records it).
CLASS_PATH_SETTINGS = ("spark.driver.extraClassPath", "spark.jars")
# CDS's own log lines (a missing or mismatched archive, classes it could not archive) off.
QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off"
# The same for an AOT cache (Java 25+), whose lines are tagged aot (and cds).
QUIET_AOT = "-Xlog:aot*=off -Xlog:cds*=off"
# The first Java feature release whose AOT cache is made in one run (-XX:AOTCacheOutput).
AOT_CACHE_SINCE = 25
# The driver options that choose an archive or cache: a caller that sets one keeps it.
CHOSEN = ("-XX:SharedArchiveFile", "-XX:ArchiveClassesAtExit", "-XX:AOTCache", "-XX:AOTMode")


def archive_enabled() -> bool:
    """False when CDC_CLASS_ARCHIVE is off (or 0, false, no)."""
    value = os.environ.get("CDC_CLASS_ARCHIVE", "on").strip().lower()
    return value not in ("off", "0", "false", "no")


def archive_dir() -> Path:
    """$CDC_CLASS_ARCHIVE_DIR, else $XDG_CACHE_HOME/cdc-history, else ~/.cache/cdc-history."""
    from python_udfs.java_runtime import user_cache_dir

    explicit = os.environ.get("CDC_CLASS_ARCHIVE_DIR")
    return Path(explicit) if explicit else user_cache_dir()


def java_executable() -> Path | None:
    """The java pyspark starts: $JAVA_HOME/bin/java, else the first java on PATH."""
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    return Path(found).resolve() if found and Path(found).exists() else None


def uses_aot_cache(java: Path) -> bool:
    """Whether the runtime of this `java` (its folder's parent holds `release`) makes an AOT
    cache rather than a CDS archive: Java AOT_CACHE_SINCE or newer."""
    from python_udfs.java_runtime import feature_version

    version = feature_version(java.parent.parent)
    return version is not None and version >= AOT_CACHE_SINCE


def _spark_jars() -> Path | None:
    """pyspark's jars folder, found without importing pyspark."""
    import importlib.util

    spec = importlib.util.find_spec("pyspark")
    if spec is None or spec.origin is None:
        return None
    jars = Path(spec.origin).parent / "jars"
    return jars if jars.is_dir() else None


def archive_path(settings: Mapping[str, str]) -> Path | None:
    """Where the archive for these settings is (or would be); None without Java or pyspark.

    Its name is a digest of what the archived classes come from: the Java runtime (path,
    size, modification time), pyspark's jars (their folder, which the JVM's class path
    names, and each jar's name, size and modification time) and the class-path settings
    (with the size and time of each file they name). The JVM checks each class-path jar's
    size and modification time against the archive and ignores, in silence, an archive
    whose jars differ: so reinstalling pyspark at the same path (a fresh virtualenv, whose
    jars are as large as before but newer) names another archive, as upgrading does (create
    it with the set-up)."""
    java, jars = java_executable(), _spark_jars()
    if java is None or jars is None:
        return None
    digest = hashlib.sha256()
    digest.update(f"{java}\0{_file_stamp(java)}\n".encode())
    digest.update(f"{jars.resolve()}\n".encode())  # the class path names the jars' folder
    for jar in sorted(jars.iterdir()):
        digest.update(f"{jar.name}\0{_file_stamp(jar)}\n".encode())
    for key in CLASS_PATH_SETTINGS:
        value = settings.get(key, "")
        digest.update(f"{key}={value}\n".encode())
        for entry in (part for part in re.split(r"[,:]", value) if part):
            digest.update(f"{entry}\0{_file_stamp(Path(entry))}\n".encode())
    suffix = "aot" if uses_aot_cache(java) else "jsa"
    return archive_dir() / f"spark-driver-{digest.hexdigest()[:16]}.{suffix}"


def _file_stamp(path: Path) -> str:
    """A file's size and modification time (what the JVM compares), or "-" when missing."""
    try:
        stat = path.stat()
    except OSError:
        return "-"
    return f"{stat.st_size}\0{stat.st_mtime_ns}"


def with_class_archive(settings: Mapping[str, str]) -> dict[str, str]:
    """The settings with the archive added to the driver's Java options, when it exists and
    CDC_CLASS_ARCHIVE is not off; otherwise unchanged."""
    result = dict(settings)
    if not archive_enabled():
        return result
    options = result.get(JAVA_OPTIONS, "")
    if any(option in options for option in CHOSEN):
        return result  # the caller chose its archive (create_archive writes one)
    path = archive_path(settings)
    if path is None or not path.is_file():
        return result
    use = (
        f"-XX:AOTCache={path} {QUIET_AOT}"
        if path.suffix == ".aot"
        else f"-XX:SharedArchiveFile={path} {QUIET}"
    )
    result[JAVA_OPTIONS] = f"{options} {use}".strip()
    return result


# What the archiving session runs: one statement of each kind a build sends, so the classes
# they load are archived (any a command loads beyond these it loads as before). `:folder` is
# a parameter (the landed folder), bound by Spark, never pasted into the text.
WORKLOAD = (
    "create database if not exists cdc_class_archive",
    "create table cdc_class_archive.t using parquet partitioned by (part) as"
    " select id, cast(id as string) as name, current_timestamp() as at, id % 2 as part"
    " from range(0, 1000, 1, 2)",
    "insert into cdc_class_archive.t select id, null, null, 1 from range(5)",
    "alter table cdc_class_archive.t set tblproperties ('cdc.written' = 'x')",
    "create or replace view cdc_class_archive.v as"
    " select t.*, row_number() over (partition by part order by id desc) as recency,"
    " max(id) over (partition by name) as top from cdc_class_archive.t",
    "show table extended in cdc_class_archive like '*'",
    "describe extended cdc_class_archive.v",
    "show tblproperties cdc_class_archive.t",
    "select v.part, count(*), max_by(v.name, v.id), collect_list(v.at)[0],"
    " max(to_json(struct(v.*))), sum(xxhash64(v.name)) from cdc_class_archive.v"
    " left anti join (select 1 as id) as gone on v.id = gone.id"
    " group by v.part",
    "select * from cdc_landed_files(:folder, 'parquet', null)",
    "drop database cdc_class_archive cascade",
)


# How long create_archive waits for the archiving JVM to write the archive and exit.
ARCHIVE_EXIT_SECONDS = 600.0


def archiving_settings(
    settings: Mapping[str, str], work: Path, partial: Path, aot: bool = False
) -> dict[str, str]:
    """The settings of the session that writes the archive to `partial` (an AOT cache when
    `aot`, else a CDS archive): the target's class
    path and JVM options, but local mode and a Derby metastore and warehouse under `work`, so
    a cluster target's master or a shared metastore is never touched."""
    own = {
        key: value
        for key, value in settings.items()
        if not key.startswith(("spark.hadoop.javax.jdo.", "spark.hadoop.datanucleus."))
    }
    own["spark.master"] = "local[2]"
    own["spark.sql.warehouse.dir"] = str(work / "warehouse")
    own["spark.ui.showConsoleProgress"] = "false"
    own["spark.hadoop.javax.jdo.option.ConnectionURL"] = (
        f"jdbc:derby:;databaseName={work / 'metastore_db'};create=true"
    )
    options = " ".join(
        option
        for option in own.get(JAVA_OPTIONS, "").split()
        if not option.startswith((*CHOSEN, "-Dderby.system.home"))
    )
    write = (
        f"-XX:AOTCacheOutput={partial} {QUIET_AOT}"
        if aot
        else f"-XX:ArchiveClassesAtExit={partial} {QUIET}"
    )
    own[JAVA_OPTIONS] = f"-Dderby.system.home={work} {options} {write}"
    return own


def create_archive(settings: Mapping[str, str], path: Path) -> Path:
    """Start a session with these settings (archiving_settings) on a throwaway metastore
    and warehouse, run WORKLOAD and the UDFs' warm-up, stop it, and move the archive its JVM
    wrote at exit to `path` (atomically: several processes may create it at once)."""
    from python_udfs.session import build_spark_session, stop_spark, warm_up

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cdc-class-archive-") as scratch:
        work = Path(scratch)
        partial = path.parent / f".{path.name}.{os.getpid()}.partial"
        own = archiving_settings(settings, work, partial, aot=path.suffix == ".aot")
        local_dir = os.environ.get("CDC_LOCAL_DIR")
        os.environ["CDC_LOCAL_DIR"] = str(work)
        log = work / "jvm.log"
        # what the JVMs print (Spark's start, the AOT cache's assembly, which echoes its
        # whole class path) goes to a log, shown only when no archive comes of it
        with _output_to(log):
            try:
                spark = build_spark_session(own)
                warm_up(spark)
                folder = work / "landed"
                spark.range(3).write.parquet(str(folder))
                for statement in WORKLOAD:
                    spark.sql(statement, args={"folder": str(folder)}).collect()
            except BaseException:
                stop_spark(ARCHIVE_EXIT_SECONDS)
                partial.unlink(missing_ok=True)
                raise
            finally:
                if local_dir is None:
                    os.environ.pop("CDC_LOCAL_DIR", None)
                else:
                    os.environ["CDC_LOCAL_DIR"] = local_dir
            # the JVM writes the archive as it exits: 20 to 40 s on two cores
            exited = stop_spark(ARCHIVE_EXIT_SECONDS)
        if not exited or not partial.is_file() or partial.stat().st_size == 0:
            partial.unlink(missing_ok=True)
            tail = log.read_text(errors="replace").splitlines()[-5:] if log.is_file() else []
            said = "".join(f"\n  {line[:300]}" for line in tail)
            raise RuntimeError(f"the JVM wrote no class archive at {partial}{said}")
        os.replace(partial, path)
    prune_stale_archives(path)
    return path


@contextlib.contextmanager
def _output_to(log: Path) -> Iterator[None]:
    """This process's standard output and error (file descriptors 1 and 2, so the JVMs it
    starts inherit them) appended to `log` meanwhile."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    with log.open("ab") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


# An archive neither read nor written for this long is one no environment here uses any more.
STALE_DAYS = 14
# At most this many other archives are kept beside a new one, the most recently used: a
# machine that sets up fresh environments often (a CI runner's clones) names a new archive
# each time, and each is about 200 MB.
KEEP_OTHERS = 3


def prune_stale_archives(keep: Path, now: float | None = None) -> list[Path]:
    """Delete the other archives in `keep`'s folder that nothing has read or written for
    STALE_DAYS days, and beyond the KEEP_OTHERS most recently used, the rest too; an
    environment that still uses one had it mapped, which refreshes its access time (and one
    whose archive was pruned creates it again at its next set-up). Returns what it
    deleted, the least recently used first."""
    import time

    limit = (time.time() if now is None else now) - STALE_DAYS * 86400
    used: list[tuple[float, Path]] = []
    for other in (*keep.parent.glob("spark-driver-*.jsa"), *keep.parent.glob("spark-driver-*.aot")):
        if other == keep:
            continue
        try:
            stat = other.stat()
        except OSError:
            continue  # another process pruned it
        used.append((max(stat.st_atime, stat.st_mtime), other))
    used.sort(key=lambda item: item[0], reverse=True)
    deleted = []
    for position, (last_used, other) in enumerate(used):
        if last_used < limit or position >= KEEP_OTHERS:
            try:
                other.unlink()
            except OSError:
                continue  # another process pruned it, or it cannot be deleted: leave it
            deleted.append(other)
    deleted.reverse()  # the least recently used first
    return deleted


def main(argv: list[str] | None = None) -> int:
    """`python -m python_udfs.class_archive [--if-missing] [--target T]`: create the archive
    for the profile's target (default: the profile's default target)."""
    import argparse

    from python_udfs.session import prepare_environment, project_dir, spark_settings

    parser = argparse.ArgumentParser(prog="python -m python_udfs.class_archive")
    parser.add_argument("--if-missing", action="store_true", help="do nothing if it exists")
    parser.add_argument("--target", default=None, help="the profile target (default: its own)")
    args = parser.parse_args(argv)
    if not archive_enabled():
        print("class archive: CDC_CLASS_ARCHIVE is off, nothing to do")
        return 0
    root = project_dir()
    prepare_environment(root)
    settings = spark_settings(root / "profiles", args.target)[1]
    path = archive_path(settings)
    if path is None:
        print("class archive: no Java or no pyspark found", file=sys.stderr)
        return 2
    if args.if_missing and path.is_file():
        return 0
    print(f"==> creating the Spark JVM's class archive (once, about a minute and a half): {path}")
    try:
        create_archive(settings, path)
    except (OSError, RuntimeError) as error:
        print(f"class archive: not created: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
