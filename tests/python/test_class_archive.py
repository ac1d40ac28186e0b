"""The Spark JVM's class archive (python_udfs/class_archive.py): where it is, what names it,
when a session's driver options map it, and the SQL its workload sends. No Spark here: the
session that maps it is tested in test_spark_udfs.py, and creating one (about a minute and a
half) is the set-up's step, which bin/test runs before pytest."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from python_udfs import class_archive
from python_udfs.class_archive import (
    JAVA_OPTIONS,
    QUIET,
    QUIET_AOT,
    WORKLOAD,
    archive_dir,
    archive_enabled,
    archive_path,
    archiving_settings,
    with_class_archive,
)


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake Java runtime and pyspark jars folder, and an archive folder of the test's own."""
    java = tmp_path / "jdk" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("#!/bin/sh\n")
    jars = tmp_path / "pyspark" / "jars"
    jars.mkdir(parents=True)
    (jars / "spark-core.jar").write_bytes(b"x" * 10)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    monkeypatch.setattr(class_archive, "_spark_jars", lambda: jars)
    monkeypatch.setenv("CDC_CLASS_ARCHIVE_DIR", str(tmp_path / "archives"))
    monkeypatch.delenv("CDC_CLASS_ARCHIVE", raising=False)
    return jars


def test_the_folder_is_the_users_cache_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CDC_CLASS_ARCHIVE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/srv/cache")
    assert archive_dir() == Path("/srv/cache/cdc-history")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert archive_dir() == Path.home() / ".cache" / "cdc-history"
    monkeypatch.setenv("CDC_CLASS_ARCHIVE_DIR", "/srv/jsa")
    assert archive_dir() == Path("/srv/jsa")


@pytest.mark.parametrize(
    ("value", "enabled"),
    [("on", True), ("", True), ("off", False), ("OFF", False), ("0", False), ("no", False)],
)
def test_cdc_class_archive_off_turns_it_off(
    monkeypatch: pytest.MonkeyPatch, value: str, enabled: bool
) -> None:
    monkeypatch.setenv("CDC_CLASS_ARCHIVE", value)
    assert archive_enabled() is enabled


def test_the_name_follows_the_runtime_the_jars_and_the_class_path(
    runtime: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new Java, a changed or added jar, the jars in another folder, or another driver
    class path names another archive (a JVM would refuse the old one); anything else keeps
    the name."""
    first = archive_path({})
    assert first is not None and first.parent == tmp_path / "archives"
    assert first.name.startswith("spark-driver-") and first.suffix == ".jsa"
    assert archive_path({"spark.sql.shuffle.partitions": "8"}) == first
    assert archive_path({"spark.driver.extraClassPath": "/usr/share/java/pg.jar"}) != first
    assert archive_path({"spark.jars": "/opt/extra.jar"}) != first
    (runtime / "spark-core.jar").write_bytes(b"x" * 11)
    second = archive_path({})
    assert second != first
    (runtime / "spark-sql.jar").write_bytes(b"y")
    assert archive_path({}) not in (first, second)
    java = tmp_path / "jdk" / "bin" / "java"
    java.write_text("#!/bin/sh\n# another build\n")
    assert archive_path({}) != first
    # the same jars reinstalled (same size, newer): the JVM would ignore the old archive
    before = archive_path({})
    jar = runtime / "spark-sql.jar"
    os.utime(jar, ns=(jar.stat().st_atime_ns, jar.stat().st_mtime_ns + 2_000_000_000))
    assert archive_path({}) != before
    # a driver class-path file replaced in place names another archive too
    driver_jar = tmp_path / "pg.jar"
    driver_jar.write_bytes(b"pg")
    with_driver_jar = archive_path({"spark.driver.extraClassPath": str(driver_jar)})
    os.utime(driver_jar, ns=(0, driver_jar.stat().st_mtime_ns + 2_000_000_000))
    assert archive_path({"spark.driver.extraClassPath": str(driver_jar)}) != with_driver_jar
    # the same jars in another environment (another checkout's .venv): another class path
    here = archive_path({})
    other = tmp_path / "other-venv" / "jars"
    other.parent.mkdir()
    runtime.rename(other)
    monkeypatch.setattr(class_archive, "_spark_jars", lambda: other)
    assert archive_path({}) != here


def test_no_java_or_no_pyspark_means_no_archive(
    runtime: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-such-jdk"))
    assert archive_path({}) is None
    assert with_class_archive({JAVA_OPTIONS: "-Xss4m"}) == {JAVA_OPTIONS: "-Xss4m"}
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    monkeypatch.setattr(class_archive, "_spark_jars", lambda: None)
    assert archive_path({}) is None


def test_an_existing_archive_is_added_to_the_driver_options(
    runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Missing: the settings as they are. Present: the driver's options map it, with CDS's
    messages off; the other settings unchanged. Off, or an archive the options already name
    (create_archive's own session): unchanged."""
    settings = {JAVA_OPTIONS: "-Dderby.system.home=.local -Xss4m", "spark.master": "local[2]"}
    assert with_class_archive(settings) == settings
    path = archive_path(settings)
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(b"archive")
    mapped = with_class_archive(settings)
    assert mapped == {
        JAVA_OPTIONS: f"-Dderby.system.home=.local -Xss4m -XX:SharedArchiveFile={path} {QUIET}",
        "spark.master": "local[2]",
    }
    assert settings[JAVA_OPTIONS] == "-Dderby.system.home=.local -Xss4m"  # not modified
    assert with_class_archive({}) == {JAVA_OPTIONS: f"-XX:SharedArchiveFile={path} {QUIET}"}
    for chosen in ("-XX:SharedArchiveFile=/a.jsa", "-XX:ArchiveClassesAtExit=/b.jsa"):
        assert with_class_archive({JAVA_OPTIONS: chosen}) == {JAVA_OPTIONS: chosen}
    monkeypatch.setenv("CDC_CLASS_ARCHIVE", "off")
    assert with_class_archive(settings) == settings


@pytest.mark.parametrize(("version", "suffix"), [("25.0.2", ".aot"), ("17.0.15", ".jsa")])
def test_java_25_makes_an_ahead_of_time_cache_instead(
    runtime: Path, tmp_path: Path, version: str, suffix: str
) -> None:
    """A runtime whose `release` says Java 25 or newer gets an AOT cache (made with
    -XX:AOTCacheOutput, mapped with -XX:AOTCache, its messages off); an older one (or one
    without `release`, as in the tests above) a CDS archive. A runtime upgraded in place
    to 25 names another file."""
    cds = archive_path({})
    assert cds is not None
    (tmp_path / "jdk" / "release").write_text(f'JAVA_VERSION="{version}"\n')
    path = archive_path({})
    assert path is not None and path.suffix == suffix
    assert path.stem == cds.stem if suffix == ".jsa" else path != cds
    path.parent.mkdir(parents=True)
    path.write_bytes(b"cache")
    mapped = with_class_archive({JAVA_OPTIONS: "-Xss4m"})[JAVA_OPTIONS]
    expected = (
        f"-XX:AOTCache={path} {QUIET_AOT}"
        if suffix == ".aot"
        else f"-XX:SharedArchiveFile={path} {QUIET}"
    )
    assert mapped == f"-Xss4m {expected}"
    for chosen in ("-XX:AOTCache=/a.aot", "-XX:AOTCacheOutput=/b.aot", "-XX:AOTMode=off"):
        assert with_class_archive({JAVA_OPTIONS: chosen}) == {JAVA_OPTIONS: chosen}


def test_the_archiving_session_writes_the_kind_asked_for(tmp_path: Path) -> None:
    """Its own metastore and warehouse; the target's options without any archive or cache
    they name; then the option that writes a CDS archive, or an AOT cache."""
    settings = {
        JAVA_OPTIONS: "-Dderby.system.home=.local -Xss4m -XX:AOTCache=/old.aot"
        " -XX:SharedArchiveFile=/old.jsa",
        "spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:postgresql://db/metastore",
        "spark.master": "spark://cluster:7077",
    }
    partial = tmp_path / ".spark-driver-x.aot.1.partial"
    aot = archiving_settings(settings, tmp_path, partial, aot=True)
    assert aot[JAVA_OPTIONS] == (
        f"-Dderby.system.home={tmp_path} -Xss4m -XX:AOTCacheOutput={partial} {QUIET_AOT}"
    )
    assert aot["spark.master"] == "local[2]"
    assert str(tmp_path / "metastore_db") in aot["spark.hadoop.javax.jdo.option.ConnectionURL"]
    cds = archiving_settings(settings, tmp_path, partial)
    assert cds[JAVA_OPTIONS] == (
        f"-Dderby.system.home={tmp_path} -Xss4m -XX:ArchiveClassesAtExit={partial} {QUIET}"
    )


def test_the_workloads_folder_is_a_parameter_not_text() -> None:
    """The landed folder reaches the workload's SQL as a bound parameter (`:folder`), so a
    path with quotes or backslashes can neither break a statement nor change it."""
    [statement] = [s for s in WORKLOAD if "cdc_landed_files" in s]
    assert "cdc_landed_files(:folder," in statement
    assert not [s for s in WORKLOAD if "{" in s or "'/" in s]


def test_a_folder_it_cannot_write_is_a_clear_message_not_a_traceback(
    runtime: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The set-up goes on without the archive (bin/_bootstrap.sh says so); this says why."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CDC_CLASS_ARCHIVE_DIR", str(blocker / "archives"))
    # main prepares the environment as cdc-dbt does: restored after the test
    for name in ("DBT_PROJECT_DIR", "DBT_PROFILES_DIR", "DBT_LOG_PATH", "DBT_TARGET_PATH"):
        monkeypatch.setenv(name, "recorded, so that undo removes what main sets")
        monkeypatch.delenv(name)
    for name in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
        monkeypatch.setenv(name, os.environ.get(name, sys.executable))
    monkeypatch.setenv("CDC_LOCAL_DIR", str(tmp_path / "local"))
    assert class_archive.main([]) == 2
    assert "class archive: not created:" in capsys.readouterr().err


def test_archives_nothing_has_used_for_two_weeks_are_pruned(tmp_path: Path) -> None:
    """Each reinstalled environment names a new archive (about 200 MB): creating one deletes
    the others in its folder that were neither read nor written for STALE_DAYS days, and
    keeps the new one, recent ones and files that are not archives."""
    keep = tmp_path / "spark-driver-new.jsa"
    recent = tmp_path / "spark-driver-recent.jsa"
    stale = tmp_path / "spark-driver-stale.jsa"
    stale_cache = tmp_path / "spark-driver-stale.aot"
    other = tmp_path / "notes.txt"
    for path in (keep, recent, stale, stale_cache, other):
        path.write_bytes(b"x")
    now = 1_900_000_000.0
    old = now - (class_archive.STALE_DAYS + 1) * 86400
    for path in (keep, stale, stale_cache, other):
        os.utime(path, (old, old))
    os.utime(recent, (now - 86400, old))  # mapped yesterday: still in use
    assert sorted(class_archive.prune_stale_archives(keep, now=now)) == [stale_cache, stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "notes.txt",
        "spark-driver-new.jsa",
        "spark-driver-recent.jsa",
    ]


def test_beyond_the_most_recently_used_others_are_pruned(tmp_path: Path) -> None:
    """A machine that sets up fresh environments often (a CI runner) names a new archive
    each time: besides the new one, only the KEEP_OTHERS most recently used are kept, even
    when all were used within STALE_DAYS."""
    keep = tmp_path / "spark-driver-new.jsa"
    keep.write_bytes(b"x")
    now = 1_900_000_000.0
    count = class_archive.KEEP_OTHERS + 2
    others = [tmp_path / f"spark-driver-{index}.jsa" for index in range(count)]
    for age, path in enumerate(others):  # spark-driver-0 used last, an hour apart
        path.write_bytes(b"x")
        os.utime(path, (now - 3600 * (age + 1), now - 3600 * (age + 1)))
    deleted = class_archive.prune_stale_archives(keep, now=now)
    assert deleted == [others[-1], others[-2]]  # the least recently used first
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [keep.name] + [path.name for path in others[: class_archive.KEEP_OTHERS]]
    )
