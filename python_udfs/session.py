"""Build the in-process SparkSession that dbt-spark's `method: session` will reuse.

dbt-spark calls `SparkSession.builder...getOrCreate()`; a session created earlier in the same
process is the one it gets. Static settings (master, metastore, warehouse, driver memory) only
take effect when the session is first created, so they are read here from the same place dbt
reads them: the `server_side_parameters` of the selected target in `profiles/profiles.yml`.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import yaml

from python_udfs.class_archive import JAVA_OPTIONS
from python_udfs.java_runtime import set_java_home

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession

PROFILE_NAME = "cdc_history"
_MISSING = object()


class SettingsError(RuntimeError):
    """The profile cannot be resolved (unknown target, missing environment variable)."""


def project_dir() -> Path:
    """The dbt project: $CDC_PROJECT_DIR, else the working directory if it holds one, else ours."""
    explicit = os.environ.get("CDC_PROJECT_DIR")
    if explicit:
        return Path(explicit).resolve()
    cwd = Path.cwd()
    if (cwd / "dbt_project.yml").is_file():
        return cwd
    return Path(__file__).resolve().parent.parent


def prepare_environment(root: Path) -> None:
    """Default the variables that dbt and the profile read, without overriding the user's."""
    local_dir = Path(os.environ.get("CDC_LOCAL_DIR", root / ".local")).resolve()
    local_dir.mkdir(parents=True, exist_ok=True)
    os.environ["CDC_LOCAL_DIR"] = str(local_dir)
    os.environ.setdefault("DBT_PROJECT_DIR", str(root))
    os.environ.setdefault("DBT_PROFILES_DIR", str(root / "profiles"))
    os.environ.setdefault("DBT_LOG_PATH", str(root / "logs"))
    os.environ.setdefault("DBT_TARGET_PATH", str(root / "target"))
    # Python workers must start the interpreter that has pyarrow and python_udfs installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # Spark's Java: the user's JAVA_HOME, else the runtime the environment installs
    set_java_home()


def _env_var(name: str, default: Any = _MISSING) -> str:
    """dbt's env_var(): the value, else the default, else an error naming the variable."""
    if name in os.environ:
        return os.environ[name]
    if default is _MISSING:
        raise SettingsError(f"profiles.yml needs the environment variable {name}; set it and rerun")
    return str(default)


def _render(value: Any, env: jinja2.Environment) -> Any:
    if isinstance(value, str):
        return env.from_string(value).render()
    if isinstance(value, Mapping):
        return {key: _render(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [_render(item, env) for item in value]
    return value


def _profile_output(profiles_dir: Path, target: str | None) -> tuple[str, dict[str, Any], Any]:
    """(target name, its raw output, the renderer) of the profile."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    env.globals["env_var"] = _env_var
    raw = yaml.safe_load((profiles_dir / "profiles.yml").read_text())
    profile = raw[PROFILE_NAME]
    chosen = target or os.environ.get("DBT_TARGET") or _render(profile["target"], env)
    outputs = profile["outputs"]
    if chosen not in outputs:
        known = ", ".join(sorted(outputs))
        raise SettingsError(f"unknown target {chosen!r} in {profiles_dir}/profiles.yml ({known})")
    return chosen, outputs[chosen], env


def target_method(profiles_dir: Path, target: str | None = None) -> tuple[str, str]:
    """(target name, its dbt-spark method): `session` runs Spark in this process, `thrift`
    connects to a running SQL endpoint (`cdc-dbt serve`, a Spark Thrift Server)."""
    chosen, output, _env = _profile_output(profiles_dir, target)
    return chosen, str(output.get("method"))


def spark_settings(profiles_dir: Path, target: str | None = None) -> tuple[str, dict[str, str]]:
    """(target name, Spark settings) of the profile, rendered as dbt renders it."""
    chosen, output, env = _profile_output(profiles_dir, target)
    if output.get("method") != "session":
        raise SettingsError(f"target {chosen!r} must use method: session")
    params = _render(output.get("server_side_parameters") or {}, env)
    return chosen, {key: str(value) for key, value in params.items() if str(value) != ""}


def _udf_archive(local_dir: Path) -> Path:
    """A zip of python_udfs, shipped to executors so the UDFs import on every worker."""
    package = Path(__file__).resolve().parent
    archive = local_dir / "python_udfs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        for path in sorted(package.rglob("*.py")):
            bundle.write(path, Path("python_udfs") / path.relative_to(package))
    return archive


# log4j's level names, which CDC_SPARK_LOG_LEVEL takes (Spark's setLogLevel takes the same)
SPARK_LOG_LEVELS = ("OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL")
# Spark's own log4j2-defaults.properties (spark-common-utils), its root level ours: the
# console on stderr, and the third-party loggers Spark quiets kept as quiet.
SPARK_LOG_CONFIGURATION = """\
# Written by cdc-dbt (python_udfs/session.py) at each Spark start: Spark's default logging,
# at the level of CDC_SPARK_LOG_LEVEL from the JVM's first line on.
rootLogger.level = {level}
rootLogger.appenderRef.stdout.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n%ex
# pyspark's gateway starts Spark's logging as a shell's, whose level is the level of the
# logger of the class that starts it (else WARN, and two lines saying so)
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = {level}
logger.jetty.name = org.sparkproject.jetty
logger.jetty.level = warn
logger.jetty2.name = org.sparkproject.jetty.util.component.AbstractLifeCycle
logger.jetty2.level = error
logger.metastore.name = org.apache.hadoop.hive.metastore.RetryingHMSHandler
logger.metastore.level = fatal
logger.metastore2.name = org.apache.hadoop.hive.metastore.ObjectStore
logger.metastore2.level = error
logger.parquet.name = org.apache.parquet.CorruptStatistics
logger.parquet.level = error
logger.parquet2.name = parquet.CorruptStatistics
logger.parquet2.level = error
"""


# the system properties that name a log4j 2 configuration file (the second is its older name)
LOG4J_CONFIGURATION_PROPERTIES = ("log4j2.configurationFile", "log4j.configurationFile")


def spark_log_level() -> str:
    """CDC_SPARK_LOG_LEVEL (default ERROR), a log4j level name in any case."""
    level = os.environ.get("CDC_SPARK_LOG_LEVEL", "ERROR").strip().upper()
    if level not in SPARK_LOG_LEVELS:
        raise SettingsError(
            f"CDC_SPARK_LOG_LEVEL is {level!r}; it takes one of {', '.join(SPARK_LOG_LEVELS)}"
        )
    return level


def _write_atomically(path: Path, text: str) -> None:
    """`path` holds `text`: left alone when it does, else replaced in one step (processes
    that share a local folder start their JVMs at the same time, and one must never read
    the file half-written by another)."""
    with contextlib.suppress(OSError):
        if path.read_text() == text:
            return
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    partial.write_text(text)
    os.replace(partial, path)


def with_quiet_start(settings: Mapping[str, str], local_dir: Path) -> dict[str, str]:
    """The settings with the driver's logging at CDC_SPARK_LOG_LEVEL from its start and no
    console progress bar. Without them every command printed Spark's start-up lines before
    dbt's first (its default log profile twice, a WARN that the host name resolves to a
    loopback address, one that Hadoop's native library is missing, the shell's log-level
    hint) and drew a progress bar across dbt's lines. The logging configuration is written to
    `local_dir` and named in the driver's Java options; options that already name one
    (`-Dlog4j2.configurationFile`, or its older name), and a progress-bar setting of the
    profile, are kept."""
    chosen = dict(settings)
    options = chosen.get(JAVA_OPTIONS, "")
    if not any(f"-D{name}=" in options for name in LOG4J_CONFIGURATION_PROPERTIES):
        configuration = local_dir.resolve() / "spark-log4j2.properties"
        _write_atomically(
            configuration, SPARK_LOG_CONFIGURATION.format(level=spark_log_level().lower())
        )
        # a file: URI, so a folder with a space in its name is still one option
        chosen[JAVA_OPTIONS] = (
            f"{options} -Dlog4j2.configurationFile={configuration.as_uri()}".strip()
        )
    chosen.setdefault("spark.ui.showConsoleProgress", "false")
    return chosen


LOOPBACK = "127.0.0.1"


def with_loopback_driver(settings: Mapping[str, str]) -> dict[str, str]:
    """The settings with a local-mode driver (`spark.master` local, local[N], local[*]) bound
    to the loopback address: its RPC and block manager then listen on 127.0.0.1 only, not on
    the machine's network address, which Spark picks otherwise (saying so in a start-up WARN
    when the host name resolves to a loopback address), since nothing outside the process
    talks to a local-mode driver. A driver address of the profile (either setting), or
    SPARK_LOCAL_IP, stays; a cluster master is left as it is (its executors must reach the
    driver)."""
    chosen = dict(settings)
    addresses = ("spark.driver.bindAddress", "spark.driver.host")
    if (
        chosen.get("spark.master", "").startswith("local")
        and not os.environ.get("SPARK_LOCAL_IP")
        and not any(key in chosen for key in addresses)
    ):
        chosen.update(dict.fromkeys(addresses, LOOPBACK))
    return chosen


def build_spark_session(settings: Mapping[str, str]) -> SparkSession:
    """Create (or return) the process's SparkSession with these settings and our UDFs; a new
    JVM logs at CDC_SPARK_LOG_LEVEL from its start (with_quiet_start), binds a local-mode
    driver to the loopback address (with_loopback_driver) and maps the class archive when
    there is one (python_udfs.class_archive)."""
    from pyspark.sql import SparkSession

    from python_udfs.class_archive import with_class_archive
    from python_udfs.spark import register_udfs

    local_dir = Path(os.environ.get("CDC_LOCAL_DIR", ".local"))
    local_dir.mkdir(parents=True, exist_ok=True)
    builder = SparkSession.builder.enableHiveSupport()
    chosen = with_loopback_driver(with_quiet_start(settings, local_dir))
    for key, value in with_class_archive(chosen).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(spark_log_level())
    spark.sparkContext.addPyFile(str(_udf_archive(local_dir)))
    register_udfs(spark)
    return spark


# How long `cdc-dbt` waits for its JVM to exit once the session has stopped.
JVM_EXIT_SECONDS = 30.0


def spark_jvm_running() -> bool:
    """Whether this process has started a Spark JVM (pyspark's gateway), without importing
    pyspark when nothing has."""
    if "pyspark" not in sys.modules:
        return False
    from pyspark import SparkContext

    return SparkContext._gateway is not None


def end_process(process: subprocess.Popen[Any], timeout: float) -> bool:
    """Close the process's stdin (pyspark's gateway JVM exits at its end) and wait for it, at
    most `timeout` seconds, then kill it. True when it exited by itself."""
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return False
    return True


def stop_spark(timeout: float = JVM_EXIT_SECONDS) -> bool:
    """Stop this process's SparkSession and end its JVM, waiting for it at most `timeout`
    seconds (then killing it). The JVM holds the embedded Derby metastore until it has exited,
    a few seconds after Python would return; so `cdc-dbt` returns only once the next command
    can open it. True when there was no JVM or it exited by itself."""
    if not spark_jvm_running():
        return True
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    with contextlib.suppress(Exception):  # a session that failed half-way still has a JVM
        session = SparkSession._instantiatedSession
        if session is not None:
            session.stop()
        elif SparkContext._active_spark_context is not None:
            SparkContext._active_spark_context.stop()
    gateway = SparkContext._gateway
    process = getattr(gateway, "proc", None)
    with contextlib.suppress(Exception):
        gateway.shutdown()
    SparkContext._gateway = None
    SparkContext._jvm = None
    return process is None or end_process(process, timeout)


# One tiny job over every registered UDF, in two partitions with a shuffle.
WARM_UP_QUERY = (
    "select decode_change_mask(cast(id as binary), 8) as mask,"
    " decode_hex_change_mask(hex(id), 8, 'little') as hex_mask,"
    " parse_table_key(concat('k=', id)) as table_key,"
    " cdc_landed_listing_digest(cast(array() as array<string>)) as listing"
    " from range(0, 64, 1, 2) distribute by id % 2"
)


def warm_up(spark: SparkSession) -> None:
    """Run WARM_UP_QUERY: it starts the Python workers (importing numpy, pyarrow and
    python_udfs) and has the JVM load and compile the scan, shuffle and Arrow paths."""
    spark.sql(WARM_UP_QUERY).write.format("noop").mode("overwrite").save()


def start_warm_up(spark: SparkSession) -> threading.Thread:
    """warm_up in a background thread, while dbt parses and runs its start-up hooks, so the
    first model does not pay for it. A failure is ignored here: the model that needs a UDF
    reports any real problem. CDC_WARM_UP=0 skips it."""

    def run() -> None:
        with contextlib.suppress(Exception):
            warm_up(spark)

    thread = threading.Thread(target=run, name="cdc-warm-up", daemon=True)
    if os.environ.get("CDC_WARM_UP", "1") != "0":
        thread.start()
    return thread


def target_from_args(args: Sequence[str]) -> str | None:
    """The value of dbt's --target/-t flag, if given."""
    for position, arg in enumerate(args):
        if arg in ("--target", "-t") and position + 1 < len(args):
            return args[position + 1]
        if arg.startswith("--target="):
            return arg.split("=", 1)[1]
    return None
