"""Where a fresh Spark JVM's CPU goes during a dbt build of the samples (issues 22, 24).

    python -m benchmarks.cold_jvm [--select ...] [--java-options "-XX:..."] [--repeat 3]
        [--work .local/bench_cold_jvm] [--json benchmarks/results/cold_jvm.json]

Every `cdc-dbt` command, every test process and every subprocess scenario starts a new JVM.
This builds the shipped samples (`dbt build`, default: the three OpenEdge tables' chains)
in-process, as the test session does (local[2], two shuffle partitions, no Java code
generation), `--repeat` times in the same JVM, each build into its own schema, and reports per
build: the wall seconds and the JIT compiler's time (the JVM's CompilationMXBean, cumulative);
at the end: the JVM's CPU seconds (/proc), the Python process's, the CPU of the JVM's
threads still alive grouped by name (the JIT compiler threads are `C1/C2 CompilerThread`;
the threads that ran dbt's statements have ended with dbt's thread pool, so their CPU is only
in the JVM's total) and the garbage collectors' counts and times.

`--java-options` is the profile's `CDC_DRIVER_JAVA_OPTIONS` (the profile's default when not
given). Two of these side by side (each with its own --work) is what the test command's
two processes do to the two cores.

Not run by the test suite (each build costs minutes); its figures are in BENCHMARKS.md
section 18.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

from benchmarks.process_memory import parse_stat
from cdc_simulator.project_copy import install_package

PROJECT_DIR = Path(__file__).resolve().parents[1]
DEFAULT_SELECT = ("+models/marts/oe_customer", "+models/marts/item", "+models/marts/visit")


def _jvm_threads_cpu(pid: int, ticks: int) -> dict[str, float]:
    """CPU seconds of the JVM's live threads, grouped by name with the digits taken out."""
    per_name: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = parse_stat((task / "stat").read_text())
        except OSError:  # the thread ended meanwhile
            continue
        group = re.sub(r"[0-9]+", "#", stat.name)
        per_name[group] = per_name.get(group, 0.0) + stat.cpu_ticks / ticks
    return per_name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--select", nargs="+", default=list(DEFAULT_SELECT))
    parser.add_argument("--java-options", default=None)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / ".local" / "bench_cold_jvm")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    work = args.work.resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    os.environ.update(
        CDC_LOCAL_DIR=str(work),
        CDC_SPARK_MASTER="local[2]",
        CDC_SHUFFLE_PARTITIONS="2",
        DBT_TARGET_PATH=str(work / "target"),
        DBT_LOG_PATH=str(work / "logs"),
    )
    if args.java_options is not None:
        os.environ["CDC_DRIVER_JAVA_OPTIONS"] = args.java_options

    from dbt.cli.main import dbtRunner

    from python_udfs.code_fingerprint import set_code_fingerprint
    from python_udfs.session import build_spark_session, prepare_environment, spark_settings

    prepare_environment(PROJECT_DIR)
    _target, settings = spark_settings(PROJECT_DIR / "profiles", "local")
    started = time.monotonic()
    spark = build_spark_session(settings)
    # as the test session (tests/python/conftest.py)
    spark.conf.set("spark.sql.codegen.wholeStage", "false")
    spark.conf.set("spark.sql.codegen.factoryMode", "NO_CODEGEN")
    jvm = spark.sparkContext._jvm
    management = jvm.java.lang.management.ManagementFactory
    compiler = management.getCompilationMXBean()
    result: dict[str, object] = {
        "select": args.select,
        "java_version": str(jvm.java.lang.System.getProperty("java.version")),
        "driver_java_options": settings.get("spark.driver.extraJavaOptions", ""),
        "session_start_seconds": round(time.monotonic() - started, 1),
        "builds": [],
    }
    samples = PROJECT_DIR / "samples"  # the sample project, a user of the package
    install_package(samples)
    command = ["build", "--select", *args.select, "--project-dir", str(samples)]
    command += ["--profiles-dir", str(PROJECT_DIR / "profiles"), "--target", "local"]
    set_code_fingerprint(samples, command)
    ok = True
    for number in range(args.repeat):
        os.environ["CDC_SCHEMA"] = f"cold_jvm_{number}"
        began = time.monotonic()
        outcome = dbtRunner().invoke(command)
        build = {
            "schema": os.environ["CDC_SCHEMA"],
            "success": bool(outcome.success),
            "wall_seconds": round(time.monotonic() - began, 1),
            "jit_seconds_so_far": compiler.getTotalCompilationTime() / 1000,
        }
        result["builds"].append(build)  # type: ignore[attr-defined]
        print(json.dumps(build), flush=True)
        ok = ok and build["success"]
    pid = int(jvm.java.lang.ProcessHandle.current().pid())
    ticks = os.sysconf("SC_CLK_TCK")
    own = os.times()
    jvm_stat = parse_stat(Path(f"/proc/{pid}/stat").read_text())
    result["jvm_cpu_seconds"] = round(jvm_stat.cpu_ticks / ticks, 1)
    result["python_cpu_seconds"] = round(own.user + own.system, 1)
    threads = sorted(_jvm_threads_cpu(pid, ticks).items(), key=lambda item: -item[1])
    result["live_jvm_threads_cpu_seconds"] = {name: round(sec, 1) for name, sec in threads[:12]}
    result["garbage_collectors"] = {
        str(bean.getName()): {
            "count": int(bean.getCollectionCount()),
            "ms": int(bean.getCollectionTime()),
        }
        for bean in management.getGarbageCollectorMXBeans()
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    spark.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
