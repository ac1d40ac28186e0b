"""Benchmark the dbt pipeline against the hand-written PySpark job, over growing volumes.

    python -m benchmarks.pipeline --volumes 100000 1000000 5000000 [--keys-ratio 0.1]
        [--append-fraction 0.01] [--repeats 3] [--large-volume 2000000 --large-repeats 1]
        [--work .local/bench]
        [--json benchmarks/results/pipeline.json] [--seed 1]
        [--extra-columns 0 --extra-width 20] [--skip-tests] [--skip-baseline]
        [--skip-empty-input] [--duplicate-resolution quarantine|latest_load]

For each volume N (ascending), with K = max(1000, int(N * keys_ratio)) keys per table and
M = int(N * append_fraction) later changes:

1. Generate the Qlik landing (`<work>/data_<N>/landing`) and the later batch
   (`<work>/data_<N>/append`), unless `<work>/data_<N>/stamp.json` shows they were generated
   with the same parameters. Change-table rows are counted from the Parquet footers.
2. Repeat `--repeats` times (`--large-repeats` from `--large-volume` changes on), in this
   order (interleaved, so that a noisy neighbour slows both
   sides alike):
   a. the baseline job on the landing without the later batch (`<work>/baseline_<N>`);
   b. a fresh full build without tests in `<work>/run_<N>_<i>` (its own Derby metastore);
      every build passes var `cdc_tables` with only the two generated Qlik tables, copied
      from dbt_project.yml, so that it configures the same tables as the baseline job;
   c. the no-op rerun: the same build again at once, nothing new landed;
   d. first repeat only: the tests (`cdc-dbt test`), unless --skip-tests;
   e. last repeat only: `compare_outputs` of that build's warehouse (still without the later
      batch; after the no-op rerun, which must not change it) against the baseline output of
      step a;
   f. move the later batch into the landing (`batch-001-<name>`), run the incremental build
      (on the state the no-op rerun left), move the batch back out, so the landing is
      pristine again.
   Steps a, b, c and f are timed and memory-sampled (`benchmarks.process_memory`); the run
   folders of earlier repeats are removed once done (their logs are kept), the last one is
   kept.
3. From the last repeat's `run_results.json` keep the ten slowest models of the full build, the
   no-op rerun and the incremental build.

Then, once per invocation (after the volumes, so that it meets the same warm caches), unless
--skip-empty-input: the fixed cost of a run. A fresh full build in `<work>/run_empty` on a
landing whose folders hold one zero-row Parquet file each, of the generated schema
(`<work>/data_empty/landing`); kept at the top level of the results as `empty_input`.

Logs and run_results copies go to `<work>/logs_<N>/`. The results JSON is rewritten after
every step, so partial results survive an interruption. The exit status is 0 when everything
ran and agreed, 1 when a compare found a difference or tests failed (results still written),
2 when a build or job failed (the benchmark stops there), 130 on an interrupt (SIGINT or
SIGTERM; the running step's process tree is ended and the landing restored).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from importlib import metadata
from itertools import pairwise
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import yaml

from benchmarks.process_memory import Measurement, interrupt_on_sigterm, measure
from cdc_simulator.project_copy import install_package
from cdc_simulator.qlik_ct import baseline_schema, change_table_name, ct_schema
from cdc_simulator.table_model import DEFAULT_TABLES, TableSpec, widened
from python_udfs.metastore_lock import held_by_another_process

PROJECT_DIR = Path(__file__).resolve().parent.parent
# the project the pipeline runs build: the sample project (samples/), which uses the package
SAMPLES_DIR = PROJECT_DIR / "samples"
PROJECT_FILE = SAMPLES_DIR / "dbt_project.yml"
BATCH_PREFIX = "batch-001-"
CHANGE_TABLE_SUFFIX = "__ct"
TOP_MODELS = 10
# How long a build waits for the previous one's JVM to release the embedded metastore.
METASTORE_RELEASE_SECONDS = 120
# Generation parameters passed to cdc_simulator.qlik_ct as --<name with dashes>.
GENERATOR_OPTIONS = ("changes", "keys", "seed", "extra_columns", "extra_width", "append_changes")
# Only folders the benchmark itself creates under --work may ever be removed.
_REMOVABLE = re.compile(
    r"(run_\d+_\d+|run_(local|cluster)_\d+|baseline_\d+|data_\d+|logs_\d+|(run|data|logs)_empty)"
)

JsonDict = dict[str, Any]


class BenchmarkError(RuntimeError):
    """A build, job or generation failed: the benchmark cannot go on."""


# ---------------------------------------------------------------------------------------------
# arguments and machine


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.pipeline",
        description="Time the dbt pipeline (full and incremental builds, tests) and the "
        "hand-written PySpark baseline over growing volumes of Qlik changes.",
    )
    parser.add_argument("--volumes", type=int, nargs="+", required=True, help="changes per run")
    parser.add_argument("--keys-ratio", type=float, default=0.1, help="keys per table / changes")
    parser.add_argument(
        "--append-fraction", type=float, default=0.01, help="later batch size / changes"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--large-volume", type=int, default=2_000_000, help="volumes from here on repeat less"
    )
    parser.add_argument("--large-repeats", type=int, default=1, help="repeats of those")
    parser.add_argument("--work", type=Path, default=Path(".local/bench"))
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/pipeline.json"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--extra-columns", type=int, default=0)
    parser.add_argument("--extra-width", type=int, default=20)
    parser.add_argument("--skip-tests", action="store_true", help="do not run `cdc-dbt test`")
    parser.add_argument(
        "--skip-baseline", action="store_true", help="no baseline job, so no compare either"
    )
    parser.add_argument(
        "--skip-empty-input", action="store_true", help="no build on an empty landing"
    )
    parser.add_argument(
        "--duplicate-resolution",
        choices=["quarantine", "latest_load"],
        default=None,
        help="set the tables' duplicate_resolution (docs/qlik-change-tables.md)",
    )
    args = parser.parse_args(argv)
    if min(args.repeats, args.large_repeats, *args.volumes) < 1:
        parser.error("--repeats, --large-repeats and every volume must be >= 1")
    if not 0 <= args.append_fraction < 1 or args.keys_ratio <= 0:
        parser.error("--append-fraction must be in [0, 1) and --keys-ratio > 0")
    return args


def _first_line(command: Sequence[str]) -> str | None:
    """The first output line of a short command, or None if it cannot run."""
    try:
        done = subprocess.run(
            list(command), capture_output=True, text=True, timeout=60, cwd=PROJECT_DIR
        )
    except (OSError, subprocess.SubprocessError):
        return None
    lines = (done.stdout + done.stderr).strip().splitlines()
    return lines[0] if lines else None


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _java_version() -> str | None:
    """The first line of `java -version` of the Java the runs use: JAVA_HOME, else the one
    `cdc-dbt` and the baseline jobs choose (python_udfs/java_runtime.py), else PATH's."""
    from python_udfs.java_runtime import default_java_home

    try:
        home = os.environ.get("JAVA_HOME") or default_java_home()
    except (OSError, subprocess.SubprocessError):
        home = None
    return _first_line([f"{home}/bin/java" if home else "java", "-version"])


def machine_info() -> JsonDict:
    """Cores, memory, CPU model, load and the versions that matter for the timings."""
    meminfo = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    total = re.search(r"^MemTotal:\s+(\d+) kB", meminfo, re.MULTILINE)
    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    model = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
    git_status = _first_line(["git", "status", "--porcelain"])
    return {
        "cpu_count": os.cpu_count(),
        "mem_total_kib": int(total.group(1)) if total else None,
        "mem_total_gib": round(int(total.group(1)) / 2**20, 1) if total else None,
        "cpu_model": model.group(1).strip() if model else platform.processor() or None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "pyspark": _version("pyspark"),
        "dbt_core": _version("dbt-core"),
        "dbt_spark": _version("dbt-spark"),
        "pyarrow": _version("pyarrow"),
        "java": _java_version(),
        "git_commit": _first_line(["git", "rev-parse", "HEAD"]),
        "git_dirty": bool(git_status),
        "loadavg_at_start": _loadavg(),
    }


def _loadavg() -> list[float] | None:
    """1, 5 and 15 minute load averages (the machine may be shared: timings are noisier)."""
    try:
        return [float(value) for value in Path("/proc/loadavg").read_text().split()[:3]]
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------
# files


def _remove_tree(path: Path, work: Path) -> None:
    """Remove a folder this benchmark made: directly under `work`, with one of our names."""
    if path.parent.resolve() != work.resolve() or not _REMOVABLE.fullmatch(path.name):
        raise BenchmarkError(f"refusing to remove {path}: not a benchmark folder of {work}")
    if path.exists():
        shutil.rmtree(path)


def _data_files(folder: Path) -> list[Path]:
    """The files Spark would read in a folder: not hidden, not starting with `_`."""
    if not folder.is_dir():
        return []
    return sorted(
        path for path in folder.iterdir() if path.is_file() and not path.name.startswith((".", "_"))
    )


def count_rows(root: Path) -> JsonDict:
    """Rows (from Parquet footers), files and MiB on disk per table folder under `root`."""
    tables: JsonDict = {}
    for folder in sorted(path for path in root.iterdir() if path.is_dir()):
        files = _data_files(folder)
        tables[folder.name] = {
            "rows": sum(pq.ParquetFile(path).metadata.num_rows for path in files),
            "files": len(files),
            "mib": round(sum(path.stat().st_size for path in files) / 2**20, 2),
        }
    return tables


def move_batch_in(landing: Path, append: Path) -> list[tuple[Path, Path]]:
    """Move the later batch's change-table files into the landing as `batch-001-<name>`."""
    moved = []
    for folder in sorted(path for path in append.iterdir() if path.is_dir()):
        target_folder = landing / folder.name
        if not target_folder.is_dir():
            raise BenchmarkError(f"{target_folder} is missing: the landing has no such table")
        for source in _data_files(folder):
            target = target_folder / f"{BATCH_PREFIX}{source.name}"
            if target.exists():
                raise BenchmarkError(f"{target} exists already: landing not restored")
            source.rename(target)
            moved.append((source, target))
    return moved


def restore_landing(landing: Path, append: Path) -> int:
    """Move any `batch-001-*` files in the landing back to the later batch's folders.

    Also repairs the state an interrupted run leaves. Returns the files moved back.
    """
    restored = 0
    for folder in sorted(path for path in landing.iterdir() if path.is_dir()):
        for landed in sorted(folder.glob(f"{BATCH_PREFIX}*")):
            original = append / folder.name / landed.name[len(BATCH_PREFIX) :]
            if original.exists():
                raise BenchmarkError(f"{landed} and {original} both exist; remove one by hand")
            original.parent.mkdir(parents=True, exist_ok=True)
            landed.rename(original)
            restored += 1
    return restored


# ---------------------------------------------------------------------------------------------
# steps


def python_module(module: str, options: dict[str, object]) -> list[str]:
    """`<this python> -m <module> --<name> <value> ...` as an argument list."""
    command = [sys.executable, "-m", module]
    for name, value in options.items():
        command += [f"--{name}", str(value)]
    return command


def benchmark_tables(extra_columns: int = 0, extra_width: int = 20) -> tuple[TableSpec, ...]:
    """The tables the generator lands: the simulator's default two, widened as asked."""
    return widened(DEFAULT_TABLES, extra_columns, extra_width)


def cdc_tables_var(tables: Sequence[TableSpec], project_file: Path = PROJECT_FILE) -> JsonDict:
    """The entries of `tables` in the project's var `cdc_tables`, and no other.

    Passed as `--vars '{cdc_tables: ...}'` (a command-line var replaces the project's whole
    value), so that the build configures exactly the tables the baseline job processes. Each
    entry must exist, be a Qlik table (`source_system: qlik_ct`) and have the simulator's key
    columns in key order; otherwise the figures would not compare like with like.
    """
    configured = (yaml.safe_load(project_file.read_text()).get("vars") or {}).get("cdc_tables")
    if not isinstance(configured, dict):
        raise BenchmarkError(f"{project_file}: no vars.cdc_tables mapping")
    entries: JsonDict = {}
    for spec in tables:
        entry = configured.get(spec.name)
        if not isinstance(entry, dict):
            raise BenchmarkError(f"{project_file}: vars.cdc_tables has no table {spec.name}")
        if entry.get("source_system") != "qlik_ct":
            raise BenchmarkError(
                f"{project_file}: cdc_tables.{spec.name} is not a qlik_ct table "
                f"(source_system {entry.get('source_system')!r})"
            )
        if list(entry.get("key_columns") or []) != list(spec.key_columns):
            raise BenchmarkError(
                f"{project_file}: cdc_tables.{spec.name}.key_columns "
                f"{entry.get('key_columns')} differ from the generated {list(spec.key_columns)}"
            )
        entries[spec.name] = entry
    return entries


def dbt_vars(landing: Path, cdc_tables: JsonDict) -> str:
    """The `--vars` of every benchmark build: files landing at `landing`, only `cdc_tables`."""
    return json.dumps(
        {"qlik_ct_landing": "files", "qlik_ct_landing_root": str(landing), "cdc_tables": cdc_tables}
    )


def build_arguments(landing: Path, cdc_tables: JsonDict) -> list[str]:
    """`cdc-dbt` arguments of a benchmark build: the whole project without its tests."""
    return [
        "build",
        "--exclude-resource-type",
        "test",
        "unit_test",
        "--vars",
        dbt_vars(landing, cdc_tables),
    ]


def generation_parameters(args: argparse.Namespace, volume: int) -> JsonDict:
    """What the generated data depends on; a stamp with other values means regenerate."""
    return {
        "changes": volume,
        "keys": max(1000, int(volume * args.keys_ratio)),
        "append_changes": int(volume * args.append_fraction),
        "seed": args.seed,
        "extra_columns": args.extra_columns,
        "extra_width": args.extra_width,
        "format": "parquet",
    }


def write_empty_landing(root: Path, tables: Sequence[TableSpec]) -> None:
    """Land every table as the generator would, with no rows: `<table>__ct/` and `<table>/`
    each hold one zero-row Parquet file of the generated schema.

    The files carry the schema: the project registers each folder as an external table
    without one (`register_landed_tables`), which Spark cannot do for a folder of no files.
    """
    for spec in tables:
        for folder, schema in (
            (root / change_table_name(spec), ct_schema(spec)),
            (root / spec.name, baseline_schema(spec)),
        ):
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(schema.empty_table(), folder / "part-00000.parquet")


def ensure_data(args: argparse.Namespace, work: Path, volume: int, logs: Path) -> JsonDict:
    """Generate `<work>/data_<N>/{landing,append}` unless the stamp matches; describe them."""
    data = work / f"data_{volume}"
    landing, append, stamp_path = data / "landing", data / "append", data / "stamp.json"
    parameters = generation_parameters(args, volume)
    stamp: JsonDict | None = None
    if stamp_path.is_file() and landing.is_dir() and append.is_dir():
        stamp = json.loads(stamp_path.read_text())
        if stamp.get("parameters") != parameters:
            stamp = None
    if stamp is not None:
        restore_landing(landing, append)
        generation = {**stamp["generation"], "reused": True}
    else:
        _remove_tree(data, work)
        data.mkdir(parents=True)
        options: dict[str, object] = {"out": landing, "append-out": append}
        options |= {name.replace("_", "-"): parameters[name] for name in GENERATOR_OPTIONS}
        command = python_module("cdc_simulator.qlik_ct", options)
        print(f"  generating {volume:,} changes ({parameters['keys']:,} keys per table)")
        result = measure(command, log_path=logs / "generate.log", cwd=PROJECT_DIR)
        _check(result, "generation")
        output = Path(result.log_path).read_text().strip().splitlines()
        generation = {
            "seconds": round(result.wall_seconds, 3),
            "peak_total_rss_mib": round(result.peak_total_rss_mib, 1),
            "output": output[-1] if output else "",
            "reused": False,
        }
        stamp_path.write_text(
            json.dumps({"parameters": parameters, "generation": generation}, indent=2) + "\n"
        )
    landing_tables = count_rows(landing)
    append_tables = count_rows(append)
    return {
        "parameters": parameters,
        "landing": str(landing),
        "append": str(append),
        "generation": generation,
        "tables": {"landing": landing_tables, "append": append_tables},
        "change_rows": sum(
            table["rows"]
            for name, table in landing_tables.items()
            if name.endswith(CHANGE_TABLE_SUFFIX)
        ),
        "append_change_rows": sum(table["rows"] for table in append_tables.values()),
    }


def _check(result: Measurement, what: str) -> None:
    """Stop the benchmark if a step failed, pointing at its log."""
    if result.exit_code != 0:
        raise BenchmarkError(f"{what} failed (exit {result.exit_code}), see {result.log_path}")


def _run_record(result: Measurement) -> JsonDict:
    """The per-run figures kept in the results."""
    return {
        "seconds": round(result.wall_seconds, 3),
        "exit_code": result.exit_code,
        "peak_total_rss_mib": round(result.peak_total_rss_mib, 1),
        "peak_largest_rss_mib": round(result.peak_largest_rss_mib, 1),
        "peak_largest_process": result.peak_largest_name,
        "peak_processes": result.peak_processes,
        "cpu_seconds": round(result.cpu_seconds, 1),
        "log": result.log_path,
    }


def _build_record(result: Measurement, run_results: JsonDict | None) -> JsonDict:
    """A build's per-run figures, with dbt's own elapsed time and node counts when it has them."""
    record = _run_record(result)
    if run_results:
        record["dbt_elapsed_seconds"] = round(run_results.get("elapsed_time", 0.0), 3)
        record["nodes"] = len(run_results.get("results", []))
        record["seconds_by_resource_type"] = seconds_by_resource_type(run_results)
    return record


def dbt_env(run_dir: Path) -> dict[str, str]:
    """The environment of one pipeline run: its own metastore, warehouse, target and logs."""
    return {
        "CDC_LOCAL_DIR": str(run_dir),
        "DBT_TARGET_PATH": str(run_dir / "target"),
        "DBT_LOG_PATH": str(run_dir / "logs"),
        "PYSPARK_PYTHON": os.environ.get("PYSPARK_PYTHON", sys.executable),
    }


def cdc_dbt() -> str:
    """The `cdc-dbt` entry point of this interpreter's environment."""
    beside = Path(sys.executable).parent / "cdc-dbt"
    found = str(beside) if beside.exists() else shutil.which("cdc-dbt")
    if found is None:
        raise BenchmarkError("cdc-dbt not found: source bin/_bootstrap.sh first")
    return found


def wait_for_metastore(database: Path, seconds: float = METASTORE_RELEASE_SECONDS) -> None:
    """Wait until no process has the embedded Derby `database` booted.

    The previous build's JVM may still be exiting after its cdc-dbt process has ended; cdc-dbt
    refuses to start while it holds the database (python_udfs.metastore_lock).
    """
    deadline = time.monotonic() + seconds
    while held_by_another_process(database):
        if time.monotonic() > deadline:
            raise BenchmarkError(f"{database} still held by another process after {seconds} s")
        time.sleep(0.5)


def run_dbt(
    arguments: Sequence[str],
    run_dir: Path,
    log: Path,
    results_copy: Path,
    extra_env: Mapping[str, str] | None = None,
) -> tuple[Measurement, JsonDict | None]:
    """Run `cdc-dbt <arguments>` in `run_dir`'s environment (plus `extra_env`, e.g. another
    target's settings); keep a copy of run_results.json."""
    wait_for_metastore(run_dir / "metastore_db")
    install_package(SAMPLES_DIR)
    result = measure(
        [cdc_dbt(), *arguments],
        log_path=log,
        extra_env={**dbt_env(run_dir), **(extra_env or {})},
        cwd=SAMPLES_DIR,
    )
    run_results_path = run_dir / "target" / "run_results.json"
    run_results = None
    if run_results_path.is_file():
        shutil.copyfile(run_results_path, results_copy)
        run_results = json.loads(run_results_path.read_text())
    return result, run_results


def top_models(run_results: JsonDict | None, count: int = TOP_MODELS) -> list[JsonDict]:
    """The `count` slowest models of a dbt run: execution time, compile and execute parts."""
    if not run_results:
        return []
    models = []
    for node in run_results.get("results", []):
        if not node["unique_id"].startswith("model."):
            continue
        phases = {
            f"{timing['name']}_seconds": round(
                _seconds_between(timing["started_at"], timing["completed_at"]), 3
            )
            for timing in node.get("timing", [])
            if timing.get("started_at") and timing.get("completed_at")
        }
        models.append(
            {
                "unique_id": node["unique_id"],
                "status": node.get("status"),
                "execution_time": round(node.get("execution_time") or 0.0, 3),
                **phases,
            }
        )
    models.sort(key=lambda model: model["execution_time"], reverse=True)
    return models[:count]


def seconds_by_resource_type(run_results: JsonDict | None) -> dict[str, float]:
    """Summed execution_time per kind of node (model, seed, test, operation for hooks)."""
    totals: dict[str, float] = {}
    for node in (run_results or {}).get("results", []):
        kind = node["unique_id"].split(".", 1)[0]
        totals[kind] = round(totals.get(kind, 0.0) + (node.get("execution_time") or 0.0), 3)
    return totals


def _seconds_between(start: str, end: str) -> float:
    """Seconds between two dbt timestamps (ISO 8601, `Z` suffix)."""
    return (_timestamp(end) - _timestamp(start)).total_seconds()


def _timestamp(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def test_summary(run_results: JsonDict | None) -> JsonDict:
    """Counts per test status and the failing or erroring tests with their messages."""
    if not run_results:
        return {"status_counts": {}, "failures": []}
    counts: dict[str, int] = {}
    failures = []
    for node in run_results.get("results", []):
        status = str(node.get("status"))
        counts[status] = counts.get(status, 0) + 1
        if status in ("fail", "error"):
            failures.append(
                {"unique_id": node["unique_id"], "status": status, "message": node.get("message")}
            )
    return {"status_counts": counts, "failures": failures[:20]}


def _series(records: list[JsonDict], command: Sequence[str] | None = None) -> JsonDict:
    """Per-repeat records plus their median, min, max and peak memory."""
    seconds = [record["seconds"] for record in records]
    series: JsonDict = {"runs": records}
    if command is not None:
        series["command"] = shlex.join(command)
    if seconds:
        series.update(
            {
                "median_seconds": round(statistics.median(seconds), 3),
                "min_seconds": min(seconds),
                "max_seconds": max(seconds),
                "peak_total_rss_mib": max(record["peak_total_rss_mib"] for record in records),
                "peak_largest_rss_mib": max(record["peak_largest_rss_mib"] for record in records),
            }
        )
    dbt_elapsed = [
        record["dbt_elapsed_seconds"] for record in records if "dbt_elapsed_seconds" in record
    ]
    if dbt_elapsed:
        series["median_dbt_elapsed_seconds"] = round(statistics.median(dbt_elapsed), 3)
    return series


def run_volume(
    args: argparse.Namespace,
    work: Path,
    volume: int,
    entry: JsonDict,
    save: Callable[[], None],
    cdc_tables: JsonDict,
) -> None:
    """Generate, build, test, compare and time one volume, filling `entry` as it goes.

    Every build configures only `cdc_tables` (see `cdc_tables_var`).
    """
    logs = work / f"logs_{volume}"
    _remove_tree(logs, work)
    logs.mkdir(parents=True)
    entry["logs"] = str(logs)
    entry["loadavg_at_start"] = _loadavg()
    entry.update(ensure_data(args, work, volume, logs))
    save()
    landing, append = Path(entry["landing"]), Path(entry["append"])
    build_vars = dbt_vars(landing, cdc_tables)
    build_args = build_arguments(landing, cdc_tables)
    baseline_dir = work / f"baseline_{volume}"
    full: list[JsonDict] = []
    noop: list[JsonDict] = []
    incremental: list[JsonDict] = []
    baseline: list[JsonDict] = []
    baseline_command: list[str] | None = None

    repeats = args.large_repeats if volume >= args.large_volume else args.repeats
    entry["repeats"] = repeats
    for repeat in range(1, repeats + 1):
        last = repeat == repeats
        restore_landing(landing, append)
        if not args.skip_baseline:
            _remove_tree(baseline_dir, work)
            baseline_command = python_module(
                "benchmarks.baseline_job", {"landing": landing, "out": baseline_dir}
            )
            print(f"  [{repeat}/{repeats}] baseline job", flush=True)
            result = measure(
                baseline_command, log_path=logs / f"baseline_{repeat}.log", cwd=PROJECT_DIR
            )
            _check(result, "baseline job")
            baseline.append(_run_record(result))
            entry["baseline"] = _series(baseline, baseline_command)
            save()

        run_dir = work / f"run_{volume}_{repeat}"
        _remove_tree(run_dir, work)
        run_dir.mkdir(parents=True)
        print(f"  [{repeat}/{repeats}] full build", flush=True)
        result, run_results = run_dbt(
            build_args,
            run_dir,
            logs / f"full_{repeat}.log",
            logs / f"run_results_full_{repeat}.json",
        )
        _check(result, "full build")
        full.append(_build_record(result, run_results))
        entry["pipeline_full"] = _series(full, [cdc_dbt(), *build_args])
        if last:
            entry["top_models"] = {"full": top_models(run_results)}
        save()

        print(f"  [{repeat}/{repeats}] no-op rerun", flush=True)
        result, run_results = run_dbt(
            build_args,
            run_dir,
            logs / f"noop_{repeat}.log",
            logs / f"run_results_noop_{repeat}.json",
        )
        _check(result, "no-op rerun")
        record = _build_record(result, run_results)
        record["over_full"] = round(record["seconds"] / full[-1]["seconds"], 4)
        noop.append(record)
        entry["pipeline_noop"] = _series(noop, [cdc_dbt(), *build_args])
        if last:
            entry["top_models"]["noop"] = top_models(run_results)
        save()

        if repeat == 1 and not args.skip_tests:
            print(f"  [{repeat}/{repeats}] tests", flush=True)
            result, run_results = run_dbt(
                ["test", "--vars", build_vars],
                run_dir,
                logs / "tests.log",
                logs / "run_results_tests.json",
            )
            entry["tests"] = {
                **_run_record(result),
                "passed": result.exit_code == 0,
                **test_summary(run_results),
            }
            save()

        if last and not args.skip_baseline:
            print(f"  [{repeat}/{repeats}] compare with the baseline", flush=True)
            entry["compare"] = compare(run_dir, baseline_dir, logs / "compare.log")
            save()

        moved = move_batch_in(landing, append)
        print(f"  [{repeat}/{repeats}] incremental build (+{len(moved)} files)", flush=True)
        try:
            result, run_results = run_dbt(
                build_args,
                run_dir,
                logs / f"incremental_{repeat}.log",
                logs / f"run_results_incremental_{repeat}.json",
            )
        finally:
            restore_landing(landing, append)
        _check(result, "incremental build")
        record = _build_record(result, run_results)
        record["over_full"] = round(record["seconds"] / full[-1]["seconds"], 4)
        incremental.append(record)
        entry["pipeline_incremental"] = _series(incremental, [cdc_dbt(), *build_args])
        if last:
            entry["top_models"]["incremental"] = top_models(run_results)
        else:
            _remove_tree(run_dir, work)
        entry["ratios"] = ratios(entry)
        save()


def run_empty_input(
    args: argparse.Namespace,
    work: Path,
    entry: JsonDict,
    save: Callable[[], None],
    cdc_tables: JsonDict,
) -> None:
    """Time one full build on a landing of no rows, in a fresh metastore: a run's fixed cost.

    The landing (`<work>/data_empty/landing`, see `write_empty_landing`) is written anew;
    the build runs in `<work>/run_empty` with the same arguments as every other build.
    """
    data, run_dir, logs = work / "data_empty", work / "run_empty", work / "logs_empty"
    for folder in (data, run_dir, logs):
        _remove_tree(folder, work)
        folder.mkdir(parents=True)
    landing = data / "landing"
    write_empty_landing(landing, benchmark_tables(args.extra_columns, args.extra_width))
    entry.update(
        {
            "logs": str(logs),
            "loadavg_at_start": _loadavg(),
            "landing": str(landing),
            "tables": count_rows(landing),
        }
    )
    build_args = build_arguments(landing, cdc_tables)
    print("  full build", flush=True)
    result, run_results = run_dbt(
        build_args, run_dir, logs / "full.log", logs / "run_results_full.json"
    )
    _check(result, "empty-input build")
    entry["pipeline_full"] = _series([_build_record(result, run_results)], [cdc_dbt(), *build_args])
    entry["top_models"] = {"full": top_models(run_results)}
    save()


def compare(run_dir: Path, baseline_dir: Path, log: Path) -> JsonDict:
    """Run compare_outputs on a pipeline warehouse and a baseline output; keep its verdicts."""
    warehouse = run_dir / "warehouse" / "cdc.db"
    command = python_module(
        "benchmarks.compare_outputs", {"warehouse": warehouse, "baseline": baseline_dir}
    )
    result = measure(command, log_path=log, cwd=PROJECT_DIR)
    lines = [
        line.strip()
        for line in Path(result.log_path).read_text().splitlines()
        if line.startswith(("same ", "DIFFERENT "))
    ]
    verdict = {0: "same", 1: "different"}.get(result.exit_code, "error")
    return {
        "verdict": verdict,
        "exit_code": result.exit_code,
        "lines": lines,
        "seconds": round(result.wall_seconds, 3),
        "log": result.log_path,
        "command": shlex.join(command),
    }


# ---------------------------------------------------------------------------------------------
# figures


def _median(entry: JsonDict, phase: str) -> float | None:
    return entry.get(phase, {}).get("median_seconds")


def ratios(entry: JsonDict) -> JsonDict:
    """pipeline full / baseline (medians); incremental / full and no-op rerun / full (medians
    of per-repeat ratios, each against the full build of its own repeat)."""
    full, base = _median(entry, "pipeline_full"), _median(entry, "baseline")
    figures: JsonDict = {"full_over_baseline": round(full / base, 3) if full and base else None}
    for phase, name in (("pipeline_incremental", "incremental"), ("pipeline_noop", "noop")):
        per_repeat = [run["over_full"] for run in entry.get(phase, {}).get("runs", [])]
        figures[f"{name}_over_full"] = (
            round(statistics.median(per_repeat), 4) if per_repeat else None
        )
        figures[f"{name}_over_full_each"] = per_repeat
    return figures


def growth(volumes: list[JsonDict]) -> list[JsonDict]:
    """For consecutive volumes: (time ratio) / (volume ratio); at most 1 means sublinear."""
    rows = []
    for small, large in pairwise(volumes):
        volume_ratio = large["changes"] / small["changes"]
        row: JsonDict = {
            "from": small["changes"],
            "to": large["changes"],
            "volume_ratio": round(volume_ratio, 3),
        }
        for phase in ("pipeline_full", "pipeline_noop", "pipeline_incremental", "baseline"):
            before, after = _median(small, phase), _median(large, phase)
            row[phase] = (
                round(after / before / volume_ratio, 3) if before and after is not None else None
            )
        rows.append(row)
    return rows


def _fmt(value: float | None, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def _memory(series: JsonDict) -> str:
    """Peak RSS MiB of a series as tree/largest process, or '-'."""
    if not series:
        return "-"
    return (
        f"{_fmt(series.get('peak_total_rss_mib'), '.0f')}/"
        f"{_fmt(series.get('peak_largest_rss_mib'), '.0f')}"
    )


def summary_table(results: JsonDict) -> str:
    """A readable table of the medians, ratios, memory and verdicts, then the growth figures."""
    header = (
        f"{'changes':>10} {'ct rows':>10} {'full s':>8} {'noop s':>8} {'incr s':>8} "
        f"{'base s':>8} {'full/base':>9} {'noop/full':>9} {'incr/full':>9} {'tests s':>8} "
        f"{'full MiB':>13} {'noop MiB':>13} {'incr MiB':>13} {'base MiB':>13}  compare"
    )
    lines = [
        "median wall seconds; peak RSS MiB as tree/largest process",
        header,
        "-" * len(header),
    ]
    for entry in results["volumes"]:
        phases = ("pipeline_full", "pipeline_noop", "pipeline_incremental", "baseline")
        memory = " ".join(f"{_memory(entry.get(phase, {})):>13}" for phase in phases)
        ratio = entry.get("ratios", {})
        lines.append(
            f"{entry['changes']:>10,} {entry.get('change_rows', 0):>10,} "
            + " ".join(f"{_fmt(_median(entry, phase)):>8}" for phase in phases)
            + f" {_fmt(ratio.get('full_over_baseline'), '.2f'):>9} "
            f"{_fmt(ratio.get('noop_over_full'), '.2f'):>9} "
            f"{_fmt(ratio.get('incremental_over_full'), '.2f'):>9} "
            f"{_fmt(entry.get('tests', {}).get('seconds')):>8} "
            f"{memory}  {entry.get('compare', {}).get('verdict', '-')}"
            + (f"  ERROR: {entry['error']}" if entry.get("error") else "")
        )
    empty = results.get("empty_input", {})
    if empty.get("pipeline_full") or empty.get("error"):
        full = empty.get("pipeline_full", {})
        nodes = [run.get("nodes") for run in full.get("runs", [])]
        lines += [
            "",
            f"empty input (a run's fixed cost): {_fmt(full.get('median_seconds'))} s, "
            f"peak {_memory(full)} MiB, {nodes[0] if nodes else '-'} nodes"
            + (f"  ERROR: {empty['error']}" if empty.get("error") else ""),
        ]
    if results.get("growth"):
        lines += ["", "growth = (time ratio) / (volume ratio), <= 1 is sublinear"]
        lines.append(
            f"{'from':>10} {'to':>10} {'x vol':>6} {'full':>6} {'noop':>6} {'incr':>6} {'base':>6}"
        )
        for row in results["growth"]:
            lines.append(
                f"{row['from']:>10,} {row['to']:>10,} {row['volume_ratio']:>6.1f} "
                + " ".join(
                    f"{_fmt(row.get(phase), '.2f'):>6}"
                    for phase in ("pipeline_full", "pipeline_noop", "pipeline_incremental")
                )
                + f" {_fmt(row.get('baseline'), '.2f'):>6}"
            )
    return "\n".join(lines)


def write_results(path: Path, results: JsonDict) -> None:
    """Write the results JSON atomically (a partial file never replaces a good one)."""
    results["growth"] = growth([entry for entry in results["volumes"] if "pipeline_full" in entry])
    results["updated_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(results, indent=2) + "\n")
    temporary.replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; write the results JSON and print the summary table."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(arguments)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    try:
        cdc_tables = cdc_tables_var(benchmark_tables(args.extra_columns, args.extra_width))
        if args.duplicate_resolution is not None:
            for table in cdc_tables.values():
                table["duplicate_resolution"] = args.duplicate_resolution
    except BenchmarkError as error:
        print(f"ERROR: {error}", file=sys.stderr)
        return 2
    results: JsonDict = {
        "command": shlex.join(["python", "-m", "benchmarks.pipeline", *arguments]),
        "argv": arguments,
        "cwd": str(Path.cwd()),
        "settings": {
            "volumes": sorted(set(args.volumes)),
            "keys_ratio": args.keys_ratio,
            "append_fraction": args.append_fraction,
            "repeats": args.repeats,
            "seed": args.seed,
            "extra_columns": args.extra_columns,
            "extra_width": args.extra_width,
            "duplicate_resolution": args.duplicate_resolution,
            "skip_tests": args.skip_tests,
            "skip_baseline": args.skip_baseline,
            "skip_empty_input": args.skip_empty_input,
            "work": str(work),
            "cdc_tables": cdc_tables,
        },
        "machine": machine_info(),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "volumes": [],
    }

    def save() -> None:
        write_results(args.json, results)

    status = 0
    interrupt_on_sigterm()
    try:
        for volume in sorted(set(args.volumes)):
            print(f"== {volume:,} changes", flush=True)
            entry: JsonDict = {"changes": volume}
            results["volumes"].append(entry)
            try:
                run_volume(args, work, volume, entry, save, cdc_tables)
            except BenchmarkError as error:
                entry["error"] = str(error)
                print(f"ERROR: {error}", file=sys.stderr)
                status = 2
                break
            finally:
                save()
        if status == 0 and not args.skip_empty_input:
            print("== empty input (no rows landed)", flush=True)
            results["empty_input"] = {}
            try:
                run_empty_input(args, work, results["empty_input"], save, cdc_tables)
            except BenchmarkError as error:
                results["empty_input"]["error"] = str(error)
                print(f"ERROR: {error}", file=sys.stderr)
                status = 2
            finally:
                save()
    except KeyboardInterrupt:
        results["interrupted"] = True
        status = 130
    results["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    save()
    print()
    print(summary_table(results))
    problems = []
    for entry in results["volumes"]:
        if entry.get("compare", {}).get("verdict") not in (None, "same"):
            problems.append(f"{entry['changes']:,}: compare {entry['compare']['verdict']}")
            problems += [f"    {line}" for line in entry["compare"]["lines"]]
        if entry.get("tests") and not entry["tests"]["passed"]:
            problems.append(f"{entry['changes']:,}: tests failed, see {entry['tests']['log']}")
    if results.get("interrupted"):
        problems.append("interrupted: the results are partial")
    if problems:
        print("\nPROBLEMS:\n" + "\n".join(problems))
        status = status or 1
    print(f"\nresults: {args.json}")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
