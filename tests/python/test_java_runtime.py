"""Spark's Java (python_udfs/java_runtime.py): the user's JAVA_HOME, else the bundled runtime
through a launcher home whose `bin/java` leaves out what Spark's launcher asks of a runtime
that lacks it. No Spark and no real JVM here: a fake runtime whose `java` prints its
arguments, one per line (NUL-separated), so what the launcher passes on is seen exactly.
Budget: 10 s."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from python_udfs import java_runtime
from python_udfs.java_runtime import (
    base_packages,
    feature_version,
    launcher_home,
    release_version,
    set_java_home,
)

DESCRIBED = """java.base@25.0.2
exports java.io
exports java.lang
qualified exports jdk.internal.misc to java.rmi jdk.unsupported
contains sun.nio.ch
qualified opens java.lang.invoke to jdk.internal.vm.ci
uses java.lang.System$LoggerFinder
provides java.nio.file.spi.FileSystemProvider with jdk.internal.jrtfs.JrtFileSystemProvider
"""


@pytest.fixture
def runtime(tmp_path: Path) -> Path:
    """A fake Java runtime: `release` with two modules; `java` answers --describe-module with
    DESCRIBED (and counts those calls) and otherwise prints each argument NUL-terminated."""
    home = tmp_path / "runtime"
    (home / "bin").mkdir(parents=True)
    (home / "lib").mkdir()
    (home / "release").write_text('JAVA_VERSION="25.0.2"\nMODULES="java.base java.sql"\n')
    described = tmp_path / "described.txt"
    described.write_text(DESCRIBED)
    java = home / "bin" / "java"
    java.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "--describe-module" ]; then\n'
        f"    echo x >> '{tmp_path}/describe-calls'\n"
        f"    cat '{described}'\n"
        "    exit 0\n"
        "fi\n"
        "for argument do printf '%s\\0' \"$argument\"; done\n"
    )
    java.chmod(0o755)
    (home / "bin" / "jcmd").write_text("#!/bin/sh\n")
    return home


def passed_on(home: Path, *arguments: str) -> list[str]:
    """What the launcher home's `bin/java` hands the runtime's `java`."""
    done = subprocess.run(
        [str(home / "bin" / "java"), *arguments], capture_output=True, check=True, timeout=30
    )
    return done.stdout.decode().split("\0")[:-1]


@pytest.mark.parametrize(
    ("release", "version", "feature"),
    [
        ('JAVA_VERSION="25.0.2"\n', "25.0.2", 25),
        ('IMPLEMENTOR="Debian"\nJAVA_VERSION="17.0.15"\n', "17.0.15", 17),
        ('JAVA_VERSION="1.8.0_402"\n', "1.8.0_402", 8),
        ('JAVA_VERSION="21"\n', "21", 21),
        ('JAVA_VERSION=""\n', None, None),
        ('MODULES="java.base"\n', None, None),
    ],
)
def test_the_version_comes_from_the_release_file(
    tmp_path: Path, release: str, version: str | None, feature: int | None
) -> None:
    (tmp_path / "release").write_text(release)
    assert release_version(tmp_path) == version
    assert feature_version(tmp_path) == feature
    assert feature_version(tmp_path / "missing") is None


def test_java_base_packages_are_read_from_its_description() -> None:
    assert base_packages(DESCRIBED) == [
        "java.io",
        "java.lang",
        "java.lang.invoke",
        "jdk.internal.misc",
        "sun.nio.ch",
    ]


def test_the_launcher_leaves_out_what_the_runtime_lacks(runtime: Path, tmp_path: Path) -> None:
    """Spark's launcher adds --add-modules=jdk.incubator.vector (fatal where the module is
    missing) and opens java.base packages some runtimes lack (a warning at every start):
    those are left out, a list of modules keeps the ones present, everything else passes
    on unchanged and in order, whatever characters it holds."""
    home = launcher_home(runtime, tmp_path / "launchers")
    assert home.parent == tmp_path / "launchers"
    assert home.name.startswith("25.0.2-")
    assert (home / "release").resolve() == (runtime / "release").resolve()
    assert (home / "lib").resolve() == (runtime / "lib").resolve()
    assert (home / "bin" / "jcmd").resolve() == (runtime / "bin" / "jcmd").resolve()
    assert feature_version(home) == 25
    # after the options: passed on as they are, whatever they hold
    rest = [
        "-cp",
        "/opt/spark/jars/*:/etc/spark conf",
        'it\'s "quoted" $HOME `x` \\ ; *',
        "",
        "org.apache.spark.deploy.SparkSubmit",
    ]
    arguments = [
        "-XX:+IgnoreUnrecognizedVMOptions",
        "--add-modules=jdk.incubator.vector",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/sun.util.calendar=ALL-UNNAMED",
        "--add-modules=java.sql,jdk.incubator.vector,ALL-DEFAULT",
        "--add-opens=java.sql/java.sql=ALL-UNNAMED",
        *rest,
    ]
    assert passed_on(home, *arguments) == [
        "-XX:+IgnoreUnrecognizedVMOptions",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-modules=java.sql,ALL-DEFAULT",
        "--add-opens=java.sql/java.sql=ALL-UNNAMED",
        *rest,
    ]


def test_the_launcher_is_made_once_per_runtime(runtime: Path, tmp_path: Path) -> None:
    """A second call finds it (no --describe-module run again); a changed runtime (another
    build of `java`) gets a launcher of its own."""
    root = tmp_path / "launchers"
    first = launcher_home(runtime, root)
    assert launcher_home(runtime, root) == first
    assert (tmp_path / "describe-calls").read_text().count("x") == 1
    java = runtime / "bin" / "java"
    java.write_text(java.read_text() + "# another build\n")
    second = launcher_home(runtime, root)
    assert second != first and (second / "bin" / "java").is_file()
    assert sorted(path.name for path in root.iterdir()) == sorted([first.name, second.name])


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One launcher home over a fake runtime for all of hypothesis' examples."""
    base = tmp_path_factory.mktemp("java-runtime")
    runtime = base / "runtime"
    (runtime / "bin").mkdir(parents=True)
    (runtime / "release").write_text('JAVA_VERSION="25.0.2"\nMODULES="java.base"\n')
    java = runtime / "bin" / "java"
    java.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "--describe-module" ]; then echo "exports java.lang"; exit 0; fi\n'
        "for argument do printf '%s\\0' \"$argument\"; done\n"
    )
    java.chmod(0o755)
    return launcher_home(runtime, base / "launchers")


OPTIONS_IT_FILTERS = ("--add-modules=", "--add-opens=", "--add-exports=")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(codec="utf-8", exclude_characters="\x00"),
            max_size=30,
        ).filter(lambda text: not text.startswith(OPTIONS_IT_FILTERS)),
        max_size=8,
    )
)
def test_any_other_argument_passes_on_unchanged(shared_home: Path, arguments: list[str]) -> None:
    """Whatever the text of an argument that is none of the three options, the runtime's
    `java` gets it as it was, in its place."""
    assert passed_on(shared_home, *arguments) == arguments


def _unset_java_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAVA_HOME unset for the test, and whatever set_java_home sets undone after it (a
    delenv of an unset variable records nothing to restore)."""
    monkeypatch.setenv("JAVA_HOME", "recorded, so that undo removes what the test sets")
    monkeypatch.delenv("JAVA_HOME")


def test_the_users_java_home_is_kept(
    runtime: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(java_runtime, "bundled_runtime", lambda: runtime)
    monkeypatch.setenv("CDC_JAVA_LAUNCHER_DIR", str(tmp_path / "launchers"))
    monkeypatch.setenv("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    set_java_home()
    assert os.environ["JAVA_HOME"] == "/usr/lib/jvm/java-17-openjdk-amd64"
    assert not (tmp_path / "launchers").exists()


def test_without_one_the_bundled_runtime_is_used_through_its_launcher(
    runtime: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(java_runtime, "bundled_runtime", lambda: runtime)
    monkeypatch.setenv("CDC_JAVA_LAUNCHER_DIR", str(tmp_path / "launchers"))
    _unset_java_home(monkeypatch)
    set_java_home()
    home = Path(os.environ["JAVA_HOME"])
    assert home.parent == tmp_path / "launchers"
    assert passed_on(home, "--add-modules=jdk.incubator.vector", "-version") == ["-version"]


def test_a_launcher_that_cannot_be_made_is_said_and_java_comes_from_path(
    runtime: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A cache folder that cannot be written (here: a file in its path), or a runtime
    whose `java` fails: one line on stderr saying so, JAVA_HOME left unset."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setattr(java_runtime, "bundled_runtime", lambda: runtime)
    monkeypatch.setenv("CDC_JAVA_LAUNCHER_DIR", str(blocker / "launchers"))
    _unset_java_home(monkeypatch)
    set_java_home()
    assert "JAVA_HOME" not in os.environ
    assert "the bundled Java runtime cannot be used" in capsys.readouterr().err
    monkeypatch.setenv("CDC_JAVA_LAUNCHER_DIR", str(tmp_path / "launchers"))
    (runtime / "bin" / "java").write_text("#!/bin/sh\nexit 1\n")
    set_java_home()
    assert "JAVA_HOME" not in os.environ
    assert "the bundled Java runtime cannot be used" in capsys.readouterr().err


def test_without_a_bundled_runtime_java_comes_from_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No JAVA_HOME is set: pyspark then runs the `java` on PATH, as before."""
    monkeypatch.setattr(java_runtime, "bundled_runtime", lambda: None)
    _unset_java_home(monkeypatch)
    set_java_home()
    assert "JAVA_HOME" not in os.environ
    assert java_runtime.main() == 2


def test_the_launcher_folder_is_the_users_cache_unless_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CDC_JAVA_LAUNCHER_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/srv/cache")
    assert java_runtime.launcher_root() == Path("/srv/cache/cdc-history/java")
    monkeypatch.setenv("CDC_JAVA_LAUNCHER_DIR", "/srv/java")
    assert java_runtime.launcher_root() == Path("/srv/java")
