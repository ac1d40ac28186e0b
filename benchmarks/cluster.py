"""The same builds on the local target and on a loopback Spark standalone cluster, compared.

    python -m benchmarks.cluster [--changes 1000000] [--keys-ratio 0.1]
        [--append-fraction 0.01] [--seed 1] [--work .local/bench]
        [--json benchmarks/results/cluster.json] [--worker-cores 2] [--worker-memory 5g]
        [--executor-memory 4g] [--shuffle-partitions 4] [--step-timeout 1800]

One machine, so the cluster's figures are a ratio against local mode, not a speed-up: both
share the same cores. Steps, in this order:

1. The landing and the later batch of benchmarks.pipeline (`<work>/data_<N>`, generated
   unless its stamp matches; the same generator, seed and parameters).
2. A master and one worker (`--worker-cores`, `--worker-memory`) on 127.0.0.1 from the Spark
   that pyspark ships (benchmarks.standalone_cluster), each start bounded by 120 s; stopped
   whatever happens (also on an interrupt or a failed step).
3. Local target (`local[*]`, as benchmarks.pipeline runs it) in `<work>/run_local_<N>`: full
   build, no-op rerun; then the `cluster` target (`spark://127.0.0.1:<port>`, client mode: the
   driver in the cdc-dbt process, one executor of `--worker-cores` cores on the worker, its
   own Derby metastore and warehouse in `<work>/run_cluster_<N>`): full build, no-op rerun.
   Both with benchmarks.pipeline's build arguments (the whole project without tests, only
   the two generated Qlik tables) and the same number of shuffle partitions.
4. Compare the two warehouses (`compare_warehouses`): the typed images, histories and
   current states of both tables, row for row over every column but the load times.
5. Move the later batch into the landing, run the incremental build on the local target,
   then on the cluster target, move the batch back out; compare again.
6. The executors' logs: that the Python UDFs were shipped to and ran in the executor.

Every build is timed and memory-sampled (benchmarks.process_memory: the cdc-dbt process
tree, which on the cluster target holds the driver only; the executor's JVM and Python
workers are the worker's children) and stopped after `--step-timeout` seconds. The JSON is
rewritten after every step. Exit status 0 when everything ran and the outputs are equal, 1
when they differ, 2 when a step failed, 130 on an interrupt.
"""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from benchmarks.pipeline import (
    BenchmarkError,
    JsonDict,
    _build_record,
    _check,
    _loadavg,
    _remove_tree,
    benchmark_tables,
    build_arguments,
    cdc_dbt,
    cdc_tables_var,
    ensure_data,
    machine_info,
    move_batch_in,
    restore_landing,
    run_dbt,
    top_models,
    write_results,
)
from benchmarks.process_memory import interrupt_on_sigterm, measure
from benchmarks.standalone_cluster import Cluster, free_port

PROJECT_DIR = Path(__file__).resolve().parent.parent
TARGETS = ("local", "cluster")
PHASES = ("full", "noop", "incremental")
# Compared per generated table: what the cluster test compares, minus the change log
# (a view over staging here).
COMPARED_MODELS = ("int_{table}__change_images", "dim_{table}_history", "dim_{table}_current")
# When a row was loaded differs between two builds by construction.
LOAD_TIME_COLUMNS = ("loaded_at", "change_loaded_at")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.cluster",
        description="Full, no-op and incremental builds on the local target and on a loopback "
        "standalone cluster; outputs compared; figures side by side.",
    )
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--keys-ratio", type=float, default=0.1)
    parser.add_argument("--append-fraction", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path(".local/bench"))
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/cluster.json"))
    parser.add_argument("--worker-cores", type=int, default=2)
    parser.add_argument("--worker-memory", default="5g")
    parser.add_argument("--executor-memory", default="4g")
    parser.add_argument("--shuffle-partitions", type=int, default=4)
    parser.add_argument("--step-timeout", type=int, default=1800, help="seconds per build")
    args = parser.parse_args(argv)
    if args.changes < 1 or args.worker_cores < 1 or args.step_timeout < 1:
        parser.error("--changes, --worker-cores and --step-timeout must be >= 1")
    # what benchmarks.pipeline.ensure_data reads
    args.extra_columns, args.extra_width = 0, 20
    return args


def target_env(
    target: str, run_dir: Path, master_url: str, args: argparse.Namespace
) -> dict[str, str]:
    """The environment (on top of benchmarks.pipeline's per-run one) of a build on `target`.

    Both targets: the same shuffle partitions. The cluster target: the master, its own Derby
    metastore and warehouse in `run_dir` (as the local target has), the executor's Python,
    cores and memory; one application at a time takes all the worker's cores.
    """
    common = {"CDC_SHUFFLE_PARTITIONS": str(args.shuffle_partitions), "CDC_THREADS": "1"}
    if target == "local":
        return {**common, "CDC_TARGET": "local"}
    if target != "cluster":
        raise ValueError(f"unknown target {target!r}")
    return {
        **common,
        "CDC_TARGET": "cluster",
        "CDC_SPARK_MASTER": master_url,
        "CDC_SPARK_APP_NAME": "cdc-history-benchmark",
        "CDC_WAREHOUSE_DIR": str(run_dir / "warehouse"),
        "CDC_METASTORE_URL": f"jdbc:derby:;databaseName={run_dir}/metastore_db;create=true",
        "CDC_DRIVER_JAVA_OPTIONS": f"-Dderby.system.home={run_dir}",
        "CDC_EXECUTOR_PYTHON": sys.executable,
        "CDC_EXECUTOR_MEMORY": args.executor_memory,
        "CDC_EXECUTOR_CORES": str(args.worker_cores),
        "CDC_CORES_MAX": str(args.worker_cores),
        "SPARK_LOCAL_IP": "127.0.0.1",
    }


def compared_columns(columns: Sequence[str]) -> list[str]:
    """The columns two builds must agree on: all but the load times, in a fixed order."""
    return sorted(column for column in columns if column not in LOAD_TIME_COLUMNS)


def compared_models(tables: Sequence[str]) -> list[str]:
    return [model.format(table=table) for table in tables for model in COMPARED_MODELS]


def ratio_table(entry: JsonDict) -> JsonDict:
    """cluster seconds / local seconds per phase (None where a phase did not finish)."""
    figures: JsonDict = {}
    for phase in PHASES:
        local = entry.get("local", {}).get(phase, {}).get("seconds")
        remote = entry.get("cluster", {}).get(phase, {}).get("seconds")
        figures[phase] = round(remote / local, 3) if local and remote else None
    return figures


def executor_evidence(logs: str) -> JsonDict:
    """What the executors' logs show: python_udfs shipped, Python workers timed in them."""
    return {
        "python_udfs_zip_fetched": "python_udfs.zip" in logs,
        "python_runner_timings": logs.count("PythonUDTFRunner: Times: total")
        + logs.count("PythonRunner: Times: total"),
    }


def summary(results: JsonDict) -> str:
    entry = results["run"]
    lines = [f"{'phase':<12} {'local s':>9} {'cluster s':>10} {'cluster/local':>14}"]
    for phase in PHASES:
        local = entry.get("local", {}).get(phase, {}).get("seconds")
        remote = entry.get("cluster", {}).get(phase, {}).get("seconds")
        ratio = entry.get("ratios", {}).get(phase)
        lines.append(
            f"{phase:<12} {local if local is not None else '-':>9} "
            f"{remote if remote is not None else '-':>10} "
            f"{ratio if ratio is not None else '-':>14}"
        )
    for when, verdict in entry.get("compare", {}).items():
        lines.append(f"compare after {when}: {verdict['verdict']}")
        lines += [f"    {line}" for line in verdict["lines"]]
    return "\n".join(lines)


class StepTimeout(BenchmarkError):
    """A build ran longer than --step-timeout."""


@contextmanager
def time_limit(seconds: int, what: str) -> Iterator[None]:
    """Raise StepTimeout in the main thread after `seconds`; measure() then ends the build."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise StepTimeout(f"{what}: still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def compare(left: Path, right: Path, models: Sequence[str], log: Path) -> JsonDict:
    """benchmarks.compare_warehouses in its own process (its own local Spark), its verdicts."""
    command = [sys.executable, "-m", "benchmarks.compare_warehouses", str(left), str(right)]
    result = measure([*command, *models], log_path=log, cwd=PROJECT_DIR)
    lines = [
        line.strip()
        for line in log.read_text().splitlines()
        if line.startswith(("same ", "DIFFERENT "))
    ]
    return {
        "verdict": {0: "same", 1: "different"}.get(result.exit_code, "error"),
        "exit_code": result.exit_code,
        "lines": lines,
        "seconds": round(result.wall_seconds, 3),
        "log": str(log),
        "command": shlex.join([*command, *models]),
    }


def run_all(
    args: argparse.Namespace,
    work: Path,
    entry: JsonDict,
    results: JsonDict,
    save: Callable[[], None],
) -> None:
    volume = args.changes
    logs = work / f"logs_{volume}"
    logs.mkdir(parents=True, exist_ok=True)
    entry.update(ensure_data(args, work, volume, logs))
    save()
    landing, append = Path(entry["landing"]), Path(entry["append"])
    tables = benchmark_tables()
    cdc_tables = cdc_tables_var(tables)
    build_args = build_arguments(landing, cdc_tables)
    models = compared_models([spec.name for spec in tables])
    run_dirs = {target: work / f"run_{target}_{volume}" for target in TARGETS}
    for run_dir in run_dirs.values():
        _remove_tree(run_dir, work)
        run_dir.mkdir(parents=True)
    cluster_logs = logs / "standalone"
    cluster_logs.mkdir(exist_ok=True)
    port = free_port()
    cluster = Cluster(f"spark://127.0.0.1:{port}", cluster_logs / "work", cluster_logs)
    cluster.work_dir.mkdir(exist_ok=True)
    results["cluster"] = {
        "master_url": cluster.master_url,
        "worker_cores": args.worker_cores,
        "worker_memory": args.worker_memory,
        "executor_memory": args.executor_memory,
        "logs": str(cluster_logs),
    }
    entry["command"] = shlex.join([cdc_dbt(), *build_args])

    def build(target: str, phase: str) -> None:
        print(f"  {target}: {phase}", flush=True)
        env = target_env(target, run_dirs[target], cluster.master_url, args)
        with time_limit(args.step_timeout, f"{target} {phase}"):
            result, run_results = run_dbt(
                build_args,
                run_dirs[target],
                logs / f"{target}_{phase}.log",
                logs / f"run_results_{target}_{phase}.json",
                extra_env=env,
            )
        _check(result, f"{target} {phase}")
        record = _build_record(result, run_results)
        record["env"] = env
        record["top_models"] = top_models(run_results, 6)
        entry.setdefault(target, {})[phase] = record
        entry["ratios"] = ratio_table(entry)
        save()

    try:
        cluster.start_master(port)
        cluster.start_worker(args.worker_cores, args.worker_memory)
        for target in TARGETS:
            build(target, "full")
            build(target, "noop")
        left, right = (run_dirs[target] / "warehouse" / "cdc.db" for target in TARGETS)
        print("  compare after the no-op rerun", flush=True)
        entry["compare"] = {"noop": compare(left, right, models, logs / "compare_noop.log")}
        save()
        moved = move_batch_in(landing, append)
        print(f"  later batch landed (+{len(moved)} files)", flush=True)
        try:
            for target in TARGETS:
                build(target, "incremental")
        finally:
            restore_landing(landing, append)
        print("  compare after the incremental build", flush=True)
        entry["compare"]["incremental"] = compare(
            left, right, models, logs / "compare_incremental.log"
        )
        save()
    finally:
        cluster.stop()
        entry["executors"] = executor_evidence(cluster.executor_logs())
        save()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(arguments)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    entry: JsonDict = {"changes": args.changes, "loadavg_at_start": _loadavg()}
    results: JsonDict = {
        "command": shlex.join(["python", "-m", "benchmarks.cluster", *arguments]),
        "settings": {key: str(value) for key, value in vars(args).items()},
        "machine": machine_info(),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "run": entry,
        "volumes": [],
    }

    def save() -> None:
        write_results(args.json, results)

    status = 0
    interrupt_on_sigterm()
    try:
        run_all(args, work, entry, results, save)
    except BenchmarkError as error:
        entry["error"] = str(error)
        print(f"ERROR: {error}", file=sys.stderr)
        status = 2
    except KeyboardInterrupt:
        results["interrupted"] = True
        status = 130
    results["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    entry["loadavg_at_end"] = _loadavg()
    save()
    print()
    print(summary(results))
    verdicts = [verdict["verdict"] for verdict in entry.get("compare", {}).values()]
    if status == 0 and (len(verdicts) < 2 or set(verdicts) != {"same"}):
        status = 1
    print(f"\nresults: {args.json}")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
