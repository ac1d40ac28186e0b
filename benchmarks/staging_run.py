"""What the staging throughput benchmarks share: a timed `cdc-dbt run` of one format's models
in a fresh metastore, and counts read back afterwards in a Spark session of their own.

Used by the staging benchmarks (benchmarks/openedge_staging.py, qlik_kafka_staging.py,
goldengate_staging.py) and the whole-pipeline ones (benchmarks/openedge_pipeline.py,
qlik_kafka_pipeline.py, goldengate_pipeline.py), which also run a format's baseline job
(`run_baseline`) and compare its outputs with the pipeline's (`compare_with_baseline`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cdc_simulator.project_copy import install_package

PROJECT_DIR = Path(__file__).resolve().parents[1]


def staging_arguments(
    description: str, name: str, result: str | None = None
) -> argparse.ArgumentParser:
    """The options every staging benchmark takes: volume, keys, seed, its work folder
    (.local/bench_<name>) and its result file (benchmarks/results/<result>, by default
    <name>_staging.json)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / ".local" / f"bench_{name}")
    parser.add_argument(
        "--json",
        type=Path,
        default=PROJECT_DIR / "benchmarks/results" / (result or f"{name}_staging.json"),
    )
    return parser


def generated_before(folder: Path, parameters: Mapping[str, object]) -> dict[str, object] | None:
    """What an earlier generation into `folder` recorded in its stamp.json, when it was made
    with these `parameters` (the data is reused); otherwise None, with `folder` removed, for
    the caller to generate afresh and write the stamp."""
    stamp = folder / "stamp.json"
    if stamp.exists():
        recorded = json.loads(stamp.read_text())
        if recorded.get("parameters") == dict(parameters):
            return dict(recorded)
    shutil.rmtree(folder, ignore_errors=True)
    return None


def format_models(source_system: str, project_dir: Path = PROJECT_DIR / "samples") -> list[str]:
    """The selectors of a format's models: its staging and intermediate folders in the
    package, by their fqn (dbt resolves `path:` against the running project's folders: one
    the sample project lacks, such as models/intermediate/<format>, selects nothing), and the
    staging files `cdc-dbt scaffold` generated for its tables in the project, when it has
    any."""
    selectors = [
        f"cdc_history.staging.{source_system}",
        f"cdc_history.intermediate.{source_system}",
    ]
    for folder in (f"models/staging/{source_system}", f"models/intermediate/{source_system}"):
        if (project_dir / folder).is_dir():
            selectors.append(f"path:{folder}")
    return selectors


class RunFailed(RuntimeError):
    """cdc-dbt run exited with an error; the message names its log."""


def timed_run(
    run_dir: Path,
    select: list[str],
    variables: Mapping[str, object],
    *,
    fresh: bool = True,
    project_dir: Path = PROJECT_DIR / "samples",
    log_name: str | None = None,
) -> dict[str, object]:
    """`cdc-dbt run --select <select> --vars <variables>` in a fresh `run_dir` (its own Derby
    metastore and warehouse; `fresh=False`: on what an earlier run there left, an incremental
    run) of the project at `project_dir` (the sample project, or a copy:
    cdc_simulator.project_copy): the wall time
    and each model's seconds, slowest first. The output goes to `run_dir/<log_name>`
    (default run.log, or incremental_run.log when not fresh)."""
    install_package(project_dir)  # the sample project's or a copy's (a link to the package)
    if fresh:
        shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "CDC_LOCAL_DIR": str(run_dir),
        "DBT_TARGET_PATH": str(run_dir / "target"),
        "DBT_LOG_PATH": str(run_dir / "logs"),
    }
    command = [
        str(Path(sys.executable).with_name("cdc-dbt")),
        "run",
        "--select",
        *select,
        "--vars",
        json.dumps(variables),
    ]
    started = time.monotonic()
    done = subprocess.run(command, cwd=project_dir, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    log = run_dir / (log_name or ("run.log" if fresh else "incremental_run.log"))
    log.write_text(done.stdout + done.stderr)
    if done.returncode != 0:
        raise RunFailed(f"cdc-dbt run failed ({done.returncode}); see {log}")
    run_results = json.loads((run_dir / "target" / "run_results.json").read_text())
    models = sorted(
        (
            {"model": r["unique_id"].split(".")[-1], "seconds": round(r["execution_time"], 1)}
            for r in run_results["results"]
        ),
        key=lambda item: -item["seconds"],
    )
    return {"run_seconds": round(seconds, 1), "models": models}


def count_rows(
    run_dir: Path, queries: dict[str, str], timings: dict[str, float] | None = None
) -> dict[str, Any]:
    """Each query's single number, read in a Spark session on the run's metastore (after
    cdc-dbt has exited: Derby lets one process in); None for a statement that returns no
    row (DDL). With `timings`, each query's seconds go there too: a count over a view is
    the view computed once."""
    os.environ["CDC_LOCAL_DIR"] = str(run_dir)
    from python_udfs.session import build_spark_session, prepare_environment, spark_settings

    prepare_environment(PROJECT_DIR)
    _target, settings = spark_settings(PROJECT_DIR / "profiles", "local")
    spark = build_spark_session(settings)
    try:
        counts = {}
        for name, query in queries.items():
            started = time.monotonic()
            row = spark.sql(query).first()
            counts[name] = None if row is None else row[0]
            if timings is not None:
                timings[name] = round(time.monotonic() - started, 1)
        return counts
    finally:
        spark.stop()


def write_result(path: Path, result: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def run_baseline(module: str, landing: Path, out: Path) -> float:
    """A format's baseline job (`python -m <module>`) as a process of its own (its own
    Spark), wall seconds."""
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    command = [sys.executable, "-m", module, "--landing", str(landing), "--out", str(out)]
    subprocess.run(command, cwd=PROJECT_DIR, check=True)
    return round(time.monotonic() - started, 1)


def compare_with_baseline(warehouse: Path, baseline: Path, tables: Sequence[str]) -> list[str]:
    """benchmarks.compare_outputs over these tables, in a process of its own: a line per
    compared output, 'same ...' or 'DIFFERENT ...'."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.compare_outputs",
            "--warehouse",
            str(warehouse),
            "--baseline",
            str(baseline),
            "--tables",
            *tables,
        ],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
    )
    lines = done.stdout.splitlines()
    if done.returncode not in (0, 1) or not lines:
        raise RunFailed(f"compare_outputs failed: {done.stderr[-2000:]}")
    return lines


def pipeline_beside_baseline(
    work: Path,
    info: Mapping[str, object],
    *,
    baseline_module: str,
    select: list[str],
    variables: Mapping[str, object],
    tables: Sequence[str],
    quarantine: str,
    result_path: Path,
) -> int:
    """Steps 2 to 5 of a whole-pipeline benchmark (openedge_pipeline.py, qlik_kafka_pipeline.py,
    goldengate_pipeline.py), on `<work>/data/landing` and its later batch `<work>/data/append`
    (a folder per landed folder): the baseline job timed; a full `cdc-dbt run` of `select` in
    a fresh `<work>/run`, timed, its histories and current states of `tables` compared with
    the baseline's; the later batch copied in (`batch-<file>`), the incremental run timed,
    the baseline job run again over everything landed (into `<work>/baseline_after_increment`),
    the copies removed, and the outputs after the increment compared with that second
    baseline's (an increment that appends wrongly differs there, not after the full run); the
    seconds, ratios and counts written to `result_path`. Returns 0, 1 when the outputs differ
    after either run or `quarantine` (a model) holds a row, 2 when a run failed."""
    landing, later = work / "data" / "landing", work / "data" / "append"
    run_dir = work / "run"
    result: dict[str, object] = {**info, "cpu_count": os.cpu_count()}
    baseline_seconds = run_baseline(baseline_module, landing, work / "baseline")
    result["baseline_seconds"] = baseline_seconds
    try:
        full = timed_run(run_dir, select, variables)
        result["full_run"] = full
        comparison = compare_with_baseline(
            run_dir / "warehouse" / "cdc.db", work / "baseline", tables
        )
        result["comparison"] = comparison
        copied = []
        for folder in later.iterdir():
            for file in folder.glob("*.parquet"):
                target = landing / folder.name / f"batch-{file.name}"
                shutil.copy2(file, target)
                copied.append(target)
        try:
            incremental = timed_run(run_dir, select, variables, fresh=False)
            result["incremental_run"] = incremental
            after = work / "baseline_after_increment"
            result["baseline_after_increment_seconds"] = run_baseline(
                baseline_module, landing, after
            )
        finally:
            for target in copied:
                target.unlink()
        comparison_after = compare_with_baseline(run_dir / "warehouse" / "cdc.db", after, tables)
        result["comparison_after_increment"] = comparison_after
    except RunFailed as failure:
        print(failure)
        write_result(result_path, result)
        return 2
    full_seconds = float(full["run_seconds"])  # type: ignore[arg-type]
    incremental_seconds = float(incremental["run_seconds"])  # type: ignore[arg-type]
    counts = count_rows(run_dir, {"quarantined": f"select count(*) from cdc.{quarantine}"})
    result.update(
        {
            "changes_per_second": round(int(info["model_changes"]) / full_seconds),  # type: ignore[call-overload]
            "full_over_baseline": round(full_seconds / baseline_seconds, 2),
            "incremental_over_full": round(incremental_seconds / full_seconds, 2),
            "quarantined": counts["quarantined"],
        }
    )
    write_result(result_path, result)
    same = all(line.startswith("same") for line in [*comparison, *comparison_after])
    return 0 if same and counts["quarantined"] == 0 else 1
